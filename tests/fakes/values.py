"""The ``spreadsheets.values`` API of the fake: ranges read and written as Google does.

Ranges: a tab name alone, ``Tab!A1:D4``, open ends (``A1:C``, ``A:A``, ``2:2``), reversed corners
(``D4:A1`` is ``A1:D4``), no tab (the first visible one) and named ranges. A read answers the range
cut to the tab's grid in canonical A1 (``'Sheet1'`` reads as ``Sheet1!A1:Z1000``), values with
trailing empty rows and cells left out, by ``majorDimension`` and the render options (`typed`).
A write answers what it covered (``updatedRange``, counts); ``append`` finds the table in its range
and writes below it, growing the grid when it must.
"""

from __future__ import annotations

import re
from typing import Any

from fakes import typed
from fakes.book import Spreadsheet, Typed
from fakes.errors import bad
from sheetgm.backends import model
from sheetgm.backends.a1 import A1, col_letters, format_range, split_tab
from sheetgm.backends.errors import RangeError

Json = dict[str, Any]
Params = dict[str, list[str]]
_CORNER = re.compile(r"^([A-Za-z]{0,3})(\d{0,7})$")


def _corner(part: str) -> tuple[int | None, int | None]:
    m = _CORNER.match(part.strip())
    if not m or not (m.group(1) or m.group(2)) or (m.group(2) and int(m.group(2)) == 0):
        raise ValueError(part)
    letters, digits = m.groups()
    col = None
    if letters:
        col = 0
        for ch in letters.upper():
            col = col * 26 + ord(ch) - ord("A") + 1
        col -= 1
    return (int(digits) - 1 if digits else None, col)


def _span(a: int | None, b: int | None) -> tuple[int, int | None]:
    if a is not None and b is not None:
        return min(a, b), max(a, b) + 1
    if b is not None:
        raise ValueError("an open start")
    return a or 0, None


def cells_of(tab: str, cells: str) -> A1:
    """``cells`` (``B2``, ``D4:A1``, ``A:C``, ``2:5``, ``A2:C``) on ``tab``; ValueError if it is none."""
    first, colon, last = cells.partition(":")
    a = _corner(first)
    b = _corner(last) if colon else a
    if not colon and None in a:
        raise ValueError(cells)
    start_row, end_row = _span(a[0], b[0]) if a[0] is not None or b[0] is not None else (0, None)
    start_col, end_col = _span(a[1], b[1]) if a[1] is not None or b[1] is not None else (0, None)
    return A1(tab, start_row, start_col, end_row, end_col)


def locate(book: Spreadsheet, text: str) -> tuple[model.Sheet, A1]:
    """The tab and cells a range text names, as Google reads it; a 400 if it names none."""
    try:
        tab, cells = split_tab(text)
    except RangeError:
        raise bad(f"Unable to parse range: {text}") from None
    quoted = text.strip().startswith("'")
    named = {n.name: n for n in book.named}
    if not cells and not quoted and not book.has_sheet(tab):
        if tab in named:
            return _named(book, named[tab].range)
        visible = [s for s in book.sheets if not book.hidden(s)]
        tab, cells = (visible[0] if visible else book.sheets[0]).name, tab
    if not book.has_sheet(tab):
        raise bad(f"Unable to parse range: {text}")
    sheet = book.sheet(tab)
    if not cells:
        return sheet, A1(tab)
    if cells in named:
        return _named(book, named[cells].range)
    try:
        return sheet, cells_of(tab, cells)
    except ValueError:
        raise bad(f"Unable to parse range: {text}") from None


def _named(book: Spreadsheet, gr: Json) -> tuple[model.Sheet, A1]:
    sheet = next(s for s in book.sheets if s.sheet_id == gr.get("sheetId", 0))
    return sheet, A1(sheet.name, gr.get("startRowIndex", 0), gr.get("startColumnIndex", 0),
                     gr.get("endRowIndex"), gr.get("endColumnIndex"))


def grid_limit(sheet: model.Sheet, rng: A1) -> Exception:
    return bad(f"Range ({format_range(rng)}) exceeds grid limits. Max rows: {sheet.grid_rows}, "
               f"max columns: {sheet.grid_cols}")


def clamp(sheet: model.Sheet, rng: A1) -> A1:
    """The range cut to the tab's grid (a read's answer names this)."""
    if rng.start_row >= sheet.grid_rows or rng.start_col >= sheet.grid_cols:
        raise grid_limit(sheet, rng)
    end_row = sheet.grid_rows if rng.end_row is None else min(rng.end_row, sheet.grid_rows)
    end_col = sheet.grid_cols if rng.end_col is None else min(rng.end_col, sheet.grid_cols)
    return A1(rng.tab, rng.start_row, rng.start_col, end_row, end_col)


