"""The Sheets API semantics of `FakeGoogle`: API request bodies applied to a
`model.Book`, and the JSON documents the API returns. Errors are raised as
`errors.ApiFault` carrying the status and the Google error body."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from fakes.errors import bad
from sheetgm.backends import model, port
from sheetgm.backends.a1 import A1, format_range, parse_range
from sheetgm.backends.errors import RangeError
from sheetgm.backends.google.translate import API_TO_STYLE, STYLE_TO_API, a1_of, grid_range, rgb_of

Json = dict[str, Any]
API_SIDES = {"top": "top", "bottom": "bottom", "left": "left", "right": "right",
             "innerHorizontal": "inner_horizontal", "innerVertical": "inner_vertical"}


def color(rgb: str) -> Json:
    """Like the API: zero components are omitted."""
    return {k: v for k, v in (("red", int(rgb[1:3], 16) / 255), ("green", int(rgb[3:5], 16) / 255),
                              ("blue", int(rgb[5:7], 16) / 255)) if v}


def rng_of(book: model.Book, gr: Json) -> tuple[model.Sheet, A1]:
    by_id = {s.sheet_id: s.name for s in book.sheets}
    if gr.get("sheetId", 0) not in by_id:
        raise bad(f"No grid with id: {gr.get('sheetId', 0)}")
    rng = a1_of(gr, by_id)
    sheet = book.sheet(rng.tab)
    if not sheet.fits(rng):
        raise bad(f"Range ({format_range(rng)}) exceeds grid limits. "
                  f"Max rows: {sheet.grid_rows}, max columns: {sheet.grid_cols}")
    return sheet, rng


def apply(book: model.Book, req: Json) -> Json:
    """Apply one batchUpdate request; return its reply."""
    if not req:
        raise bad("No request set.")
    kind, body = next(iter(req.items()))
    if kind == "addSheet":
        props = body.get("properties", {})
        title = props.get("title") or f"Sheet{len(book.sheets) + 1}"
        if book.has_sheet(title):
            raise bad(f'A sheet with the name "{title}" already exists. Please enter another name.')
        sid = props.get("sheetId")
        if sid is not None and any(s.sheet_id == sid for s in book.sheets):
            raise bad(f"Invalid requests[0].addSheet: Sheet with id {sid} already exists.")
        sheet = book.add_sheet(title, sid)
        return {"addSheet": {"properties": sheet_props(sheet, len(book.sheets) - 1)}}
    if kind == "deleteProtectedRange":
        pid = body.get("protectedRangeId")
        if not any(p.id == pid for p in book.protected):
            raise bad(f"No protected range with id: {pid}")
        book.protected = [p for p in book.protected if p.id != pid]
        return {}
    if kind == "addProtectedRange":
        pr = body.get("protectedRange", {})
        editors = tuple(pr.get("editors", {}).get("users", []))
        if pr.get("warningOnly") and editors:
            raise bad("Cannot set editors on a warning-only protected range")
        _, rng = rng_of(book, pr.get("range", {}))
        opened = [rng_of(book, u)[1] for u in pr.get("unprotectedRanges", [])]
        if opened and not rng.whole_tab:
            raise bad("Unprotected ranges are only supported on protected sheets.")
        if rng.whole_tab and any(p.range.tab == rng.tab and p.range.whole_tab for p in book.protected):
            raise bad(f'Sheet "{rng.tab}" already has sheet protection.')
        pid = model.protect(book, rng, editors, pr.get("description", ""), warning_only=bool(pr.get("warningOnly")),
                            unprotected=opened)
        return {"addProtectedRange": {"protectedRange": {**pr, "protectedRangeId": pid}}}
    if kind == "appendDimension":
        sheet = _sheet_by_id(book, body.get("sheetId", 0))
        if body.get("dimension") == "ROWS":
            sheet.grid_rows += int(body["length"])
        else:
            sheet.grid_cols += int(body["length"])
        return {}
    if kind == "updateSheetProperties":
        props = body.get("properties", {})
        sheet = _sheet_by_id(book, props.get("sheetId", 0))
        if "gridProperties.frozenRowCount" in body.get("fields", ""):
            sheet.frozen_rows = props.get("gridProperties", {}).get("frozenRowCount", 0)
        return {}
    if kind == "updateDimensionProperties":
        span = body["range"]
        sheet = _sheet_by_id(book, span.get("sheetId", 0))
        sizes = sheet.col_widths if span["dimension"] == "COLUMNS" else sheet.row_heights
        for i in range(span.get("startIndex", 0), span["endIndex"]):
            sizes[i] = body["properties"]["pixelSize"]
        return {}
    sheet, rng = rng_of(book, body.get("range", {}))
    if kind == "updateCells":
        if body.get("fields") != "userEnteredValue":
            raise bad(f"the fake supports updateCells on userEnteredValue only, not {body.get('fields')}")
        rows = tuple(tuple(c.get("userEnteredValue", {}).get("stringValue", "") for c in r.get("values", []))
                     for r in body.get("rows", []))
        if not rng.bounded:
            rng = A1(rng.tab, rng.start_row, rng.start_col,
                     rng.end_row if rng.end_row is not None else sheet.grid_rows,
                     rng.end_col if rng.end_col is not None else sheet.grid_cols)
        model.set_values(sheet, rng, rows)
    elif kind == "repeatCell":
        _repeat(sheet, rng, body)
    elif kind == "updateBorders":
        sides = {API_SIDES[k]: API_TO_STYLE[v.get("style", "NONE")] for k, v in body.items() if k in API_SIDES}
        model.set_borders(sheet, rng, sides)
    elif kind == "setDataValidation":
        rule = body.get("rule")
        validation = None
        if rule:
            if rule.get("condition", {}).get("type") != "ONE_OF_LIST":
                raise bad("the fake supports ONE_OF_LIST validation only")
            choices = tuple(v.get("userEnteredValue", "") for v in rule["condition"].get("values", []))
            validation = port.Validation(choices, bool(rule.get("strict")), rule.get("inputMessage", ""))
        model.each_cell(sheet, rng, lambda cell: setattr(cell, "validation", validation))
    else:
        raise bad(f"Invalid JSON payload received. Unknown name \"{kind}\" at 'requests[0]'")
    return {}


def _repeat(sheet: model.Sheet, rng: A1, body: Json) -> None:
    cell_data = body.get("cell", {})
    fmt = cell_data.get("userEnteredFormat", {})
    for field in (f.strip() for f in body.get("fields", "").split(",")):
        value: object
        if field == "userEnteredFormat.backgroundColor":
            attr, value = "background", rgb_of(fmt["backgroundColor"]) if "backgroundColor" in fmt else None
        elif field == "userEnteredFormat.textFormat.bold":
            attr, value = "bold", bool(fmt.get("textFormat", {}).get("bold"))
        elif field == "note":
            attr, value = "note", cell_data.get("note", "")
        else:
            raise bad(f"the fake does not support repeatCell fields '{field}'")
        for r, c in sheet.area(rng):
            setattr(sheet.cell(r, c), attr, value)


def _sheet_by_id(book: model.Book, sid: int) -> model.Sheet:
    for s in book.sheets:
        if s.sheet_id == sid:
            return s
    raise bad(f"No grid with id: {sid}")


def sheet_props(sheet: model.Sheet, index: int) -> Json:
    grid: Json = {"rowCount": sheet.grid_rows, "columnCount": sheet.grid_cols}
    if sheet.frozen_rows:
        grid["frozenRowCount"] = sheet.frozen_rows
    return {"sheetId": sheet.sheet_id, "title": sheet.name, "index": index, "sheetType": "GRID",
            "gridProperties": grid}


def document(book: model.Book, sid: str, grid: bool, ranges: Sequence[str] = ()) -> Json:
    """``spreadsheets.get``: metadata, protected ranges, and with ``grid`` the cells. With ``ranges``,
    like the API: only the tabs they touch, each with one GridData block per range on it (in the
    order asked), a block's zero offsets and empty ``rowData`` omitted."""
    wanted: dict[str, list[A1]] = {}
    for text in ranges:
        try:
            rng = parse_range(text)
            book.sheet(rng.tab, text)
        except RangeError:
            raise bad(f"Unable to parse range: {text}") from None
        wanted.setdefault(rng.tab, []).append(rng)
    sheets = []
    for i, sheet in enumerate(book.sheets):
        if ranges and sheet.name not in wanted:
            continue
        entry: Json = {"properties": sheet_props(sheet, i)}
        prs = [{"protectedRangeId": p.id, "range": grid_range(p.range, sheet.sheet_id), "description": p.description,
                **({"warningOnly": True} if p.warning_only else {"editors": {"users": list(p.editors)}}),
                **({"unprotectedRanges": [grid_range(u, sheet.sheet_id) for u in p.unprotected]} if p.unprotected
                   else {})}
               for p in book.protected if p.range.tab == sheet.name]
        if prs:
            entry["protectedRanges"] = prs
        if grid:
            entry["data"] = [_grid_data(sheet, rng) for rng in wanted.get(sheet.name, [A1(sheet.name)])]
        sheets.append(entry)
    return {"spreadsheetId": sid, "properties": {"title": book.title, "locale": "zh_CN"}, "sheets": sheets,
            "spreadsheetUrl": f"https://docs.google.com/spreadsheets/d/{sid}/edit"}


