"""Rows and shared strings read by patterns (xlsx/scan.py) read as the XML parser reads them, and every shape
the patterns do not take is left to the parser."""

from __future__ import annotations

import io
import zipfile

import pytest

from sheetgm.backends.errors import UnreadableFileError
from sheetgm.backends.xlsx import read, scan
from sheetgm.backends.xlsx.book import Book
from sheetgm.backends.xlsx.read import read_book

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
X14AC = "http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac"


def _book(rows: str, sst: str = f'<sst xmlns="{MAIN}"/>') -> bytes:
    parts = {
        "[Content_Types].xml": '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/></Types>',
        "_rels/.rels": f'<Relationships xmlns="{PKG}"><Relationship Id="rId1" Type="{REL}/officeDocument" '
        'Target="xl/workbook.xml"/></Relationships>',
        "xl/_rels/workbook.xml.rels": f'<Relationships xmlns="{PKG}">'
        f'<Relationship Id="rId1" Type="{REL}/worksheet" Target="worksheets/sheet1.xml"/>'
        f'<Relationship Id="rId3" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
        "xl/workbook.xml": f'<workbook xmlns="{MAIN}" xmlns:r="{REL}"><sheets><sheet name="Tab" sheetId="1" '
        'r:id="rId1"/></sheets></workbook>',
        "xl/worksheets/sheet1.xml": f'<worksheet xmlns="{MAIN}" xmlns:x14ac="{X14AC}"><sheetData>{rows}</sheetData>'
        "</worksheet>",
        "xl/sharedStrings.xml": sst,
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, text in parts.items():
            z.writestr(name, text.encode("utf-8"))
    return out.getvalue()


def _seen(book: Book) -> tuple[object, ...]:
    sheet = book.sheets[0]
    return (sorted((rc, c.kind, c.value, c.style, c.formula, c.sst, c.extra, c.raw) for rc, c in sheet.cells.items()),
            sheet.rows)


def _both(data: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[tuple[object, ...], tuple[object, ...]]:
    """What the codec reads of ``data``, and what it reads with the patterns turned off."""
    scanned = _seen(read_book(data))
    with monkeypatch.context() as m:
        m.setattr(read, "_scanned", lambda *args: False)
        m.setattr(scan, "strings", lambda data: None)
        parsed = _seen(read_book(data))
    return scanned, parsed


SST = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<sst xmlns="{MAIN}" count="6" uniqueCount="6">'
       '<si><t>plain</t></si><si><t>&#xA;</t></si><si><t xml:space="preserve"> kept </t></si><si><t> cut </t></si>'
       "<si><t>a &amp; b &lt;c&gt; &#x4E2D;&#25991;</t></si><si><t>x_x000D_y</t></si></sst>")
ROWS = ('<row r="1" spans="1:4" ht="30" customHeight="1" x14ac:dyDescent="0.25"><c r="A1" t="s"><v>0</v></c>'
        '<c r="B1" s="0" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c></row>\n'
        '<row r="2"><c r="A2" t="s"><v>4</v></c><c r="B2" t="s"><v>5</v></c><c r="C2" t="s"><v>9</v></c>'
        '<c r="D2" t="s"/><c r="E2" t="s"><v></v></c></row>'
        '<row r="3" hidden="1"><c r="A3"><v>2.5</v></c><c r="B3" t="b"><v>1</v></c><c r="C3" t="e"><v>#N/A</v></c>'
        '<c r="D3" t="d"><v>2024-01-02T00:00:00</v></c><c r="E3"><v/></c><c r="F3" t="n"><v></v></c></row>'
        '<row r="5"><c r="B5"><f t="shared" ref="B5:B7" si="0">A5*2</f><v>4</v></c><c r="C5" t="str"><f>"a"</f>'
        '<v>a_x000D_b</v></c><c r="D5"><f t="shared" ref="D5:D7" si="1">$A5+A$1</f></c></row>'
        '<row r="6"><c r="B6"><f t="shared" si="0"/><v>6</v></c><c r="D6"><f t="shared" si="1"/></c></row>'
        '<row r="7"><c r="B7"><f t="shared" si="0"/></c><c r="D7"><f t="shared" si="1"></f></c>'
        '<c r="E7"><f t="shared" si="7"/></c><c r="F7" t="inlineStr"/></row><row r="8"/>'
        '<row r="9" spans="1:1"></row><row r="10"><c r="AB10" s="0"/><c r="XFD10"/></row>')


def test_plain_rows_and_strings_read_as_the_parser_reads_them(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _book(ROWS, SST)
    assert scan.rows(ROWS) is not None and scan.strings(SST.encode()) is not None  # (the patterns take them)
    scanned, parsed = _both(data, monkeypatch)
    assert scanned == parsed
    cells = {rc: c for rc, c in read_book(data).sheets[0].cells.items()}
    assert [cells[(0, c)].value for c in range(4)] == ["plain", "", " kept ", "cut"]
    assert cells[(0, 1)].sst == 1  # blanks only: read as empty, its entry kept
    assert cells[(1, 0)].value == "a & b <c> 中文" and cells[(1, 1)].value == "x\ry"
    assert cells[(4, 2)].raw == ("a\rb", "a_x000D_b") and cells[(6, 3)].value == "$A7+A$1"
    assert read_book(data).sheets[0].rows == {0: {"ht": "30", "customHeight": "1"}, 2: {"hidden": "1"}}


@pytest.mark.parametrize("rows", [
    '<row r="1"><c r="A1" t="s"><v>0</v></c><!-- note --></row>',  # a comment
    '<row r="1"><c r="A1"><v>1&amp;2</v></c></row>',  # an entity
    '<row r="1"><c r="A1" t="str"><v>a\r\nb</v></c></row>',  # a "\r" the parser reads as "\n"
    '<row r="1" ht="1\t"><c r="A1"><v>1</v></c></row>',  # a tab in an attribute: read as a blank
    "<row r='1'><c r='A1'><v>1</v></c></row>",  # single quotes
    '<row r="1"><c r="A1" t="inlineStr"><is><t>x</t></is></c></row>',  # an inline text
    '<row r="1"><c r="a1"><v>1</v></c></row>',  # a lower-case reference
    '<row r="1"><c s="1" r="A1"><v>1</v></c></row>',  # the reference not first
    '<row r="1"><c><v>1</v></c></row>',  # no reference
    '<row hidden="1"><c r="A1"><v>1</v></c></row>',  # a row without its number (the one after the row before)
    '<row spans="1:1" r="1"><c r="A1"><v>1</v></c></row>',  # its number not first
    '<row r="1"><c r="A1"><v>1</v><extLst/></c></row>',  # another element in a cell
    '<row r="1"><c r="A1"><v>1</v></c> <c r="B1"><v>2</v></c></row>',  # a blank between cells
    '<row r="1"><c r="A1" xmlns="urn:other"><v>1</v></c></row>',  # another namespace
    '<row r="1"><c r="A1"><v>1</v></c></row>text',  # text after the rows
    '<row r="1"><![CDATA[x]]></row>',  # CDATA
    '<row r="1"><c r="A1"><v>\x01</v></c></row>',  # a character XML refuses
])
def test_a_shape_the_patterns_do_not_take_is_left_to_the_parser(rows: str) -> None:
    assert scan.rows(rows) is None


@pytest.mark.parametrize("sst", [
    f'<sst xmlns="{MAIN}"><si><r><t>run</t></r></si></sst>',  # runs
    f'<sst xmlns="{MAIN}"><si><t>a&nbsp;b</t></si></sst>',  # an entity XML does not define
    f'<sst xmlns="{MAIN}"><si><t>a&#1;b</t></si></sst>',  # a reference to a character XML refuses
    f'<sst xmlns="{MAIN}"><si><t>a\r\nb</t></si></sst>',  # a "\r" the parser reads as "\n"
    f'<x:sst xmlns:x="{MAIN}"><x:si><x:t>a</x:t></x:si></x:sst>',  # a prefix
    f'<sst xmlns="{MAIN}"><si><t>a</t></si><!-- c --></sst>',  # a comment
    f'<sst xmlns="{MAIN}"><si><t/></si></sst>',  # an empty element
    f'<sst xmlns="{MAIN}"><si><t>a</t></si> x</sst>',  # text between the strings
])
def test_a_string_list_the_patterns_do_not_take_is_left_to_the_parser(sst: str) -> None:
    assert scan.strings(sst.encode()) is None


def test_a_reference_to_a_refused_character_is_still_refused_as_damage() -> None:
    data = _book('<row r="1"><c r="A1" t="s"><v>0</v></c></row>', f'<sst xmlns="{MAIN}"><si><t>a&#1;b</t></si></sst>')
    with pytest.raises(UnreadableFileError) as err:
        read_book(data)
    assert err.value.code == "err.backend.file.damaged"
