"""A save never damages a workbook (issue 29): a part written with a namespace prefix, a part in UTF-16, a
character escaped as a UTF-16 pair, a shared formula saved without results, and a file whose rows all show one
huge text are read as the witnesses read them and saved as every program still reads them, at the cost of a read.
The files that broke are in tests/fixtures/xlsx-saves (sources and licenses in its README)."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

import openpyxl
import pytest
from xlsx_witness import as_text, by_calamine, by_openpyxl, ours, save_one_cell

from sheetgm.backends.a1 import parse_range
from sheetgm.backends.errors import UnreadableFileError
from sheetgm.backends.port import SetValues
from sheetgm.backends.xlsx import cells, kept, read, xmlkit
from sheetgm.backends.xlsx.book import Cell, text_of
from sheetgm.backends.xlsx.formulas import moved
from sheetgm.backends.xlsx.package import as_utf8
from sheetgm.backends.xlsx.read import read_book
from sheetgm.backends.xlsx.write import write_book

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "xlsx-saves"
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
CT = "application/vnd.openxmlformats-officedocument.spreadsheetml"


def _package(sheet: str, styles: str | None = None, strings: list[str] | None = None,
             workbook: str | None = None, extra: dict[str, str] | None = None, links: str = "") -> bytes:
    """A one-tab workbook of the parts given (XML text), the others plain; ``extra`` parts and ``links`` of the
    workbook besides."""
    parts = {
        "[Content_Types].xml": '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        f'<Override PartName="/xl/workbook.xml" ContentType="{CT}.sheet.main+xml"/>'
        f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{CT}.worksheet+xml"/>'
        f'<Override PartName="/xl/styles.xml" ContentType="{CT}.styles+xml"/>'
        f'<Override PartName="/xl/sharedStrings.xml" ContentType="{CT}.sharedStrings+xml"/></Types>',
        "_rels/.rels": f'<Relationships xmlns="{PKG}"><Relationship Id="rId1" Type="{REL}/officeDocument" '
        'Target="xl/workbook.xml"/></Relationships>',
        "xl/_rels/workbook.xml.rels": f'<Relationships xmlns="{PKG}">'
        f'<Relationship Id="rId1" Type="{REL}/worksheet" Target="worksheets/sheet1.xml"/>'
        f'<Relationship Id="rId2" Type="{REL}/styles" Target="styles.xml"/>'
        f'<Relationship Id="rId3" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/>{links}</Relationships>',
        "xl/workbook.xml": workbook or f'<workbook xmlns="{MAIN}" xmlns:r="{REL}"><sheets>'
        '<sheet name="Tab" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/worksheets/sheet1.xml": sheet,
        "xl/styles.xml": styles or f'<styleSheet xmlns="{MAIN}"><fonts count="1"><font><sz val="11"/></font></fonts>'
        '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/>'
        '</fill></fills><borders count="1"><border/></borders><cellXfs count="1"><xf numFmtId="0" fontId="0" '
        'fillId="0" borderId="0"/></cellXfs></styleSheet>',
        "xl/sharedStrings.xml": f'<sst xmlns="{MAIN}">' + "".join(f"<si><t>{t}</t></si>" for t in strings or [])
        + "</sst>",
        **(extra or {}),
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in parts.items():
            z.writestr(name, text.encode("utf-8"))
    return out.getvalue()


def _texts(data: bytes) -> dict[str, dict[tuple[int, int], str]]:
    return ours(read_book(data))


def _part(data: bytes, name: str) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return z.read(name)


# -- (a) namespace prefixes ------------------------------------------------------------------------------------

PREFIXED_STYLES = (  # no number-format list: the date format is a built-in one (14)
    f'<x:styleSheet xmlns:x="{MAIN}"><x:fonts count="1"><x:font><x:sz val="11"/><x:name val="Calibri"/></x:font>'
    '</x:fonts><x:fills count="2"><x:fill><x:patternFill patternType="none"/></x:fill><x:fill><x:patternFill '
    'patternType="gray125"/></x:fill></x:fills><x:borders count="1"><x:border/></x:borders><x:cellStyleXfs '
    'count="1"><x:xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></x:cellStyleXfs><x:cellXfs count="3">'
    '<x:xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><x:xf numFmtId="14" fontId="0" fillId="0" '
    'borderId="0" xfId="0" applyNumberFormat="1"/><x:xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" '
    'applyNumberFormat="1"/></x:cellXfs><x:cellStyles count="1"><x:cellStyle name="Normal" xfId="0" builtinId="0"/>'
    "</x:cellStyles></x:styleSheet>")
PREFIXED_SHEET = (f'<x:worksheet xmlns:x="{MAIN}"><x:sheetData><x:row r="1"><x:c r="A1" s="1"><x:v>44348</x:v></x:c>'
                  '<x:c r="B1" s="2"><x:v>1234.5</x:v></x:c></x:row><x:row r="2"><x:c r="A2" s="1"><x:v>44349</x:v>'
                  "</x:c></x:row></x:sheetData></x:worksheet>")
PREFIXED_BOOK = (f'<x:workbook xmlns:x="{MAIN}" xmlns:r="{REL}"><x:workbookProtection lockStructure="1"/><x:sheets>'
                 '<x:sheet name="Tab" sheetId="1" r:id="rId1"/></x:sheets></x:workbook>')


def test_a_prefixed_style_table_without_number_formats_reads_its_dates_and_a_save_keeps_them() -> None:
    data = _package(PREFIXED_SHEET, PREFIXED_STYLES, workbook=PREFIXED_BOOK)
    book = read_book(data)
    assert len(book.styles.xfs) == 3
    assert _texts(data)["Tab"] == {(0, 0): "2021-06-01 00:00:00", (0, 1): "1234.5", (1, 0): "2021-06-02 00:00:00"}
    saved = save_one_cell(data)  # a bold cell: a new style, the table written anew
    assert saved.value_changes == [] and saved.dropped_elements == []  # (the lock kept as written, prefixed)
    assert by_openpyxl(saved.saved)["Tab"] == {**_texts(data)["Tab"], (2, 0): "sheetgm"}
    count = int(re.search(rb'<cellXfs count="(\d+)"', _part(saved.saved, "xl/styles.xml")).group(1))  # type: ignore
    marks = [int(s) for s in re.findall(rb' s="(\d+)"', _part(saved.saved, "xl/worksheets/sheet1.xml"))]
    assert count == 4 and marks and max(marks) < count  # every cell points into the table


def test_prefixed_files_of_other_programs_read_their_dates_as_the_witnesses_do() -> None:
    data = (FIXTURES / "openxmlsdk-Spreadsheet.xlsx").read_bytes()
    book = read_book(data)
    assert text_of(book, book.sheets[1].cells[(9, 1)]) == "2015-07-04 00:00:00"
    assert _texts(data) == by_openpyxl(data)
    kept_ = save_one_cell(data)
    assert kept_.value_changes == [] and kept_.dropped_elements == [] and kept_.dropped_parts == []
    again = by_openpyxl(kept_.saved)
    again["Sheet1"].pop(max(again["Sheet1"]))  # the cell written
    assert again == by_openpyxl(data)


def test_alternate_content_among_the_fonts_is_one_font_each() -> None:
    """Hancell gives some fonts as mc:AlternateContent (a choice with its extension, a fallback): 36 <xf> and 18
    <font> elements stand for 29 cell formats and 14 fonts, and a save keeps each cell's look."""
    data = (FIXTURES.parent / "xlsx" / "poi-style-alternate-content.xlsx").read_bytes()
    book = read_book(data)
    assert (len(book.styles.xfs), len(book.styles.fonts), len(book.styles.borders)) == (29, 14, 13)
    looks = {rc: book.styles.look(c.style) for rc, c in book.sheets[0].cells.items()}
    assert len(set(map(repr, looks.values()))) > 1
    saved = read_book(save_one_cell(data).saved)
    assert {rc: saved.styles.look(c.style) for rc, c in saved.sheets[0].cells.items() if rc in looks} == looks


