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

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from sheetgm.backends.errors import BackendError, MissingTabError, NetworkError, QuotaError
from sheetgm.backends.port import Op
from sheetgm.core.check import Problem
from sheetgm.core.digests import sha256_hex
from sheetgm.core.preview import Preview, preview
from sheetgm.core.state import State
from sheetgm.core.steps import Order
from sheetgm.core.texts import render
from sheetgm.core.unknowns import WHERE
from sheetgm.notation.orders import parse_order_numbered
from sheetgm.service.game import Game, player_key
from sheetgm.sheets import layout, player
from sheetgm.sheets.limits import MAX_ORDER_CHARS, order_too_long
from sheetgm.sheets.rows import Located, locate
from sheetgm.sheets.seals import identity_of, identity_token
from sheetgm.sheets.stages import order_row, stage_key

# Failures that pass: the run stops and is run again, instead of reading the player's order as "nothing".
TRANSIENT = (NetworkError, QuotaError)


@dataclass
class SheetOrder:
    """A player's order as read from their Orders tab, with what was wrong with the sheet."""

    seat: int
    row: int
    text: str = ""
    ticked: bool = False
    stamp: str = ""  # what the player's sheet shows in column F (a display: the truth is in stamps.py)
    results: list[list[str]] = field(default_factory=list)
    trouble: str = ""  # for the director, in the console's language: why the row could not be used
    tab: list[list[str]] = field(default_factory=list)  # the Orders tab from row 2
    notes: list[str] = field(default_factory=list)  # what is wrong in the tab, in the player's language
    director_notes: list[str] = field(default_factory=list)  # the same, in the console's language
    repairs: list[Op] = field(default_factory=list)  # the tool's own cells to write back
    said: list[tuple[str, str, str]] = field(default_factory=list)  # (id, note, director note) of each note
    picked: str = ""  # column G: a step picked from the dropdown (a reference, never the order)
    identity: str = ""  # the identity cell as read ("" if the workbook has none yet)
    results_missing: bool = False  # the Results tab is gone (renamed or deleted): the tool makes it again

    def tab_notes(self, before: set[str], now: set[str]) -> tuple[list[str], list[str], set[str]]:
        """The notes about the Orders tab told once (RUL-51): (for the player, for the director, new ids).

        A note already told in an earlier stage is not told again; one first told in this stage stays in the
        player's status cell for the stage, and the director hears it once."""
        notes: list[str] = []
        director: list[str] = []
        new: set[str] = set()
        for key, note, director_note in self.said:
            if key in before:
                continue
            if note:
                notes.append(note)
            if key not in now and key not in new:
                director.append(director_note)
                new.add(key)
        return notes, director, new

    def explain(self, lang: str, state: str) -> list[str]:
        """What an empty order cell may hide: a step picked in column G only (the order is column B)."""
        if state == "empty" and self.picked:
            return [render(lang, "sheet.explain.picked_only", step=self.picked, row=self.row)]
        return []


def note_id(name: str, params: Mapping[str, object], tab: list[list[str]]) -> str:
    """What makes a note about the Orders tab the same note in a later stage: its kind, the row it names with
    that row's text (a row edited again is a new note) and, for rows moved, how far; not tonight's stage."""
    kept = {k: v for k, v in params.items() if k not in ("key", "due", "want")}
    if name == "moved":
        kept = {"shift": int(str(params["row"])) - int(str(params["want"]))}
    row = params.get("row")
    if name != "moved" and isinstance(row, int) and 0 <= row - 2 < len(tab):
        kept["text"] = tab[row - 2][layout.O_TEXT].strip()
    return fingerprint(name + "|" + "|".join(f"{k}={kept[k]}" for k in sorted(kept)))[:10]


