"""`sheetgm status`: where the game stands (one read of the director workbook)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sheetgm.backends.errors import BackendError
from sheetgm.core.texts import render
from sheetgm.service.game import DIRECTOR, Game, player_key
from sheetgm.service.gamelock import lock_is_free, parse_unlocks, unlocks_range
from sheetgm.service.journal import RESOLVED, SUPERSEDED, Entry, journal_range, latest, lock_range, parse_entries
from sheetgm.service.stages import stage_key


@dataclass
class StatusReport:
    game: str
    backend: str
    due: str | None  # the stage to resolve next; None when the game is over
    pending_publish: bool
    night: int
    progress: str
    winner: str | None
    locked_by: str | None
    deadline: str | None
    journal: list[tuple[str, str, str]] = field(default_factory=list)  # key, status, time
    workbooks: dict[str, str | None] = field(default_factory=dict)  # key -> url or path
    players: list[dict[str, Any]] = field(default_factory=list)
    undelivered: list[str] = field(default_factory=list)  # reports owed to unwritable workbooks, in words
    unlocks: list[dict[str, str]] = field(default_factory=list)  # hand unlocks (sheetgm unlock), oldest first

    def to_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["journal"] = [{"stage": k, "status": s, "time": t} for k, s, t in self.journal]
        return d


def undelivered(game: Game, entries: list[Entry]) -> list[str]:
    """One line per player still owed reports: which workbook, which stages, why."""
    owed: dict[int, tuple[list[str], str]] = {}
    for e in entries:
        if e.status == SUPERSEDED:
            continue
        for seat, why in e.undelivered:
            owed.setdefault(seat, ([], why))[0].append(e.key)
            owed[seat] = (owed[seat][0], why)  # the latest reason
    return [render(game.lang, "svc.undelivered", alias=game.alias(s), seat=s, key=player_key(s),
                   stages=", ".join(keys), reason=why) for s, (keys, why) in sorted(owed.items()) if s in game.seats]


def status(game: Game, with_urls: bool = True) -> StatusReport:
    lang = game.lang
    got = game.gateway.read(DIRECTOR, [journal_range(lang), lock_range(lang), unlocks_range(lang)])
    entries = parse_entries(got[journal_range(lang)], lang)
    lock = list((got[lock_range(lang)] or [[]])[0])
    cur = latest(entries)
    state = cur.state(game.board)
    pending = cur.status == RESOLVED
    due = cur.key if pending else (None if state.over() else stage_key(state.night, state.stage))
    deadline = game.cfg.deadlines.get(due) if due else None
    urls: dict[str, str | None] = {}
    if with_urls:
        for key in game.keys():
            try:
                urls[key] = game.gateway.url(key)
            except BackendError:
                urls[key] = None
    players = [{"seat": s, "alias": p.alias, "camp": p.camp, "status": p.status}
               for s, p in sorted(state.players.items()) if s in game.seats]
    return StatusReport(
        game=game.cfg.name, backend=game.cfg.backend, due=due, pending_publish=pending, night=state.night,
        progress=f"{state.progress}/{state.opt('crack_target')}", winner=state.winner,
        locked_by=None if lock_is_free(game, lock) else f"{lock[1]} @ {lock[2]}",
        deadline=deadline.isoformat() if deadline else None,
        journal=[(e.key, e.status, e.time) for e in entries], workbooks=urls, players=players,
        undelivered=undelivered(game, entries), unlocks=parse_unlocks(got[unlocks_range(lang)]),
    )
