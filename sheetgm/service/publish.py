"""Publishing a journaled stage: one write per workbook, every cell keyed by the stage.

Publishing reads nothing and resolves nothing: it renders the journal entry.
So a run that died half-way is completed by running it again, and a repeat
writes the same cells with the same values.

One player's workbook that cannot be written (missing, not shared, a damaged
file, a tab renamed by hand: ``UnusableWorkbookError``) never stops the others:
the player is named, and the seat is kept in the journal row (``undelivered``)
so that their report is written at their next publish, or by the next
``sheetgm resolve`` once the director has repaired the file (``deliver``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from sheetgm.backends.errors import UnreadableFileError, UnusableWorkbookError
from sheetgm.backends.port import Op, SetValues
from sheetgm.core.texts import render
from sheetgm.service import deadlines, news, table
from sheetgm.service.deadlines import local_time
from sheetgm.service.game import DIRECTOR, PUBLIC, Game, player_key
from sheetgm.service.journal import PUBLISHED, SUPERSEDED, Entry, release_op
from sheetgm.service.rollback import public_correction_ops, report_text
from sheetgm.service.sheetorders import SheetOrder
from sheetgm.service.stagemap import write_stage_map
from sheetgm.service.stamps import FALLBACK, LATE, SEEN
from sheetgm.sheets import layout, player
from sheetgm.sheets.archive import ArchivedOrder
from sheetgm.sheets.public import director_ops
from sheetgm.sheets.stages import journal_row, key_of_index, log_row, order_row, parse_key, stage_key


def order_status(game: Game, seat: int, info: ArchivedOrder, resolved_at: str) -> tuple[str, list[str]]:
    """The status cell of the order row once the stage is resolved (``resolved_at``: the journal's time)."""
    lang = game.seat_lang(seat)
    when = local_time(game, resolved_at, lang, short=True)
    problems = list(info.problems)
    if info.verdict == LATE:
        return render(lang, "sheet.status.late_used_nothing", time=when), problems
    if info.bad:
        return render(lang, "sheet.status.unreadable_used_nothing", time=when), problems
    if not info.text:
        return render(lang, "sheet.status.none_used", time=when), problems
    key = "sheet.status.resolved" if info.ticked else "sheet.status.resolved_unticked"
    if info.verdict in (FALLBACK, SEEN):
        key = f"sheet.status.resolved_{info.verdict}"
    return render(lang, key, time=when, used=info.used, stamp=local_time(game, info.stamp, lang, short=True),
                  checked=local_time(game, info.checked, lang, short=True)), problems


def boards_changed(entry: Entry, entries: list[Entry], game: Game) -> bool:
    """Whether a board went up or down in this stage (then the map borders are redrawn)."""
    before = [e for e in entries if e.key != entry.key and e.status != "superseded"]
    if not before:
        return True
    return before[-1].view(game.board).boards != entry.view(game.board).boards


def _missing_rows(results: list[list[str]], entries: list[Entry], entry: Entry) -> list[int]:
    """Results rows of earlier published stages that are empty: the workbook could not be written
    then (missing or shared wrongly, RUL of the safe resolve), so the next publish writes them."""
    out = []
    for e in entries:
        if e.key == entry.key or e.status != PUBLISHED or e.kind != "stage" or e.key.endswith("setup"):
            continue
        r = log_row(e.key)
        cells = results[r - 2] if 0 <= r - 2 < len(results) else []
        if not any(c.strip() for c in cells):
            out.append(r)
    return out


def owed(entries: list[Entry], seat: int) -> list[Entry]:
    """Live stages whose report could not be written into ``seat``'s workbook yet."""
    return [e for e in entries if e.status != SUPERSEDED and any(s == seat for s, _ in e.undelivered)]


def owed_ops(game: Game, seat: int, entries: list[Entry], skip: str = "") -> list[Op]:
    """The owed stages' reports and their blocks of the Map history tab (which keeps every stage)."""
    lang = game.seat_lang(seat)
    ops: list[Op] = []
    for e in owed(entries, seat):
        if e.key != skip:
            ops.append(player.results_op(lang, e.key, report_text(game, e, entries, seat, lang)))
            ops += player.history_ops(e.view(game.board), seat, lang, e.key, e.events(), game.editors())
    return ops


def player_ops(game: Game, entry: Entry, seat: int, entries: list[Entry], sheet: SheetOrder | None,
               warnings: list[str], formats: bool = True) -> list[Op]:
    lang = game.seat_lang(seat)
    state, events = entry.view(game.board), entry.events()
    night, _stage = parse_key(entry.key)
    ops: list[Op] = list(sheet.repairs) if sheet is not None else []  # the tool's own cells (rows.py)
    ops.append(player.results_op(lang, entry.key, report_text(game, entry, entries, seat, lang)))
    ops += owed_ops(game, seat, entries, skip=entry.key)
    info = entry.orders().get(seat)
    if info is not None:
        status, problems = order_status(game, seat, info, entry.time)
        row = info.row or order_row(night)  # the row its label was found in at resolve
        ops += [player.status_op(lang, row, status, problems, stage=entry.key),
                player.freeze_op(lang, night, game.editors(), row)]
    if sheet is not None and not sheet.trouble:  # the Results tab was read: its empty or edited rows are known
        by_key = {e.key: e for e in entries if e.status != SUPERSEDED}
        missing = _missing_rows(sheet.results, entries, entry)
        for row in player.edited_rows(sheet.results) + missing:
            old = by_key.get(key_of_index(row - 1))
            if old is None or old.key == entry.key or old in owed(entries, seat):
                continue
            text = report_text(game, old, entries, seat, lang)
            ops.append(player.results_op(lang, old.key, text))
            why = "svc.results_missing" if row in missing else "svc.results_edited"
            warnings.append(render(game.voice, why, alias=game.alias(seat), seat=seat,
                                   cell=f"{layout.tab(lang, 'results')}!B{row}"))
    ops += player.current_ops(state, seat, lang, events, formats)
    ops += player.history_ops(state, seat, lang, entry.key, events, game.editors())
    ops += player.open_row_ops(state, seat, lang, sheet.tab if sheet is not None and sheet.tab else None)
    return ops


def _write_player(game: Game, seat: int, ops: list[Op], warnings: list[str], settled: list[Entry]) -> str | None:
    """Write one player's workbook; None if done (the ``settled`` owed reports are said to be written now),
    else why not (in the director's language, also warned)."""
    try:
        game.gateway.write(player_key(seat), ops)
    except UnusableWorkbookError as exc:
        why = exc.message(game.voice)
        # a file that cannot even be read: its report is kept and written once it is repaired (deliver)
        text = "svc.player_unreadable_file" if isinstance(exc, UnreadableFileError) else "svc.player_unwritable"
        warnings.append(render(game.voice, text, alias=game.alias(seat), seat=seat, reason=why))
        return why
    results = layout.tab(game.seat_lang(seat), "results")
    warnings += [render(game.voice, "svc.results_missing", alias=game.alias(seat), seat=seat,
                        cell=f"{results}!B{log_row(e.key)}") for e in settled]
    return None


def _settled(game: Game, entries: list[Entry], failed: dict[int, str], tried: list[int]) -> list[Op]:
    """Journal rows (and director Log notes) of earlier stages whose owed reports were now written."""
    ops: list[Op] = []
    for e in entries:
        if e.status == SUPERSEDED or not e.undelivered:
            continue
        left = tuple((s, failed.get(s, why)) for s, why in e.undelivered if s not in tried or s in failed)
        if left != e.undelivered:
            done = replace(e, undelivered=left)
            ops += [done.op(game.lang), delivery_note_op(game, done)]
    return ops


def delivery_note_op(game: Game, entry: Entry, notes: list[str] | None = None) -> Op:
    """Column C of the stage's row in the director's Log: what went wrong while publishing (``notes``),
    later what is still owed, or when the owed reports were written."""
    if notes is None:
        notes = [render(game.lang, "svc.log_undelivered", alias=game.alias(s), seat=s, key=player_key(s), reason=why)
                 for s, why in entry.undelivered]
        notes = notes or [render(game.lang, "svc.log_delivered", time=local_time(game, game.now()))]
    return SetValues(layout.rng(layout.tab(game.lang, "log"), f"C{journal_row(entry.key)}"), (("\n".join(notes),),))


def publish(game: Game, entry: Entry, entries: list[Entry], sheets: dict[int, SheetOrder] | None = None,
            progress: Callable[[str], None] | None = None, notes: list[str] | None = None) -> list[str]:
    """Write every workbook for ``entry``, the director's last (marking it published and freeing the lock).
    ``notes``: the run's earlier warnings (unreadable workbooks...), kept in the director's Log."""
    warnings: list[str] = []
    step = progress or (lambda _key: None)
    formats = boards_changed(entry, entries, game)
    failed: dict[int, str] = {}
    for seat in game.seats:
        rewritten: list[str] = []  # Results rows written again: said only once they are written
        ops = player_ops(game, entry, seat, entries, (sheets or {}).get(seat), rewritten, formats)
        why = _write_player(game, seat, ops, warnings, [e for e in owed(entries, seat) if e.key != entry.key])
        if why is not None:
            failed[seat] = why
        else:
            warnings += rewritten
        step(player_key(seat))
    state, events, lang = entry.view(game.board), entry.events(), game.lang
    game.gateway.write(PUBLIC, news.stage_ops(game, state, events, entry.key, formats, entries)
                       + public_correction_ops(game, entry, entries))
    step(PUBLIC)
    emails = [s.email for s in game.cfg.roster]
    done = replace(entry, status=PUBLISHED, undelivered=tuple(sorted(failed.items())))
    final = director_ops(state, events, entry.key, lang, len(game.seats), entry.orders())
    final += _settled(game, [e for e in entries if e.key != entry.key], failed, game.seats)
    due = None if state.over() else stage_key(state.night, state.stage)
    final += table.sheet_ops(game, table.seat_rows(game, state, due, []), due,
                             deadlines.deadline_of(game, due) if due else None)
    final += [
        SetValues(layout.rng(layout.tab(lang, "roster"), "A2"), layout.roster_rows(state, emails, lang)),
        done.op(lang),
        delivery_note_op(game, done, (notes or []) + warnings),
        release_op(lang),
    ]
    game.gateway.write(DIRECTOR, final)
    step(DIRECTOR)
    return warnings + write_stage_map(game, entry)


def deliver(game: Game, entries: list[Entry]) -> tuple[list[str], list[str]]:
    """Write the reports still owed (workbooks repaired since), then free the lock: (delivered to, warnings)."""
    warnings: list[str] = []
    seats = [s for s in game.seats if owed(entries, s)]
    failed: dict[int, str] = {}
    for seat in seats:
        why = _write_player(game, seat, owed_ops(game, seat, entries), warnings, owed(entries, seat))
        if why is not None:
            failed[seat] = why
    game.gateway.write(DIRECTOR, [*_settled(game, entries, failed, seats), release_op(game.lang)])
    return [game.alias(s) for s in seats if s not in failed], warnings

