"""ClearRange walks the cells the sheet holds (cells.py ``_held``), not every cell of an open range: the same
cells cleared, in the same order, the same rows marked, as walking the range cell by cell did."""

from __future__ import annotations

import random

import pytest

from sheetgm.backends import port
from sheetgm.backends.a1 import parse_range
from sheetgm.backends.xlsx import cells as xlsx_cells
from sheetgm.backends.xlsx.book import Cell, Sheet

RANGES = ("S!A61:I", "S!B3:D5", "S!A1:Z200", "S!C:C", "S!7:9", "S!A1", "S!E10:E10", "S!A2:AD40", "S")


def _sheet(rng: random.Random) -> Sheet:
    sheet = Sheet("S")
    for _ in range(rng.randrange(0, 400)):
        rc = (rng.randrange(0, 120), rng.randrange(0, 30))
        kind = rng.choice(["s", "n", "", ""])
        sheet.cells[rc] = Cell(kind, "v" if kind == "s" else "1" if kind == "n" else "", rng.choice([0, 0, 3]))
    return sheet


def _walked(sheet: Sheet, text: str) -> list[tuple[int, int]]:
    """The cells the old walk over ``area`` found to clear, in its order."""
    found = []
    for rc in xlsx_cells.area(sheet, parse_range(text)):
        cell = sheet.cells.get(rc)
        if cell is not None and (cell.kind or cell.value or cell.formula is not None or cell.extra):
            found.append(rc)
    return found


@pytest.mark.parametrize("seed", range(12))
def test_clearing_finds_the_cells_walking_the_range_found(seed: int) -> None:
    rng = random.Random(seed)
    for text in RANGES:
        sheet = _sheet(rng)
        expected = _walked(sheet, text)
        held = xlsx_cells._held(sheet, parse_range(text))
        assert [rc for rc in held if sheet.cells[rc].kind or sheet.cells[rc].value] == expected, text
        before = {rc: (c.kind, c.value, c.style) for rc, c in sheet.cells.items()}
        touched: list[int] = []
        sheet.touch_row = touched.append  # type: ignore[method-assign]
        xlsx_cells.apply(None, sheet, port.ClearRange(text), parse_range(text))  # type: ignore[arg-type]
        assert touched == [r for r, _c in expected], text
        for rc, (kind, value, style) in before.items():
            after = sheet.cells[rc]
            cleared = rc in expected
            assert (after.kind, after.value, after.style) == (("", "", style) if cleared else (kind, value, style))
