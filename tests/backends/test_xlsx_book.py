"""The xlsx adapter's model (book.py): a cell as the text a person sees, and what a change to a sheet marks
to be written again. Exact expectations, so that a changed comparison or constant fails a test."""

from __future__ import annotations

import pytest

from sheetgm.backends.xlsx.book import Book, Cell, Sheet, duration_text, text_of
from sheetgm.backends.xlsx.read import read_book
from sheetgm.backends.xlsx.styles import Styles
from sheetgm.backends.xlsx.write import write_book


def _book(num_fmt: int | None = None, code: str = "", date1904: bool = False) -> Book:
    styles = Styles()
    if num_fmt is not None:
        if code:
            styles.num_fmts[num_fmt] = code
        styles.xfs.append(f'<xf numFmtId="{num_fmt}" fontId="0" fillId="0" borderId="0" xfId="0"/>')
    return Book("t", [Sheet("A")], styles=styles, date1904=date1904)


@pytest.mark.parametrize(("cell", "text"), [
    (None, ""), (Cell(), ""), (Cell("s", "字"), "字"), (Cell("e", "#N/A"), "#N/A"),
    (Cell("b", "1"), "TRUE"), (Cell("b", "true"), "TRUE"), (Cell("b", "0"), "FALSE"), (Cell("b", "false"), "FALSE"),
    (Cell("n", "42"), "42"), (Cell("n", "-7"), "-7"), (Cell("n", "2.0"), "2"), (Cell("n", "1.5"), "1.5"),
    (Cell("n", "1E3"), "1000"), (Cell("n", "abc"), "abc"), (Cell("n", "nan"), "nan"), (Cell("n", "NaN"), "NaN"),
    (Cell("n", "Infinity"), "Infinity"), (Cell("s", "007"), "007"), (Cell("e", "1.50"), "1.50"),
    (Cell("n", "123456789012345678901"), "123456789012345678901"),
    (Cell("d", "2024-05-01T21:30:00"), "2024-05-01 21:30:00"), (Cell("d", "2014-02-14T08:27:48.765Z"),
                                                               "2014-02-14 08:27:48.765000"),
    (Cell("d", "not a date"), "not a date"),
])
def test_a_cell_reads_as_the_text_a_person_sees(cell: Cell | None, text: str) -> None:
    assert text_of(_book(), cell) == text


@pytest.mark.parametrize(("fmt", "code", "value", "text"), [
    (14, "", "45413", "2024-05-01 00:00:00"), (22, "", "45413.875", "2024-05-01 21:00:00"),
    (20, "", "0.5", "12:00:00"), (21, "", "0.999999", "23:59:59.914000"), (46, "", "1.5", "36:00:00"),
    (45, "", "0.25", "06:00:00"), (47, "", "0.0001", "00:00:08.640000"),
    (164, "yyyy-mm-dd", "1", "1900-01-01 00:00:00"), (164, "yyyy-mm-dd", "59", "1900-02-28 00:00:00"),
    (164, "yyyy-mm-dd", "60", "1900-02-28 00:00:00"),  # Excel's 29 February 1900, as openpyxl reads it
    (164, "yyyy-mm-dd", "61", "1900-03-01 00:00:00"), (164, "[h]:mm", "2.25", "54:00:00"),
    (164, "[mm]:ss", "0.5", "12:00:00"), (164, "HH[M]", "-1.2", "-28:48:00"), (164, "[S]", "1", "24:00:00"),
    (164, '"day" 0', "3", "3"), (164, "0.00", "0.5", "0.5"), (164, "[Red]0", "5", "5"), (164, "\\d0", "5", "5"),
    (164, "yyyy;@", "1", "1900-01-01 00:00:00"), (164, "mm:ss", "0.5", "12:00:00"),
    (164, "yyyy-mm-dd", "2958466", "2958466"),  # past the year 9999: shown as the number (Excel: ####)
])
def test_numbers_in_date_time_and_duration_formats(fmt: int, code: str, value: str, text: str) -> None:
    book = _book(fmt, code)
    assert text_of(book, Cell("n", value, style=1)) == text
    assert text_of(book, Cell("n", value, style=0)) == (value if not value.replace(".", "").lstrip("-").isdigit()
                                                        else text_of(_book(), Cell("n", value)))