# -- (b) encodings -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["phpspreadsheet-utf16be.xlsx", "phpspreadsheet-utf16be.bom.xlsx"])
def test_a_workbook_part_in_utf16_is_read_and_written_back_in_utf8(name: str) -> None:
    data = (FIXTURES / name).read_bytes()
    assert _part(data, "xl/workbook.xml")[:4] in (b"\x00<\x00?", b"\xfe\xff\x00<")
    assert _texts(data) == by_openpyxl(data)
    kept_ = save_one_cell(data)
    assert (kept_.value_changes, kept_.dropped_elements, kept_.dropped_parts) == ([], [], [])
    written = _part(kept_.saved, "xl/workbook.xml")
    written.decode("utf-8")
    assert not written.startswith(b"<?xml") or b'encoding="UTF-8"' in written[:100]
    assert by_openpyxl(kept_.saved) == {"Sheet1": {**by_openpyxl(data)["Sheet1"], (1, 0): "sheetgm"}}
    assert read_book(save_one_cell(kept_.saved).saved)  # and saved again


def test_a_part_in_any_declared_encoding_reads_as_utf8_and_a_dtd_in_utf16_is_still_refused() -> None:
    latin = '<?xml version="1.0" encoding="ISO-8859-1" standalone="yes"?><a>é</a>'.encode("latin-1")
    assert as_utf8(latin) == '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><a>é</a>'.encode()
    utf16 = '<?xml version="1.0" encoding="UTF-16"?><a>门</a>'
    for data in (utf16.encode("utf-16-le"), utf16.encode("utf-16"), utf16.encode("utf-16-be")):
        assert as_utf8(data) == '<?xml version="1.0" encoding="UTF-8"?><a>门</a>'.encode()
    assert as_utf8(b"<a/>") == b"<a/>"
    with pytest.raises(ValueError):
        as_utf8(b'<?xml version="1.0" encoding="no-such-codec"?><a/>')
    sheet = (f'<worksheet xmlns="{MAIN}"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData>'
             "</worksheet>")
    data = _package(sheet, strings=["é"])
    assert _texts(data) == {"Tab": {(0, 0): "é"}}
    bomb = '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE a [<!ENTITY x "y">]>' + sheet
    with zipfile.ZipFile(io.BytesIO(data)) as z, io.BytesIO() as out:
        with zipfile.ZipFile(out, "w") as w:
            for info in z.infolist():
                body = z.read(info.filename)
                w.writestr(info.filename, bomb.encode("utf-16") if info.filename.endswith("sheet1.xml") else body)
        with pytest.raises(UnreadableFileError) as refused:
            read_book(out.getvalue())
    assert refused.value.code == "err.backend.file.doctype"


