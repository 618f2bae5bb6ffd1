"""The workbook's structure lock (RUL-46) meets the reader that carries every part it does not model
(workbook.xml written back from its skeleton): one <workbookProtection>, in its place, with the game's
password; a lock already the game's is written back as it was; a foreign one is replaced."""

# covers: RUL-46

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import openpyxl
from openpyxl.workbook.protection import WorkbookProtection

from sheetgm.backends.port import Protect, SetValues
from sheetgm.backends.xlsx import lock
from sheetgm.backends.xlsx.gateway import XlsxGateway

PASSWORD = "tiger-lily-42"


def _workbook_xml(path: Path) -> str:
    with zipfile.ZipFile(path) as z:
        return z.read("xl/workbook.xml").decode("utf-8")


def _guards(xml: str) -> list[str]:
    return re.findall(r"<workbookProtection[^>]*/>", xml)


def _gateway(folder: Path) -> XlsxGateway:
    g = XlsxGateway(folder)
    g.password_source = lambda: PASSWORD
    return g


def test_the_structure_lock_is_written_once_in_place_and_kept_through_saves(tmp_path: Path) -> None:
    g = _gateway(tmp_path)
    g.create("player-1", "P1", ["命令", "结果"])
    g.write("player-1", [Protect("结果", ("gm@x.com",), "results")])
    path = tmp_path / "player-1.xlsx"
    first = _workbook_xml(path)
    assert len(_guards(first)) == 1 and first.index("<workbookProtection") < first.index("<bookViews")
    wb = openpyxl.load_workbook(path)
    sec = wb.security
    assert sec is not None and sec.lockStructure and sec.workbookAlgorithmName == "SHA-512"
    assert sec.workbookHashValue == lock.password_hash(PASSWORD, sec.workbookSaltValue, int(sec.workbookSpinCount))
    for _ in range(2):  # a fresh process reading the file and saving a change: the lock is the same element
        _gateway(tmp_path).write("player-1", [SetValues("命令!B2", (("破解",),)), Protect("结果", (), "results")])
        assert _guards(_workbook_xml(path)) == _guards(first)


def test_a_foreign_structure_lock_is_replaced_by_the_games(tmp_path: Path) -> None:
    path = tmp_path / "player-1.xlsx"
    _gateway(tmp_path).create("player-1", "P1", ["命令", "结果"])
    wb = openpyxl.load_workbook(path)  # saved again by another program, locked with another password
    wb.security = WorkbookProtection(workbookPassword="other", lockStructure=True)
    wb.save(path)
    assert 'workbookPassword="' in _workbook_xml(path)
    _gateway(tmp_path).write("player-1", [Protect("结果", ("gm@x.com",), "results")])
    xml = _workbook_xml(path)
    assert len(_guards(xml)) == 1 and 'workbookPassword="' not in xml
    sec = openpyxl.load_workbook(path).security
    assert sec is not None and sec.lockStructure
    assert sec.workbookHashValue == lock.password_hash(PASSWORD, sec.workbookSaltValue, int(sec.workbookSpinCount))
