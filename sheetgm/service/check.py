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
from datetime import datetime

from sheetgm.backends.errors import BackendError
from sheetgm.backends.port import Op
from sheetgm.core.state import State
from sheetgm.core.texts import render
from sheetgm.service import deadlines, news, stamps, table
from sheetgm.service.game import DIRECTOR, PUBLIC, Game, player_key
from sheetgm.service.journal import Entry, latest
from sheetgm.service.lock import folder_lock
from sheetgm.service.publish import results_repairs
from sheetgm.service.sheetorders import SheetOrder, read_player, review
from sheetgm.service.upkeep import upkeep_ops
from sheetgm.sheets import layout, player
from sheetgm.sheets.stages import stage_key

READ_EXCERPT = 40  # characters of the order text quoted back to the player with the time it was read


@dataclass
class PlayerCheck:
    seat: int
    alias: str
    state: str  # ok | problems | empty | unticked | unreadable | late
    problems: list[str] = field(default_factory=list)  # in the director's language
    stamp: str = ""
    notes: list[str] = field(default_factory=list)  # steps that depend on the night: not problems (RUL-27)
    must_submit: bool = True  # a stunned hunter is not waited for
    read: str = ""  # when this check read the row (ISO; shown to the player in their status cell)


@dataclass
class CheckReport:
    stage: str
    players: list[PlayerCheck]
    warnings: list[str]
    deadline: str | None = None  # the stage's deadline while it is ahead (then reminders were written)
    reminded: list[str] = field(default_factory=list)  # aliases told they have not submitted
    stand_in: list[str] = field(default_factory=list)  # read after the deadline for a missed look (RUL-55)

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
                "reminded": self.reminded, "stand_in": self.stand_in}


def check(game: Game, progress: Callable[[str], None] | None = None, holder: str = "sheetgm") -> CheckReport:
    """Under the game folder's OS lock (service/lock.py): a check writes the director's and the players' workbooks,
    and a local .xlsx file is saved whole, so a resolve saving the same file at the same moment would lose its
    cells (or the check its stamps). Across machines (Google) cells are written one range at a time: no token."""
    with folder_lock(game.folder, holder, deadlines.local_time(game, game.now())):
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
    reads: dict[int, tuple[str, str]] = {}  # seat -> (verdict, when read): the director's table
    rep = CheckReport(key, [], [], ahead.isoformat() if ahead else None)
    for seat in game.seats:
        p = state.players[seat]
        if p.camp != state.stage or not p.in_play:
            continue
        must = deadlines.must_submit(state, seat)
        sheet = read_player(game, seat, state.night, state.stage, archived=stamps.archived_texts(entries, seat))
        if sheet.trouble:
            rep.warnings.append(sheet.trouble)
            rep.players.append(PlayerCheck(seat, p.alias, "unreadable", [sheet.trouble], must_submit=must))
            reads[seat] = ("unreadable", now.isoformat(timespec="seconds"))
            continue
        truth = truths.get(seat, stamps.Truth())
        look = before or stamps.missed(truth, deadline)  # RUL-55: a look after a missed one stands in for it
        if look and not before:
            rep.stand_in.append(p.alias)
        result, problems = _player(game, state, sheet, truth, before, look, seen)
        result.must_submit = must
        result.read = now.isoformat(timespec="seconds")
        reads[seat] = (result.state, result.read)
        rep.warnings += sheet.director_notes
        lang = game.seat_lang(seat)
        kept = _upkeep(game, seat, sheet, entries, rep.warnings)
        status = render(lang, f"sheet.status.{result.state}", n=len(result.problems),
                        time=deadlines.local_time(game, now, lang, short=True))
        status = "\n".join([status, read_line(game, lang, now, sheet.text, before), *sheet.notes])
        if ahead is not None and result.state != "ok" and must:
            status += "\n" + deadlines.player_reminder(game, seat, ahead, result.state)
        shown_stamp = deadlines.local_time(game, result.stamp, lang) if result.stamp else ""
        write: list[Op] = [*sheet.repairs, *kept, player.status_op(lang, sheet.row, status, problems, shown_stamp,
                                                                   stage=key)]
        if sheet.stamp and sheet.stamp != shown_stamp:
            rep.warnings.append(render(game.lang, "svc.stamp_disagrees", alias=p.alias, seat=seat,
                                       found=sheet.stamp, stamp=shown_stamp or "-"))
        try:
            game.gateway.write(player_key(seat), write)
        except BackendError as exc:
            rep.warnings.append(render(game.lang, "svc.player_unwritable", alias=p.alias, seat=seat,
                                       reason=exc.message(game.lang)))
        rep.players.append(result)
        if progress:
            progress(player_key(seat))
    if reads:  # the stamps (RUL-37), then what each row said and when it was read, and the director's table
        ops = stamps.truth_ops(game, key, seen) + stamps.read_ops(game, key, reads)
        archive = _merged(archive, key, len(game.seats), reads, seen)
        game.gateway.write(DIRECTOR, ops + table.sheet_ops(game, table.seat_rows(game, state, key, archive), key,
                                                           deadline))
    if ahead is not None:
        rep.reminded = rep.missing
        try:
            game.gateway.write(PUBLIC, news.catch_up_ops(game, entries)
                               + deadlines.public_reminder_ops(game, key, ahead, rep.reminded))
        except BackendError as exc:
            rep.warnings.append(render(game.lang, "svc.reminder_unwritable", reason=exc.message(game.lang)))
    return rep


