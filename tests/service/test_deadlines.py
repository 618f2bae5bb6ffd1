"""Deadlines on every gateway: reminders before the deadline, early resolution, camp names, missing orders."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from svc_helpers import Clock, make_game, orders_row, roster, snapshot, state_of, write_order
from typer.testing import CliRunner

from sheetgm.core.check import legal_steps
from sheetgm.core.texts import render
from sheetgm.notation.order_format import format_step
from sheetgm.service.check import check
from sheetgm.service.errors import NotDueError, ServiceError
from sheetgm.service.game import PUBLIC, Game, player_key
from sheetgm.service.ledger.journal import read_director
from sheetgm.service.resolve import resolve
from sheetgm.service.status import status
from sheetgm.service.timing import deadlines
from sheetgm.sheets import layout
from sheetgm.sheets.archive import ArchivedOrder
from sheetgm.sheets.stages import log_row

DEADLINE = "2024-05-01T21:00:00+08:00"  # the clock starts at 20:00 in Shanghai: one hour before
SHOWN = "2024-05-01 周三 21:00（Asia/Shanghai，UTC+8）"  # every time shown names its zone and offset
SHOWN_EN = "Wed 2024-05-01 21:00 (Asia/Shanghai, UTC+8)"


def game_with_deadline(tmp_path: Path, gw, clock: Clock, **cfg) -> Game:  # type: ignore[no-untyped-def]
    return make_game(tmp_path, gw, clock, deadlines={"N1-survivor": DEADLINE, "N1-hunter": "2024-05-01T23:00:00+08:00"},
                     **cfg)


def submit(game: Game, seat: int, tick: str = "✓") -> str:
    """Write the seat's first legal step as its order (problem-free); returns the text."""
    lang = game.seat_lang(seat)
    text = format_step(legal_steps(state_of(game), seat)[0], lang)
    write_order(game, seat, text, tick=tick)
    return text


def log_cells(game: Game, lang: str = "zh") -> list[list[str]]:
    return game.gateway.view(PUBLIC).tab(layout.tab(lang, "log")).values


def reminder_line(game: Game, key: str = "N1-survivor", lang: str = "zh") -> str:
    row = log_cells(game, lang)[log_row(key) - 1]
    assert row[0] == key
    return row[2]


# --- reminders written by check

def test_check_before_the_deadline_names_who_has_not_submitted_and_nothing_more(gw, tmp_path: Path, clock) -> None:
    game = game_with_deadline(tmp_path, gw, clock, roster=roster(langs={3: "en"}))
    text1 = submit(game, 1)
    text3 = submit(game, 3, tick="")  # a correct order, but not ticked: not submitted
    rep = check(game)
    assert rep.reminded == ["S2", "S3"] and rep.deadline == "2024-05-01T21:00:00+08:00"
    assert rep.to_dict()["reminded"] == ["S2", "S3"]
    line = reminder_line(game)
    assert "S2" in line and "S3" in line and "S1" not in line and "H1" not in line
    assert SHOWN in line and "05-01 20:00 UTC+8 检查" in line
    english = reminder_line(game, lang="en")  # the roster reads English too: the same line in the English tab
    assert english == f"Checked 05-01 20:00 UTC+8: deadline {SHOWN_EN}, not submitted yet: S2, S3"
    everything = json.dumps(log_cells(game) + log_cells(game, "en"), ensure_ascii=False)
    assert text1 not in everything and text3 not in everything  # never what anyone ordered
    assert log_cells(game)[0][2] == render("zh", "sheet.remind.head")
    # the player's own status cell, in their language, with the deadline in the game's zone
    empty, unticked, done = orders_row(game, 2), orders_row(game, 3), orders_row(game, 1)
    assert "⚑" in empty[layout.O_STATUS] and SHOWN in empty[layout.O_STATUS] and "原地不动" in empty[layout.O_STATUS]
    assert "Reminder" in unticked[layout.O_STATUS] and SHOWN_EN in unticked[layout.O_STATUS]
    assert "stay and do nothing" not in unticked[layout.O_STATUS]  # an unticked order is still carried out
    assert "⚑" not in done[layout.O_STATUS] and done[layout.O_STATUS].split("\n")[1].startswith("✔")
    assert done[layout.O_STATUS].startswith(  # the deadline first
        "▶ 第1夜 求生者阶段 截止：05-01 21:00 UTC+8，还有 1 小时 0 分")


