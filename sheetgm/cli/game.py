"""The game's own commands: new, share, check, resolve, status, audit, demo, inbox (thin: one service call each)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from sheetgm.cli import runs
from sheetgm.cli.common import attempt, emit, lang_of, progress
from sheetgm.cli.options import GameOpt, JsonOpt

if TYPE_CHECKING:
    from sheetgm.service.game import Game

ClientSecretsOpt = Annotated[Path | None, typer.Option("--client-secrets")]


def new_cmd(
    config: Annotated[Path | None, typer.Argument()] = None,
    game: GameOpt = Path("."),
    google: Annotated[bool, typer.Option("--google")] = False,
    client_secrets: ClientSecretsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Create a game: folder, config, seeded role deal and every workbook (shared one call at a time)."""
    from sheetgm.cli import present
    from sheetgm.service.config.file import CONFIG_NAMES, find_config
    from sheetgm.service.config.load import load_config, with_backend
    from sheetgm.service.game import make_gateway
    from sheetgm.service.new_game import new_game
    from sheetgm.service.timing.deadlines import past_start

    if config is None and not any((game / name).is_file() for name in CONFIG_NAMES):
        _starter(game, as_json)  # a first game: a commented game.toml to edit, and what to run next
        return

    def made() -> tuple[Game, dict[str, str | None]]:
        source = config or find_config(game)
        cfg = load_config(source)
        if google:
            cfg = with_backend(cfg, "google")
        gateway = make_gateway(cfg, game, "director", client_secrets) if cfg.backend == "google" else None
        with progress(lang_of(config or game), "cli.progress_new", len(cfg.roster) + 2) as step:
            g = new_game(game, cfg, gateway, progress=step, source=source)
        return g, {key: g.gateway.url(key) for key in g.keys()}

    g, urls = attempt(lang_of(config or game), made)
    late = past_start(g.cfg, g.now(), g.voice)
    emit(as_json, {"folder": str(game), "workbooks": urls, "warnings": [late] if late else []},
         present.created(g, urls))
    if late and not as_json:
        print(f"! {late}", file=sys.stderr, flush=True)


def _starter(game: Path, as_json: bool) -> None:
    """`sheetgm new` where there is no game.toml: the starter written (``config/starter.py``), and what next."""
    from sheetgm.core.texts import render
    from sheetgm.service.config.load import load_config
    from sheetgm.service.config.starter import write_starter

    lang = lang_of(game)
    file = attempt(lang, lambda: write_starter(game, lang))
    start = load_config(file).schedule
    when = start.start.isoformat() if start is not None else "-"
    emit(as_json, {"folder": str(game), "starter": str(file), "workbooks": {}},
         render(lang, "cli.starter.written", path=str(file), folder=str(game), start=when))


def share_cmd(game: GameOpt = Path("."), client_secrets: ClientSecretsOpt = None, as_json: JsonOpt = False) -> None:
    """Share every workbook as `new` does, again (idempotent): finishes a `new` whose sharing was cut off."""
    from sheetgm.cli import present
    from sheetgm.service.game import open_game
    from sheetgm.service.new_game import share_all

    lang = lang_of(game)
    rep = attempt(lang, lambda: share_all(open_game(game, login="director", client_secrets=client_secrets)))
    emit(as_json, rep.to_dict(), present.shared(lang, rep))


def check_cmd(game: GameOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Read the due orders, write every problem back to each player's sheet, stamp complete orders."""
    runs.check(game, as_json)


def resolve_cmd(
    game: GameOpt = Path("."),
    dry_run: Annotated[bool, typer.Option("--dry-run")] = False,
    stage: Annotated[str | None, typer.Option()] = None,
    as_json: JsonOpt = False,
) -> None:
    """Resolve the stage that is due (survivors, then hunters) and publish it, safely and idempotently."""
    runs.resolve(game, dry_run, stage, as_json)


def status_cmd(game: GameOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Where the game stands: the stage due, the journal, the lock, the workbooks."""
    runs.status(game, as_json)


def audit_cmd(game: GameOpt = Path("."), as_json: JsonOpt = False) -> None:
    """List every workbook's sharing and protections; exit 1 if a player can read what they must not."""
    runs.audit(game, as_json)


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
    runs.demo(players, seed, folder, lang, max_nights, save_each_write, as_json)


def inbox_cmd(
    folder: Annotated[Path, typer.Argument()],
    game: GameOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Local game: file the workbooks players sent back (any names, one folder) into their seats by their seals."""
    from sheetgm.service.game import open_game
    from sheetgm.service.inbox import inbox

    lang = lang_of(game)
    rep = attempt(lang, lambda: inbox(open_game(game), folder))
    emit(as_json, rep.to_dict(), "\n".join(rep.lines))


def register(app: typer.Typer) -> None:
    app.command("new")(new_cmd)
    app.command("share")(share_cmd)
    app.command("check")(check_cmd)
    app.command("resolve")(resolve_cmd)
    app.command("status")(status_cmd)
    app.command("audit")(audit_cmd)
    app.command("demo")(demo_cmd)
    app.command("inbox")(inbox_cmd)
