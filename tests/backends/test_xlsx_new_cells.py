"""New cells of one line of text are made by ``_set_values`` itself, without ``set_text``: the cells, their
styles, the rows marked changed and the row heights are those ``set_text`` makes, whatever the texts."""

from __future__ import annotations

import random

import pytest

from sheetgm.backends import port
from sheetgm.backends.a1 import parse_range
from sheetgm.backends.xlsx import cells as xlsx_cells
from sheetgm.backends.xlsx.book import Book, Sheet

TEXTS = ["", "x", "门", " padded ", "two\nlines", "bad\x01char", "\x0bonly", "a & <b>", "=1+1", "_x0041_", "\ufffe"]


def _state(sheet: Sheet) -> tuple[object, ...]:
    cells = {rc: (c.kind, c.value, c.style, c.formula, c.sst, c.extra) for rc, c in sheet.cells.items()}
    return cells, dict(sheet.rows), sorted(sheet.row_xml), sheet.written


@pytest.mark.parametrize("seed", range(8))
def test_a_new_cell_is_what_set_text_makes(seed: int) -> None:
    rng = random.Random(seed)
    rows = [[rng.choice(TEXTS) for _ in range(rng.randint(0, 5))] for _ in range(rng.randint(1, 6))]
    rows = [[rng.choice(TEXTS[:4]) for _ in range(3)]] + rows if seed % 2 else rows
    op = port.SetValues("Map!B2:F7", rows)
    books = []
    for fast in (True, False):
        book = Book("t", [Sheet("Map")])
        sheet = book.sheets[0]
        sheet.cells[(1, 1)] = xlsx_cells.Cell("s", "old", 0)  # one cell there already
        sheet.row_xml = {1: "<row/>", 4: "<row/>", 9: "<row/>"}
        if fast:
            xlsx_cells.apply(book, sheet, op, parse_range(op.range))
        else:
            box, touched = port.values_area(op, parse_range(op.range)), set[int]()
            for i, r in enumerate(range(box.start_row, box.end_row or 0)):
                values = op.rows[i] if i < len(op.rows) else ()
                for j in range(box.start_col, box.end_col or 0):
                    text = values[j - box.start_col] if j - box.start_col < len(values) else ""
                    xlsx_cells.set_text(book, sheet, r, j, text, touched)
            sheet.touch_rows(touched)
        books.append((book.styles.xml(), _state(sheet)))
    assert books[0] == books[1]


def test_a_rows_xml_made_once_per_content_is_the_xml_of_that_row() -> None:
    """``sheetxml._row`` keeps each row's XML by its content: every field of a cell and of the row is in the key."""
    from sheetgm.backends.xlsx import sheetxml
    from sheetgm.backends.xlsx.book import Cell

    def cells(**change: object) -> list[tuple[int, Cell]]:
        out = [(2, Cell("s", "门", 3)), (0, Cell("", "", 5)), (1, Cell("s", " x ", 0))]
        for name, value in change.items():
            setattr(out[0][1], name, value)
        return out

    variants = [
        (4, cells(), {"ht": "33", "customHeight": "1"}), (4, cells(), {"customHeight": "1", "ht": "33"}),
        (4, cells(), None), (5, cells(), None), (4, cells(style=4), None), (4, cells(value="墙"), None),
        (4, cells(kind="n", value="3"), None), (4, cells(sst=7), None), (4, cells(extra=' vm="1"'), None),
        (4, cells(formula=({}, "1+1")), None),
    ]
    made = []
    for r, row, extra in variants * 2:  # the second time from the memo
        xml = sheetxml._row(r, list(row), dict(extra) if extra else None)
        assert xml == sheetxml.made_row(r, sorted(row, key=lambda x: x[0]), extra)
        made.append(xml)
    assert len(set(made)) == len(variants) and made[:len(variants)] == made[len(variants):]
