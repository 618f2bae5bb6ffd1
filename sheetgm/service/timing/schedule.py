"""Cron lines for the resolve workflow, from a game's daily deadlines.

GitHub cron has no time zone unless a schedule entry carries the
``timezone`` key: a plain entry is UTC. The plain form is computed with the
zone's UTC offset on one reference date (``on``, default today), so it is
right until the zone's next offset change (daylight saving time); the notes
name that date. The ``timezone`` form follows the zone's offset by itself.

Runs are set ``offset_minutes`` after each deadline (a late run is safe:
``sheetgm resolve`` refuses to resolve a stage before its deadline) and never
at minute 0, where GitHub's scheduler is busiest and runs start latest.

Check runs (``check_entries``) come before each deadline: hourly in its last
``check_hours`` hours and every 15 minutes in the last one, so that players
see their problems and reminders in time, the tool sees (and stamps) their
orders before the deadline, and a stage whose camp has all submitted
resolves early (the workflow runs check, then resolve, every time).
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sheetgm.core.errors import SheetgmError
from sheetgm.core.values import Value, record, replace

DEFAULT_OFFSET = 7
DEFAULT_CHECK_HOURS = 3  # what `sheetgm schedule` prints; the library's functions default to no check runs
LAST_HOUR_CHECKS = (53, 38, 23, 8)  # minutes before the deadline, in its last hour
_HHMM = re.compile(r"^([01]?[0-9]|2[0-3]):([0-5][0-9])$")
_LABEL = re.compile(r"^[^\x00-\x1f#\x7f]+$")
NOTE_HORIZON = timedelta(days=366)


class ScheduleError(SheetgmError):
    """Deadlines, time zone or offset cannot make a schedule (texts in texts/<lang>/schedule.toml)."""

    code = "err.schedule.generic"


@record(frozen=True)
class CronEntry(Value):
    """One schedule entry: the cron expression and the stages whose deadline it follows."""

    cron: str
    deadlines: tuple[tuple[str, str], ...]  # (stage, local "HH:MM" deadline), all run by this entry
    run_local: str  # local "HH:MM" the run is set for
    run_utc: str  # "HH:MM" UTC on the reference date
    tz: str
    utc_offset: str  # "+08:00" on the reference date
    on: date
    timezone_key: bool = False

    @property
    def stages(self) -> tuple[str, ...]:
        return tuple(stage for stage, _ in self.deadlines)

    def comment(self) -> str:
        due = ", ".join(f"{stage} deadline {hhmm}" for stage, hhmm in self.deadlines)
        if self.timezone_key:
            return f"{due} {self.tz}: run {self.run_local}"
        return (f"{due} {self.tz}: run {self.run_local} local = {self.run_utc} UTC"
                f" (UTC{self.utc_offset} on {self.on.isoformat()})")

    def line(self) -> str:
        return f"{self.cron}  # {self.comment()}"


def parse_hhmm(text: str, stage: str = "?") -> time:
    m = _HHMM.match(text.strip()) if isinstance(text, str) else None
    if not m:
        raise ScheduleError("err.schedule.bad_time", stage=stage, value=text)
    return time(int(m.group(1)), int(m.group(2)))


def zone_of(tz: str) -> ZoneInfo:
    try:
        return ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        raise ScheduleError("err.schedule.bad_zone", tz=tz) from None


def _offset_text(delta: timedelta | None) -> str:
    minutes = int((delta or timedelta(0)).total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def _run_time(deadline: datetime, offset_minutes: int, keyed: bool) -> datetime:
    """``offset_minutes`` after the deadline, moved off minute 0 (local, and UTC unless keyed).

    Landing on :00 moves the run to :MM with MM = offset_minutes; in a
    half-hour zone that can be :00 UTC again, so single minutes follow.
    """

    def on_hour(t: datetime) -> bool:
        return t.minute == 0 or (not keyed and t.astimezone(UTC).minute == 0)

    run = deadline + timedelta(minutes=offset_minutes)
    if on_hour(run):
        run += timedelta(minutes=offset_minutes)
    while on_hour(run):
        run += timedelta(minutes=1)
    return run


def cron_entries(deadlines: dict[str, str], tz: str, offset_minutes: int = DEFAULT_OFFSET, *,
                 on: date | None = None, use_timezone_key: bool = False) -> list[CronEntry]:
    """One entry per distinct run time, in the order of ``deadlines`` (label -> local daily "HH:MM")."""
    if not deadlines:
        raise ScheduleError("err.schedule.no_deadlines", where="--deadline")
    if isinstance(offset_minutes, bool) or not isinstance(offset_minutes, int) or not 1 <= offset_minutes <= 59:
        raise ScheduleError("err.schedule.bad_offset", value=offset_minutes)
    zone = zone_of(tz)
    day = on if on is not None else datetime.now(zone).date()
    entries: list[CronEntry] = []
    for stage, text in deadlines.items():
        if not isinstance(stage, str) or not _LABEL.match(stage):
            raise ScheduleError("err.schedule.bad_label", stage=repr(stage))
        # fold=0 reads a repeated local hour (autumn) as its first pass; a skipped hour (spring) as before the jump
        deadline = datetime.combine(day, parse_hhmm(text, stage), tzinfo=zone)
        run = _run_time(deadline, offset_minutes, use_timezone_key)
        utc = run.astimezone(UTC)
        shown = run if use_timezone_key else utc
        cron = f"{shown.minute} {shown.hour} * * *"
        same = next((e for e in entries if e.cron == cron), None)
        if same is not None:
            entries[entries.index(same)] = replace(same, deadlines=same.deadlines + ((stage, f"{deadline:%H:%M}"),))
            continue
        entries.append(CronEntry(cron, ((stage, f"{deadline:%H:%M}"),), f"{run:%H:%M}", f"{utc:%H:%M}", tz,
                                 _offset_text(run.utcoffset()), day, use_timezone_key))
    return entries


@record(frozen=True)
class CheckEntry(Value):
    """One schedule entry of check runs (minutes x hours) before the deadlines named in ``comment``."""

    cron: str
    comment: str


def _check_times(deadline: datetime, hours: int, keyed: bool) -> list[datetime]:
    """Hourly in the last ``hours`` hours before ``deadline``, every 15 minutes in the last one, off minute 0."""
    before = [60 * h - DEFAULT_OFFSET for h in range(hours, 1, -1)] + list(LAST_HOUR_CHECKS)
    out = []
    for minutes in before:
        run = deadline - timedelta(minutes=minutes)
        while run.minute == 0 or (not keyed and run.astimezone(UTC).minute == 0):
            run -= timedelta(minutes=1)
        out.append(run)
    return out


def check_entries(deadlines: dict[str, str], tz: str, hours: int = DEFAULT_CHECK_HOURS, *, on: date | None = None,
                  use_timezone_key: bool = False, skip: frozenset[tuple[int, int]] = frozenset()
                  ) -> list[CheckEntry]:
    """Cron entries for the check runs before every deadline (none when ``hours`` is 0); ``skip``: (hour,
    minute) pairs a resolve run already takes (every run checks first)."""
    if isinstance(hours, bool) or not isinstance(hours, int) or not 0 <= hours <= 12:
        raise ScheduleError("err.schedule.bad_check_hours", value=hours)
    if not hours or not deadlines:
        return []
    zone = zone_of(tz)
    day = on if on is not None else datetime.now(zone).date()
    by_hour: dict[int, set[int]] = {}
    notes = []
    for stage, text in deadlines.items():
        deadline = datetime.combine(day, parse_hhmm(text, stage), tzinfo=zone)
        runs = _check_times(deadline, hours, use_timezone_key)
        for run in runs:
            shown = run if use_timezone_key else run.astimezone(UTC)
            if (shown.hour, shown.minute) not in skip:
                by_hour.setdefault(shown.hour, set()).add(shown.minute)
        notes.append(f"{stage} deadline {deadline:%H:%M}: {', '.join(f'{r:%H:%M}' for r in runs)}")
    groups: dict[tuple[int, ...], list[int]] = {}
    for hour in sorted(by_hour):
        groups.setdefault(tuple(sorted(by_hour[hour])), []).append(hour)
    where = f"{tz} local" if use_timezone_key else f"{tz}, as UTC on {day.isoformat()}"
    comment = f"check before each deadline ({where}): " + "; ".join(notes)
    return [CheckEntry(f"{','.join(map(str, minutes))} {','.join(map(str, hrs))} * * *", comment)
            for minutes, hrs in sorted(groups.items(), key=lambda g: g[1][0])]


def cron_lines(deadlines: dict[str, str], tz: str, offset_minutes: int = DEFAULT_OFFSET, *,
               on: date | None = None) -> list[str]:
    """UTC cron lines ("7 13 * * *  # survivor: deadline 21:00 Asia/Shanghai, ...") for the offset on ``on``."""
    return [e.line() for e in cron_entries(deadlines, tz, offset_minutes, on=on)]


def offset_changes(tz: str, start: date, end: date) -> list[tuple[date, str, str]]:
    """Days in [start, end] from which the zone's UTC offset (at noon) differs from the day before."""
    zone = zone_of(tz)
    changes: list[tuple[date, str, str]] = []
    day = start
    before = datetime.combine(day, time(12), tzinfo=zone).utcoffset()
    while day < end:
        day += timedelta(days=1)
        now = datetime.combine(day, time(12), tzinfo=zone).utcoffset()
        if now != before:
            changes.append((day, _offset_text(before), _offset_text(now)))
        before = now
    return changes


