"""The xlsx reader's cells and rows as the XML parser gives them (a file another program saved), each field
pinned on a sheet built for it: a row's own attributes (with or without its number), a cell's column from
its reference (the reference memo empty or not), what an empty value, formula or shared string reads as, the
attributes sheetgm does not model (kept as written), and a chart sheet's entry in the workbook."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import openpyxl
import pytest

from sheetgm.backends.xlsx import read
from sheetgm.backends.xlsx.book import RANK, Cell
from sheetgm.backends.xlsx.read import read_book

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
X14AC = "http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac"
SHEET = "xl/worksheets/sheet1.xml"


def _with(tmp_path: Path, parts: dict[str, bytes], edit: dict[str, tuple[bytes, bytes]] | None = None) -> bytes:
    """A workbook openpyxl saved, ``parts`` replaced or added and ``edit`` (part: old, new) replaced in place."""
    wb = openpyxl.Workbook()
    wb.save(tmp_path / "w.xlsx")
    out = io.BytesIO()
    with zipfile.ZipFile(tmp_path / "w.xlsx") as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = parts.get(info.filename, src.read(info.filename))
            if edit and info.filename in edit:
                old, new = edit[info.filename]
                assert old in body
                body = body.replace(old, new, 1)
            dst.writestr(info.filename, body)
        for name, body in parts.items():
            if name not in src.namelist():
                dst.writestr(name, body)
    return out.getvalue()


def _sheet(tmp_path: Path, rows: str, *, strings: list[str] | None = None) -> bytes:
    sheet = f'<worksheet xmlns="{MAIN}" xmlns:x14ac="{X14AC}"><sheetData>{rows}</sheetData></worksheet>'.encode()
    if strings is None:
        return _with(tmp_path, {SHEET: sheet})
    sst = f'<sst xmlns="{MAIN}">' + "".join(f"<si><t>{t}</t></si>" for t in strings) + "</sst>"
    rel = f'<Relationship Id="rIdS" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>'
    return _with(tmp_path, {SHEET: sheet, "xl/sharedStrings.xml": sst.encode()},
                 {"xl/_rels/workbook.xml.rels": (b"</Relationships>", rel.encode())})


def _fields(c: Cell) -> tuple[object, ...]:
    return c.kind, c.value, c.style, c.formula, c.sst, c.extra


def test_a_rows_own_attributes_are_kept_without_its_number_spans_or_extensions(tmp_path: Path) -> None:
    rows = ('<row r="2" spans="1:3" ht="30" customHeight="1" x14ac:dyDescent="0.25"><c r="A2"><v>1</v></c></row>'
            '<row hidden="1"><c r="A3"><v>2</v></c></row>'  # no number: the row after the one before
            '<row r="5" spans="1:1"><c r="A5"><v>3</v></c></row>'
            '<row r="7" x14ac:dyDescent="0.3"/>')
    sheet = read_book(_sheet(tmp_path, rows)).sheets[0]
    assert sheet.rows == {1: {"ht": "30", "customHeight": "1"}, 2: {"hidden": "1"}}
    assert {k: c.value for k, c in sheet.cells.items()} == {(1, 0): "1", (2, 0): "2", (4, 0): "3"}


@pytest.mark.parametrize("memo", ["empty", "warm"])
def test_a_cells_column_comes_from_its_reference_whether_or_not_it_was_seen_before(
        tmp_path: Path, memo: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reference -> column memo is module-wide: a reference seen in no file yet is worked out."""
    rows = ('<row r="1"><c r="A1"><v>1</v></c><c r="C1"><v>2</v></c><c><v>3</v></c></row>'
            '<row r="2"><c r="AB2"><v>4</v></c><c r="AX2"><v>5</v></c></row>')
    data = _sheet(tmp_path, rows)
    if memo == "empty":
        monkeypatch.setattr(read, "_COLUMNS", {})
    else:
        read_book(data)
    cells = read_book(data).sheets[0].cells
    assert {k: c.value for k, c in cells.items()} == {(0, 0): "1", (0, 2): "2", (0, 3): "3", (1, 27): "4",
                                                     (1, 49): "5"}
    if memo == "empty":
        assert read._COLUMNS == {"A1": 0, "C1": 2, "AB2": 27, "AX2": 49}


def test_empty_values_formulas_and_shared_strings_read_as_nothing_but_their_format(tmp_path: Path) -> None:
    rows = ('<row r="1"><c r="A1" s="1"/><c r="B1" t="s" s="1"/><c r="C1"><v/></c><c r="D1" s="1"><v/></c>'
            '<c r="E1"><f t="shared" si="0"/><v>3</v></c><c r="F1" t="s"><v>0</v></c><c r="G1" t="s"><v>1</v></c>'
            '<c r="H1" t="s"><v>7</v></c><c r="I1" t="b"><v>1</v></c><c r="J1" t="s" s="1"><v>2</v></c></row>')
    cells = read_book(_sheet(tmp_path, rows, strings=["词", ""])).sheets[0].cells
    assert {k[1]: _fields(c) for k, c in cells.items()} == {
        0: ("", "", 1, None, -1, ""),
        1: ("s", "", 1, None, -1, ""),
        3: ("", "", 1, None, -1, ""),
        4: ("n", "3", 0, ({"t": "shared", "si": "0"}, ""), -1, ""),
        5: ("s", "词", 0, None, 0, ""),
        6: ("s", "", 0, None, -1, ""),  # an empty shared string: no entry to write back
        7: ("s", "", 0, None, -1, ""),  # past the table
        8: ("b", "1", 0, None, -1, ""),
        9: ("s", "", 1, None, -1, ""),  # just past the table
    }