def test_a_repeated_check_overwrites_the_stages_line(gw, tmp_path: Path, clock) -> None:
    game = game_with_deadline(tmp_path, gw, clock)
    check(game)
    assert "S1、S2、S3" in reminder_line(game)
    rows_before = len(log_cells(game))
    for seat in (1, 2, 3):
        submit(game, seat)
    clock.advance(minutes=30)
    rep = check(game)
    assert rep.reminded == []
    assert len(log_cells(game)) == rows_before
    line = reminder_line(game)
    assert "全部已提交" in line and "05-01 20:30 UTC+8" in line and "S2" not in line
    assert "⚑" not in orders_row(game, 2)[layout.O_STATUS]


def test_no_reminder_without_a_deadline(gw, tmp_path: Path, clock) -> None:
    game = make_game(tmp_path, gw, clock)
    rep = check(game)
    assert rep.deadline is None and rep.reminded == []
    assert "⚑" not in orders_row(game, 2)[layout.O_STATUS]
    assert all(len(row) < 3 or not row[2] for row in log_cells(game))  # no reminder column


def test_no_reminder_after_the_deadline(gw, tmp_path: Path, clock) -> None:
    game = game_with_deadline(tmp_path, gw, clock)
    clock.advance(hours=2)
    before = snapshot(game)[PUBLIC]
    rep = check(game)
    assert rep.deadline is None and rep.reminded == []
    assert snapshot(game)[PUBLIC] == before
    assert "⚑" not in orders_row(game, 2)[layout.O_STATUS]


def test_the_reminder_line_is_emptied_when_its_stage_is_resolved(gw, tmp_path: Path, clock) -> None:
    game = game_with_deadline(tmp_path, gw, clock, roster=roster(langs={4: "en"}))
    submit(game, 1)
    check(game)
    assert "S2、S3" in reminder_line(game) and "S2, S3" in reminder_line(game, lang="en")
    clock.advance(hours=1)
    resolve(game)
    for lang in ("zh", "en"):  # "not submitted yet: S2, S3" no longer holds on a resolved row (issue 16)
        row = log_cells(game, lang)[log_row("N1-survivor") - 1] + ["", "", ""]
        assert row[1] and row[2] == "", (lang, row)


# --- early resolution

def test_a_stage_resolves_early_once_every_living_survivor_has_submitted(gw, tmp_path: Path, clock) -> None:
    game = game_with_deadline(tmp_path, gw, clock)
    submit(game, 1)
    submit(game, 2)
    waiting = resolve(game)
    assert (waiting.stage, waiting.action) == ("N1-survivor", "waiting")
    message = waiting.notes[0]
    assert "S3" in message and "S1" not in message and SHOWN in message and "--stage N1-survivor" in message
    assert status(game, with_urls=False).locked_by is None  # the lock was given back
    assert [e.key for e in read_director(game)[0]] == ["N0-setup"]
    submit(game, 3)
    rep = resolve(game)
    assert (rep.stage, rep.action) == ("N1-survivor", "resolved-early")
    assert status(game, with_urls=False).due == "N1-hunter"
    # the hunter stage has its own deadline, still ahead: H1 has not submitted
    hunter = resolve(game)
    assert hunter.action == "waiting" and "H1" in hunter.notes[0]


def test_a_problem_or_a_missing_tick_is_not_submitted(gw, tmp_path: Path, clock) -> None:
    game = game_with_deadline(tmp_path, gw, clock)
    submit(game, 1)
    submit(game, 2, tick="")
    write_order(game, 3, "飞 C4")
    rep = resolve(game)
    assert rep.action == "waiting" and "S2, S3" in rep.notes[0]


def test_dry_run_before_the_deadline_follows_the_same_rule(gw, tmp_path: Path, clock) -> None:
    game = game_with_deadline(tmp_path, gw, clock)
    submit(game, 1)
    assert resolve(game, dry_run=True).action == "waiting"
    submit(game, 2)
    submit(game, 3)
    before = snapshot(game)
    assert resolve(game, dry_run=True).action == "dry-run"
    assert snapshot(game) == before


def test_after_the_deadline_missing_orders_do_not_hold_the_stage(gw, tmp_path: Path, clock) -> None:
    game = game_with_deadline(tmp_path, gw, clock)
    clock.advance(hours=1)
    assert resolve(game).action == "resolved"


