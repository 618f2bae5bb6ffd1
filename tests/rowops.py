"""What a player can do to the rows of a tab in a spreadsheet program that lets them (insert, delete, move,
sort, paste over, clear), done to a workbook the way that program does it.

Two programs: Google Sheets, on a `model.Book` of the fake (or of the memory gateway): cells, row heights,
and the protected and unprotected ranges shift with the rows, as Google shifts them; and an .xlsx file,
through openpyxl (an independent program): it moves the cells with their styles and saves the file.
Rows are 1-based, as a person counts them; every operation is on columns A to G, or on whole rows.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import openpyxl

from sheetgm.backends import model
from sheetgm.backends.a1 import A1

WIDTH = 7


# -- Google (the fake's model) ---------------------------------------------------------------


def _shift(rng: A1, at: int, n: int) -> A1 | None:
    """A range after ``n`` rows are inserted (n > 0) or deleted (n < 0) at 0-based row ``at``; None if deleted."""
    if rng.start_row == 0 and rng.end_row is None:
        return rng  # whole columns or the whole tab
    start, end = rng.start_row, rng.end_row
    if n > 0:
        start = start + n if start >= at else start
        end = end + n if end is not None and end > at else end
        return A1(rng.tab, start, rng.start_col, end, rng.end_col)
    gone = range(at, at - n)
    keep = [r for r in range(start, end if end is not None else start + 1) if r not in gone]
    if end is not None and not keep:
        return None
    new_start = start if start < at else max(at, start + n)
    new_end = None if end is None else new_start + len(keep)
    return A1(rng.tab, new_start, rng.start_col, new_end, rng.end_col)


def _move_protections(book: model.Book, tab: str, at: int, n: int) -> None:
    kept = []
    for p in book.protected:
        if p.range.tab != tab:
            kept.append(p)
            continue
        moved = _shift(p.range, at, n)
        if moved is None:
            continue
        p.range = moved
        p.unprotected = tuple(u for u in (_shift(x, at, n) for x in p.unprotected) if u is not None)
        kept.append(p)
    book.protected = kept


def g_insert(book: model.Book, tab: str, row: int, n: int = 1) -> None:
    sheet, at = book.sheet(tab), row - 1
    sheet.cells = {(r + n if r >= at else r, c): cell for (r, c), cell in sheet.cells.items()}
    sheet.row_heights = {(r + n if r >= at else r): h for r, h in sheet.row_heights.items()}
    sheet.grid_rows += n
    _move_protections(book, tab, at, n)


def g_delete(book: model.Book, tab: str, row: int, n: int = 1) -> None:
    sheet, at = book.sheet(tab), row - 1
    sheet.cells = {(r - n if r >= at + n else r, c): cell for (r, c), cell in sheet.cells.items()
                   if not at <= r < at + n}
    sheet.row_heights = {(r - n if r >= at + n else r): h for r, h in sheet.row_heights.items()
                         if not at <= r < at + n}
    _move_protections(book, tab, at, -n)


def g_values(book: model.Book, tab: str, row: int) -> list[str]:
    sheet = book.sheet(tab)
    return [sheet.cells[(row - 1, c)].value if (row - 1, c) in sheet.cells else "" for c in range(WIDTH)]


def g_set(book: model.Book, tab: str, row: int, values: list[str]) -> None:
    sheet = book.sheet(tab)
    for c in range(WIDTH):
        v = values[c] if c < len(values) else ""
        if v or (row - 1, c) in sheet.cells:
            sheet.cell(row - 1, c).value = v


def g_move(book: model.Book, tab: str, row: int, to: int) -> None:
    """Google's moveDimension of one row to before row ``to`` (as counted before the move)."""
    values = g_values(book, tab, row)
    g_delete(book, tab, row)
    dest = to - 1 if to > row else to
    g_insert(book, tab, dest)
    g_set(book, tab, dest, values)


def g_sort(book: model.Book, tab: str, first: int, last: int, col: int, reverse: bool = False) -> None:
    """sortRange on rows first..last by column ``col`` (0-based): whole rows move, values only."""
    rows = [g_values(book, tab, r) for r in range(first, last + 1)]
    rows.sort(key=lambda v: v[col], reverse=reverse)
    for r, values in zip(range(first, last + 1), rows, strict=True):
        g_set(book, tab, r, values)


def g_paste(book: model.Book, tab: str, source: int, target: int) -> None:
    g_set(book, tab, target, g_values(book, tab, source))


def g_clear(book: model.Book, tab: str, row: int) -> None:
    g_set(book, tab, row, [""] * WIDTH)


# -- an .xlsx file (openpyxl) ----------------------------------------------------------------


def _edit(path: Path, tab: str, change: Callable[[openpyxl.worksheet.worksheet.Worksheet], None]) -> None:
    wb = openpyxl.load_workbook(path)
    change(wb[tab])
    wb.save(path)


def _row(ws: openpyxl.worksheet.worksheet.Worksheet, row: int) -> list[str]:
    return ["" if ws.cell(row, c).value is None else str(ws.cell(row, c).value) for c in range(1, WIDTH + 1)]


def _put(ws: openpyxl.worksheet.worksheet.Worksheet, row: int, values: list[str]) -> None:
    for c in range(1, WIDTH + 1):
        v = values[c - 1] if c - 1 < len(values) else ""
        ws.cell(row, c).value = v or None


def x_insert(path: Path, tab: str, row: int, n: int = 1) -> None:
    _edit(path, tab, lambda ws: ws.insert_rows(row, n))


def x_delete(path: Path, tab: str, row: int, n: int = 1) -> None:
    _edit(path, tab, lambda ws: ws.delete_rows(row, n))


def x_move(path: Path, tab: str, row: int, to: int) -> None:
    def change(ws: openpyxl.worksheet.worksheet.Worksheet) -> None:
        values = _row(ws, row)
        ws.delete_rows(row, 1)
        dest = to - 1 if to > row else to
        ws.insert_rows(dest, 1)
        _put(ws, dest, values)
    _edit(path, tab, change)


def x_sort(path: Path, tab: str, first: int, last: int, col: int, reverse: bool = False) -> None:
    def change(ws: openpyxl.worksheet.worksheet.Worksheet) -> None:
        rows = sorted((_row(ws, r) for r in range(first, last + 1)), key=lambda v: v[col], reverse=reverse)
        for r, values in zip(range(first, last + 1), rows, strict=True):
            _put(ws, r, values)
    _edit(path, tab, change)


def x_paste(path: Path, tab: str, source: int, target: int) -> None:
    _edit(path, tab, lambda ws: _put(ws, target, _row(ws, source)))


def x_clear(path: Path, tab: str, row: int) -> None:
    _edit(path, tab, lambda ws: _put(ws, row, [""] * WIDTH))
