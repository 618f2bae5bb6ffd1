"""Issue 29.4: Drive's file listing can lag an edit by minutes. A check (and a resolve that waits on the last
check's verdicts) trusts the listing only for checkmemo.FRESH_FOR after a workbook was last read: one not read
for longer is read whatever the listing says. Counted on the Google fake with its listing frozen (lag_listing)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from fakes.google import FakeGoogle
from svc_helpers import Clock, make_game, roster, write_order
from test_fewer_calls import DEADLINE, Runs, first_step, players_read

from sheetgm.service.check import check
from sheetgm.service.game import DIRECTOR, Game
from sheetgm.service.ledger.checkmemo import FRESH_FOR, Memo
from sheetgm.service.resolve import resolve


@pytest.fixture
def lagged(tmp_path: Path) -> tuple[Runs, Clock]:  # type: ignore[misc]
    clock = Clock()
    with FakeGoogle() as fake:
        game = make_game(tmp_path, fake.gateway(meta_home=DIRECTOR), clock, roster=roster(3, 1), deadlines=DEADLINE)
        yield Runs(fake, game), clock


def fresh(runs: Runs, clock: Clock) -> Game:
    return dataclasses.replace(runs.fresh(), clock=clock)


def settled(runs: Runs, clock: Clock) -> None:
    """Every workbook read and remembered: the third check in a row skips them all."""
    write_order(runs.game, 1, first_step(runs.game, 1))
    for _ in range(3):
        check(fresh(runs, clock))
    start = len(runs.fake.log)
    assert sorted(check(fresh(runs, clock)).unchanged) == ["S1", "S2", "S3"]
    assert players_read(runs, start) == []


def test_an_edit_drive_lists_late_is_read_once_the_bound_has_passed(lagged: tuple[Runs, Clock]) -> None:
    runs, clock = lagged
    settled(runs, clock)
    runs.fake.lag_listing()  # from here Drive lists every workbook as it was
    write_order(runs.game, 2, "nonsense order")
    clock.advance(minutes=5)  # within the bound the listing is trusted (it is what makes a check cheap)
    assert "S2" in check(fresh(runs, clock)).unchanged
    clock.advance(seconds=FRESH_FOR.total_seconds() - 5 * 60 + 1)  # S2 last read just over FRESH_FOR ago
    start = len(runs.fake.log)
    rep = check(fresh(runs, clock))
    assert "player-2" in players_read(runs, start) and "S2" not in rep.unchanged
    assert {p.alias: p.state for p in rep.players}["S2"] == "problems", "the edit the listing hid was judged"


def test_a_resolve_before_the_deadline_does_not_wait_on_verdicts_older_than_the_bound(
        lagged: tuple[Runs, Clock]) -> None:
    runs, clock = lagged
    settled(runs, clock)
    runs.fake.lag_listing()
    for seat in (2, 3):  # the whole camp has now submitted; the listing does not show it
        write_order(runs.game, seat, first_step(runs.game, seat))
    assert resolve(fresh(runs, clock)).action == "waiting"  # within the bound: the last check's verdicts hold
    clock.advance(seconds=FRESH_FOR.total_seconds() + 1)
    assert resolve(fresh(runs, clock)).action == "resolved-early", "read under the lock: everyone submitted"


def test_after_the_deadline_every_workbook_is_read(lagged: tuple[Runs, Clock]) -> None:
    runs, clock = lagged
    settled(runs, clock)
    runs.fake.lag_listing()
    write_order(runs.game, 2, "nonsense order")
    clock.advance(hours=10)  # past both deadlines
    start = len(runs.fake.log)
    check(fresh(runs, clock))
    assert sorted(players_read(runs, start)) == ["player-1", "player-2", "player-3"]


@pytest.mark.parametrize(("read", "fresh_now"), [("2024-05-01T12:00:00+00:00", True),
                                                 ("2024-05-01T11:45:00+00:00", True),
                                                 ("2024-05-01T11:44:59+00:00", False),
                                                 ("2024-05-01T12:00:01+00:00", False),  # a clock moved back
                                                 ("", False), ("yesterday", False)])
def test_a_memo_is_fresh_only_within_the_bound(read: str, fresh_now: bool) -> None:
    from datetime import UTC, datetime

    assert Memo(l=read).fresh(datetime(2024, 5, 1, 12, 0, tzinfo=UTC)) is fresh_now
    assert Memo.parse(Memo(l=read).text()) == Memo(l=read)
