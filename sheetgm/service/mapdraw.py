"""The map drawn in cells: colours for features, walls and obstacles as borders.

Column A holds row numbers and row ``top`` the column letters, so tile
``(c, r)`` sits in column ``c + 2`` and row ``top + 1 + r`` (1-based). A draw
is complete (grid reset, then every edge), so drawing again after a board was
dismantled leaves nothing stale.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from sheetgm.backends.a1 import col_letters, quote_tab
from sheetgm.backends.port import Op, ResizeColumns, ResizeRows, SetBackground, SetBold, SetBorders, SetValues
from sheetgm.core.board import Board, EdgeKey, Tile, col_name
from sheetgm.core.texts import render

COLOURS = {  # first match wins
    "gate": "#b6d7a8",
    "generator": "#ffe599",
    "chest": "#f9cb9c",
    "dark": "#b7b7b7",
    "flat": "#cfe2f3",
}
CELL_PX = 44


def cell(tile: Tile, top: int) -> str:
    return f"{col_letters(tile[0] + 1)}{top + 1 + tile[1]}"


def _kind(board: Board, t: Tile) -> str | None:
    sets = {"gate": board.gates, "generator": board.generators, "chest": board.chests,
            "dark": board.dark, "flat": board.flat}
    for kind in COLOURS:
        if t in sets[kind]:
            return kind
    return None


def tile_text(board: Board, t: Tile, lang: str, passages: Iterable[Tile] = ()) -> str:
    marks = []
    for kind, tiles in (("generator", board.generators), ("chest", board.chests), ("gate", board.gates)):
        if t in tiles:
            marks.append(render(lang, f"sheet.map.{kind}"))
    if t in passages:
        marks.append(render(lang, "sheet.map.passage"))
    return "".join(marks)


def draw(tab: str, board: Board, top: int, lang: str, marks: Mapping[Tile, str] | None = None,
         boards: Iterable[EdgeKey] = (), passages: Iterable[Tile] = (), formats: bool = True) -> list[Op]:
    """Ops drawing ``board`` in ``tab`` from row ``top`` (the letters row); ``marks`` add text to tiles.

    ``formats=False`` writes the cell texts only: enough when no board was put up or taken down."""
    marks = marks or {}
    pas = set(passages)
    w, h = board.width, board.height
    last_col = col_letters(w)
    grid = f"{quote_tab(tab)}!B{top + 1}:{last_col}{top + h}"
    header = [""] + [col_name(c) for c in range(w)]
    rows = [header]
    for r in range(h):
        row = [str(r + 1)]
        for c in range(w):
            text = tile_text(board, (c, r), lang, pas)
            extra = marks.get((c, r), "")
            row.append(f"{text} {extra}".strip())
        rows.append(row)
    ops: list[Op] = [SetValues(f"{quote_tab(tab)}!A{top}:{last_col}{top + h}", tuple(tuple(r) for r in rows))]
    if not formats:
        return ops
    ops += [
        ResizeColumns(f"{quote_tab(tab)}!B:{last_col}", CELL_PX),
        ResizeRows(f"{quote_tab(tab)}!{top + 1}:{top + h}", CELL_PX),
        SetBold(f"{quote_tab(tab)}!A{top}:{last_col}{top}"),
        SetBackground(grid, None),
        SetBorders(grid, ("inner_horizontal", "inner_vertical"), "thin"),
        SetBorders(grid, ("outer",), "thick"),
    ]
    for t in board.tiles():
        kind = _kind(board, t)
        if kind:
            ops.append(SetBackground(f"{quote_tab(tab)}!{cell(t, top)}", COLOURS[kind]))
    styled = [(e, "thick") for e in sorted(board.walls)] + [(e, "medium") for e in sorted(board.obstacles)]
    styled += [(e, "thick") for e in sorted(boards)]
    for (a, b), style in styled:
        ops += _edge(tab, a, b, top, style)
    return ops


def _edge(tab: str, a: Tile, b: Tile, top: int, style: str) -> list[Op]:
    if a[1] == b[1]:  # same row: a is west of b
        sides = ("right", "left")
    else:
        sides = ("bottom", "top")
    return [SetBorders(f"{quote_tab(tab)}!{cell(a, top)}", (sides[0],), style),
            SetBorders(f"{quote_tab(tab)}!{cell(b, top)}", (sides[1],), style)]