def test_a_sheet_in_utf16_is_written_anew_in_utf8_when_a_cell_of_it_changes() -> None:
    """(Windows Phone's Excel writes every part in UTF-16 LE with a byte order mark: a save that wrote into such a
    sheet failed.)"""
    sheet = (f'<?xml version="1.0" encoding="UTF-16" standalone="yes"?><worksheet xmlns="{MAIN}"><sheetData>'
             '<row r="1"><c r="A1" t="inlineStr"><is><t>门</t></is></c></row></sheetData></worksheet>')
    data = _package("<worksheet/>")
    with zipfile.ZipFile(io.BytesIO(data)) as z, io.BytesIO() as out:
        with zipfile.ZipFile(out, "w") as w:
            for info in z.infolist():
                w.writestr(info.filename, sheet.encode("utf-16") if info.filename.endswith("sheet1.xml")
                           else z.read(info.filename))
        data = out.getvalue()
    assert _texts(data) == {"Tab": {(0, 0): "门"}}
    saved = save_one_cell(data)
    assert saved.value_changes == [] and _texts(saved.saved) == {"Tab": {(0, 0): "门", (1, 0): "sheetgm"}}
    assert _part(saved.saved, "xl/worksheets/sheet1.xml").startswith(b"<worksheet")


def test_a_tab_entry_without_a_part_keeps_its_place_among_the_tabs() -> None:
    """An Excel 5 macro sheet's entry has no part (``r:id=""``): dropped, the tabs after it moved up one, and the
    defined names that say their tab by position (localSheetId) named another tab or none, which LibreOffice
    refused to open (ClosedXML's tdf111974.xlsm)."""
    book_xml = (f'<workbook xmlns="{MAIN}" xmlns:r="{REL}"><sheets><sheet name="Macro" sheetId="2" state="veryHidden" '
                'r:id=""/><sheet name="Tab" sheetId="1" r:id="rId1"/></sheets><definedNames><definedName '
                'name="_xlnm.Print_Area" localSheetId="1">Tab!$A$1:$B$2</definedName></definedNames></workbook>')
    sheet = f'<worksheet xmlns="{MAIN}"><sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData></worksheet>'
    unnamed = f'<Relationship Id="rId9" Type="{REL}/worksheet" Target="worksheets/sheet2.xml"/>'  # no entry names it
    saved = save_one_cell(_package(sheet, workbook=book_xml, extra={"xl/worksheets/sheet2.xml": sheet},
                                   links=unnamed))
    written = _part(saved.saved, "xl/workbook.xml").decode()
    assert re.findall(r'<sheet name="(\w+)"', written) == ["Macro", "Tab"]
    assert 'localSheetId="1"' in written and saved.value_changes == [] and saved.dropped_parts == []
    assert b'Id="rId9"' in _part(saved.saved, "xl/_rels/workbook.xml.rels")


