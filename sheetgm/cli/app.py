"""The ``sheetgm`` command line as Typer declares it: the root group and each command group registered on it.
The script itself is cli/main.py's ``main``, which runs the scheduled commands without Typer."""

from __future__ import annotations

import typer

from sheetgm.cli import case, desk, doctor, game, maps, recap, replay, sim
from sheetgm.cli.helptext import LocalizedGroup

app = typer.Typer(cls=LocalizedGroup, no_args_is_help=True)
for group in (game, doctor, case, maps, desk, replay, recap, sim):
    group.register(app)
