"""sheetgm's own .xlsx reader and writer: exact round trips, files others wrote, and openpyxl as a witness.

openpyxl is an independent reader: what it sees in our files must be what our view says, and what it
writes (as LibreOffice or Excel would, with shared strings, numbers, dates and styles) must read as a
person sees it.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import zipfile
from datetime import datetime
from pathlib import Path

import openpyxl
import pytest
from openpyxl.comments import Comment
from openpyxl.styles import Font, PatternFill

from sheetgm.backends.a1 import parse_range
from sheetgm.backends.port import (
    AddTab,
    ClearRange,
    FreezeRows,
    Protect,
    ResizeColumns,
    ResizeRows,
    SetBackground,
    SetBold,
    SetBorders,
    SetNote,
    SetValidation,
    SetValues,
)
from sheetgm.backends.xlsx import cells as xlsx_cells
from sheetgm.backends.xlsx.book import Book, Cell, Sheet, text_of
from sheetgm.backends.xlsx.gateway import XlsxGateway
from sheetgm.backends.xlsx.read import read_book
from sheetgm.backends.xlsx.write import write_book

OPS = [
    SetValues("命令!A1:C2", [["阶段", "指令", "=SUM(1)"], ["N1-survivor", "移动 B3\n搜索", " 空格 "]]),
    SetValues("命令!E7", [["x & <y> \"z\"\r"]]),
    SetBold("命令!A1:C1"),
    SetBackground("命令!A2:B2", "#ffe599"),
    SetBorders("Map!B2:D4", "outer", "thick"),
    SetBorders("Map!B2:D4", ("inner_horizontal", "inner_vertical"), "thin"),
    SetNote("命令!B1", "写指令\n换行"),
    SetValidation("命令!G2:G4", ("移动 B3", "搜索")),
    SetValidation("命令!H2", [f"选项,{i}" for i in range(3)], strict=False, help="提示"),
    FreezeRows("命令", 1),
    ResizeColumns("Map!B:D", 30),
    ResizeRows("Map!2:4", 30),
    ResizeColumns("命令!B:B", 380),
    Protect("Results", ("gm@x.com",), "results"),
    AddTab("新"),
    SetValues("新!B2", [["新的"]]),
]


@pytest.fixture
def gw(tmp_path: Path) -> XlsxGateway:
    g = XlsxGateway(tmp_path)
    g.create("player-1", "游戏 · 小明", ["命令", "Results", "Map"])
    g.write("player-1", OPS)
    return g


def openpyxl_view(path: Path, tab: str) -> dict[str, object]:
    """What openpyxl reads in a tab: values, bold, fills, borders, notes, dropdowns, sizes, frozen rows."""
    wb = openpyxl.load_workbook(path)
    ws = wb[tab]
    out: dict[str, object] = {"values": {}, "bold": set(), "fills": {}, "borders": {}, "notes": {}}
    for row in ws.iter_rows():
        for cell in row:
            if cell.value is not None:
                out["values"][cell.coordinate] = cell.value  # type: ignore[index]
            if cell.font.b:
                out["bold"].add(cell.coordinate)  # type: ignore[attr-defined]
            if cell.fill.fill_type == "solid":
                out["fills"][cell.coordinate] = "#" + str(cell.fill.fgColor.rgb)[-6:].lower()  # type: ignore[index]
            sides = {s: getattr(cell.border, s).style for s in ("top", "bottom", "left", "right")
                     if getattr(cell.border, s).style}
            if sides:
                out["borders"][cell.coordinate] = sides  # type: ignore[index]
            if cell.comment is not None:
                out["notes"][cell.coordinate] = cell.comment.text  # type: ignore[index]
    out["validations"] = {str(dv.sqref): (dv.formula1, dv.errorStyle, dv.prompt)
                          for dv in ws.data_validations.dataValidation}
    out["widths"] = {k: round(d.width * 7) for k, d in ws.column_dimensions.items() if d.customWidth}
    out["heights"] = {k: d.height for k, d in ws.row_dimensions.items() if d.height}
    out["frozen"] = ws.freeze_panes
    out["protected"] = bool(ws.protection.sheet)
    return out


def test_a_fresh_gateway_reads_exactly_what_was_written(gw: XlsxGateway, tmp_path: Path) -> None:
    fresh = XlsxGateway(tmp_path)
    assert fresh.view("player-1") == gw.view("player-1")
    assert fresh.read("player-1", ["命令!A1:E7"]) == gw.read("player-1", ["命令!A1:E7"])
    assert fresh.protections("player-1") == gw.protections("player-1")
    assert fresh.loads == 1 and gw.loads == 0  # the writer never parsed its own file again


def test_openpyxl_sees_what_the_view_says(gw: XlsxGateway, tmp_path: Path) -> None:
    path = tmp_path / "player-1.xlsx"
    orders = openpyxl_view(path, "命令")
    assert orders["values"] == {"A1": "阶段", "B1": "指令", "C1": "=SUM(1)", "A2": "N1-survivor",
                                "B2": "移动 B3\n搜索", "C2": " 空格 ", "E7": "x & <y> \"z\"\r"}
    assert orders["bold"] == {"A1", "B1", "C1"}
    assert orders["fills"] == {"A2": "#ffe599", "B2": "#ffe599"}
    assert orders["notes"] == {"B1": "写指令\n换行"}
    assert orders["validations"]["G2:G4"] == ('"移动 B3,搜索"', "stop", None)  # type: ignore[index]
    formula, style, prompt = orders["validations"]["H2"]  # type: ignore[index]
    assert formula.startswith("_sheetgm_lists!$A$1") and (style, prompt) == ("warning", "提示")
    assert orders["frozen"] == "A2" and orders["widths"] == {"B": 380}
    assert orders["heights"] == {2: 30.0}  # the wrapped two-line cell grew its row
    grid = openpyxl_view(path, "Map")
    assert grid["borders"]["B2"] == {"top": "thick", "left": "thick", "bottom": "thin", "right": "thin"}  # type: ignore[index]
    assert grid["borders"]["C3"] == {"top": "thin", "bottom": "thin", "left": "thin", "right": "thin"}  # type: ignore[index]
    assert grid["widths"] == {"B": 30, "C": 30, "D": 30} and grid["heights"] == {2: 22.5, 3: 22.5, 4: 22.5}
    assert grid["protected"] is False and openpyxl_view(path, "Results")["protected"] is True
    wb = openpyxl.load_workbook(path)
    assert wb.properties.title == "游戏 · 小明"
    assert [(ws.title, ws.sheet_state) for ws in wb][3:] == [
        ("_sheetgm", "hidden"), ("_sheetgm_lists", "hidden"), ("新", "visible")]
    assert wb["命令"]["C1"].data_type == "s"  # text that looks like a formula stays text


def test_writing_what_was_read_gives_the_same_parts(gw: XlsxGateway, tmp_path: Path) -> None:
    data = (tmp_path / "player-1.xlsx").read_bytes()
    again = write_book(read_book(data))
    old, new = zipfile.ZipFile(io.BytesIO(data)), zipfile.ZipFile(io.BytesIO(again))
    assert old.namelist() == new.namelist()
    for name in old.namelist():
        if name != "docProps/core.xml":  # its modification time
            assert old.read(name) == new.read(name), name


def test_a_workbook_saved_by_openpyxl_reads_as_a_person_sees_it(gw: XlsxGateway, tmp_path: Path) -> None:
    path = tmp_path / "player-1.xlsx"
    wb = openpyxl.load_workbook(path)
    ws = wb["命令"]
    ws["A3"], ws["B3"], ws["C3"], ws["D3"], ws["E3"] = 3, 2.0, 1.5, True, "移动 C4"
    ws["F3"] = datetime(2024, 5, 1, 21, 30)
    ws["G3"] = "=1+1"
    ws["A9"] = "手写"
    ws["A9"].font = Font(italic=True, color="FF0000")
    ws["B9"].fill = PatternFill("solid", start_color="FF00FF00", end_color="FF00FF00")
    ws["C9"].comment = Comment("a person's note", "someone")
    wb.save(path)
    fresh = XlsxGateway(tmp_path)
    assert fresh.read("player-1", ["命令!A3:F3"])["命令!A3:F3"] == [
        ["3", "2", "1.5", "TRUE", "移动 C4", "2024-05-01 21:30:00"]]
    view = fresh.view("player-1").tab("命令")
    assert view.backgrounds["B9"] == "#00ff00" and view.notes["C9"] == "a person's note"
    assert view.bold >= {"A1", "B1", "C1"}
    fresh.write("player-1", [SetValues("命令!D9", [["工具写的"]]), SetBold("命令!A9")])
    back = openpyxl.load_workbook(path)["命令"]
    assert back["A9"].font.i and back["A9"].font.b and back["A9"].font.color.rgb == "00FF0000"
    assert back["G3"].value == "=1+1" and back["D9"].value == "工具写的"  # the formula is kept


def test_clearing_keeps_formats_and_empty_text_creates_no_cell(gw: XlsxGateway) -> None:
    gw.write("player-1", [ClearRange("命令!A1:B2"), SetValues("命令!Z50", [[""]])])
    view = gw.view("player-1").tab("命令")
    assert view.values[0][:2] == ["", ""] and "A1" in view.bold
    assert gw.read("player-1", ["命令!Z1:Z60"]) == {"命令!Z1:Z60": []}



def test_characters_xml_cannot_hold_never_make_a_file_unreadable(tmp_path: Path) -> None:
    """A control character, U+FFFE or a lone surrogate in any text (not only a cell's) is dropped: one of them
    in a note, a prompt, a dropdown, a title or a tab name would make the whole workbook unreadable."""
    gw = XlsxGateway(tmp_path)
    gw.create("player-1", "游戏\x01", ["命令"])
    gw.write("player-1", [
        SetValues("命令!A1", [["x\ufffey\ud800z\x0b"]]), SetNote("命令!A1", "写\x01指令"),
        SetValidation("命令!B1", ["移动\x02", "搜索"], help="提\x03示"), Protect("命令", ("gm@x.com",), "lock\x04"),
        AddTab("新\x05"),
    ])
    fresh = XlsxGateway(tmp_path).view("player-1")
    tab = fresh.tabs[0]
    assert fresh.title == "游戏" and [t.name for t in fresh.tabs] == ["命令", "新"]
    assert tab.values == [["xyz"]] and tab.notes == {"A1": "写指令"}
    assert (tab.validations["B1"].choices, tab.validations["B1"].help) == (("移动", "搜索"), "提示")
    assert openpyxl.load_workbook(tmp_path / "player-1.xlsx")["命令"]["A1"].value == "xyz"



def test_a_number_cell_holding_markup_is_written_back_escaped() -> None:
    """A number cell of a malformed file may hold any text (``<v>1&amp;2</v>``): it is kept as read, and written
    back escaped, not as markup that would make the sheet unreadable."""
    book = Book("t", [Sheet("A", cells={(0, 0): Cell("n", "1&2<3")})])
    back = read_book(write_book(book))
    assert text_of(back, back.sheets[0].cells[(0, 0)]) == "1&2<3"


@pytest.mark.parametrize("op", [SetValues("A!A1", [["新"]]), ClearRange("A!A1")])
def test_overwriting_a_shared_formula_leaves_no_cell_pointing_at_it(op: SetValues | ClearRange) -> None:
    """A formula Excel filled down is written once (in A1) and shared (by A2): when A1 is overwritten, A2 keeps
    its value without the formula, instead of sharing one that no longer exists (a damaged file to Excel)."""
    book = Book("t", [Sheet("A", cells={
        (0, 0): Cell("n", "1", formula=({"t": "shared", "ref": "A1:A2", "si": "0"}, "B1")),
        (1, 0): Cell("n", "2", formula=({"t": "shared", "si": "0"}, "")),
        (2, 0): Cell("n", "3", formula=({"t": "shared", "ref": "A3:A4", "si": "1"}, "B3")),
        (3, 0): Cell("n", "4", formula=({"t": "shared", "si": "1"}, "")),
    })])
    xlsx_cells.apply(book, book.sheets[0], op, parse_range(op.range))
    back = read_book(write_book(book)).sheets[0].cells
    masters = {c.formula[0]["si"] for c in back.values() if c.formula and "ref" in c.formula[0]}
    assert all(c.formula[0]["si"] in masters for c in back.values() if c.formula) and masters == {"1"}
    assert [text_of(book, back.get((r, 0))) for r in range(4)] == ["新" if isinstance(op, SetValues) else "", "2",
                                                                   "3", "4"]


LIBREOFFICE_SHEET = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"
 xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"
 xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"
 xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac" mc:Ignorable="x14ac">
<sheetPr filterMode="false"><pageSetUpPr fitToPage="false"/></sheetPr>
<dimension ref="A1:C3"/>
<sheetViews><sheetView showFormulas="false" tabSelected="true" workbookViewId="0">
<pane xSplit="0" ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>
<selection pane="bottomLeft" activeCell="B2" sqref="B2"/></sheetView></sheetViews>
<sheetFormatPr defaultRowHeight="12.8" zeroHeight="false" outlineLevelRow="0" outlineLevelCol="0"/>
<cols><col collapsed="false" customWidth="true" hidden="false" outlineLevel="0" max="2" min="1" style="0"
 width="20.5"/><col collapsed="false" customWidth="false" hidden="false" outlineLevel="0" max="1025" min="3"
 style="0" width="11.52"/></cols>
<sheetData>
<row r="1" customFormat="false" ht="12.8" hidden="false" customHeight="false" outlineLevel="0" collapsed="false"
 x14ac:dyDescent="0.2"><c r="A1" s="1" t="s"><v>0</v></c><c r="B1" s="0" t="s"><v>1</v></c></row>
<row r="2" spans="1:3"><c r="A2" t="s"><v>2</v></c><c s="2" t="s"><v>3</v></c><c t="b"><v>1</v></c></row>
<row r="3"><c r="A3" t="str"><f>A2&amp;"!"</f><v>N1-survivor!</v></c><c r="B3" s="3"><v>45413.5</v></c>
<c r="C3" t="e"><v>#DIV/0!</v></c></row>
</sheetData>
<sheetProtection sheet="true" password="CC3D" objects="true" scenarios="true"/>
<mergeCells count="1"><mergeCell ref="D5:E5"/></mergeCells>
<printOptions headings="false" gridLines="false"/>
<pageMargins left="0.7875" right="0.7875" top="1.05" bottom="1.05" header="0.7875" footer="0.7875"/>
<pageSetup paperSize="9" orientation="portrait" r:id="rId9"/>
</worksheet>"""

LIBREOFFICE_STRINGS = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="4" uniqueCount="4">
<si><t xml:space="preserve">阶段 </t></si><si><r><rPr><b val="true"/></rPr><t>指</t></r><r><t>令</t></r></si>
<si><t>N1-survivor</t><rPh sb="0" eb="1"><t>ignored</t></rPh></si><si><t>移动 B3&#10;搜索</t></si></sst>"""

LIBREOFFICE_STYLES = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">
<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd\\ hh:mm"/></numFmts>
<fonts count="2"><font><sz val="10"/><name val="Arial"/><family val="2"/></font>
<font><b val="true"/><sz val="10"/><name val="Arial"/><family val="2"/></font></fonts>
<fills count="3"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill>
<fill><patternFill patternType="solid"><fgColor rgb="FFFFE599"/><bgColor indexed="64"/></patternFill></fill></fills>
<borders count="2"><border diagonalUp="false" diagonalDown="false"><left/><right/><top/><bottom/><diagonal/></border>
<border><left style="hair"/><right/><top style="medium"><color rgb="FF000000"/></top><bottom/><diagonal/></border>
</borders>
<cellStyleXfs count="1"><xf numFmtId="164" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>
<cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>
<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="true"/>
<xf numFmtId="0" fontId="0" fillId="2" borderId="1" xfId="0" applyFill="true"><alignment wrapText="true"/></xf>
<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="true"/></cellXfs>
<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>"""


def _libreoffice_like(path: Path) -> None:
    """A package with what LibreOffice writes: shared strings with runs, cells without references, true/false
    flags, a frozen pane, ranges of columns, a password, merged cells, a page setup pointing at a part."""
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("[Content_Types].xml", "<Types xmlns='http://schemas.openxmlformats.org/package/2006/content-types'/>")
        z.writestr("_rels/.rels", "<Relationships xmlns='http://schemas.openxmlformats.org/package/2006/relationships'>"
                   f"<Relationship Id='rId1' Type='{rel}/officeDocument' Target='xl/workbook.xml'/></Relationships>")
        z.writestr("xl/workbook.xml", f"<workbook xmlns='http://schemas.openxmlformats.org/spreadsheetml/2006/main' "
                   f"xmlns:r='{rel}'><workbookPr/><sheets><sheet name='指令' sheetId='1' state='visible' r:id='rId2'/>"
                   "</sheets><definedNames><definedName function='false' hidden='true' localSheetId='0' "
                   "name='_xlnm._FilterDatabase'>指令!$A$1:$C$3</definedName></definedNames></workbook>")
        z.writestr("xl/_rels/workbook.xml.rels", "<Relationships xmlns='http://schemas.openxmlformats.org/package/2006/"
                   f"relationships'><Relationship Id='rId1' Type='{rel}/styles' Target='styles.xml'/>"
                   f"<Relationship Id='rId2' Type='{rel}/worksheet' Target='worksheets/sheet1.xml'/>"
                   f"<Relationship Id='rId3' Type='{rel}/sharedStrings' Target='sharedStrings.xml'/></Relationships>")
        z.writestr("xl/worksheets/sheet1.xml", LIBREOFFICE_SHEET)
        z.writestr("xl/sharedStrings.xml", LIBREOFFICE_STRINGS)
        z.writestr("xl/styles.xml", LIBREOFFICE_STYLES)


def test_a_libreoffice_like_file_reads_and_survives_a_write(tmp_path: Path) -> None:
    _libreoffice_like(tmp_path / "player-1.xlsx")
    gw = XlsxGateway(tmp_path)
    assert gw.read("player-1", ["指令!A1:C3"]) == {"指令!A1:C3": [
        ["阶段 ", "指令"], ["N1-survivor", "移动 B3\n搜索", "TRUE"],
        ["N1-survivor!", "2024-05-01 12:00:00", "#DIV/0!"]]}
    tab = gw.view("player-1").tab("指令")
    assert tab.frozen_rows == 1 and tab.bold == {"A1"} and tab.backgrounds == {"B2": "#ffe599"}
    assert tab.borders == {"B2": {"left": "thin", "top": "medium"}} and tab.column_widths == {"A": 144, "B": 144}
    assert tab.row_heights == {}  # LibreOffice's heights of every row are not heights anyone set
    gw.write("player-1", [SetValues("指令!C1", [["提交"]])])
    fresh = XlsxGateway(tmp_path)
    assert fresh.view("player-1") == gw.view("player-1")
    wb = openpyxl.load_workbook(tmp_path / "player-1.xlsx")
    ws = wb["指令"]
    assert ws["C1"].value == "提交" and ws["A3"].value == '=A2&"!"'
    assert [r.coord for r in ws.merged_cells.ranges] == ["D5:E5"]
    assert ws.protection.sheet and ws.protection.password == "CC3D" and ws.page_setup.paperSize == 9
    assert ws["B2"].alignment.wrap_text and ws["B3"].number_format == "yyyy\\-mm\\-dd\\ hh:mm"


def test_a_file_another_process_saved_is_read_again(gw: XlsxGateway, tmp_path: Path) -> None:
    assert gw.read("player-1", ["命令!A2"]) == {"命令!A2": [["N1-survivor"]]}
    other = XlsxGateway(tmp_path)
    other.write("player-1", [SetValues("命令!A2", [["N2-survivor"]])])
    assert gw.read("player-1", ["命令!A2"]) == {"命令!A2": [["N2-survivor"]]}
    wb = openpyxl.load_workbook(tmp_path / "player-1.xlsx")  # a person, in a spreadsheet program
    wb["命令"]["A2"] = "N3-survivor"
    wb.save(tmp_path / "player-1.xlsx")
    assert gw.read("player-1", ["命令!A2"]) == {"命令!A2": [["N3-survivor"]]}


SOFFICE = next((p for p in (shutil.which("soffice"), "/usr/lib/libreoffice/program/soffice") if p and Path(p).exists()),
               None)


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed")
def test_a_workbook_libreoffice_opened_and_saved_reads_back_as_written(gw: XlsxGateway, tmp_path: Path) -> None:
    """The real thing: LibreOffice opens our file and saves it in its own way; we read the same workbook.
    Headless LibreOffice keeps no frozen rows (it has no window: openpyxl's files lose them too), and it
    drops a column width equal to its own default; the rest must survive."""
    out = tmp_path / "lo"
    profile = f"-env:UserInstallation={(tmp_path / 'profile').as_uri()}"
    subprocess.run([str(SOFFICE), profile, "--headless", "--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir",
                    str(out), str(tmp_path / "player-1.xlsx")], check=True, capture_output=True, timeout=300)
    theirs = XlsxGateway(out).view("player-1")
    ours = gw.view("player-1")
    assert theirs.title == ours.title and [t.name for t in theirs.tabs] == [t.name for t in ours.tabs]
    for mine, lo in zip(ours.tabs, theirs.tabs, strict=True):
        for part in ("values", "backgrounds", "bold", "borders", "notes", "validations", "row_heights"):
            assert getattr(lo, part) == getattr(mine, part), (mine.name, part)
    assert XlsxGateway(out).protections("player-1") == gw.protections("player-1")


def test_parts_read_from_a_file_are_not_compressed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A part sheetgm does not model (the theme) and a sheet nothing changed keep their compressed bytes through
    a save: a write to one tab compresses that tab, not the theme of a workbook that once came from Excel."""
    from sheetgm.backends.xlsx import write as xlsx_write
    from sheetgm.backends.xlsx.read import read_book

    wb = openpyxl.Workbook()
    wb.active["A1"] = "x"
    wb.create_sheet("Other")["A1"] = "y"
    wb.save(tmp_path / "t.xlsx")
    original = zipfile.ZipFile(tmp_path / "t.xlsx")
    theme = original.read("xl/theme/theme1.xml")
    book = read_book(xlsx_write.write_book(read_book((tmp_path / "t.xlsx").read_bytes())))
    squeezed: list[bytes] = []
    real = xlsx_write.deflate
    monkeypatch.setattr(xlsx_write, "deflate", lambda raw: squeezed.append(raw) or real(raw))
    xlsx_cells.apply(book, book.sheets[0], SetValues("Sheet!B1", [["z"]]), parse_range("Sheet!B1"))
    data = xlsx_write.write_book(book)
    other = original.read("xl/worksheets/sheet2.xml")
    assert theme not in squeezed and other not in squeezed and any(b">z</t>" in raw for raw in squeezed)
    again = zipfile.ZipFile(io.BytesIO(data))
    assert again.read("xl/theme/theme1.xml") == theme
    assert again.read("xl/worksheets/sheet2.xml") == original.read("xl/worksheets/sheet2.xml")


def test_escaped_characters_read_and_a_literal_escape_survives(tmp_path: Path) -> None:
    """Spreadsheet strings escape characters as _xHHHH_ (_x000D_ a carriage return): read as the characters; a
    player's literal "_x0041_" is written escaped, so that Excel, calamine and a new read all show it as typed
    (openpyxl decodes no escape in an inline string)."""
    gw = XlsxGateway(tmp_path)
    gw.create("p", "t", ["A"])
    gw.write("p", [SetValues("A!A1:B1", [["_x0041_ and _x005F_", "plain_x"]])])
    assert XlsxGateway(tmp_path).read("p", ["A!A1:B1"]) == {"A!A1:B1": [["_x0041_ and _x005F_", "plain_x"]]}
    import python_calamine

    sheet = python_calamine.CalamineWorkbook.from_path(str(tmp_path / "p.xlsx")).get_sheet_by_name("A")
    assert sheet.to_python()[0] == ["_x0041_ and _x005F_", "plain_x"]
    from sheetgm.backends.xlsx.xmlkit import unescape

    assert unescape("a_x000D_b_x005F_x0041_") == "a\rb_x0041_"


def test_part_names_as_windows_tools_and_case_mixing_write_them(tmp_path: Path) -> None:
    """Some tools store "xl\\workbook.xml" and "[content_types].xml", or a part under another case than its
    relationship says: part names are compared as OPC does (without case, either slash)."""
    gw = XlsxGateway(tmp_path)
    gw.create("p", "t", ["A"])
    gw.write("p", [SetValues("A!A1", [["x"]])])
    data = (tmp_path / "p.xlsx").read_bytes()
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            name = info.filename.replace("/", "\\").replace("[Content_Types]", "[content_types]")
            dst.writestr(name.replace("sheet1.xml", "Sheet1.XML"), src.read(info.filename))
    (tmp_path / "p.xlsx").write_bytes(out.getvalue())
    gw = XlsxGateway(tmp_path)
    assert gw.read("p", ["A!A1"]) == {"A!A1": [["x"]]}
    gw.write("p", [SetValues("A!B1", [["y"]])])
    assert openpyxl.load_workbook(tmp_path / "p.xlsx")["A"]["B1"].value == "y"
    assert all("\\" not in n for n in zipfile.ZipFile(tmp_path / "p.xlsx").namelist())
