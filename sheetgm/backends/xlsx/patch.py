"""Rows among a sheet's unparsed rows (``book.Pending``) written again in their XML, without parsing them.

A stage rewrites a player's Current tab whole. Its first rows hold the player's numbers beside the map, so a few
of its rows change in every workbook (the stage, the position...) and a few more where the player's marks move.
Taking such a row (``Sheet.take``) parses its ~40 cells, sets them and makes the row's XML again; here the cells
that change are replaced in the row's XML instead, and whether a row holds the values already is found from it
too. Only where this is provably what taking the row would write: the row as read is exactly what the writer
makes of its cells (``sheetxml.made_row``: each distinct cell's XML checked once per process, the cells in
order, the row's attributes as the writer writes them), and the new values are one-line texts the writer keeps
as they are. Anything else returns None, and the row is taken and set cell by cell as before.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from operator import itemgetter, lt
from typing import NamedTuple, cast

from sheetgm.backends.xlsx import xmlkit
from sheetgm.backends.xlsx.read import hold, row_cells
from sheetgm.backends.xlsx.sheetxml import inline_end, letters

CELL_OPEN = '<c r="'
Found = tuple[str, str, int]  # a cell as the reader makes it: kind, text, style


class Study(NamedTuple):
    """A row of the writer's making: its start tag, and its cells in order: their columns, their XML after
    '<c r="', what the reader makes of them."""

    head: str
    cols: list[int]
    pieces: list[str]
    cells: list[Found]


# A cell's XML after '<c r="' -> ``_piece``: the map's cells are the same in every player's rows, each distinct one
# is looked at once.
_PIECES: dict[str, tuple[int, int, Found]] = {}
_PIECES_HELD = [0, 4_000_000]  # the characters of the pieces held, at most


def _piece(piece: str, cell: tuple[int, str, str, int]) -> tuple[int, int, Found]:
    """A piece's column (-1 where the writer would not make exactly this XML of the cell the reader makes of it),
    its row (1-based, 0 for none) and that cell."""
    col, kind, text, style = cell
    ref = piece[:piece.find('"')]
    digits = ref.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    found = (kind, text, style)
    return (col if made(ref, found) == piece else -1), (int(digits) if digits.isdigit() else 0), found


def made(ref: str, cell: tuple[str, str, int]) -> str:
    """A cell's XML after '<c r="' as the writer makes it (``made_row``); "" for a cell it leaves out."""
    kind, text, style = cell
    mark = f' s="{style}"' if style else ""
    if not kind:
        return f'{ref}"{mark}/>' if style else ""
    return f'{ref}"{mark}{inline_end(text)}'


# A row's XML and attributes -> ``study`` of it: a stage's ops write the player's numbers, then the map, over the
# same first rows of the Current tab (a key holds a row's XML: a few kB).
_STUDIED: dict[tuple[str, int, tuple[tuple[str, str], ...]], Study | None] = {}


def study(xml: str, r: int, dims: dict[str, str] | None) -> Study | None:
    """Row ``r``'s start tag and cells, when its XML is exactly what the writer makes of them and of the row's
    attributes ``dims``; None if not. (A row is ~40 cells: looked at in C as far as can be.)"""
    key = (xml, r, tuple(dims.items()) if dims else ())
    if key in _STUDIED:
        return _STUDIED[key]
    if len(_STUDIED) >= 256:  # (kept for the next ops of the same write: a few kB each)
        _STUDIED.clear()
    found = _STUDIED[key] = _study(xml, r, dims)
    return found


