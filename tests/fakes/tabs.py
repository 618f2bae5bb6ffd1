"""The batchUpdate requests of the fake that change tabs and the spreadsheet itself: ``addSheet``,
``deleteSheet``, ``updateSheetProperties`` and ``updateSpreadsheetProperties`` (any field mask, as
Google takes it: ``a.b``, ``a/b``, ``a(b,c)``), ``insertDimension``/``deleteDimension``/
``appendDimension``, named ranges and merges. What Google refuses, the fake refuses in its words:
a duplicate title, deleting or hiding the last visible tab."""

from __future__ import annotations

import copy
import math
import struct
from typing import Any

from fakes.book import Spreadsheet
from fakes.errors import bad
from fakes.masks import paths
from sheetgm.backends import model

Json = dict[str, Any]
MODEL_GRID = ("rowCount", "columnCount", "frozenRowCount")
READ_ONLY = {"sheetId", "sheetType"}


def f32(x: float) -> float:
    """A float as Google answers it: stored in 32 bits, written with the fewest digits that keep it."""
    stored = struct.unpack("f", struct.pack("f", x))[0]
    for digits in range(1, 10):
        text = float(f"{stored:.{digits}g}")
        if struct.unpack("f", struct.pack("f", text))[0] == stored:
            return int(text) if text == int(text) else text
    return stored


def rgb(color: Json | None) -> Json:
    """A colour as Google keeps it: 8 bits a channel, zero channels left out."""
    out = {}
    for k in ("red", "green", "blue", "alpha"):
        v = (color or {}).get(k)
        if v:
            out[k] = f32(math.ceil(float(v) * 255 - 0.5) / 255) if k != "alpha" else f32(float(v))
    return out


def sheet_by_id(book: model.Book, sid: int) -> model.Sheet:
    for s in book.sheets:
        if s.sheet_id == sid:
            return s
    raise bad(f"No grid with id: {sid}")


def sheet_props(book: Spreadsheet, sheet: model.Sheet) -> Json:
    grid: Json = {"rowCount": sheet.grid_rows, "columnCount": sheet.grid_cols}
    if sheet.frozen_rows:
        grid["frozenRowCount"] = sheet.frozen_rows
    extra = book.tab_props.get(sheet.sheet_id, {})
    grid.update(extra.get("gridProperties", {}))
    out = {"sheetId": sheet.sheet_id, "title": sheet.name, "index": book.sheets.index(sheet), "sheetType": "GRID",
           "gridProperties": grid}
    out.update({k: copy.deepcopy(v) for k, v in extra.items() if k != "gridProperties"})
    return out


def _get(doc: Any, path: list[str]) -> Any:
    for part in path:
        if not isinstance(doc, dict) or part not in doc:
            return None
        doc = doc[part]
    return doc


def _set_extra(extra: Json, path: list[str], value: Any) -> None:
    """Keep a property the model has no field for; a default (false, 0, empty) is left out, as Google does."""
    node = extra
    for part in path[:-1]:
        node = node.setdefault(part, {})
    if path[-1] == "tabColorStyle" or path[-1] == "tabColor":
        color = (value or {}).get("rgbColor") if path[-1] == "tabColorStyle" else value
        for key in ("tabColor", "tabColorStyle"):
            node.pop(key, None)
        if color:
            node["tabColor"], node["tabColorStyle"] = rgb(color), {"rgbColor": rgb(color)}
        return
    if value in (None, False, 0, {}, []):
        node.pop(path[-1], None)
    else:
        node[path[-1]] = copy.deepcopy(value)
    if not node and len(path) > 1:
        extra.pop(path[0], None)