def _grid_data(sheet: model.Sheet, rng: A1) -> Json:
    """The GridData of ``rng`` (open ends stop at the grid): rows up to the last cell holding
    anything, each row's cells up to its last such cell."""
    row_end = sheet.grid_rows if rng.end_row is None else min(rng.end_row, sheet.grid_rows)
    col_end = sheet.grid_cols if rng.end_col is None else min(rng.end_col, sheet.grid_cols)
    last_col: dict[int, int] = {}
    for (r, c), cell in sheet.cells.items():
        if cell != model.Cell() and rng.contains(r, c):
            last_col[r] = max(last_col.get(r, -1), c)
    row_data: list[Json] = []
    for r in range(rng.start_row, max(last_col, default=rng.start_row - 1) + 1):
        cols = range(rng.start_col, last_col.get(r, -1) + 1)
        cells = [_cell_data(sheet.cells.get((r, c), model.Cell())) for c in cols]
        row_data.append({"values": cells} if cells else {})
    out: Json = {}
    if rng.start_row:
        out["startRow"] = rng.start_row
    if rng.start_col:
        out["startColumn"] = rng.start_col
    if row_data:
        out["rowData"] = row_data
    out["rowMetadata"] = [{"pixelSize": sheet.row_heights.get(r, port.DEFAULT_HEIGHT)}
                          for r in range(rng.start_row, row_end)]
    out["columnMetadata"] = [{"pixelSize": sheet.col_widths.get(c, port.DEFAULT_WIDTH)}
                             for c in range(rng.start_col, col_end)]
    return out