def dated_entries(dated: dict[str, datetime], tz: str, offset_minutes: int = DEFAULT_OFFSET, *,
                  use_timezone_key: bool = False) -> list[CheckEntry]:
    """One-off runs: one entry per run time and month, the days listed (``7 21 4,9 5 *``), for deadlines that are
    not the recurring ones (``[deadlines]`` exceptions, or a game with no ``[schedule]``). Each is computed for
    its own day, so the UTC form is right on either side of a clock change. Cron has no year: a dated line
    would run again on that day a year later (harmless: nothing is due then), so remove it after the game."""
    zone = zone_of(tz)
    groups: dict[tuple[int, int, int], list[tuple[int, str]]] = {}
    for stage, when in sorted(dated.items(), key=lambda kv: kv[1]):
        if not isinstance(stage, str) or not _LABEL.match(stage):
            raise ScheduleError("err.schedule.bad_label", stage=repr(stage))
        local = when.astimezone(zone)
        run = _run_time(local, offset_minutes, use_timezone_key)
        shown = run if use_timezone_key else run.astimezone(UTC)
        groups.setdefault((shown.minute, shown.hour, shown.month), []).append(
            (shown.day, f"{stage} deadline {local:%Y-%m-%d %H:%M}"))
    out = []
    for (minute, hour, month), runs in groups.items():
        days = ",".join(str(d) for d in sorted({d for d, _ in runs}))
        where = f"{tz} local" if use_timezone_key else "UTC"
        comment = f"once ({where}): " + "; ".join(n for _, n in runs) + f" {tz}"
        out.append(CheckEntry(f"{minute} {hour} {days} {month} *", comment))
    return out


