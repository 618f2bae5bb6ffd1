"""The map file format (R-MAP): load, validate, dump, and the ready maps.

The grammar is described in docs/map-format.md; ``mapsyntax`` reads it and
``mapcheck`` holds the whole-board rules. ``load_map(dump_map(b)) == b`` for
every Board whose tile tuples are in the order the loader produces (start
zones row by row, passages by id).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sheetgm.core.board import Board, Edge, Tile, col_name, tile_name
from sheetgm.core.errors import MapError
from sheetgm.core.texts import templates_dir
from sheetgm.core.values import replace
from sheetgm.notation import mapcheck, mapsyntax

MAP_SUFFIX = ".map"
_READY_NAME_RE = re.compile(r"^[a-z0-9_-]+$")


def load_map(
    text: str, *, name: str | None = None, options: Mapping[str, Any] | None = None, check: bool = True
) -> Board:
    """Read and validate a map.

    ``name`` (e.g. the file name) wins over the ``name:`` line. ``options``
    are game options (``crack_target``, ``generator_cap``, ``survivors``,
    ``hunters``) that win over the map's own header for the checks.
    ``check=False`` skips the whole-board rules and keeps only the grammar.
    """
    board, src = mapsyntax.parse(text, name)
    if check:
        mapcheck.check(board, src, options)
    return board


def load_map_file(path: str | Path, *, options: Mapping[str, Any] | None = None) -> Board:
    """Load a ``.map`` file; the board is named after the ``name:`` line, else the file name."""
    path = Path(path)
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise MapError("err.map.encoding", line=line, col=col, file=path.name) from None
    board, src = mapsyntax.parse(text, None)
    if "name" not in src.keys:
        board = replace(board, name=path.stem)
    mapcheck.check(board, src, options)
    return board


def ready_map_names() -> list[str]:
    """Names of the maps shipped in sheet_templates/maps/, sorted."""
    folder = templates_dir() / "maps"
    return sorted(e.name[: -len(MAP_SUFFIX)] for e in folder.iterdir() if e.name.endswith(MAP_SUFFIX))


def ready_map(name: str, *, options: Mapping[str, Any] | None = None) -> Board:
    """A shipped map by name (``standard``, ``teach``, ``large4x``)."""
    known = ready_map_names()
    if not _READY_NAME_RE.match(name) or name not in known:
        raise MapError("err.map.unknown_ready_map", name=name, known=", ".join(known), line=0, col=0)
    text = (templates_dir() / "maps" / (name + MAP_SUFFIX)).read_text("utf-8")
    return load_map(text, name=name, options=options)


def tile_token(board: Board, tile: Tile, passage_ids: Mapping[Tile, int]) -> str:
    """The grid token of one tile: features in the order G C X P<n> S H d f, ``.`` for none."""
    out = ""
    for glyph, tiles in (("G", board.generators), ("C", board.chests), ("X", board.gates)):
        if tile in tiles:
            out += glyph
    if tile in passage_ids:
        out += f"P{passage_ids[tile]}"
    if tile in board.survivor_starts:
        out += "S"
    if tile in board.hunter_starts:
        out += "H"
    if tile in board.dark:
        out += "d"
    if tile in board.flat:
        out += "f"
    return out or "."


def dump_map(board: Board) -> str:
    """The map as text in the canonical layout (aligned grid, edges drawn, contents as sections)."""
    lines = [f"name: {board.name}"]
    if board.title:
        lines.append(f"title: {board.title}")
    lines += [f"{key}: {value}" for key, value in board.meta]
    if board.item_pool:
        lines.append("items: " + _pool_text(board.item_pool))
    lines += ["", "map:"]
    lines += _grid_lines(board)
    if board.chest_items:
        lines.append("")
        lines += [f"chest {tile_name(t)}: {item}" for t, item in board.chest_items]
    return "\n".join(lines) + "\n"


def _pool_text(pool: tuple[str, ...]) -> str:
    runs: list[list[Any]] = []
    for item in pool:
        if runs and runs[-1][0] == item:
            runs[-1][1] += 1
        else:
            runs.append([item, 1])
    return ", ".join(item if n == 1 else f"{item} x{n}" for item, n in runs)


def _grid_lines(board: Board) -> list[str]:
    ids: dict[Tile, int] = {}
    for n, (a, b) in enumerate(board.passages, start=1):
        ids[a] = ids[b] = n
    tokens = {t: tile_token(board, t, ids) for t in board.tiles()}
    w = max(len(tok) for tok in tokens.values())
    prefix = len(str(board.height)) + 2
    out = [(" " * prefix + "".join(col_name(c).ljust(w + 3) for c in range(board.width))).rstrip()]
    for r in range(board.height):
        row = f"{r + 1:>{prefix - 2}}  "
        for c in range(board.width):
            row += tokens[(c, r)].ljust(w)
            if c + 1 < board.width:
                kind = board.edge((c, r), (c + 1, r))
                row += " " + {Edge.OBSTACLE: "|", Edge.WALL: "#"}.get(kind, " ") + " "
        out.append(row.rstrip())
        if r + 1 < board.height:
            under = ""
            for c in range(board.width):
                kind = board.edge((c, r), (c, r + 1))
                glyph = {Edge.OBSTACLE: "-", Edge.WALL: "="}.get(kind, " ")
                under += (glyph * len(tokens[(c, r)])).ljust(w + 3)
            if under.strip():
                out.append((" " * prefix + under).rstrip())
    return out
