"""`sheetgm check`: read every due order, tell each player what is wrong, stamp complete orders.

Each player of the camp due is told in their status cell (their language):
the order's state, the problems, what is wrong in their Orders tab (rows.py)
and, before the deadline, a reminder while they have not submitted. The
director's summary names exactly who has not submitted (the same names as
the public reminder line) and who has problems. Stamps live in the director
workbook (stamps.py); a sheet stamp that disagrees is named and written back.

Before the deadline a workbook unchanged since the last check (its Drive version, one listing) and read
less than checkmemo.FRESH_FOR ago (the listing may lag an edit) is not read again: its verdict stands and
the look is recorded; a workbook read again with the same order keeps the time its status shows, so
nothing is written to it (checkmemo.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime

from sheetgm.backends.errors import BackendError
from sheetgm.backends.port import Op, SetValues
from sheetgm.core.events import Event
from sheetgm.core.preview import Preview, preview
from sheetgm.core.state import State
from sheetgm.core.steps import Order
from sheetgm.core.texts import render
from sheetgm.core.values import asdict, field, record
from sheetgm.service.game import PUBLIC, Game, player_key
from sheetgm.service.ledger import (
    AFTER,
    FALLBACK,
    LATE,
    OK,
    Memo,
    Record,
    Truth,
    checkmemo,
    counted,
    missed,
    observe,
    verdicts,
)
from sheetgm.service.ledger.journal import Entry
from sheetgm.service.ledger.lock import folder_lock
from sheetgm.service.timing import deadlines
from sheetgm.service.workbooks import news, route
from sheetgm.service.workbooks.sheetorders import SheetOrder, orders_of, read_player, review
from sheetgm.service.workbooks.upkeep import upkeep_ops
from sheetgm.sheets import layout, player
from sheetgm.sheets.stages import stage_key

READ_EXCERPT = 40  # characters of the order text quoted back to the player with the time it was read


@record
class PlayerCheck:
    """One player's order as a check found it."""

    seat: int
    alias: str
    state: str  # ok | problems | empty | unticked | unreadable | late
    problems: list[str] = field(default_factory=list)  # in the director's language
    stamp: str = ""
    notes: list[str] = field(default_factory=list)  # steps that depend on the night: not problems (RUL-27)
    must_submit: bool = True  # a stunned hunter is not waited for
    read: str = ""  # when this check read the row (ISO; shown to the player in their status cell)
    verdict: str = ""  # after the deadline, an order changed since the last check before it: stamps.AFTER
    used: str = ""  # then the text that counts (RUL-50)


@record
class CheckReport:
    """What a check found of every order due, and what it warned of."""

    stage: str
    players: list[PlayerCheck]
    warnings: list[str]
    deadline: str | None = None  # the stage's deadline while it is ahead (then reminders were written)
    reminded: list[str] = field(default_factory=list)  # aliases told they have not submitted
    stand_in: list[str] = field(default_factory=list)  # read after the deadline for a missed look (RUL-55)
    unchanged: list[str] = field(default_factory=list)  # not read: unchanged since the last check (checkmemo.py)
    passed: bool = False  # the stage's deadline has passed: nobody can submit any more

    @property
    def missing(self) -> list[str]:
        """Who has not submitted (written, ticked, no problem): the names the public reminder lists. None after
        the deadline: then what counts is fixed (``without_order`` names who will do nothing)."""
        if self.passed:
            return []
        return [p.alias for p in self.players if p.must_submit and p.state != "ok"]

    @property
    def without_order(self) -> list[str]:
        """After the deadline, who has no order that counts (none, unreadable, or written only after the last
        check before the deadline): they stay and do nothing. An unticked or problem order still counts."""
        if not self.passed:
            return []
        return [p.alias for p in self.players if p.must_submit and (
            p.state in ("empty", "unreadable") or p.verdict == LATE)]

    @property
    def with_problems(self) -> list[str]:
        return [p.alias for p in self.players if p.state in ("problems", "unreadable")]

    def to_dict(self) -> dict[str, object]:
        return {"stage": self.stage, "players": [asdict(p) for p in self.players], "missing": self.missing,
                "problems": self.with_problems, "warnings": self.warnings, "deadline": self.deadline,
                "passed": self.passed, "without_order": self.without_order,
                "reminded": self.reminded, "stand_in": self.stand_in, "unchanged": self.unchanged}


def check(game: Game, progress: Callable[[str], None] | None = None, holder: str = "sheetgm") -> CheckReport:
    """Under the game folder's OS lock (ledger/lock.py): a check writes the director's and the players' workbooks,
    and a local .xlsx file is saved whole, so a resolve saving the same file at the same moment would lose its
    cells (or the check its stamps). Across machines (Google) cells are written one range at a time: no token."""
    with folder_lock(game.folder, holder, deadlines.local_time(game, game.now())):
        return _check(game, progress)


