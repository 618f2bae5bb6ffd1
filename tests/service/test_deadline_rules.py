"""Deadlines computed from game.toml (service/timing/deadlines.py), rule by rule,
without a gateway where none is needed.

test_deadlines.py plays the reminders and early resolution through check and resolve; here each rule of the
schedule, of who is waited for and of the reminder texts is pinned down on its own.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from svc_helpers import Clock, make_game, roster

from sheetgm.backends.memory import MemoryGateway
from sheetgm.core.texts import render
from sheetgm.service.config.load import GameConfig, parse_config
from sheetgm.service.timing import deadlines
from sheetgm.service.timing.deadlines import night_deadlines, zone_of

SH = ZoneInfo("Asia/Shanghai")


def config(schedule: dict[str, Any] | None = None, overrides: dict[str, str] | None = None,
           zone: str = "Asia/Shanghai") -> GameConfig:
    data: dict[str, Any] = {"name": "t", "seed": 7, "roster": roster(), "timezone": zone,
                            "deadlines": overrides or {}}
    if schedule is not None:
        data["schedule"] = schedule
    return parse_config(data)


def local(cfg: GameConfig, night: int) -> dict[str, str | None]:
    """The night's deadlines as local "YYYY-MM-DD HH:MM" strings (None: no deadline)."""
    zone = zone_of(cfg)
    return {camp: (when.astimezone(zone).strftime("%Y-%m-%d %H:%M") if when else None)
            for camp, when in night_deadlines(cfg, night).items()}


def test_an_unknown_zone_falls_back_to_utc() -> None:
    cfg = replace(config(), timezone="Nowhere/Atlantis")  # a config that skipped validation
    zone = zone_of(cfg)
    assert zone == ZoneInfo("UTC") and zone.key == "UTC"
    assert zone_of(config()).key == "Asia/Shanghai"


def test_minutes_of_a_scheduled_time_count() -> None:
    cfg = config({"survivors": "21:45", "hunters": "23:05", "start": "2024-05-01"})
    assert local(cfg, 1) == {"survivor": "2024-05-01 21:45", "hunter": "2024-05-01 23:05"}
    assert local(cfg, 2) == {"survivor": "2024-05-02 21:45", "hunter": "2024-05-02 23:05"}


def test_a_hunter_time_equal_to_the_survivors_is_the_next_day() -> None:
    cfg = config({"survivors": "21:00", "hunters": "21:00", "start": "2024-05-01"})
    assert local(cfg, 1) == {"survivor": "2024-05-01 21:00", "hunter": "2024-05-02 21:00"}
    # the next night's survivors come after those hunters: the first 21:00 later than them
    assert local(cfg, 2) == {"survivor": "2024-05-03 21:00", "hunter": "2024-05-04 21:00"}


def test_a_hunter_time_before_the_survivors_is_the_next_morning() -> None:
    cfg = config({"survivors": "21:00", "hunters": "01:30", "start": "2024-05-01"})
    assert local(cfg, 1) == {"survivor": "2024-05-01 21:00", "hunter": "2024-05-02 01:30"}
    assert local(cfg, 2) == {"survivor": "2024-05-02 21:00", "hunter": "2024-05-03 01:30"}


def test_every_two_days_spaces_the_survivor_deadlines() -> None:
    cfg = config({"survivors": "21:00", "hunters": "23:00", "every": "2 days", "start": "2024-05-01"})
    assert [local(cfg, n)["survivor"] for n in (1, 2, 3)] == ["2024-05-01 21:00", "2024-05-03 21:00",
                                                              "2024-05-05 21:00"]
    assert local(cfg, 3)["hunter"] == "2024-05-05 23:00"


def test_hunters_only_schedule_starts_on_the_start_day() -> None:
    cfg = config({"hunters": "23:00", "start": "2024-05-01"})
    assert local(cfg, 1) == {"survivor": None, "hunter": "2024-05-01 23:00"}
    assert local(cfg, 2) == {"survivor": None, "hunter": "2024-05-02 23:00"}


def test_survivors_only_schedule_leaves_the_hunters_without_a_deadline() -> None:
    cfg = config({"survivors": "21:00", "start": "2024-05-01"})
    assert local(cfg, 2) == {"survivor": "2024-05-02 21:00", "hunter": None}


