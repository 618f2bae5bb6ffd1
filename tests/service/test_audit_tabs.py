"""Issue 29.2: `audit` compares each workbook's tabs with what sheetgm made, as the file keeps them.

LibreOffice and Gnumeric do not enforce the lock on a workbook's tabs (both drop it at every save), so a
player can add, delete, rename, hide and show tabs: the audit names each, with the program the file says saved
it (docProps/app.xml), and a tab that is gone is named gone, not "unprotected".
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest
from cli_games import cli_game
from svc_helpers import write_order

from sheetgm.backends.port import LOCK_GAME, LOCK_NONE
from sheetgm.service.game import player_key


def _edit(path: Path, change) -> None:  # type: ignore[no-untyped-def]
    wb = openpyxl.load_workbook(path)
    change(wb)
    wb.save(path)


def _lines(text: str, who: str) -> list[str]:
    return [line for line in text.splitlines() if who in line]


def test_every_change_to_the_tabs_is_named_with_the_program_that_saved_the_file(tmp_path: Path) -> None:
    with cli_game("xlsx", tmp_path) as cli:
        clean = cli.run("audit")
        assert clean.exit_code == 0 and "不见了" not in clean.stdout and "结构锁" not in clean.stdout
        assert cli.open().gateway.structure(player_key(1)).lock == LOCK_GAME  # as sheetgm made it

        def deleted(wb):  # type: ignore[no-untyped-def]
            del wb["如何写指令"]
            wb["_sheetgm"].sheet_state = "visible"
            wb.security = None  # the lock on the tabs gone, as LibreOffice and Gnumeric drop it

        _edit(cli.file(player_key(1)), deleted)
        _edit(cli.file(player_key(2)), lambda wb: setattr(wb["当前"], "title", "我的地图"))
        _edit(cli.file(player_key(3)), lambda wb: wb.create_sheet("笔记"))
        found = cli.open().gateway.structure(player_key(1))
        assert found.lock == LOCK_NONE and "Openpyxl" in found.saved_by and "_sheetgm" in found.tabs
        audit = cli.run("audit")
        assert audit.exit_code == 1
        s1, s2, s3 = (_lines(audit.stdout, f"player-{n} (S{n})") for n in (1, 2, 3))
        assert any("「如何写指令」页不见了（被删除）" in x and "Openpyxl" in x for x in s1), audit.stdout
        assert any("结构锁" in x and "没有了" in x for x in s1)
        assert any("隐藏页「_sheetgm」被显示出来了" in x for x in s1)
        assert not any("没有保护" in x for x in s1)  # gone, not "unprotected"
        assert any("「当前」页不见了，多了一页「我的地图」（看来是被改名了）" in x for x in s2)
        assert any("多了一页 sheetgm 没有建立的「笔记」" in x for x in s3)
        assert not any("✗" in x for x in s3)  # an added tab is a warning: sheetgm neither reads nor writes it

        assert cli.run("resolve").exit_code == 0  # the next write makes the tabs again, hides, locks
        again = cli.run("audit")
        assert not _lines(again.stdout, "不见了") and not _lines(again.stdout, "结构锁"), again.stdout
        assert cli.open().gateway.structure(player_key(1)).lock == LOCK_GAME


def test_an_english_director_hears_it_in_english(tmp_path: Path) -> None:
    with cli_game("xlsx", tmp_path, lang="en") as cli:
        _edit(cli.file(player_key(1)), lambda wb: wb.remove(wb[wb.sheetnames[4]]))
        audit = cli.run("audit")
        assert "is gone (deleted)" in audit.stdout and "the next check or resolve makes it again" in audit.stdout


@pytest.mark.skipif(shutil.which("ssconvert") is None, reason="Gnumeric's ssconvert is not installed (apt gnumeric)")
def test_a_file_gnumeric_saved_is_named_and_its_lost_lock_found(tmp_path: Path) -> None:
    with cli_game("xlsx", tmp_path / "game") as cli:
        path = cli.file(player_key(2))
        out = tmp_path / "gnumeric.xlsx"
        ran = subprocess.run(["ssconvert", str(path), str(out)], capture_output=True, text=True, timeout=300)
        assert ran.returncode == 0, ran.stderr
        shutil.copy(out, path)
        found = cli.open().gateway.structure(player_key(2))
        assert found.lock != LOCK_GAME and found.saved_by.startswith("gnumeric")  # it drops the lock on the tabs
        audit = cli.run("audit")
        s2 = _lines(audit.stdout, "player-2 (S2)（文件 02-S2.xlsx，最后由 gnumeric")
        assert any("结构锁" in x for x in s2), audit.stdout
        assert any("「结果」页的保护没有密码" in x for x in s2)  # Gnumeric drops the password too
        assert any("隐藏页「_sheetgm」被显示出来了" in x for x in s2)  # and shows sheetgm's hidden tab
        assert cli.run("resolve").exit_code == 0  # the tool's next save puts every lock back and hides its tab
        game = cli.open()
        assert game.gateway.structure(player_key(2)).lock == LOCK_GAME
        assert all(p.password == LOCK_GAME for p in game.gateway.protections(player_key(2)))
        assert not [x for x in _lines(cli.run("audit").stdout, "player-2 (S2)") if "✗" in x or "!" in x]


def test_doctor_agrees_with_status_about_reports_not_delivered(tmp_path: Path) -> None:
    with cli_game("xlsx", tmp_path) as cli:
        g = cli.open()
        for seat in (1, 2, 3):
            write_order(g, seat, "搜索")
        path = cli.file(player_key(2))
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])  # S2's file damaged while the stage is published
        assert cli.run("resolve").exit_code == 0
        path.write_bytes(data)  # repaired, the report still owed
        status = cli.run("status")
        owed = [line for line in status.stdout.splitlines() if "还没收到" in line]
        assert owed and "S2" in owed[0]
        doctor = cli.run("doctor")
        assert doctor.exit_code != 0, doctor.stdout
        assert "还有结果没收到" in doctor.stdout and "S2（2 号，工作簿 player-2）还没收到 N1-survivor" in doctor.stdout
        assert "sheetgm resolve" in doctor.stdout
        assert cli.run("resolve").exit_code == 0  # delivered
        doctor = cli.run("doctor")
        assert doctor.exit_code == 0 and "每位玩家都收到了所有结果" in doctor.stdout, doctor.stdout