def test_the_1904_date_system() -> None:
    assert text_of(_book(14, date1904=True), Cell("n", "0", style=1)) == "00:00:00"
    assert text_of(_book(14, date1904=True), Cell("n", "1", style=1)) == "1904-01-02 00:00:00"
    assert text_of(_book(14), Cell("n", "1", style=1)) == "1900-01-01 00:00:00"


@pytest.mark.parametrize(("days", "text"), [(0, "0:00:00"), (1, "24:00:00"), (1.5, "36:00:00"),
                                            (-0.5, "-12:00:00"), (1 / 86400 / 2, "0:00:00.500000"),
                                            (100.0 + 1 / 24 + 1 / 1440 + 1 / 86400, "2401:01:01")])
def test_durations(days: float, text: str) -> None:
    assert duration_text(days) == text


def test_extent_counts_every_cell_kept() -> None:
    sheet = Sheet("A")
    assert sheet.extent() == (1, 1)
    sheet.cells[(4, 2)] = Cell(style=3)
    sheet.cells[(1, 7)] = Cell("s", "x")
    assert sheet.extent() == (5, 8)


def _written(rows: int) -> Sheet:
    """A sheet as read from a file sheetgm wrote: its XML and its rows kept."""
    book = Book("t", [Sheet("A", cells={(r, 0): Cell("s", f"r{r}") for r in range(rows)})])
    again = read_book(write_book(book))
    return again.sheets[0]


def test_touching_a_row_keeps_the_xml_of_the_others() -> None:
    sheet = _written(3)
    # as read: its XML held compressed (source), not as text, and inflated only when a row changes
    assert sheet.written is None and sheet.rows_in_written and sheet.source is not None and not sheet.row_xml
    sheet.touch_row(1)
    assert sheet.written is None and not sheet.rows_in_written and sheet.source is None
    assert sorted(sheet.row_xml) == [0, 2] and ">r0<" in sheet.row_xml[0] and ">r2<" in sheet.row_xml[2]
    sheet.touch_rows({2})
    assert sorted(sheet.row_xml) == [0]
    sheet.touch_rows(set())
    assert sorted(sheet.row_xml) == [0]
    sheet.touch()
    assert sheet.row_xml == {} and sheet.written is None


def test_touching_outside_the_rows_keeps_every_row_and_leaves_out_emptied_ones() -> None:
    sheet = _written(3)
    sheet.cells[(1, 0)] = Cell()  # emptied since: the writer would leave the row out now
    sheet.touch_outside_rows()
    assert sorted(sheet.row_xml) == [0, 2] and sheet.written is None and sheet.source is None
    sheet.touch_outside_rows()  # nothing kept any more from a written XML: the rows stay as they are
    assert sorted(sheet.row_xml) == [0, 2]


def test_a_foreign_sheets_rows_are_not_taken_from_its_xml() -> None:
    for sheet in (Sheet("A", written='<row r="1"><c r="A1"/></row>', rows_in_written=False),
                  Sheet("A", written='<row r="1"><c r="A1"/></row>')):  # not from a file sheetgm wrote, by default
        sheet.cells[(0, 0)] = Cell("s", "x")
        sheet.touch_outside_rows()
        assert sheet.row_xml == {}


def test_book_sheet_finds_by_exact_name() -> None:
    book = Book("t", [Sheet("A"), Sheet("a")])
    assert book.sheet("a") is book.sheets[1] and book.sheet("A") is book.sheets[0] and book.sheet("B") is None


def test_an_empty_root_takes_children_when_written_again() -> None:
    """A part written as an empty root (<styleSheet .../>): its start tag is kept as one that can hold the
    elements written into it."""
    from sheetgm.backends.xlsx.xmlkit import skeleton

    skel = skeleton(b'<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" a="1"/>')
    assert skel.root.endswith('a="1">') and skel.end == "</styleSheet>" and skel.children == []
