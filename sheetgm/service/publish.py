"""Publishing a journaled stage: one write per workbook, every cell keyed by the stage.

Publishing resolves nothing: it renders the journal entry. It reads each player's workbook before
writing it (those the resolve did not just read): to know it is that seat's, to place the next
stage's label in a row that holds nothing, and to put back what is missing (``upkeep.py``). So a run
that died half-way is completed by running it again, and a repeat writes the same cells with the
same values.

Where the service keeps the players out of protected ranges (Google Sheets: ``enforces_protections``),
a workbook of the camp not due is not read when it is known: the Roster tab (column H, read with the
journal) names it as the one last read with this seat's sealed identity, the tool's own account made its
last change (Drive's ``lastModifyingUser``: nobody changed it since, by hand or by restoring a version),
and no report is owed to it. Its Orders and Results tabs are then what the tool last wrote there, which
the journal says (``known_sheet``). So a resolve reads the director's workbook and the due players'
(``stage_calls``), and lists the files once (a Drive call, not the Sheets quota).

One player's workbook that cannot be written (missing, not shared, a damaged
file, a tab renamed by hand: ``UnusableWorkbookError``) never stops the others:
the player is named, and the seat is kept in the journal row (``undelivered``)
so that their report is written at their next publish, or by the next
``sheetgm resolve`` once the director has repaired the file (``deliver``).
"""

from __future__ import annotations

from collections.abc import Callable

from sheetgm.backends.errors import BackendError, UnreadableFileError, UnusableWorkbookError
from sheetgm.backends.port import Op, SetValues
from sheetgm.core.texts import render
from sheetgm.core.values import replace
from sheetgm.service.game import DIRECTOR, PUBLIC, Game, player_key
from sheetgm.service.ledger import table
from sheetgm.service.ledger.journal import PUBLISHED, SUPERSEDED, Entry, release_op
from sheetgm.service.rollback import public_correction_ops, report_text
from sheetgm.service.timing import deadlines
from sheetgm.service.timing.deadlines import local_time
from sheetgm.service.workbooks import news, route
from sheetgm.service.workbooks.sheetorders import TRANSIENT, SheetOrder, read_sheet
from sheetgm.service.workbooks.stagemap import write_stage_map
from sheetgm.service.workbooks.upkeep import order_status, protect_ops, stage_rows, upkeep_ops
from sheetgm.sheets import layout, player, rows
from sheetgm.sheets.limits import fit
from sheetgm.sheets.public import director_ops
from sheetgm.sheets.seals import identity_of, identity_token
from sheetgm.sheets.stages import journal_row, key_of_index, log_row, order_row, parse_key, stage_key

BOOK_COL = "H"  # the Roster tab's column naming the workbook last read as the seat's (Game.known_books)


def stage_calls(players: int, due: int) -> tuple[int, int]:
    """The Sheets calls of one resolve after the deadline once every workbook is known (``known_sheet``):
    reads, the director's workbook (the desk, then the lock read back) and each due player's; writes, the lock
    taken, the journal row, each player's workbook, the public one and the director's last. What `doctor`
    estimates; tests/service/test_call_counts.py holds it to what the Google fake counts."""
    return due + 2, players + 4


def book_mark(game: Game, seat: int) -> str:
    """What column H of the Roster tab says of a seat's workbook: its address ("" where protections are not
    enforced: nothing is known without reading it there)."""
    return (game.gateway.url(player_key(seat)) or "") if game.gateway.enforces_protections else ""


def last_ours(game: Game, seats: list[int]) -> set[int]:
    """The seats whose workbook was last changed by the tool's own account (one Drive listing; none where
    protections are not enforced, or if Drive refuses the listing: then each is read). A network or quota
    failure stops the run as any call's would."""
    if not game.gateway.enforces_protections or not seats:
        return set()
    try:
        mine = game.gateway.written_by_us([player_key(s) for s in seats])
    except TRANSIENT:
        raise
    except BackendError:  # the Drive API not enabled, say: publishing never depended on it
        return set()
    return {s for s in seats if mine.get(player_key(s))}


def known_sheet(game: Game, seat: int, entries: list[Entry], ours: set[int]) -> SheetOrder | None:
    """A workbook of the camp not due as the tool last left it, without reading it, where that is known: the
    service enforces protections (the player could not change the Orders and Results tabs, nor the identity
    cell), the Roster tab names this very workbook as the one last read with this seat's sealed identity, the
    tool's own account made its last change (``ours``: nobody edited it since, by hand or by restoring a version,
    nor added a tab), and no report is owed to it (a failed write may have left it anyhow). None: read it."""
    mark = book_mark(game, seat)
    if not mark or seat not in ours or game.known_books.get(seat) != mark or owed(entries, seat):
        return None
    tab: list[list[str]] = []
    for _key, row, cells in stage_rows(game, seat, entries):
        tab = rows.place(tab, row, cells)
    token = identity_token(game.secret(), game.cfg.name, player_key(seat))
    return SheetOrder(seat, 0, tab=tab, identity=token, unread=True)


