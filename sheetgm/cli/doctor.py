"""`sheetgm doctor`: is the game ready to run (config, credentials, APIs, workbooks, sharing, lock, quota)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from sheetgm.cli.common import attempt, emit, holder, lang_of
from sheetgm.cli.options import GameOpt, JsonOpt

if TYPE_CHECKING:
    from sheetgm.service.doctor.report import DoctorReport


def doctor_cmd(
    game: GameOpt = Path("."),
    live: Annotated[bool, typer.Option("--live")] = False,
    client_secrets: Annotated[Path | None, typer.Option("--client-secrets")] = None,
    record: Annotated[Path | None, typer.Option("--record")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Check everything a game needs, each line passed or failed with its fix; exit 1 if one failed."""
    from sheetgm.service.doctor.checks import doctor

    lang = lang_of(game)
    rep = attempt(lang, lambda: doctor(game, live=live, client_secrets=client_secrets, record=record,
                                       holder=holder(), lang=lang))
    emit(as_json, rep.to_dict(), shown(lang, rep))
    if not rep.ok:
        raise typer.Exit(1)


def shown(lang: str, rep: DoctorReport) -> str:
    from sheetgm.core.texts import render

    lines = [render(lang, "doctor.head", game=rep.game, backend=rep.backend)]
    for line in rep.lines:
        mark = "✗" if not line.ok else ("!" if line.warn else "✓")
        lines.append(f"{mark} {line.detail}")
        if line.fix and (not line.ok or line.warn):
            lines.append(f"    → {line.fix}")
    lines.append(render(lang, "doctor.all_ok" if rep.ok else "doctor.failed",
                        n=sum(1 for x in rep.lines if not x.ok)))
    return "\n".join(lines)


def register(app: typer.Typer) -> None:
    app.command("doctor")(doctor_cmd)
