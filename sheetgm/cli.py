"""The ``sheetgm`` command line: thin commands, one library or service call each."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sheetgm.core.errors import SheetgmError

app = typer.Typer(help="sheetgm: a game master for the forum game 第五人格逃生.", no_args_is_help=True)
case_app = typer.Typer(help="The rules case book (numbered cases, like the Diplomacy DATC).", no_args_is_help=True)
app.add_typer(case_app, name="case")


def fail(message: str) -> None:
    typer.echo(message, err=True)
    raise typer.Exit(1)


@case_app.command("run")
def case_run(
    paths: Annotated[list[Path], typer.Argument(help="Case files (.toml) or folders of them.")],
    only: Annotated[list[str] | None, typer.Option("--case", "-c", help="Run only this case id (repeatable).")] = None,
) -> None:
    """Run case-book cases: one PASS/FAIL line per case, then a summary."""
    from sheetgm.casebook import run_paths

    try:
        results = run_paths([str(p) for p in paths], only or [])
    except SheetgmError as exc:
        fail(exc.message("en"))
        return
    for r in results:
        typer.echo(r.line())
    failed = sum(not r.passed for r in results)
    typer.echo(f"{len(results) - failed} passed, {failed} failed")
    if failed or not results:
        raise typer.Exit(1)


def main() -> None:
    app()
