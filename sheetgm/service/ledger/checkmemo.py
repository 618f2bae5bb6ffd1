"""What the last ``check`` of a stage saw of each player's workbook, so that the next reads only what changed.

Kept in column P of the seat's row of the director's Orders archive, read and written with the stamps
(`stamps.read_desk`, `stamps.truth_ops`): it costs no call. Per seat, a compact JSON:

- ``v``: the workbook's revision (`Gateway.revisions`: Drive's version and modification time) listed
  *before* that check read it;
- ``c``: a digest of everything else the verdict depends on: the stage, the journal, the deadline and
  whether it has passed, the seat's stamps, its language and alias, sheetgm's version;
- ``j``: the same with what was read (the row, the order, the tick, what is wrong in the tab);
- ``t``: the time its status cell shows (ISO); ``r`` and ``w``: the verdict and the director's notes;
- ``p``: a digest of the public reminder line written when this memo was (to skip writing it again);
- ``a``: the revision listed again *after* that check wrote, for `waiting` only;
- ``l``: when that check read the workbook (ISO): the listing is trusted for ``FRESH_FOR`` after it;
- ``o``: the order text read (as much as the journal keeps, ``limits.kept_order``: enough to refuse a too long
  one again), which the other seats' reviews are given of this seat's order while its workbook is unchanged
  (RUL-39). ``c`` includes a digest of what the others' orders bring this seat
  (core/others.brought): an edit elsewhere that changes it has this workbook read and judged again.

A memo is one cell: one too long for it (the problems of a long order) is kept without its verdict, so the
workbook is read again next time rather than the whole archive write refused (``Memo.text``).

A later check skips a workbook whose revision and context are unchanged (no read, no write: the verdict
is the memo's). Otherwise it reads it, and if the judgment is the same as last time the status keeps
its time: the cells it would write are those already there, and the Google adapter sends nothing.

Why the revision from *before* the read: an edit made after the listing is either in what was read or
moves the revision again. A check's own write moves the revision too, so the next check reads once more,
finds the same judgment and writes nothing; the one after that skips the workbook.

Drive's listing can lag an edit by minutes (its version and modification time are updated late): a check
that lists during the lag sees the old revision and would skip the workbook, and the next one too while
the lag lasts. So the listing is trusted only ``FRESH_FOR`` after the last read (``l``): a workbook not read
for longer is read whatever the listing says, in a check and in a resolve that waits (``waiting``); after
the deadline every workbook is read anyway. 15 minutes: longer than the lags reported (a few minutes), and
the spacing of the scheduled checks in the hour before a deadline (docs/schedule.md), so an edit is seen by
the second check after it at the latest, while checks run close together (by hand, or a late scheduled run
right before the next) still skip what did not change.

A resolve before the deadline (`waiting`) also trusts ``a``, the revision after the check's own writes:
an edit that slipped in before that second listing can only make it wait one run too long (it never
resolves on a memo: an early resolve reads every order under the lock), where trusting ``a`` in a check
could leave an order unseen before the deadline, and so late.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from sheetgm import __version__
from sheetgm.backends.errors import BackendError
from sheetgm.backends.port import CELL_LIMIT, Op, SetValues
from sheetgm.core import jsontext
from sheetgm.core.digests import sha256_hex
from sheetgm.core.others import brought
from sheetgm.core.state import State
from sheetgm.core.steps import Order
from sheetgm.core.values import asdict, field, record
from sheetgm.service.game import Game, player_key
from sheetgm.service.ledger.journal import Entry
from sheetgm.service.ledger.stamps import Truth, truths
from sheetgm.service.timing import deadlines
from sheetgm.service.workbooks.sheetorders import orders_of
from sheetgm.sheets import layout
from sheetgm.sheets.limits import kept_order
from sheetgm.sheets.stages import archive_row

MEMO_COL = 15  # column P of the Orders archive (0-based): A-O are the stamps' (stamps.COLS)
FORMAT = 2  # bump when what a memo means changes: every check then reads every workbook once
FRESH_FOR = timedelta(minutes=15)  # Drive's listing is trusted this long after a read (see above)


def _digest(*parts: object) -> str:
    text = json.dumps(parts, ensure_ascii=False, sort_keys=True, default=str)
    return sha256_hex(text.encode("utf-8"))[:16]


@record
class Memo:
    """What the last check read and judged of a workbook (short keys: one cell holds it)."""

    v: str = ""
    c: str = ""
    j: str = ""
    t: str = ""
    r: dict[str, Any] = field(default_factory=dict)
    w: list[str] = field(default_factory=list)
    p: str = ""
    a: str = ""
    o: str | None = None
    l: str = ""  # noqa: E741 - one letter, as every key of the memo (one cell holds it)

    def fresh(self, now: datetime) -> bool:
        """Read no longer than ``FRESH_FOR`` ago: Drive's listing may then say whether it changed since. A memo
        without the time (an older sheetgm's), or one read "later" than now (a clock moved back), is not."""
        try:
            read = datetime.fromisoformat(self.l)
            return timedelta(0) <= now - read <= FRESH_FOR
        except (TypeError, ValueError):
            return False

    def text(self, limit: int = CELL_LIMIT) -> str:
        """As the cell keeps it, within ``limit``: the order cut as the journal cuts it and, if the verdict and
        notes still do not fit, without them (then the workbook is read again: the verdict is not kept)."""
        data = asdict(self)
        if data["o"] is not None:
            data["o"] = kept_order(data["o"])
        text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        if len(text) > limit:
            data["r"], data["w"] = {}, []
            text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        return text

    @classmethod
    def parse(cls, text: str) -> Memo | None:
        """None for an empty or damaged cell, whatever a hand put there (the workbook is then read)."""
        try:
            data = jsontext.loads(text, CELL_LIMIT)
            if not all(isinstance(x, (str, int, bool)) or isinstance(x, list) and all(isinstance(y, str) for y in x)
                       for x in dict(data["r"]).values()):
                return None  # a verdict is flat: words, numbers and lists of words
            memo = cls(str(data["v"]), str(data["c"]), str(data["j"]), str(data["t"]), dict(data["r"]),
                       [str(x) for x in data["w"]], str(data.get("p", "")), str(data.get("a", "")),
                       None if data.get("o") is None else str(data["o"]), str(data.get("l", "")))
        except (ValueError, KeyError, TypeError):
            return None
        return memo


def memos(rows: list[list[str]], key: str, seats: int) -> dict[int, Memo]:
    """The memos of stage ``key`` by seat, from the archive's rows as read (from row 2)."""
    out: dict[int, Memo] = {}
    for seat in range(1, seats + 1):
        i = archive_row(key, seat, seats) - 2
        cells = rows[i] if 0 <= i < len(rows) else []
        if len(cells) > MEMO_COL and cells[0].strip() == key and (memo := Memo.parse(cells[MEMO_COL])) is not None:
            out[seat] = memo
    return out


def journal_digest(entries: list[Entry]) -> str:
    return _digest([(e.key, e.status, e.state_hash, e.orders_hash, e.undelivered) for e in entries])


def context(key: str, journal: str, deadline: str, before: bool, truth: Truth | None, lang: str, alias: str,
            must: bool, brought: str = "") -> str:
    t = truth or Truth()
    return _digest(FORMAT, __version__, key, journal, deadline, before, t.stamp, t.stamped.strip(), t.seen, lang,
                   alias, must, brought)


def seat_context(game: Game, key: str, journal: str, deadline: str, before: bool, truth: Truth | None, seat: int,
                 must: bool, brought: str = "") -> str:
    """`context` of a seat of ``game``: its language and the director's, its alias, and ``brought``
    (`brought_digest`)."""
    return context(key, journal, deadline, before, truth, f"{game.seat_lang(seat)}/{game.lang}", game.alias(seat),
                   must, brought)


def brought_digest(state: State, seat: int, others: Mapping[int, Order]) -> str:
    """What the other orders of the stage bring ``seat`` as her review reads them (RUL-39): her judgment depends
    on the others' orders through this alone."""
    return _digest(asdict(brought(state, state.players[seat], others)))


def revisions(game: Game, seats: list[int]) -> dict[str, str]:
    """The seats' workbooks' revisions in one call; none if they cannot be listed (then each is read)."""
    try:
        return game.gateway.revisions([player_key(s) for s in seats])
    except BackendError:
        return {}


def waiting(game: Game, state: State, key: str, entries: list[Entry], rows: list[list[str]],
            deadline: str, before: bool) -> tuple[list[str], list[str]] | None:
    """Who has not submitted, as the last check judged it, and its notes for the director, if that judgment
    still stands: every due workbook unchanged since (one listing) and nothing else changed. None otherwise."""
    due = [s for s in game.seats if state.players[s].camp == state.stage and state.players[s].in_play]
    found = memos(rows, key, len(game.seats))
    if not due or any(s not in found for s in due):
        return None
    if any(found[s].o is None for s in due):
        return None
    now = game.now()
    if any(not found[s].fresh(now) for s in due):  # Drive's listing may lag an edit: read them all
        return None
    revs = revisions(game, due)
    journal, known = journal_digest(entries), truths(rows, key, len(game.seats), entries)
    stage_orders = orders_of(state, {s: found[s].o or "" for s in due})
    names: list[str] = []
    notes: list[str] = []
    for seat in due:
        memo, must = found[seat], deadlines.must_submit(state, seat)
        others = {s: o for s, o in stage_orders.items() if s != seat}
        ctx = seat_context(game, key, journal, deadline, before, known.get(seat), seat, must,
                           brought_digest(state, seat, others))
        rev = revs.get(player_key(seat), "")
        if not rev or rev not in (memo.v, memo.a) or memo.c != ctx:
            return None
        if must and memo.r.get("state") != "ok":
            names.append(game.alias(seat))
        notes += memo.w
    return names, notes


def judgment(ctx: str, row: int, text: str, ticked: bool, notes: list[str]) -> str:
    return _digest(ctx, row, text, ticked, notes)


def reminder(key: str, deadline: str, missing: list[str]) -> str:
    return _digest(key, deadline, missing)


def memo_op(lang: str, key: str, seat: int, seats: int, memo: Memo) -> Op:
    r = archive_row(key, seat, seats)
    return SetValues(layout.rng(layout.tab(lang, "archive"), f"P{r}"), ((memo.text(),),))


def look_op(lang: str, key: str, seat: int, seats: int, now: datetime) -> Op:
    """Column H of the seat's archive row (stamps.Truth.checked): a check looked at the order at ``now``. A workbook
    skipped unchanged was looked at as surely as one read: its order is the one the last read saw."""
    r = archive_row(key, seat, seats)
    return SetValues(layout.rng(layout.tab(lang, "archive"), f"H{r}"), ((now.isoformat(timespec="seconds"),),))
