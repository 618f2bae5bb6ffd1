"""The director's table: every seat at a glance (director only: it shows roles).

One row per seat: camp, role, language, whether in play, and for the stage due: whether their order is
submitted (ok), written but not ticked, has problems, is empty, came late or could not be read, when the
tool last read it and when it was first seen complete. `sheetgm status` prints it (and ``--json``); the
director workbook keeps the same view in its Table tab, rewritten by each check and each publish (in
the write those make anyway).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sheetgm.backends.port import AddTab, ClearRange, Op, ResizeColumns, SetBold, SetValues
from sheetgm.core.state import State
from sheetgm.core.texts import render
from sheetgm.core.values import Value, asdict, record
from sheetgm.notation.vocab import role_name
from sheetgm.service.game import Game
from sheetgm.service.ledger import stamps
from sheetgm.service.timing import deadlines
from sheetgm.sheets import layout

TAB = "table"  # sheet.tab.table
WIDTHS = (50, 110, 50, 80, 110, 80, 170, 190, 190)
LAST_ROW = 60  # the rows the tab's write covers: every seat, the heading and the deadline lines


@record(frozen=True)
class SeatRow(Value):
    """One seat's line of the director's table."""

    seat: int
    alias: str
    lang: str
    camp: str
    role: str
    status: str  # in_play | escaped | eliminated | ...
    due: bool  # the stage due waits for this seat's order
    order: str  # ok | unticked | problems | empty | late | unreadable | unread (no check yet) | "" (not due)
    read: str  # when the tool last read the seat's order row (ISO), "" if never this stage
    stamp: str  # when it was first seen complete (ISO), ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def seat_rows(game: Game, state: State, due: str | None, archive: list[list[str]]) -> list[SeatRow]:
    """Every seat's row for the stage ``due`` (None: the game is over, no orders are due)."""
    seats = len(game.seats)
    looked = stamps.reads(archive, due, seats) if due else {}
    stamped = stamps.truths(archive, due, seats, []) if due else {}
    rows = []
    for seat in game.seats:
        p = state.players[seat]
        orders = bool(due) and p.camp == state.stage and p.in_play
        verdict, when = looked.get(seat, ("unread", "") if orders else ("", ""))
        truth = stamped.get(seat)
        rows.append(SeatRow(seat, p.alias, game.seat_lang(seat), p.camp, p.role or "", p.status,
                            orders and deadlines.must_submit(state, seat), verdict if orders else "",
                            when if orders else "", truth.stamp if truth and orders else ""))
    return rows


def cells(game: Game, row: SeatRow, lang: str) -> tuple[str, ...]:
    """A row as the director reads it, in ``lang`` (times in the game's zone)."""
    return (str(row.seat), row.alias, row.lang, render(lang, f"sheet.camp.{row.camp}"),
            role_name(row.role, lang) if row.role else "-", render(lang, f"word.{row.status}"),
            render(lang, f"day.order.{row.order}") if row.order else "-",
            deadlines.local_time(game, row.read, lang, short=True) if row.read else "-",
            deadlines.local_time(game, row.stamp, lang, short=True) if row.stamp else "-")


def heads(lang: str) -> tuple[str, ...]:
    return tuple(render(lang, "day.head.table").split("|"))


def sheet_ops(game: Game, rows: list[SeatRow], due: str | None, deadline: datetime | None) -> list[Op]:
    """The Table tab of the director workbook (added to an older workbook), in the director's language."""
    lang = game.lang
    tab = layout.tab(lang, TAB)
    when = deadlines.local_time(game, deadline, lang) if deadline else render(lang, "day.table.no_deadline")
    top = (render(lang, "day.table.due", stage=due, deadline=when) if due else render(lang, "cli.over"),
           render(lang, "day.table.written", time=deadlines.local_time(game, game.now(), lang)))
    body = [top[:1] + ("",) * 8, top[1:] + ("",) * 8, ("",) * 9, heads(lang)]
    body += [cells(game, r, lang) for r in rows]
    last = max(LAST_ROW, len(body))  # a roster longer than the tab's usual rows (100 players) is written whole
    body += [("",) * 9] * (last - len(body))  # clears the rows of seats a shorter roster no longer has
    ops: list[Op] = [AddTab(tab), SetValues(layout.rng(tab, f"A1:I{last}"), tuple(body)),
                     ClearRange(layout.rng(tab, f"A{last + 1}:I")),  # what a longer table left below
                     SetBold(layout.rng(tab, "A1:I1")), SetBold(layout.rng(tab, "A4:I4"))]
    return ops + [ResizeColumns(layout.rng(tab, f"{layout.col(i)}:{layout.col(i)}"), w) for i, w in enumerate(WIDTHS)]