def _check(game: Game, progress: Callable[[str], None] | None) -> CheckReport:
    record = Record.read(game)
    entries, state = record.entries, record.state()
    if state.over():
        return CheckReport("over", [], [])
    key = stage_key(state.night, state.stage)
    deadline = deadlines.deadline_of(game, key)
    now = game.now()
    passed = record.passed(key, deadline, now)  # once seen passed, it stays passed (RUL-52)
    before = not passed
    ahead = deadline if deadline is not None and not passed else None
    truths = record.truths(key)
    seen: dict[int, Truth] = {}
    reads: dict[int, tuple[str, str]] = {}  # seat -> (verdict, when read): the director's table
    rep = CheckReport(key, [], [], ahead.isoformat() if ahead else None, passed=passed)
    due = [s for s in game.seats if state.players[s].camp == state.stage and state.players[s].in_play]
    looked = list(due)
    memos, new_memos, wrote = record.memos(key), {}, set()
    revs = checkmemo.revisions(game, due) if before else {}
    journal, when = record.journal_digest(), deadline.isoformat() if deadline else ""
    # every order first, each then reviewed with the others (RUL-39): a workbook unchanged since the last check
    # is not read, its order is the one that check read (its memo)
    sheets: dict[int, SheetOrder] = {}
    brief: list[list[Event]] = []

    def hunter_events() -> list[Event]:
        """The last stage's events, read once: a hunter's map shows the noise markers of his briefing."""
        if not brief:
            brief.append(record.last_events())
        return brief[0]

    texts: dict[int, str] = {}
    for seat in due:
        rev, memo = revs.get(player_key(seat), ""), memos.get(seat)
        if memo is not None and memo.o is not None and rev and memo.v == rev and memo.fresh(now):
            texts[seat] = memo.o
            continue
        sheets[seat] = sheet = read_player(game, seat, state.night, state.stage,
                                           archived=record.archived_texts(seat))
        if not sheet.trouble:
            texts[seat] = _counts(sheet, truths.get(seat), before, deadline)
    stage_orders = orders_of(state, texts)
    for seat in due:
        p = state.players[seat]
        must = deadlines.must_submit(state, seat)
        rev, memo = revs.get(player_key(seat), ""), memos.get(seat)
        others = {s: o for s, o in stage_orders.items() if s != seat}  # what they bring her (RUL-39)
        brought = checkmemo.brought_digest(state, seat, others)
        ctx = checkmemo.seat_context(game, key, journal, when, before, truths.get(seat), seat, must, brought)
        kept = _kept(memo) if seat not in sheets and memo is not None and memo.c == ctx else None
        if kept is not None and memo is not None:  # unchanged since the last check: its verdict stands, looked at now
            rep.players.append(kept)
            rep.warnings += memo.w
            rep.unchanged.append(p.alias)
            if truths.get(seat, Truth()).checked:  # a look (RUL-55), as if it had been read
                record.note_look(key, seat, now)
            reads[seat] = (kept.state, now.isoformat(timespec="seconds"))
            if progress:
                progress(player_key(seat))
            continue
        sheet = sheets[seat] if seat in sheets else read_player(game, seat, state.night, state.stage,
                                                                archived=record.archived_texts(seat))
        if sheet.trouble:
            rep.warnings.append(sheet.trouble)
            rep.players.append(PlayerCheck(seat, p.alias, "unreadable", [sheet.trouble], must_submit=must))
            reads[seat] = ("unreadable", now.isoformat(timespec="seconds"))
            continue
        told_before, told_now = record.told(key, seat)
        notes, director_notes, new = sheet.tab_notes(told_before, told_now)
        if new:
            record.note_told(key, seat, told_now | new)
        old = truths.get(seat, Truth())
        look = before or missed(old, deadline)  # RUL-55: a look after a missed one stands in for it
        if look and not before:
            rep.stand_in.append(p.alias)
        result, problems, planned = _player(game, state, sheet, old, before, look, deadline, seen, others)
        result.must_submit = must
        result.read = now.isoformat(timespec="seconds")
        reads[seat] = (result.state, result.read)
        rep.warnings += director_notes
        lang = game.seat_lang(seat)
        upkept, restored = _upkeep(game, seat, sheet, entries, rep.warnings)
        notes += restored
        # the same judgment as the last check's keeps the time it shows: then its cells are there already
        ctx = checkmemo.seat_context(game, key, journal, when, before, seen.get(seat, truths.get(seat)), seat, must,
                                     brought)
        judged = checkmemo.judgment(ctx, sheet.row, sheet.text, sheet.ticked, notes)
        shown = _shown_time(memo, judged, now, rev)
        if result.verdict in AFTER:
            status = verdicts.check_status(game, seat, result.verdict, result.used, old.checked, old.stamp)
        else:  # after the deadline an unticked order is carried out as written: no "put ✓" then
            word = "after_unticked" if result.state == "unticked" and not before else result.state
            status = render(lang, f"sheet.status.{word}", n=len(result.problems),
                            time=deadlines.local_time(game, shown, lang, short=True))
        line = deadlines.deadline_line(game, state, lang, shown)
        status = "\n".join([line, status, read_line(game, lang, shown, sheet.text, before),
                            *sheet.explain(lang, result.state), *notes])
        if ahead is not None and result.state != "ok" and must:
            status += "\n" + deadlines.player_reminder(game, seat, ahead, result.state)
        shown_stamp = deadlines.local_time(game, result.stamp, lang) if result.stamp else ""
        if planned is not None:  # column E: the problems and notes, then the preview in short (RUL-61)
            problems += ["", render(lang, "preview.title"), *player.preview_lines(state, planned, lang, full=False)]
        noise = player.noise_tiles(hunter_events(), seat) if p.is_hunter else []
        cells, height = player.status_ops(lang, sheet.row, status, problems, shown_stamp, stage=key)
        write: list[Op] = [*sheet.repairs, *upkept, cells, height, *player.deadline_ops(state.board, lang, line),
                           *player.preview_ops(state, seat, lang, planned, noise)]
        tools_own = {deadlines.local_time(game, s, lang) for s in (result.stamp, old.stamp) if s}
        if sheet.stamp and sheet.stamp not in tools_own:  # not a stamp the tool wrote itself
            rep.warnings.append(render(game.voice, "svc.stamp_disagrees", alias=p.alias, seat=seat,
                                       found=sheet.stamp, stamp=shown_stamp or "-"))
        try:
            if sheet.repairs or upkept or not _already(sheet, cells):  # the route picture with it (RUL-61)
                write += route.route_op(game.gateway, state, seat, lang, planned,
                                        hunter_events() if p.is_hunter else ())
                game.gateway.write(player_key(seat), write)
                wrote.add(seat)
        except BackendError as exc:
            rep.warnings.append(render(game.voice, "svc.player_unwritable", alias=p.alias, seat=seat,
                                       reason=exc.message(game.voice)))
        else:  # remembered once its status is written (a failed write is tried again), and only before the deadline
            if before:
                new_memos[seat] = Memo(rev, ctx, judged, shown.isoformat(timespec="seconds"), asdict(result),
                                                 list(director_notes), memo.p if memo is not None else "",
                                                 o=sheet.text, l=now.isoformat(timespec="seconds"))
        game.gateway.release(player_key(seat))  # done with this workbook: not held while the others are checked
        rep.players.append(result)
        if progress:
            progress(player_key(seat))
    if ahead is not None:
        rep.reminded = rep.missing
        reminder = _remind(game, state, entries, key, ahead, rep, due, memos)
        if reminder is not None:  # written (or failed: ""): every memo says which line the public log shows
            for seat in due:
                if seat not in new_memos and seat in memos:
                    new_memos[seat] = memos[seat]
                if seat in new_memos:
                    new_memos[seat].p = reminder
    after = checkmemo.revisions(game, due) if wrote else revs  # for a resolve that waits (checkmemo.waiting)
    for seat, m in new_memos.items():
        if seat in wrote or not m.a:
            m.a = after.get(player_key(seat), "")
    record.note_memos(key, new_memos)
    record.note_truths(key, seen)
    if passed:
        record.note_passed(key, deadline, looked)
    record.note_reads(key, reads, state, deadline)  # what each row said and when it was read; the director's table
    record.write()
    return rep