def _book_ops(game: Game, roster: tuple[tuple[str, ...], ...], written: dict[int, SheetOrder]) -> list[Op]:
    """Column H of the Roster tab (as ``roster`` is written now): each workbook written in this run that was
    read with its own sealed identity (or known to be), where the tab does not name it already."""
    lang = game.lang
    ops: list[Op] = []
    for i, cells in enumerate(roster, 2):
        seat = int(cells[0]) if cells and str(cells[0]).isdigit() else 0
        sheet = written.get(seat)
        if sheet is None or sheet.trouble:
            continue
        if identity_of(sheet.identity, game.secret(), game.cfg.name) != (player_key(seat), True):
            continue
        mark = book_mark(game, seat)
        if mark and game.known_books.get(seat) != mark:
            ops.append(SetValues(layout.rng(layout.tab(lang, "roster"), f"{BOOK_COL}{i}"), ((mark,),)))
    if ops:
        head = layout.rng(layout.tab(lang, "roster"), f"{BOOK_COL}1")
        ops.insert(0, SetValues(head, ((render(lang, "sheet.head.d_roster_book"),),)))
    return ops


def boards_changed(entry: Entry, entries: list[Entry], game: Game) -> bool:
    """Whether a board went up or down in this stage (then the map borders are redrawn)."""
    before = [e for e in entries if e.key != entry.key and e.status != "superseded"]
    if not before:
        return True
    return before[-1].view(game.board).boards != entry.view(game.board).boards


def _missing_rows(results: list[list[str]], entries: list[Entry], current: str) -> list[int]:
    """Results rows of earlier published stages that are empty: the workbook could not be written
    then (missing or shared wrongly, RUL of the safe resolve), so the next publish writes them."""
    out = []
    for e in entries:
        if e.key == current or e.status != PUBLISHED or e.kind != "stage" or e.key.endswith("setup"):
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
            ops.append(_results_op(game, seat, e.key, report_text(game, e, entries, seat, lang)))
            ops += player.history_ops(e.view(game.board), seat, lang, e.key, e.events(), game.editors())
    return ops


def _results_op(game: Game, seat: int, key: str, text: str) -> Op:
    return player.results_op(game.seat_lang(seat), key, text, game.secret(), player_key(seat))


def player_ops(game: Game, entry: Entry, seat: int, entries: list[Entry], sheet: SheetOrder,
               warnings: list[str], formats: bool = True) -> list[Op]:
    """Everything the stage writes into one player's workbook, as just read (``sheet``)."""
    lang = game.seat_lang(seat)
    state, events = entry.view(game.board), entry.events()
    night, _stage = parse_key(entry.key)
    ops: list[Op] = list(sheet.repairs)  # the tool's own cells (rows.py)
    kept, told, tab = upkeep_ops(game, seat, sheet, entries, entry.key, warnings)
    ops += kept
    ops.append(_results_op(game, seat, entry.key, report_text(game, entry, entries, seat, lang)))
    ops += owed_ops(game, seat, entries, skip=entry.key)
    info = entry.orders().get(seat)
    if info is not None:
        status, problems = order_status(game, seat, info, entry.time)
        row = info.row or order_row(night)  # the row its label was found in at resolve
        ops += player.status_ops(lang, row, "\n".join([status, *told]), problems, stage=entry.key)
        told = []
    if not sheet.unread:  # a workbook not read: its Results rows are the ones the tool wrote
        ops += results_repairs(game, entry.key, seat, entries, sheet, warnings)
    ops += player.current_ops(state, seat, lang, events, formats)
    ops += route.cleared(game.gateway, game.board, lang)  # the route shown was of the order now resolved
    ops += player.history_ops(state, seat, lang, entry.key, events, game.editors())
    ops += layout.player_protections(lang, game.editors())  # put back as laid out, whatever happened to them
    due = player.next_row(state, seat, tab)
    ops += player.open_row_ops(state, seat, lang, game.editors(), tab, due)
    line = deadlines.deadline_line(game, state, lang, game.now(), "resolve")
    ops += player.deadline_ops(state.board, lang, line)
    if due is not None and rows.empty(tab, due):  # a new row: the deadline first, and what the tool did, told once
        want = order_row(state.night)
        told += [render(lang, "sheet.rows.placed", row=due, want=want)] if due != want else []
        ops += player.status_ops(lang, due, "\n".join([line, *told]), ())
    return ops


