"""The xlsx reader's smaller parts, each pinned on a file built for it: the shared-strings limit at its exact
bound (counted before parsing when the part is large, and while parsing), the workbook title from its
properties part (absent or damaged: no title, the workbook still reads), and a cell note's text and author."""

from __future__ import annotations

import io
import zipfile
import zlib
from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest
from openpyxl.comments import Comment

from sheetgm.backends.errors import UnreadableFileError
from sheetgm.backends.port import SetValues
from sheetgm.backends.xlsx.gateway import XlsxGateway
from sheetgm.backends.xlsx.package import LIMITS, Package, Part
from sheetgm.backends.xlsx.read import read_book

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
SST = "xl/sharedStrings.xml"


def _workbook(tmp_path: Path) -> bytes:
    gw = XlsxGateway(tmp_path)
    gw.create("p", "t", ["Orders"])
    gw.write("p", [SetValues("Orders!A1:B1", [["a", "b"]])])
    return (tmp_path / "p.xlsx").read_bytes()


def _with(data: bytes, parts: dict[str, bytes | None], rels: str = "") -> bytes:
    """``data`` with ``parts`` replaced or added (None: removed), relationships added to the workbook's."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            if info.filename in parts:
                continue
            body = src.read(info.filename)
            if info.filename == "xl/_rels/workbook.xml.rels" and rels:
                body = body.replace(b"</Relationships>", rels.encode() + b"</Relationships>")
            dst.writestr(info.filename, body)
        for name, body in parts.items():
            if body is not None:
                dst.writestr(name, body)
    return out.getvalue()


def _strings(tmp_path: Path, n: int, size: int = 1) -> bytes:
    sst = f'<sst xmlns="{MAIN}">' + "".join(f"<si><t>{str(i) * size}</t></si>" for i in range(n)) + "</sst>"
    return _with(_workbook(tmp_path), {SST: sst.encode()},
                 f'<Relationship Id="rIdS" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/>')


def _refused(data: bytes, **limits: int) -> UnreadableFileError:
    with pytest.raises(UnreadableFileError) as err:
        read_book(data, replace(LIMITS, **limits))
    return err.value


@pytest.mark.parametrize("size", [1, 6000])  # a small part is parsed whole; one past 256 KB is counted first
def test_shared_strings_up_to_the_limit_read_one_more_is_refused(tmp_path: Path, size: int) -> None:
    data = _strings(tmp_path, 50, size)
    assert (len(zipfile.ZipFile(io.BytesIO(data)).read(SST)) > 1 << 18) == (size > 1)
    read_book(data, replace(LIMITS, strings=50))  # exactly at the limit: read
    err = _refused(data, strings=49)
    assert err.code == "err.backend.file.too_many_strings" and err.params["limit"] == 49


def test_a_dtd_in_the_shared_strings_names_that_part(tmp_path: Path) -> None:
    sst = f'<?xml version="1.0"?><!DOCTYPE sst []><sst xmlns="{MAIN}"><si><t>x</t></si></sst>'
    data = _with(_workbook(tmp_path), {SST: sst.encode()},
                 f'<Relationship Id="rIdS" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/>')
    err = _refused(data)
    assert err.code == "err.backend.file.doctype" and err.params["part"] == SST


CORE = ('<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/">{}</cp:coreProperties>')


@pytest.mark.parametrize(("core", "title"), [
    (CORE.format("<dc:title>第五人格 · 第一局</dc:title>"), "第五人格 · 第一局"),
    (CORE.format("<dc:title/>"), ""),
    (CORE.format("<dc:creator>x</dc:creator>"), ""),
    ("<cp:coreProperties <<< damaged", ""),
    ('<?xml version="1.0"?><!DOCTYPE x []>' + CORE.format("<dc:title>t</dc:title>"), ""),
    (None, ""),
])
def test_the_title_comes_from_the_properties_part_and_a_damaged_one_is_no_title(
        tmp_path: Path, core: str | None, title: str) -> None:
    """A file another program saved (a file sheetgm saved is read by its own properties, read.py `ours`)."""
    wb = openpyxl.Workbook()
    assert wb.active is not None
    wb.active.title = "Orders"
    wb.save(tmp_path / "o.xlsx")
    data = _with((tmp_path / "o.xlsx").read_bytes(), {"docProps/core.xml": core.encode() if core is not None else None})
    book = read_book(data)
    assert book.title == title and book.sheets[0].name == "Orders"


def test_a_note_keeps_its_text_and_author(tmp_path: Path) -> None:
    path = tmp_path / "n.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws["C9"] = "x"
    ws["C9"].comment = Comment("a person's note", "someone")
    ws["AB12"] = "y"
    ws["AB12"].comment = Comment("第二条", "另一个人")
    wb.save(path)
    notes = read_book(path.read_bytes()).sheets[0].notes
    assert notes == {(8, 2): ("a person's note", "someone"), (11, 27): ("第二条", "另一个人")}


def _one_sheet(tmp_path: Path, rows: str) -> bytes:
    wb = openpyxl.Workbook()
    wb.save(tmp_path / "one.xlsx")
    sheet = f'<worksheet xmlns="{MAIN}"><sheetData>{rows}</sheetData></worksheet>'.encode()
    return _with((tmp_path / "one.xlsx").read_bytes(), {"xl/worksheets/sheet1.xml": sheet})


def test_cells_up_to_the_limit_read_one_more_is_refused(tmp_path: Path) -> None:
    rows = "".join(f'<row r="{r}"><c r="A{r}"><v>1</v></c><c r="B{r}"><v>2</v></c></row>' for r in range(1, 31))
    data = _one_sheet(tmp_path, rows)
    assert len(read_book(data, replace(LIMITS, cells=60)).sheets[0].cells) == 60  # 30 rows of 2 cells: exactly
    err = _refused(data, cells=59)
    assert err.code == "err.backend.file.too_many_cells" and err.params["limit"] == 59


def test_a_large_sheet_past_the_cell_limit_is_refused_before_its_cells_are_parsed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sheetgm.backends.xlsx import read

    text = "x" * 20
    rows = "".join(f'<row r="{r}"><c r="A{r}" t="inlineStr"><is><t>{text}</t></is></c></row>' for r in range(1, 6001))
    data = _one_sheet(tmp_path, rows)  # 6,000 rows of one cell: 12,000 elements, over 256 KB
    assert len(read_book(data, replace(LIMITS, cells=6000)).sheets[0].cells) == 6000

    def parsed(*_args: object, **_kw: object) -> None:
        raise AssertionError("the cells were parsed before the sheet was refused")

    monkeypatch.setattr(read, "_read_cells", parsed)
    err = _refused(data, cells=4500)  # 12,000 elements // 2 = 6,000 > 4,500: refused on the count alone
    assert err.code == "err.backend.file.too_many_cells" and err.params["limit"] == 4500


def test_a_part_stored_with_backslashes_is_carried_under_forward_slashes(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    wb.save(tmp_path / "b.xlsx")
    data = _with((tmp_path / "b.xlsx").read_bytes(), {"xl\\media\\image1.png": b"\x89PNG picture"})
    book = read_book(data)
    assert "xl/media/image1.png" in book.parts and not any("\\" in name for name in book.parts)


@pytest.mark.parametrize(("core", "title"), [
    (None, ""), (CORE.format("<dc:title/>"), ""), (CORE.format("<dc:creator>x</dc:creator>"), ""),
    (CORE.format("<dc:title>局</dc:title>"), "局")])
def test_a_file_sheetgm_saved_reads_its_title_from_its_own_properties(tmp_path: Path, core: str | None,
                                                                      title: str) -> None:
    data = _with(_workbook(tmp_path), {"docProps/core.xml": core.encode() if core is not None else None})
    book = read_book(data)
    assert book.ours and book.title == title


TYPES = "http://schemas.openxmlformats.org/package/2006/content-types"
WB_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"
WS_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"


def test_content_types_are_read_as_written_missing_attributes_empty(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    wb.save(tmp_path / "c.xlsx")
    types = (f'<Types xmlns="{TYPES}"><Default Extension="XML" ContentType="application/xml"/>'
             '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
             '<Default ContentType="x/no-extension"/><Default Extension="bin"/>'
             f'<Override PartName="/xl/workbook.xml" ContentType="{WB_TYPE}"/>'
             f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{WS_TYPE}"/>'
             '<Override ContentType="x/no-part"/><Override PartName="/x/typeless"/><Other Extension="y"/></Types>')
    book = read_book(_with((tmp_path / "c.xlsx").read_bytes(), {"[Content_Types].xml": types.encode()}))
    rels = "application/vnd.openxmlformats-package.relationships+xml"
    assert book.defaults == {"xml": "application/xml", "rels": rels, "": "x/no-extension", "bin": ""}
    assert book.overrides == {"/xl/workbook.xml": WB_TYPE, "/xl/worksheets/sheet1.xml": WS_TYPE, "": "x/no-part",
                              "/x/typeless": ""}
    bad = _with((tmp_path / "c.xlsx").read_bytes(),
                {"[Content_Types].xml": b'<?xml version="1.0"?><!DOCTYPE Types []>' + types.encode()})
    err = _refused(bad)
    assert err.code == "err.backend.file.doctype" and err.params["part"] == "[Content_Types].xml"


@pytest.mark.parametrize(("comments", "notes"), [
    ('<authors><author>ann</author><author/><author>bo</author></authors><commentList>'
     '<comment ref="C9" authorId="2"><text><t>one</t></text></comment>'
     '<comment ref="b2" authorId="1"><text><t>two</t></text></comment>'
     '<comment ref="D4" authorId="7"><text><t>three</t></text></comment>'
     '<comment ref="E5" authorId="x"><text><t>four</t></text></comment>'
     '<comment authorId="-1"><text><t>five</t></text></comment></commentList>',
     {(8, 2): ("one", "bo"), (1, 1): ("two", ""), (3, 3): ("three", ""), (4, 4): ("four", "ann"),
      (0, 0): ("five", "")}),
    ('<commentList><comment ref="A3"><text><t>no authors</t></text></comment></commentList>',
     {(2, 0): ("no authors", "")}),
    ("<authors><author>ann</author></authors>", {}),
])
def test_notes_read_with_their_author_where_one_is_named(tmp_path: Path, comments: str,
                                                           notes: dict[tuple[int, int], tuple[str, str]]) -> None:
    wb = openpyxl.Workbook()
    assert wb.active is not None
    wb.active["C9"].comment = Comment("n", "a")
    wb.save(tmp_path / "c.xlsx")
    part = f'<comments xmlns="{MAIN}">{comments}</comments>'.encode()
    book = read_book(_with((tmp_path / "c.xlsx").read_bytes(), {"xl/comments/comment1.xml": part}))
    assert book.sheets[0].notes == notes


@pytest.mark.parametrize("size", [3, 30000])  # the second table is past 1 MB: parsed as it streams in
def test_shared_strings_are_read_in_order_whole_or_streamed(tmp_path: Path, size: int) -> None:
    texts = [f"{i:02d}" + "文" * size for i in range(40)]
    sst = f'<sst xmlns="{MAIN}">' + "".join(f"<si><t>{t}</t></si>" for t in texts) + "</sst>"
    assert (len(sst.encode()) > 1 << 20) == (size > 3)
    rows = "".join(f'<row r="{r + 1}"><c r="A{r + 1}" t="s"><v>{39 - r}</v></c></row>' for r in range(40))
    sheet = f'<worksheet xmlns="{MAIN}"><sheetData>{rows}</sheetData></worksheet>'.encode()
    wb = openpyxl.Workbook()
    wb.save(tmp_path / "s.xlsx")
    data = _with((tmp_path / "s.xlsx").read_bytes(), {"xl/worksheets/sheet1.xml": sheet, SST: sst.encode()},
                 f'<Relationship Id="rIdS" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/>')
    cells = read_book(data).sheets[0].cells
    assert [cells[(r, 0)].value for r in range(40)] == texts[::-1]


def test_a_sheet_keeps_its_name_state_id_and_relationship(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    assert wb.active is not None
    wb.active.title = "命令"
    hidden = wb.create_sheet("Hidden")
    hidden.sheet_state = "hidden"
    wb.save(tmp_path / "w.xlsx")
    book = read_book((tmp_path / "w.xlsx").read_bytes())
    first, second = book.sheets
    assert (first.name, first.state, first.sheet_id, first.part) == ("命令", "visible", 1, "xl/worksheets/sheet1.xml")
    assert (second.name, second.state, second.sheet_id) == ("Hidden", "hidden", 2)
    assert first.rel_id and first.rel_id != second.rel_id and first.target.endswith("worksheets/sheet1.xml")


def _edited(tmp_path: Path, part: str, old: bytes, new: bytes) -> bytes:
    wb = openpyxl.Workbook()
    assert wb.active is not None
    wb.active["C9"].comment = Comment("n", "a")
    wb.save(tmp_path / "e.xlsx")
    data = (tmp_path / "e.xlsx").read_bytes()
    body = zipfile.ZipFile(io.BytesIO(data)).read(part)
    assert old in body
    return _with(data, {part: body.replace(old, new)})


def test_a_sheet_entry_without_an_id_or_a_name_reads_as_zero_and_empty(tmp_path: Path) -> None:
    sheet = read_book(_edited(tmp_path, "xl/workbook.xml", b' sheetId="1"', b"")).sheets[0]
    assert sheet.sheet_id == 0 and sheet.name == "Sheet"
    sheet = read_book(_edited(tmp_path, "xl/workbook.xml", b' name="Sheet"', b"")).sheets[0]
    assert sheet.name == "" and sheet.sheet_id == 1


@pytest.mark.parametrize("part", ["xl/worksheets/sheet1.xml", "xl/comments/comment1.xml"])
def test_a_dtd_in_a_sheet_or_its_notes_names_that_part(tmp_path: Path, part: str) -> None:
    body = zipfile.ZipFile(io.BytesIO(_edited(tmp_path, part, b"<", b"<"))).read(part)
    start = body.index(b"<", body.index(b"?>") + 2) if body.startswith(b"<?xml") else 0
    data = _edited(tmp_path, part, body[start:start + 12], b"<!DOCTYPE x []>" + body[start:start + 12])
    err = _refused(data)
    assert err.code == "err.backend.file.doctype" and err.params["part"] == part


@pytest.mark.parametrize(("sheet_data", "values"), [
    ("<sheetData><row><c><v>1</v></c></row><row><c><v>2</v></c></row><row r=\"5\"><c r=\"B5\"><v>3</v></c></row>"
     "<row><c r=\"A6\"><v>4</v></c></row></sheetData>", {(0, 0): "1", (1, 0): "2", (4, 1): "3", (5, 0): "4"}),
    ("<sheetData/>", {}),
    ("", {}),
])
def test_rows_without_a_number_follow_the_row_before_and_a_sheet_may_hold_no_cells(
        tmp_path: Path, sheet_data: str, values: dict[tuple[int, int], str]) -> None:
    sheet = (f'<worksheet xmlns="{MAIN}"><sheetViews><sheetView workbookViewId="0"/></sheetViews>{sheet_data}'
             '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>')
    wb = openpyxl.Workbook()
    wb.save(tmp_path / "r.xlsx")
    got = read_book(_with((tmp_path / "r.xlsx").read_bytes(), {"xl/worksheets/sheet1.xml": sheet.encode()})).sheets[0]
    assert {k: c.value for k, c in got.cells.items()} == values
    assert got.root.startswith("<worksheet") and f"{{{MAIN}}}" not in got.root


def test_strict_names_become_the_transitional_names_excel_and_libreoffice_save() -> None:
    """A Strict Open XML part (Excel's "Strict" save) is read under the transitional names: the general rule
    (a year after the first folder) and the names that differ in more than that."""
    from sheetgm.backends.xlsx.package import strict_to_transitional

    strict = (b'<workbook xmlns="http://purl.oclc.org/ooxml/spreadsheetml/main" '
              b'xmlns:r="http://purl.oclc.org/ooxml/officeDocument/relationships" conformance="strict">'
              b'<a t="http://purl.oclc.org/ooxml/officeDocument/relationships/worksheet"/>'
              b'<b t="http://purl.oclc.org/ooxml/officeDocument/relationships/extendedProperties"/>'
              b'<c t="http://purl.oclc.org/ooxml/drawingml/main"/></workbook>')
    assert strict_to_transitional(strict) == (
        b'<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        b'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
        b'<a t="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"/>'
        b'<b t="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties"/>'
        b'<c t="http://schemas.openxmlformats.org/drawingml/2006/main"/></workbook>')


def _zip_of(parts: dict[str, tuple[bytes, int]]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, (data, method) in parts.items():
            z.writestr(zipfile.ZipInfo(name), data, compress_type=method)
    return out.getvalue()


def test_a_carried_part_keeps_its_bytes_name_crc_and_size_stored_or_deflated() -> None:
    """What a save writes back of a part it does not model: the zip's spelling of its name, its CRC and size, and
    its compressed bytes (deflated) or its content (stored); carried, a part is bound by the total only."""
    image, chart = bytes(range(256)) * 8192, b"<c/>" * 1000  # 2 MB stored, 4 KB deflated
    data = _zip_of({"xl/media/Image1.png": (image, zipfile.ZIP_STORED), "xl/chart.xml": (chart, zipfile.ZIP_DEFLATED)})
    with Package(data, replace(LIMITS, part_bytes=1 << 20)) as pkg:
        stored = pkg.part("XL/MEDIA/image1.png")
        assert stored == Part("xl/media/Image1.png", None, zlib.crc32(image), len(image), image)
        deflated = pkg.part("xl/chart.xml")
        assert (deflated.name, deflated.crc, deflated.size, deflated.data) == (
            "xl/chart.xml", zlib.crc32(chart), len(chart), None)
        assert deflated.raw is not None and zlib.decompress(deflated.raw, -15) == chart


def test_a_part_is_read_as_often_as_asked_and_one_too_large_is_named_with_the_limit() -> None:
    data = _zip_of({"a.xml": (b"<a/>" * 256, zipfile.ZIP_DEFLATED), "big.bin": (bytes(1025), zipfile.ZIP_DEFLATED)})
    with Package(data, replace(LIMITS, part_bytes=1024)) as pkg:
        assert pkg.read("a.xml") == pkg.read("a.xml") == b"<a/>" * 256  # exactly the limit: read
        with pytest.raises(UnreadableFileError) as err:
            pkg.read("big.bin")
    assert err.value.code == "err.backend.file.part_too_large"
    assert (err.value.params["part"], err.value.params["limit"]) == ("big.bin", "0.0")


def test_an_encrypted_part_is_refused_as_encrypted() -> None:
    data = bytearray(_zip_of({"a.xml": (b"<a/>", zipfile.ZIP_DEFLATED)}))
    data[6] |= 1  # the local header's flag: encrypted
    at = data.find(b"PK\x01\x02")
    data[at + 8] |= 1  # the central directory's
    with Package(bytes(data)) as pkg, pytest.raises(UnreadableFileError) as err:
        pkg.read("a.xml")
    assert err.value.code == "err.backend.file.encrypted"


def test_a_carried_xml_part_of_a_strict_file_is_kept_renamed_to_transitional_with_its_new_crc_and_size() -> None:
    strict = b'<c:chart xmlns:c="http://purl.oclc.org/ooxml/drawingml/chart"/>'
    data = _zip_of({"xl/charts/chart1.xml": (strict, zipfile.ZIP_DEFLATED)})
    with Package(data) as pkg:
        pkg.strict = True  # (the reader sets it from the workbook part's namespace)
        part = pkg.part("xl/charts/chart1.xml")
    moved = b'<c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart"/>'
    assert part == Part("xl/charts/chart1.xml", None, zlib.crc32(moved), len(moved), moved)


@pytest.mark.parametrize("declared", [b"", b' encoding="utf-8"', b" encoding='UTF8'", b' encoding="utf_8"'])
def test_a_part_in_utf8_is_taken_as_it_is(declared: bytes) -> None:
    from sheetgm.backends.xlsx.package import as_utf8

    data = b'<?xml version="1.0"' + declared + b"?><a>\xc3\xa9</a>" if declared else b"<a>\xc3\xa9</a>"
    assert as_utf8(data) is data  # not decoded and encoded again


@pytest.mark.parametrize(("declared", "body"), [
    (b"ISO-8859-1", b"\xe9"), (b"UTF-16", b"\xc3\xa9"), (b"UTF-32", b"\xc3\xa9"), (b"UCS-2", b"\xc3\xa9")])
def test_a_part_in_8_bits_is_read_in_its_declared_encoding_and_one_naming_16_or_32_bits_as_utf8(
        declared: bytes, body: bytes) -> None:
    """As expat reads them: a part in 8 bits that names a 16- or 32-bit encoding is in UTF-8."""
    from sheetgm.backends.xlsx.package import as_utf8

    data = b'<?xml version="1.0" encoding="' + declared + b'"?><a>' + body + b"</a>"
    assert as_utf8(data) == '<?xml version="1.0" encoding="UTF-8"?><a>é</a>'.encode()
    with pytest.raises(ValueError, match="unknown encoding 'x-foo'"):  # the director reads it in the detail
        as_utf8(b'<?xml version="1.0" encoding="x-foo"?><a/>')