def test_a_stunned_hunter_is_not_waited_for(tmp_path: Path) -> None:
    from sheetgm.backends.memory import MemoryGateway

    game = make_game(tmp_path, MemoryGateway(), roster=roster(2, 2))
    resolve(game)
    st = state_of(game)
    assert st.stage == "hunter"
    assert deadlines.must_submit(st, 3) and not deadlines.must_submit(st, 1)
    st.players[3].stunned = True
    assert not deadlines.must_submit(st, 3)
    assert deadlines.waiting_for(game, st, {4: ArchivedOrder("x", ticked=True)}) == []
    assert deadlines.waiting_for(game, st, {4: ArchivedOrder("x", ticked=True, problems=("far",))}) == ["H2"]
    assert deadlines.waiting_for(game, st, {}) == ["H2"]


# --- --stage survivor|hunter

def test_a_camp_name_resolves_the_due_stage_of_that_camp(gw, tmp_path: Path, clock) -> None:
    game = game_with_deadline(tmp_path, gw, clock)
    with pytest.raises(ServiceError) as wrong:
        resolve(game, stage="hunter")
    assert wrong.value.code == "err.deadline.wrong_camp"
    assert wrong.value.message("en") == "The stage due is N1-survivor, not a hunter stage: nothing was resolved"
    rep = resolve(game, stage="survivor")  # named by the director: before the deadline, nobody submitted
    assert (rep.stage, rep.action) == ("N1-survivor", "resolved")
    assert resolve(game, stage="hunter").stage == "N1-hunter"
    assert resolve(game, stage="N1-hunter").action == "nothing"  # published already
    with pytest.raises(NotDueError):
        resolve(game, stage="N3-hunter")


def test_a_camp_name_on_a_finished_game_does_nothing(tmp_path: Path) -> None:
    from sheetgm.backends.memory import MemoryGateway
    from sheetgm.service.demo import demo
    from sheetgm.service.game import open_game

    rep = demo(tmp_path / "g", players=4, seed=2, max_nights=30, gateway=(gw := MemoryGateway()))
    assert rep.winner
    game = open_game(tmp_path / "g", gw)
    assert resolve(game, stage="survivor").action == "nothing"


# --- a missing order: stay and do nothing, and the report says so

def test_the_report_of_a_player_without_an_order_says_they_stayed(gw, tmp_path: Path, clock) -> None:
    game = make_game(tmp_path, gw, clock, roster=roster(langs={2: "en"}))
    submit(game, 1)
    start = state_of(game).players[2].pos
    resolve(game)
    results = {s: gw.view(player_key(s)).tab(layout.tab(game.seat_lang(s), "results")).values[1][1] for s in (1, 2, 3)}
    assert render("en", "ev.no_order") not in results[1] and render("zh", "ev.no_order") not in results[1]
    assert "No order received from you: you stay and do nothing" in results[2]
    assert "没有收到你的指令：原地不动" in results[3]
    assert state_of(game).players[2].pos == start


# --- the command line

def test_cli_resolve_takes_a_camp_and_says_when_it_resolved_early(tmp_path: Path) -> None:
    from sheetgm.cli.app import app

    (tmp_path / "game.toml").write_text(
        'name = "d"\nseed = 3\nlang = "en"\n[deadlines]\n"N1-survivor" = "2999-01-01T21:00:00+08:00"\n'
        '[[roster]]\nalias = "Ann"\ncamp = "survivor"\n[[roster]]\nalias = "Hu"\ncamp = "hunter"\n', "utf-8")
    runner = CliRunner()
    assert runner.invoke(app, ["new", "--game", str(tmp_path)]).exit_code == 0
    wrong = runner.invoke(app, ["resolve", "--game", str(tmp_path), "--stage", "hunter"])
    assert wrong.exit_code == 1 and "not a hunter stage" in wrong.stderr
    waiting = runner.invoke(app, ["resolve", "--game", str(tmp_path)])
    assert waiting.exit_code == 0 and "Ann" in waiting.stdout and "nothing was resolved" in waiting.stdout
    checked = runner.invoke(app, ["check", "--game", str(tmp_path), "--json"])
    assert json.loads(checked.stdout)["reminded"] == ["Ann"]
    from sheetgm.service.game import open_game

    game = open_game(tmp_path)
    submit(game, 1)
    early = runner.invoke(app, ["resolve", "--game", str(tmp_path)])
    assert early.exit_code == 0, early.output
    assert "N1-survivor resolved early" in early.stdout
