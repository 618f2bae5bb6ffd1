"""A row of the writer's making written again in its XML (``patch.py``) is exactly the row that parsing it,
setting its cells (``cells.apply``) and making it again (``sheetxml.made_row``) gives; a row the writer would
not make so, or values it would not keep as they are, are left to that path (None). Whole workbooks, with a
player's Current tab written again, are compared part by part in ``test_xlsx_pending.py`` (lazy against whole)."""

from __future__ import annotations

import random

import pytest

from sheetgm.backends import port
from sheetgm.backends.a1 import parse_range
from sheetgm.backends.xlsx import cells as xlsx_cells
from sheetgm.backends.xlsx import patch
from sheetgm.backends.xlsx import read as xlsx_read
from sheetgm.backends.xlsx.book import Book, Cell, Sheet
from sheetgm.backends.xlsx.sheetxml import letters, made_row

TEXTS = ["", "", "墙", "a & b", "<b>", "  padded ", " lead", "_x0041_", "&amp;", "é", "门 ⚑", "x\ty", "\u3000全角"]
ODD = ["two\nlines", "bell\x07", "\r"]  # values the writer does not keep as they are (a taller row, a control)
DIMS = [None, {"ht": "21", "customHeight": "1"}, {"hidden": "1"}]


def _row(rng: random.Random, r: int, cols: int) -> tuple[str, dict[str, str] | None]:
    """A row as the writer makes it: texts and formats in some of its columns."""
    found: list[tuple[int, Cell]] = []
    for c in range(cols):
        kind = rng.random()
        style = rng.choice([0, 0, 1, 2, 7])
        if kind < 0.4:
            found.append((c, Cell("s", rng.choice([t for t in TEXTS if t]), style)))
        elif kind < 0.7 and style:
            found.append((c, Cell("", "", style)))
    dims = rng.choice(DIMS)
    return made_row(r, found, dims), dims


EDITS = [
    ('" s="', '" s="0'),  # a leading zero
    ("<row ", '<row spans="1:9" '),  # an attribute the writer does not write (and the row's number after it)
    ('"/>', '" s="0"/>'),  # a format-only cell of the plain format: the writer leaves it out
    ("<t>", '<t xml:space="preserve">'),  # preserve where nothing needs it
    ("<t> ", "<t>  "),  # a space the reader strips
    ('r="B', 'r="Q'),  # cells out of order (or twice)
    ("</t>", "&#13;</t>"),
]


def _edit(rng: random.Random, xml: str) -> str:
    old, new = rng.choice(EDITS)
    at = xml.find(old, rng.randint(0, len(xml)))
    return xml if at < 0 else xml[:at] + new + xml[at + len(old):]


def _by_cells(xml: str, r: int, dims: dict[str, str] | None, c0: int, values: list[str]
              ) -> tuple[bool, str | None, set[int]]:
    """The row parsed, its cells set by ``cells.apply``, made again: whether it held the values, its XML (None:
    no cell left, the writer leaves the row out) and the columns of the cells left with nothing."""
    found, _rows = xlsx_read._pending_cells(xml)
    before = set(found)
    sheet = Sheet("Map")
    sheet.cells = found
    if dims:
        sheet.rows[r] = dict(dims)
    held = all(xlsx_cells._holds(cell, text) if (cell := found.get((r, c0 + j))) is not None else not text
               for j, text in enumerate(values))
    box = f"Map!{letters(c0)}{r + 1}:{letters(c0 + len(values) - 1)}{r + 1}"
    xlsx_cells.apply(Book("t", [sheet]), sheet, port.SetValues(box, [values]), parse_range(box))
    live = sorted((c, cell) for (_r, c), cell in sheet.cells.items() if cell.kind or cell.style)
    emptied = {c for (_r, c), cell in sheet.cells.items() if not cell.kind and not cell.style and (_r, c) in before}
    return held, made_row(r, live, sheet.rows.get(r)) if live else None, emptied


@pytest.mark.parametrize("seed", range(8))
def test_a_row_written_in_its_xml_is_the_row_its_cells_make(seed: int) -> None:
    rng = random.Random(seed)
    studied = patched = odd = refused = 0
    for _ in range(400):
        r, cols = rng.randint(0, 60), rng.randint(1, 12)
        xml, dims = _row(rng, r, cols)
        edited = rng.random() < 0.3
        if edited:
            xml = _edit(rng, xml)
        if rng.random() < 0.2:
            patch._PIECES.clear()
            patch._STUDIED.clear()
        c0 = rng.randint(0, cols)
        values = [rng.choice(TEXTS + ODD if rng.random() < 0.3 else TEXTS) for _ in range(rng.randint(1, 6))]
        if rng.random() < 0.3:  # the values the row holds, a cell or two changed
            have, _rows = xlsx_read._pending_cells(xml) if "r=" in xml else ({}, {})
            values = [c.value if (c := have.get((r, c0 + j))) is not None else "" for j in range(len(values))]
            values[rng.randrange(len(values))] = rng.choice(TEXTS)
        found = patch.study(xml, r, dims)
        if not edited:
            assert found is not None, xml  # the writer's own rows are all written in their XML
        if found is None:
            refused += 1
            continue
        studied += 1
        held, made, emptied = _by_cells(xml, r, dims, c0, values)
        assert patch.holds(found, c0, values, len(values)) == held, (xml, values)
        got = patch.patched(found, r, c0, values, len(values))
        if any("\n" in v or xlsx_cells.ILLEGAL.search(v) for v in values):
            assert got is None
            odd += 1
            continue
        if made is None:
            assert got is None  # the row would be left out: taken, as before
            continue
        assert got is not None, (xml, values)
        assert got[0] == made, (xml, c0, values)
        assert set(got[1]) == emptied, (xml, values)
        patched += 1
    assert studied > 250 and patched > 150 and odd > 5 and refused > 30  # every side exercised


def test_a_row_not_of_the_writers_making_is_left_to_the_cells() -> None:
    xml, dims = made_row(3, [(0, Cell("s", "a", 1)), (2, Cell("", "", 2))], None), None
    assert patch.study(xml, 3, dims) is not None
    assert patch.study(xml, 4, dims) is None  # another row's cells
    assert patch.study(xml, 3, {"ht": "30"}) is None  # attributes the file does not have
    assert patch.study(xml.replace('s="2"', 's="02"'), 3, dims) is None
    assert patch.study(xml.replace('<c r="C4"', '<c r="C5"'), 3, dims) is None
    swapped = '<row r="4"><c r="C4" s="2"/><c r="A4" s="1" t="inlineStr"><is><t>a</t></is></c></row>'
    assert patch.study(swapped, 3, dims) is None  # out of order