# -- (c) the cost of a save ----------------------------------------------------------------------------------------


@pytest.fixture
def fresh_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """A cache folder of its own, and the bytes kept's digests hash (counted)."""
    monkeypatch.setenv("SHEETGM_CACHE_DIR", str(tmp_path))
    kept.reset()
    hashed = [0]
    plain = kept._blake2b

    def counted(data: bytes, **options: object) -> object:
        hashed[0] += len(data)
        return plain(data, **options)

    monkeypatch.setattr(kept, "_blake2b", counted)
    yield hashed
    kept.reset()


def test_a_save_of_rows_showing_one_huge_text_digests_a_bounded_share(fresh_kept: list[int]) -> None:
    """POI's poc-shared-strings: 12,000 cells show one 1 MB shared string. Each written row's key held it: every
    save hashed 12 GB (~21 s). What kept digests in a run is bounded by LOOK_LIMIT, whatever the keys hold."""
    data = (FIXTURES / "poi-poc-shared-strings.xlsx").read_bytes()
    for _run in range(2):  # a cold table, then one the first run wrote
        kept.reset()
        saved = save_one_cell(data)
        kept.save()
        assert saved.value_changes == []
    assert 0 < fresh_kept[0] <= 4 * (kept.LOOK_LIMIT + (1 << 20))  # (each run: its share, one key past it)


def test_a_keys_size_is_what_it_holds() -> None:
    assert kept.size("abc") == 3 and kept.size(b"ab") == 2
    assert kept.size((1, ("x" * 1000, 2), "yy")) >= 1002


# -- (d) characters past U+FFFF ------------------------------------------------------------------------------------


def test_an_escaped_utf16_pair_is_its_character_and_a_lone_half_stays_as_written() -> None:
    assert xmlkit.unescape("a_xD801__xDC05_b") == "a\U00010405b"
    assert xmlkit.unescape("_xd83d__xde00_") == "\U0001f600"
    assert xmlkit.unescape("_xD801__x0038_") == "_xD801_8"
    assert xmlkit.unescape("_x0039__xDC05_") == "9_xDC05_"
    assert xmlkit.unescape("_xDF39__xDC05_") == "_xDF39__xDC05_"
    # escapes read left to right, each once: an escaped underscore does not make the next one
    assert xmlkit.unescape("_x005F_x0041_ _x0041_x0042_ _x000a__x000A_x_x41_") == "_x0041_ Ax0042_ \n\nx_x41_"
    data = (FIXTURES / "phpspreadsheet-issue.4724.xlsx").read_bytes()
    texts = _texts(data)["Worksheet"]
    assert [texts.get((r, 0), "") for r in range(3, 8)] == ["\uc1ef", "\U00010405", "_xD801_8", "9_xDC05_",
                                                           "_xDF39__xDC05_"]
    assert not any(0xD800 <= ord(ch) <= 0xDFFF for text in texts.values() for ch in text)


