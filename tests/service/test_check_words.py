"""`sheetgm check` on what players write (issue 9 item 14, issue 10 item 5), on every backend.

An order whose later step depends on what a Search finds is no problem: the checker notes it in
column E, and the order is complete (status ok, first-complete time stamped). A misspelt keyword
gets a "did you mean", in the writer's camp's words only: a hunter is never told to use a survivor's
action, and the order column's help shows each camp its own examples.
"""

# covers: R-ORDER-4, RUL-27

from __future__ import annotations

import json
from pathlib import Path

from svc_helpers import make_game, orders_row, state_of, write_order
from typer.testing import CliRunner

from sheetgm.cli.app import app
from sheetgm.core.board import tile_name
from sheetgm.service.check import check
from sheetgm.service.game import open_game, player_key
from sheetgm.service.resolve import resolve
from sheetgm.sheets import layout


def test_an_order_that_depends_on_a_search_is_complete(gw, tmp_path: Path, clock) -> None:
    game = make_game(tmp_path, gw, clock, schedule=None)  # no deadline: every check stamps
    here = tile_name(state_of(game).players[1].pos)
    write_order(game, 1, f"搜索；使用 啤酒瓶 {here}")
    write_order(game, 2, f"使用 啤酒瓶 {here}")  # no search first: a problem
    rep = check(game)
    by_alias = {p.alias: p for p in rep.players}
    assert by_alias["S1"].state == "ok" and by_alias["S1"].problems == []
    assert by_alias["S1"].notes == ["第 2 步：取决于搜索找到什么（现在：你没有持有啤酒瓶）"]
    row = orders_row(game, 1)
    assert row[layout.O_STAMP] == "2024-05-01 周三 20:00（Asia/Shanghai，UTC+8）"
    assert "取决于搜索找到什么" in row[layout.O_PROBLEMS] and "✔" in row[layout.O_STATUS]
    assert by_alias["S2"].state == "problems" and not orders_row(game, 2)[layout.O_STAMP]


def test_a_hunter_is_offered_hunters_words(gw, tmp_path: Path, clock) -> None:
    game = make_game(tmp_path, gw, clock)
    hunter = 4
    notes = gw.view(player_key(hunter)).tab("指令").notes["B1"]
    assert "攻击" in notes and "搜索" not in notes
    assert "搜索" in gw.view(player_key(1)).tab("指令").notes["B1"]
    resolve(game)  # the survivor stage: now the hunter's order is due
    write_order(game, hunter, "攻机；搜素；搜索 宝剑")
    check(game)
    problems = orders_row(game, hunter)[layout.O_PROBLEMS].splitlines()
    assert "你是不是想写「攻击」？" in problems[0]
    assert "不认识「搜素」（" in problems[1]  # no survivor's word is offered to a hunter
    assert problems[2] == "第3步「搜索 宝剑」：「搜索」是求生者的行动，你不能使用"


def test_check_on_the_command_line_shows_the_notes(tmp_path: Path) -> None:
    runner = CliRunner()
    (tmp_path / "game.toml").write_text(
        'name = "w"\nseed = 3\n[options]\ncrack_target = 6\n'
        '[[roster]]\nalias = "Ann"\ncamp = "survivor"\n[[roster]]\nalias = "Hu"\ncamp = "hunter"\n', "utf-8")
    assert runner.invoke(app, ["new", "--game", str(tmp_path)]).exit_code == 0
    game = open_game(tmp_path)
    here = tile_name(state_of(game).players[1].pos)
    write_order(game, 1, f"搜索；使用 啤酒瓶 {here}")
    result = runner.invoke(app, ["check", "--game", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    ann = json.loads(result.stdout)["players"][0]
    assert ann["state"] == "ok" and ann["stamp"] and ann["notes"]
    text = runner.invoke(app, ["check", "--game", str(tmp_path)]).stdout
    assert "· 第 2 步：取决于搜索找到什么" in text


def test_problems_and_notes_number_the_steps_as_written(gw, tmp_path: Path, clock) -> None:
    game = make_game(tmp_path, gw, clock)
    st = state_of(game)
    here = st.players[1].pos
    path = " ".join(tile_name((here[0], here[1] + dy)) for dy in (1, 2, 3))  # one written step, three moves
    write_order(game, 1, f"移动 {path}；攻击；搜索；使用 啤酒瓶 {tile_name(here)}")
    check(game)
    lines = orders_row(game, 1)[layout.O_PROBLEMS].splitlines()
    assert "第 2 步：这是杀手的行动" in lines, lines
    assert any(line.startswith("第 4 步：取决于搜索找到什么") for line in lines), lines


def test_a_problem_repeated_along_one_path_is_said_once(gw, tmp_path: Path, clock) -> None:
    """Issue 28: `check` said "第 1 步：移动力不足" once per tile of a path written with ，beyond her MP (RUL-60)."""
    game = make_game(tmp_path, gw, clock)
    here = state_of(game).players[1].pos
    a, b = tile_name(here), tile_name((here[0], here[1] + 1))
    write_order(game, 1, f"移动 {b}，{a}，{b}，{a}，{b}；搜索")  # five moves, 3 MP: the last two fail alike
    check(game)
    lines = orders_row(game, 1)[layout.O_PROBLEMS].splitlines()
    assert [line for line in lines if line.startswith("第 1 步：")] == ["第 1 步：移动力不足（需要 1，剩余 0）"], lines