def _remind(game: Game, state: State, entries: list[Entry], key: str, ahead: datetime, rep: CheckReport,
            due: list[int], memos: dict[int, Memo]) -> str | None:
    """The public reminder line (with the news tabs a language lacks), unless the log shows it already as the
    last checks wrote it: the digest of the line now written, "" if the write failed, None if not written."""
    line = checkmemo.reminder(key, ahead.isoformat(), rep.reminded)
    catch_up = news.catch_up_ops(game, entries)
    if not catch_up and due and all(seat in memos and memos[seat].p == line for seat in due):
        return None
    try:
        game.gateway.write(PUBLIC, catch_up + deadlines.public_reminder_ops(game, key, ahead, rep.reminded)
                           + deadlines.public_deadline_ops(game, state, game.now(), "check"))
    except BackendError as exc:
        rep.warnings.append(render(game.voice, "svc.reminder_unwritable", reason=exc.message(game.voice)))
        return ""
    return line


def _kept(memo: Memo | None) -> PlayerCheck | None:
    if memo is None:
        return None
    try:
        return PlayerCheck(**memo.r)
    except TypeError:  # a memo of another version of sheetgm: read the workbook
        return None


def _shown_time(memo: Memo | None, judged: str, now: datetime, rev: str) -> datetime:
    """The time the status shows (when the row was last read, and the deadline line's "as of"): the last check's
    if it judged the same and nothing but that check's own write has changed the workbook since (``Memo.a``), so
    that a repeat writes nothing; else now: every save of the player's is seen read."""
    if memo is not None and memo.j == judged and rev and memo.a == rev:
        try:
            return datetime.fromisoformat(memo.t)
        except ValueError:
            pass
    return now


