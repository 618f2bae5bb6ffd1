"""Rollback (R-DIR-2) on memory, xlsx and the Google fake: three nights, night 2 undone and resolved again."""

from __future__ import annotations

from pathlib import Path

import pytest
from svc_helpers import FlakyGateway, cells, make_game, orders_row, roster, snapshot, state_of, write_order

from sheetgm.backends.memory import MemoryGateway
from sheetgm.core.errors import SheetgmError
from sheetgm.service.errors import ServiceError
from sheetgm.service.game import DIRECTOR, PUBLIC, Game, player_key
from sheetgm.service.ledger.journal import PUBLISHED, SUPERSEDED, read_director
from sheetgm.service.resolve import resolve
from sheetgm.service.rollback import HISTORY_FIRST_ROW, rollback, stage_arg
from sheetgm.service.verify import verify
from sheetgm.sheets import layout

REASON = "S1 的第 2 夜指令被误读"
LATER = ["N2-survivor", "N2-hunter", "N3-survivor", "N3-hunter"]


def play(game: Game, survivor_orders: dict[int, dict[int, str]], nights: int = 3) -> None:
    """Resolve ``nights`` nights: survivors' orders by night and seat (default: search), the hunter listens."""
    for night in range(1, nights + 1):
        for seat in (1, 2, 3):
            write_order(game, seat, survivor_orders.get(night, {}).get(seat, "搜索"), night=night)
        assert resolve(game).action == "resolved"
        write_order(game, 4, "聆听", night=night)
        assert resolve(game).action == "resolved"


def results(game: Game, seat: int) -> dict[str, str]:
    lang = game.seat_lang(seat)
    rows = cells(game, player_key(seat), layout.rng(layout.tab(lang, "results"), "A2:B20"))
    return {r[0]: r[1] for r in rows if r}


def public_log_rows(game: Game) -> dict[str, list[str]]:
    """stage -> [public log (B), deadline reminder (C), superseded text (D)]."""
    rows = cells(game, PUBLIC, layout.rng(layout.tab(game.lang, "log"), "A2:D20"))
    return {r[0]: list(r[1:]) + [""] * (4 - len(r)) for r in rows if r}


def open_cells(game: Game, seat: int) -> tuple[str, ...]:
    """What the Orders tab's protection leaves open in the seat's workbook (the row of the stage due)."""
    orders = layout.tab(game.seat_lang(seat), "orders")
    return next(p.unprotected for p in game.gateway.protections(player_key(seat)) if p.range.strip("'") == orders)


def row_open(row: int) -> tuple[str, ...]:
    return (f"'指令'!B{row}:C{row}", f"'指令'!G{row}")


def test_roll_back_night_two_and_republish_only_the_changed_reports(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw)
    play(game, {})
    assert verify(game).ok
    before = {s: results(game, s) for s in game.seats}
    public_before = public_log_rows(game)

    rep = rollback(game, "N2-survivor", REASON)

    assert rep.superseded == LATER and rep.restored == "N1-hunter"
    assert rep.reopened == {"S1": [2, 3], "S2": [2, 3], "S3": [2, 3], "H1": [2, 3]}
    entries, lock = read_director(game)
    assert not lock or not lock[0]
    old = [e for e in entries if e.status == SUPERSEDED]
    assert sorted(e.key for e in old) == sorted(LATER * 2)  # marked in place, and copied below the desk rows
    assert all(e.note == REASON for e in old)
    st = state_of(game)
    assert (st.night, st.stage) == (2, "survivor")
    # night 2's order can be edited again (night 3's row opens when night 3 is due again); night 1 stays frozen
    assert open_cells(game, 1) == row_open(3) and open_cells(game, 4) == ()
    assert REASON in orders_row(game, 1, night=2)[layout.O_STATUS]
    # the public log marks the superseded lines, night 1 untouched
    marked = public_log_rows(game)
    for key in LATER:
        assert marked[key][0].startswith(f"【已撤销（回滚：{REASON}）】") and public_before[key][0] in marked[key][0]
    assert marked["N1-survivor"] == public_before["N1-survivor"]
    assert verify(game).ok

    write_order(game, 1, "移动 E3", night=2)  # the corrected order
    for key in LATER:
        assert resolve(game).stage == key

    after = {s: results(game, s) for s in game.seats}
    for seat in game.seats:
        for key in ("N1-survivor", "N1-hunter"):
            assert after[seat][key] == before[seat][key]
    changed = {(s, k) for s in game.seats for k in LATER if after[s][k] != before[s][k]}
    assert changed == {(1, k) for k in LATER}  # only S1 saw something else
    for key in LATER:
        assert after[1][key].startswith(f"【更正】{REASON}\n")
        assert "E3" in after[1][key] and "E3" not in before[1][key]
        for seat in (2, 3, 4):
            assert "更正" not in after[seat][key]
    assert public_log_rows(game) == public_before  # nothing public changed: the lines read as before
    assert open_cells(game, 1) == row_open(5)  # nights 1 to 3 frozen again; night 4 open
    entries, _ = read_director(game)
    live = [e for e in entries if e.status != SUPERSEDED]
    assert [e.key for e in live][-4:] == LATER and all(e.status == PUBLISHED for e in live)
    assert sum(e.status == SUPERSEDED for e in entries) == 4  # the copies; the fixed rows hold the new stages
    check = verify(game)
    assert check.ok and sorted(check.skipped) == sorted(LATER)


