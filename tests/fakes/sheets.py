"""The Sheets API semantics of `FakeGoogle`: batchUpdate requests applied to a `Spreadsheet`, and
the ``spreadsheets.get`` document. Errors are raised as `errors.ApiFault` carrying the status and
the Google error body. Tab-level requests are in `tabs`, the values API in `values`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from fakes import tabs, typed
from fakes.book import Spreadsheet, Typed
from fakes.errors import bad
from fakes.masks import paths
from fakes.values import locate
from sheetgm.backends import model, port
from sheetgm.backends.a1 import A1, format_range
from sheetgm.backends.google.translate import API_TO_STYLE, STYLE_TO_API, a1_of, grid_range, rgb_of

Json = dict[str, Any]
API_SIDES = {"top": "top", "bottom": "bottom", "left": "left", "right": "right",
             "innerHorizontal": "inner_horizontal", "innerVertical": "inner_vertical"}
TABS: dict[str, Callable[[Spreadsheet, Json], Json]] = {
    "addSheet": tabs.add_sheet, "deleteSheet": tabs.delete_sheet,
    "updateSpreadsheetProperties": tabs.update_spreadsheet,
    "updateSheetProperties": lambda book, body: _sheet_properties(book, body),
    **{k: (lambda kind: lambda book, body: tabs.dimension(book, kind, body))(k)
       for k in ("appendDimension", "insertDimension", "deleteDimension")},
    **{k: (lambda kind: lambda book, body: tabs.named_change(book, kind, body))(k)
       for k in ("deleteNamedRange", "updateNamedRange")},
    **{k: (lambda kind: lambda book, body: tabs.merge(book, kind, body))(k) for k in ("mergeCells", "unmergeCells")},
}


def color(rgb: str) -> Json:
    """A colour of the model (``#rrggbb``) as the API answers it (8-bit channels, zero ones omitted)."""
    return tabs.rgb({"red": int(rgb[1:3], 16) / 255, "green": int(rgb[3:5], 16) / 255,
                     "blue": int(rgb[5:7], 16) / 255})


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


def _sheet_properties(book: Spreadsheet, body: Json) -> Json:
    props = body.get("properties", {})
    tabs.set_properties(book, tabs.sheet_by_id(book, props.get("sheetId", 0)), props, body.get("fields", ""))
    return {}


def apply(book: Spreadsheet, req: Json, who: str = "") -> Json:
    """Apply one batchUpdate request as ``who``; return its reply."""
    if not req:
        raise bad("No request set.")
    kind, body = next(iter(req.items()))
    if kind in TABS:
        return TABS[kind](book, body)
    if kind == "addNamedRange":
        return tabs.add_named(book, body, str(book.new_id()))
    if kind == "deleteProtectedRange":
        pid = body.get("protectedRangeId")
        if not any(p.id == pid for p in book.protected):
            raise bad(f"No protected range with id: {pid}")
        book.protected = [p for p in book.protected if p.id != pid]
        return {}
    if kind == "addProtectedRange":
        return _protect(book, body.get("protectedRange", {}), who)
    if kind == "updateDimensionProperties":
        span = body["range"]
        sheet = tabs.sheet_by_id(book, span.get("sheetId", 0))
        sizes = sheet.col_widths if span["dimension"] == "COLUMNS" else sheet.row_heights
        for path in paths(body.get("fields", "")):
            if path != ["pixelSize"]:
                raise bad(f"the fake keeps a dimension's pixelSize only, not {'.'.join(path)}")
            for i in range(span.get("startIndex", 0), span.get("endIndex", len(sizes))):
                sizes[i] = body["properties"].get("pixelSize", 0)
        return {}
    if kind == "updateCells" and "start" in body:
        start = body["start"]
        height = len(body.get("rows", []))
        width = max((len(r.get("values", [])) for r in body.get("rows", [])), default=0)
        body = {**body, "range": {"sheetId": start.get("sheetId", 0), "startRowIndex": start.get("rowIndex", 0),
                                  "endRowIndex": start.get("rowIndex", 0) + height,
                                  "startColumnIndex": start.get("columnIndex", 0),
                                  "endColumnIndex": start.get("columnIndex", 0) + width}}
    sheet, rng = rng_of(book, body.get("range", {}))
    if kind == "updateCells":
        rows = [r.get("values", []) for r in body.get("rows", [])]
        setters = [_cell_setter(book, path) for path in paths(body.get("fields", ""))]
        for r, c in sheet.area(rng):
            i, j = r - rng.start_row, c - rng.start_col
            data = rows[i][j] if i < len(rows) and j < len(rows[i]) else {}
            for put in setters:
                put(sheet, r, c, data)
    elif kind == "repeatCell":
        setters = [_cell_setter(book, path) for path in paths(body.get("fields", ""))]
        for r, c in sheet.area(rng):
            for put in setters:
                put(sheet, r, c, body.get("cell", {}))
    elif kind == "updateBorders":
        sides = {API_SIDES[k]: API_TO_STYLE[v.get("style", "NONE")] for k, v in body.items() if k in API_SIDES}
        model.set_borders(sheet, rng, sides)
    elif kind == "setDataValidation":
        validation = _validation(body.get("rule"))
        model.each_cell(sheet, rng, lambda cell: setattr(cell, "validation", validation))
    else:
        raise bad(f"the fake does not apply {kind} requests")
    return {}


def _protect(book: Spreadsheet, pr: Json, who: str) -> Json:
    """``addProtectedRange``. Google keeps the caller among the editors (the range would otherwise lock
    them out; recorded for an empty list, and for a warning-only range), and its reply leaves out what
    is empty or default: no ``description`` or ``warningOnly`` unless set, no ``sheetId`` of 0, and
    ``editors`` as sent, without empty lists."""
    users = tuple(pr.get("editors", {}).get("users", []) or ()) if pr.get("editors") else ()
    if pr.get("warningOnly") and (users or (pr.get("editors") or {}).get("groups")):
        raise bad("Cannot set editors on a warning-only protected range")
    _, rng = rng_of(book, pr.get("range", {}))
    opened = [rng_of(book, u)[1] for u in pr.get("unprotectedRanges", [])]
    if opened and not rng.whole_tab:
        raise bad("Unprotected ranges are only supported on protected sheets.")
    if rng.whole_tab and any(p.range.tab == rng.tab and p.range.whole_tab for p in book.protected):
        raise bad(f'Sheet "{rng.tab}" already has sheet protection.')
    kept = users if not who or who.lower() in {u.lower() for u in users} else (*users, who)
    pid = model.protect(book, rng, kept, pr.get("description") or "", warning_only=bool(pr.get("warningOnly")),
                        unprotected=opened)
    out: Json = {"protectedRangeId": pid, "range": tabs._range_out(pr.get("range", {}))}
    if opened:
        out["unprotectedRanges"] = [tabs._range_out(u) for u in pr["unprotectedRanges"]]
    if pr.get("description"):
        out["description"] = pr["description"]
    if pr.get("warningOnly"):
        out["warningOnly"] = True
    out["requestingUserCanEdit"] = True
    out["editors"] = {k: v for k, v in (pr.get("editors") or {}).items() if v}
    return {"addProtectedRange": {"protectedRange": out}}


def _validation(rule: Json | None) -> port.Validation | None:
    if not rule:
        return None
    if rule.get("condition", {}).get("type") != "ONE_OF_LIST":
        raise bad("the fake keeps ONE_OF_LIST validation only")
    choices = tuple(v.get("userEnteredValue", "") for v in rule["condition"].get("values", []))
    return port.Validation(choices, bool(rule.get("strict")), rule.get("inputMessage", ""))


def entered(value: Json | None) -> Typed | str:
    """A cell's ``userEnteredValue`` (an ExtendedValue) as the fake keeps it."""
    if not value:
        return ""
    if "stringValue" in value:
        return str(value["stringValue"])
    if "formulaValue" in value:
        return typed.formula(str(value["formulaValue"]))
    found = typed.raw(next(iter(value.values())))
    return found if found is not None else ""


def _cell_setter(book: Spreadsheet, path: list[str]) -> Callable[[model.Sheet, int, int, Json], None]:
    """What writing the field ``path`` of a CellData does to a cell."""
    head, sub = path[0], path[1:]
    fmt_parts = {(): ("background", "bold", "borders"), ("backgroundColor",): ("background",),
                 ("backgroundColorStyle",): ("background",), ("textFormat",): ("bold",),
                 ("textFormat", "bold"): ("bold",), ("borders",): ("borders",)}
    if head == "userEnteredValue" and not sub:
        return lambda sheet, r, c, data: book.put(sheet, r, c, entered(data.get("userEnteredValue")))
    if head == "note" and not sub:
        return lambda sheet, r, c, data: setattr(sheet.cell(r, c), "note", str(data.get("note", "")))
    if head == "dataValidation" and not sub:
        return lambda sheet, r, c, data: setattr(sheet.cell(r, c), "validation", _validation(data.get(head)))
    if head == "userEnteredFormat" and tuple(sub) in fmt_parts:
        parts = fmt_parts[tuple(sub)]

        def put(sheet: model.Sheet, r: int, c: int, data: Json) -> None:
            fmt = data.get("userEnteredFormat") or {}
            cell = sheet.cell(r, c)
            if "background" in parts:
                col = fmt.get("backgroundColor") or (fmt.get("backgroundColorStyle") or {}).get("rgbColor")
                cell.background = rgb_of(col) if col is not None else None
            if "bold" in parts:
                cell.bold = bool((fmt.get("textFormat") or {}).get("bold"))
            if "borders" in parts:
                cell.borders = {API_SIDES[s]: API_TO_STYLE[b.get("style", "NONE")]
                                for s, b in (fmt.get("borders") or {}).items() if b.get("style", "NONE") != "NONE"}
        return put
    raise bad(f"the fake does not keep the cell field {'.'.join(path)}")


def document(book: Spreadsheet, sid: str, grid: bool, ranges: Sequence[str] = (), who: str = "") -> Json:
    """``spreadsheets.get``: metadata, protected ranges, merges, named ranges, and with ``grid`` the
    cells. With ``ranges``, like the API: only the tabs they touch, each with one GridData block per
    range on it (in the order asked), a block's zero offsets and empty ``rowData`` omitted."""
    wanted: dict[int, list[A1]] = {}
    for text in ranges:
        sheet, rng = locate(book, text)
        wanted.setdefault(sheet.sheet_id, []).append(rng)
    sheets = []
    for sheet in book.sheets:
        if ranges and sheet.sheet_id not in wanted:
            continue
        entry: Json = {"properties": tabs.sheet_props(book, sheet)}
        if book.merges.get(sheet.sheet_id):
            entry["merges"] = [tabs._range_out(m) for m in book.merges[sheet.sheet_id]]
        prs = [_protected(p, sheet, who) for p in book.protected if p.range.tab == sheet.name]
        if prs:
            entry["protectedRanges"] = prs
        if grid:
            entry["data"] = [_grid_data(book, sheet, rng) for rng in wanted.get(sheet.sheet_id, [A1(sheet.name)])]
        sheets.append(entry)
    doc: Json = {"spreadsheetId": sid, "properties": book.properties(), "sheets": sheets}
    if book.named:
        doc["namedRanges"] = [{"namedRangeId": n.id, "name": n.name, "range": dict(n.range)} for n in book.named]
    doc["spreadsheetUrl"] = f"https://docs.google.com/spreadsheets/d/{sid}/edit"
    return doc


def _protected(p: model.Protected, sheet: model.Sheet, who: str) -> Json:
    out: Json = {"protectedRangeId": p.id, "range": tabs._range_out(grid_range(p.range, sheet.sheet_id))}
    if p.description:
        out["description"] = p.description
    if p.warning_only:
        out["warningOnly"] = True
    if p.warning_only or who.lower() in {e.lower() for e in p.editors}:
        out["requestingUserCanEdit"] = True
    out["editors"] = {"users": list(p.editors)} if p.editors else {}
    if p.unprotected:
        out["unprotectedRanges"] = [tabs._range_out(grid_range(u, sheet.sheet_id)) for u in p.unprotected]
    return out


def _grid_data(book: Spreadsheet, sheet: model.Sheet, rng: A1) -> Json:
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
        cells = [_cell_data(sheet.cells.get((r, c), model.Cell()), book.typed_at(sheet, r, c)) for c in cols]
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


def _cell_data(cell: model.Cell, found: Typed | None) -> Json:
    out: Json = {}
    if cell.value:
        out["userEnteredValue"] = dict(found.entered) if found else {"stringValue": cell.value}
        out["effectiveValue"] = dict(found.effective) if found else {"stringValue": cell.value}
        out["formattedValue"] = cell.value
    fmt: Json = {}
    if cell.background:
        fmt["backgroundColor"] = color(cell.background)
        fmt["backgroundColorStyle"] = {"rgbColor": color(cell.background)}
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

