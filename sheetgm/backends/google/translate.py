"""Translation between port ops / views and Sheets API JSON (no HTTP here)."""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Any

from sheetgm.backends import port
from sheetgm.backends.a1 import A1, cell_name, col_letters, format_range, parse_range
from sheetgm.backends.errors import MissingTabError
from sheetgm.core.values import field, record

STYLE_TO_API = {"none": "NONE", "thin": "SOLID", "medium": "SOLID_MEDIUM", "thick": "SOLID_THICK", "dashed": "DASHED",
                "double": "DOUBLE"}
API_TO_STYLE = {v: k for k, v in STYLE_TO_API.items()}
SIDE_TO_API = {
    "top": "top", "bottom": "bottom", "left": "left", "right": "right",
    "inner_horizontal": "innerHorizontal", "inner_vertical": "innerVertical",
}
Json = dict[str, Any]
# The ``spreadsheets.get`` field mask of a first read: every tab's values and what a write needs
# (tab ids, grid sizes, protections). No ``ranges``: they would drop the tabs they do not touch.
READ_FIELDS = (
    "sheets(properties(sheetId,title,gridProperties),"
    "protectedRanges(protectedRangeId,range,description,editors,warningOnly,unprotectedRanges),"
    "data(startRow,startColumn,rowData(values(formattedValue))))"
)


@record
class TabMeta:
    sheet_id: int
    rows: int
    cols: int


@record
class Meta:
    """What a write needs to know about a spreadsheet: tab ids, grid sizes, protection ids."""

    tabs: dict[str, TabMeta] = field(default_factory=dict)
    protected: dict[int, str] = field(default_factory=dict)  # protectedRangeId -> description

    @classmethod
    def parse(cls, doc: Json) -> Meta:
        meta = cls()
        for sheet in doc.get("sheets", []):
            props = sheet.get("properties", {})
            grid = props.get("gridProperties", {})
            meta.tabs[props["title"]] = TabMeta(props["sheetId"], grid.get("rowCount", 0), grid.get("columnCount", 0))
            for pr in sheet.get("protectedRanges", []):
                meta.protected[pr["protectedRangeId"]] = pr.get("description", "")
        return meta

    def copy(self) -> Meta:
        return Meta({k: TabMeta(v.sheet_id, v.rows, v.cols) for k, v in self.tabs.items()}, dict(self.protected))

    def tab(self, rng: A1) -> TabMeta:
        try:
            return self.tabs[rng.tab]
        except KeyError:
            raise MissingTabError(range=format_range(rng), tab=rng.tab) from None


def grid_values(sheet: Json) -> list[list[str]]:
    """A tab's formatted values, placed by the ``startRow``/``startColumn`` of each GridData block."""
    values: list[list[str]] = []
    for data in sheet.get("data", []):
        r0, c0 = data.get("startRow", 0), data.get("startColumn", 0)
        for i, row in enumerate(data.get("rowData", [])):
            for j, cell in enumerate(row.get("values", [])):
                text = str(cell.get("formattedValue", ""))
                if text:
                    r, c = r0 + i, c0 + j
                    values.extend([] for _ in range(r + 1 - len(values)))
                    values[r].extend([""] * (c + 1 - len(values[r])))
                    values[r][c] = text
    return values


def read_values(doc: Json, ranges: Sequence[str], key: str) -> dict[str, list[list[str]]]:
    """What ``values:batchGet`` answers for ``ranges``, cut from a ``spreadsheets.get`` with grid data:
    strings, trailing empty rows and cells trimmed, keyed by the range texts as given."""
    grids = {s["properties"]["title"]: grid_values(s) for s in doc.get("sheets", [])}
    out = {}
    for text in ranges:
        rng = parse_range(text)
        if rng.tab not in grids:
            raise MissingTabError(range=format_range(rng), tab=rng.tab, key=key)
        rows = grids[rng.tab][rng.start_row : rng.end_row]
        out[text] = port.trim([row[rng.start_col : rng.end_col] for row in rows])
    return out


def color(rgb: str | None) -> Json | None:
    if rgb is None:
        return None
    return {k: int(rgb[i : i + 2], 16) / 255 for k, i in (("red", 1), ("green", 3), ("blue", 5))}


def rgb_of(col: Json) -> str:
    return "#" + "".join(f"{round(float(col.get(k, 0)) * 255):02x}" for k in ("red", "green", "blue"))


def grid_range(rng: A1, sheet_id: int) -> Json:
    out: Json = {"sheetId": sheet_id}
    if rng.whole_tab:
        return out
    out["startRowIndex"], out["startColumnIndex"] = rng.start_row, rng.start_col
    if rng.end_row is not None:
        out["endRowIndex"] = rng.end_row
    if rng.end_col is not None:
        out["endColumnIndex"] = rng.end_col
    return out


