"""What only the xlsx adapter promises: real files, atomic saves, LibreOffice-visible protection."""

from __future__ import annotations

import zipfile
from pathlib import Path

import openpyxl
import pytest

from sheetgm.backends.errors import FileError, OpError, RangeError
from sheetgm.backends.port import Protect, SetNote, SetValidation, SetValues, Unprotect
from sheetgm.backends.xlsx.gateway import META_TAB, XlsxGateway


@pytest.fixture
def gw(tmp_path: Path) -> XlsxGateway:
    g = XlsxGateway(tmp_path)
    g.create("player-1", "玩家1", ["命令", "结果"])
    return g


def test_one_real_xlsx_per_key(gw: XlsxGateway, tmp_path: Path) -> None:
    path = tmp_path / "player-1.xlsx"
    assert zipfile.is_zipfile(path)
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == ["命令", "结果", META_TAB]
    assert wb[META_TAB].sheet_state == "hidden"
    assert wb.properties.title == "玩家1"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["player-1.xlsx"]  # no temp file left


def test_whole_tab_protection_turns_on_sheet_protection(gw: XlsxGateway, tmp_path: Path) -> None:
    gw.write("player-1", [Protect("结果", ("d@x.com",), "results"),
                          Protect("命令", ("d@x.com",), "orders", ["命令!B2"])])
    wb = openpyxl.load_workbook(tmp_path / "player-1.xlsx")
    assert wb["结果"].protection.sheet is True and wb["命令"].protection.sheet is True
    gw.write("player-1", [Unprotect("results")])
    assert openpyxl.load_workbook(tmp_path / "player-1.xlsx")["结果"].protection.sheet is False
    assert [p.description for p in gw.protections("player-1")] == ["orders"]


def test_a_failing_write_leaves_the_file_byte_for_byte(gw: XlsxGateway, tmp_path: Path) -> None:
    path = tmp_path / "player-1.xlsx"
    before = path.read_bytes()
    with pytest.raises(RangeError):
        gw.write("player-1", [SetValues("命令!A1", [["x"]]), SetNote("Nope!A1", "n")])
    assert path.read_bytes() == before


def test_values_typed_by_a_person_read_as_sheets_shows_them(gw: XlsxGateway, tmp_path: Path) -> None:
    path = tmp_path / "player-1.xlsx"
    wb = openpyxl.load_workbook(path)
    ws = wb["命令"]
    ws["A1"], ws["B1"], ws["C1"], ws["D1"], ws["E1"] = 3, 2.0, 1.5, True, "移动 B3"
    wb.save(path)
    assert gw.read("player-1", ["命令!A1:E1"]) == {"命令!A1:E1": [["3", "2", "1.5", "TRUE", "移动 B3"]]}


def test_formula_like_text_is_stored_as_text(gw: XlsxGateway, tmp_path: Path) -> None:
    gw.write("player-1", [SetValues("命令!A1", [["=HYPERLINK(\"x\")"]])])
    cell = openpyxl.load_workbook(tmp_path / "player-1.xlsx")["命令"]["A1"]
    assert cell.data_type == "s" and cell.value == '=HYPERLINK("x")'


def test_dropdowns_are_real_list_validations(gw: XlsxGateway, tmp_path: Path) -> None:
    gw.write("player-1", [SetValidation("命令!B2:B5", ("移动", "搜索"), help="选择")])
    dv = openpyxl.load_workbook(tmp_path / "player-1.xlsx")["命令"].data_validations.dataValidation
    assert len(dv) == 1 and dv[0].type == "list" and dv[0].formula1 == '"移动,搜索"'
    assert str(dv[0].sqref) == "B2:B5" and dv[0].prompt == "选择"


def test_a_corrupt_file_is_named(gw: XlsxGateway, tmp_path: Path) -> None:
    (tmp_path / "public.xlsx").write_bytes(b"not a zip")
    with pytest.raises(FileError) as err:
        gw.read("public", ["Log!A1"])
    assert "public.xlsx" in err.value.message("en")


@pytest.mark.parametrize("key", ["../escape", "a/b", "", ".hidden", "x.xlsx"])
def test_keys_cannot_escape_the_folder(gw: XlsxGateway, key: str) -> None:
    with pytest.raises(OpError):
        gw.exists(key)
