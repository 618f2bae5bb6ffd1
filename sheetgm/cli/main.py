"""The ``sheetgm`` script: the fast path for the scheduled commands (cli/fast.py), Typer for everything else."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    from sheetgm.cli import fast

    try:
        if fast.run(args):
            return
    except BrokenPipeError:  # `sheetgm status | head`: the reader has gone; quietly, as Typer (Click) does
        _quiet_stdout()
        raise SystemExit(1) from None
    except KeyboardInterrupt:  # Ctrl-C: as Typer says it, without a traceback
        print("\nAborted!", file=sys.stderr)
        raise SystemExit(1) from None
    from sheetgm.cli.app import app

    app(args=args)


def _quiet_stdout() -> None:
    """Point stdout at the null device, so that the interpreter's last flush does not fail again."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no file descriptor (a test's captured stream)
        pass