def _upkeep(game: Game, seat: int, sheet: SheetOrder, entries: list[Entry], warnings: list[str]) -> list[Op]:
    """What a check puts back in the workbook it just read (``upkeep.py``): a stage row gone, the Results tab
    and its reports, the identity; with the protections, opened at the row where the stage due now is."""
    lang = game.seat_lang(seat)
    ops, told, _tab = upkeep_ops(game, seat, sheet, entries, "", warnings)
    ops += results_repairs(game, "", seat, entries, sheet, warnings) if sheet.results_missing else []
    if not ops and not sheet.repairs:
        return []
    sheet.notes += told
    return [*ops, *layout.player_protections(lang, game.editors()),
            player.orders_protect(lang, game.editors(), sheet.row)]


def _merged(archive: list[list[str]], key: str, seats: int, reads: dict[int, tuple[str, str]],
            seen: dict[int, stamps.Truth]) -> list[list[str]]:
    """The Orders archive rows as they are once this check's stamps and verdicts are written (for the table)."""
    from sheetgm.sheets.stages import archive_row

    rows = [list(r) for r in archive]
    for seat, (verdict, when) in reads.items():
        i = archive_row(key, seat, seats) - 2
        while len(rows) <= i:
            rows.append([])
        cells = rows[i] + [""] * (stamps.COLS - len(rows[i]))
        cells[0], cells[9], cells[10] = key, verdict, when
        t = seen.get(seat)
        if t is not None:
            cells[3], cells[5], cells[6] = t.stamped, t.stamp, stamps.fingerprint(t.stamped) if t.stamped else ""
        rows[i] = cells
    return rows


def read_line(game: Game, lang: str, now: datetime, text: str, before: bool) -> str:
    """What the player is told about this read: when, and the text read (shortened), so that they can see
    whether their current text is the one the tool has seen."""
    when = deadlines.local_time(game, now, lang)
    if not text.strip():
        return render(lang, "day.read.empty", time=when)
    flat = " ".join(text.split())
    excerpt = flat if len(flat) <= READ_EXCERPT else flat[: READ_EXCERPT - 1] + "…"
    return render(lang, "day.read.line" if before else "day.read.after", time=when, text=excerpt)


def _player(game: Game, state: State, sheet: SheetOrder, truth: stamps.Truth, before: bool, look: bool,
            seen: dict[int, stamps.Truth]) -> tuple[PlayerCheck, list[str]]:
    """The seat's state and stamp, and its column-E lines in the player's language: the problems, then the
    notes (RUL-27). A look (``look``: before the deadline, or after it standing in for a missed one, RUL-55)
    is noted in ``seen``; only a look before the deadline stamps."""
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
    result.stamp = truth.stamp_for(sheet.text) if complete else ""
    if look:
        truth = seen[seat] = stamps.observe(truth, sheet.text, complete and before, game.now())
        result.stamp = truth.stamp_for(sheet.text) if complete else ""
    elif stamps.counted(truth, sheet.text)[2] in (stamps.LATE, stamps.FALLBACK):
        result.state = "late"
        result.stamp = truth.stamp  # a change after the deadline drops nothing: the stamped version counts
    return result, problems