def set_properties(book: Spreadsheet, sheet: model.Sheet, props: Json, fields: str) -> None:
    """Apply the fields ``fields`` names from ``props`` to a tab (unset ones go back to their default)."""
    chosen = paths(fields) if fields.strip() != "*" else [[k] for k in props if k not in READ_ONLY]
    for path in chosen:
        value = _get(props, path)
        if path == ["gridProperties"]:
            for key in ("rowCount", "columnCount", "frozenRowCount", "frozenColumnCount", "hideGridlines"):
                set_properties(book, sheet, props, f"gridProperties.{key}")
            continue
        if path[0] in READ_ONLY:
            raise bad(f"{path[0]} is read-only")
        if path == ["title"]:
            title = str(value or "")
            if not title:
                raise bad("You must specify a sheet name.")
            if any(s.name.lower() == title.lower() for s in book.sheets if s is not sheet):
                raise bad(f'A sheet with the name "{title}" already exists. Please enter another name.')
            _retitle(book, sheet, title)
        elif path == ["index"]:
            book.sheets.remove(sheet)
            book.sheets.insert(max(0, min(int(value or 0), len(book.sheets))), sheet)
        elif path[0] == "gridProperties" and len(path) == 2 and path[1] in MODEL_GRID:
            _grid(book, sheet, path[1], int(value or 0))
        else:
            _set_extra(book.extra(sheet), path, value)
    if not any(not book.hidden(s) for s in book.sheets):
        raise bad("You can't hide all the sheets in a document.")


def _retitle(book: Spreadsheet, sheet: model.Sheet, title: str) -> None:
    old = sheet.name
    sheet.name = title
    for p in book.protected:
        if p.range.tab == old:
            p.range = type(p.range)(title, p.range.start_row, p.range.start_col, p.range.end_row, p.range.end_col)


def _grid(book: Spreadsheet, sheet: model.Sheet, key: str, value: int) -> None:
    if key == "frozenRowCount":
        sheet.frozen_rows = value
        return
    if value < 1:
        raise bad(f"{key} must be at least 1")
    if key == "rowCount":
        sheet.grid_rows = value
    else:
        sheet.grid_cols = value
    book.cut(sheet)


def add_sheet(book: Spreadsheet, body: Json) -> Json:
    props = body.get("properties", {})
    title = props.get("title") or f"Sheet{len(book.sheets) + 1}"
    if any(s.name.lower() == title.lower() for s in book.sheets):
        raise bad(f'A sheet with the name "{title}" already exists. Please enter another name.')
    sid = props.get("sheetId")
    if sid is not None and any(s.sheet_id == sid for s in book.sheets):
        raise bad(f"Sheet with id {sid} already exists.")
    sheet = book.add_sheet(title, sid)
    grid = props.get("gridProperties", {})
    sheet.grid_rows = int(grid.get("rowCount", model.GRID_ROWS))
    sheet.grid_cols = int(grid.get("columnCount", model.GRID_COLS))
    rest = {k: v for k, v in props.items() if k not in ("title", "sheetId", "index", "sheetType")}
    rest["gridProperties"] = {k: v for k, v in grid.items() if k not in ("rowCount", "columnCount")}
    try:
        fields = [k for k in rest if k != "gridProperties"] + [f"gridProperties.{k}" for k in rest["gridProperties"]]
        if fields:
            set_properties(book, sheet, rest, ",".join(fields))
        if "index" in props:
            set_properties(book, sheet, props, "index")
    except Exception:
        book.drop_sheet(sheet)
        raise
    return {"addSheet": {"properties": sheet_props(book, sheet)}}


def delete_sheet(book: Spreadsheet, body: Json) -> Json:
    sheet = sheet_by_id(book, body.get("sheetId", 0))
    if len(book.sheets) == 1 or not any(not book.hidden(s) for s in book.sheets if s is not sheet):
        raise bad("You can't remove all the sheets in a document.")
    book.drop_sheet(sheet)
    return {}


def update_spreadsheet(book: Spreadsheet, body: Json) -> Json:
    props = body.get("properties", {})
    for path in paths(body.get("fields", "")):
        value = _get(props, path)
        if path == ["title"]:
            book.title = str(value or "")
        elif path == ["locale"]:
            book.locale = str(value or "en_US")
        elif path == ["timeZone"]:
            book.time_zone = str(value or "Etc/GMT")
        elif path == ["autoRecalc"]:
            book.auto_recalc = str(value or "ON_CHANGE")
        else:
            raise bad(f"the fake does not keep spreadsheet property {'.'.join(path)}")
    return {}