def test_a_cells_other_attributes_are_kept_as_written_without_extensions(tmp_path: Path) -> None:
    rows = ('<row r="1"><c r="A1" s="2" t="e" vm="1" x14ac:x="9"><v>#VALUE!</v></c>'
            '<c r="B1" cm="1" foo="x"><f t="array" ref="B1">1</f><v>1</v></c><c r="C1"><v>5</v></c></row>')
    cells = read_book(_sheet(tmp_path, rows)).sheets[0].cells
    assert [cells[(0, c)].extra for c in range(3)] == [' vm="1"', ' cm="1" foo="x"', ""]
    assert (cells[(0, 0)].kind, cells[(0, 0)].value, cells[(0, 0)].style) == ("e", "#VALUE!", 2)
    phonetic = read_book(_sheet(tmp_path, '<row r="1"><c r="A1" t="str" ph="1"><v>x</v></c></row>')).sheets[0]
    assert phonetic.cells[(0, 0)].extra == ' ph="1"'  # any one of the attributes is sought


def test_a_chart_sheets_entry_is_carried_where_it_stood_with_its_name_id_and_state(tmp_path: Path) -> None:
    chart = f'<chartsheet xmlns="{MAIN}"><sheetPr/></chartsheet>'.encode()
    entry = (b'<sheet name="Chart &amp; 1" sheetId="4" state="hidden" foo="bar" r:id="rIdC"/>'
             b"</sheets>")
    rel = (f'<Relationship Id="rIdC" Type="{REL}/chartsheet" Target="chartsheets/sheet1.xml"/>'
           "</Relationships>").encode()
    data = _with(tmp_path, {"xl/chartsheets/sheet1.xml": chart},
                 {"xl/workbook.xml": (b"</sheets>", entry), "xl/_rels/workbook.xml.rels": (b"</Relationships>", rel)})
    book = read_book(data)
    assert [s.name for s in book.sheets] == ["Sheet"]
    assert book.others == [(1, '<sheet name="Chart &amp; 1" sheetId="4" state="hidden" r:id="rIdC"/>')]
    assert "xl/chartsheets/sheet1.xml" in book.parts


OTHER = "urn:other"


def test_a_sheets_elements_are_read_or_kept_in_their_order_with_foreign_ones_after_the_element_before(
        tmp_path: Path) -> None:
    """Modelled elements are read (columns with a missing bound, a frozenSplit pane with one split), others
    kept with their rank; an element of another namespace (even one named like a modelled one) is kept after the
    element before it. A closing sheetData tag written in a comment before or after the real one changes nothing."""
    sheet = (f'<worksheet xmlns="{MAIN}" xmlns:o="{OTHER}"><o:first/><sheetPr/>'
             '<sheetViews><sheetView workbookViewId="0"><pane xSplit="2" topLeftCell="C1" state="frozenSplit"/>'
             '</sheetView></sheetViews><!-- </sheetData> --><o:cols><o:col min="1" max="1" width="99"/></o:cols>'
             '<cols><col min="2" max="3" width="12"/><col max="5" width="8"/><col min="7" width="9"/></cols>'
             '<sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData><!-- </sheetData> -->'
             '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>'
             '<o:last/></worksheet>')
    got = read_book(_with(tmp_path, {SHEET: sheet.encode()})).sheets[0]
    assert [(c.min, c.max, c.attrs) for c in got.cols] == [(2, 3, {"width": "12"}), (1, 5, {"width": "8"}),
                                                           (7, 7, {"width": "9"})]
    assert got.frozen == (0, 2)
    assert [(rank, name) for rank, name, _xml in got.kept] == [
        (-0.5, f"{{{OTHER}}}first"), (RANK["sheetPr"], "sheetPr"), (RANK["sheetViews"] + 0.5, f"{{{OTHER}}}cols"),
        (RANK["pageMargins"], "pageMargins"), (RANK["pageMargins"] + 0.5, f"{{{OTHER}}}last")]
    assert {k: c.value for k, c in got.cells.items()} == {(0, 0): "1"}


def test_a_shared_string_table_under_another_root_holds_no_strings(tmp_path: Path) -> None:
    sst = f'<o:sst xmlns:o="{OTHER}"><o:si><o:t>x</o:t></o:si></o:sst>'
    rel = f'<Relationship Id="rIdS" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>'
    sheet = (f'<worksheet xmlns="{MAIN}"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData>'
             "</worksheet>")
    data = _with(tmp_path, {SHEET: sheet.encode(), "xl/sharedStrings.xml": sst.encode()},
                 {"xl/_rels/workbook.xml.rels": (b"</Relationships>", rel.encode())})
    assert _fields(read_book(data).sheets[0].cells[(0, 0)]) == ("s", "", 0, None, -1, "")


