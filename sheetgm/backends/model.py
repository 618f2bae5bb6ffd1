"""An in-memory workbook: the store of `MemoryGateway` and of the fake Google API.

Primitives (set values, format, borders, validation, protections) work on
0-based `A1` ranges so that both the port ops and the Sheets API requests of
the fake translate onto them, and both read back through `view`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sheetgm.backends import port
from sheetgm.backends.a1 import A1, cell_name, col_letters, format_range, parse_range
from sheetgm.backends.errors import MissingTabError
from sheetgm.core.values import field, record

GRID_ROWS, GRID_COLS = 1000, 26  # a new Google tab's grid


@record
class Cell:
    """A cell of the memory model: its value and format."""

    value: str = ""
    background: str | None = None
    bold: bool = False
    borders: dict[str, str] = field(default_factory=dict)  # top/bottom/left/right -> style
    note: str = ""
    validation: port.Validation | None = None


@record
class Sheet:
    """A tab of the memory model: its cells, validations, frozen rows and sizes."""

    name: str
    sheet_id: int
    cells: dict[tuple[int, int], Cell] = field(default_factory=dict)
    frozen_rows: int = 0
    col_widths: dict[int, int] = field(default_factory=dict)
    row_heights: dict[int, int] = field(default_factory=dict)
    grid_rows: int = GRID_ROWS
    grid_cols: int = GRID_COLS
    pictures: dict[str, bytes] = field(default_factory=dict)  # name -> PNG (port.PlaceImage)

    def cell(self, row: int, col: int) -> Cell:
        return self.cells.setdefault((row, col), Cell())

    def extent(self) -> tuple[int, int]:
        """Rows and columns up to the last cell holding a value."""
        used = [rc for rc, c in self.cells.items() if c.value]
        return (max((r for r, _ in used), default=-1) + 1, max((c for _, c in used), default=-1) + 1)

    def area(self, rng: A1) -> list[tuple[int, int]]:
        """Cells of a range; open ends stop at the grid (or the data, if it reaches further)."""
        rows, cols = self.extent()
        return rng.cells(max(rows, self.grid_rows), max(cols, self.grid_cols))

    def fits(self, rng: A1) -> bool:
        return (rng.end_row or 0) <= self.grid_rows and (rng.end_col or 0) <= self.grid_cols

    def grow(self, rng: A1) -> None:
        self.grid_rows = max(self.grid_rows, rng.end_row or 0)
        self.grid_cols = max(self.grid_cols, rng.end_col or 0)


@record
class Protected:
    """A protected range of the memory model, with its editors."""

    id: int
    range: A1
    editors: tuple[str, ...]
    description: str
    warning_only: bool = False
    unprotected: tuple[A1, ...] = ()  # open blocks inside a whole tab's protection


@record
class Book:
    """A workbook of the memory model: its tabs, protections and sharing."""

    title: str
    sheets: list[Sheet] = field(default_factory=list)
    protected: list[Protected] = field(default_factory=list)
    permissions: dict[str, str] = field(default_factory=dict)  # email -> role
    next_id: int = 1

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    def sheet(self, name: str, text: str | None = None) -> Sheet:
        for s in self.sheets:
            if s.name == name:
                return s
        raise MissingTabError(range=text or name, tab=name)

    def has_sheet(self, name: str) -> bool:
        return any(s.name == name for s in self.sheets)

    def add_sheet(self, name: str, sheet_id: int | None = None) -> Sheet:
        sheet = Sheet(name, self.new_id() if sheet_id is None else sheet_id)
        self.sheets.append(sheet)
        return sheet


def read(book: Book, text: str) -> list[list[str]]:
    rng = parse_range(text)
    sheet = book.sheet(rng.tab, text)
    rows, cols = sheet.extent()
    r1 = min(rows, rng.end_row) if rng.end_row is not None else rows
    c1 = min(cols, rng.end_col) if rng.end_col is not None else cols
    out = [
        [sheet.cells[(r, c)].value if (r, c) in sheet.cells else "" for c in range(rng.start_col, c1)]
        for r in range(rng.start_row, r1)
    ]
    return port.trim(out)


def set_values(sheet: Sheet, area: A1, rows: Sequence[Sequence[str]]) -> None:
    """Fill ``area`` (all or nothing): a value longer than a Google cell holds is refused, as the API does."""
    port.check_lengths(sheet.name, area, rows, port.GOOGLE_CELL_LIMIT)
    for r, c in area.cells(0, 0):
        i, j = r - area.start_row, c - area.start_col
        value = rows[i][j] if i < len(rows) and j < len(rows[i]) else ""
        if value or (r, c) in sheet.cells:
            sheet.cell(r, c).value = value


def each_cell(sheet: Sheet, rng: A1, change: Callable[[Cell], None]) -> None:
    for r, c in sheet.area(rng):
        change(sheet.cell(r, c))


def border_plan(cells: list[tuple[int, int]], sides: dict[str, str]) -> list[tuple[int, int, str, str]]:
    """``updateBorders`` semantics as (row, col, side, style) changes: outer sides on the edge
    cells of the range, inner lines on both neighbours; style "none" removes a side."""
    if not cells:
        return []
    rows, cols = [r for r, _ in cells], [c for _, c in cells]
    top, bottom, left, right = min(rows), max(rows), min(cols), max(cols)
    plan = []
    for r, c in cells:
        for side, style in sides.items():
            if side == "top" and r == top or side == "bottom" and r == bottom:
                plan.append((r, c, side, style))
            elif side == "left" and c == left or side == "right" and c == right:
                plan.append((r, c, side, style))
            elif side == "inner_horizontal":
                plan += [(r, c, "top", style)] if r > top else []
                plan += [(r, c, "bottom", style)] if r < bottom else []
            elif side == "inner_vertical":
                plan += [(r, c, "left", style)] if c > left else []
                plan += [(r, c, "right", style)] if c < right else []
    return plan


def set_borders(sheet: Sheet, rng: A1, sides: dict[str, str]) -> None:
    for r, c, side, style in border_plan(sheet.area(rng), sides):
        borders = sheet.cell(r, c).borders
        if style == "none":
            borders.pop(side, None)
        else:
            borders[side] = style


def protect(book: Book, rng: A1, editors: Sequence[str], description: str, pid: int | None = None,
            warning_only: bool = False, unprotected: Sequence[A1] = ()) -> int:
    book.sheet(rng.tab)
    pid = book.new_id() if pid is None else pid
    book.protected.append(Protected(pid, rng, tuple(sorted(set(editors))), description, warning_only,
                                    tuple(unprotected)))
    return pid


def unprotect(book: Book, description: str) -> None:
    book.protected = [p for p in book.protected if p.description != description]


def apply(book: Book, op: port.Op) -> None:
    """Apply one port op (the memory adapter's whole write path)."""
    ranges = port.op_ranges(op)
    if ranges:
        rng = ranges[0]
        sheet = book.sheet(rng.tab, format_range(rng))
    if isinstance(op, port.AddTab):
        if not book.has_sheet(op.name):
            book.add_sheet(op.name)
    elif isinstance(op, port.Unprotect):
        unprotect(book, op.description)
    elif isinstance(op, port.Protect):
        unprotect(book, op.description)
        protect(book, rng, op.editors, op.description, unprotected=ranges[1:])
    elif isinstance(op, port.FreezeRows):
        sheet.frozen_rows = op.rows
    elif isinstance(op, port.SetValues):
        area = port.values_area(op, rng)
        sheet.grow(area)
        set_values(sheet, area, op.rows)
    elif isinstance(op, port.ClearRange):
        for r, c in sheet.area(rng):
            if (r, c) in sheet.cells:
                sheet.cells[(r, c)].value = ""
    elif isinstance(op, port.SetBorders):
        set_borders(sheet, rng, {side: op.style for side in op.sides})
    elif isinstance(op, port.ResizeColumns):
        for c in range(rng.start_col, rng.end_col if rng.end_col is not None else sheet.grid_cols):
            sheet.col_widths[c] = op.width
    elif isinstance(op, port.ResizeRows):
        for r in range(rng.start_row, rng.end_row if rng.end_row is not None else sheet.grid_rows):
            sheet.row_heights[r] = op.height
    elif isinstance(op, port.PlaceImage):
        if op.png:
            sheet.pictures[op.name] = op.png
        else:
            sheet.pictures.pop(op.name, None)
    else:
        each_cell(sheet, rng, _cell_change(op))


def _cell_change(op: port.Op) -> Callable[[Cell], None]:
    if isinstance(op, port.SetBackground):
        return lambda cell: setattr(cell, "background", op.rgb)
    if isinstance(op, port.SetBold):
        return lambda cell: setattr(cell, "bold", op.bold)
    if isinstance(op, port.SetNote):
        return lambda cell: setattr(cell, "note", op.text)
    if isinstance(op, port.SetValidation):
        rule = port.Validation(tuple(op.choices), op.strict, op.help) if op.choices else None
        return lambda cell: setattr(cell, "validation", rule)
    raise TypeError(f"not a write op: {op!r}")


def protections(book: Book) -> list[port.Protection]:
    return [port.Protection(format_range(p.range), p.editors, p.description, p.warning_only,
                            tuple(format_range(u) for u in p.unprotected)) for p in book.protected]


def view(book: Book) -> port.WorkbookView:
    tabs = []
    for sheet in book.sheets:
        rows, cols = sheet.extent()
        cells = sorted(sheet.cells.items())
        tabs.append(
            port.TabView(
                name=sheet.name,
                values=read(book, format_range(A1(sheet.name))) if rows and cols else [],
                frozen_rows=sheet.frozen_rows,
                backgrounds={cell_name(*rc): c.background for rc, c in cells if c.background},
                bold=frozenset(cell_name(*rc) for rc, c in cells if c.bold),
                borders={cell_name(*rc): dict(sorted(c.borders.items())) for rc, c in cells if c.borders},
                notes={cell_name(*rc): c.note for rc, c in cells if c.note},
                validations={cell_name(*rc): c.validation for rc, c in cells if c.validation},
                column_widths={
                    col_letters(c): w for c, w in sorted(sheet.col_widths.items()) if w != port.DEFAULT_WIDTH
                },
                row_heights={r + 1: h for r, h in sorted(sheet.row_heights.items()) if h != port.DEFAULT_HEIGHT},
            )
        )
    return port.WorkbookView(book.title, tuple(tabs))
