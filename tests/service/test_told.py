"""Issue 15.5 and 15.10 through the CLI, on xlsx and the Google fake: what players are told.

A late order is told what was used and why (RUL-38, RUL-50), never "no order received"; the tool's own stamp
repairs never read as tampering; a note about the Orders tab is told once (RUL-51); a deadline once seen passed
stays passed when the clock is set back (RUL-52); a pick in the column-G dropdown only and a formula are
explained; `check` after the deadline prints no raw template key.
"""

# covers: RUL-38, RUL-50, RUL-51, RUL-52

from __future__ import annotations

from typing import Any

from played_games import archive_cells, first_step, played, run, text_of  # noqa: F401 - played is a fixture
from svc_helpers import orders_row, state_of, write_order

from sheetgm.backends.port import SetValues
from sheetgm.core.board import tile_name
from sheetgm.service.game import player_key
from sheetgm.service.timing.deadlines import local_time
from sheetgm.service.verify import verify
from sheetgm.sheets import layout


def results_text(game: Any, seat: int, row: int = 2) -> str:
    a1 = layout.rng(layout.tab(game.seat_lang(seat), "results"), f"B{row}")
    got = game.gateway.read(player_key(seat), [a1])[a1]
    return got[0][0] if got else ""


def set_cell(game: Any, seat: int, a1: str, value: str) -> None:
    orders = layout.tab(game.seat_lang(seat), "orders")
    game.gateway.write(player_key(seat), [SetValues(layout.rng(orders, a1), ((value,),))])


# --- late orders (RUL-38, RUL-50)

def test_the_version_the_last_check_saw_is_carried_out_after_a_late_change(played: Any) -> None:  # noqa: F811
    game = played()
    seen = first_step(game, 1)  # a move: where S1 ends up shows which version was carried out
    write_order(game, 1, seen, tick="")  # seen, not ticked: no stamp
    run(game, "check")
    played.clock.advance(hours=1, minutes=7)  # 21:07, after the deadline
    write_order(game, 1, "破解")  # changed after the deadline
    late = {p["alias"]: p for p in run(game, "check")["players"]}
    assert late["S1"]["state"] == "late" and late["S1"]["verdict"] == "seen" and late["S1"]["used"] == seen
    status = orders_row(game, 1)[layout.O_STATUS]
    assert "改动不会被使用" in status and seen in status
    rep = run(game, "resolve")
    assert rep["action"] == "resolved" and any("S1" in w and "那次检查读到的版本" in w for w in rep["warnings"])
    assert archive_cells(game, "N1-survivor", 1)[3] == seen  # the archive keeps the version carried out
    moved_to = seen.split()[-1]
    assert tile_name(state_of(game).players[1].pos) == moved_to
    assert "那次检查读到的版本" in orders_row(game, 1)[layout.O_STATUS]
    report = results_text(game, 1)
    assert report.startswith("【截止】") and seen in report
    assert verify(game).ok


def test_a_late_order_is_told_why_and_never_no_order_received(played: Any) -> None:  # noqa: F811
    game = played()
    run(game, "check")  # S3's cell is empty then
    played.clock.advance(hours=1, minutes=7)
    write_order(game, 3, first_step(game, 3))  # written after the last check before the deadline
    status = {p["alias"]: p for p in run(game, "check")["players"]}["S3"]
    assert status["verdict"] == "late"
    assert "之后写的指令不会被使用" in orders_row(game, 3)[layout.O_STATUS]
    rep = run(game, "resolve")
    assert any("S3" in w and "还没有指令" in w for w in rep["warnings"])
    report = results_text(game, 3)
    assert report.startswith("【截止】") and "没有收到你的指令" not in report
    assert "不使用" in orders_row(game, 3)[layout.O_STATUS]
    assert verify(game).ok  # the replay gives S3 the same empty order


def test_check_after_the_deadline_prints_words_not_keys(played: Any) -> None:  # noqa: F811
    game = played()
    write_order(game, 1, first_step(game, 1))
    run(game, "check")
    played.clock.advance(hours=1, minutes=7)
    write_order(game, 1, "搜索；破解")
    out = text_of(game, "check")
    assert "cli.state" not in out and "截止后改过" in out


# --- stamps: the tool's own repairs are not tampering

def test_a_changed_order_gets_a_new_stamp_silently(played: Any) -> None:  # noqa: F811
    game = played()
    write_order(game, 1, first_step(game, 1))
    first = {p["alias"]: p for p in run(game, "check")["players"]}["S1"]["stamp"]
    played.clock.advance(minutes=5)
    other = first_step(game, 1, 1)
    write_order(game, 1, other)  # one complete order to another
    again = run(game, "check")
    s1 = {p["alias"]: p for p in again["players"]}["S1"]
    assert s1["stamp"] and s1["stamp"] != first  # a new stamp, for the new text
    assert archive_cells(game, "N1-survivor", 1)[3] == other
    assert not [w for w in again["warnings"] if "S1" in w]  # the old stamp in F was the tool's own: no warning
    assert orders_row(game, 1)[layout.O_STAMP] == local_time(game, s1["stamp"], game.seat_lang(1))  # shown in F


