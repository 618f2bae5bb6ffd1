"""Rollback, verify and unlock on the command line (thin: one service call each)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from sheetgm.cli.common import fail, holder, lang_of, serve
from sheetgm.cli.options import GameOpt, JsonOpt


def rolled_back(lang: str, rep: Any, game: Path = Path(".")) -> str:
    """What was rolled back, who may edit again, that the reason is public, and the exact commands to run next:
    each undone stage resolved by name, since its deadline may have passed long ago or not come yet."""
    from sheetgm.core.texts import render

    lines = [render(lang, "replay.cli.rolled_back", stage=rep.stage, n=len(rep.superseded),
                    keys=", ".join(rep.superseded), restored=rep.restored)]
    if rep.reopened:
        who = ", ".join(f"{alias} (N{'/N'.join(str(n) for n in nights)})" for alias, nights in rep.reopened.items())
        lines.append(render(lang, "replay.cli.reopened", who=who))
    lines.append(render(lang, "day.rollback.public", reason=rep.reason))
    where = "" if game == Path(".") else f" --game {shlex.quote(str(game))}"
    stages = [k for k in rep.superseded if "+" not in k]  # desk actions are not resolved again
    lines.append(render(lang, "day.rollback.next", stage=rep.stage))
    lines += [f"  sheetgm resolve{where} --stage {k}" for k in stages]
    lines += [f"! {w}" for w in rep.warnings]
    return "\n".join(lines)


def verified(lang: str, rep: Any) -> str:
    from sheetgm.core.texts import render

    lines = []
    for s in rep.stages:
        lines.append(render(lang, "replay.cli.ok" if s.ok else "replay.cli.bad", stage=s.stage))
        lines += [f"      - {p.message}" for p in s.problems]
    if rep.ok:
        lines.append(render(lang, "replay.cli.all_ok", n=len(rep.stages), skipped=len(rep.skipped)))
    else:
        lines.append(render(lang, "replay.cli.first_bad", stage=rep.first_difference, n=len(rep.differing),
                            stages=", ".join(rep.differing)))
    return "\n".join(lines)


def interactive() -> bool:
    """Whether a person is at the keyboard to answer (a script or a scheduled run is not asked)."""
    return sys.stdin.isatty()


def rollback_cmd(
    stage: Annotated[str, typer.Argument()],
    reason: Annotated[str, typer.Option("--reason", "-r")],
    game: GameOpt = Path("."),
    yes: Annotated[bool, typer.Option("--yes", "-y")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Roll back a stage and everything after it (R-DIR-2): rows marked superseded, orders editable again."""
    from sheetgm.service.rollback import rollback

    if not yes and interactive() and not as_json:  # the reason is public: say so before it is written
        from sheetgm.core.texts import render

        lang = lang_of(game)
        if not typer.confirm(render(lang, "day.rollback.confirm", reason=" ".join(reason.split())), default=False):
            fail(render(lang, "day.rollback.cancelled"))
    serve(game, as_json, lambda g, _step: rollback(g, stage, reason, holder=holder()),
          lambda lang, rep: rolled_back(lang, rep, game))


def verify_cmd(game: GameOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Replay the whole game from the journal's orders and seeds; exit 1 if any stage differs."""
    from sheetgm.service.verify import verify

    rep = serve(game, as_json, lambda g, _step: verify(g), verified)
    if not rep.ok:
        raise typer.Exit(1)


def unlock_cmd(
    reason: Annotated[str, typer.Option("--reason", "-r")],
    game: GameOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Clear the lock left by a resolve that was killed, instead of waiting 15 minutes for it to expire."""
    from sheetgm.cli import present
    from sheetgm.service.ledger.lock import unlock

    serve(game, as_json, lambda g, _step: unlock(g, reason, holder()), present.unlocked)


def register(app: typer.Typer) -> None:
    app.command("rollback")(rollback_cmd)
    app.command("verify")(verify_cmd)
    app.command("unlock")(unlock_cmd)
