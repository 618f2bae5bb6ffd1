"""The safe resolve: crashes, the lock, bad rows, hand edits and missing workbooks."""

from __future__ import annotations

from pathlib import Path

import pytest
from svc_helpers import Clock, FlakyGateway, cells, make_game, orders_row, snapshot, state_of, write_order

from sheetgm.backends.memory import MemoryGateway
from sheetgm.backends.port import SetValues
from sheetgm.service.errors import LockedError
from sheetgm.service.game import DIRECTOR, Game, player_key
from sheetgm.service.ledger.journal import PUBLISHED, RESOLVED, read_director
from sheetgm.service.ledger.lock import take_lock
from sheetgm.service.resolve import resolve
from sheetgm.sheets import layout


def _orders(game: Game) -> None:
    write_order(game, 1, "搜索")
    write_order(game, 2, "破解")


def _reference(tmp_path: Path) -> dict[str, object]:
    game = make_game(tmp_path / "ref", MemoryGateway())
    _orders(game)
    resolve(game)
    return snapshot(game)


def test_kill_at_every_write_then_rerun_loses_and_doubles_nothing(tmp_path: Path) -> None:
    reference = _reference(tmp_path)
    probe = FlakyGateway(MemoryGateway())
    game = make_game(tmp_path / "probe", probe)
    _orders(game)
    probe.arm(0)
    resolve(game)
    total = probe.writes
    assert total >= len(game.keys()) + 2  # lock, journal, every workbook
    for n in range(1, total + 1):
        flaky = FlakyGateway(MemoryGateway())
        game = make_game(tmp_path / f"kill{n}", flaky)
        _orders(game)
        flaky.arm(n)
        with pytest.raises(RuntimeError):
            resolve(game)
        flaky.arm(0)
        again = resolve(game)
        assert again.stage == "N1-survivor", n
        assert again.action in ("resolved", "republished"), n
        entries, lock = read_director(game)
        assert [e.key for e in entries] == ["N0-setup", "N1-survivor"], n
        assert entries[-1].status == PUBLISHED and not (lock and lock[0]), n
        assert snapshot(game) == reference, f"killed at write {n}"


def test_a_journaled_stage_is_republished_not_resolved_again(gw, tmp_path: Path) -> None:
    flaky = FlakyGateway(gw)
    game = make_game(tmp_path, flaky)
    _orders(game)
    flaky.arm(4)  # lock, journal, player-1, then die on player-2
    with pytest.raises(RuntimeError):
        resolve(game)
    entries, lock = read_director(game)
    assert entries[-1].status == RESOLVED and not (lock and lock[0])
    state_hash = entries[-1].state_hash
    write_order(game, 1, "破解")  # a late change must not alter the resolved stage
    flaky.arm(0)
    rep = resolve(game)
    assert rep.action == "republished"
    entries, _ = read_director(game)
    assert entries[-1].status == PUBLISHED and entries[-1].state_hash == state_hash


def test_a_held_lock_stops_a_second_run(gw, tmp_path: Path, clock: Clock) -> None:
    game = make_game(tmp_path, gw, clock)
    _entries, lock = read_director(game)
    take_lock(game, lock, "other-run@ci")
    before = snapshot(game)
    with pytest.raises(LockedError) as err:
        resolve(game)
    assert "other-run@ci" in err.value.message("en")
    assert "另一个结算正在进行" in err.value.message("zh")
    assert snapshot(game) == before
    clock.advance(minutes=16)  # a lock left by a killed run expires
    assert resolve(game).action == "resolved"


def test_a_bad_order_is_stay_and_do_nothing_and_does_not_block_others(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw)
    start = state_of(game)
    write_order(game, 1, "飞到 C4 ！！")
    target = start.board.neighbours(start.players[2].pos)[0]
    from sheetgm.core.board import tile_name

    write_order(game, 2, tile_name(target))
    rep = resolve(game)
    assert any("S1" in w and "指令!B2" in w for w in rep.warnings)
    after = state_of(game)
    assert after.players[1].pos == start.players[1].pos
    assert after.players[2].pos != start.players[2].pos
    row = orders_row(game, 1)
    assert "原地不动" in row[layout.O_STATUS] and row[layout.O_PROBLEMS]


def test_a_changed_stage_cell_is_named_and_others_resolve(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw)
    gw.write(player_key(1), [SetValues("'指令'!A2", (("N9-survivor",),))])
    write_order(game, 1, "搜索")
    start = state_of(game).players[1]
    rep = resolve(game)
    assert rep.action == "resolved"
    # the label is the tool's cell: restored, and the order in B beside it is read (rows.py)
    assert any("S1" in w and "指令" in w and "N9-survivor" in w and "N1-survivor" in w for w in rep.warnings)
    assert orders_row(game, 1)[layout.O_STAGE] == "N1-survivor"
    assert "搜索" in orders_row(game, 1)[layout.O_STATUS] or state_of(game).players[1] != start


