"""Deadlines: when each stage ends, who has not submitted yet, the reminders, early resolution.

A stage's deadline is its key in ``[deadlines]`` if there is one (the director's
override: a paused day, a moved night), else the recurring ``[schedule]``: the
survivors' local time every day (or every n days) from ``from_night``, whose
deadline falls on ``start``; the hunters' the first time of theirs after the
survivors' of the same night. Each night follows the one before (never earlier
than ``every`` days after it, never before the previous hunters' deadline), so
an override moves every later night with it. Local times are in the game's time
zone, so a daylight saving change keeps the wall-clock time. A stage without a
deadline is never resolved by the schedule: only early, or by ``--stage``.

A player has *submitted* when their order is ticked and the checker finds
no problem in it (the state "ok" of `sheetgm check`). Before a stage's
deadline, `sheetgm check` reminds: one line per stage in column C of the
public Log tab (on the stage's own row, so a repeat overwrites it) naming
who has not submitted, never what anyone ordered, and a reminder in each of
those players' Orders status cell, in their language, with the deadline in
the game's time zone. A stage resolves at its deadline, or before it once
every living player of its camp has submitted (`resolve`). A stunned hunter
is skipped by the engine (R-ITEM), so he is not waited for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sheetgm.backends.port import Op, ResizeColumns, SetBold, SetValues
from sheetgm.core.observe import name
from sheetgm.core.state import HUNTER_STAGE, SURVIVOR_STAGE, State
from sheetgm.core.texts import render
from sheetgm.notation.times import shown
from sheetgm.service.config.load import GameConfig
from sheetgm.service.game import Game
from sheetgm.sheets import layout
from sheetgm.sheets.archive import ArchivedOrder
from sheetgm.sheets.stages import log_row, parse_key, stage_key

CAMPS = (SURVIVOR_STAGE, HUNTER_STAGE)
REMINDER_COL = "C"  # column of the reminder line in the public Log tab (A: stage, B: public log)
REMINDER_WIDTH = 420
DEADLINE_COL = "E"  # the deadline line in the public Log tab's header row (C: reminders, D: rolled back lines)
DEADLINE_PX = 640


def zone_of(cfg: GameConfig) -> ZoneInfo:
    try:
        return ZoneInfo(cfg.timezone)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _at(day: date, hhmm: str, zone: ZoneInfo) -> datetime:
    hh, mm = hhmm.split(":")
    return datetime.combine(day, time(int(hh), int(mm)), tzinfo=zone)


def _first_after(after: datetime, hhmm: str, zone: ZoneInfo, earliest: date) -> datetime:
    """The first ``hhmm`` (local) on or after ``earliest`` that is later than ``after``."""
    day = max(earliest, after.astimezone(zone).date())
    when = _at(day, hhmm, zone)
    return when if when > after else _at(day + timedelta(days=1), hhmm, zone)


def night_deadlines(cfg: GameConfig, night: int) -> dict[str, datetime | None]:
    """The deadlines of ``night``'s two stages ("survivor", "hunter"): override, else schedule, else None."""
    sched, zone = cfg.schedule, zone_of(cfg)
    last: datetime | None = None  # the latest deadline of the nights before
    last_survivor: datetime | None = None
    out: dict[str, datetime | None] = {}
    # From night 1: an override of a night before ``from_night`` (run by hand) still holds the nights after it
    for n in range(1, night + 1):
        out = {}
        for camp, hhmm in ((SURVIVOR_STAGE, sched.survivors if sched else None),
                           (HUNTER_STAGE, sched.hunters if sched else None)):
            when = cfg.deadlines.get(stage_key(n, camp))
            if when is None and sched is not None and hhmm is not None and n >= sched.from_night:
                if camp == SURVIVOR_STAGE:
                    earliest = (sched.start if last_survivor is None or n == sched.from_night
                                else last_survivor.astimezone(zone).date() + timedelta(days=sched.days))
                    when = _first_after(last, hhmm, zone, earliest) if last else _at(earliest, hhmm, zone)
                else:
                    base = last  # after this night's survivor deadline and every deadline before it
                    when = (_first_after(base, hhmm, zone, base.astimezone(zone).date()) if base
                            else _at(sched.start, hhmm, zone))
            out[camp] = when
            if when is not None:
                last = when if last is None else max(last, when)
                if camp == SURVIVOR_STAGE:
                    last_survivor = when
    return out


def deadline_of(game: Game, key: str) -> datetime | None:
    night, camp = parse_key(key.split("+", 1)[0])
    if camp == "setup":
        return None
    return night_deadlines(game.cfg, night)[camp]


def upcoming(game: Game, key: str, n: int = 2) -> list[tuple[str, datetime]]:
    """The deadlines of the stage ``key`` and the stages after it (up to ``n``), those that have one."""
    night, camp = parse_key(key)
    out: list[tuple[str, datetime]] = []
    stages = [(night, camp)] + ([(night, HUNTER_STAGE)] if camp == SURVIVOR_STAGE else [])
    stages += [(night + 1, SURVIVOR_STAGE), (night + 1, HUNTER_STAGE)]
    for nt, cp in stages[:n]:
        when = night_deadlines(game.cfg, nt)[cp]
        if when is not None:
            out.append((stage_key(nt, cp), when))
    return out


def local_time(game: Game, when: datetime | str, lang: str | None = None, short: bool = False) -> str:
    """``when`` as a person reads it, in the game's time zone with the zone and offset named (times.shown), in
    ``lang`` (the director's by default)."""
    return shown(when, lang or game.lang, game.cfg.timezone, short=short)