_FIELD = re.compile(r"[A-Za-z_*][A-Za-z0-9_]*(?:[./][A-Za-z_][A-Za-z0-9_]*)*")
Mask = dict[str, "Mask | None"]  # field -> its selected sub-fields (None: all of it)


def select(doc: Any, fields: str) -> Any:
    """A partial response, like the API's ``fields`` parameter (``a(b,c.d),e/f``)."""
    try:
        return _pick(doc, parse_mask(fields))
    except ValueError:
        raise bad(f"Invalid field selection {fields}", "fields") from None


def parse_mask(fields: str) -> Mask:
    """``fields`` as a tree of selections; ValueError if it is not one."""
    return _mask(fields.replace(" ", ""), 0, nested=False)[0]


def _mask(text: str, i: int, nested: bool) -> tuple[Mask, int]:
    mask: Mask = {}
    while True:
        m = _FIELD.match(text, i)
        if m is None:
            raise ValueError(text)
        i = m.end()
        sub: Mask | None = None
        if text[i : i + 1] == "(":
            sub, i = _mask(text, i + 1, nested=True)
            if text[i : i + 1] != ")":
                raise ValueError(text)
            i += 1
        _put(mask, re.split(r"[./]", m.group()), sub)
        if text[i : i + 1] == ",":
            i += 1
            continue
        if i == len(text) and not nested or text[i : i + 1] == ")" and nested:
            return mask, i
        raise ValueError(text)


def _put(mask: Mask, path: list[str], sub: Mask | None) -> None:
    """Add a selection; a whole field selected wins over some of its sub-fields."""
    name, rest = path[0], path[1:]
    if name in mask and mask[name] is None:
        return
    if rest:
        child = mask.setdefault(name, {})
        if child is not None:
            _put(child, rest, sub)
    else:
        mask[name] = None if sub is None else {**(mask.get(name) or {}), **sub}


def _pick(value: Any, mask: Mask | None) -> Any:
    if mask is None or "*" in mask:
        return value
    if isinstance(value, list):
        return [_pick(v, mask) for v in value]
    if isinstance(value, dict):
        return {k: _pick(v, mask[k]) for k, v in value.items() if k in mask}
    return value


def _cell_data(cell: model.Cell) -> Json:
    out: Json = {}
    if cell.value:
        out["userEnteredValue"] = {"stringValue": cell.value}
        out["formattedValue"] = cell.value
    fmt: Json = {}
    if cell.background:
        fmt["backgroundColor"] = color(cell.background)
    if cell.bold:
        fmt["textFormat"] = {"bold": True}
    if cell.borders:
        fmt["borders"] = {s: {"style": STYLE_TO_API[st]} for s, st in cell.borders.items()}
    if fmt:
        out["userEnteredFormat"] = fmt
    if cell.note:
        out["note"] = cell.note
    if cell.validation:
        rule: Json = {"condition": {"type": "ONE_OF_LIST",
                                    "values": [{"userEnteredValue": c} for c in cell.validation.choices]},
                      "strict": cell.validation.strict, "showCustomUi": True}
        if cell.validation.help:
            rule["inputMessage"] = cell.validation.help
        out["dataValidation"] = rule
    return out


def value_range(book: model.Book, text: str) -> Json:
    """One entry of a ``values:batchGet`` answer (trailing empties trimmed, like the API)."""
    try:
        rng = parse_range(text)
        rows = model.read(book, text)
    except RangeError:
        raise bad(f"Unable to parse range: {text}") from None
    out: Json = {"range": format_range(rng), "majorDimension": "ROWS"}
    if rows:
        out["values"] = rows
    return out
