"""Issue 29.3: one player cannot stop the night for the others.

An order as long as a cell holds (32,767 characters) is checked, archived and told: every record sheetgm keeps of
a player's text is bounded (the check's memory, the stamps, the journal), so the director's Orders archive still
gets every seat's row.
"""

from __future__ import annotations

from pathlib import Path

from svc_helpers import Clock, make_game, orders_row, roster, write_order

from sheetgm.backends.port import XLSX_CELL_LIMIT
from sheetgm.backends.xlsx.gateway import XlsxGateway
from sheetgm.service.check import check
from sheetgm.service.game import DIRECTOR
from sheetgm.service.ledger import checkmemo, stamps
from sheetgm.service.ledger.journal import read_director
from sheetgm.service.resolve import resolve
from sheetgm.sheets import layout
from sheetgm.sheets.limits import MAX_ORDER_CHARS, kept_order
from sheetgm.sheets.stages import archive_row

DEADLINE = {"N1-survivor": "2024-05-01T21:00:00+08:00"}  # ahead of the clock: the check keeps its memory


def test_an_order_as_long_as_a_cell_holds_is_checked_archived_and_told(tmp_path: Path) -> None:
    gw = XlsxGateway(tmp_path / "workbooks")
    clock = Clock()
    game = make_game(tmp_path, gw, clock, roster=roster(3, 1), deadlines=DEADLINE)
    write_order(game, 1, "搜" * XLSX_CELL_LIMIT)
    write_order(game, 2, "搜索")
    rep = check(game)
    by = {p.alias: p for p in rep.players}
    assert by["S1"].state == "problems"
    assert by["S2"].state == "ok" and by["S2"].stamp
    assert "太长" in orders_row(game, 1)[layout.O_PROBLEMS]
    archive = gw.read(DIRECTOR, [stamps.archive_range(game.lang)])[stamps.archive_range(game.lang)]
    memos = checkmemo.memos(archive, "N1-survivor", 4)
    assert set(memos) == {1, 2, 3}  # every seat's row, the long one's too
    assert stamps.truths(archive, "N1-survivor", 4, [])[2].stamp  # S2's first-complete stamp is kept
    row = archive[archive_row("N1-survivor", 1, 4) - 2]
    assert all(len(c) < 5000 for c in row)  # bounded: the memo keeps what refuses it again, not the whole text
    assert memos[1].o == kept_order("搜" * XLSX_CELL_LIMIT) and memos[1].r["state"] == by["S1"].state
    again = {p.alias: p.state for p in check(game).players}
    assert again == {"S1": by["S1"].state, "S2": "ok", "S3": "empty"}
    clock.advance(hours=2)  # past the deadline: the stage resolves, the long order refused, told, archived
    assert resolve(game).action == "resolved"
    info = read_director(game)[0][-1].orders()
    assert info[1].bad and len(info[1].text) == MAX_ORDER_CHARS + 1 and info[2].stamp
    assert "原地不动" in orders_row(game, 1)[layout.O_STATUS]


def test_a_memo_too_long_for_its_cell_is_kept_without_its_verdict() -> None:
    memo = checkmemo.Memo("v", "c", "j", "t", {"state": "problems", "problems": ["x" * 40_000]}, ["w"], o="o")
    text = memo.text()
    back = checkmemo.Memo.parse(text)
    assert len(text) < 1000 and back is not None
    assert (back.v, back.c, back.o, back.r, back.w) == ("v", "c", "o", {}, [])  # the verdict is read again next time
