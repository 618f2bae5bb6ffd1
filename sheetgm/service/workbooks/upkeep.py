"""Keeping a player's workbook whole while the tool writes it (RUL-45 to RUL-48): every stage row there,
every tab of sheetgm's there, its protections in force, and the cell that says whose workbook it is.

Each use is planned from the workbook as just read (``sheetorders.read_sheet``) and the journal, and
written with the rest of the stage in one write: a stage row that is gone is written again from the
record into an empty row, a tab of sheetgm's renamed or deleted is made again with what the tool wrote
there (LibreOffice and Gnumeric do not enforce the workbook's structure lock; a Results tab's reports follow
as missing rows, an Orders tab's stage rows as rows gone), the protections are put back as the layout has
them (so a wiped hidden tab or a lifted protection is restored), and a workbook without an identity gets one.
"""

from __future__ import annotations

from collections.abc import Sequence

from sheetgm.backends.port import AddTab, Op
from sheetgm.core.texts import render
from sheetgm.service.game import Game
from sheetgm.service.ledger.journal import SUPERSEDED, Entry, latest
from sheetgm.service.ledger.stamps import FALLBACK, LATE, SEEN
from sheetgm.service.timing.deadlines import local_time
from sheetgm.service.workbooks.sheetorders import SheetOrder, identity_ops
from sheetgm.sheets import layout, player, rows
from sheetgm.sheets.archive import ArchivedOrder
from sheetgm.sheets.helptab import help_ops
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


def rebuild_ops(game: Game, seat: int, sheet: SheetOrder, entries: Sequence[Entry], skip: str = "") -> list[Op]:
    """sheetgm's tabs gone from the workbook (``sheet.missing``: deleted, or renamed) made again as the tool
    made them, with what it wrote there since: the layout, the player's view, the Map history of every live
    stage but ``skip`` (publishing writes that one), the help. The Orders tab's rows and the Results tab's
    reports follow (``rows.restore``, ``publish.results_repairs``)."""
    if not sheet.missing:
        return []
    lang, editors = game.seat_lang(seat), game.editors()
    state = latest(list(entries)).view(game.board)
    p = state.players[seat]
    ops: list[Op] = []
    for name in sheet.missing:
        tab = layout.tab(lang, name)
        ops.append(AddTab(tab))
        if name == "orders":
            ops += layout.orders_layout(lang, p.camp)
            continue
        if name == "results":
            ops += layout.results_layout(lang)
        elif name == "current":
            ops += player.current_ops(state, seat, lang)
        elif name == "maps":
            for e in entries:
                if e.status != SUPERSEDED and e.kind == "stage" and e.key not in (SETUP_KEY, skip):
                    ops += player.history_ops(e.view(game.board), seat, lang, e.key, e.events(), editors)
        elif name == "help":
            ops += help_ops(lang, p.alias, p.camp, p.role)
    return ops  # protected by the caller's write, which protects every tab (one protection per description)


def protect_ops(game: Game, seat: int, entries: Sequence[Entry], tab: list[list[str]]) -> list[Op]:
    """Every protection of the workbook as laid out, the Orders tab's open at the row due in ``tab`` (the Orders
    tab as it is after the write): for a write that protects nothing else (``publish.deliver``)."""
    lang, editors = game.seat_lang(seat), game.editors()
    state = latest(list(entries)).view(game.board)
    return [*layout.player_protections(lang, editors),
            player.orders_protect(lang, editors, player.next_row(state, seat, tab))]


def upkeep_ops(game: Game, seat: int, sheet: SheetOrder, entries: Sequence[Entry], skip: str,
               warnings: list[str]) -> tuple[list[Op], list[str], list[list[str]]]:
    """What keeps the workbook whole, planned from ``sheet`` as read: the writes, what the player is told
    (their language) and the Orders tab as it is after them. The director is told in ``warnings``."""
    lang = game.seat_lang(seat)
    ops: list[Op] = [*rebuild_ops(game, seat, sheet, entries, skip), *identity_ops(game, seat, sheet)]
    restored, placed, tab = rows.restore(sheet.tab, stage_rows(game, seat, entries, skip), lang)
    ops += restored
    orders = layout.tab(lang, "orders")
    told = [render(lang, "sheet.rows.restored", key=key, row=r) for key, r in placed]
    warnings += [render(game.voice, "svc.rows", alias=game.alias(seat), tab=orders,
                        note=render(game.voice, "sheet.rows.restored", key=key, row=r)) for key, r in placed]
    return ops, told, tab
