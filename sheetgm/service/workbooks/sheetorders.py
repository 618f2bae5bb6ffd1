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
from pathlib import PurePath

from sheetgm.backends.a1 import parse_range
from sheetgm.backends.errors import BackendError, MissingTabError, NetworkError, QuotaError
from sheetgm.backends.port import AddTab, Op, SetValues
from sheetgm.core.check import Problem, as_written
from sheetgm.core.digests import sha256_hex
from sheetgm.core.preview import Preview, preview
from sheetgm.core.state import State
from sheetgm.core.steps import Order
from sheetgm.core.texts import render
from sheetgm.core.unknowns import WHERE
from sheetgm.core.values import field, record
from sheetgm.notation.orders import parse_order_numbered
from sheetgm.service.game import Game, player_key
from sheetgm.sheets import layout, player
from sheetgm.sheets.limits import MAX_ORDER_CHARS, order_too_long
from sheetgm.sheets.rows import Located, locate
from sheetgm.sheets.seals import identity_of, identity_token
from sheetgm.sheets.stages import order_row, stage_key

PICK_SHOWN = 80  # characters of column G quoted back to the player (a step of the dropdown is far shorter)
# Failures that pass: the run stops and is run again, instead of reading the player's order as "nothing".
TRANSIENT = (NetworkError, QuotaError)


