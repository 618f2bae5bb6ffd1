"""What reading a large sheet costs, pinned where a change would not alter the cells read: a large sheet's cells
are counted before it is parsed exactly from 256 KB of sheetData up, and a sheet past 1 MB is parsed as it
streams in, each row dropped once read, so the memory a read takes stays a small multiple of the part's size
(tracemalloc's peak: deterministic, not a timing)."""

from __future__ import annotations

import io
import tracemalloc
import zipfile
from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest

from sheetgm.backends.errors import UnreadableFileError
from sheetgm.backends.xlsx.package import LIMITS
from sheetgm.backends.xlsx.read import read_book

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
ESTIMATE_ABOVE = 1 << 18  # read.py's _ESTIMATE_ABOVE
SHEET = "xl/worksheets/sheet1.xml"


def _book_with(tmp_path: Path, sheet: bytes) -> bytes:
    wb = openpyxl.Workbook()
    wb.save(tmp_path / "big.xlsx")
    out = io.BytesIO()
    with zipfile.ZipFile(tmp_path / "big.xlsx") as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            dst.writestr(info.filename, sheet if info.filename == SHEET else src.read(info.filename))
    return out.getvalue()


def _empty_rows(size: int) -> tuple[bytes, int]:
    """A sheet whose <sheetData>…</sheetData> is exactly ``size`` bytes of rows of 9 empty cells each (10
    elements a row, one cell counted once parsed) and one empty row (an odd count of elements), and its number of
    rows of cells."""
    row = "<row>" + "<c/>" * 9 + "</row>"
    n = (size - len("<sheetData><row/></sheetData>")) // len(row)
    body = "<sheetData>" + row * n + "<row/>"
    body += " " * (size - len(body) - len("</sheetData>")) + "</sheetData>"
    assert len(body) == size
    return f'<worksheet xmlns="{MAIN}">{body}</worksheet>'.encode(), n


@pytest.mark.parametrize(("size", "counted"), [(ESTIMATE_ABOVE, False), (ESTIMATE_ABOVE + 1, True)])
def test_a_sheet_is_counted_before_parsing_from_256_kb_of_sheet_data_up(tmp_path: Path, size: int,
                                                                        counted: bool) -> None:
    """Each row of 9 empty cells costs one cell once parsed, but 10 elements (5 cells) on the count before
    parsing: with a limit between the two, the count alone refuses the sheet, and only a sheet past the bound
    is counted."""
    sheet, rows = _empty_rows(size)
    limits = replace(LIMITS, cells=rows * 2)  # the rows fit; their elements // 2 (5 a row) do not
    data = _book_with(tmp_path, sheet)
    if counted:
        with pytest.raises(UnreadableFileError) as err:
            read_book(data, limits)
        assert err.value.code == "err.backend.file.too_many_cells" and err.value.params["limit"] == rows * 2
    else:
        assert read_book(data, limits).sheets[0].cells == {}
    read_book(data, replace(limits, cells=rows * 5))  # the count itself: 10 elements a row and one, halved


def _peak(data: bytes) -> tuple[int, int]:
    tracemalloc.start()
    try:
        book = read_book(data, replace(LIMITS, cells=10**6))
        return tracemalloc.get_traced_memory()[1], len(book.sheets[0].cells)
    finally:
        tracemalloc.stop()


def test_a_sheet_past_1_mb_is_parsed_row_by_row_in_memory_a_small_multiple_of_its_size(tmp_path: Path) -> None:
    """12,000 rows of 8 cells with a type and a style but no value (kept: none): 1.8 MB of XML, 108,000
    elements. Parsed whole, or streamed with the rows read kept in the tree, the elements take over 20 times
    the part's size; streamed and released, about 6 times (the part, its copy wrapped for the parser, the
    count of its elements)."""
    rows = "".join(f'<row r="{r}">' + '<c t="n" s="0"/>' * 8 + "</row>" for r in range(1, 12001))
    sheet = f'<worksheet xmlns="{MAIN}"><sheetData>{rows}</sheetData></worksheet>'.encode()
    assert len(sheet) > 1 << 20
    peak, kept = _peak(_book_with(tmp_path, sheet))
    assert kept == 0
    assert peak < 10 * len(sheet), f"reading a {len(sheet):,}-byte sheet took {peak:,} bytes at its peak"


@pytest.mark.parametrize(("size", "counted"), [(ESTIMATE_ABOVE, False), (ESTIMATE_ABOVE + 1, True)])
def test_shared_strings_are_counted_before_parsing_from_256_kb_up(tmp_path: Path, size: int, counted: bool,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Either way a table past the limit is refused; only a table past 256 KB is refused before it is parsed."""
    from sheetgm.backends.xlsx import read

    item = "<si><t>" + "x" * 100 + "</t></si>"
    head, tail = f'<sst xmlns="{MAIN}">', "</sst>"
    n = (size - len(head) - len(tail)) // len(item)
    sst = head + item * n
    sst += " " * (size - len(sst) - len(tail)) + tail
    assert len(sst) == size
    rel = ('<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
           'sharedStrings" Target="sharedStrings.xml"/></Relationships>')
    wb = openpyxl.Workbook()
    wb.save(tmp_path / "s.xlsx")
    out = io.BytesIO()
    with zipfile.ZipFile(tmp_path / "s.xlsx") as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == "xl/_rels/workbook.xml.rels":
                body = body.replace(b"</Relationships>", rel.encode())
            dst.writestr(info.filename, body)
        dst.writestr("xl/sharedStrings.xml", sst)
    parsed: list[str] = []
    real = read._elements
    monkeypatch.setattr(read, "_elements", lambda data, *a: parsed.append(a[0]) or real(data, *a))
    with pytest.raises(UnreadableFileError) as err:
        read_book(out.getvalue(), replace(LIMITS, strings=n - 1))
    assert err.value.code == "err.backend.file.too_many_strings" and err.value.params["limit"] == n - 1
    assert (read._SST in parsed) == (not counted)


def test_the_elements_of_every_large_sheet_count_together(tmp_path: Path) -> None:
    """Two large sheets, each within the limit on its own count (5 a row), over it together."""
    sheet, rows = _empty_rows(ESTIMATE_ABOVE + 1)
    wb = openpyxl.Workbook()
    wb.create_sheet("Two")
    wb.save(tmp_path / "two.xlsx")
    out = io.BytesIO()
    with zipfile.ZipFile(tmp_path / "two.xlsx") as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            dst.writestr(info.filename, sheet if info.filename.startswith("xl/worksheets/sheet")
                         else src.read(info.filename))
    data = out.getvalue()
    assert len(read_book(data, replace(LIMITS, cells=rows * 10 + 1)).sheets) == 2  # (2 x (10 rows + 1)) // 2
    with pytest.raises(UnreadableFileError) as err:
        read_book(data, replace(LIMITS, cells=rows * 10))
    assert err.value.code == "err.backend.file.too_many_cells"
