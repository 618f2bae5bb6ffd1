"""A column width set again as it is leaves the sheet's columns as setting it made them (``cells.set_width``
passes over a single column already so): a range of columns is still split, a width that differs still set."""

from __future__ import annotations

from sheetgm.backends.xlsx.book import Col, Sheet
from sheetgm.backends.xlsx.cells import set_width


def _cols(sheet: Sheet) -> list[tuple[int, int, dict[str, str]]]:
    return [(c.min, c.max, c.attrs) for c in sheet.cols]


def test_a_width_set_again_leaves_the_columns_as_they_are() -> None:
    sheet = Sheet("Map", cols=[Col(1, 3, {"style": "2", "width": repr(44 / 7), "customWidth": "1"})])
    set_width(sheet, 1, 44 / 7)  # inside a range of columns holding that width already: split all the same
    assert _cols(sheet) == [(1, 1, {"style": "2", "width": repr(44 / 7), "customWidth": "1"}),
                            (2, 2, {"style": "2", "width": repr(44 / 7), "customWidth": "1"}),
                            (3, 3, {"style": "2", "width": repr(44 / 7), "customWidth": "1"})]
    before = _cols(sheet)
    for c in range(3):
        set_width(sheet, c, 44 / 7)
    assert _cols(sheet) == before
    set_width(sheet, 1, 5.0)
    assert _cols(sheet)[1] == (2, 2, {"style": "2", "width": "5.0", "customWidth": "1"})
    sheet.cols[0].attrs["customWidth"] = "0"  # the width, but not said to be custom: set
    set_width(sheet, 0, 44 / 7)
    assert _cols(sheet)[0] == (1, 1, {"style": "2", "width": repr(44 / 7), "customWidth": "1"})
    set_width(sheet, 5, 2.0)
    assert _cols(sheet)[-1] == (6, 6, {"width": "2.0", "customWidth": "1"})


def test_resize_columns_makes_the_columns_setting_each_width_in_turn_makes() -> None:
    import copy
    import random

    from sheetgm.backends import port
    from sheetgm.backends.a1 import parse_range
    from sheetgm.backends.xlsx.book import Book
    from sheetgm.backends.xlsx.cells import PX_PER_CHAR, apply

    rng = random.Random(5)
    for _ in range(200):
        cols, at = [], 1
        for _ in range(rng.randint(0, 6)):
            span = rng.choice([0, 0, 1, 3])
            width = rng.choice([repr(44 / 7), repr(50 / 7), "9"])
            cols.append(Col(at, at + span, {"width": width, "customWidth": rng.choice(["1", "0"])}))
            at += span + rng.randint(1, 2)
        sheet = Sheet("Map", cols=cols)
        alone = copy.deepcopy(sheet)
        a, b = sorted(rng.sample(range(12), 2))
        op = port.ResizeColumns(f"Map!{'ABCDEFGHIJKL'[a]}:{'ABCDEFGHIJKL'[b]}", rng.choice([44, 50]))
        apply(Book("t", [sheet]), sheet, op, parse_range(op.range))
        for c in range(a, b + 1):
            set_width(alone, c, op.width / PX_PER_CHAR)
        assert _cols(sheet) == _cols(alone)


def test_the_cols_element_is_made_from_the_columns_as_they_are_now() -> None:
    from sheetgm.backends.xlsx import sheetxml, xmlkit

    def plain(sheet: Sheet) -> str:
        return "<cols>" + "".join(f'<col min="{c.min}" max="{c.max}"{xmlkit.attrs(c.attrs)}/>'
                                  for c in sorted(sheet.cols, key=lambda c: c.min)) + "</cols>"

    sheet = Sheet("Map", cols=[Col(3, 3, {"width": "5.0", "customWidth": "1"}), Col(1, 2, {"style": "4"})])
    assert sheetxml._cols(sheet) == plain(sheet)
    sheet.cols[0].attrs["width"] = 'a"b'  # changed in place: made again, escaped
    assert sheetxml._cols(sheet) == plain(sheet) and "a&quot;b" in sheetxml._cols(sheet)
    set_width(sheet, 0, 7.0)
    assert sheetxml._cols(sheet) == plain(sheet)
