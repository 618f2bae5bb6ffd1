"""The journal: one row per stage in the director workbook.

A row holds everything needed to publish its stage again without resolving
it again: the state after the stage, its events and the orders used. Big
JSON is stored zlib-compressed in base64 behind a ``z:`` prefix; a value
still longer than ``CHUNK`` characters is split: its cell holds
``+<n>:`` and the first part, and the ``n`` other parts follow in the
row's overflow cells (from column M), so no cell ever exceeds what a cell
holds on any backend (``port.CELL_LIMIT``).

Columns: A key, B status, C orders hash, D hash of the state *and* the
events, E seed, F time, G state, H events, I orders, J note (why a row was
rolled back), K when it was rolled back (history copies only), L reports not
delivered (seat -> why), M... overflow.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections.abc import Sequence
from typing import Any

from sheetgm.backends.a1 import col_letters
from sheetgm.backends.port import CELL_LIMIT, SetValues
from sheetgm.core import jsontext
from sheetgm.core.board import Board
from sheetgm.core.digests import sha256_hex
from sheetgm.core.errors import SheetgmError
from sheetgm.core.events import Event
from sheetgm.core.state import State
from sheetgm.core.values import Value, field, record, replace
from sheetgm.service.errors import ServiceError
from sheetgm.service.game import DIRECTOR, Game
from sheetgm.sheets import layout
from sheetgm.sheets.archive import ArchivedOrder
from sheetgm.sheets.stages import journal_row, key_of_index, parse_key, stage_index

RESOLVED, PUBLISHED, SUPERSEDED = "resolved", "published", "superseded"
STATUSES = (RESOLVED, PUBLISHED, SUPERSEDED)
COMPRESS_OVER = 4000
CHUNK = CELL_LIMIT - 2_767  # characters of packed JSON per cell (30,000): below every backend's cell limit
# Desk entries (director overrides and cards, between stages) are journaled with a key
# "<stage>+<kind>-<n>": <stage> is the stage they follow, <n> counts desk entries over the
# whole game. Their rows sit below every stage row, inside Google's default 1000-row grid.
DESK_FIRST_ROW = 501
HISTORY_FIRST_ROW = 1002  # rollback's copies of superseded stage rows (below the stage and desk rows)
DESK_KINDS = ("override", "card")
_DESK_RE = re.compile(r"^(N[0-9]{1,3}-(?:survivor|hunter|setup))\+(override|card)-([0-9]{1,3})$")
DATA_COLS = {"G": 6, "H": 7, "I": 8}  # state, events, orders: the cells that may overflow
UNDELIVERED_COL, OVERFLOW_COL = 11, 12  # L, M
LAST_COL = "BZ"  # the journal is read up to here: 66 overflow cells of CHUNK characters each
_SPLIT_RE = re.compile(r"^\+([0-9]{1,3}):")


def desk_key(base: str, kind: str, n: int) -> str:
    return f"{base}+{kind}-{n}"


def split_desk_key(key: str) -> tuple[str, str, int] | None:
    """(stage it follows, kind, number) of a desk key; None for a stage key."""
    m = _DESK_RE.match(key)
    return (m.group(1), m.group(2), int(m.group(3))) if m else None


def entry_row(key: str) -> int:
    desk = split_desk_key(key)
    return DESK_FIRST_ROW + desk[2] - 1 if desk else journal_row(key)


def entry_order(key: str) -> tuple[int, int]:
    """Play order: a stage, then the desk entries that follow it in the order they were made."""
    desk = split_desk_key(key)
    return (stage_index(desk[0]), desk[2]) if desk else (stage_index(key), 0)


def pack(data: Any) -> str:
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    if len(text) <= COMPRESS_OVER:
        return text
    return "z:" + base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")


def unpack(text: str) -> Any:
    """A value as ``pack`` wrote it; a cell edited into something else (too deep, a bomb) is a ValueError."""
    if text.startswith("z:"):
        text = jsontext.inflate(base64.b64decode(text[2:], validate=True)).decode("utf-8")
    return jsontext.loads(text)


def digest(data: Any) -> str:
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return sha256_hex(text.encode("utf-8"))[:16]


def entry_hash(state: State, events: Sequence[Event]) -> str:
    """The journal's hash of a stage: its state and its events together, so neither can be edited alone."""
    return digest({"state": state.digest(), "events": [e.to_dict() for e in events]})


def expected_key(row: int) -> str:
    """The stage whose fixed row this is ("" for desk and history rows)."""
    return key_of_index(row - 2) if 2 <= row < DESK_FIRST_ROW else ""


