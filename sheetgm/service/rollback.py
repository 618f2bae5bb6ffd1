"""`sheetgm rollback`: undo a stage and every entry after it (R-DIR-2), never deleting a row.

The rolled-back journal rows are marked superseded in place (and so are
the undone rows of each player's Results tab and of the public log), with the reason
in their note column, and a copy of every stage row goes below the desk rows
(``HISTORY_FIRST_ROW``), because re-resolving a stage overwrites its fixed row.
The state before the stage is current again, the players' order rows of the
rolled-back stages can be edited again, and the next ``sheetgm resolve``
resolves the stage anew from the sheets.

Publishing a re-resolved stage compares every report with the superseded
version the players saw (``previous_version``): an unchanged report is written
as it was, a changed one carries a correction mark with the reason, and the
public log keeps the superseded text beside the corrected one.
"""

from __future__ import annotations

from typing import Any

from sheetgm.backends.a1 import quote_tab
from sheetgm.backends.errors import UnusableWorkbookError
from sheetgm.backends.port import Op, SetBold, SetValues, Unprotect
from sheetgm.core.events import Event
from sheetgm.core.observe import director_log, public_log, report
from sheetgm.core.texts import render
from sheetgm.core.values import field, record, replace
from sheetgm.service.errors import ServiceError
from sheetgm.service.game import DIRECTOR, PUBLIC, Game, player_key
from sheetgm.service.ledger.journal import (
    HISTORY_FIRST_ROW,
    SUPERSEDED,
    Entry,
    entry_order,
    journal_range,
    lock_range,
    parse_entries,
    release_op,
)
from sheetgm.service.ledger.lock import holding
from sheetgm.service.ledger.verdicts import report_note
from sheetgm.service.workbooks import news, route
from sheetgm.service.workbooks.sheetorders import read_sheet
from sheetgm.sheets import layout, player
from sheetgm.sheets.limits import fit
from sheetgm.sheets.public import public_ops
from sheetgm.sheets.stages import SETUP_KEY, archive_row, journal_row, log_row, order_row, parse_key, stage_key

OLD_COL = "D"  # public Log: the superseded text of a corrected line (C holds the deadline reminders)


@record
class RollbackReport:
    """What a rollback superseded and republished."""

    stage: str
    reason: str
    superseded: list[str]  # journal keys marked superseded, in play order
    restored: str  # the entry whose state is current again
    reopened: dict[str, list[int]] = field(default_factory=dict)  # alias -> nights whose order row is open again
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"stage": self.stage, "reason": self.reason, "superseded": self.superseded,
                "restored": self.restored, "reopened": self.reopened, "warnings": self.warnings}


def stage_arg(text: str) -> str:
    """A stage key; "N2" alone means the first stage of night 2 (its survivor stage)."""
    text = text.strip()
    if text[:1] in ("N", "n") and text[1:].isdigit() and int(text[1:]) > 0:
        return stage_key(int(text[1:]), "survivor")
    parse_key(text)
    return text


def rollback(game: Game, stage: str, reason: str, holder: str = "sheetgm") -> RollbackReport:
    reason = " ".join(reason.split())
    if not reason:
        raise ServiceError("err.replay.no_reason")
    key = stage_arg(stage)
    if key == SETUP_KEY:
        raise ServiceError("err.replay.setup")
    lang = game.lang
    got = game.gateway.read(DIRECTOR, [journal_range(lang), lock_range(lang)])
    rows = got[journal_range(lang)]
    lock = list((got[lock_range(lang)] or [[]])[0])
    entries = parse_entries(rows, lang)
    live = [e for e in entries if e.status != SUPERSEDED]
    stages = [e.key for e in live if e.kind == "stage" and e.key != SETUP_KEY]
    if key not in stages:
        raise ServiceError("err.replay.not_live", stage=key, live=", ".join(stages) or "-")
    start = entry_order(key)
    gone = [e for e in live if entry_order(e.key) >= start]
    kept = [e for e in live if entry_order(e.key) < start]
    restored = kept[-1]
    with holding(game, lock, holder) as held:
        if held.entries != entries:  # another run changed the game between our read and the lock
            raise ServiceError("err.svc.changed_meanwhile")
        rep = RollbackReport(key, reason, [e.key for e in gone], restored.key)
        _players(game, kept, gone, reason, rep)
        game.gateway.write(PUBLIC, news.catch_up_ops(game, kept) + _public_ops(game, kept, gone, reason))
        game.gateway.write(DIRECTOR, _director_ops(game, gone, reason, len(rows)))
    return rep


def _stage_events(kept: list[Entry]) -> list[Event]:
    """Events of the last stage kept (the hunters' noise marks of their Current tab)."""
    last = [e for e in kept if e.kind == "stage"][-1]
    return last.events()


def _players(game: Game, kept: list[Entry], gone: list[Entry], reason: str, rep: RollbackReport) -> None:
    """Reopen each player's order rows of the undone stages, mark their undone Results rows, redraw Current."""
    state, events = kept[-1].state(game.board), _stage_events(kept)
    stages = [e for e in gone if e.kind == "stage"]
    for seat in game.seats:
        lang = game.seat_lang(seat)
        rows = {parse_key(e.key)[0]: e.orders()[seat].row or order_row(parse_key(e.key)[0])
                for e in stages if seat in e.orders()}
        sheet = read_sheet(game, seat)  # whose it is, and where the stage due is now
        if sheet.trouble:
            rep.warnings.append(sheet.trouble)
            continue
        ops: list[Op] = []
        for night, row in sorted(rows.items()):
            ops.append(Unprotect(player.LEGACY_FREEZE.format(night=night)))  # a row frozen by an older sheetgm
            ops.append(player.status_op(lang, row, render(lang, "replay.status_reopened", reason=reason), ()))
        mark = render(lang, "replay.superseded_mark", reason=reason)
        for e in stages:
            text = mark + "\n" + report(e.state(game.board), e.events(), seat, lang)
            ops.append(player.results_op(lang, e.key, text, game.secret(), player_key(seat)))
        ops += player.current_ops(state, seat, lang, events)
        ops += route.cleared(game.gateway, game.board, lang)
        ops += player.open_row_ops(state, seat, lang, game.editors(), sheet.tab, label=False)
        try:
            game.gateway.write(player_key(seat), ops)
        except UnusableWorkbookError as exc:
            rep.warnings.append(render(game.voice, "svc.player_unwritable", alias=game.alias(seat), seat=seat,
                                       reason=exc.message(game.voice)))
        if rows:
            rep.reopened[game.alias(seat)] = sorted(rows)