def dimension(book: Spreadsheet, kind: str, body: Json) -> Json:
    """``insertDimension``, ``deleteDimension`` (cells shift) and ``appendDimension`` (the grid grows)."""
    if kind == "appendDimension":
        sheet = sheet_by_id(book, body.get("sheetId", 0))
        if body.get("dimension") == "ROWS":
            sheet.grid_rows += int(body["length"])
        else:
            sheet.grid_cols += int(body["length"])
        return {}
    span = body["range"]
    sheet = sheet_by_id(book, span.get("sheetId", 0))
    rows = span.get("dimension") == "ROWS"
    start, end = int(span.get("startIndex", 0)), int(span.get("endIndex", 0))
    size = sheet.grid_rows if rows else sheet.grid_cols
    if not 0 <= start < end or (kind == "deleteDimension" and end > size) or start > size:
        raise bad(f"range [{start}, {end}) is outside the grid of size {size}")
    count = end - start if kind == "insertDimension" else start - end
    if kind == "deleteDimension" and count + size < 1:
        raise bad("You can't delete all the rows on the sheet.")
    book.shift(sheet, rows, start if count > 0 else end, count)
    return {}


def add_named(book: Spreadsheet, body: Json, new_id: str) -> Json:
    from fakes.book import NamedRange

    named = body.get("namedRange", {})
    name = str(named.get("name", ""))
    if any(n.name == name for n in book.named):
        raise bad(f"A named range with the name '{name}' already exists.")
    rng = _range_out(named.get("range", {}))
    book.named.append(NamedRange(named.get("namedRangeId") or new_id, name, rng))
    return {"addNamedRange": {"namedRange": {"namedRangeId": book.named[-1].id, "name": name, "range": rng}}}


def _range_out(gr: Json) -> Json:
    """A GridRange as Google answers it: a ``sheetId`` of 0 left out."""
    return {k: v for k, v in gr.items() if not (k == "sheetId" and v == 0)}


def named_change(book: Spreadsheet, kind: str, body: Json) -> Json:
    if kind == "deleteNamedRange":
        rid = body.get("namedRangeId")
        if not any(n.id == rid for n in book.named):
            raise bad(f"No named range with id {rid}.")
        book.named = [n for n in book.named if n.id != rid]
        return {}
    new = body.get("namedRange", {})
    found = next((n for n in book.named if n.id == new.get("namedRangeId")), None)
    if found is None:
        raise bad(f"No named range with id {new.get('namedRangeId')}.")
    for path in paths(body.get("fields", "")):
        if path == ["name"]:
            found.name = str(new.get("name", ""))
        elif path[0] == "range":
            found.range = _range_out(new.get("range", {}))
    return {}


def merge(book: Spreadsheet, kind: str, body: Json) -> Json:
    """``mergeCells`` keeps the top left value of each merged block; ``unmergeCells`` undoes the merges
    the range holds."""
    gr = body.get("range", {})
    sheet = sheet_by_id(book, gr.get("sheetId", 0))
    r0, r1 = gr.get("startRowIndex", 0), gr.get("endRowIndex", sheet.grid_rows)
    c0, c1 = gr.get("startColumnIndex", 0), gr.get("endColumnIndex", sheet.grid_cols)
    found = book.merges.setdefault(sheet.sheet_id, [])

    def inside(m: Json) -> bool:
        return r0 <= m["startRowIndex"] and m["endRowIndex"] <= r1 and c0 <= m["startColumnIndex"] \
            and m["endColumnIndex"] <= c1

    if kind == "unmergeCells":
        book.merges[sheet.sheet_id] = [m for m in found if not inside(m)]
        return {}
    how = body.get("mergeType", "MERGE_ALL")
    if how == "MERGE_ROWS":
        blocks = [(r, r + 1, c0, c1) for r in range(r0, r1)]
    elif how == "MERGE_COLUMNS":
        blocks = [(r0, r1, c, c + 1) for c in range(c0, c1)]
    else:
        blocks = [(r0, r1, c0, c1)]
    book.merges[sheet.sheet_id] = [m for m in found if not inside(m)]
    for a, b, c, d in blocks:
        for (r, col) in [rc for rc in sheet.cells if a <= rc[0] < b and c <= rc[1] < d and rc != (a, c)]:
            book.put(sheet, r, col, "")
        book.merges[sheet.sheet_id].append({"sheetId": sheet.sheet_id, "startRowIndex": a, "endRowIndex": b,
                                            "startColumnIndex": c, "endColumnIndex": d})
    return {}
