"""The bodies of the commands a schedule runs (check, resolve, status, audit) and of the demo, free of Typer, so
that the script's fast path (cli/fast.py) runs them without importing it; cli/game.py declares them for Typer."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sheetgm.cli.common import Progress, attempt, emit, fail, holder, lang_of, progress, serve

if TYPE_CHECKING:
    from sheetgm.service.game import Game
    from sheetgm.service.resolve import ResolveReport


def check(game: Path, as_json: bool) -> None:
    from sheetgm.cli import present
    from sheetgm.service.check import check as check_orders

    serve(game, as_json, lambda g, step: check_orders(g, step, holder()), present.checked,
          steps=("cli.progress_check", lambda g: len(g.seats)))


def resolve(game: Path, dry_run: bool, stage: str | None, as_json: bool) -> None:
    from sheetgm.cli import present
    from sheetgm.service.resolve import resolve as resolve_stage

    backend: list[str] = []  # the game's, for the wording (a local game has no scheduled runs)

    def call(g: Game, step: Progress) -> ResolveReport:
        backend.append(g.cfg.backend)
        return resolve_stage(g, dry_run=dry_run, stage=stage, holder=holder(), progress=step)

    serve(game, as_json, call, lambda lang, rep: present.resolved(lang, rep, local=backend == ["xlsx"]),
          steps=("cli.progress_resolve", lambda g: 2 * len(g.seats) + 2))


def status(game: Path, as_json: bool) -> None:
    from sheetgm.cli import present
    from sheetgm.service.status import status as game_status

    serve(game, as_json, lambda g, _step: game_status(g), present.statused)


def audit(game: Path, as_json: bool) -> None:
    """Exit 1 when the audit finds a player who can read or write what they must not."""
    from sheetgm.cli import present
    from sheetgm.service.audit import AuditReport
    from sheetgm.service.audit import audit as audit_game

    aliases: dict[int, str] = {}  # the seats' aliases, known once the game is open: the books named by them

    def call(g: Game, _step: object) -> AuditReport:
        aliases.update({s: g.alias(s) for s in g.seats})
        return audit_game(g)

    rep = serve(game, as_json, call, lambda lang, r: present.audited(lang, r, aliases))
    if not rep.ok:
        raise SystemExit(1)


def demo(players: int, seed: int, folder: Path | None, lang: str, max_nights: int, save_each_write: bool,
         as_json: bool) -> None:
    from sheetgm.cli import present
    from sheetgm.service.demo import DemoReport, fresh_folder
    from sheetgm.service.demo import demo as play_demo

    if lang not in ("zh", "en"):
        from sheetgm.core.texts import render

        fail(render(lang_of(Path(".")), "err.desk.bad_lang", lang=lang))
    target = folder if folder is not None else fresh_folder(Path("sheetgm-demo").resolve())

    def played() -> DemoReport:
        with progress(lang, "cli.progress_demo", 2 * max_nights) as step:
            return play_demo(target, players, seed, lang, max_nights, progress=step, save_each_write=save_each_write)

    rep = attempt(lang, played)
    emit(as_json, rep.to_dict(), present.demoed(lang, rep))
