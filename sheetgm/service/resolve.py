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
from datetime import datetime
from enum import StrEnum
from typing import Any

from sheetgm.core.observe import public_log, report
from sheetgm.core.resolve import resolve_stage
from sheetgm.core.steps import Order
from sheetgm.core.texts import render
from sheetgm.core.values import field, record
from sheetgm.notation.order_format import format_order
from sheetgm.service.errors import NotDueError, ServiceError
from sheetgm.service.game import DIRECTOR, Game
from sheetgm.service.ledger import (
    AFTER,
    FALLBACK,
    LATE,
    OK,
    STAND_IN,
    UNJUDGED,
    Record,
    Truth,
    checkmemo,
    counted,
    observe,
    verdicts,
)
from sheetgm.service.ledger.journal import (
    PUBLISHED,
    RESOLVED,
    SUPERSEDED,
    Entry,
    digest,
    entry_hash,
    latest,
    pack,
)
from sheetgm.service.ledger.lock import holding, try_release
from sheetgm.service.publish import deliver, owed, publish
from sheetgm.service.timing import deadlines
from sheetgm.service.workbooks.sheetorders import SheetOrder, judge, orders_of, priority, read_player
from sheetgm.sheets.archive import ArchivedOrder
from sheetgm.sheets.layout import tab
from sheetgm.sheets.limits import kept_order
from sheetgm.sheets.stages import parse_key, stage_key


class Action(StrEnum):
    """What ``resolve`` did (the CLI's first line, ``cli.resolve.<name>``; ``--json`` gives the value)."""

    RESOLVED = "resolved"
    RESOLVED_EARLY = "resolved-early"  # before the deadline: every living player of the camp had submitted
    REPUBLISHED = "republished"  # a stage journaled but not yet published, published from the journal
    DELIVERED = "delivered"  # nothing due; reports owed to repaired workbooks written
    NOTHING = "nothing"
    DRY_RUN = "dry-run"
    WAITING = "waiting"  # before the deadline, someone has not submitted
    NO_DEADLINE = "no-deadline"  # no deadline and someone has not submitted: only named, or early


@record
class ResolveReport:
    """What a resolve did: the stage, what it wrote and what it warned of."""

    stage: str
    action: Action
    public_log: str = ""
    warnings: list[str] = field(default_factory=list)
    reports: dict[str, str] = field(default_factory=dict)  # alias -> private report (dry run only)
    winner: str | None = None
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"stage": self.stage, "action": self.action.value, "public_log": self.public_log,
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


def _early_or_wait(game: Game, cur: Entry, due: str, deadline: datetime | None, got: Read
                   ) -> tuple[Action | None, str]:
    """Before the deadline, or without one: (RESOLVED_EARLY, "") if everyone has submitted, else (WAITING or
    NO_DEADLINE, a line naming who has not): nothing is resolved. (None, ""): resolve as due."""
    if got.after:
        return None, ""
    waiting = deadlines.waiting_for(game, cur.state(game.board), got.archive)
    if not waiting:
        return Action.RESOLVED_EARLY, ""
    if deadline is None:
        return Action.NO_DEADLINE, render(game.voice, "cli.missing", aliases=", ".join(waiting))
    return Action.WAITING, render(game.voice, "err.deadline.waiting", stage=due,
                                  deadline=deadlines.local_time(game, deadline, game.voice),
                                  aliases=", ".join(waiting))


@record
class Read:
    """The orders of the due stage as read under the lock (see read_orders)."""

    sheets: dict[int, SheetOrder]
    orders: dict[int, Order]
    archive: dict[int, ArchivedOrder]
    warnings: list[str]
    notes: list[str] = field(default_factory=list)  # for the director, not warnings: orders no check saw
    after: bool = False  # the deadline has passed (by the clock, or seen passed before: RUL-52)

    @property
    def priority(self) -> list[int]:
        return priority({s: a.stamp for s, a in self.archive.items()})


