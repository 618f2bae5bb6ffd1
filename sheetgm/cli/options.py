"""The options every game command takes, declared for Typer."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

GameOpt = Annotated[Path, typer.Option("--game", "-g")]
JsonOpt = Annotated[bool, typer.Option("--json")]
