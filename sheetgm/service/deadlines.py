"""Deadlines: who has not submitted yet, the reminders, and when a stage may resolve early.

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
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sheetgm.backends.port import Op, ResizeColumns, SetBold, SetValues
from sheetgm.core.state import HUNTER_STAGE, SURVIVOR_STAGE, State
from sheetgm.core.texts import render
from sheetgm.service import layout as L
from sheetgm.service.game import Game
from sheetgm.service.stages import log_row

CAMPS = (SURVIVOR_STAGE, HUNTER_STAGE)
REMINDER_COL = "C"  # column of the reminder line in the public Log tab (A: stage, B: public log)
REMINDER_WIDTH = 420


def deadline_of(game: Game, key: str) -> datetime | None:
    return game.cfg.deadlines.get(key)


def ahead(game: Game, key: str) -> datetime | None:
    """The stage's deadline if it has not passed yet (None: no deadline, or it has passed)."""
    when = deadline_of(game, key)
    return when if when is not None and game.now() < when else None


def local_time(game: Game, when: datetime) -> str:
    """``when`` in the game's time zone, with the zone named: "2024-05-01 21:00 (Asia/Shanghai)"."""
    try:
        zone = ZoneInfo(game.cfg.timezone)
    except (ZoneInfoNotFoundError, ValueError):
        return when.strftime("%Y-%m-%d %H:%M (UTC%z)")
    return f"{when.astimezone(zone):%Y-%m-%d %H:%M} ({game.cfg.timezone})"


def must_submit(state: State, seat: int) -> bool:
    """Whether the stage waits for this seat's order: a living player of the stage's camp, not stunned."""
    p = state.players[seat]
    if p.camp != state.stage or not p.in_play:
        return False
    return not (state.stage == HUNTER_STAGE and p.stunned)


def submitted(info: Mapping[str, Any]) -> bool:
    """An archived order (see resolve.read_orders) that is ticked, readable and without problems."""
    return bool(info.get("text")) and bool(info.get("ticked")) and not info.get("problems") and not info.get("bad")


def waiting_for(game: Game, state: State, archive: Mapping[int, Mapping[str, Any]]) -> list[str]:
    """Aliases of the seats the stage still waits for, by seat."""
    return [game.alias(s) for s in game.seats
            if must_submit(state, s) and not submitted(archive.get(s, {}))]


def player_reminder(game: Game, seat: int, deadline: datetime, check_state: str) -> str:
    """The reminder appended to a player's Orders status cell, in their language."""
    lang = game.seat_lang(seat)
    text = render(lang, "sheet.remind.status", deadline=local_time(game, deadline))
    if check_state in ("empty", "unreadable"):
        text += render(lang, "sheet.remind.no_order")
    return text


def public_reminder_ops(game: Game, key: str, deadline: datetime, missing: Iterable[str]) -> list[Op]:
    """The reminder line of ``key`` in the public Log tab (director's language), and its column header."""
    lang = game.lang
    tab = L.tab(lang, "log")
    r = log_row(key)
    names = render(lang, "word.sep").join(missing)
    when = game.now().strftime("%m-%d %H:%M")
    line = (render(lang, "sheet.remind.public", time=when, deadline=local_time(game, deadline), aliases=names)
            if names else render(lang, "sheet.remind.public_all", time=when, deadline=local_time(game, deadline)))
    col = REMINDER_COL
    return [
        SetValues(L.rng(tab, f"{col}1"), ((render(lang, "sheet.remind.head"),),)),
        SetBold(L.rng(tab, f"{col}1")),
        ResizeColumns(L.rng(tab, f"{col}:{col}"), REMINDER_WIDTH),
        SetValues(L.rng(tab, f"A{r}"), ((key,),)),
        SetValues(L.rng(tab, f"{col}{r}"), ((line,),)),
    ]