def read_orders(game: Game, cur: Entry, record: Record, deadline: datetime | None,
                progress: Callable[[str], None] | None = None) -> Read:
    """Every order of the due stage. After its deadline an order counts as the tool saw it before the
    deadline (stamps.counted); before it (an early or named resolve) complete orders are stamped now."""
    state = cur.state(game.board)
    key = stage_key(state.night, state.stage)
    now = game.now()
    entries = record.entries
    after = record.passed(key, deadline, now)
    truths = record.truths(key)
    out = Read({}, {}, {}, [], [], after)
    unjudged: list[str] = []
    counts: dict[int, tuple[str, str, str]] = {}  # seat -> (the text that counts, its stamp, verdict)
    stand_in: list[str] = []  # RUL-55: the last checks before the deadline ran late; read now, counted
    for seat in game.seats:
        p = state.players[seat]
        if p.camp != state.stage or not p.in_play:
            continue  # their workbook is only written this stage
        sheet = read_player(game, seat, state.night, state.stage, archived=record.archived_texts(seat))
        out.sheets[seat] = sheet
        if progress:
            progress(f"player-{seat}")
        if sheet.trouble:
            out.warnings.append(sheet.trouble)
        else:
            told_before, told_now = record.told(key, seat)
            _notes, director_notes, new = sheet.tab_notes(told_before, told_now)
            out.warnings += director_notes
            if new:
                record.note_told(key, seat, told_now | new)
        counts[seat] = (counted(truths.get(seat), sheet.text, deadline) if after
                         else (sheet.text, "", OK))
    stage_orders = orders_of(state, {s: text for s, (text, _, _) in counts.items()})
    for seat, (text, stamp, verdict) in counts.items():  # each order reviewed with the others (RUL-39)
        p, sheet, lang = state.players[seat], out.sheets[seat], game.seat_lang(seat)
        others = {s: o for s, o in stage_orders.items() if s != seat}  # what they bring her (RUL-39)
        truth = truths.get(seat)
        order, problems, bad = judge(state, seat, text, lang, others) if text else (Order(), [], False)
        # the director workbook's problems: the player's own when they share a language (judging is pure)
        director_problems = (list(problems) if lang == game.lang else judge(state, seat, text, game.lang, others)[1]
                             ) if text else []
        told = ((list(problems) if game.voice == lang else judge(state, seat, text, game.voice, others)[1])
                if text and game.voice != game.lang else director_problems)
        ticked = sheet.ticked or verdict == FALLBACK  # the stamped version was ticked
        if not after:
            complete = ticked and not problems and not bad and bool(order.steps or order.day)
            truth = observe(truths.get(seat, Truth()), text, complete, now)
            stamp = truth.stamp_for(text) if complete else ""
        if sheet.trouble:
            director_problems = [sheet.trouble]
        if text or verdict == LATE:
            # a seat with no order is left out: the engine tells them (no_order, R-ORDER-5); a late one was not
            # "no order": it gets an empty one and its report says why (RUL-50)
            out.orders[seat] = order
        used = format_order(order, lang) if order.steps or order.day else ""
        checked = truth.checked if truth is not None and verdict in AFTER else ""
        out.archive[seat] = ArchivedOrder(kept_order(text), used, tuple(problems), tuple(director_problems), bad,
                                          ticked, stamp, sheet.row, verdict, checked, verdict == LATE,
                                          kept_order(sheet.text) if kept_order(sheet.text) != kept_order(text) else "")
        if verdict in AFTER:
            out.warnings.append(verdicts.director_warning(game, seat, out.archive[seat], game.voice))
        if verdict == UNJUDGED and sheet.text and not sheet.trouble:
            unjudged.append(p.alias)
        if verdict == STAND_IN and not sheet.trouble:
            stand_in.append(p.alias)
        if bad:
            out.warnings.append(render(game.voice, "svc.order_unreadable", alias=p.alias, seat=seat,
                                       cell=f"{tab(lang, 'orders')}!B{sheet.row}",
                                       problems="; ".join([sheet.trouble] if sheet.trouble else told)))
    if after:
        record.note_passed(key, deadline, list(out.sheets))
    reopened = any(e.key == key and e.status == SUPERSEDED for e in entries)  # rolled back: taken as read
    if unjudged and deadline is not None and not reopened:
        out.notes.append(render(game.voice, "svc.deadline.orders_unjudged", aliases=", ".join(unjudged),
                                deadline=deadlines.local_time(game, deadline, game.voice)))
    if stand_in and deadline is not None:
        out.notes.append(render(game.voice, "day.stand_in", aliases=", ".join(stand_in),
                                deadline=deadlines.local_time(game, deadline, game.voice)))
    return out


def _owing(game: Game, entries: list[Entry]) -> bool:
    return any(owed(entries, s) for s in game.seats)