def results_repairs(game: Game, current: str, seat: int, entries: list[Entry], sheet: SheetOrder,
                    warnings: list[str]) -> list[Op]:
    """Results rows of stages before ``current`` whose seal does not fit, or that are empty, written from the
    journal. A row whose text is still the journal's (sealed before the seals were keyed) is sealed again,
    silently."""
    lang = game.seat_lang(seat)
    ops: list[Op] = []
    by_key = {e.key: e for e in entries if e.status != SUPERSEDED}
    missing = _missing_rows(sheet.results, entries, current)
    for row in player.edited_rows(sheet.results, game.secret(), player_key(seat)) + missing:
        old = by_key.get(key_of_index(row - 1))
        if old is None or old.key == current or old in owed(entries, seat):
            continue
        text = report_text(game, old, entries, seat, lang)
        ops.append(_results_op(game, seat, old.key, text))
        have = list(sheet.results[row - 2]) + ["", ""] if 0 <= row - 2 < len(sheet.results) else ["", ""]
        if row not in missing and have[0] == old.key and have[1] == fit(text, lang, "svc.cut_report", stage=old.key):
            continue
        why = "svc.results_missing" if row in missing else "svc.results_edited"
        warnings.append(render(game.voice, why, alias=game.alias(seat), seat=seat,
                               cell=f"{layout.tab(lang, 'results')}!B{row}"))
    return ops


def _write_player(game: Game, seat: int, ops: list[Op], warnings: list[str], settled: list[Entry],
                  sheet: SheetOrder) -> str | None:
    """Write one player's workbook; None if done (the ``settled`` owed reports are said to be written now),
    else why not (in the director's language, also warned). A workbook that is not this seat's (``trouble``)
    is not written at all."""
    if sheet.trouble:
        game.gateway.release(player_key(seat))
        return sheet.trouble
    try:
        game.gateway.write(player_key(seat), ops)
    except UnusableWorkbookError as exc:
        why = exc.message(game.voice)
        # a file that cannot even be read: its report is kept and written once it is repaired (deliver)
        text = "svc.player_unreadable_file" if isinstance(exc, UnreadableFileError) else "svc.player_unwritable"
        warnings.append(render(game.voice, text, alias=game.alias(seat), seat=seat, reason=why))
        return why
    finally:
        game.gateway.release(player_key(seat))  # written (or not): a parsed workbook no longer held (memory)
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
    read: dict[int, SheetOrder] = {}
    ours = last_ours(game, [s for s in game.seats if s not in (sheets or {})])
    for seat in game.seats:
        sheet = (sheets or {}).get(seat) or known_sheet(game, seat, entries, ours)
        if sheet is None:  # not read by this resolve, nor known: read now, before it is written
            sheet = read_sheet(game, seat)
            warnings += [sheet.trouble] if sheet.trouble else sheet.director_notes
        read[seat] = sheet
        rewritten: list[str] = []  # Results rows and Orders rows written again: said only once they are written
        ops = [] if sheet.trouble else player_ops(game, entry, seat, entries, sheet, rewritten, formats)
        why = _write_player(game, seat, ops, warnings, [e for e in owed(entries, seat) if e.key != entry.key], sheet)
        if why is not None:
            failed[seat] = why
        else:
            warnings += rewritten
        step(player_key(seat))
    state, events, lang = entry.view(game.board), entry.events(), game.lang
    game.gateway.write(PUBLIC, news.stage_ops(game, state, events, entry.key, formats, entries)
                       + public_correction_ops(game, entry, entries)
                       + deadlines.public_deadline_ops(game, state, game.now(), "resolve"))
    step(PUBLIC)
    emails = [s.email for s in game.cfg.roster]
    done = replace(entry, status=PUBLISHED, undelivered=tuple(sorted(failed.items())))
    final = director_ops(state, events, entry.key, lang, len(game.seats), entry.orders())
    final += _settled(game, [e for e in entries if e.key != entry.key], failed, game.seats)
    due = None if state.over() else stage_key(state.night, state.stage)
    final += table.sheet_ops(game, table.seat_rows(game, state, due, []), due,
                             deadlines.deadline_of(game, due) if due else None)
    roster = layout.roster_rows(state, emails, lang)
    final += [
        SetValues(layout.rng(layout.tab(lang, "roster"), "A2"), roster),
        *_book_ops(game, roster, {s: sh for s, sh in read.items() if s not in failed}),
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
        sheet = read_sheet(game, seat)
        warnings += [sheet.trouble] if sheet.trouble else []
        ops = [] if sheet.trouble else [*sheet.repairs, *_kept_whole(game, seat, sheet, entries, warnings),
                                        *owed_ops(game, seat, entries)]
        why = _write_player(game, seat, ops, warnings, owed(entries, seat), sheet)
        if why is not None:
            failed[seat] = why
    game.gateway.write(DIRECTOR, [*_settled(game, entries, failed, seats), release_op(game.lang)])
    return [game.alias(s) for s in seats if s not in failed], warnings


def _kept_whole(game: Game, seat: int, sheet: SheetOrder, entries: list[Entry], warnings: list[str]) -> list[Op]:
    """What a delivery puts back in the workbook it just read (``upkeep.py``), protected as laid out if it is
    anything (a tab made again)."""
    kept, _told, tab = upkeep_ops(game, seat, sheet, entries, "", warnings)
    return [*kept, *protect_ops(game, seat, entries, tab)] if kept else []