def a1_of(gr: Json, tabs_by_id: dict[int, str]) -> A1:
    return A1(
        tabs_by_id[gr.get("sheetId", 0)], gr.get("startRowIndex", 0), gr.get("startColumnIndex", 0),
        gr.get("endRowIndex"), gr.get("endColumnIndex"),
    )


def new_sheet_id(name: str, meta: Meta) -> int:
    taken = {t.sheet_id for t in meta.tabs.values()}
    sid = zlib.crc32(name.encode("utf-8")) & 0x3FFFFFFF
    while sid in taken or sid == 0:
        sid = (sid + 1) & 0x3FFFFFFF
    return sid


def build(ops: list[port.Op], meta: Meta) -> list[Json]:
    """The batchUpdate requests for ``ops``; ``meta`` (a copy) is updated as tabs are added. Of several Protect
    or Unprotect ops of one description only the last is sent: it decides the outcome, and a protection added
    earlier in the same batch has no id yet to delete (a tab's second sheet protection is refused)."""
    last = {op.description: i for i, op in enumerate(ops) if isinstance(op, port.Protect | port.Unprotect)}
    out: list[Json] = []
    for i, op in enumerate(ops):
        if isinstance(op, port.Protect | port.Unprotect) and last[op.description] != i:
            continue
        out.extend(_requests(op, meta))
    return out


def _requests(op: port.Op, meta: Meta) -> list[Json]:
    if isinstance(op, port.AddTab):
        if op.name in meta.tabs:
            return []
        sid = new_sheet_id(op.name, meta)
        meta.tabs[op.name] = TabMeta(sid, 1000, 26)
        return [{"addSheet": {"properties": {"title": op.name, "sheetId": sid}}}]
    if isinstance(op, port.Unprotect):
        return [{"deleteProtectedRange": {"protectedRangeId": pid}} for pid in _drop(meta, op.description)]
    rng = port.op_ranges(op)[0]
    tab = meta.tab(rng)
    if isinstance(op, port.SetValues):
        rng = port.values_area(op, rng)
    out = _grow(rng, tab)
    gr = grid_range(rng, tab.sheet_id)
    if isinstance(op, port.Protect):
        out += [{"deleteProtectedRange": {"protectedRangeId": pid}} for pid in _drop(meta, op.description)]
        body: Json = {"range": gr, "description": op.description, "editors": {"users": list(op.editors)}}
        if op.unprotected:
            body["unprotectedRanges"] = [grid_range(parse_range(u), tab.sheet_id) for u in op.unprotected]
        return out + [{"addProtectedRange": {"protectedRange": body}}]
    if isinstance(op, port.FreezeRows):
        props = {"sheetId": tab.sheet_id, "gridProperties": {"frozenRowCount": op.rows}}
        return [{"updateSheetProperties": {"properties": props, "fields": "gridProperties.frozenRowCount"}}]
    if isinstance(op, port.SetValues):
        rows = [{"values": [{"userEnteredValue": {"stringValue": v}} if v else {} for v in row]} for row in op.rows]
        return out + [{"updateCells": {"range": gr, "rows": rows, "fields": "userEnteredValue"}}]
    if isinstance(op, port.ClearRange):
        return out + [{"updateCells": {"range": gr, "fields": "userEnteredValue"}}]
    if isinstance(op, port.SetBorders):
        borders = {SIDE_TO_API[s]: {"style": STYLE_TO_API[op.style]} for s in op.sides}
        return out + [{"updateBorders": {"range": gr, **borders}}]
    if isinstance(op, port.SetValidation):
        req: Json = {"range": gr}
        if op.choices:
            cond = {"type": "ONE_OF_LIST", "values": [{"userEnteredValue": c} for c in op.choices]}
            req["rule"] = {"condition": cond, "strict": op.strict, "showCustomUi": True}
            if op.help:
                req["rule"]["inputMessage"] = op.help
        return out + [{"setDataValidation": req}]
    if isinstance(op, port.ResizeColumns | port.ResizeRows):
        dim, size = ("COLUMNS", op.width) if isinstance(op, port.ResizeColumns) else ("ROWS", op.height)
        if dim == "COLUMNS":
            start, end = rng.start_col, rng.end_col or tab.cols
        else:
            start, end = rng.start_row, rng.end_row or tab.rows
        span = {"sheetId": tab.sheet_id, "dimension": dim, "startIndex": start, "endIndex": end}
        change = {"range": span, "properties": {"pixelSize": size}, "fields": "pixelSize"}
        return out + [{"updateDimensionProperties": change}]
    return out + [_repeat(op, gr)]


