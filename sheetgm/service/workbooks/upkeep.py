"""Keeping a player's workbook whole while the tool writes it (RUL-45 to RUL-48): every stage row there,
the Results tab there, its protections in force, and the cell that says whose workbook it is.

Each use is planned from the workbook as just read (``sheetorders.read_sheet``) and the journal, and
written with the rest of the stage in one write: a stage row that is gone is written again from the
record into an empty row, a Results tab renamed or deleted is made again (its reports follow as missing
rows), the protections are put back as the layout has them (so a wiped hidden tab or a lifted protection
is restored), and a workbook without an identity gets one.
"""

from __future__ import annotations

from collections.abc import Sequence

from sheetgm.backends.port import AddTab, Op, SetNote
from sheetgm.core.texts import render
from sheetgm.service.game import Game
from sheetgm.service.ledger.journal import SUPERSEDED, Entry
from sheetgm.service.ledger.stamps import FALLBACK, LATE, SEEN
from sheetgm.service.timing.deadlines import local_time
from sheetgm.service.workbooks.sheetorders import SheetOrder, identity_ops
from sheetgm.sheets import layout, rows
from sheetgm.sheets.archive import ArchivedOrder
from sheetgm.sheets.stages import SETUP_KEY, order_row, parse_key


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


def stage_rows(game: Game, seat: int, entries: Sequence[Entry], skip: str = "") -> list[tuple[str, int, list[str]]]:
    """The seat's row of every live resolved stage but ``skip``, as the record has it: (key, its row, A to G)."""
    out = []
    for e in entries:
        if e.status == SUPERSEDED or e.kind != "stage" or e.key in (SETUP_KEY, skip):
            continue
        info = e.orders().get(seat)
        if info is None:
            continue
        status, problems = order_status(game, seat, info, e.time)
        row = info.row or order_row(parse_key(e.key)[0])
        tick = "✓" if info.ticked else ""
        shown = local_time(game, info.stamp, game.seat_lang(seat)) if info.stamp else ""  # column F as `check` shows
        out.append((e.key, row, [e.key, info.text, tick, status, "\n".join(problems), shown, ""]))
    return out


def upkeep_ops(game: Game, seat: int, sheet: SheetOrder, entries: Sequence[Entry], skip: str,
               warnings: list[str]) -> tuple[list[Op], list[str], list[list[str]]]:
    """What keeps the workbook whole, planned from ``sheet`` as read: the writes, what the player is told
    (their language) and the Orders tab as it is after them. The director is told in ``warnings``."""
    lang = game.seat_lang(seat)
    ops: list[Op] = [*identity_ops(game, seat, sheet)]
    if sheet.results_missing:
        results = layout.tab(lang, "results")
        ops += [AddTab(results), *layout.header_ops(results, layout.headers(lang, "results"), layout.RESULTS_WIDTHS),
                SetNote(layout.rng(results, "B1"), render(lang, "sheet.note.results"))]
    restored, placed, tab = rows.restore(sheet.tab, stage_rows(game, seat, entries, skip), lang)
    ops += restored
    orders = layout.tab(lang, "orders")
    told = [render(lang, "sheet.rows.restored", key=key, row=r) for key, r in placed]
    warnings += [render(game.voice, "svc.rows", alias=game.alias(seat), tab=orders,
                        note=render(game.voice, "sheet.rows.restored", key=key, row=r)) for key, r in placed]
    return ops, told, tab
