"""The ``sheetgm`` command line: thin commands, one library or service call each."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from sheetgm.cli_common import GameOpt, JsonOpt, emit, fail, holder, lang_of, open_at, serve
from sheetgm.cli_help import LocalizedGroup
from sheetgm.core.errors import SheetgmError

app = typer.Typer(cls=LocalizedGroup, no_args_is_help=True)
case_app = typer.Typer(cls=LocalizedGroup, no_args_is_help=True)
app.add_typer(case_app, name="case")


@case_app.command("run")
def case_run(
    paths: Annotated[list[Path], typer.Argument()],
    only: Annotated[list[str] | None, typer.Option("--case", "-c")] = None,
) -> None:
    """Run case-book cases: one PASS/FAIL line per case, then a summary."""
    from sheetgm.casebook import run_paths

    try:
        results = run_paths([str(p) for p in paths], only or [])
    except SheetgmError as exc:
        fail(exc.message(lang_of(Path("."))))
        return
    for r in results:
        typer.echo(r.line())
    failed = sum(not r.passed for r in results)
    typer.echo(f"{len(results) - failed} passed, {failed} failed")
    if failed or not results:
        raise typer.Exit(1)



# -- game commands: thin, one service call each ------------------------------



@contextmanager
def _progress(lang: str, key: str, total: int) -> Iterator[Callable[[str], None]]:
    """A progress bar on stderr when it is a terminal; silent otherwise (scripts, tests), and then rich is
    not even imported (a scheduled run does not pay for it)."""
    if not sys.stderr.isatty():
        yield lambda _what: None
        return
    from rich.console import Console
    from rich.progress import Progress

    from sheetgm.core.texts import render

    console = Console(stderr=True)
    with Progress(console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task(render(lang, key), total=total)
        yield lambda _what: bar.advance(task)


ClientSecretsOpt = Annotated[Path | None, typer.Option("--client-secrets")]


@app.command("new")
def new_cmd(
    config: Annotated[Path | None, typer.Argument()] = None,
    game: GameOpt = Path("."),
    google: Annotated[bool, typer.Option("--google")] = False,
    client_secrets: ClientSecretsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Create a game: folder, config, seeded role deal and every workbook (shared one call at a time)."""
    from sheetgm.service import present
    from sheetgm.service.config import load_config, with_backend
    from sheetgm.service.configfile import find_config
    from sheetgm.service.game import make_gateway
    from sheetgm.service.new_game import new_game

    lang = lang_of(config or game)
    try:
        cfg = load_config(config or find_config(game))
        if google:
            cfg = with_backend(cfg, "google")
        gateway = make_gateway(cfg, game, "director", client_secrets) if cfg.backend == "google" else None
        with _progress(cfg.lang, "cli.progress_new", len(cfg.roster) + 2) as step:
            made = new_game(game, cfg, gateway, progress=step)
        urls = {key: made.gateway.url(key) for key in made.keys()}
    except SheetgmError as exc:
        fail(exc.message(lang))
        return
    emit(as_json, {"folder": str(game), "workbooks": urls}, present.created(made, urls))


@app.command("share")
def share_cmd(game: GameOpt = Path("."), client_secrets: ClientSecretsOpt = None, as_json: JsonOpt = False) -> None:
    """Share every workbook as `new` does, again (idempotent): finishes a `new` whose sharing was cut off."""
    from sheetgm.service import present
    from sheetgm.service.game import open_game
    from sheetgm.service.new_game import share_all

    lang = lang_of(game)
    try:
        rep = share_all(open_game(game, login="director", client_secrets=client_secrets))
    except SheetgmError as exc:
        fail(exc.message(lang))
        return
    emit(as_json, rep.to_dict(), present.shared(lang, rep))


@app.command("check")
def check_cmd(game: GameOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Read the due orders, write every problem back to each player's sheet, stamp complete orders."""
    from sheetgm.service import present
    from sheetgm.service.check import check

    lang = lang_of(game)
    try:
        g = open_at(game)
        with _progress(lang, "cli.progress_check", len(g.seats)) as step:
            rep = check(g, step, holder())
    except SheetgmError as exc:
        fail(exc.message(lang))
        return
    emit(as_json, rep.to_dict(), present.checked(lang, rep))


@app.command("resolve")
def resolve_cmd(
    game: GameOpt = Path("."),
    dry_run: Annotated[bool, typer.Option("--dry-run")] = False,
    stage: Annotated[str | None, typer.Option()] = None,
    as_json: JsonOpt = False,
) -> None:
    """Resolve the stage that is due (survivors, then hunters) and publish it, safely and idempotently."""
    from sheetgm.service import present
    from sheetgm.service.resolve import resolve

    lang = lang_of(game)
    try:
        g = open_at(game)
        with _progress(lang, "cli.progress_resolve", 2 * len(g.seats) + 2) as step:
            rep = resolve(g, dry_run=dry_run, stage=stage, holder=holder(), progress=step)
    except SheetgmError as exc:
        fail(exc.message(lang))
        return
    emit(as_json, rep.to_dict(), present.resolved(lang, rep))


@app.command("status")
def status_cmd(game: GameOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Where the game stands: the stage due, the journal, the lock, the workbooks."""
    from sheetgm.service import present
    from sheetgm.service.status import status

    serve(game, as_json, status, present.statused)


@app.command("audit")
def audit_cmd(game: GameOpt = Path("."), as_json: JsonOpt = False) -> None:
    """List every workbook's sharing and protections; exit 1 if a player can read what they must not."""
    from sheetgm.service import present
    from sheetgm.service.audit import audit

    rep = serve(game, as_json, audit, present.audited)
    if not rep.ok:
        raise typer.Exit(1)


@app.command("demo")
def demo_cmd(
    players: Annotated[int, typer.Option()] = 10,
    seed: Annotated[int, typer.Option()] = 1,
    folder: Annotated[Path | None, typer.Option("--dir")] = None,
    lang: Annotated[str, typer.Option()] = "zh",
    max_nights: Annotated[int, typer.Option()] = 12,
    save_each_write: Annotated[bool, typer.Option("--save-each-write")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Play a whole game with bots on local .xlsx workbooks and print the public log."""
    from sheetgm.service import present
    from sheetgm.service.demo import demo, fresh_folder

    if lang not in ("zh", "en"):
        from sheetgm.core.texts import render

        fail(render(lang_of(Path(".")), "err.desk.bad_lang", lang=lang))
    target = folder if folder is not None else fresh_folder(Path("sheetgm-demo").resolve())
    try:
        with _progress(lang, "cli.progress_demo", 2 * max_nights) as step:
            rep = demo(target, players, seed, lang, max_nights, progress=step, save_each_write=save_each_write)
    except SheetgmError as exc:
        fail(exc.message(lang))
        return
    emit(as_json, rep.to_dict(), present.demoed(lang, rep))


from sheetgm import cli_map  # noqa: E402

cli_map.register(app)
from sheetgm import cli_desk  # noqa: E402

cli_desk.register(app)
from sheetgm import cli_replay  # noqa: E402

cli_replay.register(app)
from sheetgm import cli_sim  # noqa: E402

cli_sim.register(app)


def main() -> None:
    app()
