"""`sheetgm schedule` for a game: its deadlines read from game.toml and turned into the workflow's cron lines.

The recurring deadlines (``[schedule]``) become daily lines; every other deadline (a ``[deadlines]``
exception at another time of day, or each deadline of a game without ``[schedule]``) a dated line that runs
on that day only (schedule.py has the cron arithmetic).
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

from sheetgm.service.timing.schedule import (
    DEFAULT_OFFSET,
    NOTE_HORIZON,
    ScheduleError,
    offset_changes,
    parse_hhmm,
    render_schedule_block,
    zone_of,
)


def config_deadlines(game_config_path: Path) -> tuple[dict[str, str], dict[str, datetime], str, list[date]]:
    """A game's deadlines as the schedule runs them: the recurring ones (camp -> local "HH:MM", from
    ``[schedule]``: daily lines), the one-off ones (stage -> time: every deadline at another local time than its
    camp's recurring one, or all of them in a game with no ``[schedule]``: dated lines, so that an exception
    runs once and not every day for ever), the zone and every deadline's date."""
    from sheetgm.service.config.load import load_config
    from sheetgm.service.timing.deadlines import night_deadlines

    cfg = load_config(game_config_path)
    zone = zone_of(cfg.timezone)
    sched = cfg.schedule
    recurring = {c: t for c, t in (("survivor", sched.survivors if sched else None),
                                   ("hunter", sched.hunters if sched else None)) if t}
    daily: dict[str, str] = {}
    dated: dict[str, datetime] = {}
    dates: list[date] = []
    for night in range(1, cfg.max_nights + 1):
        for camp, when in night_deadlines(cfg, night).items():
            if when is None:
                continue
            local = when.astimezone(zone)
            dates.append(local.date())
            if recurring.get(camp) is not None and f"{local:%H:%M}" == f"{parse_hhmm(recurring[camp], camp):%H:%M}":
                daily[camp] = recurring[camp]
            else:
                dated[f"N{night}-{camp}"] = local
    if not daily and not dated:
        raise ScheduleError("err.schedule.no_deadlines", where=str(game_config_path))
    return daily, dated, cfg.timezone, dates


def schedule_command_output(game_config_path: Path | str | None = None, *, deadlines: dict[str, str] | None = None,
                            tz: str | None = None, offset_minutes: int = DEFAULT_OFFSET, on: date | None = None,
                            use_timezone_key: bool = False, check_hours: int = 0) -> str:
    """What ``sheetgm schedule`` prints: the block to paste, then notes on offset changes.

    Values given directly (``deadlines``, ``tz``) win over the game's config; without a
    config both are needed.
    """
    dates: list[date] = []
    dated: dict[str, datetime] = {}
    if game_config_path is not None:
        found, dated, zone, dates = config_deadlines(Path(game_config_path))
        if deadlines:  # daily times given on the command line replace the game's
            dated = {}
        deadlines = deadlines or found
        tz = tz or zone
    if not deadlines and not dated:
        raise ScheduleError("err.schedule.no_deadlines", where="--deadline")
    if not tz:
        raise ScheduleError("err.schedule.no_zone")
    day = on if on is not None else datetime.now(zone_of(tz)).date()
    block = render_schedule_block(deadlines or {}, tz, offset_minutes, on=day, use_timezone_key=use_timezone_key,
                                  check_hours=check_hours, dated=dated)
    if use_timezone_key or not deadlines:  # keyed lines follow the zone; dated UTC lines are right on their day
        return block
    end = max(dates) if dates else day + NOTE_HORIZON
    notes = [f"# note: {tz} goes from UTC{old} to UTC{new} on {when}: run `sheetgm schedule` again that day,"
             f" or use the timezone key (--timezone-key)."
             for when, old, new in offset_changes(tz, day, end)]
    return block + "".join(n + "\n" for n in notes)
