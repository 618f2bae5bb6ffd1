"""Reading order rows from the players' workbooks and judging them.

One read per player workbook: its whole Orders tab, the cell that says
whose workbook it is, and the Results tab. The stage label in column A is
the key of a row, not the row number: a player who inserts or deletes rows
still has their order read, from the row labelled with the due stage
(``rows.py`` finds it, names what is wrong in the tab and repairs the tool's
own cells). Problems are collected per player and never stop the others: a
missing workbook reads as "no order" with a message naming the player, and
so does a file that holds another seat's workbook (never read as this seat).
A Results tab renamed or deleted is noted, and the order is still read. A
network or quota failure is different: it passes, so it stops the whole run
(nothing is written) rather than lose an order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from sheetgm.backends.errors import BackendError, MissingTabError, NetworkError, QuotaError
from sheetgm.backends.port import Op
from sheetgm.core.check import Problem, review_order
from sheetgm.core.state import State
from sheetgm.core.steps import Order
from sheetgm.core.texts import render
from sheetgm.notation.orders import parse_order_numbered
from sheetgm.service.game import Game, player_key
from sheetgm.sheets import layout, player
from sheetgm.sheets.limits import order_too_long
from sheetgm.sheets.rows import Located, locate
from sheetgm.sheets.seals import identity_of, identity_token
from sheetgm.sheets.stages import order_row, stage_key

# Failures that pass: the run stops and is run again, instead of reading the player's order as "nothing".
TRANSIENT = (NetworkError, QuotaError)


@dataclass
class SheetOrder:
    seat: int
    row: int
    text: str = ""
    ticked: bool = False
    stamp: str = ""  # what the player's sheet shows in column F (a display: the truth is in stamps.py)
    results: list[list[str]] = field(default_factory=list)
    trouble: str = ""  # for the director, in the director's language: why the row could not be used
    tab: list[list[str]] = field(default_factory=list)  # the Orders tab from row 2
    notes: list[str] = field(default_factory=list)  # what is wrong in the tab, in the player's language
    director_notes: list[str] = field(default_factory=list)  # the same, in the director's language
    repairs: list[Op] = field(default_factory=list)  # the tool's own cells to write back
    identity: str = ""  # the identity cell as read ("" if the workbook has none yet)
    results_missing: bool = False  # the Results tab is gone (renamed or deleted): the tool makes it again


def is_tick(text: str) -> bool:
    """A submit tick: ✓, ✅, ok, y, yes, 是, 好, TRUE (a checkbox) ... in either language, any case."""
    return text.strip().casefold() in layout.TICKS


def orders_range(lang: str) -> str:
    return layout.rng(layout.tab(lang, "orders"), "A2:G")


def results_range(lang: str) -> str:
    return layout.rng(layout.tab(lang, "results"), "A2:C")


def identity_range(lang: str) -> str:
    return layout.rng(layout.tab(lang, "orders"), layout.IDENTITY_CELL)


def read_sheet(game: Game, seat: int) -> SheetOrder:
    """One read of a player's workbook: its Orders tab, whose it is, its Results tab (``trouble`` if it cannot
    be used as this seat's). No row is located: for a workbook about to be written, not read for an order."""
    lang = game.seat_lang(seat)
    out = SheetOrder(seat, 0)
    ranges = [orders_range(lang), identity_range(lang), results_range(lang)]
    try:
        got = game.gateway.read(player_key(seat), ranges)
    except TRANSIENT:
        raise  # a network or quota failure must not turn an order into "do nothing": the run stops, rerun it
    except MissingTabError as exc:
        if exc.params.get("tab") != layout.tab(lang, "results"):
            out.trouble = _unreadable(game, seat, exc)
            return out
        out.results_missing = True  # the order is still read; the tool makes the tab again
        out.notes.append(render(lang, "sheet.protect.results_missing", tab=layout.tab(lang, "results")))
        out.director_notes.append(render(game.lang, "svc.protect.results_missing", alias=game.alias(seat), seat=seat,
                                         tab=layout.tab(lang, "results")))
        return _read_rest(game, seat, out, ranges[:2])
    except BackendError as exc:
        out.trouble = _unreadable(game, seat, exc)
        return out
    out.results = got[ranges[2]]
    return _take(game, out, got, ranges)


