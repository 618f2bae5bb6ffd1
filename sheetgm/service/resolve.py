"""`sheetgm resolve`: the safe resolve of DESIGN.md.

lock → read (one call per workbook) → resolve (pure) → journal row *before*
publishing → publish keyed by stage → mark published and unlock (one write).
A published stage is never resolved again; a journaled but unpublished one
is published from the journal without resolving again. Before its deadline a
stage resolves only once every living player of its camp has submitted
(deadlines.py), or when the director names it with ``--stage``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sheetgm.core.observe import public_log, report
from sheetgm.core.resolve import resolve_stage
from sheetgm.core.steps import Order
from sheetgm.core.texts import render
from sheetgm.notation.order_format import format_order
from sheetgm.service import deadlines as D
from sheetgm.service.errors import NotDueError, ServiceError
from sheetgm.service.game import DIRECTOR, Game
from sheetgm.service.gamelock import holding, try_release
from sheetgm.service.journal import (
    PUBLISHED,
    RESOLVED,
    Entry,
    digest,
    entry_hash,
    latest,
    pack,
    read_director,
)
from sheetgm.service.layout import tab
from sheetgm.service.limits import kept_order
from sheetgm.service.publish import deliver, owed, publish
from sheetgm.service.sheetorders import SheetOrder, judge, priority, read_player
from sheetgm.service.stages import parse_key, stage_key


@dataclass
class ResolveReport:
    stage: str
    action: str  # resolved | resolved-early | republished | delivered | nothing | dry-run
    public_log: str = ""
    warnings: list[str] = field(default_factory=list)
    reports: dict[str, str] = field(default_factory=dict)  # alias -> private report (dry run only)
    winner: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"stage": self.stage, "action": self.action, "public_log": self.public_log,
                "warnings": self.warnings, "reports": self.reports, "winner": self.winner}


def _due(game: Game, entries: list[Entry], asked: str | None) -> tuple[Entry, str | None, datetime | None]:
    """The latest entry, the stage to resolve (None: nothing to do) and its deadline if not passed yet.

    ``asked`` is a stage key, or a camp ("survivor", "hunter") meaning the due stage if it is that camp's.
    A named stage resolves even before its deadline; otherwise a deadline still ahead is returned and
    the stage resolves only if everyone has submitted.
    """
    cur = latest(entries)
    published = {e.key for e in entries if e.status == PUBLISHED}
    if asked in D.CAMPS:
        st = cur.state(game.board)
        due_now = cur.key if cur.status == RESOLVED else (None if st.over() else stage_key(st.night, st.stage))
        if due_now is None:
            return cur, None, None
        if parse_key(due_now.split("+", 1)[0])[1] != asked:  # a desk entry's key starts with its stage's
            raise ServiceError("err.deadline.wrong_camp", camp=asked, due=due_now)
        asked = due_now
    if cur.status == RESOLVED:
        if asked and asked != cur.key:
            raise NotDueError(asked=asked, due=cur.key)
        return cur, cur.key, None
    state = cur.state(game.board)
    if state.over():
        return cur, None, None
    due = stage_key(state.night, state.stage)
    if asked:
        if asked in published:
            return cur, None, None
        if asked != due:
            raise NotDueError(asked=asked, due=due)
        return cur, due, None
    return cur, due, D.ahead(game, due)


def _early_or_wait(game: Game, cur: Entry, due: str, deadline: datetime | None,
                   archive: dict[int, dict[str, Any]]) -> bool:
    """Before the deadline: True if everyone has submitted (resolve early), else the error naming who has not."""
    if deadline is None:
        return False
    waiting = D.waiting_for(game, cur.state(game.board), archive)
    if waiting:
        raise ServiceError("err.deadline.waiting", stage=due, deadline=D.local_time(game, deadline),
                           aliases=", ".join(waiting))
    return True


def read_orders(game: Game, cur: Entry, progress: Callable[[str], None] | None = None
                ) -> tuple[dict[int, SheetOrder], dict[int, Order], dict[int, dict[str, Any]], list[str]]:
    state = cur.state(game.board)
    sheets: dict[int, SheetOrder] = {}
    orders: dict[int, Order] = {}
    archive: dict[int, dict[str, Any]] = {}
    warnings: list[str] = []
    for seat in game.seats:
        p = state.players[seat]
        if p.camp != state.stage or not p.in_play:
            continue  # their workbook is only written this stage
        sheet = read_player(game, seat, state.night, state.stage, with_results=True)
        sheets[seat] = sheet
        if progress:
            progress(f"player-{seat}")
        if sheet.trouble:
            warnings.append(sheet.trouble)
        lang = game.seat_lang(seat)
        order, problems, bad = judge(state, seat, sheet.text, lang) if sheet.text else (Order(), [], False)
        director_problems = judge(state, seat, sheet.text, game.lang)[1] if sheet.text else []
        if sheet.trouble:
            director_problems = [sheet.trouble]
        if sheet.text:
            orders[seat] = order  # a seat with no order is left out: the engine tells them (no_order, R-ORDER-5)
        used = format_order(order, lang) if order.steps or order.day else ""
        archive[seat] = {"text": kept_order(sheet.text), "used": used,
                         "problems": problems, "problems_director": director_problems, "bad": bad,
                         "ticked": sheet.ticked, "stamp": sheet.stamp}
        if bad:
            warnings.append(render(game.lang, "svc.order_unreadable", alias=p.alias, seat=seat,
                                   cell=f"{tab(lang, 'orders')}!B{sheet.row}", problems="; ".join(director_problems)))
    return sheets, orders, archive, warnings


def _owing(game: Game, entries: list[Entry]) -> bool:
    return any(owed(entries, s) for s in game.seats)


def resolve(game: Game, dry_run: bool = False, stage: str | None = None, holder: str = "sheetgm",
            progress: Callable[[str], None] | None = None) -> ResolveReport:
    entries, lock = read_director(game)
    cur, due, deadline = _due(game, entries, stage)
    if due is None and (dry_run or not _owing(game, entries)):
        return ResolveReport(stage or cur.key, "nothing", winner=cur.state(game.board).winner)
    if dry_run and due is not None:
        return _dry_run(game, cur, due, deadline, progress)
    with holding(game, lock, holder) as held:
        entries = held.entries  # another run may have resolved a stage between our first read and the lock
        cur, due, deadline = _due(game, entries, stage)
        if due is None:
            return _deliver(game, cur, entries, stage, held.token)
        if cur.status == RESOLVED:
            warnings = publish(game, cur, entries, None, progress)
            return _report(game, cur, "republished", warnings)
        sheets, orders, archive, warnings = read_orders(game, cur, progress)
        early = _early_or_wait(game, cur, due, deadline, archive)
        state = cur.state(game.board)
        new, events = resolve_stage(state, orders, game.cfg.seed, priority(sheets))
        entry = Entry(due, RESOLVED, digest({s: a["text"] for s, a in archive.items()}), entry_hash(new, events),
                      game.cfg.seed, game.now().isoformat(timespec="seconds"), pack(new.to_dict()),
                      pack([e.to_dict() for e in events]), pack(archive))
        game.gateway.write(DIRECTOR, [entry.op(game.lang)])  # the journal row, before publishing
        entries = [*entries, entry]
        warnings += publish(game, entry, entries, sheets, progress, notes=warnings)
        return _report(game, entry, "resolved-early" if early else "resolved", warnings)


def _deliver(game: Game, cur: Entry, entries: list[Entry], stage: str | None, token: str) -> ResolveReport:
    """Nothing to resolve: write the reports still owed to repaired workbooks (and free the lock)."""
    winner = cur.state(game.board).winner
    if not _owing(game, entries):
        try_release(game, token)
        return ResolveReport(stage or cur.key, "nothing", winner=winner)
    done, warnings = deliver(game, entries)
    if done:
        warnings.insert(0, render(game.lang, "svc.delivered", aliases=", ".join(done)))
    return ResolveReport(stage or cur.key, "delivered" if done else "nothing", warnings=warnings, winner=winner)


def _report(game: Game, entry: Entry, action: str, warnings: list[str]) -> ResolveReport:
    st = entry.state(game.board)
    return ResolveReport(entry.key, action, public_log(entry.events(), game.lang), warnings, winner=st.winner)


def _dry_run(game: Game, cur: Entry, due: str, deadline: datetime | None,
             progress: Callable[[str], None] | None) -> ResolveReport:
    if cur.status == RESOLVED:
        return ResolveReport(due, "dry-run", public_log(cur.events(), game.lang),
                             [render(game.lang, "svc.pending_publish", stage=due)])
    sheets, orders, archive, warnings = read_orders(game, cur, progress)
    _early_or_wait(game, cur, due, deadline, archive)
    new, events = resolve_stage(cur.state(game.board), orders, game.cfg.seed, priority(sheets))
    reports = {game.alias(s): report(new, events, s, game.seat_lang(s)) for s in game.seats}
    return ResolveReport(due, "dry-run", public_log(events, game.lang), warnings, reports, new.winner)