def _repeat(op: port.Op, gr: Json) -> Json:
    if isinstance(op, port.SetBackground):
        cell = {"userEnteredFormat": {"backgroundColor": color(op.rgb)} if op.rgb else {}}
        return {"repeatCell": {"range": gr, "cell": cell, "fields": "userEnteredFormat.backgroundColor"}}
    if isinstance(op, port.SetBold):
        cell = {"userEnteredFormat": {"textFormat": {"bold": op.bold}}}
        return {"repeatCell": {"range": gr, "cell": cell, "fields": "userEnteredFormat.textFormat.bold"}}
    if isinstance(op, port.SetNote):
        return {"repeatCell": {"range": gr, "cell": {"note": op.text} if op.text else {}, "fields": "note"}}
    raise TypeError(f"not a write op: {op!r}")


def _grow(rng: A1, tab: TabMeta) -> list[Json]:
    """appendDimension requests when a bounded range reaches past the tab's grid."""
    out = []
    if rng.end_row is not None and rng.end_row > tab.rows:
        grow = {"sheetId": tab.sheet_id, "dimension": "ROWS", "length": rng.end_row - tab.rows}
        out.append({"appendDimension": grow})
        tab.rows = rng.end_row
    if rng.end_col is not None and rng.end_col > tab.cols:
        grow = {"sheetId": tab.sheet_id, "dimension": "COLUMNS", "length": rng.end_col - tab.cols}
        out.append({"appendDimension": grow})
        tab.cols = rng.end_col
    return out


def _drop(meta: Meta, description: str) -> list[int]:
    ids = sorted(pid for pid, d in meta.protected.items() if d == description)
    for pid in ids:
        del meta.protected[pid]
    return ids


def protections(doc: Json) -> list[port.Protection]:
    by_id = {s["properties"]["sheetId"]: s["properties"]["title"] for s in doc.get("sheets", [])}
    out = []
    for sheet in doc.get("sheets", []):
        for pr in sheet.get("protectedRanges", []):
            rng = a1_of(pr.get("range", {}), by_id)
            editors = tuple(sorted(pr.get("editors", {}).get("users", [])))
            opened = tuple(format_range(a1_of(u, by_id)) for u in pr.get("unprotectedRanges", []))
            out.append(port.Protection(format_range(rng), editors, pr.get("description", ""),
                                       bool(pr.get("warningOnly", False)), opened))
    return out


def view(doc: Json) -> port.WorkbookView:
    """A WorkbookView from ``spreadsheets.get(includeGridData=true)``."""
    title = doc.get("properties", {}).get("title", "")
    return port.WorkbookView(title, tuple(_tab_view(s) for s in doc.get("sheets", [])))


def _tab_view(sheet: Json) -> port.TabView:
    props = sheet["properties"]
    values: list[list[str]] = []
    looks: dict[str, dict[str, Any]] = {k: {} for k in ("bg", "border", "note", "dv")}
    bold = set()
    widths: dict[str, int] = {}
    heights: dict[int, int] = {}
    for data in sheet.get("data", []):
        r0, c0 = data.get("startRow", 0), data.get("startColumn", 0)
        for i, row in enumerate(data.get("rowData", [])):
            for j, cell in enumerate(row.get("values", [])):
                r, c = r0 + i, c0 + j
                name = cell_name(r, c)
                while len(values) <= r:
                    values.append([])
                text = cell.get("formattedValue", "")
                if text:
                    values[r].extend([""] * (c + 1 - len(values[r])))
                    values[r][c] = text
                fmt = cell.get("userEnteredFormat", {})
                if "backgroundColor" in fmt:
                    looks["bg"][name] = rgb_of(fmt["backgroundColor"])
                if fmt.get("textFormat", {}).get("bold"):
                    bold.add(name)
                sides = {s: API_TO_STYLE.get(b.get("style", ""), "thin") for s, b in fmt.get("borders", {}).items()}
                sides = {s: st for s, st in sides.items() if st != "none"}
                if sides:
                    looks["border"][name] = dict(sorted(sides.items()))
                if cell.get("note"):
                    looks["note"][name] = cell["note"]
                rule = cell.get("dataValidation")
                if rule and rule.get("condition", {}).get("type") == "ONE_OF_LIST":
                    choices = tuple(v.get("userEnteredValue", "") for v in rule["condition"].get("values", []))
                    looks["dv"][name] = port.Validation(choices, bool(rule.get("strict")), rule.get("inputMessage", ""))
        for j, m in enumerate(data.get("columnMetadata", [])):
            if m.get("pixelSize", port.DEFAULT_WIDTH) != port.DEFAULT_WIDTH:
                widths[col_letters(c0 + j)] = m["pixelSize"]
        for i, m in enumerate(data.get("rowMetadata", [])):
            if m.get("pixelSize", port.DEFAULT_HEIGHT) != port.DEFAULT_HEIGHT:
                heights[r0 + i + 1] = m["pixelSize"]
    return port.TabView(
        name=props["title"],
        values=port.trim(values),
        frozen_rows=props.get("gridProperties", {}).get("frozenRowCount", 0),
        backgrounds=looks["bg"], bold=frozenset(bold), borders=looks["border"], notes=looks["note"],
        validations=looks["dv"], column_widths=widths, row_heights=heights,
    )
