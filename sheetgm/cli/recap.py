"""`sheetgm recap`: the replay page and the animation of a game that has ended (thin: one service call)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from sheetgm.cli.common import fail, lang_of, serve
from sheetgm.cli.options import GameOpt, JsonOpt

if TYPE_CHECKING:
    from sheetgm.service.recap import RecapReport


def written(lang: str, rep: RecapReport) -> str:
    from sheetgm.core.texts import render

    lines = [render(lang, "recap.cli.written", html=str(rep.html), stages=rep.stages, html_bytes=rep.html_bytes),
             render(lang, "recap.cli.animation", animation=str(rep.animation), stages=rep.stages, width=rep.width,
                    height=rep.height, animation_bytes=rep.animation_bytes)]
    if rep.director_copy:
        lines.append("! " + render(lang, "recap.cli.secret"))
    if not rep.cjk_font and rep.lang == "zh":
        lines.append(render(lang, "render.no_cjk_font"))
    return "\n".join(lines)


def recap_cmd(
    game: GameOpt = Path("."),
    director: Annotated[bool, typer.Option("--director")] = False,
    out: Annotated[Path | None, typer.Option("--out", "-o")] = None,
    lang: Annotated[str | None, typer.Option("--lang")] = None,
    gif: Annotated[bool, typer.Option("--gif/--apng")] = True,
    as_json: JsonOpt = False,
) -> None:
    """After the game: a self-contained HTML replay and an animated image of the whole game."""
    from sheetgm.core.texts import render
    from sheetgm.service.recap import recap

    if lang is not None and lang not in ("zh", "en"):
        fail(render(lang_of(game), "err.render.bad_lang", lang=lang))
    fmt = "gif" if gif else "apng"
    serve(game, as_json, lambda g, _step: recap(g, director, out, lang, fmt), written)


def register(app: typer.Typer) -> None:
    app.command("recap")(recap_cmd)