def must_submit(state: State, seat: int) -> bool:
    """Whether the stage waits for this seat's order: a living player of the stage's camp, not stunned."""
    p = state.players[seat]
    if p.camp != state.stage or not p.in_play:
        return False
    return not (state.stage == HUNTER_STAGE and p.stunned)


def waiting_for(game: Game, state: State, archive: Mapping[int, ArchivedOrder]) -> list[str]:
    """Aliases of the seats the stage still waits for (no archived order that is ``submitted``), by seat."""
    return [game.alias(s) for s in game.seats
            if must_submit(state, s) and not archive.get(s, ArchivedOrder()).submitted]


def player_reminder(game: Game, seat: int, deadline: datetime, check_state: str) -> str:
    """The reminder appended to a player's Orders status cell, in their language."""
    lang = game.seat_lang(seat)
    text = render(lang, "sheet.remind.status", deadline=local_time(game, deadline, lang))
    if check_state in ("empty", "unreadable"):
        text += render(lang, "sheet.remind.no_order")
    return text


def public_reminder_ops(game: Game, key: str, deadline: datetime, missing: Iterable[str]) -> list[Op]:
    """The reminder line of ``key`` in the public Log tab of every language (``Game.langs``), with its header."""
    names = list(missing)
    r = log_row(key)
    col = REMINDER_COL
    ops: list[Op] = []
    for lang in game.langs:
        tab = layout.tab(lang, "log")
        when, due = local_time(game, game.now(), lang, short=True), local_time(game, deadline, lang)
        aliases = render(lang, "word.sep").join(names)
        line = (render(lang, "sheet.remind.public", time=when, deadline=due, aliases=aliases)
                if names else render(lang, "sheet.remind.public_all", time=when, deadline=due))
        ops += [
            SetValues(layout.rng(tab, f"{col}1"), ((render(lang, "sheet.remind.head"),),)),
            SetBold(layout.rng(tab, f"{col}1")),
            ResizeColumns(layout.rng(tab, f"{col}:{col}"), REMINDER_WIDTH),
            SetValues(layout.rng(tab, f"A{r}"), ((key,),)),
            SetValues(layout.rng(tab, f"{col}{r}"), ((line,),)),
        ]
    return ops


def clear_reminder_op(lang: str, key: str) -> Op:
    """The stage's reminder cell emptied once it is resolved: "not submitted yet" no longer holds."""
    return SetValues(layout.rng(layout.tab(lang, "log"), f"{REMINDER_COL}{log_row(key)}"), (("",),))


def time_left(lang: str, left: timedelta) -> str:
    """"还有 5 小时 12 分" / "5 h 12 min left", rounded down to the minute."""
    minutes = max(0, int(left.total_seconds()) // 60)
    d, rest = divmod(minutes, 24 * 60)
    h, m = divmod(rest, 60)
    kind = "days" if d else ("hours" if h else "minutes")
    return render(lang, f"sheet.deadline.left_{kind}", d=d, h=h, m=m)


def deadline_line(game: Game, state: State, lang: str, at: datetime, by: str = "check") -> str:
    """The stage now due, its deadline and the time left as of ``at`` (when the line is written, by a ``check``
    or a ``resolve``), in ``lang`` and the game's time zone: the line in front of every player."""
    if state.over():
        return render(lang, "sheet.deadline.over")
    stage = render(lang, "sheet.cur.stage_value", night=state.night, stage=name(lang, "word", state.stage))
    as_of = render(lang, f"sheet.deadline.as_of_{by}", time=local_time(game, at, lang, short=True))
    due = deadline_of(game, stage_key(state.night, state.stage))
    if due is None:
        return render(lang, "sheet.deadline.none", stage=stage, as_of=as_of)
    left = time_left(lang, due - at) if at < due else render(lang, "sheet.deadline.passed")
    return render(lang, "sheet.deadline.line", stage=stage, deadline=local_time(game, due, lang, short=True),
                  left=left, as_of=as_of)


def public_deadline_ops(game: Game, state: State, at: datetime, by: str) -> list[Op]:
    """The same line at the top of the public Log tab of every language (``Game.langs``)."""
    col = DEADLINE_COL
    return [op for lang in game.langs for op in (
        SetValues(layout.rng(layout.tab(lang, "log"), f"{col}1"), ((deadline_line(game, state, lang, at, by),),)),
        SetBold(layout.rng(layout.tab(lang, "log"), f"{col}1")),
        ResizeColumns(layout.rng(layout.tab(lang, "log"), f"{col}:{col}"), DEADLINE_PX))]


def past_start(cfg: GameConfig, now: datetime, lang: str) -> str:
    """Night 1's first deadline already past at ``now`` (a start date copied from an example): what happens and the
    fix, in ``lang``; "" if it is ahead or there is none. Deadlines are worked out from game.toml at every run, so
    the fix holds for a game already created."""
    due = night_deadlines(cfg, 1)
    first = min(((k, w) for k, w in due.items() if w is not None), key=lambda kw: kw[1], default=None)
    if first is None or first[1] > now:
        return ""
    zone = zone_of(cfg)
    camp, when = first
    key = stage_key(1, camp)
    tomorrow = now.astimezone(zone).date() + timedelta(days=1)
    shown_at = shown(when, lang, cfg.timezone)
    if key in cfg.deadlines:
        example = datetime.combine(tomorrow, when.astimezone(zone).time(), tzinfo=zone).isoformat()
        return render(lang, "cli.new_past_deadline", key=key, deadline=shown_at, example=example)
    return render(lang, "cli.new_past_start", start=cfg.schedule.start.isoformat() if cfg.schedule else "-",
                  deadline=shown_at, example=tomorrow.isoformat())
