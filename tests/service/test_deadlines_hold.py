"""Issue 15.9: what the surviving mutants of service/timing/deadlines.py, service/ledger/stamps.py and
service/ledger/lock.py got away
with, each held by a test that fails on it.

* a ticked order with problems is not submitted, so the stage does not resolve early with it;
* an edit from one complete order to another takes a new stamp for the new text (tests/service/test_told.py);
* after a rollback, a stamp taken since is not overridden by the superseded resolve's;
* a lock write whose reply is lost leaves no token (tests/service/test_lock_messages.py);
* a deadline override written in UTC lands on the right local day near midnight, east and west of Greenwich.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from svc_helpers import Clock, make_game, roster, state_of, write_order

from sheetgm.backends.memory import MemoryGateway
from sheetgm.core.check import legal_steps
from sheetgm.notation.order_format import format_step
from sheetgm.service.check import check
from sheetgm.service.config.load import parse_config
from sheetgm.service.ledger import stamps
from sheetgm.service.resolve import resolve
from sheetgm.service.rollback import rollback
from sheetgm.service.timing.deadlines import night_deadlines
from sheetgm.service.workbooks.sheetorders import review

SCHEDULE = {"survivors": "21:00", "hunters": "23:00", "start": "2024-05-01"}  # 20:00 in Shanghai at the start


def step(game, seat: int, n: int = 0) -> str:  # type: ignore[no-untyped-def]
    return format_step(legal_steps(state_of(game), seat)[n], game.seat_lang(seat))


def test_a_ticked_order_with_a_problem_does_not_resolve_the_stage_early(tmp_path: Path) -> None:
    game = make_game(tmp_path, MemoryGateway(), schedule=SCHEDULE)
    write_order(game, 1, step(game, 1))
    write_order(game, 2, step(game, 2))
    illegal = "救治 S9"  # readable, ticked, but there is no S9: a problem, not an unreadable order
    assert review(state_of(game), 3, illegal, "zh").problems and not review(state_of(game), 3, illegal, "zh").bad
    write_order(game, 3, illegal)
    rep = resolve(game)
    assert rep.action == "waiting" and "S3" in rep.notes[0] and "S1" not in rep.notes[0]


def test_after_a_rollback_a_new_stamp_is_not_overridden_by_the_superseded_one(tmp_path: Path) -> None:
    clock = Clock()
    game = make_game(tmp_path, MemoryGateway(), clock, schedule=SCHEDULE)
    write_order(game, 1, step(game, 1))
    first = {p.alias: p for p in check(game).players}["S1"].stamp
    for seat in (2, 3):
        write_order(game, seat, step(game, seat))
    assert resolve(game).action == "resolved-early"
    rollback(game, "N1-survivor", "a typo")
    clock.advance(minutes=5)
    changed = step(game, 1, 1)
    write_order(game, 1, changed)  # a new complete order after the rollback: a new stamp
    again = {p.alias: p for p in check(game).players}["S1"].stamp
    assert again and again != first
    clock.advance(minutes=5)
    assert {p.alias: p for p in check(game).players}["S1"].stamp == again  # not the superseded resolve's
    entries, _lock, rows = stamps.read_desk(game)
    assert stamps.truths(rows, "N1-survivor", len(game.seats), entries)[1].stamp == again


@pytest.mark.parametrize(("zone", "override", "survivor_local", "hunter_local"), [
    # 20:30 on 1 May in New York is already 2 May in UTC: the hunters' 21:00 is that same evening
    ("America/New_York", "2024-05-02T00:30:00+00:00", "05-01 20:30", "05-01 21:00"),
    # 23:30 UTC is 07:30 the next morning in Shanghai: the hunters' 21:00 is that evening, not the day before
    ("Asia/Shanghai", "2024-05-01T23:30:00+00:00", "05-02 07:30", "05-02 21:00"),
    # 15:30 UTC is 23:30 in Shanghai: the hunters' 21:00 has passed that day, so it is the next evening
    ("Asia/Shanghai", "2024-05-01T15:30:00+00:00", "05-01 23:30", "05-02 21:00"),
])
def test_an_override_in_utc_lands_on_the_local_day(zone: str, override: str, survivor_local: str,
                                                   hunter_local: str) -> None:
    cfg = parse_config({"name": "g", "seed": 1, "roster": roster(), "timezone": zone,
                        "schedule": {"survivors": "20:00", "hunters": "21:00", "start": "2024-05-01"},
                        "deadlines": {"N1-survivor": override}})
    n1 = night_deadlines(cfg, 1)
    local = {camp: f"{when.astimezone(ZoneInfo(zone)):%m-%d %H:%M}" for camp, when in n1.items() if when}
    assert local == {"survivor": survivor_local, "hunter": hunter_local}
    assert n1["survivor"] == datetime.fromisoformat(override)
    n2 = night_deadlines(cfg, 2)["survivor"]
    assert n2 is not None and n2 > n1["hunter"]  # type: ignore[operator]


def test_a_stamp_is_dropped_when_the_text_changes_and_taken_again(tmp_path: Path) -> None:
    """RUL-37: A stamped, then B unticked (the stamp is dropped), then A again: A takes a new stamp, never its
    first one back; and after the deadline the version the last check saw (B) counts, not the dropped A."""
    clock = Clock()
    game = make_game(tmp_path, MemoryGateway(), clock, schedule=SCHEDULE)
    a, b = step(game, 1), step(game, 1, 1)
    write_order(game, 1, a)
    first = {p.alias: p for p in check(game).players}["S1"].stamp
    clock.advance(minutes=5)
    write_order(game, 1, b, tick="")
    assert {p.alias: p for p in check(game).players}["S1"].stamp == ""
    clock.advance(minutes=5)
    write_order(game, 1, a)
    third = {p.alias: p for p in check(game).players}["S1"].stamp
    assert third and third != first
    clock.advance(minutes=40)  # 20:55, in the last quarter hour: no later read stands in for this check (RUL-55)
    write_order(game, 1, b, tick="")
    check(game)  # the last check before the deadline sees B, unticked
    clock.advance(hours=1)  # past 21:00
    write_order(game, 1, "破解")
    rep = resolve(game)
    assert rep.action == "resolved"
    from sheetgm.service.ledger.journal import read_director

    used = read_director(game)[0][-1].orders()[1]
    assert (used.text, used.stamp, used.verdict) == (b, "", "seen")