@record
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
    missing: tuple[str, ...] = ()  # sheetgm's tabs gone (layout.PLAYER_TABS names): the tool makes them again
    unread: bool = False  # not read: as the tool left it, known from the journal (publish.known_sheet)

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
        if state == "empty" and self.picked:  # quoted short: the cell may hold anything up to a cell's worth
            step = self.picked if len(self.picked) <= PICK_SHOWN else self.picked[:PICK_SHOWN - 1] + "…"
            return [render(lang, "sheet.explain.picked_only", step=step, row=self.row)]
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
    be used as this seat's). No row is located: for a workbook about to be written, not read for an order.

    A tab of sheetgm's own that is gone (deleted, or renamed: LibreOffice and Gnumeric do not enforce the
    workbook's structure lock) is noted in ``missing`` and made again by the write that follows
    (``upkeep.py``); the order is still read if its tab is there."""
    lang = game.seat_lang(seat)
    out = SheetOrder(seat, 0)
    key = player_key(seat)
    ranges = [orders_range(lang), identity_range(lang), results_range(lang)]
    try:
        got = game.gateway.read(key, ranges)
        present = game.gateway.tabs(key)
    except TRANSIENT:
        raise  # a network or quota failure must not turn an order into "do nothing": the run stops, rerun it
    except MissingTabError:
        got, present = _read_present(game, seat, out, ranges)
        if out.trouble:
            return out
    except BackendError as exc:
        out.trouble = _unreadable(game, seat, exc)
        return out
    out.missing = tuple(name for name in layout.PLAYER_TABS if layout.tab(lang, name) not in present)
    out.results_missing = "results" in out.missing
    out.repairs = [AddTab(layout.tab(lang, name)) for name in out.missing]  # first: every write may need them
    ours = {layout.tab(lang, name) for name in layout.PLAYER_TABS}
    extra = [t for t in present if t not in ours and not t.startswith("_sheetgm")]
    carried = _renamed_orders(game, seat, extra, got, ranges, out) if "orders" in out.missing and extra else ""
    for name in out.missing:
        tab = layout.tab(lang, name)
        how = "renamed" if extra else "deleted"  # a tab of another name is there (its new name?), or none is
        if name == "orders" and carried:
            how, extra = "carried", [carried, *[t for t in extra if t != carried]]
        note = render(lang, f"sheet.protect.tab_{how}", tab=tab, other=extra[0] if extra else "")
        lost = name == "orders" and not carried
        out.notes.append(note + (" " + render(lang, "sheet.protect.order_lost", tab=tab) if lost else ""))
        out.director_notes.append(render(game.voice, f"svc.protect.tab_{how}", alias=game.alias(seat), seat=seat,
                                         tab=tab, other=extra[0] if extra else ""))
    out.results = got.get(ranges[2], [])
    return _take(game, out, got, ranges)


def _renamed_orders(game: Game, seat: int, extra: list[str], got: dict[str, list[list[str]]], ranges: list[str],
                    out: SheetOrder) -> str:
    """The Orders tab under another name (a tab of ``extra`` whose first row is the Orders tab's header): its rows
    and identity taken as the Orders tab's (into ``got``) and copied into the tab made again (``out.repairs``, after
    its AddTab), so that an order typed there is read and kept. "" if none is."""
    lang = game.seat_lang(seat)
    want = [h.strip() for h in layout.headers(lang, "orders")]
    for tab in extra[:3]:  # a player renames one tab, maybe adds one or two: no more reads than that
        head, rest, ident = (layout.rng(tab, a) for a in ("A1:G1", "A2:G", layout.IDENTITY_CELL))
        try:
            found = game.gateway.read(player_key(seat), [head, rest, ident])
        except TRANSIENT:
            raise
        except BackendError:
            continue
        if [c.strip() for c in (found[head] or [[]])[0]] != want:
            continue
        rows = [[*r, *[""] * (7 - len(r))][:7] for r in found[rest]]
        got[ranges[0]], got[ranges[1]] = rows, found[ident]
        orders = layout.tab(lang, "orders")
        if rows:
            out.repairs.append(SetValues(layout.rng(orders, f"A2:G{len(rows) + 1}"), tuple(map(tuple, rows))))
        if found[ident] and found[ident][0]:
            out.repairs.append(SetValues(layout.rng(orders, layout.IDENTITY_CELL), ((found[ident][0][0],),)))
        return tab
    return ""


def _read_present(game: Game, seat: int, out: SheetOrder, ranges: list[str]
                  ) -> tuple[dict[str, list[list[str]]], list[str]]:
    """The ranges of ``ranges`` whose tab is there (the others read as empty), read once a tab was found gone,
    and the tabs there."""
    key = player_key(seat)
    try:
        present = game.gateway.tabs(key)
        there = [r for r in ranges if parse_range(r).tab in present]
        got = game.gateway.read(key, there) if there else {}
    except TRANSIENT:
        raise
    except BackendError as exc:
        out.trouble = _unreadable(game, seat, exc)
        return {}, []
    return {r: got.get(r, []) for r in ranges}, present


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
    where = game.gateway.url(player_key(seat)) or player_key(seat)
    if not sealed:  # made up, or another game's: what it names is not believed
        return render(game.voice, "svc.protect.forged", alias=game.alias(seat), seat=seat, named=key, where=where)
    if key == player_key(seat):
        return ""
    other = int(key.split("-")[1])
    return render(game.voice, "svc.protect.other_seat", alias=game.alias(seat), seat=seat, other=other,
                  other_alias=game.alias(other) if 1 <= other <= len(game.seats) else key, where=where)


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
    for name, note, director in zip(out.missing, out.notes, out.director_notes, strict=False):
        out.said.append((f"{name}_missing:{key}", note, director))  # told once a stage, as every note (RUL-51)
    found: Located = locate(out.tab, key, night, lang, game.voice, dict(archived or {}), game.alias(seat))
    out.row, out.repairs = found.row, [*out.repairs, *found.repairs]
    out.notes += found.notes
    out.director_notes += found.director_notes
    out.said += [(note_id(name, params, out.tab), note, director) for (name, params), note, director
                 in zip(found.said, found.notes, found.director_notes, strict=True)]
    out.tab = found.tab  # as it is once the repairs are written
    for notice in game.gateway.notices(player_key(seat)):  # a copy in another format beside the file (xlsx)
        kind = PurePath(str(notice.params.get("sibling", ""))).suffix or "?"  # the player's words: no path of ours
        out.said.append((f"{notice.code}:{notice.params.get('sibling', '')}",
                         render(lang, "sheet.notice.sibling", kind=kind),
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


@record
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

    night = set(parsed.written)  # (a written step is day or night, never both)

    def said(x: Problem) -> str:
        message = x.message(lang)
        first = failed.get(x.step) if x.step in night and _where(x) else None
        return message if first is None else render(lang, "check.after_failed", message=message, first=first)

    written = as_written(parsed.order, checked)  # numbered as written, a path's repeated problem once (RUL-60)
    problems = [e.message(lang) for e in parsed.errors] + [said(x) for x in written.problems]
    notes = [said(n) for n in written.notes]
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