# --- a deadline once passed stays passed (RUL-52)

def test_a_clock_set_back_does_not_reopen_a_passed_deadline(played: Any) -> None:  # noqa: F811
    game = played()
    write_order(game, 1, first_step(game, 1))
    run(game, "check")
    played.clock.advance(hours=1, minutes=7)  # 21:07: the deadline has passed
    run(game, "check")  # this run sees it pass
    assert archive_cells(game, "N1-survivor", 1)[11] == "2024-05-01T21:00:00+08:00"
    played.clock.advance(hours=-2)  # the director's clock goes back to 19:07
    write_order(game, 3, first_step(game, 3))  # written after the deadline
    checked = run(game, "check")
    assert checked["deadline"] is None  # no reminder of a deadline ahead
    assert {p["alias"]: p["state"] for p in checked["players"]}["S3"] == "late"
    assert archive_cells(game, "N1-survivor", 3)[3] == ""  # never stamped
    rep = run(game, "resolve")
    assert rep["action"] == "resolved"  # not "waiting" for a deadline that has passed
    assert "不使用" in orders_row(game, 3)[layout.O_STATUS]


# --- notes about the Orders tab are told once (RUL-51)

def test_an_old_row_edited_is_told_once(played: Any) -> None:  # noqa: F811
    game = played()
    played.clock.advance(hours=4)
    run(game, "resolve")
    run(game, "resolve")  # night 1 over: night 2's survivor stage is due
    set_cell(game, 3, "B2", "搜索")  # S3 edits night 1's row
    first = run(game, "check")
    assert [w for w in first["warnings"] if "S3" in w and "N1-survivor" in w]
    assert "N1-survivor" in orders_row(game, 3, night=2)[layout.O_STATUS]
    second = run(game, "check")
    assert not [w for w in second["warnings"] if "N1-survivor" in w]  # the director heard it once
    assert "N1-survivor" in orders_row(game, 3, night=2)[layout.O_STATUS]  # still in the player's cell tonight
    resolved = run(game, "resolve", "--stage", "N2-survivor")
    assert not [w for w in resolved["warnings"] if "N1-survivor" in w]
    run(game, "resolve", "--stage", "N2-hunter")
    third = run(game, "check")  # night 3
    assert third["stage"] == "N3-survivor"
    assert not [w for w in third["warnings"] if "N1-survivor" in w]
    assert "N1-survivor" not in orders_row(game, 3, night=3)[layout.O_STATUS]
    set_cell(game, 3, "B2", "破解")  # edited again: a new note
    assert [w for w in run(game, "check")["warnings"] if "N1-survivor" in w]


# --- the dropdown and formulas

def test_a_pick_in_the_dropdown_only_is_explained(played: Any) -> None:  # noqa: F811
    game = played()
    step = first_step(game, 1)
    set_cell(game, 1, "G2", step)
    s1 = {p["alias"]: p for p in run(game, "check")["players"]}["S1"]
    assert s1["state"] == "empty"
    status = orders_row(game, 1)[layout.O_STATUS]
    assert "G 列" in status and step in status and "B 列" in status


def test_a_formula_is_explained(played: Any) -> None:  # noqa: F811
    game = played()
    write_order(game, 1, "#NAME?")  # what Sheets and Excel show for "=移动 B2" typed as a formula
    write_order(game, 2, "=移动 B2")
    by = {p["alias"]: p for p in run(game, "check")["players"]}
    assert by["S1"]["state"] == "problems" and "公式" in orders_row(game, 1)[layout.O_PROBLEMS]
    assert by["S2"]["state"] == "problems" and "公式" in orders_row(game, 2)[layout.O_PROBLEMS]
    assert "formula" in by["S1"]["problems"][0] or "公式" in by["S1"]["problems"][0]


def test_a_formula_saved_without_its_result_reads_as_a_formula(tmp_path: Any) -> None:
    """A workbook written by a program that does not compute keeps the formula and no result: the xlsx reader
    gives the formula's text, so the player is told, instead of "no order"."""
    import openpyxl
    from cli_games import cli_game

    with cli_game("xlsx", tmp_path / "g") as g:
        path = g.file(player_key(1))
        book = openpyxl.load_workbook(path)
        book[layout.tab("zh", "orders")]["B2"] = '="移动 "&"B2"'
        book.save(path)
        out = g.run("check", "--json")
        assert out.exit_code == 0, out.output
        assert "公式" in orders_row(g.open(), 1)[layout.O_PROBLEMS]
