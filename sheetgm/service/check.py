"""`sheetgm check`: read every due order, tell each player what is wrong, stamp complete orders.

Each player of the camp due is told in their status cell (their language):
the order's state, the problems, what is wrong in their Orders tab (rows.py)
and, before the deadline, a reminder while they have not submitted. The
director's summary names exactly who has not submitted (the same names as
the public reminder line) and who has problems. Stamps live in the director
workbook (stamps.py); a sheet stamp that disagrees is named and written back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from sheetgm.backends.errors import BackendError
from sheetgm.backends.port import Op, SetValues
from sheetgm.core.state import State
from sheetgm.core.texts import render
from sheetgm.service import checkmemo, deadlines, stamps
from sheetgm.service.game import DIRECTOR, PUBLIC, Game, player_key
from sheetgm.service.journal import latest
from sheetgm.service.lock import folder_lock
from sheetgm.service.sheetorders import SheetOrder, read_player, review
from sheetgm.sheets import player
from sheetgm.sheets.stages import stage_key


@dataclass
class PlayerCheck:
    seat: int
    alias: str
    state: str  # ok | problems | empty | unticked | unreadable | late
    problems: list[str] = field(default_factory=list)  # in the director's language
    stamp: str = ""
    notes: list[str] = field(default_factory=list)  # steps that depend on the night: not problems (RUL-27)
    must_submit: bool = True  # a stunned hunter is not waited for


@dataclass
class CheckReport:
    stage: str
    players: list[PlayerCheck]
    warnings: list[str]
    deadline: str | None = None  # the stage's deadline while it is ahead (then reminders were written)
    reminded: list[str] = field(default_factory=list)  # aliases told they have not submitted
    unchanged: list[str] = field(default_factory=list)  # aliases whose workbook was not read: unchanged since

    @property
    def missing(self) -> list[str]:
        """Who has not submitted (written, ticked, no problem): the names the public reminder lists."""
        return [p.alias for p in self.players if p.must_submit and p.state != "ok"]

    @property
    def with_problems(self) -> list[str]:
        return [p.alias for p in self.players if p.state in ("problems", "unreadable")]

    def to_dict(self) -> dict[str, object]:
        return {"stage": self.stage, "players": [asdict(p) for p in self.players], "missing": self.missing,
                "problems": self.with_problems, "warnings": self.warnings, "deadline": self.deadline,
                "reminded": self.reminded, "unchanged": self.unchanged}


def check(game: Game, progress: Callable[[str], None] | None = None, holder: str = "sheetgm") -> CheckReport:
    """Under the game folder's OS lock (service/lock.py): a check writes the director's and the players' workbooks,
    and a local .xlsx file is saved whole, so a resolve saving the same file at the same moment would lose its
    cells (or the check its stamps). Across machines (Google) cells are written one range at a time: no token."""
    with folder_lock(game.folder, holder, game.now().isoformat(timespec="seconds")):
        return _check(game, progress)


def _check(game: Game, progress: Callable[[str], None] | None) -> CheckReport:
    entries, _lock, archive = stamps.read_desk(game)
    state = latest(entries).state(game.board)
    if state.over():
        return CheckReport("over", [], [])
    key = stage_key(state.night, state.stage)
    deadline = deadlines.deadline_of(game, key)
    now = game.now()
    before = deadline is None or now <= deadline
    ahead = deadline if deadline is not None and now < deadline else None
    truths = stamps.truths(archive, key, len(game.seats), entries)
    seen: dict[int, stamps.Truth] = {}
    rep = CheckReport(key, [], [], ahead.isoformat() if ahead else None)
    due = [s for s in game.seats if state.players[s].camp == state.stage and state.players[s].in_play]
    old = checkmemo.memos(archive, key, len(game.seats))
    new: dict[int, checkmemo.Memo] = {}
    revs = checkmemo.revisions(game, due)
    wrote: set[int] = set()
    journal = checkmemo.journal_digest(entries)
    when = deadline.isoformat() if deadline else ""
    for seat in due:
        p = state.players[seat]
        must = deadlines.must_submit(state, seat)
        lang = game.seat_lang(seat)
        rev = revs.get(player_key(seat), "")
        ctx = checkmemo.seat_context(game, key, journal, when, before, truths.get(seat), seat, must)
        memo = old.get(seat)
        kept = _kept(memo) if memo is not None and rev and memo.v == rev and memo.c == ctx else None
        if memo is not None and kept is not None:  # unchanged since the last check: its verdict stands
            rep.players.append(kept)
            rep.warnings += memo.w
            rep.unchanged.append(p.alias)
            if progress:
                progress(player_key(seat))
            continue
        sheet = read_player(game, seat, state.night, state.stage, archived=stamps.archived_texts(entries, seat))
        if sheet.trouble:
            rep.warnings.append(sheet.trouble)
            rep.players.append(PlayerCheck(seat, p.alias, "unreadable", [sheet.trouble], must_submit=must))
            continue
        result, problems = _player(game, state, sheet, truths.get(seat, stamps.Truth()), before, seen)
        result.must_submit = must
        rep.warnings += sheet.director_notes
        # the same judgment as the last check's keeps its time: then the cells are already there (no write)
        ctx = checkmemo.seat_context(game, key, journal, when, before, seen.get(seat, truths.get(seat)), seat, must)
        judged = checkmemo.judgment(ctx, sheet.row, sheet.text, sheet.ticked, sheet.notes)
        shown = memo.t if memo is not None and memo.j == judged else now.strftime("%m-%d %H:%M")
        status = render(lang, f"sheet.status.{result.state}", n=len(result.problems), time=shown)
        status = "\n".join([status, *sheet.notes])
        if ahead is not None and result.state != "ok" and must:
            status += "\n" + deadlines.player_reminder(game, seat, ahead, result.state)
        cells = player.status_op(lang, sheet.row, status, problems, result.stamp, stage=key)
        write: list[Op] = [*sheet.repairs, cells]
        if sheet.stamp and sheet.stamp != result.stamp:
            rep.warnings.append(render(game.lang, "svc.stamp_disagrees", alias=p.alias, seat=seat,
                                       found=sheet.stamp, stamp=result.stamp or "-"))
        try:
            if sheet.repairs or not _shown(sheet, cells):  # the sheet does not show it yet
                game.gateway.write(player_key(seat), write)
                wrote.add(seat)
        except BackendError as exc:
            rep.warnings.append(render(game.lang, "svc.player_unwritable", alias=p.alias, seat=seat,
                                       reason=exc.message(game.lang)))
        else:  # remembered once its status is written (a failed write is tried again next time), and only
            if before:  # before the deadline: after it the resolve reads every order anyway
                new[seat] = checkmemo.Memo(rev, ctx, judged, shown, asdict(result), list(sheet.director_notes),
                                           memo.p if memo is not None else "")
        rep.players.append(result)
        if progress:
            progress(player_key(seat))
    if ahead is not None:
        rep.reminded = rep.missing
        line = checkmemo.reminder(key, when, rep.reminded)
        if not due or any(seat not in old or old[seat].p != line for seat in due):
            try:
                game.gateway.write(PUBLIC, deadlines.public_reminder_ops(game, key, ahead, rep.reminded))
            except BackendError as exc:
                rep.warnings.append(render(game.lang, "svc.reminder_unwritable", reason=exc.message(game.lang)))
                line = ""
            for seat in due:  # every memo says which line the public log now shows
                if seat not in new and seat in old:
                    new[seat] = old[seat]
                if seat in new:
                    new[seat].p = line
    after = checkmemo.revisions(game, due) if wrote else revs  # for a resolve that waits (checkmemo.waiting)
    for seat, m in new.items():
        if seat in wrote or not m.a:
            m.a = after.get(player_key(seat), "")
    ops = stamps.truth_ops(game, key, seen) if seen else []
    ops += [checkmemo.memo_op(game.lang, key, seat, len(game.seats), m) for seat, m in sorted(new.items())]
    if ops:
        game.gateway.write(DIRECTOR, ops)
    return rep


def _kept(memo: checkmemo.Memo) -> PlayerCheck | None:
    try:
        return PlayerCheck(**memo.r)
    except TypeError:  # a memo of another version of sheetgm: read the workbook
        return None


def _shown(sheet: SheetOrder, op: Op) -> bool:
    """Whether the Orders row as read already shows what ``op`` (the status cells D..F of the row) writes."""
    if not isinstance(op, SetValues) or sheet.row < 2 or sheet.row - 2 >= len(sheet.tab):
        return False
    found = sheet.tab[sheet.row - 2]
    want = op.rows[0] if op.rows else ()
    return all((found[3 + i] if 3 + i < len(found) else "") == v for i, v in enumerate(want))


def _player(game: Game, state: State, sheet: SheetOrder, truth: stamps.Truth, before: bool,
            seen: dict[int, stamps.Truth]) -> tuple[PlayerCheck, list[str]]:
    """The seat's state and stamp, and its column-E lines in the player's language: the problems, then the
    notes (RUL-27). The truth is noted in ``seen``."""
    seat, lang = sheet.seat, game.seat_lang(sheet.seat)
    result = PlayerCheck(seat, game.alias(seat), "empty")
    problems: list[str] = []
    nothing = True
    if sheet.text:
        mine = review(state, seat, sheet.text, lang)
        director = review(state, seat, sheet.text, game.lang) if lang != game.lang else mine
        nothing = not mine.bad and not mine.order.steps and not mine.order.day
        problems = mine.problems + mine.notes  # column E: the problems, then the notes
        result.problems, result.notes = list(director.problems), list(director.notes)
        result.state = "problems" if mine.problems else ("ok" if sheet.ticked else "unticked")
    complete = result.state == "ok" and not nothing
    if before:
        truth = seen[seat] = stamps.observe(truth, sheet.text, complete, game.now())
    elif stamps.counted(truth, sheet.text)[2] in (stamps.LATE, stamps.FALLBACK):
        result.state = "late"
    result.stamp = truth.stamp_for(sheet.text) if complete else ""
    return result, problems
