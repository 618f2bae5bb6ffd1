"""How a time is shown (notation/times.shown), kept once per process: the same instant written with two
offsets is two texts when no zone is named, one when it is."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from sheetgm.notation.times import shown


def test_one_instant_in_two_offsets_is_shown_in_each_its_own() -> None:
    east = datetime(2026, 1, 1, 10, 0, tzinfo=timezone(timedelta(hours=8)))
    utc = east.astimezone(UTC)
    assert east == utc and hash(east) == hash(utc)  # what a cache keyed by the datetime alone would mix up
    assert shown(east, "en", None) == "Thu 2026-01-01 10:00 (UTC+8)"
    assert shown(utc, "en", None) == "Thu 2026-01-01 02:00 (UTC±0)"
    assert shown(east, "en", None) == "Thu 2026-01-01 10:00 (UTC+8)"  # asked again, after the other
    named = "Thu 2026-01-01 10:00 (Asia/Shanghai, UTC+8)"
    assert shown(utc, "en", "Asia/Shanghai") == shown(east, "en", "Asia/Shanghai") == named
    assert shown(utc.isoformat(), "en", "Asia/Shanghai", short=True) != named
    assert shown("", "en", None) == shown("not a time", "zh", "Asia/Shanghai") == "-"