def test_a_hand_edited_results_tab_is_named_and_restored(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw)
    resolve(game)
    resolve(game)  # night 1 done; survivors are due again
    original = cells(game, player_key(2), "'结果'!B2")[0][0]
    gw.write(player_key(2), [SetValues("'结果'!B2", (("我改的",),))])
    rep = resolve(game)
    assert any("S2" in w and "结果!B2" in w for w in rep.warnings)
    assert cells(game, player_key(2), "'结果'!B2")[0][0] == original


@pytest.mark.parametrize("seal", ["封印", "ａｂｃ１２３", "é"])
def test_a_seal_cell_typed_over_in_any_script_is_named_and_restored(gw, tmp_path: Path, seal: str) -> None:
    """A seal cell holding non-ASCII text (a player's own writing) is an edit like any other, not a crash."""
    game = make_game(tmp_path, gw)
    resolve(game)
    resolve(game)
    original = cells(game, player_key(2), "'结果'!A2:C2")[0]
    gw.write(player_key(2), [SetValues("'结果'!C2", ((seal,),))])
    rep = resolve(game)
    assert rep.action == "resolved"
    assert any("S2" in w and "结果!B2" in w for w in rep.warnings) is False  # the text is the journal's: resealed
    assert cells(game, player_key(2), "'结果'!A2:C2")[0] == original


def test_a_missing_workbook_is_named_and_does_not_block_the_others(tmp_path: Path) -> None:
    gw = MemoryGateway()
    game = make_game(tmp_path, gw)
    del gw.books[player_key(2)]
    write_order(game, 1, "搜索")
    rep = resolve(game)
    assert rep.action == "resolved"
    assert any("S2" in w and "player-2" in w for w in rep.warnings)
    assert cells(game, player_key(1), "'结果'!A2")[0][0] == "N1-survivor"
    entries, _ = read_director(game)
    assert entries[-1].status == PUBLISHED


def test_google_resolve_stays_within_the_call_budget(tmp_path: Path) -> None:
    from fakes.google import FakeGoogle

    with FakeGoogle() as fake:
        game = make_game(tmp_path, fake.gateway())
        _orders(game)
        first = len(fake.log)
        resolve(game)
        calls = fake.log[first:]
    sid_of = {v: k for k, v in game.gateway.ids.items()}  # type: ignore[attr-defined]
    per_book: dict[str, dict[str, int]] = {}
    for c in calls:
        if "/spreadsheets/" not in c.url:  # the Drive listings of revisions (their own quota)
            continue
        sid = c.url.split("/spreadsheets/")[1].split(":")[0].split("/")[0].split("?")[0]
        kind = "read" if c.method == "GET" else "write"
        per_book.setdefault(sid_of[sid], {"read": 0, "write": 0})[kind] += 1
    assert len(per_book) == len(game.keys())
    for key, n in per_book.items():
        if key == DIRECTOR:
            assert n["read"] <= 2 and n["write"] <= 3, n  # journal+lock read, lock check; lock, journal, final
        else:
            assert n["read"] <= 1 and n["write"] <= 1, (key, n)


class _Denied(FlakyGateway):
    """Player 2's workbook refuses writes (shared wrongly) while ``deny`` is on."""

    deny = False

    def write(self, key: str, ops):  # type: ignore[no-untyped-def]
        if self.deny and key == player_key(2):
            from sheetgm.backends.errors import AccessError

            raise AccessError(key=key, account="sa@example.com")
        super().write(key, ops)


def test_a_report_that_could_not_be_written_is_written_at_the_next_publish(tmp_path: Path) -> None:
    gw = _Denied(MemoryGateway())
    game = make_game(tmp_path, gw)
    write_order(game, 2, "破解")
    gw.deny = True
    rep = resolve(game)  # N1-survivor: S2's workbook refuses the write
    assert any("S2" in w for w in rep.warnings)
    assert not any(row and row[0] == "N1-survivor" for row in cells(game, player_key(2), "'结果'!A2:C"))
    assert read_director(game)[0][-1].undelivered[0][0] == 2  # kept in the journal for S2's next publish
    gw.deny = False
    rep = resolve(game)  # N1-hunter writes every workbook: S2's owed N1-survivor report is written from the journal
    assert any("S2" in w and "结果!B2" in w for w in rep.warnings)
    rows = cells(game, player_key(2), "'结果'!A2:C")
    assert [r[0] for r in rows[:2]] == ["N1-survivor", "N1-hunter"]
    assert "破解" in rows[0][1]
    assert not any(e.undelivered for e in read_director(game)[0])
