"""Issue 10 items 1-3 through the CLI, on xlsx and on the Google fake: recurring deadlines, stamps kept
by the tool and judged at the deadline, orders found by their stage label, ticks, undone results."""

# covers: R-PHASE-3, RUL-37, RUL-38

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from svc_helpers import Clock, make_game, orders_row, roster, state_of, write_order
from typer.testing import CliRunner

from sheetgm.backends.port import SetValues
from sheetgm.cli import app as cli
from sheetgm.cli import common as cli_common
from sheetgm.core.check import legal_steps
from sheetgm.notation.order_format import format_step
from sheetgm.service.config.load import parse_config
from sheetgm.service.game import DIRECTOR, PUBLIC, Game, open_game, player_key
from sheetgm.service.ledger.journal import read_director
from sheetgm.service.timing.deadlines import night_deadlines
from sheetgm.sheets import layout
from sheetgm.sheets.archive import ArchivedOrder
from sheetgm.sheets.stages import archive_row, log_row

SCHEDULE = {"survivors": "21:00", "hunters": "23:00", "start": "2024-05-01"}  # the clock starts at 20:00 there
runner = CliRunner()


@pytest.fixture(params=["xlsx", "google"])
def played(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A factory of games whose CLI commands run on the chosen gateway, with a test clock."""
    from fakes.google import FakeGoogle

    from sheetgm.backends.xlsx.gateway import XlsxGateway

    with FakeGoogle() as fake:
        gw = XlsxGateway(tmp_path / "workbooks") if request.param == "xlsx" else fake.gateway()
        clock = Clock()

        def make(**cfg: Any) -> Game:
            game = make_game(tmp_path, gw, clock, **{"schedule": SCHEDULE, **cfg})
            game.clock = clock
            opened = lambda path: open_game(path, gw, clock)  # noqa: E731 - the CLI's game, on this gateway
            monkeypatch.setattr(cli_common, "open_at", opened)
            return game

        make.clock = clock  # type: ignore[attr-defined]
        yield make


def run(game: Game, *args: str) -> Any:
    out = runner.invoke(cli.app, [*args, "--game", str(game.folder), "--json"])
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout)


def first_step(game: Game, seat: int) -> str:
    return format_step(legal_steps(state_of(game), seat)[0], game.seat_lang(seat))


def archive_cells(game: Game, key: str, seat: int) -> list[str]:
    r = archive_row(key, seat, len(game.seats))
    a1 = layout.rng(layout.tab(game.lang, "archive"), f"A{r}:I{r}")
    got = game.gateway.read(DIRECTOR, [a1])[a1]
    return list(got[0]) + [""] * 9 if got else [""] * 9


def journal_orders(game: Game, key: str = "N1-survivor") -> dict[int, ArchivedOrder]:
    """The orders a stage's journal row says it used, by seat."""
    return next(e for e in read_director(game)[0] if e.key == key).orders()


# --- 1. deadlines

def test_recurring_deadlines_drive_status_waiting_and_resolve(played: Any) -> None:
    game = played()
    st = run(game, "status")
    assert st["deadline"] == "2024-05-01T21:00:00+08:00"
    assert [d["stage"] for d in st["next_deadlines"]] == ["N1-survivor", "N1-hunter", "N2-survivor"]
    assert st["next_deadlines"][2]["deadline"] == "2024-05-02T21:00:00+08:00"
    text = runner.invoke(cli.app, ["status", "--game", str(game.folder)]).stdout
    assert "截止：2024-05-01 周三 21:00（Asia/Shanghai，UTC+8）" in text
    assert "截止 N2-survivor：2024-05-02 周四 21:00（Asia/Shanghai，UTC+8）" in text
    waiting = run(game, "resolve")
    assert waiting["action"] == "waiting" and "S1" in waiting["notes"][0]
    played.clock.advance(hours=1, minutes=7)
    assert run(game, "resolve")["action"] == "resolved"
    assert run(game, "status")["deadline"] == "2024-05-01T23:00:00+08:00"


def test_a_stage_without_a_deadline_is_resolved_only_early_or_when_named(played: Any) -> None:
    game = played(schedule=None)
    write_order(game, 1, first_step(game, 1))
    nothing = run(game, "resolve")
    assert nothing["action"] == "no-deadline" and "S2" in nothing["notes"][0]
    text = runner.invoke(cli.app, ["resolve", "--game", str(game.folder)])
    assert text.exit_code == 0 and "没有截止时间" in text.stdout
    assert "没有截止时间" in runner.invoke(cli.app, ["status", "--game", str(game.folder)]).stdout
    for seat in (2, 3):
        write_order(game, seat, first_step(game, seat))
    assert run(game, "resolve")["action"] == "resolved-early"
    assert run(game, "resolve", "--stage", "hunter")["action"] == "resolved"  # the director forces it


def test_schedule_follows_overrides_daylight_saving_and_a_paused_day() -> None:
    cfg = parse_config({"name": "g", "seed": 1, "roster": roster(), "timezone": "Europe/Berlin",
                        "schedule": {"survivors": "21:00", "hunters": "23:00", "start": "2024-03-29"},
                        "deadlines": {"N3-survivor": "2024-04-01T21:00:00+02:00"}})  # a day's pause
    local = {n: {c: f"{w:%m-%d %H:%M%z}" for c, w in night_deadlines(cfg, n).items() if w} for n in (1, 2, 3, 4)}
    assert local[1] == {"survivor": "03-29 21:00+0100", "hunter": "03-29 23:00+0100"}
    assert local[2]["survivor"] == "03-30 21:00+0100"
    assert local[3] == {"survivor": "04-01 21:00+0200", "hunter": "04-01 23:00+0200"}  # summer time, paused
    assert local[4]["survivor"] == "04-02 21:00+0200"  # the night after the pause follows it
    late = parse_config({"name": "g", "seed": 1, "roster": roster(), "schedule": {
        "survivors": "22:00", "hunters": "01:30", "every": "2 days", "from_night": 2, "start": "2024-05-01"}})
    assert night_deadlines(late, 1) == {"survivor": None, "hunter": None}
    n2, n3 = night_deadlines(late, 2), night_deadlines(late, 3)
    assert f"{n2['hunter']:%m-%d %H:%M}" == "05-02 01:30" and f"{n3['survivor']:%m-%d}" == "05-03"


# --- 1. stamps: kept by the tool, dropped on a change, judged at the deadline

def test_stamps_live_in_the_director_workbook_and_a_forged_sheet_stamp_is_named(played: Any) -> None:
    game = played()
    text = first_step(game, 1)
    write_order(game, 1, text)
    write_order(game, 2, "无")
    rep = run(game, "check")
    by = {p["alias"]: p for p in rep["players"]}
    assert by["S1"]["state"] == "ok" and by["S1"]["stamp"].startswith("2024-05-01T20:00")
    assert by["S2"]["state"] == "ok" and by["S2"]["stamp"] == ""  # 无 submits but never stamps
    assert archive_cells(game, "N1-survivor", 1)[5] == by["S1"]["stamp"]
    assert rep["missing"] == ["S3"]
    forged = "2024-04-01T00:00:00+08:00"
    game.gateway.write(player_key(1), [SetValues(layout.rng(layout.tab("zh", "orders"), "F2"), ((forged,),))])
    played.clock.advance(minutes=10)
    again = run(game, "check")
    assert any("S1" in w and forged in w for w in again["warnings"])
    assert orders_row(game, 1)[layout.O_STAMP] == "2024-05-01 周三 20:00（Asia/Shanghai，UTC+8）"  # written back
    write_order(game, 1, text + "；" + text)  # changed: the stamp is dropped, a new one given
    played.clock.advance(minutes=10)
    third = {p["alias"]: p for p in run(game, "check")["players"]}
    assert third["S1"]["stamp"] != by["S1"]["stamp"] or third["S1"]["state"] != "ok"


def test_after_the_deadline_an_order_counts_as_the_last_check_before_it_saw_it(played: Any) -> None:
    game = played()
    kept = first_step(game, 1)
    write_order(game, 1, kept)
    write_order(game, 2, first_step(game, 2), tick="")  # seen, not ticked: carried out, no priority
    played.clock.advance(minutes=52)
    run(game, "check")  # 20:52, the schedule's last check before the deadline, on time
    played.clock.advance(minutes=15)  # 21:07, after the deadline
    write_order(game, 1, "搜索；破解")  # changed after the deadline: the stamped version counts
    write_order(game, 3, first_step(game, 3))  # written after the last check: not used
    late = {p["alias"]: p["state"] for p in run(game, "check")["players"]}
    assert late == {"S1": "late", "S2": "unticked", "S3": "late"}
    rep = run(game, "resolve")
    assert rep["action"] == "resolved"
    assert any("S1" in w for w in rep["warnings"]) and any("S3" in w for w in rep["warnings"])
    assert kept in orders_row(game, 1)[layout.O_STATUS]
    assert "不使用" in orders_row(game, 3)[layout.O_STATUS]
    assert archive_cells(game, "N1-survivor", 3)[3] == ""


def test_a_delayed_last_check_loses_no_order_the_first_look_after_the_deadline_stands_in(played: Any) -> None:
    """RUL-55: the schedule's checks of the last 15 minutes did not run in time (GitHub started them after the
    deadline, or dropped them): what the first look after the deadline reads counts, and the director is told."""
    game = played()
    stamped = first_step(game, 1)
    write_order(game, 1, stamped)
    run(game, "check")  # 20:00: the last look that ran before the deadline
    played.clock.advance(minutes=40)
    in_time = first_step(game, 2)
    write_order(game, 2, in_time)  # 20:40, complete in time: the 20:52 check was to read it
    played.clock.advance(minutes=27)  # 21:07: the 20:52 check is only starting now
    said = runner.invoke(cli.app, ["check", "--game", str(game.folder)]).stdout
    assert "RUL-55" in said and "S1, S2, S3" in said and "S2: ✔" in said
    again = run(game, "check")  # the look after the deadline is made: it stands in once, not again
    assert again["stand_in"] == [] and {p["alias"]: p["state"] for p in again["players"]}["S2"] == "ok"
    write_order(game, 1, "搜索；破解")  # changed after the stand-in look: the stamped version counts again
    played.clock.advance(minutes=3)
    done = run(game, "resolve")
    assert done["action"] == "resolved"
    archive = {seat: archive_cells(game, "N1-survivor", seat) for seat in (1, 2)}
    assert archive[2][5] == "" and archive[2][3] == in_time  # S2 counted, unstamped (no priority)
    assert archive[1][5] and archive[1][3] == stamped  # S1: the stamped version
    assert journal_orders(game)[2].text == in_time
    assert any("S1" in w for w in done["warnings"])  # the change after the stand-in look is named


def test_a_resolve_after_a_missed_last_check_stands_in_itself(played: Any) -> None:
    game = played()
    write_order(game, 1, first_step(game, 1))
    run(game, "check")  # 20:00, then no check before the deadline
    played.clock.advance(minutes=50)
    late_but_in_time = first_step(game, 3)
    write_order(game, 3, late_but_in_time)
    played.clock.advance(minutes=20)
    done = run(game, "resolve")
    assert done["action"] == "resolved"
    assert any("RUL-55" in n and "S3" in n for n in done["notes"])
    assert late_but_in_time in journal_orders(game)[3].text


# --- 2. orders keyed by the label in column A

def test_rows_inserted_text_in_the_label_cell_and_stale_rows_are_named_and_repaired(played: Any) -> None:
    game = played()
    orders = layout.rng(layout.tab("zh", "orders"), "A2:C3")
    s1 = first_step(game, 1)
    # S1 inserted a row above night 1's: the label moved to row 3 with the order beside it
    game.gateway.write(player_key(1), [SetValues(orders, (("", "", ""), ("N1-survivor", s1, "ok")))])
    # S2 typed the order over the label
    game.gateway.write(player_key(2), [SetValues(layout.rng(layout.tab("zh", "orders"), "A2:C2"),
                                                 ((first_step(game, 2), "", "✅"),))])
    rep = run(game, "check")
    states = {p["alias"]: p["state"] for p in rep["players"]}
    assert states["S1"] == "ok" and states["S2"] == "ok"
    assert "第 3 行" in orders_row(game, 1, night=2)[layout.O_STATUS]  # told in their own sheet
    s2 = orders_row(game, 2)
    assert s2[layout.O_STAGE] == "N1-survivor" and s2[layout.O_TEXT] and "已移到 B 列" in s2[layout.O_STATUS]
    assert any("S1" in w for w in rep["warnings"]) and any("S2" in w for w in rep["warnings"])
    played.clock.advance(hours=3)
    run(game, "resolve")
    run(game, "resolve")
    # night 2: S3 edits night 1's row instead of night 2's
    game.gateway.write(player_key(3), [SetValues(layout.rng(layout.tab("zh", "orders"), "B2"), (("搜索",),))])
    night2 = run(game, "check")
    assert night2["stage"] == "N2-survivor"
    assert any("S3" in w and "N1-survivor" in w for w in night2["warnings"])
    assert "N1-survivor" in orders_row(game, 3, night=2)[layout.O_STATUS]


@pytest.mark.parametrize("tick", ["✓", "✅", "OK", "y", "Yes", "是", "好", "TRUE", "确认"])
def test_every_yes_word_is_a_tick(tick: str, tmp_path: Path) -> None:
    from sheetgm.backends.memory import MemoryGateway
    from sheetgm.service.check import check

    game = make_game(tmp_path, MemoryGateway(), schedule=None)
    write_order(game, 1, format_step(legal_steps(state_of(game), 1)[0], "zh"), tick=tick)
    assert {p.alias: p.state for p in check(game).players}["S1"] == "ok"


# --- 2. after rollback, undone Results rows are marked

def test_rollback_marks_the_undone_results_rows(played: Any) -> None:
    game = played()
    played.clock.advance(hours=4)
    run(game, "resolve")
    run(game, "resolve")
    out = runner.invoke(cli.app, ["rollback", "N1-hunter", "--reason", "typo", "--game", str(game.folder)])
    assert out.exit_code == 0, out.output
    for seat in (1, 4):
        rows = game.gateway.read(player_key(seat), ["'结果'!A2:C3"])["'结果'!A2:C3"]
        assert rows[0][1] and "已撤销" not in rows[0][1]
        assert rows[1][0] == "N1-hunter" and rows[1][1].startswith("【已撤销（回滚：typo）】")
    log = game.gateway.read(PUBLIC, ["'日志'!B3"])["'日志'!B3"][0][0]
    assert "已撤销" in log
    assert log_row("N1-hunter") == 3


def test_check_summary_names_exactly_who_the_public_log_names(played: Any) -> None:
    game = played()
    write_order(game, 1, first_step(game, 1))
    write_order(game, 2, "飞 C4")
    rep = run(game, "check")
    assert rep["missing"] == ["S2", "S3"] and rep["problems"] == ["S2"] and rep["reminded"] == ["S2", "S3"]
    line = game.gateway.read(PUBLIC, ["'日志'!C2"])["'日志'!C2"][0][0]
    assert "S2、S3" in line and "S1" not in line
    text = runner.invoke(cli.app, ["check", "--game", str(game.folder)]).stdout
    assert "尚未提交：S2, S3" in text and "有问题：S2" in text


def test_the_schedule_command_follows_the_game(tmp_path: Path) -> None:
    (tmp_path / "game.toml").write_text(
        'name = "s"\nseed = 1\ntimezone = "Asia/Shanghai"\n[schedule]\nsurvivors = "21:00"\nhunters = "23:00"\n'
        'start = "2024-05-01"\n[deadlines]\n"N3-survivor" = "2024-05-03T22:00:00+08:00"\n'
        '[[roster]]\nalias = "A"\ncamp = "survivor"\n[[roster]]\nalias = "H"\ncamp = "hunter"\n', "utf-8")
    out = runner.invoke(cli.app, ["schedule", "--game", str(tmp_path)])
    assert out.exit_code == 0, out.output
    assert "N3-survivor deadline 2024-05-03 22:00" in out.stdout and "hunter deadline 23:00" in out.stdout
    assert "- cron: '7 21 * * *'\n      timezone: Asia/Shanghai" in out.stdout  # the recurring 21:00
    assert "- cron: '7 22 3 5 *'" in out.stdout  # the one-off 22:00 runs once, on May 3 (issue 16)
    assert "check before each deadline" in out.stdout and "check before each one-off deadline" in out.stdout