def resolve(game: Game, dry_run: bool = False, stage: str | None = None, holder: str = "sheetgm",
            progress: Callable[[str], None] | None = None) -> ResolveReport:
    record = Record.read(game)
    entries, lock = record.entries, record.lock
    cur, due, named = _due(game, entries, stage)
    if due is None and (dry_run or not _owing(game, entries)):
        return ResolveReport(stage or cur.key, Action.NOTHING, winner=cur.state(game.board).winner)
    if dry_run and due is not None:
        deadline = deadlines.deadline_of(game, due) if cur.status != RESOLVED else None
        return _dry_run(game, cur, record, due, deadline, named, progress)
    if not named and due is not None and cur.status != RESOLVED and not _owing(game, entries):
        judged = _waiting_as_checked(game, cur, record, due)
        if judged is not None:
            return judged
    with holding(game, lock, holder) as held:
        # another run may have resolved a stage, or a check stamped an order, between our first read and the lock
        record = Record(game, held.entries, lock, held.archive)
        entries = record.entries
        cur, due, named = _due(game, entries, stage)
        if due is None:
            return _deliver(game, cur, entries, stage, held.token)
        deadline = deadlines.deadline_of(game, due) if cur.status != RESOLVED else None
        if cur.status == RESOLVED:
            warnings = publish(game, cur, entries, None, progress)
            return _report(game, cur, Action.REPUBLISHED, warnings)
        got = read_orders(game, cur, record, deadline, progress)
        when, why = (None, "") if named else _early_or_wait(game, cur, due, deadline, got)
        if when in (Action.WAITING, Action.NO_DEADLINE):  # nothing resolved; reports owed to repaired workbooks written
            record.write()
            _, owed = _settle_owed(game, entries, held.token)
            return ResolveReport(due, when, warnings=owed + got.warnings, notes=[why])
        state = cur.state(game.board)
        new, events = resolve_stage(state, got.orders, game.cfg.seed, got.priority)
        entry = Entry(due, RESOLVED, digest({s: a.text for s, a in got.archive.items()}), entry_hash(new, events),
                      game.cfg.seed, game.now().isoformat(timespec="seconds"), pack(new.to_dict()),
                      pack([e.to_dict() for e in events]), pack({s: a.to_dict() for s, a in got.archive.items()}))
        game.gateway.write(DIRECTOR, [entry.op(game.lang), *record.ops()])  # the journal row, before publishing
        entries = [*entries, entry]
        warnings = got.warnings + publish(game, entry, entries, got.sheets, progress, notes=got.warnings)
        done = _report(game, entry, when or Action.RESOLVED, warnings)
        done.notes = got.notes
        return done


def _waiting_as_checked(game: Game, cur: Entry, record: Record, due: str) -> ResolveReport | None:
    """Before the deadline, when no due workbook changed since the last check (checkmemo.py): the stage waits
    for the players that check found had not submitted, without taking the lock or reading a workbook.
    None: resolve as usual (the check's verdicts may be stale, or everyone has submitted)."""
    deadline = deadlines.deadline_of(game, due)
    if record.passed(due, deadline, game.now()):
        return None
    when = deadline.isoformat() if deadline else ""
    found = checkmemo.waiting(game, cur.state(game.board), due, record.entries, record.archive, when, True)
    if found is None or not found[0]:
        return None
    names, notes = found
    if deadline is None:
        return ResolveReport(due, Action.NO_DEADLINE, warnings=notes,
                             notes=[render(game.voice, "cli.missing", aliases=", ".join(names))])
    why = render(game.voice, "err.deadline.waiting", stage=due,
                 deadline=deadlines.local_time(game, deadline, game.voice), aliases=", ".join(names))
    return ResolveReport(due, Action.WAITING, warnings=notes, notes=[why])


def _deliver(game: Game, cur: Entry, entries: list[Entry], stage: str | None, token: str) -> ResolveReport:
    """Nothing to resolve: write the reports still owed to repaired workbooks (and free the lock)."""
    done, warnings = _settle_owed(game, entries, token)
    return ResolveReport(stage or cur.key, Action.DELIVERED if done else Action.NOTHING, warnings=warnings,
                         winner=cur.state(game.board).winner)


def _settle_owed(game: Game, entries: list[Entry], token: str) -> tuple[list[str], list[str]]:
    """Write the reports still owed, if any, and free the lock either way: (delivered to, warnings)."""
    if not _owing(game, entries):
        try_release(game, token)
        return [], []
    done, warnings = deliver(game, entries)
    if done:
        warnings.insert(0, render(game.voice, "svc.delivered", aliases=", ".join(done)))
    return done, warnings


def _report(game: Game, entry: Entry, action: Action, warnings: list[str]) -> ResolveReport:
    st = entry.state(game.board)
    return ResolveReport(entry.key, action, public_log(entry.events(), game.voice), warnings, winner=st.winner)


def _dry_run(game: Game, cur: Entry, record: Record, due: str, deadline: datetime | None, named: bool,
             progress: Callable[[str], None] | None) -> ResolveReport:
    if cur.status == RESOLVED:
        return ResolveReport(due, Action.DRY_RUN, public_log(cur.events(), game.voice),
                             [render(game.voice, "svc.pending_publish", stage=due)])
    got = read_orders(game, cur, record, deadline, progress)
    when, why = (None, "") if named else _early_or_wait(game, cur, due, deadline, got)
    if when in (Action.WAITING, Action.NO_DEADLINE):
        return ResolveReport(due, when, warnings=got.warnings, notes=[why])
    new, events = resolve_stage(cur.state(game.board), got.orders, game.cfg.seed, got.priority)
    reports = {game.alias(s): _with_note(game, got.archive.get(s), report(new, events, s, game.seat_lang(s)),
                                         game.seat_lang(s)) for s in game.seats}
    return ResolveReport(due, Action.DRY_RUN, public_log(events, game.voice), got.warnings, reports, new.winner)


def _with_note(game: Game, info: ArchivedOrder | None, text: str, lang: str) -> str:
    note = verdicts.report_note(game, info, lang)
    return f"{note}\n{text}" if note else text
