"""The ``sheetgm`` script: the fast path for the scheduled commands (cli/fast.py), Typer for everything else."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    from sheetgm.cli import fast

    if fast.run(args):
        return
    from sheetgm.cli.app import app

    app(args=args)
