"""`sheetgm case run`: the case book's cases, one PASS/FAIL line each."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sheetgm.cli.common import attempt, lang_of
from sheetgm.cli.helptext import LocalizedGroup

case_app = typer.Typer(cls=LocalizedGroup, no_args_is_help=True)


@case_app.command("run")
def case_run(
    paths: Annotated[list[Path], typer.Argument()],
    only: Annotated[list[str] | None, typer.Option("--case", "-c")] = None,
) -> None:
    """Run case-book cases: one PASS/FAIL line per case, then a summary."""
    from sheetgm.casebook import run_paths

    results = attempt(lang_of(Path(".")), lambda: run_paths([str(p) for p in paths], only or []))
    for r in results:
        typer.echo(r.line())
    failed = sum(not r.passed for r in results)
    typer.echo(f"{len(results) - failed} passed, {failed} failed")
    if failed or not results:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.add_typer(case_app, name="case")