def test_a_changed_public_line_is_corrected_and_the_old_one_kept(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw, roster=roster(langs={2: "en"}))
    play(game, {1: {2: "移动 G4，移动 G3，移动 H3"}}, nights=2)  # the Mechanic stands on the H3 generator
    before = public_log_rows(game)
    rollback(game, "N2", "the Mechanic cracked, she did not search")
    write_order(game, 2, "crack", night=2)
    resolve(game)
    resolve(game)
    log = public_log_rows(game)
    text, old = log["N2-survivor"][0], log["N2-survivor"][2]
    assert text.startswith("【更正】the Mechanic cracked, she did not search\n") and "2/6" in text
    assert old.startswith("【已撤销（回滚：the Mechanic cracked") and before["N2-survivor"][0] in old
    assert log["N1-survivor"] == before["N1-survivor"]
    s2 = results(game, 2)["N2-survivor"]
    assert s2.startswith("[Correction] the Mechanic cracked, she did not search\n")
    head = cells(game, PUBLIC, layout.rng(layout.tab(game.lang, "log"), "D1"))
    assert head == [["更正前的版本"]]
    assert verify(game).ok


def test_rolling_back_the_hunter_stage_reopens_only_the_hunters_row(tmp_path: Path) -> None:
    game = make_game(tmp_path, MemoryGateway())
    play(game, {}, nights=2)
    rep = rollback(game, "N2-hunter", "wrong tile")
    assert rep.superseded == ["N2-hunter"] and rep.reopened == {"H1": [2]}
    assert open_cells(game, 4) == row_open(3)  # the hunter's night-2 row, open again
    assert open_cells(game, 1) == ()  # the survivors' rows stay frozen
    st = state_of(game)
    assert (st.night, st.stage) == (2, "hunter")
    assert resolve(game).stage == "N2-hunter"
    assert verify(game).ok


def test_a_second_rollback_keeps_every_superseded_version(tmp_path: Path) -> None:
    game = make_game(tmp_path, MemoryGateway())
    play(game, {}, nights=1)
    rollback(game, "N1-survivor", "first")
    resolve(game)
    rollback(game, "N1-survivor", "second")
    entries, _ = read_director(game)
    notes = sorted(e.note for e in entries if e.status == SUPERSEDED)
    # fixed rows: N1-survivor (second), N1-hunter (first, never resolved again); copies: first, first, second
    assert notes == ["first", "first", "first", "second", "second"]
    journal = layout.tab(game.lang, "journal")
    rows = cells(game, DIRECTOR, layout.rng(journal, f"A{HISTORY_FIRST_ROW}:B{HISTORY_FIRST_ROW + 3}"))
    assert [r[:2] for r in rows] == [["N1-survivor", SUPERSEDED], ["N1-hunter", SUPERSEDED],
                                     ["N1-survivor", SUPERSEDED]]
    assert verify(game).ok


def test_what_cannot_be_rolled_back_is_named(tmp_path: Path) -> None:
    game = make_game(tmp_path, MemoryGateway())
    play(game, {}, nights=1)
    with pytest.raises(ServiceError) as no_reason:
        rollback(game, "N1-survivor", "  ")
    assert "--reason" in no_reason.value.message("en")
    with pytest.raises(ServiceError) as setup:
        rollback(game, "N0-setup", "x")
    assert "N0-setup" in setup.value.message("en")
    with pytest.raises(ServiceError) as later:
        rollback(game, "N3-survivor", "x")
    assert "N3-survivor" in later.value.message("en") and "N1-survivor, N1-hunter" in later.value.message("en")
    with pytest.raises(SheetgmError):
        rollback(game, "night two", "x")
    rollback(game, "N1-hunter", "x")
    with pytest.raises(ServiceError) as gone:
        rollback(game, "N1-hunter", "again")
    assert "N1-survivor" in gone.value.message("zh")


def test_stage_argument() -> None:
    assert stage_arg("N2") == "N2-survivor" and stage_arg(" N3-hunter ") == "N3-hunter"
    with pytest.raises(SheetgmError):
        stage_arg("N0")


def test_a_rollback_killed_at_any_write_is_completed_by_running_it_again(tmp_path: Path) -> None:

    def game_at(name: str, gateway) -> Game:  # type: ignore[no-untyped-def]
        game = make_game(tmp_path / name, gateway)
        play(game, {}, nights=2)
        return game

    reference = game_at("ref", MemoryGateway())
    rollback(reference, "N2-survivor", REASON)
    want = snapshot(reference)
    probe = FlakyGateway(MemoryGateway())
    game = game_at("probe", probe)
    probe.arm(0)
    rollback(game, "N2-survivor", REASON)
    total = probe.writes
    assert total == len(game.seats) + 3  # lock, each player, public, director (journal last, with the unlock)
    for n in range(1, total + 1):
        flaky = FlakyGateway(MemoryGateway())
        game = game_at(f"kill{n}", flaky)
        flaky.arm(n)
        with pytest.raises(RuntimeError):
            rollback(game, "N2-survivor", REASON)
        flaky.arm(0)
        rollback(game, "N2-survivor", REASON)
        assert snapshot(game) == want, f"killed at write {n}"
