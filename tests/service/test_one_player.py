"""Issue 29.3: one player cannot stop the night for the others.

An order as long as a cell holds (32,767 characters) is checked, archived and told: every record sheetgm keeps of
a player's text is bounded (the check's memory, the stamps, the journal), so the director's Orders archive still
gets every seat's row.
"""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest
from cli_games import cli_game
from svc_helpers import Clock, make_game, orders_row, roster, write_order

from sheetgm.backends.port import XLSX_CELL_LIMIT, SetValues
from sheetgm.backends.xlsx.gateway import XlsxGateway
from sheetgm.core import jsontext
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


DEEP = "[" * 5000 + "]" * 5000  # past the interpreter's recursion limit: json.loads raised RecursionError


@pytest.mark.parametrize("cell", ["P", "journal-L", "journal-G"])
def test_a_director_cell_edited_to_nested_brackets_is_damage_named_never_a_traceback(tmp_path: Path,
                                                                                      cell: str) -> None:
    with cli_game("xlsx", tmp_path) as cli:
        game = cli.open()
        write_order(game, 1, "搜索")
        assert cli.run("check").exit_code == 0
        if cell == "P":  # the check's memory: damaged, it is forgotten and the workbooks read again
            r = archive_row("N1-survivor", 1, len(game.seats))
            game.gateway.write(DIRECTOR, [SetValues(layout.rng(layout.tab(game.lang, "archive"), f"P{r}"), ((DEEP,),))])
        else:  # the journal: the setup row's cell named, as any other damage there
            column = cell.split("-")[1]
            game.gateway.write(DIRECTOR, [SetValues(layout.rng(layout.tab(game.lang, "journal"), f"{column}2"),
                                                    ((DEEP,),))])
        for command in ("check", "resolve", "status"):
            run = cli.run(command)
            assert "Traceback" not in run.output and "RecursionError" not in run.output, run.output
            if cell == "P":
                assert run.exit_code == 0, run.output
            else:
                assert run.exit_code != 0 and "N0-setup" in run.output and f"{column} 列" in run.output, run.output


def test_bounded_json_refuses_what_is_too_deep_or_too_long_and_a_bomb() -> None:
    assert jsontext.loads('{"a": [1, [2]]}') == {"a": [1, [2]]}
    for text in (DEEP, "[" * 40 + "]" * 40):
        with pytest.raises(ValueError, match="nested deeper"):
            jsontext.loads(text)
    with pytest.raises(ValueError, match="characters"):
        jsontext.loads("[1]" + " " * 100, max_chars=50)
    with pytest.raises(ValueError, match="grows past"):
        jsontext.inflate(zlib.compress(b"0" * 10_000), limit=1000)
    assert jsontext.inflate(zlib.compress(b"0" * 1000), limit=1000) == b"0" * 1000
    assert checkmemo.Memo.parse('{"v":"","c":"","j":"","t":"","r":{"problems":[[["x"]]]},"w":[]}') is None


def test_a_made_up_identity_seal_is_named_forged_not_another_seat(tmp_path: Path) -> None:
    game = make_game(tmp_path, XlsxGateway(tmp_path / "workbooks"), Clock(), roster=roster(3, 1))
    orders = layout.tab("zh", "orders")
    game.gateway.write("player-1", [SetValues(layout.rng(orders, layout.IDENTITY_CELL),
                                              (("player-2/0123456789abcdef",),))])
    rep = check(game)
    s1 = next(p for p in rep.players if p.alias == "S1")
    assert s1.state == "unreadable"
    assert "伪造" in s1.problems[0] and "player-2" in s1.problems[0]
    assert "装的是" not in s1.problems[0]  # it does not hold seat 2's workbook: the seal is made up


def test_a_cell_full_of_text_in_the_dropdown_column_is_told_cut_not_a_write_refused(tmp_path: Path) -> None:
    gw = XlsxGateway(tmp_path / "workbooks")
    game = make_game(tmp_path, gw, Clock(), roster=roster(3, 1), deadlines=DEADLINE)
    orders = layout.tab("zh", "orders")
    gw.write("player-1", [SetValues(layout.rng(orders, "G2"), (("移" * XLSX_CELL_LIMIT,),))])  # column G is open
    rep = check(game)
    assert not any("写不进" in w for w in rep.warnings), rep.warnings
    status = orders_row(game, 1)[layout.O_STATUS]
    assert "G 列" in status and len(status) < 2000  # told, with the pick quoted short


def test_a_label_cell_full_of_text_is_quoted_short_to_player_and_director(tmp_path: Path) -> None:
    """Column A is locked, but a program that ignores protection can write a cell's worth there."""
    gw = XlsxGateway(tmp_path / "workbooks")
    game = make_game(tmp_path, gw, Clock(), roster=roster(3, 1), deadlines=DEADLINE)
    orders = layout.tab("zh", "orders")
    gw.write("player-1", [SetValues(layout.rng(orders, "A2"), (("搜" * XLSX_CELL_LIMIT,),))])
    rep = check(game)
    assert not any("写不进" in w for w in rep.warnings)
    assert all(len(w) < 1000 for w in rep.warnings) and any("搜搜" in w for w in rep.warnings)
    assert len(orders_row(game, 1)[layout.O_STATUS]) < 2000


GARBAGE = [DEEP, "{" * 3000, "搜" * XLSX_CELL_LIMIT, "z:" + "A" * 400, "+3:" + "[" * 100,
           '{"v": [[[[[[[[[[1]]]]]]]]]]}', "9" * 5000, "2024-05-01T21:00:00+08:00" * 1000]


@pytest.mark.parametrize("column", "ABCDEFGHIJKLMNOP")
def test_any_text_in_any_cell_of_the_orders_archive_is_read_or_named_never_a_traceback(tmp_path: Path,
                                                                                       column: str) -> None:
    from sheetgm.backends.memory import MemoryGateway
    from sheetgm.core.errors import SheetgmError
    from sheetgm.service.status import status

    game = make_game(tmp_path, MemoryGateway(), Clock(), roster=roster(3, 1), deadlines=DEADLINE)
    write_order(game, 1, "搜索")
    check(game)
    archive = layout.tab(game.lang, "archive")
    for i, junk in enumerate(GARBAGE):
        r = archive_row("N1-survivor", 1 + i % 3, 4)
        game.gateway.write(DIRECTOR, [SetValues(layout.rng(archive, f"{column}{r}"), ((junk,),))])
        for run in (check, status, resolve):
            try:
                run(game)
            except SheetgmError as err:  # damage named, in words
                assert err.message("zh")


@pytest.mark.parametrize("column", "ABCDEFGHIJKL")
def test_any_text_in_any_cell_of_the_journal_is_read_or_named_never_a_traceback(tmp_path: Path, column: str) -> None:
    from sheetgm.backends.memory import MemoryGateway
    from sheetgm.core.errors import SheetgmError
    from sheetgm.service.status import status

    game = make_game(tmp_path, MemoryGateway(), Clock(), roster=roster(3, 1))
    journal = layout.tab(game.lang, "journal")
    for junk in GARBAGE:
        game.gateway.write(DIRECTOR, [SetValues(layout.rng(journal, f"{column}2"), ((junk,),))])
        for run in (check, status, resolve):
            try:
                run(game)
            except SheetgmError as err:  # damage named, in words
                assert err.message("zh")