def dated_checks(dated: dict[str, datetime], tz: str, hours: int = DEFAULT_CHECK_HOURS, *,
                 use_timezone_key: bool = False, skip: frozenset[tuple[int, int, int, int]] = frozenset()
                 ) -> list[CheckEntry]:
    """The check runs before one-off deadlines, dated like their resolve runs (``skip``: (month, day, hour,
    minute) of runs a resolve run already takes)."""
    if not hours or not dated:
        return []
    zone = zone_of(tz)
    by_day: dict[tuple[int, int], dict[int, set[int]]] = {}
    for _stage, when in dated.items():
        for run in _check_times(when.astimezone(zone), hours, use_timezone_key):
            shown = run if use_timezone_key else run.astimezone(UTC)
            if (shown.month, shown.day, shown.hour, shown.minute) not in skip:
                by_day.setdefault((shown.month, shown.day), {}).setdefault(shown.hour, set()).add(shown.minute)
    lines: dict[tuple[str, str, int], list[int]] = {}  # (minutes, hours, month) -> days
    for (month, day), hours_of in sorted(by_day.items()):
        groups: dict[tuple[int, ...], list[int]] = {}
        for hour in sorted(hours_of):
            groups.setdefault(tuple(sorted(hours_of[hour])), []).append(hour)
        for minutes, hrs in groups.items():
            lines.setdefault((",".join(map(str, minutes)), ",".join(map(str, hrs)), month), []).append(day)
    where = f"{tz} local" if use_timezone_key else "UTC"
    comment = f"check before each one-off deadline ({where})"
    return [CheckEntry(f"{m} {h} {','.join(map(str, days))} {month} *", comment)
            for (m, h, month), days in lines.items()]


