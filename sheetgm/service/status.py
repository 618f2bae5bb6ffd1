"""`sheetgm status`: where the game stands (one read of the director workbook)."""

from __future__ import annotations

from typing import Any

from sheetgm.backends.errors import BackendError
from sheetgm.core.observe import shown_progress
from sheetgm.core.texts import render
from sheetgm.core.values import field, record
from sheetgm.service.game import DIRECTOR, Game, player_key
from sheetgm.service.ledger import stamps, table
from sheetgm.service.ledger.journal import (
    RESOLVED,
    SUPERSEDED,
    Entry,
    entry_order,
    journal_range,
    latest,
    lock_range,
    parse_entries,
)
from sheetgm.service.ledger.lock import lock_is_free, parse_unlocks, unlocks_range
from sheetgm.service.timing import deadlines
from sheetgm.sheets.stages import stage_key


@record
class StatusReport:
    """Where a game stands: the stage due, its deadline, who has submitted."""

    game: str
    backend: str
    due: str | None  # the stage to resolve next; None when the game is over
    pending_publish: bool
    night: int
    progress: str
    winner: str | None
    locked_by: str | None
    deadline: str | None  # ISO, with its offset
    timezone: str = "UTC"
    next_deadlines: list[tuple[str, str]] = field(default_factory=list)  # (stage, ISO time) from the due one on
    journal: list[tuple[str, str, str]] = field(default_factory=list)  # key, status, time: each entry once
    rolled_back: dict[str, int] = field(default_factory=dict)  # key -> how many superseded versions it has
    workbooks: dict[str, str | None] = field(default_factory=dict)  # key -> url or path
    players: list[dict[str, Any]] = field(default_factory=list)  # the director's table (table.SeatRow) + result
    undelivered: list[str] = field(default_factory=list)  # reports owed to unwritable workbooks, in words
    unlocks: list[dict[str, str]] = field(default_factory=list)  # hand unlocks (sheetgm unlock), oldest first

    def to_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["journal"] = [{"stage": k, "status": s, "time": t, "rolled_back": self.rolled_back.get(k, 0)}
                        for k, s, t in self.journal]
        d["next_deadlines"] = [{"stage": k, "deadline": t} for k, t in self.next_deadlines]
        return d


def undelivered(game: Game, entries: list[Entry], lang: str | None = None) -> list[str]:
    """One line per player still owed reports: which workbook, which stages, why (in ``lang``, else the
    console's; `doctor` says the same)."""
    owed: dict[int, tuple[list[str], str]] = {}
    for e in entries:
        if e.status == SUPERSEDED:
            continue
        for seat, why in e.undelivered:
            owed.setdefault(seat, ([], why))[0].append(e.key)
            owed[seat] = (owed[seat][0], why)  # the latest reason
    return [render(lang or game.voice, "svc.undelivered", alias=game.alias(s), seat=s, key=player_key(s),
                   stages=", ".join(keys), reason=why) for s, (keys, why) in sorted(owed.items()) if s in game.seats]


def status(game: Game, with_urls: bool = True) -> StatusReport:
    lang = game.lang
    ranges = [journal_range(lang), lock_range(lang), unlocks_range(lang), stamps.archive_range(lang)]
    got = game.gateway.read(DIRECTOR, ranges)
    entries = parse_entries(got[journal_range(lang)], lang)
    lock = list((got[lock_range(lang)] or [[]])[0])
    cur = latest(entries)
    state = cur.state(game.board)
    pending = cur.status == RESOLVED
    due = cur.key if pending else (None if state.over() else stage_key(state.night, state.stage))
    deadline = deadlines.deadline_of(game, due) if due else None
    coming = deadlines.upcoming(game, due, 3) if due and not pending else []
    urls: dict[str, str | None] = {}
    if with_urls:
        for key in game.keys():
            try:
                urls[key] = game.gateway.url(key)
            except BackendError:
                urls[key] = None
    rows = table.seat_rows(game, state, None if pending else due, got[stamps.archive_range(lang)])
    players = [r.to_dict() | {"result": state.players[r.seat].result} for r in rows]
    return StatusReport(
        game=game.cfg.name, backend=game.cfg.backend, due=due, pending_publish=pending, night=state.night,
        progress=shown_progress(state), winner=state.winner,
        locked_by=None if lock_is_free(game, lock) else f"{lock[1]} @ {deadlines.local_time(game, lock[2])}",
        deadline=deadline.isoformat() if deadline else None, timezone=game.cfg.timezone,
        next_deadlines=[(k, t.isoformat()) for k, t in coming],
        journal=once(entries), rolled_back=superseded_counts(entries), workbooks=urls, players=players,
        undelivered=undelivered(game, entries), unlocks=parse_unlocks(got[unlocks_range(lang)]),
    )


def once(entries: list[Entry]) -> list[tuple[str, str, str]]:
    """Each journal entry once, in play order: its live row, or its latest superseded copy when the stage
    was rolled back and not resolved again (rollback keeps copies of superseded rows in the journal)."""
    by_key: dict[str, Entry] = {}
    for e in entries:
        if e.key not in by_key or e.status != SUPERSEDED or by_key[e.key].status == SUPERSEDED:
            by_key[e.key] = e
    return [(e.key, e.status, e.time) for e in sorted(by_key.values(), key=lambda e: entry_order(e.key))]


def superseded_counts(entries: list[Entry]) -> dict[str, int]:
    """Per stage, how many times it was rolled back: each rollback keeps a copy of the row, and a stage not
    resolved again also keeps its own row, marked superseded in place."""
    out: dict[str, int] = {}
    live = {e.key for e in entries if e.status != SUPERSEDED}
    for e in entries:
        if e.status == SUPERSEDED and e.kind == "stage":
            out[e.key] = out.get(e.key, 0) + 1
    return {k: n - (k not in live) for k, n in out.items() if n - (k not in live)}