def test_an_override_moves_every_later_night() -> None:
    cfg = config({"survivors": "21:00", "hunters": "23:00", "start": "2024-05-01"},
                 {"N2-survivor": "2024-05-05T21:00:00+08:00"})
    assert local(cfg, 1) == {"survivor": "2024-05-01 21:00", "hunter": "2024-05-01 23:00"}
    assert local(cfg, 2) == {"survivor": "2024-05-05 21:00", "hunter": "2024-05-05 23:00"}
    assert local(cfg, 3) == {"survivor": "2024-05-06 21:00", "hunter": "2024-05-06 23:00"}


def test_a_late_hunter_override_pushes_the_next_survivors_past_it() -> None:
    cfg = config({"survivors": "21:00", "hunters": "23:00", "start": "2024-05-01"},
                 {"N1-hunter": "2024-05-02T22:00:00+08:00"})
    assert local(cfg, 1) == {"survivor": "2024-05-01 21:00", "hunter": "2024-05-02 22:00"}
    assert local(cfg, 2) == {"survivor": "2024-05-03 21:00", "hunter": "2024-05-03 23:00"}


def test_an_early_override_does_not_pull_the_later_nights_back() -> None:
    cfg = config({"survivors": "21:00", "hunters": "23:00", "start": "2024-05-01"},
                 {"N2-hunter": "2024-05-02T21:30:00+08:00"})
    assert local(cfg, 2) == {"survivor": "2024-05-02 21:00", "hunter": "2024-05-02 21:30"}
    # night 3: the day after night 2's survivors, the hunters after the latest deadline so far
    assert local(cfg, 3) == {"survivor": "2024-05-03 21:00", "hunter": "2024-05-03 23:00"}


def test_before_from_night_only_overrides_count() -> None:
    cfg = config({"survivors": "21:00", "hunters": "23:00", "from_night": 3, "start": "2024-05-10"},
                 {"N1-survivor": "2024-05-01T21:00:00+08:00"})
    assert local(cfg, 1) == {"survivor": "2024-05-01 21:00", "hunter": None}
    assert local(cfg, 2) == {"survivor": None, "hunter": None}
    assert local(cfg, 3) == {"survivor": "2024-05-10 21:00", "hunter": "2024-05-10 23:00"}
    assert local(cfg, 4) == {"survivor": "2024-05-11 21:00", "hunter": "2024-05-11 23:00"}


def test_a_hand_run_night_after_start_holds_back_the_first_scheduled_night() -> None:
    """An override of a night before ``from_night`` later than ``start`` still comes before the nights after it
    (found by a mutant: the nights before ``from_night`` were skipped, so night 3 fell before night 2)."""
    cfg = config({"survivors": "21:00", "hunters": "23:00", "from_night": 3, "start": "2024-05-10"},
                 {"N2-hunter": "2024-05-12T22:00:00+08:00"})
    assert local(cfg, 3) == {"survivor": "2024-05-13 21:00", "hunter": "2024-05-13 23:00"}
    assert local(cfg, 4) == {"survivor": "2024-05-14 21:00", "hunter": "2024-05-14 23:00"}


def test_without_a_schedule_only_the_overrides_hold() -> None:
    cfg = config(None, {"N2-hunter": "2024-05-02T23:00:00+08:00"})
    assert local(cfg, 1) == {"survivor": None, "hunter": None}
    assert local(cfg, 2) == {"survivor": None, "hunter": "2024-05-02 23:00"}


# -- with a game ---------------------------------------------------------------------------------------------

@pytest.fixture
def game(tmp_path: Path):  # type: ignore[no-untyped-def]
    return make_game(tmp_path, MemoryGateway(), Clock(), roster=roster(langs={2: "en"}),
                     schedule={"survivors": "21:00", "hunters": "23:00", "start": "2024-05-01"},
                     deadlines={"N2-survivor": "2024-05-04T21:00:00+08:00"})


def at(text: str) -> datetime:
    return datetime.fromisoformat(text)


def test_deadline_of_a_desk_entry_is_its_stages_and_setup_has_none(game) -> None:  # type: ignore[no-untyped-def]
    assert deadlines.deadline_of(game, "N1-hunter") == at("2024-05-01T23:00:00+08:00")
    assert deadlines.deadline_of(game, "N1-hunter+override-1") == at("2024-05-01T23:00:00+08:00")
    assert deadlines.deadline_of(game, "N2-survivor+card-2") == at("2024-05-04T21:00:00+08:00")
    assert deadlines.deadline_of(game, "N0-setup") is None


