"""Protection in force in the .xlsx file itself (issue 15, item 1): a tab locked with the game's password (the
modern SHA-512 hash), everything locked but the open cells, rows and formats closed; read back from the file,
not from the hidden record; checked by openpyxl (an independent reader) and by LibreOffice (a real program,
driven like a player's hands: ``lo_hands.py``)."""

# covers: RUL-46

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import time
import uuid
from pathlib import Path

import openpyxl
import pytest

from sheetgm.backends.port import LOCK_GAME, LOCK_NONE, LOCK_OTHER, Protect, SetValues
from sheetgm.backends.xlsx import lock
from sheetgm.backends.xlsx.gateway import META_TAB, XlsxGateway

PASSWORD = "tiger-lily-42"
GM = ("gm@x.com",)
OPEN = ["命令!B2:C2", "命令!G2"]


@pytest.fixture
def gw(tmp_path: Path) -> XlsxGateway:
    g = XlsxGateway(tmp_path)
    g.password_source = lambda: PASSWORD
    g.create("player-1", "玩家1", ["命令", "结果"])
    g.write("player-1", [SetValues("命令!A1:G2", (("阶段", "指令", "提交", "状态", "问题", "时间", "参考"),
                                                 ("N1-survivor", "", "", "待填写"))),
                         Protect("结果", GM, "results"), Protect("命令", GM, "orders", OPEN)])
    return g


def _file(tmp_path: Path) -> Path:
    return tmp_path / "player-1.xlsx"


def _by_tab(gw: XlsxGateway) -> dict[str, object]:
    return {p.range.strip("'"): p for p in gw.protections("player-1")}


def test_the_file_locks_the_tab_with_the_games_password_and_opens_only_the_order_cells(gw: XlsxGateway,
                                                                                        tmp_path: Path) -> None:
    ws = openpyxl.load_workbook(_file(tmp_path))["命令"]
    prot = ws.protection
    assert prot.sheet and prot.algorithmName == "SHA-512" and prot.spinCount == lock.SPIN
    assert prot.hashValue == lock.password_hash(PASSWORD, prot.saltValue, prot.spinCount)
    assert prot.hashValue != lock.password_hash("wrong", prot.saltValue, prot.spinCount)
    assert all(getattr(prot, flag) for flag in ("insertRows", "deleteRows", "sort", "formatCells", "insertColumns"))
    assert [c for c in ("A2", "B2", "C2", "D2", "G2", "B3", "A1") if not ws[c].protection.locked] == ["B2", "C2", "G2"]
    assert PASSWORD not in _file(tmp_path).read_bytes().decode("latin-1")  # only its salted hash is in the file
    orders = _by_tab(gw)["命令"]
    assert (orders.unprotected, orders.password, orders.allows, orders.description) == (  # type: ignore[attr-defined]
        ("'命令'!B2:C2", "'命令'!G2"), LOCK_GAME, (), "orders")


def test_the_open_cells_follow_the_stage_and_close_when_it_freezes(gw: XlsxGateway, tmp_path: Path) -> None:
    gw.write("player-1", [Protect("命令", GM, "orders", ["命令!B3:C3", "命令!G3"])])
    ws = openpyxl.load_workbook(_file(tmp_path))["命令"]
    assert [c for c in ("B2", "C2", "G2", "B3", "C3", "G3") if not ws[c].protection.locked] == ["B3", "C3", "G3"]
    gw.write("player-1", [Protect("命令", GM, "orders")])
    ws = openpyxl.load_workbook(_file(tmp_path))["命令"]
    assert all(ws[c].protection.locked for c in ("B2", "B3", "C3", "G3")) and ws.protection.sheet
    assert _by_tab(gw)["命令"].unprotected == ()  # type: ignore[attr-defined]


def _edit(tmp_path: Path, change) -> None:  # type: ignore[no-untyped-def]
    wb = openpyxl.load_workbook(_file(tmp_path))
    change(wb)
    wb.save(_file(tmp_path))


def test_what_a_person_did_to_the_file_is_what_protections_report(gw: XlsxGateway, tmp_path: Path) -> None:
    """Read from the file: the hidden record saying "protected" counts for nothing."""
    _edit(tmp_path, lambda wb: setattr(wb["结果"].protection, "sheet", False))
    assert "结果" not in _by_tab(gw)

    def widen(wb: openpyxl.Workbook) -> None:
        ws = wb["命令"]
        ws["A2"].protection = openpyxl.styles.Protection(locked=False)
        ws.protection.insertRows = False
        ws.protection.sort = False
    _edit(tmp_path, widen)
    orders = _by_tab(gw)["命令"]
    assert "'命令'!A2:C2" in orders.unprotected  # type: ignore[attr-defined]
    assert orders.allows == ("insertRows", "sort")  # type: ignore[attr-defined]

    def no_password(wb: openpyxl.Workbook) -> None:
        wb["命令"].protection.hashValue = None
        wb["命令"].protection.algorithmName = None
    _edit(tmp_path, no_password)
    assert _by_tab(gw)["命令"].password == LOCK_NONE  # type: ignore[attr-defined]
    _edit(tmp_path, lambda wb: wb["命令"].protection.set_password("mine"))
    assert _by_tab(gw)["命令"].password == lock.LOCK_WEAK  # type: ignore[attr-defined]

    # the tool protects again: everything back as it should be
    gw.write("player-1", [Protect("结果", GM, "results"), Protect("命令", GM, "orders", OPEN)])
    found = _by_tab(gw)
    assert found["命令"].unprotected == ("'命令'!B2:C2", "'命令'!G2")  # type: ignore[attr-defined]
    assert [(p.password, p.allows) for p in found.values()] == [(LOCK_GAME, ())] * 2  # type: ignore[attr-defined]