def test_a_sheets_dropdowns_and_notes_drawing_are_read_as_written(tmp_path: Path) -> None:
    sheet = (f'<worksheet xmlns="{MAIN}" xmlns:r="{REL}"><sheetData/><dataValidations count="3">'
             '<dataValidation type="list" allowBlank="1" sqref="B2:B9"><formula1>"a,b"</formula1></dataValidation>'
             '<dataValidation type="whole" operator="between" sqref="C1"><formula1>1</formula1>'
             "<formula2>9</formula2></dataValidation>"
             '<dataValidation type="custom"/></dataValidations><legacyDrawing r:id="rId9"/></worksheet>')
    got = read_book(_with(tmp_path, {SHEET: sheet.encode()})).sheets[0]
    assert [(v.sqref, v.attrs, v.formula1, v.formula2) for v in got.validations] == [
        ("B2:B9", {"type": "list", "allowBlank": "1"}, '"a,b"', None),
        ("C1", {"type": "whole", "operator": "between"}, "1", "9"),
        ("", {"type": "custom"}, None, None)]
    assert got.legacy == "rId9"
    bare = sheet.replace(' r:id="rId9"', "")
    assert read_book(_with(tmp_path, {SHEET: bare.encode()})).sheets[0].legacy == ""


def test_a_formulas_text_result_reads_unescaped_and_an_absent_one_empty(tmp_path: Path) -> None:
    rows = ('<row r="1"><c r="A1" t="str"><f>B1&amp;"x"</f><v>text_x0041_ and_x</v></c>'
            '<c r="B1" t="str"><f>C1</f><v/></c><c r="C1" t="str"><f>D1</f></c>'
            '<c r="D1" t="str"><v>plain</v></c></row>')
    cells = read_book(_sheet(tmp_path, rows)).sheets[0].cells
    assert [(cells[(0, c)].kind, cells[(0, c)].value) for c in range(4)] == [
        ("s", "textA and_x"), ("s", ""), ("s", ""), ("s", "plain")]


def test_a_cell_attribute_excel_does_not_write_is_not_sought(tmp_path: Path) -> None:
    """Only vm, cm and ph (a picture, a dynamic array, phonetics) in a sheet make its cells be read for the
    attributes sheetgm does not model; an attribute of no known kind alone is not kept."""
    cells = read_book(_sheet(tmp_path, '<row r="1"><c r="A1" foo="x"><v>1</v></c></row>')).sheets[0].cells
    assert _fields(cells[(0, 0)]) == ("n", "1", 0, None, -1, "")


def test_a_sheet_another_program_wrote_is_read_by_the_parser_alone(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer's patterns read only a file sheetgm wrote, even where another program's rows look alike."""
    rows = '<row r="1"><c r="A1" t="inlineStr"><is><t>x</t></is></c></row>'
    data = _sheet(tmp_path, rows)
    tried: list[str] = []
    monkeypatch.setattr(read, "_read_our_cells", lambda xml, *a: tried.append(xml) or False)
    book = read_book(data)
    assert not book.ours and tried == [] and book.sheets[0].cells[(0, 0)].value == "x"


@pytest.mark.parametrize("flag", ["1", "true"])
def test_the_workbooks_own_settings_are_read(tmp_path: Path, flag: str) -> None:
    """The date system, the tab it opens on, its structure lock, where its parts are (a workbook not at
    xl/workbook.xml), and its styles as read."""
    wb = openpyxl.Workbook()
    wb.create_sheet("Two")
    wb.save(tmp_path / "s.xlsx")
    out = io.BytesIO()
    with zipfile.ZipFile(tmp_path / "s.xlsx") as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            name = info.filename
            if name == "xl/workbook.xml":
                name = "xl/book.xml"
                body = (body.replace(b"<workbookPr />", f'<workbookPr date1904="{flag}"/>'.encode())
                        .replace(b"<workbookProtection />", b'<workbookProtection lockStructure="1" x="y"/>')
                        .replace(b'activeTab="0"', b'activeTab="1"'))
            elif name == "xl/_rels/workbook.xml.rels":
                name = "xl/_rels/book.xml.rels"
            elif name in ("_rels/.rels", "[Content_Types].xml"):
                body = body.replace(b"xl/workbook.xml", b"xl/book.xml")
            dst.writestr(name, body)
    book = read_book(out.getvalue())
    assert (book.doc, book.date1904, book.active, book.structure, book.ours) == (
        "xl/book.xml", True, 1, {"lockStructure": "1", "x": "y"}, False)
    assert book.skeleton is not None and [n for n, _x in book.skeleton.children][:3] == [
        "workbookPr", "workbookProtection", "bookViews"]
    assert (book.styles_part, book.styles_read) == ("xl/styles.xml", book.styles.version)
    assert [r.target for r in book.package_rels if r.type.endswith("/officeDocument")] == ["xl/book.xml"]
    assert [s.name for s in book.sheets] == ["Sheet", "Two"] and book.title == ""
