"""The director workbook's memory as a use case asks it: one read, questions about a stage, and the writes that
record what a run learnt, sent in one call.

A ``Record`` holds what ``stamps.read_desk`` reads (the journal, the lock cells, the Orders archive). A use case
asks it ("which stamps count for this stage?", "what did the last check judge of seat 3?", "has this deadline been
seen pass?") and notes what it learnt ("seat 3 was read at 07:21 and is ok", "these notes were told"); ``ops``
then turns every note into the director workbook's cells (the archive's rows and the Table tab) and ``write``
sends them as one write. What each cell means stays with the module that keeps it: ``journal`` (stage rows),
``stamps`` (columns A-O of the archive), ``checkmemo`` (column P), ``table`` (the Table tab); a use case needs
none of them.
"""

from __future__ import annotations

from datetime import datetime

from sheetgm.backends.port import Op
from sheetgm.core.events import Event
from sheetgm.core.state import State
from sheetgm.service.game import DIRECTOR, Game
from sheetgm.service.ledger import checkmemo, stamps, table
from sheetgm.service.ledger.checkmemo import Memo
from sheetgm.service.ledger.journal import Entry, latest
from sheetgm.service.ledger.stamps import Truth
from sheetgm.sheets.stages import archive_row


class Record:
    """What the director workbook holds for this run, and what the run has noted to add to it."""

    def __init__(self, game: Game, entries: list[Entry], lock: list[str], archive: list[list[str]]) -> None:
        self.game = game
        self.entries = entries
        self.lock = lock
        self.archive = archive
        self._seats = len(game.seats)
        self._ops: list[Op] = []
        self._reads: dict[str, dict[int, tuple[str, str]]] = {}
        self._seen: dict[str, dict[int, Truth]] = {}
        self._table: tuple[State, str, datetime | None] | None = None

    @classmethod
    def read(cls, game: Game) -> Record:
        """One read of the director workbook."""
        return cls(game, *stamps.read_desk(game))

    # -- the journal -------------------------------------------------------------------------------------

    @property
    def latest(self) -> Entry:
        return latest(self.entries)

    def state(self) -> State:
        """The state after the latest live stage."""
        return self.latest.state(self.game.board)

    def last_events(self) -> list[Event]:
        return self.latest.events()

    def archived_texts(self, seat: int) -> dict[str, str]:
        """The order text each live, resolved stage used for ``seat`` (a past row edited later is spotted)."""
        return stamps.archived_texts(self.entries, seat)

    def journal_digest(self) -> str:
        return checkmemo.journal_digest(self.entries)

    # -- one stage: the archive's rows -------------------------------------------------------------------

    def passed(self, key: str, deadline: datetime | None, now: datetime) -> bool:
        """Whether ``deadline`` has passed: by the clock, or a run saw this very deadline pass (RUL-52)."""
        return stamps.has_passed(self.archive, key, self._seats, deadline, now)

    def truths(self, key: str) -> dict[int, Truth]:
        """The stamps that count for ``key``, by seat (R-PHASE-3)."""
        return stamps.truths(self.archive, key, self._seats, self.entries)

    def memos(self, key: str) -> dict[int, Memo]:
        """What the last check of ``key`` read and judged of each seat's workbook."""
        return checkmemo.memos(self.archive, key, self._seats)

    def told(self, key: str, seat: int) -> tuple[set[str], set[str]]:
        """The notes already told to ``seat``: (in another stage, in ``key`` itself) (RUL-51)."""
        return stamps.told(self.archive, key, seat, self._seats)

    # -- what a run learnt -------------------------------------------------------------------------------

    def note_told(self, key: str, seat: int, ids: set[str]) -> None:
        self._ops.append(stamps.told_op(self.game, key, seat, ids))

    def note_look(self, key: str, seat: int, now: datetime) -> None:
        """A look at an unchanged workbook (RUL-55), as if it had been read."""
        self._ops.append(checkmemo.look_op(self.game.lang, key, seat, self._seats, now))

    def note_memos(self, key: str, memos: dict[int, Memo]) -> None:
        self._ops += [checkmemo.memo_op(self.game.lang, key, seat, self._seats, m) for seat, m in sorted(memos.items())]

    def note_truths(self, key: str, seen: dict[int, Truth]) -> None:
        if seen:
            self._ops += stamps.truth_ops(self.game, key, seen)
            self._seen.setdefault(key, {}).update(seen)

    def note_passed(self, key: str, deadline: datetime | None, seats: list[int]) -> None:
        self._ops += stamps.passed_ops(self.game, self.archive, key, deadline, seats)

    def note_reads(self, key: str, reads: dict[int, tuple[str, str]], state: State,
                   deadline: datetime | None) -> None:
        """What each seat's row said and when it was read; the director's Table tab follows."""
        if reads:
            self._ops += stamps.read_ops(self.game, key, reads)
            self._reads.setdefault(key, {}).update(reads)
            self._table = (state, key, deadline)

    def ops(self) -> list[Op]:
        """The director workbook's cells for every note, the Table tab last (as the archive will read)."""
        out = list(self._ops)
        if self._table is not None:
            state, key, deadline = self._table
            rows = table.seat_rows(self.game, state, key, self.merged(key))
            out += table.sheet_ops(self.game, rows, key, deadline)
        return out

    def write(self) -> None:
        """Every note in one write (nothing when nothing was noted)."""
        ops = self.ops()
        if ops:
            self.game.gateway.write(DIRECTOR, ops)
        self._ops, self._table = [], None

    def merged(self, key: str) -> list[list[str]]:
        """The Orders archive's rows as they are once this run's reads and stamps of ``key`` are written."""
        rows = [list(r) for r in self.archive]
        reads, seen = self._reads.get(key, {}), self._seen.get(key, {})
        for seat, (verdict, when) in reads.items():
            i = archive_row(key, seat, self._seats) - 2
            while len(rows) <= i:
                rows.append([])
            cells = rows[i] + [""] * (stamps.COLS - len(rows[i]))
            cells[0], cells[13], cells[14] = key, verdict, when
            t = seen.get(seat)
            if t is not None:
                cells[3], cells[5], cells[6] = t.stamped, t.stamp, stamps.fingerprint(t.stamped) if t.stamped else ""
            rows[i] = cells
        return rows