def test_another_password_and_a_hash_built_to_take_minutes_count_as_not_the_games(gw: XlsxGateway,
                                                                                  tmp_path: Path) -> None:
    salt = base64.b64encode(b"0123456789abcdef").decode()
    other = lock.password_hash("someone else's", salt, 1000)
    _edit(tmp_path, lambda wb: [setattr(wb["命令"].protection, k, v) for k, v in (
        ("algorithmName", "SHA-512"), ("saltValue", salt), ("spinCount", 1000), ("hashValue", other))])
    assert _by_tab(gw)["命令"].password == LOCK_OTHER  # type: ignore[attr-defined]
    _edit(tmp_path, lambda wb: setattr(wb["命令"].protection, "spinCount", 2_000_000_000))
    start = time.perf_counter()
    assert _by_tab(gw)["命令"].password == LOCK_OTHER  # type: ignore[attr-defined]
    assert time.perf_counter() - start < 5  # refused, not worked through


def test_a_wiped_hidden_record_leaves_the_protection_in_force_and_the_next_write_restores_it(
        gw: XlsxGateway, tmp_path: Path) -> None:
    def wipe(wb: openpyxl.Workbook) -> None:
        del wb[META_TAB]
    _edit(tmp_path, wipe)
    found = _by_tab(gw)
    assert set(found) == {"命令", "结果"} and all(p.description == "" for p in found.values())  # type: ignore
    gw.write("player-1", [Protect("结果", GM, "results"), Protect("命令", GM, "orders", OPEN)])
    assert {p.description for p in gw.protections("player-1")} == {"results", "orders"}
    assert openpyxl.load_workbook(_file(tmp_path))[META_TAB].sheet_state == "hidden"


def _uno_python() -> str | None:
    python = shutil.which("python3", path="/usr/bin")
    if shutil.which("soffice") is None or python is None:
        return None
    probe = "import sys; sys.path.append('/usr/lib/python3/dist-packages'); import uno"
    ok = subprocess.run([python, "-c", probe], capture_output=True, timeout=60).returncode == 0
    return python if ok else None


def _lo_hands(source: Path, out: Path) -> dict[str, object]:
    """What LibreOffice let a player do (``lo_hands.py``), in its own LibreOffice reached by a pipe of its own.
    A run LibreOffice itself failed (it did not start, or UNO failed before the record: the machine is loaded)
    is tried once more with a new LibreOffice; a record is judged by the test."""
    hands = Path(__file__).with_name("lo_hands.py")
    failed = ""
    for _attempt in range(2):
        name = f"sheetgm-test-{os.getpid()}-{uuid.uuid4().hex}"
        done = subprocess.run([str(_uno_python()), str(hands), str(source), PASSWORD, str(out), name],
                              capture_output=True, text=True, timeout=900)
        if done.returncode == 0:
            return dict(json.loads(done.stdout.strip().splitlines()[-1]))
        failed = done.stderr
    raise AssertionError(f"LibreOffice failed twice: {failed}")


@pytest.mark.skipif(_uno_python() is None, reason="LibreOffice with its Python bridge (python3-uno) is not installed")
def test_libreoffice_keeps_a_player_to_their_order_cells_and_asks_for_the_password(gw: XlsxGateway,
                                                                                    tmp_path: Path) -> None:
    out = tmp_path / "saved" / "player-1.xlsx"
    out.parent.mkdir()
    record = _lo_hands(_file(tmp_path), out)
    assert record == {"protected": True, "locked": ["A2", "D2", "E2", "F2", "B3", "A1"], "typed_label": False,
                      "typed_order": True,
                      "typed_tick": True, "inserted_row": False, "deleted_row": False,
                      "wrong_password_lifts": False, "game_password_lifts": True}
    saved = XlsxGateway(out.parent)
    saved.password_source = lambda: PASSWORD
    assert saved.read("player-1", ["命令!A2:D2"])["命令!A2:D2"] == [["N1-survivor", "移动 C3", "✓", "待填写"]]
    orders = {p.range.strip("'"): p for p in saved.protections("player-1")}["命令"]
    assert (orders.password, orders.allows) == (LOCK_GAME, ())  # LibreOffice keeps the game's lock when it saves
    assert set(orders.unprotected) == {"'命令'!B2:C2", "'命令'!G2"}
