"""Port ops applied to a sheet of an xlsx `Book`, and a sheet read back as a TabView."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from sheetgm.backends import model, port
from sheetgm.backends.a1 import A1, cell_name, col_index, col_letters, format_range
from sheetgm.backends.xlsx import patch
from sheetgm.backends.xlsx.book import Book, Cell, Cells, Col, Sheet, Validation, text_of
from sheetgm.backends.xlsx.xmlkit import ILLEGAL

LISTS_TAB = "_sheetgm_lists"
NOTE_AUTHOR = "sheetgm"
PX_PER_CHAR = 7.0  # column width unit (characters of the default font) in pixels
PT_PER_PX = 0.75
LINE_PT = 15.0  # height of one line of text in a wrapped cell
# "dashed" is drawn medium-dashed: a thin dashed line is hard to tell from the thin grid in LibreOffice
_STYLE_IN = {"thin": "thin", "medium": "medium", "thick": "thick", "dashed": "mediumDashed", "double": "double",
             "none": None}
_STYLE_OUT = {"thin": "thin", "medium": "medium", "thick": "thick", "double": "double", "mediumDashed": "dashed",
              "dashed": "dashed"}
EXPAND_LIMIT = 100_000  # a dropdown over more cells than this (a whole column) is left as it is
_REF = re.compile(r"^\$?([A-Za-z]{1,3})\$?([0-9]+)$")


def area(sheet: Sheet, rng: A1) -> list[tuple[int, int]]:
    """0-based cells of a range; open ends stop at the Google-like grid or the data, whichever is further."""
    if rng.bounded:
        return rng.cells(0, 0)
    rows, cols = sheet.extent()
    return rng.cells(max(rows, model.GRID_ROWS), max(cols, model.GRID_COLS))


def _held(sheet: Sheet, rng: A1) -> list[tuple[int, int]]:
    """The cells of ``area`` that the sheet holds, in its order (row by row): an open range (``A61:I``, the rows
    below a block) is thousands of cells, most of them empty."""
    cells = sheet.cells
    if rng.bounded and (rng.end_row or 0) - rng.start_row <= len(cells) // max(1, (rng.end_col or 0) - rng.start_col):
        return [rc for rc in rng.cells(0, 0) if rc in cells]  # a small block: looked up cell by cell
    return sorted(rc for rc in cells if rng.contains(*rc))


def read(book: Book, sheet: Sheet, rng: A1) -> list[list[str]]:
    rows, cols = sheet.extent()
    r1 = min(rows, rng.end_row) if rng.end_row is not None else rows
    c1 = min(cols, rng.end_col) if rng.end_col is not None else cols
    if r1 <= rng.start_row or c1 <= rng.start_col:
        return []
    get = sheet.cells.get
    return port.trim([[text_of(book, get((r, c))) for c in range(rng.start_col, c1)]
                      for r in range(rng.start_row, r1)])


def set_text(book: Book, sheet: Sheet, r: int, c: int, text: str, touched: set[int] | None = None) -> None:
    """Cell (r, c) holds ``text``; its row is marked changed (or added to ``touched``, for the caller to mark)."""
    cells = sheet.row_cells(r)  # a new row after rows not parsed, or a row taken from them, leaves them so
    cell = cells.get((r, c))
    if cell is not None and _holds(cell, text):
        return  # already so (a map or a tab written again with mostly the same cells)
    text = ILLEGAL.sub("", text)
    if cell is None:
        if not text:
            return
        cell = cells[(r, c)] = Cell()
    if touched is None:
        sheet.touch_row(r)
    else:
        touched.add(r)
    if cell.formula is not None:
        _unshare(sheet, cell)
        cell.raw = None  # (a formula's result as written: no inline text's)
    # Always text, as with Sheets' stringValue: a text starting with "=" stays text.
    cell.kind, cell.value, cell.formula = ("s", text, None) if text else ("", "", None)
    cell.sst, cell.extra = -1, ""
    if "\n" in text:
        # Sheets shows a multi-line cell wrapped; LibreOffice and Excel need wrap and top alignment said,
        # and LibreOffice does not grow the row itself (reports and logs are several lines long).
        cell.style = book.styles.derive(cell.style, ("wrap",))
        want = wrapped_height(text.count("\n") + 1)
        dim = sheet.rows.setdefault(r, {})
        if "ht" not in dim or float(dim["ht"]) < want:
            dim["ht"], dim["customHeight"] = _num(want), "1"


def _holds(cell: Cell, text: str) -> bool:
    """Whether ``set_text`` would leave the cell as it is: the same text, or none (a cell with a format only)."""
    if cell.value != text or cell.formula is not None:
        return False
    return (cell.kind == "s" and "\n" not in text) if text else (not cell.kind and not cell.extra)


def _unshare(sheet: Sheet, cell: Cell) -> None:
    """``cell`` is about to lose its formula. If it holds a shared formula's text (Excel writes a formula filled
    down once, in its first cell: ``<f t="shared" ref="D3:D9" si="0">``, the others ``<f t="shared" si="0"/>``),
    the cells sharing it would point at nothing, which Excel reports as a damaged file: they keep their last
    values, without the formula."""
    attrs = cell.formula[0] if cell.formula is not None else {}
    if attrs.get("t") != "shared" or "ref" not in attrs:
        return
    si = attrs.get("si")
    for (r, _c), other in sheet.cells.items():
        theirs = other.formula[0] if other.formula is not None else {}
        if other is not cell and theirs.get("t") == "shared" and theirs.get("si") == si:
            other.formula = None
            if not other.kind:
                other.value = ""  # (the formula it read as)
            sheet.touch_row(r)


def wrapped_height(lines: int) -> float:
    return min(409.0, LINE_PT * lines)


def _num(value: float) -> str:
    return str(int(value)) if value.is_integer() else repr(value)


def _grown_rows(sheet: Sheet) -> dict[int, float]:
    """Rows whose height was set only to show wrapped text: a display detail, not part of the view."""
    lines: dict[int, int] = {}
    for (r, _c), cell in sheet.cells.items():
        if cell.kind == "s" and "\n" in cell.value:
            lines[r] = max(lines.get(r, 1), cell.value.count("\n") + 1)
    return {r: wrapped_height(n) for r, n in lines.items()}


def _restyle(book: Book, sheet: Sheet, changes: Sequence[tuple[tuple[int, int], tuple[object, ...]]]) -> None:
    """Each (cell, change) in turn (a map is thousands of them: the loop is kept lean)."""
    if not changes:
        return
    first = min(rc[0] for rc, _change in changes)
    derive, cells, rows, created = book.styles.derive, sheet.reach(first), set(), False
    for rc, change in changes:
        cell = cells.get(rc)
        if cell is None:
            cell = cells[rc] = Cell()
            created = True
        style = derive(cell.style, change)
        if style != cell.style:
            cell.style = style
            rows.add(rc[0])
    if created:  # a cell without a format is not written, but it counts in the sheet's dimension
        sheet.touch_outside_rows()
    sheet.touch_rows(rows)


FORMAT_OPS = (port.SetBackground, port.SetBold, port.SetBorders)
Change = tuple[object, ...]


def format_changes(op: port.Op, cells: list[tuple[int, int]]) -> list[tuple[tuple[int, int], Change]]:
    """The style changes a format op (SetBackground, SetBold, SetBorders) makes, cell by cell, in order."""
    if isinstance(op, port.SetBackground):
        fill = ("fill", op.rgb)
        return [(rc, fill) for rc in cells]
    if isinstance(op, port.SetBold):
        bold = ("bold", op.bold)
        return [(rc, bold) for rc in cells]
    if isinstance(op, port.SetBorders):
        plan = model.border_plan(cells, {s: op.style for s in op.sides})
        return [((r, c), ("border", side, _STYLE_IN[style])) for r, c, side, style in plan]
    raise TypeError(f"not a format op: {op!r}")


Plan = tuple[tuple[tuple[Change, ...], tuple[tuple[int, int], ...]], ...]


@lru_cache(maxsize=32)
def _first_row(plan: Plan) -> int:
    return min((rc[0] for _changes, cells in plan for rc in cells), default=0)


@lru_cache(maxsize=32)
def _format_plan(ops: tuple[port.Op, ...]) -> Plan:
    """The changes of a run of bounded format ops gathered per cell, in the ops' order, and the cells grouped by
    their sequence of changes. A stage's map is hundreds of such ops, the same tuple for every player (the
    sheets layer makes it once): worked out once, and each group of cells then needs one style lookup each."""
    per_cell: dict[tuple[int, int], list[Change]] = {}
    for op in ops:
        rng = port.op_ranges(op)[0]
        for rc, change in format_changes(op, rng.cells(0, 0)):
            per_cell.setdefault(rc, []).append(change)
    groups: dict[tuple[Change, ...], list[tuple[int, int]]] = {}
    for rc, changes in per_cell.items():
        groups.setdefault(tuple(changes), []).append(rc)
    return tuple((changes, tuple(cells)) for changes, cells in groups.items())


def restyle_run(book: Book, sheet: Sheet, ops: tuple[port.Op, ...]) -> None:
    """Apply a run of format ops with bounded ranges, as ``apply`` would one by one: each cell's style worked
    out once from all its changes (``Styles.derive_all``), rows marked only where a style really changes."""
    plan = _format_plan(ops)
    derive_all, rows, created = book.styles.derive_all, set(), False
    pending = sheet.pending
    if pending is not None and _first_row(plan) <= pending.last:  # only the rows it styles parsed (a bold header
        sheet.take(sorted({rc[0] for _changes, group in plan for rc in group if rc[0] <= pending.last}))
        cells = sheet.taken_cells()  # cell over a long tab of unparsed rows parsed that tab whole)
    else:
        cells = sheet.reach(_first_row(plan))
    get = cells.get
    for changes, group in plan:
        styled: dict[int, int] = {}  # old style -> new, for this group's changes (most cells share a few)
        for rc in group:
            cell = get(rc)
            if cell is None:  # a new cell (a map's blank tiles): made with its style
                style = styled.get(0)
                if style is None:
                    style = styled[0] = derive_all(0, changes)
                cells[rc] = Cell("", "", style)
                created = True
                if style:
                    rows.add(rc[0])
                continue
            style = styled.get(cell.style)
            if style is None:
                style = styled[cell.style] = derive_all(cell.style, changes)
            if style != cell.style:
                cell.style = style
                rows.add(rc[0])
    if created:  # a cell without a format is not written, but it counts in the sheet's dimension
        sheet.touch_outside_rows()
    sheet.touch_rows(rows)


def apply(book: Book, sheet: Sheet, op: port.Op, rng: A1) -> None:
    """Apply one op. The rows it changes are marked (``Sheet.touch_row``) cell by cell, only where a value, a
    format or a height really changes, so that saving serializes those rows alone; what lies outside the cells
    marks the sheet (``touch_outside_rows``)."""
    if isinstance(op, port.SetValues):
        _set_values(book, sheet, op, port.values_area(op, rng))
    elif isinstance(op, port.ClearRange):
        for rc in _held(sheet, rng):
            cell = sheet.cells[rc]
            if cell.kind or cell.value or cell.formula is not None or cell.extra:
                if cell.formula is not None:
                    _unshare(sheet, cell)
                cell.kind, cell.value, cell.formula, cell.sst, cell.extra, cell.raw = "", "", None, -1, "", None
                sheet.touch_row(rc[0])
    elif isinstance(op, FORMAT_OPS):
        _restyle(book, sheet, format_changes(op, area(sheet, rng)))
    elif isinstance(op, port.SetNote):
        sheet.touch_outside_rows()
        for rc in area(sheet, rng):
            if op.text:
                sheet.notes[rc] = (op.text, NOTE_AUTHOR)
            else:
                sheet.notes.pop(rc, None)
    elif isinstance(op, port.SetValidation):
        sheet.touch_outside_rows()
        set_validation(book, sheet, set(area(sheet, rng)), op)
    elif isinstance(op, port.FreezeRows):
        sheet.touch_outside_rows()
        sheet.frozen = (op.rows, 0)
    elif isinstance(op, port.ResizeColumns):
        sheet.touch_outside_rows()
        width = op.width / PX_PER_CHAR
        text = repr(width)
        single = {col.min: col.attrs for col in sheet.cols if col.min == col.max}  # (a column set alone)
        for c in range(rng.start_col, rng.end_col if rng.end_col is not None else model.GRID_COLS):
            attrs = single.get(c + 1)
            if attrs is None or attrs.get("width") != text or attrs.get("customWidth") != "1":
                set_width(sheet, c, width)  # (what it passes over when already so, passed over here at once)
    elif isinstance(op, port.ResizeRows):
        height = _num(op.height * PT_PER_PX)
        for r in range(rng.start_row, rng.end_row if rng.end_row is not None else model.GRID_ROWS):
            dim = sheet.rows.setdefault(r, {})
            if dim.get("ht") != height or dim.get("customHeight") != "1":
                dim["ht"], dim["customHeight"] = height, "1"
                sheet.touch_row(r)


def _set_values(book: Book, sheet: Sheet, op: port.SetValues, box: A1) -> None:
    """The op's rows from the box's corner, blanks where a row is short; a cell already so is passed over
    (a tab written again is thousands of them), the rows that change are marked once."""
    assert box.end_row is not None and box.end_col is not None
    c0, width, pending = box.start_col, box.end_col - box.start_col, sheet.pending
    skip: set[int] = set()
    if pending is not None and box.start_row <= pending.last:
        parsed: dict[int, Cells] = {}
        studied: dict[int, patch.Study] = {}
        skip = _rows_holding(sheet, op, box, parsed, studied)
        skip |= _patch_rows(sheet, op, box, studied)
        sheet.take([r for r in range(box.start_row, min(box.end_row, pending.last + 1)) if r not in skip], parsed)
        cells = sheet.taken_cells()
    else:
        cells = sheet.reach(box.start_row)
    touched = set[int]()
    for i, r in enumerate(range(box.start_row, box.end_row)):
        if r in skip:
            continue
        values = op.rows[i] if i < len(op.rows) else ()
        plain = not ILLEGAL.search("".join(values))  # (nothing to take out of the texts: new cells made here)
        for j in range(width):
            text = values[j] if j < len(values) else ""
            cell = cells.get((r, c0 + j))
            if cell is None:
                if not text:
                    continue
                if plain and "\n" not in text:  # a new cell of one line of text: what set_text would make
                    cells[(r, c0 + j)] = Cell("s", text)
                    touched.add(r)
                    continue
            elif _holds(cell, text):
                continue
            set_text(book, sheet, r, c0 + j, text, touched)
    sheet.touch_rows(touched)


_HOLDING: dict[tuple[str, int, int, tuple[str, ...]], bool] = {}  # only rows that hold


def _rows_holding(sheet: Sheet, op: port.SetValues, box: A1, parsed: dict[int, Cells],
                  studied: dict[int, patch.Study]) -> set[int]:
    """The rows of the box among a sheet's pending rows (not taken) whose cells hold the op's values already: left
    unparsed. Whether a row as read holds given values is worked out once per process (``_HOLDING``): the rows of
    a map are the same in most players' Current tabs, and so are the values written over them. A row of the
    writer's own making is looked at in its XML (``patch.study``; those that do not hold are put in ``studied``),
    any other is parsed (put in ``parsed``)."""
    p = sheet.pending
    assert p is not None and box.end_row is not None and box.end_col is not None
    texts, c0, width, held = p.row_texts(), box.start_col, box.end_col - box.start_col, set()
    if len(_HOLDING) > 2048:  # (a key holds a row's XML: a few kB)
        _HOLDING.clear()
    for i, r in enumerate(range(box.start_row, min(box.end_row, p.last + 1))):
        if r in p.taken:
            continue
        values = tuple(op.rows[i]) if i < len(op.rows) else ()
        xml = texts.get(r)
        if xml is None:  # no such row as read: it holds blanks only
            if not any(values[:width]):
                held.add(r)
            continue
        key = (xml, c0, width, values)
        found = _HOLDING.get(key)
        if found is None:
            seen = patch.study(xml, r, sheet.rows.get(r))
            if seen is not None:
                found = patch.holds(seen, c0, values, width)
                if not found:
                    studied[r] = seen
            else:
                cells = parsed[r] = p.parse(xml)[0]
                found = all(_holds(cell, text) if (cell := cells.get((r, c0 + j))) is not None else not text
                            for j, text in ((j, values[j] if j < len(values) else "") for j in range(width)))
            if found:  # (a row that does not hold is parsed and taken anyway: nothing to keep)
                _HOLDING[key] = True
        if found:
            held.add(r)
    return held


def _patch_rows(sheet: Sheet, op: port.SetValues, box: A1, studied: dict[int, patch.Study]) -> set[int]:
    """The rows of ``studied`` (pending, of the writer's making, not holding the op's values) written again in
    their XML (``patch.patched``), as setting their cells would make them: not taken, not parsed."""
    p = sheet.pending
    assert p is not None and box.end_col is not None
    done = set()
    for r, row in studied.items():
        i = r - box.start_row
        made = patch.patched(row, r, box.start_col, op.rows[i] if i < len(op.rows) else (), box.end_col - box.start_col)
        if made is not None:
            p.patch(r, *made)
            done.add(r)
    if done:
        sheet.touch_outside_rows()  # (the rows as read stay pending: the sheet's XML is made again at the save)
    return done


# -- cells a protected tab leaves open ---------------------------------------


def open_cells(book: Book, sheet: Sheet) -> list[str]:
    """The ranges a protection of ``sheet`` leaves open, as canonical A1: each run of open cells in a row,
    whole columns and rows whose style is open, or the whole tab if a cell without a style is."""
    locked, tab = book.styles.locked, sheet.name
    if not locked(0):
        return [format_range(A1(tab))]
    found = [format_range(A1(tab, 0, col.min - 1, None, col.max)) for col in sheet.cols
             if col.attrs.get("style") and not locked(_int(col.attrs["style"]))]
    found += [format_range(A1(tab, r, 0, r + 1, None)) for r, attrs in sorted(sheet.rows.items())
              if attrs.get("customFormat") in ("1", "true") and not locked(_int(attrs.get("s", "0")))]
    cells = sorted(rc for rc, cell in sheet.cells.items() if cell.style and not locked(cell.style))
    i = 0
    while i < len(cells):
        r, c = cells[i]
        j = i
        while j + 1 < len(cells) and cells[j + 1] == (r, cells[j][1] + 1):
            j += 1
        found.append(format_range(A1(tab, r, c, r + 1, cells[j][1] + 1)))
        i = j + 1
    return found


def set_open(book: Book, sheet: Sheet, wanted: set[tuple[int, int]]) -> None:
    """Leave exactly the cells ``wanted`` open in ``sheet``: every other cell, column or row style that is open
    is locked again (the plain style too), and the wanted cells get an open style."""
    styles = book.styles
    if styles.lock_default():
        for other in book.sheets:
            other.touch()
    locked = styles.locked
    for col in sheet.cols:
        if col.attrs.get("style") and not locked(_int(col.attrs["style"])):
            col.attrs["style"] = str(styles.derive(_int(col.attrs["style"]), ("locked", True)))
            sheet.touch_outside_rows()
    for r, attrs in sheet.rows.items():
        if attrs.get("customFormat") in ("1", "true") and not locked(_int(attrs.get("s", "0"))):
            attrs["s"] = str(styles.derive(_int(attrs.get("s", "0")), ("locked", True)))
            sheet.touch_row(r)
    pending = sheet.pending
    if pending is not None and ((wanted and min(wanted)[0] <= pending.last)
                                or pending.holds_style(styles.unlocked())):
        sheet.load()  # the rows not parsed yet hold an open cell, or are to hold one
    cells = sheet.reach(sheet.pending.last + 1 if sheet.pending is not None else 0)
    opened = {s for s in {cell.style for cell in cells.values()} if s and not locked(s)}  # a tab of a few styles
    stray = [rc for rc, cell in cells.items() if cell.style in opened and rc not in wanted] if opened else []
    _restyle(book, sheet, [(rc, ("locked", True)) for rc in stray] + [(rc, ("locked", False)) for rc in wanted])


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0


def set_width(sheet: Sheet, c: int, width: float) -> None:
    n = c + 1
    for i, col in enumerate(sheet.cols):
        if col.min <= n <= col.max:
            attrs = col.attrs
            if col.min == col.max and attrs.get("width") == repr(width) and attrs.get("customWidth") == "1":
                return  # already so (a stage's map sets the same widths again): the same Col it would make
            pieces = [Col(col.min, n - 1, dict(col.attrs))] if col.min < n else []
            pieces.append(Col(n, n, {**col.attrs, "width": repr(width), "customWidth": "1"}))
            pieces += [Col(n + 1, col.max, dict(col.attrs))] if n < col.max else []
            sheet.cols[i:i + 1] = pieces
            return
    sheet.cols.append(Col(n, n, {"width": repr(width), "customWidth": "1"}))


# -- dropdowns ---------------------------------------------------------------


def _ref(text: str) -> tuple[int, int] | None:
    found = _REF.match(text)
    return (int(found.group(2)) - 1, col_index(found.group(1))) if found else None


def _rects(sqref: str) -> list[tuple[int, int, int, int]]:
    """(row0, col0, row1, col1), 0-based and inclusive, of each part of a space-separated range list."""
    out = []
    for part in sqref.split():
        ends = [_ref(p) for p in part.split(":", 1)]
        first, last = ends[0], ends[-1]
        if first is not None and last is not None:
            out.append((min(first[0], last[0]), min(first[1], last[1]), max(first[0], last[0]), max(first[1], last[1])))
    return out


def _sqref_cells(sqref: str) -> set[tuple[int, int]] | None:
    """The cells of a range list; None when there are too many to list (then it is left alone)."""
    rects = _rects(sqref)
    if sum((r1 - r0 + 1) * (c1 - c0 + 1) for r0, c0, r1, c1 in rects) > EXPAND_LIMIT:
        return None
    return {(r, c) for r0, c0, r1, c1 in rects for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)}


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


def set_validation(book: Book, sheet: Sheet, cells: set[tuple[int, int]], op: port.SetValidation) -> None:
    kept = []
    for dv in sheet.validations:
        have = _sqref_cells(dv.sqref)
        if have is None or not have & cells:
            kept.append(dv)
        elif have - cells:
            dv.sqref = _sqref(have - cells)
            kept.append(dv)
    sheet.validations = kept
    if not op.choices or not cells:
        return
    inline = ",".join(op.choices)
    if len(inline) <= 250 and not any("," in c or '"' in c for c in op.choices):
        formula = f'"{inline}"'
    else:
        formula = _listed(book, op.choices)
    attrs = {"type": "list", "allowBlank": "1", "showErrorMessage": "1",
             "errorStyle": "stop" if op.strict else "warning"}
    if op.help:
        attrs |= {"showInputMessage": "1", "prompt": op.help}
    sheet.validations.append(Validation(_sqref(cells), attrs, formula))


def _listed(book: Book, choices: Sequence[str]) -> str:
    """Long choices go in a column of a hidden tab; the dropdown points there."""
    lists = book.sheet(LISTS_TAB)
    if lists is None:
        lists = Sheet(LISTS_TAB, state="hidden")
        book.sheets.append(lists)
    lists.touch()
    col = lists.extent()[1] if lists.cells else 0
    for i, choice in enumerate(choices):
        lists.cells[(i, col)] = Cell("s", ILLEGAL.sub("", choice))
    letters = col_letters(col)
    return f"{LISTS_TAB}!${letters}$1:${letters}${len(choices)}"


def _choices(book: Book, formula: str) -> tuple[str, ...]:
    if formula.startswith('"'):
        return tuple(formula.strip('"').split(","))
    tab, _, ref = formula.partition("!")
    lists = book.sheet(tab.strip("'"))
    rects = _rects(ref)
    if lists is None or not rects:
        return ()
    r0, c0, r1, _c1 = rects[0]
    return tuple(text_of(book, lists.cells.get((r, c0))) for r in range(r0, r1 + 1))


# -- the view ----------------------------------------------------------------


def view(book: Book, sheet: Sheet) -> port.TabView:
    backgrounds, borders, bold = {}, {}, set()
    for (row, col), cell in sorted(sheet.cells.items()):
        if not cell.style:
            continue
        name = cell_name(row, col)
        fill, is_bold, sides = book.styles.look(cell.style)
        if fill:
            backgrounds[name] = fill
        if is_bold:
            bold.add(name)
        if sides:
            borders[name] = {s: _STYLE_OUT.get(style, "thin") for s, style in sides.items()}
    notes = {cell_name(*rc): text for rc, (text, _author) in sorted(sheet.notes.items()) if text}
    validations = {}
    for dv in sheet.validations:
        if dv.attrs.get("type") == "list" and dv.formula1:
            rule = port.Validation(_choices(book, dv.formula1), dv.attrs.get("errorStyle", "stop") == "stop",
                                   dv.attrs.get("prompt", ""))
            for r, c in sorted(_sqref_cells(dv.sqref) or ()):
                validations[cell_name(r, c)] = rule
    widths = {}
    for dim in sheet.cols:
        if dim.attrs.get("customWidth") in ("1", "true") and "width" in dim.attrs:
            px = round(float(dim.attrs["width"]) * PX_PER_CHAR)
            if px != port.DEFAULT_WIDTH:
                widths.update({col_letters(c - 1): px for c in range(dim.min, min(dim.max, dim.min + 255) + 1)})
    grown = _grown_rows(sheet)
    heights = {}
    for r, attrs in sheet.rows.items():
        if "ht" in attrs and attrs.get("customHeight") in ("1", "true"):  # LibreOffice notes every row's height
            ht = float(attrs["ht"])
            if round(ht / PT_PER_PX) != port.DEFAULT_HEIGHT and ht != grown.get(r):
                heights[r + 1] = round(ht / PT_PER_PX)
    rows_frozen, cols_frozen = sheet.frozen
    return port.TabView(
        name=sheet.name, values=read(book, sheet, A1(sheet.name)), frozen_rows=0 if cols_frozen else rows_frozen,
        backgrounds=backgrounds, bold=frozenset(bold), borders=borders, notes=notes, validations=validations,
        column_widths=dict(sorted(widths.items())), row_heights=dict(sorted(heights.items())),
    )
