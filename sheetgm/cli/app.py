"""The ``sheetgm`` command line: the root group, each command group registered on it, and ``main``."""

from __future__ import annotations

import typer

from sheetgm.cli import case, desk, game, maps, recap, replay, sim
from sheetgm.cli.helptext import LocalizedGroup

app = typer.Typer(cls=LocalizedGroup, no_args_is_help=True)
for group in (game, case, maps, desk, replay, recap, sim):
    group.register(app)


def main() -> None:
    app()