def test_upcoming_lists_the_stage_and_those_after_it(game) -> None:  # type: ignore[no-untyped-def]
    up = deadlines.upcoming(game, "N1-survivor")
    assert up == [("N1-survivor", at("2024-05-01T21:00:00+08:00")), ("N1-hunter", at("2024-05-01T23:00:00+08:00"))]
    assert deadlines.upcoming(game, "N1-hunter", 3) == [
        ("N1-hunter", at("2024-05-01T23:00:00+08:00")), ("N2-survivor", at("2024-05-04T21:00:00+08:00")),
        ("N2-hunter", at("2024-05-04T23:00:00+08:00"))]
    assert deadlines.upcoming(game, "N1-survivor", 4)[2:] == [
        ("N2-survivor", at("2024-05-04T21:00:00+08:00")), ("N2-hunter", at("2024-05-04T23:00:00+08:00"))]
    assert deadlines.upcoming(game, "N1-hunter", 1) == [("N1-hunter", at("2024-05-01T23:00:00+08:00"))]


def test_upcoming_skips_stages_without_a_deadline(tmp_path: Path) -> None:
    game = make_game(tmp_path, MemoryGateway(), Clock(), schedule={"hunters": "23:00", "start": "2024-05-01"})
    assert deadlines.upcoming(game, "N1-survivor", 4) == [("N1-hunter", at("2024-05-01T23:00:00+08:00")),
                                                          ("N2-hunter", at("2024-05-02T23:00:00+08:00"))]


def test_the_players_reminder_is_in_their_language_and_adds_the_no_order_line(game) -> None:  # type: ignore[no-untyped-def]
    deadline = at("2024-05-01T21:00:00+08:00")
    en = deadlines.player_reminder(game, 2, deadline, "problems")
    assert en == render("en", "sheet.remind.status", deadline=deadlines.local_time(game, deadline, "en"))
    for state in ("empty", "unreadable"):
        assert deadlines.player_reminder(game, 2, deadline, state) == en + render("en", "sheet.remind.no_order")
        zh = deadlines.player_reminder(game, 1, deadline, state)
        assert zh == render("zh", "sheet.remind.status", deadline=deadlines.local_time(game, deadline, "zh")) + render(
            "zh", "sheet.remind.no_order") and "周三" in zh


def test_the_public_reminder_when_everyone_has_submitted(game) -> None:  # type: ignore[no-untyped-def]
    deadline = at("2024-05-01T21:00:00+08:00")
    ops = deadlines.public_reminder_ops(game, "N1-survivor", deadline, [])
    lines = [op.rows[0][0] for op in ops if getattr(op, "range", "").endswith("!C2")]
    by_lang = dict(zip(game.langs, lines, strict=True))
    assert by_lang["en"] == render("en", "sheet.remind.public_all", time=deadlines.local_time(game, game.now(), "en",
                                                                                              short=True),
                                   deadline=deadlines.local_time(game, deadline, "en"))
    assert "Wed 2024-05-01 21:00" in by_lang["en"] and "周三" in by_lang["zh"]


def test_night_zero_has_no_deadlines(game) -> None:  # type: ignore[no-untyped-def]
    assert deadlines.night_deadlines(game.cfg, 0) == {}


def test_every_two_days_counts_from_the_local_date_not_the_machines(monkeypatch: pytest.MonkeyPatch) -> None:
    """07:00 in Shanghai is 23:00 UTC the day before: the next night counts from the game's date."""
    import time

    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    try:
        cfg = config({"survivors": "07:00", "hunters": "08:00", "every": "2 days", "start": "2024-05-01"})
        assert local(cfg, 1) == {"survivor": "2024-05-01 07:00", "hunter": "2024-05-01 08:00"}
        assert local(cfg, 2) == {"survivor": "2024-05-03 07:00", "hunter": "2024-05-03 08:00"}
    finally:
        monkeypatch.undo()
        time.tzset()


def test_a_hunter_deadline_follows_every_deadline_before_it() -> None:
    """Night 2's survivors set by hand before night 1's (late) hunters: night 2's hunters still come after
    night 1's, never before them (docs/schedule.md: each night follows the one before)."""
    cfg = config({"survivors": "21:00", "hunters": "23:00", "start": "2024-05-01"},
                 {"N1-hunter": "2024-05-03T10:00:00+08:00", "N2-survivor": "2024-05-02T21:00:00+08:00"})
    assert local(cfg, 2) == {"survivor": "2024-05-02 21:00", "hunter": "2024-05-03 23:00"}