def fingerprint(text: str) -> str:
    return sha256_hex(text.encode("utf-8"))


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
        out.director_notes.append(render(game.voice, "svc.protect.results_missing", alias=game.alias(seat), seat=seat,
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
    return render(game.voice, "svc.player_unreadable", alias=game.alias(seat), seat=seat,
                  reason=exc.message(game.voice))


def identity_problem(game: Game, seat: int, text: str) -> str:
    """Why the workbook of ``seat`` is not that seat's (in the console's language), "" if it is or does not say
    (a workbook made before identities: the tool writes one)."""
    key, sealed = identity_of(text, game.secret(), game.cfg.name)
    if key is None:
        return ""
    if key == player_key(seat) and sealed:
        return ""
    other = int(key.split("-")[1])
    if key != player_key(seat) and 1 <= other <= len(game.seats):
        return render(game.voice, "svc.protect.other_seat", alias=game.alias(seat), seat=seat, other=other,
                      other_alias=game.alias(other), where=game.gateway.url(player_key(seat)) or player_key(seat))
    return render(game.voice, "svc.protect.not_this_game", alias=game.alias(seat), seat=seat,
                  where=game.gateway.url(player_key(seat)) or player_key(seat))


def identity_ops(game: Game, seat: int, sheet: SheetOrder | None) -> list[Op]:
    """The identity cell written where the workbook lacks it (one made before identities, or a cell cleared)."""
    if sheet is None or sheet.trouble or identity_of(sheet.identity, game.secret(), game.cfg.name)[0] is not None:
        return []
    lang = game.seat_lang(seat)
    return [player.identity_op(lang, identity_token(game.secret(), game.cfg.name, player_key(seat)), seat,
                               game.alias(seat))]


def read_player(game: Game, seat: int, night: int, stage: str, archived: Mapping[str, str] | None = None,
                adopted: bool = False) -> SheetOrder:
    """One read of a player's workbook (``read_sheet``) and the row of ``stage`` in it, found by its label.

    ``archived`` maps the seat's earlier stages to the order text used then (from the journal), so a row
    of a past night edited after it was resolved is named (a stale row), never read as tonight's order.
    """
    lang = game.seat_lang(seat)
    out = read_sheet(game, seat)
    out.row = order_row(night)
    if out.trouble:
        return out
    key = stage_key(night, stage)
    if out.results_missing:  # told once a stage, as every note about the tab (RUL-51)
        out.said.append((f"results_missing:{key}", out.notes[-1], out.director_notes[-1]))
    found: Located = locate(out.tab, key, night, lang, game.voice, dict(archived or {}), game.alias(seat))
    out.row, out.repairs = found.row, found.repairs
    out.notes += found.notes
    out.director_notes += found.director_notes
    out.said += [(note_id(name, params, out.tab), note, director) for (name, params), note, director
                 in zip(found.said, found.notes, found.director_notes, strict=True)]
    out.tab = found.tab  # as it is once the repairs are written
    for notice in game.gateway.notices(player_key(seat)):  # a copy in another format beside the file (xlsx)
        out.said.append((f"{notice.code}:{notice.params.get('sibling', '')}", notice.message(lang),
                         render(game.voice, "svc.player_notice", alias=game.alias(seat), seat=seat,
                                notice=notice.message(game.voice))))
    cells = found.cells
    out.picked = cells[layout.O_NEXT].strip()
    out.text = cells[layout.O_TEXT].strip()
    out.ticked = is_tick(cells[layout.O_TICK])
    out.stamp = cells[layout.O_STAMP].strip()
    if not out.ticked and not adopted:  # no order here: saved into a conflict copy or a renamed file instead?
        took, said = copies_said(game, seat)
        if took:
            again = read_player(game, seat, night, stage, archived, adopted=True)
            again.said[:0] = said
            return again
        out.said += said
    return out


def copies_said(game: Game, seat: int) -> tuple[bool, list[tuple[str, str, str]]]:
    """Another file of the seat's workbook in its folder (a sync client's conflict copy, ``03-Ann (1).xlsx``): the
    newest one carrying this seat's seal, if newer than the workbook, becomes the workbook (``adopt``); the notes
    to tell once (id, the player's, the director's): the copy read, the older ones to delete, the ones refused
    (another seat's or a forged seal, unreadable); and whether one was adopted (the workbook is then read again).
    Only looked for when the workbook holds no ticked order for the stage: one folder listing more per such seat."""
    key, lang, voice = player_key(seat), game.seat_lang(seat), game.voice
    try:
        found = game.gateway.copies(key)
    except TRANSIENT:
        raise
    except BackendError:
        return False, []
    said: list[tuple[str, str, str]] = []
    chosen = None
    for copy in found:
        try:
            got = game.gateway.read_copy(key, copy.name, [identity_range(lang)])
        except TRANSIENT:
            raise
        except BackendError as exc:
            said.append((f"copy:{copy.name}:{int(copy.modified)}", render(lang, "sheet.copies.refused", file=copy.name),
                         render(voice, "svc.copies.unreadable", alias=game.alias(seat), seat=seat, file=copy.name,
                                reason=exc.message(voice))))
            continue
        cell = got.get(identity_range(lang)) or [[""]]
        text = cell[0][0] if cell and cell[0] else ""
        whose, sealed = identity_of(text, game.secret(), game.cfg.name)
        if whose != key or not sealed:
            what = render(voice, "svc.copies.other_seat" if whose and sealed else "svc.copies.forged",
                          alias=game.alias(seat), seat=seat, file=copy.name, key=whose or "-")
            said.append((f"copy:{copy.name}:{int(copy.modified)}", render(lang, "sheet.copies.refused", file=copy.name),
                         what))
        elif chosen is None and copy.newer:
            chosen = copy
        else:
            said.append((f"copy:{copy.name}:{int(copy.modified)}", render(lang, "sheet.copies.older", file=copy.name),
                         render(voice, "svc.copies.older", alias=game.alias(seat), seat=seat, file=copy.name)))
    if chosen is None:
        return False, said
    try:
        game.gateway.adopt(key, chosen.name)
    except TRANSIENT:
        raise
    except BackendError as exc:
        said.append((f"copy:{chosen.name}:{int(chosen.modified)}", "", render(
            voice, "svc.copies.unreadable", alias=game.alias(seat), seat=seat, file=chosen.name,
            reason=exc.message(voice))))
        return False, said
    said.insert(0, (f"copy:{chosen.name}:{int(chosen.modified)}", render(lang, "sheet.copies.read", file=chosen.name),
                    render(voice, "svc.copies.read", alias=game.alias(seat), seat=seat, file=chosen.name)))
    return True, said


@dataclass
class Judged:
    """An order reviewed: what to use, its problems, and the notes that are not problems."""

    order: Order  # the order to use: nothing when the text could not be read
    problems: list[str]  # every problem, in the language asked for
    notes: list[str]  # steps that depend on what the night brings (not problems, RUL-27)
    bad: bool  # the text could not be read (→ do nothing)
    preview: Preview | None = None  # what the order will do, step by step, as far as she knows (None: unreadable)


def review(state: State, seat: int, text: str, lang: str, others: Mapping[int, Order] | None = None) -> Judged:
    """An order's text judged against what its player knows, in ``lang``; steps numbered as written.

    ``others``: the other orders of the stage (``orders_of``), of which the checker uses only what they
    address to her (RUL-39)."""
    too_long = order_too_long(text, lang)
    if too_long:  # refused before it is parsed, checked or journaled (limits.py)
        return Judged(Order(), [too_long], [], True)
    formula = formula_problem(text, lang)
    if formula:  # the cell shows a formula's result, not what the player typed
        return Judged(Order(), [formula], [], True)
    p = state.players.get(seat)
    parsed = parse_order_numbered(text, camp=p.camp if p is not None else None)
    seen = preview(state, seat, parsed.order, others)
    checked = seen.review
    moved = {s.number for s in seen.steps if s.path and not s.robot}
    # written step -> the earlier move that fails first (the checker went on as if it had got her there)
    failed = {s.number: s.cancelled_by for s in seen.steps if s.cancelled_by in moved}

    def as_written(x: Problem) -> str:
        numbers = parsed.written_day if x.day else parsed.written
        if x.step is None or not 0 < x.step <= len(numbers):
            return x.message(lang)
        n = numbers[x.step - 1]
        message = replace(x, step=n, day=False).message(lang)
        first = None if x.day or not _where(x) else failed.get(n)
        return message if first is None else render(lang, "check.after_failed", message=message, first=first)

    problems = [e.message(lang) for e in parsed.errors] + [as_written(x) for x in checked.problems]
    notes = [as_written(n) for n in checked.notes]
    return Judged(Order() if parsed.errors else parsed.order, problems, notes, bool(parsed.errors),
                  None if parsed.errors else seen)


def _where(x: Problem) -> bool:
    """A problem that depends on where the piece stands (after a failed move the checker assumes it arrived)."""
    return x.code in WHERE or "tile" in x.params


# What a spreadsheet shows in a cell whose formula failed: Excel and Sheets (#NAME? ...), LibreOffice (Err:508).
_FORMULA_ERROR = re.compile(r"^(#(NAME\?|VALUE!|REF!|N/A|DIV/0!|NULL!|NUM!|ERROR!|SPILL!|CALC!|FIELD!|BLOCKED!"
                            r"|CONNECT!|BUSY!|UNKNOWN!|GETTING_DATA)|Err:\d{3})$", re.IGNORECASE)


def formula_problem(text: str, lang: str) -> str:
    """The problem of an order cell that holds a formula ("=..."; the xlsx reader shows a formula it cannot
    work out as its text) or a formula's error value, in ``lang``; "" for plain text."""
    t = text.strip()
    if t.startswith("="):
        return render(lang, "sheet.explain.formula", text=t[:60])
    if _FORMULA_ERROR.match(t):
        return render(lang, "sheet.explain.formula_error", text=t)
    return ""


def judge(state: State, seat: int, text: str, lang: str, others: Mapping[int, Order] | None = None
          ) -> tuple[Order, list[str], bool]:
    """The order to use, every problem in ``lang``, and whether the text could not be read (→ do nothing)."""
    j = review(state, seat, text, lang, others)
    return j.order, j.problems, j.bad


def orders_of(state: State, texts: Mapping[int, str]) -> dict[int, Order]:
    """The orders the texts of a stage (seat -> text) would have carried out: an unreadable or too long text
    or a formula is none. What the checker passes on to each player's review as the others' orders (RUL-39)."""
    out: dict[int, Order] = {}
    for seat, text in texts.items():
        p = state.players.get(seat)
        if not text or p is None or len(text) > MAX_ORDER_CHARS or formula_problem(text, "en"):
            continue
        parsed = parse_order_numbered(text, camp=p.camp)
        if not parsed.errors:
            out[seat] = parsed.order
    return out


def priority(stamps: Mapping[int, str]) -> list[int]:
    """R-PHASE-3: seats by the time their order was first seen complete; unstamped ones follow by seat."""
    stamped = sorted((stamp, s) for s, stamp in stamps.items() if stamp)
    return [s for _, s in stamped]
