"""Publishing a journaled stage: one write per workbook, every cell keyed by the stage.

Publishing reads nothing and resolves nothing: it renders the journal entry.
So a run that died half-way is completed by running it again, and a repeat
writes the same cells with the same values.
"""

from __future__ import annotations

from collections.abc import Callable

from sheetgm.backends.errors import AccessError, MissingWorkbookError
from sheetgm.backends.port import Op, SetValues
from sheetgm.core.texts import render
from sheetgm.service import layout as L
from sheetgm.service import playersheet as P
from sheetgm.service.game import DIRECTOR, PUBLIC, Game, player_key
from sheetgm.service.journal import PUBLISHED, SUPERSEDED, Entry, release_op
from sheetgm.service.publicsheet import director_ops, public_ops
from sheetgm.service.rollback import public_correction_ops, report_text
from sheetgm.service.sheetorders import SheetOrder
from sheetgm.service.stagemap import write_stage_map
from sheetgm.service.stages import key_of_index, log_row, order_row, parse_key

UNREACHABLE = (MissingWorkbookError, AccessError)


def order_status(game: Game, seat: int, info: dict[str, object], when: str) -> tuple[str, list[str]]:
    lang = game.seat_lang(seat)
    problems = [str(x) for x in info.get("problems", [])]  # type: ignore[attr-defined]
    if info.get("verdict") == "late":
        return render(lang, "sheet.status.late_used_nothing", time=when), problems
    if info.get("bad"):
        return render(lang, "sheet.status.unreadable_used_nothing", time=when), problems
    if not info.get("text"):
        return render(lang, "sheet.status.none_used", time=when), problems
    used = str(info.get("used", ""))
    key = "sheet.status.resolved" if info.get("ticked") else "sheet.status.resolved_unticked"
    if info.get("verdict") == "fallback":
        key = "sheet.status.resolved_fallback"
    return render(lang, key, time=when, used=used, stamp=str(info.get("stamp", ""))), problems


def boards_changed(entry: Entry, entries: list[Entry], game: Game) -> bool:
    """Whether a board went up or down in this stage (then the map borders are redrawn)."""
    before = [e for e in entries if e.key != entry.key and e.status != "superseded"]
    if not before:
        return True
    return before[-1].state(game.board).boards != entry.state(game.board).boards


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


def player_ops(game: Game, entry: Entry, seat: int, entries: list[Entry], sheet: SheetOrder | None,
               warnings: list[str], formats: bool = True) -> list[Op]:
    lang = game.seat_lang(seat)
    state, events = entry.state(game.board), entry.events()
    night, _stage = parse_key(entry.key)
    ops: list[Op] = list(sheet.repairs) if sheet is not None else []  # the tool's own cells (rows.py)
    ops.append(P.results_op(lang, entry.key, report_text(game, entry, entries, seat, lang)))
    info = entry.orders().get(seat)
    if info is not None:
        status, problems = order_status(game, seat, info, entry.time[:16].replace("T", " "))
        row = int(str(info.get("row") or order_row(night)))  # the row its label was found in at resolve
        ops += [P.status_op(lang, row, status, problems), P.freeze_op(lang, night, game.editors(), row)]
    if sheet is not None:
        by_key = {e.key: e for e in entries if e.status != SUPERSEDED}
        missing = _missing_rows(sheet.results, entries, entry)
        for row in P.edited_rows(sheet.results) + missing:
            old = by_key.get(key_of_index(row - 1))
            if old is None or old.key == entry.key:
                continue
            text = report_text(game, old, entries, seat, lang)
            ops.append(P.results_op(lang, old.key, text))
            why = "svc.results_missing" if row in missing else "svc.results_edited"
            warnings.append(render(game.lang, why, alias=game.alias(seat), seat=seat,
                                   cell=f"{L.tab(lang, 'results')}!B{row}"))
    ops += P.current_ops(state, seat, lang, events, formats)
    ops += P.history_ops(state, seat, lang, entry.key, events, game.editors())
    ops += P.open_row_ops(state, seat, lang, sheet.tab if sheet is not None and sheet.tab else None)
    return ops


def publish(game: Game, entry: Entry, entries: list[Entry], sheets: dict[int, SheetOrder] | None = None,
            progress: Callable[[str], None] | None = None) -> list[str]:
    """Write every workbook for ``entry``, the director's last (marking it published and freeing the lock)."""
    warnings: list[str] = []
    step = progress or (lambda _key: None)
    formats = boards_changed(entry, entries, game)
    for seat in game.seats:
        ops = player_ops(game, entry, seat, entries, (sheets or {}).get(seat), warnings, formats)
        try:
            game.gateway.write(player_key(seat), ops)
        except UNREACHABLE as exc:
            warnings.append(render(game.lang, "svc.player_unwritable", alias=game.alias(seat), seat=seat,
                                   reason=exc.message(game.lang)))
        step(player_key(seat))
    state, events, lang = entry.state(game.board), entry.events(), game.lang
    game.gateway.write(PUBLIC, public_ops(state, events, entry.key, lang, formats)
                       + public_correction_ops(game, entry, entries))
    step(PUBLIC)
    emails = [s.email for s in game.cfg.roster]
    final = director_ops(state, events, entry.key, lang, len(game.seats), entry.orders())
    final += [
        SetValues(L.rng(L.tab(lang, "roster"), "A2"), L.roster_rows(state, emails, lang)),
        entry.with_status(PUBLISHED).op(lang),
        release_op(lang),
    ]
    game.gateway.write(DIRECTOR, final)
    step(DIRECTOR)
    return warnings + write_stage_map(game, entry)

