"""The map drawn in cells: colours for features, walls, obstacles and boards as borders, a legend beside it.

Tile ``B3`` sits in the sheet's column B, in the map's row 3: with the map
at the top of its tab (``top`` = 1) the cell of tile B3 *is* cell B3, so a
player reading "B3" in an order or a report finds it by the sheet's own
column letters and row numbers. Labels repeat them beside the map (the row
numbers in the column right of it, the letters in the row below it) for a
printout or a screenshot, where the sheet's own headers are not shown.

Walls are thick lines, obstacles dashed, boards double; a dark tile stays
grey even when it holds a generator, a chest or a gate (the feature is the
mark written in the cell, not a colour that would hide the dark). A draw is
complete (grid reset, then every edge), so drawing again after a board was
dismantled leaves nothing stale.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from sheetgm.backends.a1 import col_letters, quote_tab
from sheetgm.backends.port import Op, ResizeColumns, ResizeRows, SetBackground, SetBold, SetBorders, SetValues
from sheetgm.core.board import Board, EdgeKey, Tile, col_name
from sheetgm.core.texts import render

COLOURS = {  # first match wins: dark before the features, so a dark generator stays dark
    "dark": "#b7b7b7",
    "gate": "#b6d7a8",
    "generator": "#ffe599",
    "chest": "#f9cb9c",
    "flat": "#cfe2f3",
}
EDGE_STYLES = {"wall": "thick", "obstacle": "dashed", "board": "double"}
CELL_PX = 44
LABEL_PX = 28
GAP_PX = 16
# The legend of a map: (key, what its swatch shows). Keys are texts ``sheet.legend.<key>``.
PUBLIC_LEGEND = ("generator", "chest", "gate", "dark", "flat", "wall", "obstacle", "board", "passage", "trap")
PLAYER_LEGEND = (*PUBLIC_LEGEND, "you")
HUNTER_LEGEND = (*PLAYER_LEGEND, "noise")


def side_col(board: Board) -> int:
    """The first column (0-based) right of the map, its row labels and a narrow gap: where the legend's swatches
    go (and, in a player's Current tab, beside them the player's numbers)."""
    return board.width + 2


def cell(tile: Tile, top: int = 1) -> str:
    """The A1 name of a tile's cell in a map whose first row is sheet row ``top``."""
    return f"{col_letters(tile[0])}{top + tile[1]}"


def _kind(board: Board, t: Tile) -> str | None:
    sets = {"gate": board.gates, "generator": board.generators, "chest": board.chests,
            "dark": board.dark, "flat": board.flat}
    for kind in COLOURS:
        if t in sets[kind]:
            return kind
    return None


def tile_text(board: Board, t: Tile, lang: str, passages: Iterable[Tile] = ()) -> str:
    marks = [_feature_texts(board, lang).get(t, "")]
    if t in passages:
        marks.append(render(lang, "sheet.map.passage"))
    return "".join(marks)


@lru_cache(maxsize=64)
def _tile_texts(board: Board, lang: str, passages: frozenset[Tile]) -> tuple[tuple[str, ...], ...]:
    """Each tile's own text, row by row (the same for most maps of a game: what a player knows changes slowly)."""
    features = _feature_texts(board, lang)  # (looked up once: the board is long to hash)
    mark = render(lang, "sheet.map.passage")
    return tuple(tuple(features.get((c, r), "") + (mark if (c, r) in passages else "") for c in range(board.width))
                 for r in range(board.height))


@lru_cache(maxsize=64)
def _plain_rows(board: Board, lang: str, passages: frozenset[Tile]) -> tuple[tuple[str, ...], ...]:
    """The map's rows of cells without marks, each with its number, and the letters row below (most rows of
    every player's map: worked out once)."""
    texts = _tile_texts(board, lang, passages)
    rows = [(*(text.strip() for text in texts[r]), str(r + 1)) for r in range(board.height)]
    return (*rows, (*(col_name(c) for c in range(board.width)), ""))


@lru_cache(maxsize=16)
def _feature_texts(board: Board, lang: str) -> dict[Tile, str]:
    """The marks of the generators, chests and gates (every map of a game draws them: computed once)."""
    out: dict[Tile, str] = {}
    for kind, tiles in (("generator", board.generators), ("chest", board.chests), ("gate", board.gates)):
        for t in tiles:
            out[t] = out.get(t, "") + render(lang, f"sheet.map.{kind}")
    return out


