"""A stage's new rows after a large sheet's unparsed rows, written as XML without making their cells.

A stage adds a block to every player's Map history: a title, the map's values (a few marks differ from player
to player), row heights and the map's formats (the same for all). After the old blocks, left unparsed
(``book.Pending``), these rows are new: what the ops make of them depends on the ops and on the workbook's style
table alone. So each row's XML is worked out once per process for its values, heights and styles, and added to
the sheet's unparsed rows (``Pending.tail``); the cells are parsed from it only if asked for, like the rows
before. Only what this module can show to be what the ops would make is written this way (one-line texts; each
cell given values by one op at most and formats by one run of format ops at most, after its values; a style for
every formatted cell); anything else is applied op by op (``cells.apply``, ``cells.restyle_run``).
"""

from __future__ import annotations

from collections.abc import Sequence

from sheetgm.backends import port
from sheetgm.backends.a1 import A1
from sheetgm.backends.xlsx import cells as xlsx_cells
from sheetgm.backends.xlsx.book import Book, Cell, Sheet
from sheetgm.backends.xlsx.read import style_marks
from sheetgm.backends.xlsx.sheetxml import made_row
from sheetgm.backends.xlsx.xmlkit import ILLEGAL

_FORMATS = frozenset(xlsx_cells.FORMAT_OPS)
_SEGMENT = frozenset({port.SetValues, port.ResizeRows, port.ResizeColumns, *_FORMATS})
Box = tuple[int, int, int, int]  # rows and columns, 0-based, ends excluded
ByRow = dict[int, tuple[tuple[int, int], ...]]  # a plan's cells row by row: (column, its group's index)
Styled = tuple[xlsx_cells.Plan, tuple[int, ...], ByRow]  # a plan, its groups' styles in this workbook, by row
# (row, heights, values over it, (plan, styles) over it) -> (its XML, its last column with a cell or -1)
_MADE: dict[tuple[object, ...], tuple[str, int, frozenset[str]]] = {}  # (and the ' s="N"' it holds)
_PLANS: dict[int, xlsx_cells.Plan] = {}  # the plans whose id is in a key of _MADE, kept so that no id is reused


def new_rows(book: Book, sheet: Sheet, ops: Sequence[port.Op], ranges: list[list[A1]], i: int) -> int:
    """Write the ops from ``ops[i]`` (a SetValues) on as new rows of ``sheet`` while they only make new rows;
    the index of the first op not written (``i``: none, apply them one by one)."""
    p, first = sheet.pending, ranges[i][0]
    if p is None or p.taken or sheet.taken_cells() or not isinstance(ops[i], port.SetValues):
        return i
    top = first.start_row
    if top <= p.last or (sheet.rows and max(sheet.rows) >= top):
        return i  # rows there already
    values: list[tuple[int, port.SetValues, Box]] = []
    runs: list[tuple[int, xlsx_cells.Plan, Box]] = []
    heights: list[tuple[port.ResizeRows, A1]] = []
    widths: list[int] = []  # (the ops that set a column's width)
    texts = False  # (a value that is not blank)
    k, n, start, tab = i, len(ops), -1, first.tab
    known: tuple[int, int, xlsx_cells.Plan] | None = None  # a run seen before: where it starts and ends, its plan
    while k <= n:  # one pass over the ops (a map is hundreds), a run of formats closed by the next other op
        op = ops[k] if k < n else None
        kind = type(op)
        rng = ranges[k][0] if kind in _SEGMENT else first  # (an AddTab has no range)
        inside = kind in _SEGMENT and rng.tab == tab
        if inside and kind in _FORMATS:
            if rng.end_row is None or rng.end_col is None:
                return i  # an open range: op by op
            if start < 0:
                start = k
                seen = _RUNS.get(id(op))
                if seen is not None and rng.tab == seen[1] and port.same_ops(seen[0], ops, k):
                    known = (k, k + len(seen[0]), seen[2])
                    k += len(seen[0])  # the same ops as before (every player's map): bounded, on this tab
                    continue
            k += 1
            continue
        if start >= 0:
            if known is not None and known[:2] == (start, k):
                plan = known[2]
            else:
                plan = _plan(tuple(ops[start:k]), tab)
            runs.append((start, plan, _info(plan)[0]))
            start, known = -1, None
        if not inside:
            break
        if isinstance(op, port.SetValues):
            area = port.values_area(op, rng)
            assert area.end_row is not None and area.end_col is not None
            text = "".join(map("".join, op.rows))  # (the whole op's texts looked at in C, at once)
            if "\n" in text or ILLEGAL.search(text):
                return i
            texts = texts or bool(text)
            values.append((k, op, (area.start_row, area.end_row, area.start_col, area.end_col)))
        elif isinstance(op, port.ResizeRows):
            if rng.end_row is None:
                return i
            heights.append((op, rng))
        elif kind is port.ResizeColumns:
            widths.append(k)
        k += 1
    j = k
    boxes = [box for _k, _op, box in values] + [box for _k, _plan, box in runs] + [
        (rng.start_row, rng.end_row or 0, 0, 1) for _op, rng in heights]
    if min(box[0] for box in boxes) < top:
        return i
    if not _apart([box for _k, _op, box in values]) or not _apart([box for _k, _plan, box in runs]):
        return i  # a cell given values, or formats, twice: op by op
    if any(vk > rk and _meet(vbox, rbox) for vk, _op, vbox in values for rk, _plan, rbox in runs):
        return i  # values over formatted cells
    styled: list[Styled] = []
    for _k, plan, _box in runs:  # the styles, made in the order restyle_run makes them
        found = book.styles.derive_each(0, plan)
        if 0 in found:
            return i  # a formatted cell without a style: it counts in the sheet's extent, not in its XML
        styled.append((plan, found, _info(plan)[1]))
    dims: dict[int, dict[str, str]] = {}
    for op, rng in heights:  # as cells.apply sets them (the last height of a row wins)
        height = xlsx_cells._num(op.height * xlsx_cells.PT_PER_PX)
        for r in range(rng.start_row, rng.end_row or 0):
            dim = dims.setdefault(r, {})
            dim["ht"], dim["customHeight"] = height, "1"
    for k in widths:
        xlsx_cells.apply(book, sheet, ops[k], ranges[k][0])
    if texts or styled or dims:  # (blanks alone over rows that hold nothing, a Current tab's preview: no row made)
        _append(sheet, top, max(box[1] for box in boxes), values, styled, dims)
    return j


