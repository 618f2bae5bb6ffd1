"""The public map of each night as a PNG beside the game: ``maps/N3-hunter.png`` in the game folder.

`resolve` writes it once a night, when the night's last stage (the hunters')
or the stage that ends the game is published, for a local game and a Google
one alike (for a Google game it is a local file the director can upload to
an image host or attach to the forum post). `publish --map` links the map of
the stage it announces and draws it first if it is missing (a survivor
stage's, or a map drawn on another machine). It is drawn from the public
view alone (``render.views.public_view``), which never reads a position:
nothing private can be in it. A map costs about 50 ms to draw and encode,
which is why a survivor stage does not draw one unasked (nor imports Pillow).
"""

from __future__ import annotations

from pathlib import Path

from sheetgm.core.state import HUNTER_STAGE
from sheetgm.core.texts import render
from sheetgm.service.errors import ServiceError
from sheetgm.service.game import Game
from sheetgm.service.journal import Entry
from sheetgm.sheets.stages import parse_key

MAPS_DIR = "maps"


def map_file(game: Game, key: str) -> Path:
    return game.folder / MAPS_DIR / f"{key}.png"


def stage_png(game: Game, entry: Entry) -> bytes:
    """The public map after ``entry``'s stage, labelled with it, in the director's language."""
    from sheetgm.render.draw import DEFAULT_SCALE, draw_map  # Pillow: only for a stage that draws its map
    from sheetgm.render.views import after, public_view

    night, stage = parse_key(entry.key)
    view = after(public_view(entry.state(game.board)), night, stage)
    return draw_map(game.board, view, DEFAULT_SCALE, game.lang)


def _write(game: Game, entry: Entry) -> tuple[Path, str | None]:
    """Draw and write the stage's map: its path, and why it could not be written (None when it was)."""
    out = map_file(game, entry.key)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(stage_png(game, entry))
    except OSError as exc:
        return out, exc.strerror or str(exc)
    return out, None


def write_stage_map(game: Game, entry: Entry) -> list[str]:
    """Write the night's public map after its last stage (or the stage that ends the game); a file that cannot
    be written is a warning, never a failed stage."""
    if parse_key(entry.key)[1] != HUNTER_STAGE and not entry.state(game.board).over():
        return []
    out, trouble = _write(game, entry)
    return [render(game.voice, "svc.map_unwritable", file=str(out), detail=trouble)] if trouble else []


def ensure_stage_map(game: Game, entry: Entry) -> Path:
    """The stage's map file, drawn now if it is missing (a Google game resolved on another machine)."""
    out = map_file(game, entry.key)
    if not out.is_file():
        out, trouble = _write(game, entry)
        if trouble:
            raise ServiceError("err.render.write", file=str(out), detail=trouble)
    return out


def map_link(game: Game, entry: Entry, base: str | None = None) -> str:
    """What the announcement links: ``base`` (or game.toml's ``map_url``) + ``N3-hunter.png``, else the
    local file's path (drawn first if it is missing)."""
    path = ensure_stage_map(game, entry)
    prefix = base if base is not None else game.cfg.map_url
    if prefix:
        return f"{prefix.rstrip('/')}/{path.name}"
    return str(path.resolve())