def _trim(rows: list[list[Any]]) -> list[list[Any]]:
    out = []
    for row in rows:
        while row and row[-1] == "":
            row = row[:-1]
        out.append(row)
    while out and not out[-1]:
        out.pop()
    return out


def value_range(book: Spreadsheet, text: str, params: Params) -> Json:
    """One ValueRange of a read."""
    sheet, rng = locate(book, text)
    area = clamp(sheet, rng)
    option = params.get("valueRenderOption", ["FORMATTED_VALUE"])[0]
    dates = params.get("dateTimeRenderOption", ["SERIAL_NUMBER"])[0]
    major = params.get("majorDimension", ["ROWS"])[0]
    assert area.end_row is not None and area.end_col is not None
    grid = [[_cell(book, sheet, r, c, option, dates) for c in range(area.start_col, area.end_col)]
            for r in range(area.start_row, min(area.end_row, _last_row(sheet) + 1))]
    if major == "COLUMNS":
        width = area.end_col - area.start_col
        grid = [[row[j] for row in grid] for j in range(width)]
    out: Json = {"range": format_range(area), "majorDimension": major}
    values = _trim(grid)
    if values:
        out["values"] = values
    return out


def _last_row(sheet: model.Sheet) -> int:
    return max((r for (r, _), cell in sheet.cells.items() if cell.value), default=-1)


def _cell(book: Spreadsheet, sheet: model.Sheet, r: int, c: int, option: str, dates: str) -> Any:
    cell = sheet.cells.get((r, c))
    text = cell.value if cell is not None else ""
    return typed.render(book.typed_at(sheet, r, c), text, option, dates) if text else ""


def _entries(rows: Any, major: str, user: bool) -> list[list[Typed | str | None]]:
    if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        raise bad(f"Invalid value at 'data.values' (type.googleapis.com/google.protobuf.ListValue), {rows!r:.40}",
                  "data.values")
    parse = typed.user_entered if user else typed.raw
    grid = [[parse(v) for v in row] for row in rows]
    if major == "COLUMNS":
        height = max((len(col) for col in grid), default=0)
        grid = [[col[i] if i < len(col) else None for col in grid] for i in range(height)]
    return grid


def write(book: Spreadsheet, text: str, body: Json, params: Params, sid: str, anchor: A1 | None = None) -> Json:
    """``values.update`` (or ``append`` at ``anchor``): the answer."""
    return _write(book, text, body, params, sid, anchor)[0]


def _write(book: Spreadsheet, text: str, body: Json, params: Params, sid: str,
           anchor: A1 | None = None) -> tuple[Json, set[tuple[int, int, int]]]:
    """Write a range; the answer, and the cells written (a null value leaves its cell as it is)."""
    option = params.get("valueInputOption", [""])[0]
    if option not in ("RAW", "USER_ENTERED"):
        raise bad("'valueInputOption' is required but not specified")
    sheet, rng = locate(book, text)
    start = anchor or rng
    grid = _entries(body.get("values", []), body.get("majorDimension") or "ROWS", option == "USER_ENTERED")
    height, width = len(grid), max((len(row) for row in grid), default=0)
    if height == 0 or width == 0:
        return {"spreadsheetId": sid, "updatedRange": format_range(clamp(sheet, start))}, set()
    written = A1(sheet.name, start.start_row, start.start_col, start.start_row + height, start.start_col + width)
    single = rng.end_row == rng.start_row + 1 and rng.end_col == rng.start_col + 1 or rng.whole_tab
    if anchor is None and not single:
        limit = clamp(sheet, rng)
        assert limit.end_row is not None and limit.end_col is not None and written.end_col is not None
        if written.end_row is not None and written.end_row > limit.end_row:
            raise bad(f"Requested writing within range [{text}], but tried writing to row [{written.end_row}]")
        if written.end_col > limit.end_col:
            raise bad(f"Requested writing within range [{text}], but tried writing to column "
                      f"[{col_letters(written.end_col - 1)}]")
    if not sheet.fits(written):
        raise grid_limit(sheet, written)
    touched = set()
    for i, row in enumerate(grid):
        for j, value in enumerate(row):
            if value is None:
                continue
            book.put(sheet, written.start_row + i, written.start_col + j, value)
            touched.add((sheet.sheet_id, written.start_row + i, written.start_col + j))
    out: Json = {"spreadsheetId": sid, "updatedRange": format_range(written),
                 "updatedRows": len({r for _, r, _ in touched}), "updatedColumns": len({c for _, _, c in touched}),
                 "updatedCells": len(touched)}
    if params.get("includeValuesInResponse", ["false"])[0].lower() == "true":
        out["updatedData"] = value_range(book, format_range(written), _response_params(params))
    return out, touched