@record(frozen=True)
class Entry(Value):
    """One row of the journal: a stage resolved, its hashes, seed, status and state."""

    key: str
    status: str
    orders_hash: str
    state_hash: str  # entry_hash: the state and the events
    seed: int
    time: str
    state_json: str
    events_json: str
    orders_json: str
    note: str = ""  # why a superseded row was rolled back (sheetgm rollback --reason)
    undelivered: tuple[tuple[int, str], ...] = ()  # (seat, why) whose workbook could not be written
    sheet_row: int = field(default=0, compare=False)  # where it was read from (0: not written yet)

    @property
    def where(self) -> int:
        return self.sheet_row or entry_row(self.key)

    def _data(self, column: str, text: str) -> Any:
        try:
            return unpack(text)
        except (ValueError, zlib.error, binascii.Error) as exc:  # JSON and UTF-8 errors are ValueErrors
            raise self.broken(column, f"{type(exc).__name__}: {str(exc)[:120]}") from None

    def broken(self, column: str, detail: str) -> ServiceError:
        return ServiceError("err.svc.journal_cell", stage=self.key, row=self.where, column=column, detail=detail)

    def state(self, board: Board) -> State:
        """The state after the stage: a new copy at each call (the caller may change it)."""
        return self.view(board).copy()

    def view(self, board: Board) -> State:
        """The state after the stage, parsed once per process and shared by every caller: to read, never to
        change (``state`` gives a copy to change). Publishing reads it for every player's report and tabs: a
        copy each time cost a whole state per player (331 copies of 160 players at 160)."""
        key = (self.state_json, board)
        kept = _STATES.get(key)
        if kept is None:
            data = self._data("G", self.state_json)
            try:
                kept = State.from_dict(data, board)
            except (SheetgmError, KeyError, TypeError, ValueError, AttributeError) as exc:
                detail = exc.message("en") if isinstance(exc, SheetgmError) else f"{type(exc).__name__}: {exc}"
                raise self.broken("G", detail[:160]) from None
            _keep(_STATES, key, kept)
        return kept

    def events(self) -> list[Event]:
        """The stage's events (frozen values, shared between calls; the list is new), parsed once per process."""
        if not self.events_json:
            return []
        kept = _EVENTS.get(self.events_json)
        if kept is None:
            data = self._data("H", self.events_json)
            try:
                kept = tuple(Event.from_dict(d) for d in data)
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                raise self.broken("H", f"{type(exc).__name__}: {exc}") from None
            _keep(_EVENTS, self.events_json, kept)
        return list(kept)

    def orders(self) -> dict[int, ArchivedOrder]:
        """seat -> the order as resolve used it (sheets/archive.py); a desk entry keeps its actions instead.
        Parsed once per process (frozen values; the dict is new): publishing asks once per player."""
        if not self.orders_json:
            return {}
        kept = _ORDERS.get(self.orders_json)
        if kept is None:
            data = self._data("I", self.orders_json)
            if not isinstance(data, dict):
                raise self.broken("I", "not a JSON object")
            try:
                kept = {int(k): ArchivedOrder.from_dict(v) for k, v in data.items()}
            except (TypeError, ValueError) as exc:
                raise self.broken("I", str(exc)) from None
            _keep(_ORDERS, self.orders_json, kept)
        return dict(kept)

    def actions(self) -> list[dict[str, Any]]:
        """The director's actions of a desk entry (kept in the orders column)."""
        data = self._data("I", self.orders_json) if self.orders_json else []
        if not isinstance(data, list):
            raise self.broken("I", "not a JSON list")
        return data

    def row(self, rolled_back: str = "") -> tuple[str, ...]:
        cells = [self.key, self.status, self.orders_hash, self.state_hash, str(self.seed), self.time]
        overflow: list[str] = []
        for text in (self.state_json, self.events_json, self.orders_json):
            parts = [text[i:i + CHUNK] for i in range(0, len(text), CHUNK)] or [""]
            cells.append(parts[0] if len(parts) == 1 else f"+{len(parts) - 1}:{parts[0]}")
            overflow += parts[1:]
        undelivered = json.dumps({str(s): why for s, why in self.undelivered}, ensure_ascii=False)
        cells += [self.note, rolled_back, undelivered if self.undelivered else "", *overflow]
        return tuple(cells)

    def op_at(self, lang: str, row: int, rolled_back: str = "") -> SetValues:
        cells = self.row(rolled_back)
        end = col_letters(len(cells) - 1)
        return SetValues(layout.rng(layout.tab(lang, "journal"), f"A{row}:{end}{row}"), (cells,))

    def op(self, lang: str) -> SetValues:
        return self.op_at(lang, entry_row(self.key))

    @property
    def kind(self) -> str:
        """"stage", or a desk kind ("override", "card")."""
        desk = split_desk_key(self.key)
        return desk[1] if desk else "stage"

    def with_status(self, status: str) -> Entry:
        return replace(self, status=status)