def _append(sheet: Sheet, top: int, end: int, values: list[tuple[int, port.SetValues, Box]],
            styled: list[Styled], dims: dict[int, dict[str, str]]) -> None:
    p = sheet.pending
    assert p is not None
    if len(_MADE) >= 2048:
        _MADE.clear()
        _PLANS.clear()
    out, last, rows, cols = [], p.last, 0, 0
    # what lies over each row, gathered op by op (a block is ~40 rows under two or three ops)
    over_at: dict[int, list[tuple[int, Sequence[str]]]] = {}
    for _k, op, box in values:
        texts = op.rows
        for r in range(box[0], box[1]):
            i = r - box[0]
            over_at.setdefault(r, []).append((box[2], texts[i] if i < len(texts) else ()))
    here_at: dict[int, list[Styled]] = {}
    marks_at: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
    for entry in styled:
        for r in entry[2]:
            here_at.setdefault(r, []).append(entry)
            marks_at.setdefault(r, []).append((id(entry[0]), entry[1]))
    for r in range(top, end):
        over = tuple(over_at.get(r, ()))
        here = here_at.get(r, [])
        dim = dims.get(r)
        key = (r, tuple(dim.items()) if dim else (), over, tuple(marks_at.get(r, ())))
        made = _MADE.get(key)
        if made is None:
            for plan, _found, _rows in here:
                _PLANS[id(plan)] = plan
            xml, col = _row(r, over, here, dim)
            made = _MADE[key] = (xml, col, style_marks(xml))
        xml, col, marks = made
        if xml:
            out.append(xml)
            last = r
            if p.styles is not None and not marks <= p.styles:
                p.styles |= marks
        if col >= 0:
            rows, cols = r + 1, max(cols, col + 1)
        if dim:
            sheet.rows[r] = dict(dim)
    if not out:
        return
    sheet.touch_outside_rows()  # (the sheet's XML is made again at the save, its rows as they are)
    p.tail += "".join(out)
    p.last = last
    p.forget()
    if p.measured is not None and rows:
        p.measured = (max(p.measured[0], rows), max(p.measured[1], cols))


def _row(r: int, over: tuple[tuple[int, Sequence[str]], ...], styled: list[Styled],
         dim: dict[str, str] | None) -> tuple[str, int]:
    """The XML of new row ``r`` as the writer makes it from the cells the ops would make, and its last column."""
    cells: dict[int, Cell] = {}
    for c0, texts in over:
        for j, text in enumerate(texts):
            if text:
                cells[c0 + j] = Cell("s", text, 0)
    for _plan, found, by_row in styled:
        for c, group in by_row[r]:
            cell = cells.get(c)
            if cell is None:
                cells[c] = Cell("", "", found[group])
            else:
                cell.style = found[group]
    if not cells and not dim:
        return "", -1
    return made_row(r, sorted(cells.items()), dim), max(cells, default=-1)


_INFO: dict[int, tuple[xlsx_cells.Plan, Box, ByRow]] = {}


def _info(plan: xlsx_cells.Plan) -> tuple[Box, ByRow]:
    """A plan's bounding box and its cells row by row, once per plan (kept by its identity: a plan is thousands
    of cells, long to hash)."""
    found = _INFO.get(id(plan))
    if found is None or found[0] is not plan:
        if len(_INFO) >= 32:
            _INFO.clear()
        rows: dict[int, list[tuple[int, int]]] = {}
        for g, (_changes, group) in enumerate(plan):
            for r, c in group:
                rows.setdefault(r, []).append((c, g))
        cols = [c for found_row in rows.values() for c, _g in found_row]
        box = (min(rows), max(rows) + 1, min(cols), max(cols) + 1)
        found = _INFO[id(plan)] = (plan, box, {r: tuple(row) for r, row in rows.items()})
    return found[1], found[2]


# A run of format ops (a stage's map formats: one tuple of ops the sheets layer makes once, in every player's
# ops) by its first op's identity -> the run, its tab, its plan: the run found again without looking at each op
# or hashing them all. The ops are kept: their ids name no other op while they are here.
_RUNS: dict[int, tuple[tuple[port.Op, ...], str, xlsx_cells.Plan]] = {}


def _plan(run: tuple[port.Op, ...], tab: str) -> xlsx_cells.Plan:
    plan = xlsx_cells._format_plan(run)
    if len(_RUNS) >= 32:  # (the long runs, a map's, kept: a run of a title's bold in every workbook pushed them out)
        long = {key: seen for key, seen in _RUNS.items() if len(seen[0]) >= 32}
        _RUNS.clear()
        if len(long) < 16:
            _RUNS.update(long)
    _RUNS[id(run[0])] = (run, tab, plan)
    return plan


def _meet(a: Box, b: Box) -> bool:
    return a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]


def _apart(boxes: list[Box]) -> bool:
    return not any(_meet(a, b) for n, a in enumerate(boxes) for b in boxes[n + 1:])