def _response_params(params: Params) -> Params:
    return {"valueRenderOption": params.get("responseValueRenderOption", ["FORMATTED_VALUE"]),
            "dateTimeRenderOption": params.get("responseDateTimeRenderOption", ["SERIAL_NUMBER"])}


def write_many(book: Spreadsheet, body: Json, sid: str) -> Json:
    """``values.batchUpdate``: every range written, or none (the caller keeps a draft)."""
    params = {"valueInputOption": [body.get("valueInputOption") or ""],
              "includeValuesInResponse": [str(bool(body.get("includeValuesInResponse"))).lower()],
              "responseValueRenderOption": [body.get("responseValueRenderOption") or "FORMATTED_VALUE"],
              "responseDateTimeRenderOption": [body.get("responseDateTimeRenderOption") or "SERIAL_NUMBER"]}
    answers, touched = [], set()
    for item in body.get("data", []):
        answer, cells = _write(book, str(item.get("range", "")), item, params, sid)
        answers.append(answer)
        touched |= cells
    out: Json = {"spreadsheetId": sid}
    if answers:
        out |= {"totalUpdatedRows": len({(s, r) for s, r, _ in touched}),
                "totalUpdatedColumns": len({(s, c) for s, _, c in touched}), "totalUpdatedCells": len(touched),
                "totalUpdatedSheets": len({s for s, _, _ in touched}), "responses": answers}
    return out


def clear(book: Spreadsheet, text: str) -> str:
    """Clear a range's values (formats stay); the cleared range, as Google names it."""
    sheet, rng = locate(book, text)
    area = clamp(sheet, rng)
    for (r, c) in [rc for rc in sheet.cells if area.contains(*rc)]:
        book.put(sheet, r, c, "")
    return format_range(area)


def append(book: Spreadsheet, text: str, body: Json, params: Params, sid: str) -> Json:
    """``values.append``: find the table in the range, write below it (the grid grows if it must)."""
    sheet, rng = locate(book, text)
    area = clamp(sheet, rng)
    table = _table(sheet, area, single=rng.end_row == rng.start_row + 1 and rng.end_col == rng.start_col + 1)
    if table is None:
        at = A1(sheet.name, area.start_row, area.start_col, area.start_row + 1, area.start_col + 1)
    else:
        assert table.end_row is not None
        at = A1(sheet.name, table.end_row, table.start_col, table.end_row + 1, table.start_col + 1)
    height = len(_entries(body.get("values", []), body.get("majorDimension") or "ROWS", False))
    if params.get("insertDataOption", ["OVERWRITE"])[0] == "INSERT_ROWS":
        book.shift(sheet, True, at.start_row, height)  # new rows under the table, what was there moves down
    elif at.start_row + height > sheet.grid_rows:
        book.shift(sheet, True, sheet.grid_rows, at.start_row + height - sheet.grid_rows)
    out: Json = {"spreadsheetId": sid}
    if table is not None:
        out["tableRange"] = format_range(table)
    out["updates"] = write(book, format_range(at), body, params, sid, anchor=at)
    return out


def _table(sheet: model.Sheet, area: A1, single: bool) -> A1 | None:
    """The table an append writes below: the block of connected cells holding values that holds the
    range's cell (for a one-cell range), else the lowest such block in the range."""
    filled = {rc for rc, cell in sheet.cells.items() if cell.value and area.contains(*rc)}
    if single:
        filled = {rc for rc, cell in sheet.cells.items() if cell.value and rc[1] >= area.start_col
                  and rc[0] >= area.start_row}
    blocks: list[set[tuple[int, int]]] = []
    seen: set[tuple[int, int]] = set()
    for start in sorted(filled):
        if start in seen:
            continue
        block, todo = set(), [start]
        while todo:
            r, c = todo.pop()
            if (r, c) in seen or (r, c) not in filled:
                continue
            seen.add((r, c))
            block.add((r, c))
            todo += [(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)]
        blocks.append(block)
    if single:
        blocks = [b for b in blocks if (area.start_row, area.start_col) in b]
    if not blocks:
        return None
    block = max(blocks, key=lambda b: (max(r for r, _ in b), max(c for _, c in b)))
    rows, cols = [r for r, _ in block], [c for _, c in block]
    return A1(sheet.name, min(rows), min(cols), max(rows) + 1, max(cols) + 1)
