"""`sheetgm map`: the map of a stage drawn as a PNG (public, one player's, or the director's view)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sheetgm.cli.common import attempt, emit, fail, lang_of


def register(app: typer.Typer) -> None:
    @app.command("map")
    def map_cmd(
        game: Annotated[Path, typer.Option("--game", "-g")] = Path("."),
        view: Annotated[str, typer.Option(
            "--view",
        )] = "public",
        alias: Annotated[str | None, typer.Argument()] = None,
        stage: Annotated[str | None, typer.Option()] = None,
        out: Annotated[Path | None, typer.Option(
            "--out", "-o")] = None,
        scale: Annotated[int, typer.Option()] = 64,
        lang: Annotated[str | None, typer.Option()]
        = None,
        as_json: Annotated[bool, typer.Option("--json")] = False,
        preview: Annotated[bool, typer.Option("--preview")] = False,
    ) -> None:
        """Draw the map as a PNG: the public view, a player's view, or the director's view with everyone."""
        from sheetgm.core.texts import render
        from sheetgm.render.files import write_png
        from sheetgm.service.game import open_game
        from sheetgm.service.mapview import game_map
        from sheetgm.service.workbooks.stagemap import view_file

        director_lang = lang_of(game)
        if lang is not None and lang not in ("zh", "en"):
            fail(render(director_lang, "err.render.bad_lang", lang=lang))
        kind, alias = split_view(view, alias)
        opened = attempt(director_lang, lambda: open_game(game))
        image = attempt(director_lang, lambda: game_map(opened, kind, alias, stage, scale, lang, preview))
        target = out if out is not None else view_file(opened, image.stage, kind, image.alias, lang, scale)
        file = attempt(director_lang, lambda: write_png(image.png, target))
        if as_json:
            emit(True, image.to_dict(str(file)), "")
            return
        shown = lang or director_lang
        if not image.cjk_font and shown == "zh":
            typer.echo(render(shown, "render.no_cjk_font"), err=True)
        typer.echo(render(shown, "render.written", view=render(shown, f"render.view.{kind}", alias=alias or ""),
                          stage=image.stage, file=str(file), width=image.width, height=image.height))


def split_view(view: str, alias: str | None = None) -> tuple[str, str | None]:
    """``("player", "Ann")``, ``("player Ann", None)`` or ``("player:Ann", None)`` → ("player", "Ann")."""
    words = view.replace(":", " ", 1).split(maxsplit=1)
    kind = words[0].lower() if words else "public"
    named = words[1].strip() if len(words) > 1 else None
    return kind, (alias.strip() if alias else None) or named
