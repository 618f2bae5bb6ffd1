"""Cron lines from a game's deadlines: UTC conversion, daylight saving time, never minute 0."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetgm.core.texts import has
from sheetgm.service.schedule_game import schedule_command_output
from sheetgm.service.timing.schedule import (
    CronEntry,
    ScheduleError,
    cron_entries,
    cron_lines,
    offset_changes,
    render_schedule_block,
)

SPRING = date(2024, 5, 1)
BERLIN_WINTER, BERLIN_SUMMER = date(2024, 1, 15), date(2024, 7, 15)


def crons(deadlines: dict[str, str], tz: str, offset: int = 7, on: date = SPRING, keyed: bool = False) -> list[str]:
    return [e.cron for e in cron_entries(deadlines, tz, offset, on=on, use_timezone_key=keyed)]


# --- Asia/Shanghai (UTC+8, no daylight saving time)

def test_shanghai_deadlines_run_seven_minutes_later_in_utc() -> None:
    assert crons({"survivor": "21:00", "hunter": "23:00"}, "Asia/Shanghai") == ["7 13 * * *", "7 15 * * *"]


def test_cron_line_comment_names_the_stage_and_the_local_time() -> None:
    lines = cron_lines({"survivor": "21:00", "hunter": "23:30"}, "Asia/Shanghai", on=SPRING)
    assert lines[0] == ("7 13 * * *  # survivor deadline 21:00 Asia/Shanghai: run 21:07 local = 13:07 UTC"
                        " (UTC+08:00 on 2024-05-01)")
    cron, comment = lines[1].split("#", 1)
    assert cron.split() == ["37", "15", "*", "*", "*"]
    assert "hunter deadline 23:30" in comment and "run 23:37 local" in comment


def test_runs_after_local_midnight_wrap_to_the_right_utc_hour() -> None:
    assert crons({"survivor": "07:55"}, "Asia/Shanghai") == ["2 0 * * *"]  # 08:02 local
    assert crons({"hunter": "23:58"}, "Asia/Shanghai") == ["5 16 * * *"]  # 00:05 local, next day


def test_single_digit_hour_is_accepted() -> None:
    assert crons({"survivor": "9:30"}, "Asia/Shanghai") == ["37 1 * * *"]


# --- minute 0 avoidance

def test_a_run_that_would_land_on_minute_zero_moves_to_the_offset() -> None:
    entry = cron_entries({"survivor": "20:53"}, "Asia/Shanghai", on=SPRING)[0]
    assert entry.cron == "7 13 * * *" and entry.run_local == "21:07"
    assert crons({"survivor": "20:55"}, "Asia/Shanghai", offset=5) == ["5 13 * * *"]


def test_half_hour_zone_avoids_minute_zero_in_utc_too() -> None:
    # Asia/Kolkata is UTC+05:30: 21:23 + 7 = 21:30 local = 16:00 UTC, then 21:37 = 16:07 UTC
    entry = cron_entries({"survivor": "21:23"}, "Asia/Kolkata", on=SPRING)[0]
    assert entry.cron == "7 16 * * *" and entry.run_local == "21:37" and entry.utc_offset == "+05:30"


def test_offset_thirty_in_a_half_hour_zone_still_terminates_off_the_hour() -> None:
    # 20:30 + 30 = 21:00 local; +30 = 21:30 local = 16:00 UTC; then single minutes
    entry = cron_entries({"survivor": "20:30"}, "Asia/Kolkata", 30, on=SPRING)[0]
    assert entry.cron == "1 16 * * *" and entry.run_local == "21:31"


def test_timezone_key_form_uses_local_time_and_avoids_local_minute_zero() -> None:
    assert crons({"survivor": "20:53", "hunter": "23:00"}, "Europe/Berlin", keyed=True) == ["7 21 * * *", "7 23 * * *"]
    # only the local minute matters with the key: 21:30 Kolkata is 16:00 UTC but runs at 21:30 local
    assert crons({"survivor": "21:23"}, "Asia/Kolkata", keyed=True) == ["30 21 * * *"]


ZONES = ["Asia/Shanghai", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "UTC",
         "Australia/Lord_Howe", "America/St_Johns"]


@settings(max_examples=300, deadline=None)
@given(zone=st.sampled_from(ZONES), hour=st.integers(0, 23), minute=st.integers(0, 59),
       offset=st.integers(1, 59), day=st.dates(date(2020, 1, 1), date(2030, 12, 31)), keyed=st.booleans())
def test_every_run_is_after_the_deadline_and_never_at_minute_zero(
        zone: str, hour: int, minute: int, offset: int, day: date, keyed: bool) -> None:
    entry = cron_entries({"s": f"{hour:02d}:{minute:02d}"}, zone, offset, on=day, use_timezone_key=keyed)[0]
    cron_minute, cron_hour, *rest = entry.cron.split()
    assert rest == ["*", "*", "*"]
    assert 0 < int(cron_minute) < 60 and 0 <= int(cron_hour) < 24
    tz = ZoneInfo(zone)
    deadline = datetime(day.year, day.month, day.day, hour, minute, tzinfo=tz)
    run_h, run_m = map(int, entry.run_local.split(":"))
    assert run_m != 0
    if keyed:
        assert (int(cron_hour), int(cron_minute)) == (run_h, run_m)
    else:
        utc_h, utc_m = map(int, entry.run_utc.split(":"))
        assert (int(cron_hour), int(cron_minute)) == (utc_h, utc_m)
        # the UTC run is offset..2*offset+60 minutes after the deadline (time of day, modulo a day)
        after = ((utc_h * 60 + utc_m) - (deadline.astimezone(UTC).hour * 60 + deadline.astimezone(UTC).minute)) % 1440
        assert offset <= after <= 2 * offset + 60


# --- Europe/Berlin across daylight saving time

def test_berlin_winter_and_summer_give_different_utc_lines() -> None:
    assert crons({"survivor": "21:00"}, "Europe/Berlin", on=BERLIN_WINTER) == ["7 20 * * *"]
    assert crons({"survivor": "21:00"}, "Europe/Berlin", on=BERLIN_SUMMER) == ["7 19 * * *"]


def test_berlin_lines_follow_the_offset_of_the_reference_day_at_the_transitions() -> None:
    assert crons({"survivor": "21:00"}, "Europe/Berlin", on=date(2024, 3, 30)) == ["7 20 * * *"]
    assert crons({"survivor": "21:00"}, "Europe/Berlin", on=date(2024, 3, 31)) == ["7 19 * * *"]
    assert crons({"survivor": "21:00"}, "Europe/Berlin", on=date(2024, 10, 26)) == ["7 19 * * *"]
    assert crons({"survivor": "21:00"}, "Europe/Berlin", on=date(2024, 10, 27)) == ["7 20 * * *"]
    entry = cron_entries({"survivor": "21:00"}, "Europe/Berlin", on=date(2024, 3, 31))[0]
    assert entry.utc_offset == "+02:00" and "UTC+02:00 on 2024-03-31" in entry.comment()


def test_deadline_in_the_skipped_spring_hour_still_gets_a_run() -> None:
    # 02:30 does not exist in Berlin on 2024-03-31; it is read with the offset before the jump
    entry = cron_entries({"hunter": "02:30"}, "Europe/Berlin", on=date(2024, 3, 31))[0]
    assert entry.cron == "37 1 * * *"


def test_offset_changes_name_the_days_the_zone_changes() -> None:
    assert offset_changes("Europe/Berlin", date(2024, 1, 1), date(2024, 12, 31)) == [
        (date(2024, 3, 31), "+01:00", "+02:00"), (date(2024, 10, 27), "+02:00", "+01:00")]
    assert offset_changes("Asia/Shanghai", date(2024, 1, 1), date(2024, 12, 31)) == []


def test_command_output_warns_of_the_next_offset_change() -> None:
    out = schedule_command_output(deadlines={"survivor": "21:00"}, tz="Europe/Berlin", on=date(2024, 9, 1))
    assert "- cron: '7 19 * * *'" in out
    assert "# note: Europe/Berlin goes from UTC+02:00 to UTC+01:00 on 2024-10-27" in out
    quiet = schedule_command_output(deadlines={"survivor": "21:00"}, tz="Asia/Shanghai", on=SPRING)
    assert "# note" not in quiet


def test_command_output_with_timezone_key_needs_no_note() -> None:
    out = schedule_command_output(deadlines={"survivor": "21:00"}, tz="Europe/Berlin", on=date(2024, 9, 1),
                                  use_timezone_key=True)
    assert "- cron: '7 21 * * *'\n      timezone: Europe/Berlin\n" in out
    assert "# note" not in out


# --- merging, block rendering

def test_two_stages_with_the_same_run_share_one_entry() -> None:
    entries = cron_entries({"survivor": "21:00", "hunter": "20:53"}, "Asia/Shanghai", on=SPRING)
    assert len(entries) == 1
    assert entries[0].stages == ("survivor", "hunter")
    assert "survivor deadline 21:00, hunter deadline 20:53" in entries[0].comment()


def test_schedule_block_is_yaml_to_paste_under_on() -> None:
    block = render_schedule_block({"survivor": "21:00", "hunter": "23:00"}, "Asia/Shanghai", on=SPRING)
    lines = block.splitlines()
    assert lines[0] == "  schedule:"
    assert [ln.strip() for ln in lines if "- cron:" in ln] == ["- cron: '7 13 * * *'", "- cron: '7 15 * * *'"]
    assert all(ln.startswith("    ") for ln in lines[1:])
    assert "cron has no time zone" in lines[1]
    assert render_schedule_block({"s": "21:00"}, "UTC", on=SPRING, indent=0).startswith("schedule:\n  # ")


def test_entry_is_a_frozen_value() -> None:
    entry = cron_entries({"survivor": "21:00"}, "Asia/Shanghai", on=SPRING)[0]
    assert isinstance(entry, CronEntry)
    with pytest.raises(AttributeError):
        entry.cron = "0 0 * * *"  # type: ignore[misc]


def test_default_reference_day_is_today_in_the_zone() -> None:
    today = datetime.now(ZoneInfo("Europe/Berlin")).date()
    entry = cron_entries({"survivor": "21:00"}, "Europe/Berlin")[0]
    assert entry.on in (today, today - timedelta(days=1), today + timedelta(days=1))


# --- errors

@pytest.mark.parametrize("value", ["24:00", "21:60", "2100", "21:0", "", "noon", "21:00:00"])
def test_bad_times_are_refused_naming_the_stage(value: str) -> None:
    with pytest.raises(ScheduleError) as err:
        cron_entries({"hunter": value}, "Asia/Shanghai", on=SPRING)
    assert err.value.code == "err.schedule.bad_time"
    assert "hunter" in err.value.message("en") and "hunter" in err.value.message("zh")


@pytest.mark.parametrize("offset", [0, 60, -7, True])
def test_offset_must_be_one_to_fifty_nine_minutes(offset: int) -> None:
    with pytest.raises(ScheduleError) as err:
        cron_entries({"survivor": "21:00"}, "Asia/Shanghai", offset, on=SPRING)
    assert err.value.code == "err.schedule.bad_offset"


def test_unknown_zone_empty_deadlines_and_bad_labels_are_refused() -> None:
    with pytest.raises(ScheduleError) as err:
        cron_entries({"survivor": "21:00"}, "Mars/Olympus", on=SPRING)
    assert err.value.code == "err.schedule.bad_zone" and "Mars/Olympus" in err.value.message("en")
    with pytest.raises(ScheduleError) as err:
        cron_entries({}, "Asia/Shanghai", on=SPRING)
    assert err.value.code == "err.schedule.no_deadlines"
    for label in ["a#b", "two\nlines", ""]:
        with pytest.raises(ScheduleError) as err:
            cron_entries({label: "21:00"}, "Asia/Shanghai", on=SPRING)
        assert err.value.code == "err.schedule.bad_label"
    with pytest.raises(ScheduleError) as err:
        schedule_command_output(deadlines={"survivor": "21:00"})
    assert err.value.code == "err.schedule.no_zone"


def test_every_schedule_error_has_a_text_in_both_languages() -> None:
    for key in ["generic", "bad_time", "bad_zone", "bad_offset", "bad_label", "no_deadlines", "no_zone"]:
        assert has("zh", f"err.schedule.{key}") and has("en", f"err.schedule.{key}")


# --- from a game's config

def write_game(folder: Path, deadlines: dict[str, str], timezone: str = "Europe/Berlin") -> Path:
    lines = ['name = "test"', "seed = 1", f'timezone = "{timezone}"', "", "[deadlines]"]
    lines += [f'"{k}" = "{v}"' for k, v in deadlines.items()]
    lines += ["", "[[roster]]", 'alias = "alice"', 'camp = "survivor"', "", "[[roster]]", 'alias = "bob"',
              'camp = "hunter"', ""]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.toml").write_text("\n".join(lines), "utf-8")
    return folder


AUTUMN = {
    "N1-survivor": "2024-10-25T21:00:00+02:00", "N1-hunter": "2024-10-25T23:00:00+02:00",
    "N2-survivor": "2024-10-26T21:00:00+02:00", "N2-hunter": "2024-10-26T23:00:00+02:00",
    "N3-survivor": "2024-10-27T21:00:00+01:00", "N3-hunter": "2024-10-27T23:00:00+01:00",
}


def test_a_game_of_one_off_deadlines_gets_dated_lines_right_on_either_side_of_the_clock_change(tmp_path: Path) -> None:
    """Issue 16: a deadline of [deadlines] runs once, on its day; each line is computed for its own day, so the
    UTC form needs no note about the autumn change: 21:00 is 19:07 UTC before it and 20:07 UTC after it."""
    folder = write_game(tmp_path / "game", AUTUMN)
    out = schedule_command_output(folder, on=date(2024, 10, 25))
    assert [ln.strip() for ln in out.splitlines() if "- cron:" in ln][:3] == [
        "- cron: '7 19 25,26 10 *'", "- cron: '7 21 25,26 10 *'", "- cron: '7 20 27 10 *'"]
    assert "N3-survivor deadline 2024-10-27 21:00" in out and "# note" not in out
    assert "* * *'" not in out  # no daily line: nothing runs after the game for ever
    keyed = schedule_command_output(folder, on=date(2024, 10, 25), use_timezone_key=True)
    assert "- cron: '7 21 25,26,27 10 *'\n      timezone: Europe/Berlin" in keyed
    # the config file itself works too
    assert schedule_command_output(folder / "game.toml", on=date(2024, 10, 28)) == out


def test_a_one_off_exception_runs_once_beside_the_daily_lines(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    write_game(folder, {"N2-survivor": "2024-05-02T22:30:00+08:00"}, "Asia/Shanghai")
    text = (folder / "game.toml").read_text("utf-8").replace(
        "[deadlines]", '[schedule]\nsurvivors = "21:00"\nhunters = "23:00"\nstart = "2024-05-01"\n\n[deadlines]')
    (folder / "game.toml").write_text(text, "utf-8")
    out = schedule_command_output(folder, on=SPRING, check_hours=1)
    crons = [ln.strip() for ln in out.splitlines() if "- cron:" in ln]
    assert crons[:2] == ["- cron: '7 13 * * *'", "- cron: '7 15 * * *'"]  # the recurring 21:00 and 23:00
    assert "- cron: '37 14 2 5 *'" in crons  # N2's 22:30 deadline, once, on May 2
    assert "# survivor deadline 21:00 Asia/Shanghai" in out and "N2-survivor deadline 2024-05-02 22:30" in out
    assert "- cron: '37,52 13 2 5 *'" in crons and "- cron: '7,22 14 2 5 *'" in crons  # its checks, dated too


def test_values_given_directly_win_over_the_config(tmp_path: Path) -> None:
    folder = write_game(tmp_path / "g", AUTUMN)
    out = schedule_command_output(folder, deadlines={"survivor": "20:00"}, tz="Asia/Shanghai", on=SPRING)
    assert "- cron: '7 12 * * *'" in out and "Europe/Berlin" not in out


def test_config_without_deadlines_is_refused(tmp_path: Path) -> None:
    folder = write_game(tmp_path / "g", {})
    with pytest.raises(ScheduleError) as err:
        schedule_command_output(folder, on=SPRING)
    assert err.value.code == "err.schedule.no_deadlines" and str(folder) in err.value.message("en")


def test_the_last_hours_checks_are_no_further_apart_than_the_look_window_of_rul_55() -> None:
    """RUL-55 stands a look after the deadline in for the checks the schedule meant to run within LOOK_WINDOW of
    it: with every check on time, the last one is within that window, so the rule only acts on a late run."""
    from sheetgm.service.ledger.stamps import LOOK_WINDOW
    from sheetgm.service.timing.schedule import LAST_HOUR_CHECKS

    window = LOOK_WINDOW.total_seconds() / 60
    assert min(LAST_HOUR_CHECKS) < window
    gaps = [a - b for a, b in zip(LAST_HOUR_CHECKS, LAST_HOUR_CHECKS[1:], strict=False)]
    assert all(0 < g <= window for g in gaps)
