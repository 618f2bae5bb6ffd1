"""The journal (one row per stage in the director workbook) and the game lock.

A row holds everything needed to publish its stage again without resolving
it again: the state after the stage, its events and the orders used. Big
JSON is stored zlib-compressed in base64 behind a ``z:`` prefix, to stay
far below the 50,000 characters a Google cell holds.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
import zlib
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sheetgm.backends.port import SetValues
from sheetgm.core.board import Board
from sheetgm.core.events import Event
from sheetgm.core.state import State
from sheetgm.service import layout as L
from sheetgm.service.errors import LockedError, ServiceError
from sheetgm.service.game import DIRECTOR, Game
from sheetgm.service.stages import journal_row, stage_index

RESOLVED, PUBLISHED, SUPERSEDED = "resolved", "published", "superseded"
COMPRESS_OVER = 4000
LOCK_TTL = timedelta(minutes=15)
# Desk entries (director overrides and cards, between stages) are journaled with a key
# "<stage>+<kind>-<n>": <stage> is the stage they follow, <n> counts desk entries over the
# whole game. Their rows sit below every stage row, inside Google's default 1000-row grid.
DESK_FIRST_ROW = 501
DESK_KINDS = ("override", "card")
_DESK_RE = re.compile(r"^(N[0-9]{1,3}-(?:survivor|hunter|setup))\+(override|card)-([0-9]{1,3})$")


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
    if text.startswith("z:"):
        text = zlib.decompress(base64.b64decode(text[2:])).decode("utf-8")
    return json.loads(text)


def digest(data: Any) -> str:
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class Entry:
    key: str
    status: str
    orders_hash: str
    state_hash: str
    seed: int
    time: str
    state_json: str
    events_json: str
    orders_json: str
    note: str = ""  # why a superseded row was rolled back (sheetgm rollback --reason)

    def state(self, board: Board) -> State:
        return State.from_dict(unpack(self.state_json), board)

    def events(self) -> list[Event]:
        return [Event.from_dict(d) for d in unpack(self.events_json)] if self.events_json else []

    def orders(self) -> dict[int, dict[str, Any]]:
        """seat -> {"text", "used", "problems", "stamp"} as archived at resolve."""
        return {int(k): v for k, v in unpack(self.orders_json).items()} if self.orders_json else {}

    def row(self) -> tuple[str, ...]:
        return (self.key, self.status, self.orders_hash, self.state_hash, str(self.seed), self.time,
                self.state_json, self.events_json, self.orders_json, self.note)

    @property
    def kind(self) -> str:
        """"stage", or a desk kind ("override", "card")."""
        desk = split_desk_key(self.key)
        return desk[1] if desk else "stage"

    def op(self, lang: str) -> SetValues:
        r = entry_row(self.key)
        return SetValues(L.rng(L.tab(lang, "journal"), f"A{r}:J{r}"), (self.row(),))

    def with_status(self, status: str) -> Entry:
        return replace(self, status=status)


def parse_entries(rows: list[list[str]], lang: str) -> list[Entry]:
    """Journal rows (header excluded) → entries, in stage order; a broken row is reported by its cell."""
    out = []
    for i, raw in enumerate(rows, 2):
        if not raw or not raw[0]:
            continue
        cells = list(raw) + [""] * (10 - len(raw))
        try:
            out.append(Entry(cells[0], cells[1], cells[2], cells[3], int(cells[4] or 0), *cells[5:10]))
        except ValueError:
            raise ServiceError("err.svc.journal_row", tab=L.tab(lang, "journal"), row=i) from None
    if any(split_desk_key(e.key) for e in out):  # desk rows sit below the stage rows: put them in play order
        out.sort(key=lambda e: entry_order(e.key))
    return out


def latest(entries: list[Entry]) -> Entry:
    live = [e for e in entries if e.status != SUPERSEDED]
    if not live:
        raise ServiceError("err.svc.no_journal")
    return live[-1]


def journal_range(lang: str) -> str:
    return L.rng(L.tab(lang, "journal"), "A2:J")


def lock_range(lang: str) -> str:
    return L.rng(L.tab(lang, "lock"), "A2:C2")


def read_director(game: Game) -> tuple[list[Entry], list[str]]:
    """One read of the director workbook: the journal and the lock cells."""
    lang = game.lang
    got = game.gateway.read(DIRECTOR, [journal_range(lang), lock_range(lang)])
    lock = list((got[lock_range(lang)] or [[]])[0])
    return parse_entries(got[journal_range(lang)], lang), lock


def lock_is_free(game: Game, cells: list[str]) -> bool:
    cells = cells + [""] * (3 - len(cells))
    if not cells[0]:
        return True
    try:
        since = datetime.fromisoformat(cells[2])
    except (IndexError, ValueError):
        return True
    return game.now() - since > LOCK_TTL


def take_lock(game: Game, cells: list[str], holder: str) -> str:
    """Write our token into the lock, then read it back: only one of two racing runs sees its own token."""
    cells = cells + [""] * (3 - len(cells))
    if not lock_is_free(game, cells):
        raise LockedError(holder=cells[1] or "?", since=cells[2] or "?")
    token = secrets.token_hex(8)
    lang = game.lang
    try:
        game.gateway.write(DIRECTOR, [SetValues(lock_range(lang), ((token, holder, game.now().isoformat()),))])
        back = (game.gateway.read(DIRECTOR, [lock_range(lang)])[lock_range(lang)] or [[]])[0]
    except BaseException:
        # The write may have landed (a lost reply) though we cannot confirm it: free the lock again,
        # or every run would be refused until it expires.
        try_release(game)
        raise
    if not back or back[0] != token:
        raise LockedError(holder=back[1] if len(back) > 1 else "?", since=back[2] if len(back) > 2 else "?")
    return token


def release_op(lang: str) -> SetValues:
    return SetValues(lock_range(lang), (("", "", ""),))


def try_release(game: Game) -> None:
    """Free the lock after a failed run, if the workbook can still be written."""
    try:
        game.gateway.write(DIRECTOR, [release_op(game.lang)])
    except Exception:  # noqa: BLE001 - the lock also expires by itself (LOCK_TTL)
        pass