_STATES: dict[tuple[str, Board], State] = {}  # (state cell, board) -> the state it holds
_EVENTS: dict[str, tuple[Event, ...]] = {}  # events cell -> its events
_ORDERS: dict[str, dict[int, ArchivedOrder]] = {}  # orders cell -> its orders (never handed out: copied)
_KEEP = 64  # cells kept: a command publishes a stage or two; a long process (a demo, the tests) starts over


def _keep(store: dict[Any, Any], key: Any, value: Any) -> None:
    if len(store) >= _KEEP:
        store.clear()
    store[key] = value


def _entry(cells: list[str], row: int) -> Entry:
    """One journal row as an Entry; ServiceError naming the row (and its stage) if it cannot be read."""
    cells = cells + [""] * (OVERFLOW_COL - len(cells))
    guess = expected_key(row) or cells[0] or "?"

    def broken(column: str, detail: str) -> ServiceError:
        return ServiceError("err.svc.journal_cell", stage=guess, row=row, column=column, detail=detail)

    if not split_desk_key(cells[0]):
        try:
            parse_key(cells[0])
        except SheetgmError:
            raise broken("A", f"'{cells[0][:40]}' is not a stage") from None
    try:
        seed = int(cells[4] or 0)
    except ValueError:
        raise broken("E", f"'{cells[4][:40]}' is not a number") from None
    overflow = iter(cells[OVERFLOW_COL:])
    data = []
    for column, i in DATA_COLS.items():
        text = cells[i]
        m = _SPLIT_RE.match(text)
        if m:
            rest = [next(overflow, "") for _ in range(int(m.group(1)))]
            if not all(rest):
                raise broken(column, "a part of the value is missing from the overflow cells")
            text = text[m.end():] + "".join(rest)
        data.append(text)
    undelivered: tuple[tuple[int, str], ...] = ()
    if cells[UNDELIVERED_COL] and cells[1] != SUPERSEDED:
        try:
            undelivered = tuple(sorted((int(s), str(w))
                                       for s, w in jsontext.loads(cells[UNDELIVERED_COL]).items()))
        except (ValueError, AttributeError) as exc:
            raise broken("L", f"{type(exc).__name__}: {exc}") from None
    return Entry(cells[0], cells[1], cells[2], cells[3], seed, cells[5], data[0], data[1], data[2], cells[9],
                 undelivered, row)


def scan_entries(rows: list[list[str]]) -> tuple[list[Entry], list[ServiceError]]:
    """Journal rows (header excluded) → the entries in play order, and an error for each row that cannot be read."""
    out, broken = [], []
    for i, raw in enumerate(rows, 2):
        if not raw or not any(raw):
            continue
        try:
            out.append(_entry(list(raw), i))
        except ServiceError as err:
            broken.append(err)
    out.sort(key=lambda e: entry_order(e.key))  # desk rows sit below the stage rows: put them in play order
    return out, broken


def parse_entries(rows: list[list[str]], lang: str) -> list[Entry]:
    """Journal rows (header excluded) → entries, in play order; a broken row is named by its stage and row."""
    entries, broken = scan_entries(rows)
    if broken:
        raise broken[0]
    return entries


def latest(entries: list[Entry]) -> Entry:
    live = [e for e in entries if e.status != SUPERSEDED]
    if not live:
        raise ServiceError("err.svc.no_journal")
    return live[-1]


def journal_range(lang: str) -> str:
    return layout.rng(layout.tab(lang, "journal"), f"A2:{LAST_COL}")


def lock_range(lang: str) -> str:
    return layout.rng(layout.tab(lang, "lock"), "A2:C2")


def release_op(lang: str) -> SetValues:
    return SetValues(lock_range(lang), (("", "", ""),))


def read_director(game: Game) -> tuple[list[Entry], list[str]]:
    """One read of the director workbook: the journal and the lock cells."""
    lang = game.lang
    got = game.gateway.read(DIRECTOR, [journal_range(lang), lock_range(lang)])
    lock = list((got[lock_range(lang)] or [[]])[0])
    return parse_entries(got[journal_range(lang)], lang), lock
