"""The public map of each night as a PNG beside the game: ``maps/N3-hunter.png`` in the game folder.

`resolve` writes it once a night, in every language of the roster
(``N3-hunter.en.png`` beside the director's ``N3-hunter.png``), when the
night's last stage (the hunters') or the stage that ends the game is
published, for a local game and a Google one alike: a local file the director
uploads to an image host. `publish --map` links the map of the stage it
announces at that host's address (``--map-url`` or game.toml's ``map_url``),
never at the local path, and draws the file first if it is missing (a
survivor stage's, or a map drawn on another machine). It is drawn from the public
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
from sheetgm.service.ledger.journal import Entry
from sheetgm.sheets.stages import parse_key

MAPS_DIR = "maps"
PRIVATE_DIR = "private"  # maps/private/: views that show what only some may know (never to upload as a whole)


def map_file(game: Game, key: str, lang: str | None = None) -> Path:
    """``maps/N3-hunter.png`` in the director's language, ``maps/N3-hunter.en.png`` in another."""
    suffix = "" if lang is None or lang == game.lang else f".{lang}"
    return game.folder / MAPS_DIR / f"{key}{suffix}.png"


def view_file(game: Game, key: str, view: str, alias: str | None = None, lang: str | None = None,
              scale: int | None = None) -> Path:
    """Where `sheetgm map` writes a view: the public one beside the stage maps (``maps/N3-hunter.png``, the
    same file `resolve` draws; ``.en`` for another language, ``@96`` for another scale), the director's and a
    player's under ``maps/private/`` (``N3-hunter-director.png``, ``N3-hunter-player-Ann.png``): maps/ is what a
    director uploads for the forum, and those views must not go with it."""
    from sheetgm.render.draw import DEFAULT_SCALE

    name = key + ("" if view == "public" else f"-{view}") + (f"-{alias}" if alias else "")
    name += ("" if lang is None or lang == game.lang else f".{lang}")
    name += ("" if scale is None or scale == DEFAULT_SCALE else f"@{scale}")
    folder = game.folder / MAPS_DIR / ("" if view == "public" else PRIVATE_DIR)
    return folder / f"{safe_name(name)}.png"


def safe_name(text: str) -> str:
    """A name any file system takes: characters a file name cannot hold become "_" (an alias may have any)."""
    return "".join("_" if ch in '<>:"/\\|?*' or ord(ch) < 32 else ch for ch in text).strip(". ") or "_"


def stage_png(game: Game, entry: Entry, lang: str | None = None) -> bytes:
    """The public map after ``entry``'s stage, labelled with it, in ``lang`` (the director's by default)."""
    from sheetgm.render.draw import DEFAULT_SCALE, draw_map  # Pillow: only for a stage that draws its map
    from sheetgm.render.views import after, public_view

    night, stage = parse_key(entry.key)
    view = after(public_view(entry.view(game.board)), night, stage)
    return draw_map(game.board, view, DEFAULT_SCALE, lang or game.lang)


def _write(game: Game, entry: Entry, lang: str) -> tuple[Path, str | None]:
    """Draw and write the stage's map: its path, and why it could not be written (None when it was)."""
    out = map_file(game, entry.key, lang)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(stage_png(game, entry, lang))
    except OSError as exc:
        return out, exc.strerror or str(exc)
    return out, None


def write_stage_map(game: Game, entry: Entry) -> list[str]:
    """Write the night's public map, in every language of the roster, after its last stage (or the stage that
    ends the game); a file that cannot be written is a warning, never a failed stage."""
    if parse_key(entry.key)[1] != HUNTER_STAGE and not entry.view(game.board).over():
        return []
    warnings = []
    for lang in game.langs:
        out, trouble = _write(game, entry, lang)
        if trouble:
            warnings.append(render(game.voice, "svc.map_unwritable", file=str(out), detail=trouble))
    return warnings


def ensure_stage_map(game: Game, entry: Entry, lang: str | None = None) -> Path:
    """The stage's map file, drawn now if it is missing (a Google game resolved on another machine)."""
    lang = lang or game.lang
    out = map_file(game, entry.key, lang)
    if not out.is_file():
        out, trouble = _write(game, entry, lang)
        if trouble:
            raise ServiceError("err.render.write", file=str(out), detail=trouble)
    return out


def map_link(game: Game, entry: Entry, base: str | None = None, lang: str | None = None) -> str:
    """What the announcement links: ``base`` (or game.toml's ``map_url``) + ``N3-hunter.png``: an address on the
    web, never a file on the director's disk (no reader could open it). Without one the error names the
    file to upload and how to give its address."""
    path = ensure_stage_map(game, entry, lang)
    prefix = (base if base is not None else game.cfg.map_url or "").strip()
    if not prefix:
        raise ServiceError("day.publish.no_map_url", file=str(path), folder=str(path.parent))
    if not prefix.lower().startswith(("http://", "https://")):
        raise ServiceError("day.publish.bad_map_url", url=prefix, file=str(path))
    return f"{prefix.rstrip('/')}/{path.name}"
