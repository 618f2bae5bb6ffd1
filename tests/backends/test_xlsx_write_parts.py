"""The xlsx writer's output pinned part by part: the package of a new workbook as written (each part's XML, the
zip's headers and times), the names and ids it gives new tabs and notes beside the ones a file already has, and
what it keeps or drops of a file another program saved (the notes' parts, the calculation chain, the structure
lock as written)."""

from __future__ import annotations

import io
import re
import struct
import zipfile
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path
from xml.etree.ElementTree import fromstring

import openpyxl
import pytest
from openpyxl.comments import Comment

from sheetgm.backends.xlsx import write
from sheetgm.backends.xlsx.book import Book, Cell, Rel, Sheet
from sheetgm.backends.xlsx.read import read_book
from sheetgm.backends.xlsx.write import write_book

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
OD = "http://schemas.openxmlformats.org/officeDocument/2006"
REL = f"{OD}/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006"
CT = "application/vnd.openxmlformats-officedocument"
NOW = datetime(2026, 12, 3, 15, 54, 53, 987654, tzinfo=UTC)


class _Clock(datetime):
    """``datetime`` whose now is NOW in UTC, and eight hours later where no zone is given (a local clock)."""

    @classmethod
    def now(cls, tz: tzinfo | None = None) -> _Clock:
        moment = NOW if tz is UTC else NOW.replace(tzinfo=None) + timedelta(hours=8)
        return cls.fromisoformat(moment.isoformat())


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(write, "datetime", _Clock)