def test_a_character_past_uffff_is_written_back_and_read_again() -> None:
    sheet = (f'<worksheet xmlns="{MAIN}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>a_xD801__xDC05_b</t>'
             '</is></c><c r="B1" t="s"><v>0</v></c><c r="C1" t="inlineStr"><is><t>lone_xD801_</t></is></c></row>'
             "</sheetData></worksheet>")
    data = _package(sheet, strings=["x_xD83D__xDE00_y"])
    before = _texts(data)["Tab"]
    assert before == {(0, 0): "a\U00010405b", (0, 1): "x\U0001f600y", (0, 2): "lone_xD801_"}
    saved = save_one_cell(data)
    assert saved.value_changes == []
    assert _texts(saved.saved)["Tab"] == {**before, (1, 0): "sheetgm"}
    assert by_openpyxl(saved.saved) == {"Tab": {**by_openpyxl(data)["Tab"], (1, 0): "sheetgm"}}  # kept as written
    book = read_book(data)
    cells.apply(book, book.sheets[0], SetValues("'Tab'!D1", [["\U00010405"]]), parse_range("'Tab'!D1"))
    written = write_book(book)
    assert "<t>\U00010405</t>".encode() in _part(written, "xl/worksheets/sheet1.xml")  # a new text: the character
    assert by_openpyxl(written)["Tab"][(0, 3)] == "\U00010405"


# -- (e) shared formulas without results ---------------------------------------------------------------------------


def test_a_shared_formula_without_results_reads_in_each_cell_as_openpyxl_gives_it(tmp_path: Path) -> None:
    sheet = (f'<worksheet xmlns="{MAIN}"><sheetData>'
             '<row r="2"><c r="A2"><v>1</v></c><c r="B2"><f t="shared" ref="B2:C4" si="0">A2*2+$A$2+SUM(A:A)</f>'
             '</c><c r="C2"><f t="shared" si="0"/></c></row>'
             '<row r="3"><c r="B3"><f t="shared" si="0"/></c><c r="C3"><f t="shared" si="0"/><v>7</v></c></row>'
             '<row r="4"><c r="B4"><f t="shared" si="9"/></c></row></sheetData></worksheet>')
    data = _package(sheet)
    texts = _texts(data)["Tab"]
    assert texts == {(1, 0): "1", (1, 1): "=A2*2+$A$2+SUM(A:A)", (1, 2): "=B2*2+$A$2+SUM(B:B)",
                     (2, 1): "=A3*2+$A$2+SUM(A:A)", (2, 2): "7"}  # a result read as such; an unknown si: nothing
    (tmp_path / "w.xlsx").write_bytes(data)
    ws = openpyxl.load_workbook(tmp_path / "w.xlsx").active
    assert all(as_text(ws.cell(r + 1, c + 1).value) == text for (r, c), text in texts.items() if (r, c) != (2, 2))
    saved = save_one_cell(data)
    assert saved.value_changes == []
    written = _part(saved.saved, "xl/worksheets/sheet1.xml")  # each cell's formula written as it was: none
    assert len(re.findall(rb'<f t="shared" si="0"(?:/>|></f>)', written)) == 3


def test_a_filled_down_formula_of_a_real_file_reads_in_every_cell() -> None:
    data = (FIXTURES / "phpspreadsheet-issue.3720.xlsx").read_bytes()
    texts = _texts(data)
    assert not any(t == "=" for tab in texts.values() for t in tab.values())
    assert texts["Sheet 1"][(12, 8)] == '=IF(ROW()<=NoSections+11,ROW()-11,"")'


def test_moving_a_formula_keeps_what_is_fixed_quoted_or_a_name() -> None:
    assert moved("SUM($A$1:A2)+LOG10(B3)", 3, 1) == "SUM($A$1:B5)+LOG10(C6)"
    assert moved("'My Sheet'!C3+A:A+2:2&\"A1\"", 3, 1) == "'My Sheet'!D6+B:B+5:5&\"A1\""
    assert moved("Table1[Col1]+A1+$B1+C$1", 3, 1) == "Table1[Col1]+B4+$B4+D$1"
    assert moved("A1+B2", -1, 0) == "#REF!+B1"
    assert moved("A1", 0, 0) == "A1"


