"""`sheetgm resolve`: the safe resolve of DESIGN.md.

lock → read (one call per workbook) → resolve (pure) → journal row *before*
publishing → publish keyed by stage → mark published and unlock (one write).
A published stage is never resolved again; a journaled but unpublished one
is published from the journal without resolving again. Before its deadline a
stage resolves only once every living player of its camp has submitted
(deadlines.py), or when the director names it with ``--stage``; a stage
without a deadline is never resolved by the schedule: only early, or named.
After the deadline an order counts as the tool saw it before (stamps.py).
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
from sheetgm.service import deadlines, stamps
from sheetgm.service.errors import NotDueError, ServiceError
from sheetgm.service.game import DIRECTOR, Game
from sheetgm.service.journal import (
    PUBLISHED,
    RESOLVED,
    SUPERSEDED,
    Entry,
    digest,
    entry_hash,
    latest,
    pack,
)
from sheetgm.service.lock import holding, try_release
from sheetgm.service.publish import deliver, owed, publish
from sheetgm.service.sheetorders import SheetOrder, judge, priority, read_player
from sheetgm.sheets.layout import tab
from sheetgm.sheets.limits import kept_order
from sheetgm.sheets.stages import parse_key, stage_key


@dataclass
class ResolveReport:
    stage: str
    action: str  # resolved | resolved-early | republished | delivered | nothing | dry-run | waiting | no-deadline
    public_log: str = ""
    warnings: list[str] = field(default_factory=list)
    reports: dict[str, str] = field(default_factory=dict)  # alias -> private report (dry run only)
    winner: str | None = None
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"stage": self.stage, "action": self.action, "public_log": self.public_log,
                "warnings": self.warnings, "reports": self.reports, "winner": self.winner, "notes": self.notes}


def _due(game: Game, entries: list[Entry], asked: str | None) -> tuple[Entry, str | None, bool]:
    """The latest entry, the stage to resolve (None: nothing to do) and whether it was named (forced).

    ``asked`` is a stage key, or a camp ("survivor", "hunter") meaning the due stage if it is that camp's.
    A named stage resolves even before its deadline; otherwise it resolves after its deadline, or before
    it (or without one) only if everyone has submitted.
    """
    cur = latest(entries)
    published = {e.key for e in entries if e.status == PUBLISHED}
    if asked in deadlines.CAMPS:
        st = cur.state(game.board)
        due_now = cur.key if cur.status == RESOLVED else (None if st.over() else stage_key(st.night, st.stage))
        if due_now is None:
            return cur, None, True
        if parse_key(due_now.split("+", 1)[0])[1] != asked:  # a desk entry's key starts with its stage's
            raise ServiceError("err.deadline.wrong_camp", camp=asked, due=due_now)
        asked = due_now
    if cur.status == RESOLVED:
        if asked and asked != cur.key:
            raise NotDueError(asked=asked, due=cur.key)
        return cur, cur.key, True
    state = cur.state(game.board)
    if state.over():
        return cur, None, True
    due = stage_key(state.night, state.stage)
    if asked:
        if asked in published:
            return cur, None, True
        if asked != due:
            raise NotDueError(asked=asked, due=due)
        return cur, due, True
    return cur, due, False


def _early_or_wait(game: Game, cur: Entry, due: str, deadline: datetime | None,
                   archive: dict[int, dict[str, Any]]) -> tuple[str | None, str]:
    """Before the deadline, or without one: ("early", "") if everyone has submitted, else ("waiting" or
    "no-deadline", a line naming who has not): nothing is resolved. (None, ""): resolve as due."""
    if deadline is not None and game.now() >= deadline:
        return None, ""
    waiting = deadlines.waiting_for(game, cur.state(game.board), archive)
    if not waiting:
        return "early", ""
    if deadline is None:
        return "no-deadline", render(game.lang, "cli.missing", aliases=", ".join(waiting))
    return "waiting", render(game.lang, "err.deadline.waiting", stage=due,
                             deadline=deadlines.local_time(game, deadline),
                             aliases=", ".join(waiting))


@dataclass
class Read:
    """The orders of the due stage as read under the lock (see read_orders)."""

    sheets: dict[int, SheetOrder]
    orders: dict[int, Order]
    archive: dict[int, dict[str, Any]]
    warnings: list[str]
    notes: list[str] = field(default_factory=list)  # for the director, not warnings: orders no check saw

    @property
    def priority(self) -> list[int]:
        return priority({s: str(a.get("stamp", "")) for s, a in self.archive.items()})


def read_orders(game: Game, cur: Entry, entries: list[Entry], archive_rows: list[list[str]],
                deadline: datetime | None, progress: Callable[[str], None] | None = None) -> Read:
    """Every order of the due stage. After its deadline an order counts as the tool saw it before the
    deadline (stamps.counted); before it (an early or named resolve) complete orders are stamped now."""
    state = cur.state(game.board)
    key = stage_key(state.night, state.stage)
    now = game.now()
    after = deadline is not None and now >= deadline
    truths = stamps.truths(archive_rows, key, len(game.seats), entries)
    out = Read({}, {}, {}, [], [])
    unjudged: list[str] = []
    stand_in: list[str] = []  # RUL-55: the last checks before the deadline ran late; read now, counted
    for seat in game.seats:
        p = state.players[seat]
        if p.camp != state.stage or not p.in_play:
            continue  # their workbook is only written this stage
        sheet = read_player(game, seat, state.night, state.stage, archived=stamps.archived_texts(entries, seat))
        out.sheets[seat] = sheet
        if progress:
            progress(f"player-{seat}")
        out.warnings += [sheet.trouble] if sheet.trouble else sheet.director_notes
        lang = game.seat_lang(seat)
        text, stamp, verdict = (stamps.counted(truths.get(seat), sheet.text, deadline) if after
                                else (sheet.text, "", stamps.OK))
        order, problems, bad = judge(state, seat, text, lang) if text else (Order(), [], False)
        director_problems = judge(state, seat, text, game.lang)[1] if text else []
        ticked = sheet.ticked or verdict == stamps.FALLBACK  # the stamped version was ticked
        if not after:
            complete = ticked and not problems and not bad and bool(order.steps or order.day)
            truth = stamps.observe(truths.get(seat, stamps.Truth()), text, complete, now)
            stamp = truth.stamp_for(text) if complete else ""
        if sheet.trouble:
            director_problems = [sheet.trouble]
        if text:
            out.orders[seat] = order  # a seat with no order is left out: the engine tells them (no_order, R-ORDER-5)
        used = format_order(order, lang) if order.steps or order.day else ""
        out.archive[seat] = {"text": kept_order(text), "used": used,
                             "problems": problems, "problems_director": director_problems, "bad": bad,
                             "ticked": ticked, "stamp": stamp, "row": sheet.row, "verdict": verdict}
        if verdict == stamps.UNJUDGED and sheet.text and not sheet.trouble:
            unjudged.append(p.alias)
        if verdict == stamps.STAND_IN and not sheet.trouble:
            stand_in.append(p.alias)
        if verdict in (stamps.LATE, stamps.FALLBACK):
            out.warnings.append(render(game.lang, f"svc.order_{verdict}", alias=p.alias, seat=seat,
                                       stamp=deadlines.local_time(game, stamp)))
        if bad:
            out.warnings.append(render(game.lang, "svc.order_unreadable", alias=p.alias, seat=seat,
                                       cell=f"{tab(lang, 'orders')}!B{sheet.row}",
                                       problems="; ".join(director_problems)))
    reopened = any(e.key == key and e.status == SUPERSEDED for e in entries)  # rolled back: taken as read
    if unjudged and deadline is not None and not reopened:
        out.notes.append(render(game.lang, "svc.deadline.orders_unjudged", aliases=", ".join(unjudged),
                                deadline=deadlines.local_time(game, deadline)))
    if stand_in and deadline is not None:
        out.notes.append(render(game.lang, "day.stand_in", aliases=", ".join(stand_in),
                                deadline=deadlines.local_time(game, deadline)))
    return out


def _owing(game: Game, entries: list[Entry]) -> bool:
    return any(owed(entries, s) for s in game.seats)


def resolve(game: Game, dry_run: bool = False, stage: str | None = None, holder: str = "sheetgm",
            progress: Callable[[str], None] | None = None) -> ResolveReport:
    entries, lock, archive_rows = stamps.read_desk(game)
    cur, due, named = _due(game, entries, stage)
    if due is None and (dry_run or not _owing(game, entries)):
        return ResolveReport(stage or cur.key, "nothing", winner=cur.state(game.board).winner)
    if dry_run and due is not None:
        deadline = deadlines.deadline_of(game, due) if cur.status != RESOLVED else None
        return _dry_run(game, cur, entries, archive_rows, due, deadline, named, progress)
    with holding(game, lock, holder) as held:
        # another run may have resolved a stage, or a check stamped an order, between our first read and the lock
        entries, archive_rows = held.entries, held.archive
        cur, due, named = _due(game, entries, stage)
        if due is None:
            return _deliver(game, cur, entries, stage, held.token)
        deadline = deadlines.deadline_of(game, due) if cur.status != RESOLVED else None
        if cur.status == RESOLVED:
            warnings = publish(game, cur, entries, None, progress)
            return _report(game, cur, "republished", warnings)
        got = read_orders(game, cur, entries, archive_rows, deadline, progress)
        when, why = (None, "") if named else _early_or_wait(game, cur, due, deadline, got.archive)
        if when in ("waiting", "no-deadline"):  # nothing resolved; reports owed to repaired workbooks are written
            _, owed = _settle_owed(game, entries, held.token)
            return ResolveReport(due, str(when), warnings=owed + got.warnings, notes=[why])
        state = cur.state(game.board)
        new, events = resolve_stage(state, got.orders, game.cfg.seed, got.priority)
        entry = Entry(due, RESOLVED, digest({s: a["text"] for s, a in got.archive.items()}), entry_hash(new, events),
                      game.cfg.seed, game.now().isoformat(timespec="seconds"), pack(new.to_dict()),
                      pack([e.to_dict() for e in events]), pack(got.archive))
        game.gateway.write(DIRECTOR, [entry.op(game.lang)])  # the journal row, before publishing
        entries = [*entries, entry]
        warnings = got.warnings + publish(game, entry, entries, got.sheets, progress, notes=got.warnings)
        done = _report(game, entry, "resolved-early" if when == "early" else "resolved", warnings)
        done.notes = got.notes
        return done


def _deliver(game: Game, cur: Entry, entries: list[Entry], stage: str | None, token: str) -> ResolveReport:
    """Nothing to resolve: write the reports still owed to repaired workbooks (and free the lock)."""
    done, warnings = _settle_owed(game, entries, token)
    return ResolveReport(stage or cur.key, "delivered" if done else "nothing", warnings=warnings,
                         winner=cur.state(game.board).winner)


def _settle_owed(game: Game, entries: list[Entry], token: str) -> tuple[list[str], list[str]]:
    """Write the reports still owed, if any, and free the lock either way: (delivered to, warnings)."""
    if not _owing(game, entries):
        try_release(game, token)
        return [], []
    done, warnings = deliver(game, entries)
    if done:
        warnings.insert(0, render(game.lang, "svc.delivered", aliases=", ".join(done)))
    return done, warnings


def _report(game: Game, entry: Entry, action: str, warnings: list[str]) -> ResolveReport:
    st = entry.state(game.board)
    return ResolveReport(entry.key, action, public_log(entry.events(), game.lang), warnings, winner=st.winner)


def _dry_run(game: Game, cur: Entry, entries: list[Entry], archive_rows: list[list[str]], due: str,
             deadline: datetime | None, named: bool, progress: Callable[[str], None] | None) -> ResolveReport:
    if cur.status == RESOLVED:
        return ResolveReport(due, "dry-run", public_log(cur.events(), game.lang),
                             [render(game.lang, "svc.pending_publish", stage=due)])
    got = read_orders(game, cur, entries, archive_rows, deadline, progress)
    when, why = (None, "") if named else _early_or_wait(game, cur, due, deadline, got.archive)
    if when in ("waiting", "no-deadline"):
        return ResolveReport(due, str(when), warnings=got.warnings, notes=[why])
    new, events = resolve_stage(cur.state(game.board), got.orders, game.cfg.seed, got.priority)
    reports = {game.alias(s): report(new, events, s, game.seat_lang(s)) for s in game.seats}
    return ResolveReport(due, "dry-run", public_log(events, game.lang), got.warnings, reports, new.winner)