def _parts(data: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert z.testzip() is None
        return {i.filename: z.read(i.filename).decode("utf-8") for i in z.infolist()}


def _rels(*rels: tuple[str, str, str]) -> str:
    return (f'<Relationships xmlns="{PKG}/relationships">'
            + "".join(f'<Relationship Id="{i}" Type="{t}" Target="{g}"/>' for i, t, g in rels) + "</Relationships>")


def test_a_new_workbook_is_written_part_by_part(clock: None) -> None:
    book = Book("标题 & <一>", [Sheet("A", cells={(0, 0): Cell("s", "x")}), Sheet("B & C", state="hidden")])
    data = write_book(book)
    parts = _parts(data)
    assert list(parts) == ["[Content_Types].xml", "xl/worksheets/sheet1.xml", "xl/worksheets/sheet2.xml",
                           "xl/styles.xml", "xl/workbook.xml", "xl/_rels/workbook.xml.rels", "docProps/core.xml",
                           "docProps/app.xml", "_rels/.rels"]
    sheet_type = f"{CT}.spreadsheetml.worksheet+xml"
    assert parts["[Content_Types].xml"] == (
        f'<Types xmlns="{PKG}/content-types">'
        f'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        f'<Default Extension="vml" ContentType="{CT}.vmlDrawing"/>'
        f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{sheet_type}"/>'
        f'<Override PartName="/xl/worksheets/sheet2.xml" ContentType="{sheet_type}"/>'
        f'<Override PartName="/xl/styles.xml" ContentType="{CT}.spreadsheetml.styles+xml"/>'
        f'<Override PartName="/xl/workbook.xml" ContentType="{CT}.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties'
        '+xml"/>'
        f'<Override PartName="/docProps/app.xml" ContentType="{CT}.extended-properties+xml"/></Types>')
    assert parts["_rels/.rels"] == _rels(("rId1", f"{REL}/officeDocument", "xl/workbook.xml"),
                                         ("rId2", f"{PKG}/relationships/metadata/core-properties", "docProps/core.xml"),
                                         ("rId3", f"{REL}/extended-properties", "docProps/app.xml"))
    assert parts["xl/_rels/workbook.xml.rels"] == _rels(("rId1", f"{REL}/worksheet", "worksheets/sheet1.xml"),
                                                        ("rId2", f"{REL}/worksheet", "worksheets/sheet2.xml"),
                                                        ("rId3", f"{REL}/styles", "styles.xml"))
    assert parts["xl/workbook.xml"] == (
        f'<workbook xmlns="{MAIN}" xmlns:r="{REL}"><workbookPr/><bookViews><workbookView activeTab="0"/>'
        '</bookViews><sheets><sheet name="A" sheetId="1" r:id="rId1"/>'
        '<sheet name="B &amp; C" sheetId="2" state="hidden" r:id="rId2"/></sheets>'
        '<calcPr calcId="124519" fullCalcOnLoad="1"/></workbook>')
    stamp = "2026-12-03T15:54:53Z"
    assert parts["docProps/core.xml"] == (
        f'<cp:coreProperties xmlns:cp="{PKG}/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" '
        'xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
        "<dc:creator>sheetgm</dc:creator><dc:title>标题 &amp; &lt;一&gt;</dc:title>"
        f'<dcterms:created xsi:type="dcterms:W3CDTF">{stamp}</dcterms:created>'
        f'<dcterms:modified xsi:type="dcterms:W3CDTF">{stamp}</dcterms:modified></cp:coreProperties>')
    assert parts["docProps/app.xml"] == (
        f'<Properties xmlns="{OD}/extended-properties"><Application>sheetgm</Application></Properties>')
    again = read_book(data)
    assert again.ours and again.title == "标题 & <一>" and [s.name for s in again.sheets] == ["A", "B & C"]
    assert again.sheets[0].cells[(0, 0)].value == "x" and again.sheets[1].state == "hidden"


def test_a_workbook_read_keeps_its_creation_time_and_takes_the_saves_as_modified(clock: None) -> None:
    book = read_book(write_book(Book("t", [Sheet("A")], created="2020-01-02T03:04:05Z", creator="someone")))
    core = _parts(write_book(book))["docProps/core.xml"]
    assert "<dc:creator>someone</dc:creator>" in core
    assert ">2020-01-02T03:04:05Z</dcterms:created>" in core and ">2026-12-03T15:54:53Z</dcterms:modified>" in core


def test_the_zip_headers_name_each_part_in_utf_8_deflated_at_the_saves_time(clock: None) -> None:
    book = read_book(write_book(Book("t", [Sheet("A")])))
    book.parts["xl/media/图像.png"] = book.parts.pop(next(iter(book.parts)))  # any carried part, named in Chinese
    data = write_book(book)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        infos = z.infolist()
        assert z.comment == b"" and z.testzip() is None
    assert "xl/media/图像.png" in [i.filename for i in infos]
    offset = 0
    for info in infos:
        assert (info.date_time, info.flag_bits, info.compress_type) == ((2026, 12, 3, 15, 54, 52), 0x800, 8)
        assert (info.create_version, info.extract_version, info.create_system) == (20, 20, 0)
        assert (info.extra, info.comment, info.internal_attr, info.external_attr, info.volume) == (b"", b"", 0, 0, 0)
        assert info.header_offset == offset  # local headers one after the other, nothing between them
        head = struct.unpack("<IHHHHHIIIHH", data[offset:offset + 30])
        name = info.filename.encode("utf-8")
        assert head == (0x04034B50, 20, 0x800, 8, info._raw_time, (46 << 9) | (12 << 5) | 3,  # type: ignore[attr-defined]
                        info.CRC, info.compress_size, info.file_size, len(name), 0)
        assert data[offset + 30:offset + 30 + len(name)] == name
        offset += 30 + len(name) + info.compress_size
    assert infos[0]._raw_time == (15 << 11) | (54 << 5) | 26  # type: ignore[attr-defined]
    end = struct.unpack("<IHHHHIIH", data[-22:])
    central = len(data) - 22 - offset
    assert end == (0x06054B50, 0, 0, len(infos), len(infos), central, offset, 0)


def test_new_tabs_take_the_first_free_part_names_and_relationship_ids() -> None:
    """Two new tabs before one read from a file (its part sheet1.xml, a styles relationship rId1): the new ones
    take sheet2.xml and sheet3.xml, rId2 and rId3, never a name or id in use."""
    old = Sheet("Old", part="xl/worksheets/sheet1.xml", rel_id="rId4", sheet_id=1, cells={(0, 0): Cell("s", "o")})
    book = Book("t", [Sheet("New A"), Sheet("New B"), old],
                workbook_rels=[Rel("rId1", f"{REL}/styles", "styles.xml")])
    parts = _parts(write_book(book))
    assert [s.part for s in book.sheets] == ["xl/worksheets/sheet2.xml", "xl/worksheets/sheet3.xml",
                                             "xl/worksheets/sheet1.xml"]
    assert [s.rel_id for s in book.sheets] == ["rId2", "rId3", "rId4"]
    assert [s.sheet_id for s in book.sheets] == [2, 3, 1]
    assert parts["xl/_rels/workbook.xml.rels"] == _rels(("rId2", f"{REL}/worksheet", "worksheets/sheet2.xml"),
                                                        ("rId3", f"{REL}/worksheet", "worksheets/sheet3.xml"),
                                                        ("rId4", f"{REL}/worksheet", "worksheets/sheet1.xml"),
                                                        ("rId1", f"{REL}/styles", "styles.xml"))
    again = read_book(write_book(book))
    assert [(s.name, s.part) for s in again.sheets] == [("New A", "xl/worksheets/sheet2.xml"),
                                                        ("New B", "xl/worksheets/sheet3.xml"),
                                                        ("Old", "xl/worksheets/sheet1.xml")]
    assert again.sheets[2].cells[(0, 0)].value == "o"


def _noted(tmp_path: Path) -> bytes:
    """A file openpyxl saved: a note on A1 of the first tab, a formula (and so Excel's calculation chain, added
    by hand as Excel would), a hyperlink."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Orders"
    ws["A1"] = "x"
    ws["A1"].comment = Comment("old note", "ann")
    ws["B1"] = "=1+1"
    ws["C1"].hyperlink = "https://example.org/"
    wb.save(tmp_path / "n.xlsx")
    out = io.BytesIO()
    chain = f'<calcChain xmlns="{MAIN}"><c r="B1" i="1"/></calcChain>'
    with zipfile.ZipFile(tmp_path / "n.xlsx") as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == "xl/workbook.xml":  # Excel's own: no full calculation on load
                assert b'<calcPr calcId="124519" fullCalcOnLoad="1" />' in body
                body = body.replace(b'<calcPr calcId="124519" fullCalcOnLoad="1" />', b'<calcPr calcId="124519"/>')
            if info.filename == "xl/_rels/workbook.xml.rels":
                body = body.replace(b"</Relationships>", f'<Relationship Id="rIdC" Type="{REL}/calcChain" '
                                    'Target="calcChain.xml"/></Relationships>'.encode())
            dst.writestr(info.filename, body)
        dst.writestr("xl/calcChain.xml", chain)
    return out.getvalue()


def test_an_unchanged_file_keeps_its_notes_and_calculation_chain_as_they_were(tmp_path: Path) -> None:
    data = _noted(tmp_path)
    before = _parts(data)
    book = read_book(data)
    write_book(book)
    after = _parts(write_book(book))  # saved twice: the first save changed nothing either
    for name in ("xl/calcChain.xml", "xl/comments/comment1.xml", "xl/drawings/commentsDrawing1.vml",
                 "xl/worksheets/sheet1.xml"):
        assert after[name] == before[name], name
    assert '<calcPr calcId="124519"/>' in after["xl/workbook.xml"]
    assert sorted(after) == sorted(before)
    for name in ("_rels/.rels", "xl/_rels/workbook.xml.rels", "xl/worksheets/_rels/sheet1.xml.rels"):  # the same
        assert _links(after[name]) == _links(before[name]), name


def _links(rels: str) -> list[tuple[str, ...]]:
    return sorted((r.get("Id", ""), r.get("Type", ""), r.get("Target", ""), r.get("TargetMode", ""))
                  for r in fromstring(rels))


def test_a_changed_note_replaces_the_notes_parts_and_keeps_the_sheets_other_links(tmp_path: Path) -> None:
    book = read_book(_noted(tmp_path))
    sheet = book.sheets[0]
    sheet.notes[(0, 0)] = ("new note", "bo")
    sheet.touch_outside_rows()
    data = write_book(book)
    parts = _parts(data)
    rels = fromstring(parts["xl/worksheets/_rels/sheet1.xml.rels"])
    kinds = sorted(r.get("Type", "").rsplit("/", 1)[-1] for r in rels)
    assert kinds == ["comments", "hyperlink", "vmlDrawing"]
    assert len({r.get("Id") for r in rels}) == 3
    comments = [n for n in parts if n.startswith("xl/comments/")]
    assert len(comments) == 1 and "new note" in parts[comments[0]] and "old note" not in "".join(parts.values())
    assert "xl/calcChain.xml" not in parts and "calcChain" not in parts["xl/_rels/workbook.xml.rels"]
    assert '<calcPr fullCalcOnLoad="1" calcId="124519"/>' in parts["xl/workbook.xml"]  # Excel computes again
    ws = openpyxl.load_workbook(io.BytesIO(data)).active
    assert ws is not None and ws["A1"].comment is not None and ws["A1"].comment.text == "new note"
    assert ws["C1"].hyperlink is not None and ws["C1"].hyperlink.target == "https://example.org/"
    assert read_book(data).sheets[0].notes == {(0, 0): ("new note", "bo")}
    assert len(zipfile.ZipFile(io.BytesIO(data)).namelist()) == len(parts)  # each part once


def test_a_note_changed_again_in_a_file_read_anew_is_the_only_one_written(tmp_path: Path) -> None:
    """The new notes' parts take the names of the ones they replace: the old ones are not written beside them
    (a zip with two parts of one name: Excel and openpyxl read the last, the old note)."""
    from sheetgm.backends.port import SetNote
    from sheetgm.backends.xlsx.gateway import XlsxGateway

    XlsxGateway(tmp_path).create("p", "P", ["A"])
    XlsxGateway(tmp_path).write("p", [SetNote("A!A1", "one")])
    XlsxGateway(tmp_path).write("p", [SetNote("A!A1", "two")])
    names = zipfile.ZipFile(tmp_path / "p.xlsx").namelist()
    assert len(names) == len(set(names))
    ws = openpyxl.load_workbook(tmp_path / "p.xlsx").active
    assert ws is not None and ws["A1"].comment is not None and ws["A1"].comment.text == "two"
    assert XlsxGateway(tmp_path).view("p").tab("A").notes == {"A1": "two"}


def test_a_changed_cell_drops_the_calculation_chain_and_keeps_the_rest_as_read(tmp_path: Path) -> None:
    data = _noted(tmp_path)
    before = _parts(data)
    book = read_book(data)
    book.sheets[0].cells[(1, 0)] = Cell("s", "new")
    book.sheets[0].touch_row(1)
    after = _parts(write_book(book))
    assert sorted(after) == sorted(set(before) - {"xl/calcChain.xml"})
    assert "calcChain" not in after["xl/_rels/workbook.xml.rels"]
    assert '<calcPr fullCalcOnLoad="1" calcId="124519"/>' in after["xl/workbook.xml"]
    for name in ("xl/styles.xml", "xl/comments/comment1.xml", "xl/drawings/commentsDrawing1.vml",
                 "xl/theme/theme1.xml", "docProps/core.xml", "docProps/app.xml"):
        assert after[name] == before[name], name
    assert after["xl/worksheets/sheet1.xml"] != before["xl/worksheets/sheet1.xml"]
    assert sorted(_parts(write_book(book))) == sorted(after)  # saved again: the chain dropped stays dropped


def test_a_structure_lock_unchanged_is_written_back_as_it_was_read(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    wb.save(tmp_path / "l.xlsx")
    lock = b"<workbookProtection  lockStructure = '1' />"
    out = io.BytesIO()
    with zipfile.ZipFile(tmp_path / "l.xlsx") as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == "xl/workbook.xml":
                assert b"<workbookProtection /><bookViews>" in body
                body = body.replace(b"<workbookProtection />", lock)
            dst.writestr(info.filename, body)
    book = read_book(out.getvalue())
    assert book.structure == {"lockStructure": "1"}
    book.sheets[0].cells[(0, 0)] = Cell("s", "x")
    book.sheets[0].touch()
    written = _parts(write_book(book))["xl/workbook.xml"]
    assert written.count("workbookProtection") == 1 and lock.decode() + "<bookViews>" in written
    book.structure = {"lockStructure": "1", "workbookPassword": "CC1A"}
    written = _parts(write_book(book))["xl/workbook.xml"]
    assert written.count("workbookProtection") == 1
    assert '<workbookProtection lockStructure="1" workbookPassword="CC1A"/><bookViews>' in written


def _sheet_links(path: Path, sheet: str = "sheet1") -> list[tuple[str, ...]]:
    rels = zipfile.ZipFile(path).read(f"xl/worksheets/_rels/{sheet}.xml.rels").decode()
    return [(r.get("Id", ""), r.get("Type", "").rsplit("/", 1)[-1], r.get("Target", "")) for r in fromstring(rels)]


def test_notes_written_again_in_one_session_keep_their_drawing_linked(tmp_path: Path) -> None:
    """A note added, the tab written again (a value), the note changed, then removed, one gateway throughout:
    the sheet's <legacyDrawing> always names the notes' drawing, which Excel needs to show them."""
    from sheetgm.backends.port import SetNote, SetValues
    from sheetgm.backends.xlsx.gateway import XlsxGateway

    gw = XlsxGateway(tmp_path)
    gw.create("p", "P", ["A"])
    path = tmp_path / "p.xlsx"
    gw.write("p", [SetValues("A!B2", [["v"]])])
    steps: list[SetNote | SetValues] = [SetNote("A!A1", "one"), SetValues("A!B3", [["w"]]), SetNote("A!A1", "two")]
    for step, op in enumerate(steps):
        gw.write("p", [op])
        links = _sheet_links(path)
        assert links == [("rId1", "comments", "../comments/comment1.xml"),
                         ("rId2", "vmlDrawing", "../drawings/vmlDrawing1.vml")], step
        sheet = zipfile.ZipFile(path).read("xl/worksheets/sheet1.xml").decode()
        assert sheet.count("<legacyDrawing") == 1 and '<legacyDrawing r:id="rId2"/>' in sheet, step
        ws = openpyxl.load_workbook(path).active
        assert ws is not None and ws["A1"].comment is not None
        assert ws["A1"].comment.text == ("two" if step == 2 else "one") and ws["B3"].value == (None if step == 0
                                                                                               else "w")
    gw.write("p", [SetNote("A!A1", "")])
    names = zipfile.ZipFile(path).namelist()
    assert not any("comment" in n or "vml" in n for n in names)
    assert "legacyDrawing" not in zipfile.ZipFile(path).read("xl/worksheets/sheet1.xml").decode()
    assert XlsxGateway(tmp_path).view("p").tab("A").notes == {}


def test_a_workbook_at_the_packages_root_links_its_parts_from_there() -> None:
    book = Book("t", [Sheet("A", rel_id="sheetOne")], doc="book.xml")
    parts = _parts(write_book(book))
    assert parts["_rels/book.xml.rels"] == _rels(("sheetOne", f"{REL}/worksheet", "xl/worksheets/sheet1.xml"),
                                                 ("rId2", f"{REL}/styles", "xl/styles.xml"))
    again = read_book(write_book(book))
    assert again.doc == "book.xml" and again.sheets[0].part == "xl/worksheets/sheet1.xml"


def test_a_package_missing_its_workbook_link_and_content_types_gets_them_written(tmp_path: Path) -> None:
    """A file whose list of relationships lacks the workbook's (read where it always is) and whose content types
    name no part: the save links the workbook first, with the first free id, and types each part by its link."""
    wb = openpyxl.Workbook()
    wb.save(tmp_path / "m.xlsx")
    out = io.BytesIO()
    with zipfile.ZipFile(tmp_path / "m.xlsx") as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            body = src.read(info.filename).decode()
            if info.filename == "_rels/.rels":
                body = body.replace(f'<Relationship Type="{REL}/officeDocument" Target="xl/workbook.xml" Id="rId1" />',
                                    "")
                assert "relationships/officeDocument" not in body
            elif info.filename == "[Content_Types].xml":
                body = body[:body.index("<Override")] + "</Types>"
            elif info.filename == "xl/_rels/workbook.xml.rels":
                body = body.replace("</Relationships>", '<Relationship Id="rIdX" Type="custom" Target="custom.bin"/>'
                                                        "</Relationships>")
            dst.writestr(info.filename, body)
        dst.writestr("xl/custom.bin", b"\x00")
    book = read_book(out.getvalue())
    parts = _parts(write_book(book))
    assert _links(parts["_rels/.rels"]) == _links(_rels(
        ("rId1", f"{REL}/officeDocument", "xl/workbook.xml"),
        ("rId2", f"{PKG}/relationships/metadata/core-properties", "docProps/core.xml"),
        ("rId3", f"{REL}/extended-properties", "docProps/app.xml")))
    assert fromstring(parts["_rels/.rels"])[0].get("Type") == f"{REL}/officeDocument"
    types = {el.get("PartName"): el.get("ContentType") for el in fromstring(parts["[Content_Types].xml"])
             if el.get("PartName")}
    assert types == {"/xl/worksheets/sheet1.xml": f"{CT}.spreadsheetml.worksheet+xml",
                     "/xl/workbook.xml": f"{CT}.spreadsheetml.sheet.main+xml",
                     "/xl/styles.xml": f"{CT}.spreadsheetml.styles+xml",
                     "/xl/theme/theme1.xml": f"{CT}.theme+xml",
                     "/docProps/core.xml": "application/vnd.openxmlformats-package.core-properties+xml",
                     "/docProps/app.xml": f"{CT}.extended-properties+xml"}
    assert list(parts)[0] == "[Content_Types].xml"
    assert openpyxl.load_workbook(io.BytesIO(write_book(book))).sheetnames == ["Sheet"]


def test_a_new_tab_beside_a_chart_sheet_takes_an_id_neither_uses(tmp_path: Path) -> None:
    """The chart sheet (carried as its <sheet> entry) holds sheetId 2: a new second tab takes 3, and the entries
    keep their places: the chart where it stood, the new tab at the end."""
    wb = openpyxl.Workbook()
    wb.save(tmp_path / "c.xlsx")
    entry = '<sheet name="Chart" sheetId="2" r:id="rIdC"/></sheets>'
    link = f'<Relationship Id="rIdC" Type="{REL}/chartsheet" Target="chartsheets/sheet1.xml"/></Relationships>'
    out = io.BytesIO()
    with zipfile.ZipFile(tmp_path / "c.xlsx") as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            body = src.read(info.filename).decode()
            body = body.replace("</sheets>", entry).replace("</Relationships>", link) if info.filename in (
                "xl/workbook.xml", "xl/_rels/workbook.xml.rels") else body
            dst.writestr(info.filename, body)
        dst.writestr("xl/chartsheets/sheet1.xml", f'<chartsheet xmlns="{MAIN}"/>')
    book = read_book(out.getvalue())
    book.sheets.append(Sheet("New"))
    workbook = _parts(write_book(book))["xl/workbook.xml"]
    assert re.findall(r'<sheet name="([^"]*)" sheetId="([0-9]+)"', workbook) == [("Sheet", "1"), ("Chart", "2"),
                                                                                 ("New", "3")]


def test_a_book_without_tabs_is_still_written() -> None:
    parts = _parts(write_book(Book("t", [])))
    assert "<sheets></sheets>" in parts["xl/workbook.xml"] and not any("worksheets" in n for n in parts)


@pytest.mark.parametrize(("states", "active", "shown"), [
    (["hidden", "visible", "visible"], 0, 1), (["visible", "hidden", "visible"], 2, 2),
    (["visible", "visible"], 1, 1), (["hidden", "veryHidden"], 1, 0)])
def test_a_new_workbook_opens_on_a_visible_tab(states: list[str], active: int, shown: int) -> None:
    book = Book("t", [Sheet(f"S{i}", state=s) for i, s in enumerate(states)], active=active)
    assert f'<workbookView activeTab="{shown}"/>' in _parts(write_book(book))["xl/workbook.xml"]


def test_a_new_workbook_says_its_date_system_and_its_structure_lock() -> None:
    book = Book("t", [Sheet("A")], date1904=True, structure={"lockStructure": "1"})
    assert _parts(write_book(book))["xl/workbook.xml"].startswith(
        f'<workbook xmlns="{MAIN}" xmlns:r="{REL}"><workbookPr date1904="1"/><workbookProtection lockStructure="1"/>'
        '<bookViews>')


def _foreign_workbook(tmp_path: Path, *edits: tuple[str, str]) -> Book:
    wb = openpyxl.Workbook()
    wb.save(tmp_path / "f.xlsx")
    out = io.BytesIO()
    with zipfile.ZipFile(tmp_path / "f.xlsx") as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            body = src.read(info.filename).decode()
            for old, new in edits if info.filename == "xl/workbook.xml" else ():
                assert old in body
                body = body.replace(old, new)
            dst.writestr(info.filename, body)
    book = read_book(out.getvalue())
    book.sheets[0].cells[(0, 0)] = Cell("s", "changed")
    book.sheets[0].touch()
    return book


@pytest.mark.parametrize(("new", "expected"), [
    ("", '<definedNames /><calcPr fullCalcOnLoad="1"/></workbook>'),  # no calcPr: one at the end
    ("<fileRecoveryPr/><extLst/>", '<definedNames /><calcPr fullCalcOnLoad="1"/><fileRecoveryPr/><extLst/></workbook>'),
    ('<calcPr calcId="1"/><fileRecoveryPr/>', '<calcPr fullCalcOnLoad="1" calcId="1"/><fileRecoveryPr/></workbook>'),
    ('<calcPr fullCalcOnLoad="0"/>', '<calcPr fullCalcOnLoad="0"/></workbook>'),  # the file's own choice stands
])
def test_a_changed_file_asks_excel_to_compute_its_formulas_once(tmp_path: Path, new: str, expected: str) -> None:
    book = _foreign_workbook(tmp_path, ('<calcPr calcId="124519" fullCalcOnLoad="1" />', new))
    written = _parts(write_book(book))["xl/workbook.xml"]
    assert written.endswith(expected) and written.count("<calcPr") == 1
    assert openpyxl.load_workbook(io.BytesIO(write_book(book))).active is not None


def test_a_workbook_declaring_its_relationship_prefix_below_the_root_is_written_valid(tmp_path: Path) -> None:
    book = _foreign_workbook(tmp_path, (f' xmlns:r="{REL}"', ""), ("<sheets>", f'<sheets xmlns:r="{REL}">'))
    root = book.skeleton.root if book.skeleton else ""
    assert "xmlns:r" not in root
    written = _parts(write_book(book))["xl/workbook.xml"]
    assert f'<sheets xmlns:r="{REL}"><sheet name="Sheet" sheetId="1"' in written
    fromstring(written)  # every prefix bound


def test_tab_ids_stay_unique_new_tabs_taking_their_place_or_the_next_free() -> None:
    """Ids as read are kept; a new tab takes its position if free, else one past the highest; a repeated id (a
    tab copied by hand) is given a new one."""
    sheets = [Sheet("A", sheet_id=3), Sheet("B"), Sheet("C"), Sheet("D"), Sheet("E", sheet_id=3),
              Sheet("F", sheet_id=1)]
    book = Book("t", sheets)
    workbook = _parts(write_book(book))["xl/workbook.xml"]
    assert [s.sheet_id for s in sheets] == [3, 2, 4, 5, 6, 1]
    assert re.findall(r'sheetId="([0-9]+)"', workbook) == ["3", "2", "4", "5", "6", "1"]


def test_chart_sheets_keep_their_places_among_the_tabs() -> None:
    book = Book("t", [Sheet("A", sheet_id=1), Sheet("B", sheet_id=2)],
                others=[(0, '<sheet name="C0" sheetId="7" r:id="x"/>'), (2, '<sheet name="C2" sheetId="8" r:id="y"/>'),
                        (9, '<sheet name="C9" sheetId="9" r:id="z"/>')])
    workbook = _parts(write_book(book))["xl/workbook.xml"]
    assert re.findall(r'<sheet name="([^"]*)"', workbook) == ["C0", "A", "C2", "B", "C9"]


def test_a_save_compresses_only_the_parts_whose_text_changed_since_the_last(
        clock: None, monkeypatch: pytest.MonkeyPatch) -> None:
    book = Book("t", [Sheet("A", cells={(0, 0): Cell("s", "a")}), Sheet("B", cells={(0, 0): Cell("s", "b")})])
    write_book(book)  # the first save makes every part; from the second the tabs and styles are carried
    first = _parts(write_book(book))
    made: list[int] = []
    real = write.deflate
    monkeypatch.setattr(write, "deflate", lambda raw: made.append(1) or real(raw))
    book.sheets[1].cells[(0, 0)] = Cell("s", "changed")
    book.sheets[1].touch_row(0)
    second = _parts(write_book(book))
    assert len(made) == 1  # tab B's text, nothing else
    assert {n for n in first if first[n] != second[n]} == {"xl/worksheets/sheet2.xml"}
    assert "changed" in second["xl/worksheets/sheet2.xml"]
    assert _parts(write_book(book)) == second and len(made) == 1
