"""Every time shown to a person, in one form: the game's zone named, its UTC offset, no seconds.

The tool records times as ISO 8601 with an offset (the journal, the Orders archive, the lock): those are
records, read back by the tool. Whatever a player or the director reads goes through ``shown``:

- long: ``2026-12-06 周日 21:00（Asia/Shanghai，UTC+8）`` / ``Sun 2026-12-06 21:00 (Asia/Shanghai, UTC+8)``
- short, where space is tight (a table, a status cell): ``12-06 21:00 UTC+8`` (no brackets: it often sits in some)

The offset is the one in force at that moment, so a time on either side of a daylight saving change says
which it is. Templates: ``time.*`` in ``sheet_templates/texts/<lang>/day.toml``.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, tzinfo
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sheetgm.core.texts import render


def zone(name: str | None) -> tzinfo:
    """The IANA zone ``name``; UTC when it is empty or unknown (the config check names a bad one)."""
    try:
        return ZoneInfo(name) if name else UTC
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def offset_text(delta: timedelta | None) -> str:
    """``+8``, ``+5:30``, ``-3``, ``±0``: an offset as people write it after "UTC"."""
    minutes = int((delta or timedelta(0)).total_seconds()) // 60
    if minutes == 0:
        return "±0"
    sign = "-" if minutes < 0 else "+"
    hours, mins = divmod(abs(minutes), 60)
    return f"{sign}{hours}" + (f":{mins:02d}" if mins else "")


def parse(text: str) -> datetime | None:
    """A recorded ISO time (with its offset); None for an empty or unreadable one. A time recorded without an
    offset is taken as UTC."""
    try:
        when = datetime.fromisoformat(text.strip())
    except (ValueError, AttributeError):
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def shown(when: datetime | str | None, lang: str, zone_name: str | None, *, short: bool = False) -> str:
    """``when`` (a datetime, or a recorded ISO string) in the zone ``zone_name`` (None: in its own offset), for a
    person reading ``lang``. An empty or unreadable record is shown as "-"."""
    if isinstance(when, str):
        when = parse(when)
    if when is None:
        return "-"
    return _shown(when, when.utcoffset(), lang, zone_name, short)


@lru_cache(maxsize=512)
def _shown(when: datetime, _offset: timedelta | None, lang: str, zone_name: str | None, short: bool) -> str:
    """``shown`` of a time, once per process (a stage's status cells show the same few deadlines hundreds of
    times). The offset is part of the key: two datetimes of one instant are equal, but without a zone named
    each is shown in its own offset."""
    tz = zone(zone_name) if zone_name else when.tzinfo  # no zone named: the record's own offset
    local = when.astimezone(tz)
    named = isinstance(tz, ZoneInfo) and bool(zone_name)
    params = {"date": f"{local:%Y-%m-%d}", "md": f"{local:%m-%d}", "hm": f"{local:%H:%M}",
              "weekday": render(lang, f"time.weekday.{local.weekday()}"), "offset": offset_text(local.utcoffset()),
              "zone": zone_name if named else "UTC"}
    return render(lang, "time.short" if short else "time.long" if named else "time.long_offset", **params)
