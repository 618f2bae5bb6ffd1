"""Port ops applied to an openpyxl worksheet, and a worksheet read back as a TabView."""

from __future__ import annotations

import datetime as dt
from copy import copy
from typing import Any

from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils.cell import range_boundaries
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from sheetgm.backends import model, port
from sheetgm.backends.a1 import A1, cell_name, col_letters

LISTS_TAB = "_sheetgm_lists"
PX_PER_CHAR = 7.0  # column width unit (characters of the default font) in pixels
PT_PER_PX = 0.75
LINE_PT = 15.0  # height of one line of text in a wrapped cell
# "dashed" is drawn medium-dashed: a thin dashed line is hard to tell from the thin grid in LibreOffice
_STYLE_IN = {"thin": "thin", "medium": "medium", "thick": "thick", "dashed": "mediumDashed", "double": "double",
             "none": None}
_STYLE_OUT = {"thin": "thin", "medium": "medium", "thick": "thick", "double": "double", "mediumDashed": "dashed",
              "dashed": "dashed"}


def text_of(value: Any) -> str:
    """A cell value as the string Sheets' FORMATTED_VALUE would give for it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    return str(value)


def area(ws: Worksheet, rng: A1) -> list[tuple[int, int]]:
    """0-based cells of a range; open ends stop at the Google-like grid or the data, whichever is further."""
    return rng.cells(max(ws.max_row, model.GRID_ROWS), max(ws.max_column, model.GRID_COLS))


def read(ws: Worksheet, rng: A1) -> list[list[str]]:
    r1 = min(ws.max_row, rng.end_row) if rng.end_row is not None else ws.max_row
    c1 = min(ws.max_column, rng.end_col) if rng.end_col is not None else ws.max_column
    if r1 <= rng.start_row or c1 <= rng.start_col:
        return []
    rows = ws.iter_rows(min_row=rng.start_row + 1, max_row=r1, min_col=rng.start_col + 1, max_col=c1, values_only=True)
    return port.trim([[text_of(v) for v in row] for row in rows])


def set_text(ws: Worksheet, r: int, c: int, text: str) -> None:
    text = ILLEGAL_CHARACTERS_RE.sub("", text)
    if not text and not ws._cells.get((r + 1, c + 1)):
        return
    cell = ws.cell(r + 1, c + 1)
    cell.value = text or None
    if text:
        cell.data_type = "s"  # a text starting with "=" stays text, as with Sheets' stringValue
    if "\n" in text:
        # Sheets shows a multi-line cell wrapped; LibreOffice and Excel need wrap and top alignment said,
        # and LibreOffice does not grow the row itself (reports and logs are several lines long).
        cell.alignment = Alignment(wrap_text=True, vertical="top")
        lines = text.count("\n") + 1
        dim = ws.row_dimensions[r + 1]
        want = wrapped_height(lines)
        if dim.height is None or dim.height < want:
            dim.height = want


def wrapped_height(lines: int) -> float:
    return min(409.0, LINE_PT * lines)


def _grown_rows(ws: Worksheet) -> dict[int, float]:
    """Rows whose height was set only to show wrapped text: a display detail, not part of the view."""
    lines: dict[int, int] = {}
    for (r, _c), cell in ws._cells.items():
        if isinstance(cell.value, str) and "\n" in cell.value:
            lines[r] = max(lines.get(r, 1), cell.value.count("\n") + 1)
    return {r: wrapped_height(n) for r, n in lines.items()}


def apply(wb: Any, ws: Worksheet, op: port.Op, rng: A1) -> None:
    if isinstance(op, port.SetValues):
        box = port.values_area(op, rng)
        for r, c in box.cells(0, 0):
            i, j = r - box.start_row, c - box.start_col
            set_text(ws, r, c, op.rows[i][j] if i < len(op.rows) and j < len(op.rows[i]) else "")
    elif isinstance(op, port.ClearRange):
        for r, c in area(ws, rng):
            if (r + 1, c + 1) in ws._cells:
                ws.cell(r + 1, c + 1).value = None
    elif isinstance(op, port.SetBackground):
        argb = "FF" + op.rgb[1:] if op.rgb else None
        fill = PatternFill("solid", start_color=argb, end_color=argb) if argb else PatternFill()
        for r, c in area(ws, rng):
            ws.cell(r + 1, c + 1).fill = fill
    elif isinstance(op, port.SetBold):
        for r, c in area(ws, rng):
            cell = ws.cell(r + 1, c + 1)
            font: Font = copy(cell.font)
            font.b = op.bold
            cell.font = font
    elif isinstance(op, port.SetBorders):
        for r, c, side, style in model.border_plan(area(ws, rng), {s: op.style for s in op.sides}):
            cell = ws.cell(r + 1, c + 1)
            border: Border = copy(cell.border)
            setattr(border, side, Side(style=_STYLE_IN[style]))
            cell.border = border
    elif isinstance(op, port.SetNote):
        for r, c in area(ws, rng):
            ws.cell(r + 1, c + 1).comment = Comment(op.text, "sheetgm") if op.text else None
    elif isinstance(op, port.SetValidation):
        set_validation(wb, ws, set(area(ws, rng)), op)
    elif isinstance(op, port.FreezeRows):
        ws.freeze_panes = f"A{op.rows + 1}" if op.rows else None
    elif isinstance(op, port.ResizeColumns):
        for c in range(rng.start_col, rng.end_col if rng.end_col is not None else model.GRID_COLS):
            ws.column_dimensions[col_letters(c)].width = op.width / PX_PER_CHAR
    elif isinstance(op, port.ResizeRows):
        for r in range(rng.start_row, rng.end_row if rng.end_row is not None else model.GRID_ROWS):
            ws.row_dimensions[r + 1].height = op.height * PT_PER_PX


def _sqref_cells(dv: DataValidation) -> set[tuple[int, int]]:
    cells = set()
    for part in str(dv.sqref).split():
        c0, r0, c1, r1 = range_boundaries(part)
        cells |= {(r - 1, c - 1) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)}
    return cells


def _sqref(cells: set[tuple[int, int]]) -> str:
    """Cells as space-separated ranges, one run of rows per column."""
    parts = []
    for col in sorted({c for _, c in cells}):
        rows = sorted(r for r, c in cells if c == col)
        start = prev = rows[0]
        for r in [*rows[1:], None]:
            if r is not None and r == prev + 1:
                prev = r
                continue
            parts.append(cell_name(start, col) + (f":{cell_name(prev, col)}" if prev != start else ""))
            if r is not None:
                start = prev = r
    return " ".join(parts)


def set_validation(wb: Any, ws: Worksheet, cells: set[tuple[int, int]], op: port.SetValidation) -> None:
    for dv in list(ws.data_validations.dataValidation):
        rest = _sqref_cells(dv) - cells
        if rest:
            dv.sqref = _sqref(rest)
        else:
            ws.data_validations.dataValidation.remove(dv)
    if not op.choices or not cells:
        return
    inline = ",".join(op.choices)
    if len(inline) <= 250 and not any("," in c or '"' in c for c in op.choices):
        formula = f'"{inline}"'
    else:
        lists = wb[LISTS_TAB] if LISTS_TAB in wb.sheetnames else wb.create_sheet(LISTS_TAB)
        lists.sheet_state = "hidden"
        col = lists.max_column + 1 if lists.max_row > 1 or lists.cell(1, 1).value is not None else 1
        for i, choice in enumerate(op.choices):
            lists.cell(i + 1, col).value = choice
            lists.cell(i + 1, col).data_type = "s"
        letters = col_letters(col - 1)
        formula = f"{LISTS_TAB}!${letters}$1:${letters}${len(op.choices)}"
    dv = DataValidation(
        type="list", formula1=formula, allow_blank=True, showErrorMessage=True,
        errorStyle="stop" if op.strict else "warning", showInputMessage=bool(op.help), prompt=op.help or None,
    )
    dv.sqref = _sqref(cells)
    ws.add_data_validation(dv)


def _choices(wb: Any, formula: str) -> tuple[str, ...]:
    if formula.startswith('"'):
        return tuple(formula.strip('"').split(","))
    tab, _, ref = formula.partition("!")
    c0, r0, _c1, r1 = range_boundaries(ref.replace("$", ""))
    lists = wb[tab.strip("'")]
    return tuple(text_of(lists.cell(r, c0).value) for r in range(r0, r1 + 1))


def view(wb: Any, ws: Worksheet) -> port.TabView:
    backgrounds, borders, notes, bold = {}, {}, {}, set()
    for (row, col), cell in sorted(ws._cells.items()):
        name = cell_name(row - 1, col - 1)
        if cell.fill is not None and cell.fill.fill_type == "solid":
            backgrounds[name] = "#" + str(cell.fill.fgColor.rgb)[-6:].lower()
        if cell.font is not None and cell.font.b:
            bold.add(name)
        sides = {
            s: _STYLE_OUT.get(getattr(cell.border, s).style or "", "thin")
            for s in ("bottom", "left", "right", "top")
            if getattr(cell.border, s) is not None and getattr(cell.border, s).style
        }
        if sides:
            borders[name] = sides
        if cell.comment is not None and cell.comment.text:
            notes[name] = cell.comment.text
    validations = {}
    for dv in ws.data_validations.dataValidation:
        if dv.type == "list" and dv.formula1:
            rule = port.Validation(_choices(wb, dv.formula1), dv.errorStyle in (None, "stop"), dv.prompt or "")
            for r, c in sorted(_sqref_cells(dv)):
                validations[cell_name(r, c)] = rule
    widths = {
        letters: round(dim.width * PX_PER_CHAR) for letters, dim in ws.column_dimensions.items()
        if dim.customWidth and round(dim.width * PX_PER_CHAR) != port.DEFAULT_WIDTH
    }
    grown = _grown_rows(ws)
    heights = {
        r: round(dim.height / PT_PER_PX) for r, dim in ws.row_dimensions.items()
        if dim.height is not None and round(dim.height / PT_PER_PX) != port.DEFAULT_HEIGHT
        and dim.height != grown.get(r)
    }
    frozen = int(ws.freeze_panes[1:]) - 1 if ws.freeze_panes and ws.freeze_panes[0] == "A" else 0
    return port.TabView(
        name=ws.title, values=read(ws, A1(ws.title)), frozen_rows=frozen, backgrounds=backgrounds,
        bold=frozenset(bold), borders=borders, notes=notes, validations=validations,
        column_widths=dict(sorted(widths.items())), row_heights=dict(sorted(heights.items())),
    )