def _already(sheet: SheetOrder, op: Op) -> bool:
    """Whether the Orders row as read already shows what ``op`` (the status cells D..F of the row) writes."""
    if not isinstance(op, SetValues) or sheet.row < 2 or sheet.row - 2 >= len(sheet.tab):
        return False
    found = sheet.tab[sheet.row - 2]
    want = op.rows[0] if op.rows else ()
    return all((found[3 + i] if 3 + i < len(found) else "") == v for i, v in enumerate(want))


def _upkeep(game: Game, seat: int, sheet: SheetOrder, entries: list[Entry], warnings: list[str]
            ) -> tuple[list[Op], list[str]]:
    """What a check puts back in the workbook it just read (``upkeep.py``): a stage row gone, the Results tab
    and its reports, the identity; with the protections, opened at the row where the stage due now is. And what
    the player is told of it (rows restored: once, as they are then there again)."""
    lang = game.seat_lang(seat)
    ops, told, _tab = upkeep_ops(game, seat, sheet, entries, "", warnings)
    if sheet.results_missing:  # rare: publishing's code (and the rollback's it uses) is imported only then
        from sheetgm.service.publish import results_repairs

        ops += results_repairs(game, "", seat, entries, sheet, warnings)
    if not ops and not sheet.repairs:
        return [], []
    return [*ops, *layout.player_protections(lang, game.editors()),
            player.orders_protect(lang, game.editors(), sheet.row)], told


def _counts(sheet: SheetOrder, truth: Truth | None, before: bool, deadline: datetime | None) -> str:
    """The text of ``sheet`` that counts: as written before the deadline, after it as the last check before the
    deadline saw it (stamps.counted). What the others' reviews are given of this seat's order."""
    return sheet.text if before else counted(truth or Truth(), sheet.text, deadline)[0]


def read_line(game: Game, lang: str, now: datetime, text: str, before: bool) -> str:
    """What the player is told about this read: when, and the text read (shortened), so that they can see
    whether their current text is the one the tool has seen."""
    when = deadlines.local_time(game, now, lang)
    if not text.strip():
        return render(lang, "day.read.empty", time=when)
    flat = " ".join(text.split())
    excerpt = flat if len(flat) <= READ_EXCERPT else flat[: READ_EXCERPT - 1] + "…"
    return render(lang, "day.read.line" if before else "day.read.after", time=when, text=excerpt)


def _player(game: Game, state: State, sheet: SheetOrder, truth: Truth, before: bool, look: bool,
            deadline: datetime | None, seen: dict[int, Truth], others: Mapping[int, Order]
            ) -> tuple[PlayerCheck, list[str], Preview | None]:
    """The seat's state and stamp, its column-E lines in the player's language (the problems, then the notes,
    RUL-27) and its order's preview (None: unreadable, RUL-61). A look (``look``: before the deadline, or after it
    standing in for a missed one, RUL-55) is noted in ``seen``; only a look before the deadline stamps. Otherwise,
    after the deadline, the order is judged as it counts (stamps.counted): a version changed since the last check
    before the deadline is named."""
    seat, lang = sheet.seat, game.seat_lang(sheet.seat)
    result = PlayerCheck(seat, game.alias(seat), "empty")
    text, verdict = sheet.text, OK
    if not before:
        text, _stamp, verdict = counted(truth, sheet.text, deadline)
    problems: list[str] = []
    nothing = True
    planned: Preview | None = preview(state, seat, Order()) if not text else None
    if text:
        mine = review(state, seat, text, lang, others)
        planned = mine.preview
        director = review(state, seat, text, game.voice, others) if lang != game.voice else mine
        nothing = not mine.bad and not mine.order.steps and not mine.order.day
        problems = mine.problems + mine.notes  # column E: the problems, then the notes
        result.problems, result.notes = list(director.problems), list(director.notes)
        ticked = sheet.ticked or verdict == FALLBACK  # the stamped version was ticked
        result.state = "problems" if mine.problems else ("ok" if ticked else "unticked")
    complete = result.state == "ok" and not nothing
    if look:
        truth = seen[seat] = observe(truth, sheet.text, complete and before, game.now())
    if verdict in AFTER:
        result.state, result.verdict, result.used = "late", verdict, text
    result.stamp = truth.stamp_for(text) if complete else ""
    return result, problems, planned