def _study(xml: str, r: int, dims: dict[str, str] | None) -> Study | None:
    if not xml.endswith("</row>"):
        return None
    start = xml.find(">") + 1
    head = xml[:start]
    if head != f'<row r="{r + 1}"{xmlkit.attrs(dims) if dims else ""}>':
        return None
    pieces = xml[start:-6].split(CELL_OPEN)
    if pieces.pop(0):
        return None
    known = list(map(_PIECES.get, pieces))
    if None in known:  # cells not seen before (each once: the map's cells recur in every player's rows)
        _row, cells = row_cells(xml[:-6])  # the row as the reader reads it: one cell a piece, if it is the writer's
        if len(cells) != len(pieces):
            return None  # a cell of the plain format and no text (the writer leaves it out), or not a cell
        for i, found in enumerate(known):
            if found is None:
                known[i] = found = _piece(pieces[i], cells[i])
                hold(_PIECES, _PIECES_HELD, pieces[i], found)
    seen = cast(list[tuple[int, int, Found]], known)
    cols = list(map(itemgetter(0), seen))
    if not cols:
        return Study(head, [], [], [])
    if cols[0] < 0 or not all(map(lt, cols, cols[1:])) or set(map(itemgetter(1), seen)) != {r + 1}:
        return None  # not the writer's XML (column -1), cells out of order, a cell of another row
    return Study(head, cols, pieces, list(map(itemgetter(2), seen)))


def _texts(values: Sequence[str], width: int) -> list[str]:
    return [*values[:width], *([""] * (width - len(values)))]


def holds(row: Study, c0: int, values: Sequence[str], width: int) -> bool:
    """Whether setting ``values`` from column ``c0`` (``width`` columns) leaves every cell as it is
    (``cells._holds``; a missing cell holds a blank)."""
    texts = _texts(values, width)
    if "\n" in "".join(texts):
        return False  # (a cell given a text of several lines is written again, whatever it holds: its row grows)
    lo, hi = bisect_left(row.cols, c0), bisect_left(row.cols, c0 + width)
    if hi - lo == width:  # (a cell in every column: a map's row)
        return list(map(itemgetter(0, 1), row.cells[lo:hi])) == [("s", t) if t else ("", "") for t in texts]
    here = [col - c0 for col in row.cols[lo:hi]]
    if any(texts[j] for j in set(range(width)).difference(here)):
        return False  # a text where there is no cell
    return list(map(itemgetter(0, 1), row.cells[lo:hi])) == [("s", texts[j]) if texts[j] else ("", "") for j in here]


def patched(row: Study, r: int, c0: int, values: Sequence[str], width: int) -> tuple[str, list[int]] | None:
    """The row's XML with ``values`` set from column ``c0`` as ``cells._set_values`` sets one-line texts, and the
    columns of the cells left with nothing (they still count in the sheet's extent); None where the values are not
    one-line texts the writer keeps as they are, or the row would be left with no cell."""
    texts = _texts(values, width)
    joined = "".join(texts)
    if "\n" in joined or xmlkit.ILLEGAL.search(joined):
        return None
    lo, hi = bisect_left(row.cols, c0), bisect_left(row.cols, c0 + width)
    number = str(r + 1)
    emptied: list[int] = []
    if hi - lo == width:  # (a cell in every column: a map's row, where a mark or two changed)
        box = row.pieces[lo:hi]
        want = [("s", t) if t else ("", "") for t in texts]
        have = list(map(itemgetter(0, 1), row.cells[lo:hi]))
        for j in [j for j, now in enumerate(have) if now != want[j]]:  # (the cells that change: a few)
            box[j] = made(letters(c0 + j) + number, (*want[j], row.cells[lo + j][2]))
            if not box[j]:
                emptied.append(c0 + j)
        box = [piece for piece in box if piece]
    else:
        had = dict(zip(row.cols[lo:hi], zip(row.pieces[lo:hi], row.cells[lo:hi], strict=True), strict=True))
        box = []
        for j, text in enumerate(texts):
            col = c0 + j
            found = had.get(col)
            if found is None:
                if text:
                    box.append(made(letters(col) + number, ("s", text, 0)))
                continue
            piece, (kind, value, style) = found
            if value == text and ((kind == "s") if text else not kind):
                box.append(piece)  # held
                continue
            piece = made(letters(col) + number, ("s", text, style) if text else ("", "", style))
            if piece:
                box.append(piece)
            else:
                emptied.append(col)
    pieces = [*row.pieces[:lo], *box, *row.pieces[hi:]]
    if not pieces:
        return None
    return row.head + CELL_OPEN + CELL_OPEN.join(pieces) + "</row>", emptied