def draw(tab: str, board: Board, top: int, lang: str, marks: Mapping[Tile, str] | None = None,
         boards: Iterable[EdgeKey] = (), passages: Iterable[Tile] = (), formats: bool = True) -> list[Op]:
    """Ops drawing ``board`` in ``tab`` with tile A1 in cell A``top``; ``marks`` add text to tiles.

    ``formats=False`` writes the cell texts only: enough when no board was put up or taken down."""
    marks = marks or {}
    w, h = board.width, board.height
    q = quote_tab(tab)
    label_col = col_letters(w)
    known = frozenset(passages)
    texts, plain = _tile_texts(board, lang, known), _plain_rows(board, lang, known)
    marked = {r for _c, r in marks}
    rows = list(plain)
    for r in marked:
        if 0 <= r < h:
            row = [f"{texts[r][c]} {marks[(c, r)]}".strip() if (c, r) in marks else texts[r][c].strip()
                   for c in range(w)]
            rows[r] = (*row, str(r + 1))
    ops: list[Op] = [SetValues(f"{q}!A{top}:{label_col}{top + h}", tuple(rows))]
    if formats:
        ops += _format_ops(q, board, top, frozenset(boards))
    return ops


@lru_cache(maxsize=64)
def _format_ops(q: str, board: Board, top: int, boards: frozenset[EdgeKey]) -> tuple[Op, ...]:
    """The formats of a map drawn at row ``top``: the same for every player's map of a stage (ops are values,
    so the same tuple serves them all)."""
    w, h = board.width, board.height
    last, label_col = col_letters(w - 1), col_letters(w)
    grid = f"{q}!A{top}:{last}{top + h - 1}"
    ops: list[Op] = [
        ResizeColumns(f"{q}!A:{last}", CELL_PX),
        ResizeColumns(f"{q}!{label_col}:{label_col}", LABEL_PX),
        ResizeColumns(f"{q}!{col_letters(w + 1)}:{col_letters(w + 1)}", GAP_PX),
        ResizeRows(f"{q}!{top}:{top + h - 1}", CELL_PX),
        SetBold(f"{q}!{label_col}{top}:{label_col}{top + h - 1}"),
        SetBold(f"{q}!A{top + h}:{last}{top + h}"),
        SetBackground(grid, None),
        SetBorders(grid, ("inner_horizontal", "inner_vertical"), "thin"),
        SetBorders(grid, ("outer",), EDGE_STYLES["wall"]),
    ]
    for t in board.tiles():
        kind = _kind(board, t)
        if kind:
            ops.append(SetBackground(f"{q}!{cell(t, top)}", COLOURS[kind]))
    styled = [(e, EDGE_STYLES["wall"]) for e in sorted(board.walls)]
    styled += [(e, EDGE_STYLES["obstacle"]) for e in sorted(board.obstacles)]
    styled += [(e, EDGE_STYLES["board"]) for e in sorted(boards)]
    for (a, b), style in styled:
        ops += _edge(q, a, b, top, style)
    return tuple(ops)


def _edge(q: str, a: Tile, b: Tile, top: int, style: str) -> list[Op]:
    """One op for the line between two neighbours: the inner line of their two-cell range (a is west or north)."""
    side = "inner_vertical" if a[1] == b[1] else "inner_horizontal"
    return [SetBorders(f"{q}!{cell(a, top)}:{cell(b, top)}", (side,), style)]


def legend(tab: str, row: int, col: int, lang: str, keys: Sequence[str], formats: bool = True) -> list[Op]:
    """The map's legend in the player's language, from sheet row ``row`` in columns ``col`` (the swatch, drawn
    like the map draws that thing) and ``col + 1`` (what it means): a title row, then one row a key."""
    q = quote_tab(tab)
    sw, txt = col_letters(col), col_letters(col + 1)
    rows = [(render(lang, "sheet.legend.title"), "")]
    rows += [(_swatch_text(k, lang), render(lang, f"sheet.legend.{k}")) for k in keys]
    end = row + len(rows) - 1
    ops: list[Op] = [SetValues(f"{q}!{sw}{row}:{txt}{end}", tuple(rows))]
    if not formats:
        return ops
    swatches = f"{q}!{sw}{row + 1}:{sw}{end}"
    ops += [ResizeColumns(f"{q}!{sw}:{sw}", CELL_PX), SetBold(f"{q}!{sw}{row}"), SetBackground(swatches, None),
            SetBorders(swatches, ("all",), "none")]
    for i, k in enumerate(keys, row + 1):
        swatch = f"{q}!{sw}{i}"
        if k in COLOURS:
            ops.append(SetBackground(swatch, COLOURS[k]))
        if k in EDGE_STYLES:
            ops.append(SetBorders(swatch, ("outer",), EDGE_STYLES[k]))
        elif k in ("generator", "chest", "gate", "dark", "flat"):
            ops.append(SetBorders(swatch, ("outer",), "thin"))
    return ops


def _swatch_text(key: str, lang: str) -> str:
    if key == "path":
        return render(lang, "sheet.map.step", n=2)
    if key in ("generator", "chest", "gate", "passage", "trap", "you", "noise"):
        return render(lang, f"sheet.map.{key}")
    return ""