def _read_rest(game: Game, seat: int, out: SheetOrder, ranges: list[str]) -> SheetOrder:
    try:
        got = game.gateway.read(player_key(seat), ranges)
    except TRANSIENT:
        raise
    except BackendError as exc:
        out.trouble = _unreadable(game, seat, exc)
        return out
    return _take(game, out, got, ranges)


def _take(game: Game, out: SheetOrder, got: dict[str, list[list[str]]], ranges: list[str]) -> SheetOrder:
    out.tab = [list(r) + [""] * (7 - len(r)) for r in got[ranges[0]]]
    cell = got[ranges[1]]
    out.identity = cell[0][0] if cell and cell[0] else ""
    wrong = identity_problem(game, out.seat, out.identity)
    if wrong:
        out.trouble, out.tab = wrong, []
    return out


def _unreadable(game: Game, seat: int, exc: BackendError) -> str:
    return render(game.lang, "svc.player_unreadable", alias=game.alias(seat), seat=seat, reason=exc.message(game.lang))


def identity_problem(game: Game, seat: int, text: str) -> str:
    """Why the workbook of ``seat`` is not that seat's (in the director's language), "" if it is or does not say
    (a workbook made before identities: the tool writes one)."""
    key, sealed = identity_of(text, game.secret(), game.cfg.name)
    if key is None:
        return ""
    if key == player_key(seat) and sealed:
        return ""
    other = int(key.split("-")[1])
    if key != player_key(seat) and 1 <= other <= len(game.seats):
        return render(game.lang, "svc.protect.other_seat", alias=game.alias(seat), seat=seat, other=other,
                      other_alias=game.alias(other), where=game.gateway.url(player_key(seat)) or player_key(seat))
    return render(game.lang, "svc.protect.not_this_game", alias=game.alias(seat), seat=seat,
                  where=game.gateway.url(player_key(seat)) or player_key(seat))


def identity_ops(game: Game, seat: int, sheet: SheetOrder | None) -> list[Op]:
    """The identity cell written where the workbook lacks it (one made before identities, or a cell cleared)."""
    if sheet is None or sheet.trouble or identity_of(sheet.identity, game.secret(), game.cfg.name)[0] is not None:
        return []
    lang = game.seat_lang(seat)
    return [player.identity_op(lang, identity_token(game.secret(), game.cfg.name, player_key(seat)), seat,
                               game.alias(seat))]


def read_player(game: Game, seat: int, night: int, stage: str, archived: Mapping[str, str] | None = None
                ) -> SheetOrder:
    """One read of a player's workbook (``read_sheet``) and the row of ``stage`` in it, found by its label.

    ``archived`` maps the seat's earlier stages to the order text used then (from the journal), so a row
    of a past night edited after it was resolved is named (a stale row), never read as tonight's order.
    """
    lang = game.seat_lang(seat)
    out = read_sheet(game, seat)
    out.row = order_row(night)
    if out.trouble:
        return out
    found: Located = locate(out.tab, stage_key(night, stage), night, lang, game.lang, dict(archived or {}),
                            game.alias(seat))
    out.row, out.repairs = found.row, found.repairs
    out.notes += found.notes
    out.director_notes += found.director_notes
    out.tab = found.tab
    cells = found.cells
    out.text = cells[layout.O_TEXT].strip()
    out.ticked = is_tick(cells[layout.O_TICK])
    out.stamp = cells[layout.O_STAMP].strip()
    return out


@dataclass
class Judged:
    order: Order  # the order to use: nothing when the text could not be read
    problems: list[str]  # every problem, in the language asked for
    notes: list[str]  # steps that depend on what the night brings (not problems, RUL-27)
    bad: bool  # the text could not be read (→ do nothing)


def review(state: State, seat: int, text: str, lang: str) -> Judged:
    """An order's text judged against what its player knows, in ``lang``; steps numbered as written."""
    too_long = order_too_long(text, lang)
    if too_long:  # refused before it is parsed, checked or journaled (limits.py)
        return Judged(Order(), [too_long], [], True)
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


def priority(stamps: Mapping[int, str]) -> list[int]:
    """R-PHASE-3: seats by the time their order was first seen complete; unstamped ones follow by seat."""
    stamped = sorted((stamp, s) for s, stamp in stamps.items() if stamp)
    return [s for _, s in stamped]