def _public_ops(game: Game, kept: list[Entry], gone: list[Entry], reason: str) -> list[Op]:
    """Every language's public tabs: progress, cards and map of the restored state; the log rows of the undone
    stages marked (not rewritten), with the correction column's header."""
    state = kept[-1].state(game.board)
    ops: list[Op] = []
    for lang in game.langs:
        log = layout.tab(lang, "log")
        ops += [op for op in public_ops(state, [], SETUP_KEY, lang)
                if not getattr(op, "range", "").startswith(quote_tab(log) + "!")]
        ops += [SetValues(layout.rng(log, f"{OLD_COL}1"), ((render(lang, "replay.public_old_head"),),)),
                SetBold(layout.rng(log, f"{OLD_COL}1"))]
        for e in gone:
            if e.kind != "stage":
                continue
            r = log_row(e.key)
            text = render(lang, "replay.superseded_mark", reason=reason) + "\n" + public_log(e.events(), lang).strip()
            ops.append(SetValues(layout.rng(log, f"B{r}"), ((fit(text, lang, "svc.cut_log", stage=e.key),),)))
    return ops


def _director_ops(game: Game, gone: list[Entry], reason: str, used_rows: int) -> list[Op]:
    lang = game.lang
    journal, log, archive = layout.tab(lang, "journal"), layout.tab(lang, "log"), layout.tab(lang, "archive")
    seats = len(game.seats)
    now = game.now().isoformat(timespec="seconds")
    heads = (render(lang, "replay.head_note"), render(lang, "replay.head_rolled_back"))
    ops: list[Op] = [SetValues(layout.rng(journal, "J1:K1"), (heads,))]
    row = max(HISTORY_FIRST_ROW, used_rows + 2)  # reads drop trailing empty rows: the first free row
    mark = render(lang, "replay.superseded_mark", reason=reason)
    for e in gone:
        marked = replace(e, status=SUPERSEDED, note=reason)
        ops.append(marked.op(lang))
        if e.kind != "stage":
            continue  # a desk row is never written again: marking it is enough
        ops.append(marked.op_at(lang, row, rolled_back=now))
        row += 1
        r = journal_row(e.key)
        text = mark + "\n" + director_log(e.events(), lang, e.state(game.board)).strip()
        ops.append(SetValues(layout.rng(log, f"B{r}"), ((fit(text, lang, "svc.cut_log", stage=e.key),),)))
        old_key = render(lang, "replay.archive_key", stage=e.key)
        for seat in e.orders():
            if 1 <= seat <= seats:
                a = archive_row(e.key, seat, seats)
                ops.append(SetValues(layout.rng(archive, f"A{a}"), ((old_key,),)))
    ops.append(release_op(lang))
    return ops



# -- corrections, used when a re-resolved stage is published (publish.py) ----------------------

def previous_version(entry: Entry, entries: list[Entry]) -> Entry | None:
    """The latest superseded version of ``entry``'s stage: what the players saw before the rollback."""
    if entry.status == SUPERSEDED or entry.kind != "stage":
        return None
    old = [e for e in entries if e.key == entry.key and e.status == SUPERSEDED and e is not entry]
    return old[-1] if old else None


def report_text(game: Game, entry: Entry, entries: list[Entry], seat: int, lang: str) -> str:
    """A player's report of ``entry``, marked as a correction when it differs from the superseded one; an order
    changed after the last check before the deadline is told on top which version was carried out (RUL-50)."""
    text = report(entry.view(game.board), entry.events(), seat, lang)
    note = report_note(game, entry.orders().get(seat), lang) if entry.kind == "stage" else ""
    text = f"{note}\n{text}" if note else text
    old = previous_version(entry, entries)
    if old is None or report(old.view(game.board), old.events(), seat, lang) == text.removeprefix(f"{note}\n"):
        return text
    return render(lang, "replay.correction", reason=old.note or "-") + "\n" + text


def public_correction_ops(game: Game, entry: Entry, entries: list[Entry]) -> list[Op]:
    """The public log row of a re-resolved stage in every language: the corrected text marked, the
    superseded one beside it."""
    old = previous_version(entry, entries)
    if old is None:
        return []
    ops: list[Op] = []
    for lang in game.langs:
        new_text, old_text = public_log(entry.events(), lang).strip(), public_log(old.events(), lang).strip()
        if new_text == old_text:
            continue
        r = log_row(entry.key)
        corrected = render(lang, "replay.correction", reason=old.note or "-") + "\n" + new_text
        superseded = render(lang, "replay.superseded_mark", reason=old.note or "-") + "\n" + old_text
        log = layout.tab(lang, "log")
        corrected, superseded = (fit(t, lang, "svc.cut_log", stage=entry.key) for t in (corrected, superseded))
        ops += [SetValues(layout.rng(log, f"B{r}"), ((corrected,),)),
                SetValues(layout.rng(log, f"{OLD_COL}{r}"), ((superseded,),))]
    return ops
