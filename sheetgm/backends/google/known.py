"""What this process knows a workbook's cells hold, so that a write sends only the values that change.

Learned from every read (a range read is known whole: the cells the API left out are empty) and
from the first read of a workbook, which brings every tab's values; kept up to date by each write
that succeeds, forgotten when one fails. A write's ``SetValues`` whose every cell already holds
its value is dropped, so a write that changes nothing costs no call (`sheetgm check` writing a
status that is already there; the roster and headers of the director's workbook at each publish).
Only values are compared: formats, notes, validation and protections are always sent.

The comparison is with what was read moments before in this run (formatted values, which is what
sheetgm writes: plain strings). A cell someone edits between that read and the write keeps its
edit until the next run writes it: the runs that read a workbook rewrite what they find changed.
"""

from __future__ import annotations

from collections.abc import Sequence

from sheetgm.backends import port
from sheetgm.backends.a1 import A1, parse_range
from sheetgm.backends.errors import RangeError
from sheetgm.core.values import field, record

Cell = tuple[str, int, int]  # tab, 0-based row, 0-based column


@record
class Book:
    areas: list[A1] = field(default_factory=list)  # ranges whose every cell is known (open ends: to the grid's end)
    cells: dict[Cell, str] = field(default_factory=dict)  # non-empty known cells

    def covers(self, tab: str, row: int, col: int) -> bool:
        return any(a.tab == tab and a.start_row <= row and (a.end_row is None or row < a.end_row)
                   and a.start_col <= col and (a.end_col is None or col < a.end_col) for a in self.areas)

    def value(self, tab: str, row: int, col: int) -> str | None:
        if not self.covers(tab, row, col):
            return None
        return self.cells.get((tab, row, col), "")

    def learn(self, area: A1, rows: Sequence[Sequence[str]]) -> None:
        """Every cell of ``area`` holds what ``rows`` say (from its top left), the others nothing."""
        for key in [k for k in self.cells if _inside(area, k)]:
            del self.cells[key]
        for i, row in enumerate(rows):
            for j, value in enumerate(row):
                if value:
                    self.cells[(area.tab, area.start_row + i, area.start_col + j)] = str(value)
        if area not in self.areas:
            self.areas.append(area)


def _inside(area: A1, cell: Cell) -> bool:
    tab, r, c = cell
    return (tab == area.tab and area.start_row <= r and (area.end_row is None or r < area.end_row)
            and area.start_col <= c and (area.end_col is None or c < area.end_col))


def _filled(op: port.SetValues, area: A1) -> list[tuple[int, int, str]]:
    """Every cell a SetValues sets (the cells of a bounded range its rows leave out are emptied)."""
    width = (area.end_col or area.start_col + 1) - area.start_col
    height = (area.end_row or area.start_row + 1) - area.start_row
    out = []
    for i in range(height):
        row = op.rows[i] if i < len(op.rows) else ()
        for j in range(width):
            out.append((area.start_row + i, area.start_col + j, row[j] if j < len(row) else ""))
    return out


class Known:
    """Per workbook key: the cells known. ``prune`` before a write, ``commit`` after it succeeds."""

    def __init__(self) -> None:
        self.books: dict[str, Book] = {}

    def learn(self, key: str, text: str, rows: Sequence[Sequence[str]]) -> None:
        try:
            area = parse_range(text)
        except RangeError:
            return
        self.books.setdefault(key, Book()).learn(area, rows)

    def learn_tabs(self, key: str, tabs: dict[str, list[list[str]]]) -> None:
        """A first read: every tab's values, whole."""
        book = self.books[key] = Book()
        for name, rows in tabs.items():
            book.learn(A1(name, 0, 0, None, None), rows)

    def forget(self, key: str) -> None:
        self.books.pop(key, None)

    def prune(self, key: str, ops: Sequence[port.Op]) -> tuple[list[port.Op], Book | None]:
        """The ops left to send, and what the workbook will hold once they are applied (to ``commit``)."""
        known = self.books.get(key)
        if known is None:
            return list(ops), None
        draft = Book(list(known.areas), dict(known.cells))
        out: list[port.Op] = []
        for op in ops:
            if isinstance(op, port.ClearRange):
                area = parse_range(op.range)
                draft.learn(area, [])
            elif isinstance(op, port.SetValues):
                area = port.values_area(op, parse_range(op.range))
                cells = _filled(op, area)
                if all(draft.value(area.tab, r, c) == v for r, c, v in cells):
                    continue  # every cell already holds it
                for r, c, v in cells:
                    if v:
                        draft.cells[(area.tab, r, c)] = v
                    else:
                        draft.cells.pop((area.tab, r, c), None)
            elif isinstance(op, port.AddTab):
                pass  # a tab that already exists is left as it is: nothing is known of a new one
            out.append(op)
        return out, draft

    def commit(self, key: str, draft: Book | None) -> None:
        if draft is not None:
            self.books[key] = draft
