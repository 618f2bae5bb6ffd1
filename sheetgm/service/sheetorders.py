"""Reading order rows from the players' workbooks and judging them.

One read per player workbook. Problems are collected per player and never
stop the others: a missing workbook or a malformed row reads as "no order"
with a message naming the player, the tab and the cell. A network or quota
failure is different: it passes, so it stops the whole run (nothing is
written) rather than lose an order.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from sheetgm.backends.errors import BackendError, NetworkError, QuotaError
from sheetgm.core.check import Problem, review_order
from sheetgm.core.state import State
from sheetgm.core.steps import Order
from sheetgm.core.texts import render
from sheetgm.notation.orders import parse_order_numbered
from sheetgm.service import layout as L
from sheetgm.service.game import Game, player_key
from sheetgm.service.stages import order_row, stage_key

# Failures that pass: the run stops and is run again, instead of reading the player's order as "nothing".
TRANSIENT = (NetworkError, QuotaError)


@dataclass
class SheetOrder:
    seat: int
    row: int
    text: str = ""
    ticked: bool = False
    stamp: str = ""
    results: list[list[str]] = field(default_factory=list)
    trouble: str = ""  # for the director, in the director's language: why the row could not be used


def orders_range(lang: str, night: int) -> str:
    r = order_row(night)
    return L.rng(L.tab(lang, "orders"), f"A{r}:G{r}")


def results_range(lang: str) -> str:
    return L.rng(L.tab(lang, "results"), "A2:C")


def read_player(game: Game, seat: int, night: int, stage: str, with_orders: bool = True,
                with_results: bool = False) -> SheetOrder:
    """One read of a player's workbook: the order row of ``stage`` (their camp's) and/or the Results tab."""
    lang = game.seat_lang(seat)
    row = order_row(night)
    out = SheetOrder(seat, row)
    ranges = ([orders_range(lang, night)] if with_orders else []) + ([results_range(lang)] if with_results else [])
    try:
        got = game.gateway.read(player_key(seat), ranges)
    except TRANSIENT:
        raise  # a network or quota failure must not turn an order into "do nothing": the run stops, rerun it
    except BackendError as exc:
        out.trouble = render(game.lang, "svc.player_unreadable", alias=game.alias(seat), seat=seat,
                             reason=exc.message(game.lang))
        return out
    out.results = got[ranges[-1]] if with_results else []
    if not with_orders:
        return out
    cells = (got[ranges[0]] or [[]])[0]
    cells = list(cells) + [""] * (7 - len(cells))
    key = stage_key(night, stage)
    where = f"{L.tab(lang, 'orders')}!A{row}"
    if cells[L.O_STAGE].strip() and cells[L.O_STAGE].strip() != key:
        out.trouble = render(game.lang, "svc.bad_row", alias=game.alias(seat), cell=where,
                             found=cells[L.O_STAGE], want=key)
        return out
    out.text = cells[L.O_TEXT].strip()
    out.ticked = cells[L.O_TICK].strip() in L.TICKS
    out.stamp = cells[L.O_STAMP].strip()
    return out


@dataclass
class Judged:
    order: Order  # the order to use: nothing when the text could not be read
    problems: list[str]  # every problem, in the language asked for
    notes: list[str]  # steps that depend on what the night brings (not problems, RUL-27)
    bad: bool  # the text could not be read (→ do nothing)


def review(state: State, seat: int, text: str, lang: str) -> Judged:
    """An order's text judged against what its player knows, in ``lang``; steps numbered as written."""
    p = state.players.get(seat)
    parsed = parse_order_numbered(text, camp=p.camp if p is not None else None)
    checked = review_order(state, seat, parsed.order)

    def as_written(x: Problem) -> str:
        numbers = parsed.written_day if x.day else parsed.written
        if x.step is None or not 0 < x.step <= len(numbers):
            return x.message(lang)
        return replace(x, step=numbers[x.step - 1], day=False).message(lang)

    problems = [e.message(lang) for e in parsed.errors] + [as_written(x) for x in checked.problems]
    notes = [as_written(n) for n in checked.notes]
    return Judged(Order() if parsed.errors else parsed.order, problems, notes, bool(parsed.errors))


def judge(state: State, seat: int, text: str, lang: str) -> tuple[Order, list[str], bool]:
    """The order to use, every problem in ``lang``, and whether the text could not be read (→ do nothing)."""
    j = review(state, seat, text, lang)
    return j.order, j.problems, j.bad


def priority(orders: dict[int, SheetOrder]) -> list[int]:
    """R-PHASE-3: seats by the time their order was first seen complete; unstamped ones follow by seat."""
    stamped = sorted((o.stamp, s) for s, o in orders.items() if o.stamp)
    return [s for _, s in stamped]