def test_the_formulas_moved_into_sharing_cells_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long formula filled down every row would be hundreds of MB of texts: past FORMULA_CHARS of them a cell
    sharing it reads as empty (as a witness reads a cell without a result), never as a bare "="."""
    monkeypatch.setattr(read, "FORMULA_CHARS", 25)
    rows = '<row r="1"><c r="A1"><f t="shared" ref="A1:A9" si="0">B1+C1</f></c></row>' + "".join(
        f'<row r="{r}"><c r="A{r}"><f t="shared" si="0"/></c></row>' for r in range(2, 10))
    texts = _texts(_package(f'<worksheet xmlns="{MAIN}"><sheetData>{rows}</sheetData></worksheet>'))["Tab"]
    assert texts == {(0, 0): "=B1+C1", **{(r, 0): f"=B{r + 1}+C{r + 1}" for r in range(1, 6)}}


def test_an_inline_texts_blanks_written_without_preserve_are_written_back_as_they_were() -> None:
    """`<t>in </t>`: Excel and calamine (and the codec) read "in", LibreOffice and openpyxl "in ". A save that
    wrote "in" would change what LibreOffice shows: the text is written back as the file had it while it is the
    same; a text sheetgm writes is written as its own."""
    sheet = (f'<worksheet xmlns="{MAIN}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>in </t></is></c>'
             '<c r="B1" t="inlineStr"><is><t>\n two_x0041_</t></is></c><c r="C1" t="inlineStr"><is><t>c </t></is></c>'
             "</row></sheetData></worksheet>")
    data = _package(sheet)
    assert _texts(data)["Tab"] == {(0, 0): "in", (0, 1): "twoA", (0, 2): "c"}
    book = read_book(data)
    cells.apply(book, book.sheets[0], SetValues("'Tab'!C1", [["changed"]]), parse_range("'Tab'!C1"))
    written = _part(write_book(book), "xl/worksheets/sheet1.xml")
    assert b"<t>in </t>" in written and b"<t>\n two_x0041_</t>" in written and b"<t>changed</t>" in written
    saved = save_one_cell(data)
    assert saved.value_changes == [] and by_openpyxl(saved.saved)["Tab"] == {**by_openpyxl(data)["Tab"],
                                                                             (1, 0): "sheetgm"}


def test_an_iso_time_with_more_than_microseconds_reads_to_the_microsecond() -> None:
    """Strict files (ExcelDataReader's) hold times as t="d" cells: "10:59:59.9999999999984025" read as written
    agreed with no witness."""
    book = read_book(_package(f'<worksheet xmlns="{MAIN}"><sheetData/></worksheet>'))
    assert [text_of(book, Cell("d", v)) for v in ("10:59:59.9999999999984025", "12:00:00.000",
                                                  "2018-03-06T07:01:12.0823891Z", "not a date")] == [
        "10:59:59.999999", "12:00:00", "2018-03-06 07:01:12.082389", "not a date"]


def test_an_inline_rich_text_is_written_back_with_its_runs_while_unchanged() -> None:
    """roo's richtext_example: runs "Example" and " richtext" (no preserve): the codec reads "Examplerichtext",
    LibreOffice and openpyxl "Example richtext"; written back flat, they read the save otherwise."""
    runs = '<r><rPr><b val="1"/></rPr><t>Example</t></r><r><rPr><i val="1"/></rPr><t> richtext</t></r>'
    sheet = (f'<worksheet xmlns="{MAIN}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is>{runs}</is></c>'
             '<c r="B1" t="inlineStr"><is><t>x_x000D_y</t></is></c></row></sheetData></worksheet>')
    data = _package(sheet)
    saved = save_one_cell(data)
    written = _part(saved.saved, "xl/worksheets/sheet1.xml")
    assert runs.encode() in written and b"<t>x_x000D_y</t>" in written
    assert by_openpyxl(saved.saved) == {"Tab": {**by_openpyxl(data)["Tab"], (1, 0): "sheetgm"}}
    assert saved.value_changes == []


def test_a_shared_string_of_blanks_only_keeps_its_entry_through_a_save() -> None:
    """calamine's encoded_entities: `<t>&#xA;</t>` (no preserve) reads as empty, as Excel and calamine read it;
    LibreOffice and openpyxl show a line break. The cell keeps its entry, so a save shows them the same."""
    data = (FIXTURES / "calamine-encoded_entities.xlsx").read_bytes()
    book = read_book(data)
    cell = book.sheets[0].cells[(1, 0)]
    assert (cell.kind, cell.value, cell.sst) == ("s", "", 1)
    assert by_openpyxl(data)["Sheet1"] == {(0, 0): "&", (1, 0): "\n"}
    saved = save_one_cell(data)
    assert b'<c r="A2" t="s"><v>1</v></c>' in _part(saved.saved, "xl/worksheets/sheet1.xml")
    assert by_openpyxl(saved.saved)["Sheet1"] == {(0, 0): "&", (1, 0): "\n", (2, 0): "sheetgm"}
    assert saved.value_changes == []
    empty = _package(f'<worksheet xmlns="{MAIN}"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c>'
                     '<c r="B1" t="s"><v>1</v></c></row></sheetData></worksheet>', strings=["", " "])
    assert [c.sst for c in read_book(empty).sheets[0].cells.values()] == [-1, 1]  # empty as written: no entry


def test_a_formula_text_result_holding_an_escape_is_written_back_as_the_file_had_it() -> None:
    """SheetJS's crlf: a formula's saved text result `abc_x000D_\\ndef` (openpyxl reads it as written, calamine
    decodes it) was written back decoded, as a carriage return, which openpyxl then read otherwise."""
    data = (FIXTURES / "sheetjs-crlf.xlsx").read_bytes()
    assert _texts(data)["Sheet1"][(1, 1)] == "abc\r\ndef"
    saved = save_one_cell(data)
    assert b"<v>abc_x000D_\ndef</v>" in _part(saved.saved, "xl/worksheets/sheet1.xml")
    assert by_openpyxl(saved.saved)["Sheet1"] == {**by_openpyxl(data)["Sheet1"], (3, 0): "sheetgm"}
    assert by_calamine(saved.saved)["Sheet1"] == {**by_calamine(data)["Sheet1"], (3, 0): "sheetgm"}
    assert saved.value_changes == []
    book = read_book(data)  # the same text written over it: an inline text of its own, the formula gone
    cells.apply(book, book.sheets[0], SetValues("'Sheet1'!B2", [["abc\r\ndef"]]), parse_range("'Sheet1'!B2"))
    written = _part(write_book(book), "xl/worksheets/sheet1.xml")
    assert b'<c r="B2" s="' in written and b"<is><t>abc&#13;\ndef</t></is>" in written


TWO_FORMATS = (f'<styleSheet xmlns="{MAIN}"><fonts count="1"><font><sz val="11"/></font></fonts><fills count="1">'
               '<fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders>'
               '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/>'
               '<xf numFmtId="1" fontId="0" fillId="0" borderId="0"/>'
               "</cellXfs></styleSheet>")


def test_the_witness_save_of_a_tab_formatted_to_its_last_row_writes_inside_the_sheet() -> None:
    """tealeg/xlsx's testFileToSliceValueOnly formats rows to 1,048,576: the witnesses' save wrote its cell
    under it, past the sheet, and calamine then read a range too large to compare (4 values "changed")."""
    data = _package(f'<worksheet xmlns="{MAIN}"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c>'
                    '<c r="B1" t="s"><v>0</v></c></row><row r="1048576" s="1" customFormat="1"><c r="A1048576" s="1"/>'
                    "</row></sheetData></worksheet>", strings=["Foo"], styles=TWO_FORMATS)
    assert read_book(data).sheets[0].extent() == (1_048_576, 2)
    saved = save_one_cell(data)
    assert by_calamine(saved.saved)["Tab"] == {(0, 0): "Foo", (0, 1): "Foo", (0, 2): "sheetgm"}
    assert saved.value_changes == []