def render_schedule_block(deadlines: dict[str, str], tz: str, offset_minutes: int = DEFAULT_OFFSET, *,
                          on: date | None = None, use_timezone_key: bool = False, indent: int = 2,
                          check_hours: int = 0, dated: dict[str, datetime] | None = None) -> str:
    """The ``schedule:`` block to paste under ``on:`` in .github/workflows/resolve.yml: daily runs for the
    recurring ``deadlines`` (label -> local "HH:MM"), dated runs for the one-off ones (``dated``)."""
    if not deadlines and not dated:
        raise ScheduleError("err.schedule.no_deadlines", where="--deadline")
    zone = zone_of(tz)
    day = on if on is not None else datetime.now(zone).date()
    entries = cron_entries(deadlines, tz, offset_minutes, on=day, use_timezone_key=use_timezone_key) if deadlines \
        else []
    taken = frozenset((int(e.cron.split()[1]), int(e.cron.split()[0])) for e in entries)
    checks = check_entries(deadlines, tz, check_hours, on=day, use_timezone_key=use_timezone_key, skip=taken)
    once = dated_entries(dated or {}, tz, offset_minutes, use_timezone_key=use_timezone_key)
    once_taken = frozenset((int(f[3]), int(d), int(f[1]), int(f[0])) for e in once
                           for f in [e.cron.split()] for d in f[2].split(","))
    once_checks = dated_checks(dated or {}, tz, check_hours, use_timezone_key=use_timezone_key, skip=once_taken)
    pad, item = " " * indent, " " * (indent + 2)
    out = [f"{pad}schedule:"]
    if use_timezone_key:
        out.append(f"{item}# local times in {tz}: the timezone key follows its UTC offset changes (clock changes)")
    elif entries:
        out.append(f"{item}# UTC (cron has no time zone): {tz} is UTC{entries[0].utc_offset} on {entries[0].on}")
    else:
        out.append(f"{item}# UTC (cron has no time zone): each one-off line is computed for its own day")
    key = [f"{item}  timezone: {tz}"] if use_timezone_key else []
    for e in entries:
        out += [f"{item}# {e.comment()}", f"{item}- cron: '{e.cron}'", *key]
    if checks:
        out.append(f"{item}# {checks[0].comment}")
    for c in checks:
        out += [f"{item}- cron: '{c.cron}'", *key]
    for c in once:
        out += [f"{item}# {c.comment}", f"{item}- cron: '{c.cron}'", *key]
    if once_checks:
        out.append(f"{item}# {once_checks[0].comment}")
    for c in once_checks:
        out += [f"{item}- cron: '{c.cron}'", *key]
    return "\n".join(out) + "\n"
