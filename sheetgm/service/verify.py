"""`sheetgm verify`: replay the game from the journal and say, stage by stage, whether it still holds.

The setup is dealt again from the config's seed; every live stage is resolved
again from the state before it with its archived orders (the director's Orders
archive tab, as a person reads it) and the seed of game.toml (the engine draws
each stage's dice from it, the night and the stage: ``core.resolve.stage_rng``);
every desk entry (override, card) is applied again. Each result, state and
events together, is compared with the hash in the journal.

Besides the replay, each row is checked on its own: a seed that is not
game.toml's, a state or events JSON that no longer matches the hash, an orders
hash that no longer matches the orders, an archive row that differs from the
journal's copy of the order, a status that cannot be (unknown, or "resolved"
before the last stage), a row that is not where its stage belongs, a stage
missing from the sequence, a cell that cannot be read, and a superseded row
without its rollback note. When a stage differs, the next one starts from the
journal's state if that is intact, so each stage is judged on its own inputs and
every difference is named by its stage.
"""

from __future__ import annotations

from typing import Any

from sheetgm.core.errors import SheetgmError
from sheetgm.core.events import Event
from sheetgm.core.resolve import StageError, resolve_stage
from sheetgm.core.setup import new_game as deal
from sheetgm.core.state import State
from sheetgm.core.steps import Order
from sheetgm.core.texts import render
from sheetgm.core.values import Value, field, record
from sheetgm.service import desk
from sheetgm.service.errors import ServiceError
from sheetgm.service.game import DIRECTOR, Game
from sheetgm.service.ledger.journal import (
    HISTORY_FIRST_ROW,
    PUBLISHED,
    RESOLVED,
    STATUSES,
    SUPERSEDED,
    Entry,
    digest,
    entry_hash,
    entry_row,
    journal_range,
    scan_entries,
)
from sheetgm.service.ledger.verdicts import nothing_used
from sheetgm.service.workbooks.sheetorders import judge, priority
from sheetgm.sheets import layout
from sheetgm.sheets.stages import SETUP_KEY, key_of_index, stage_index

OK = "ok"


@record(frozen=True)
class Problem(Value):
    code: str  # replay | replay_failed | state_json | events_json | orders_hash | archive | archive_missing |
    # seed | status | rollback_note | row | missing | duplicate | cell
    message: str  # in the director's language


@record
class StageCheck:
    stage: str  # the journal key
    kind: str  # "setup", "stage", a desk kind ("override", "card"), "superseded", or "row" (unreadable)
    journal_hash: str
    replay_hash: str = ""
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {"stage": self.stage, "kind": self.kind, "ok": self.ok, "journal_hash": self.journal_hash,
                "replay_hash": self.replay_hash,
                "problems": [{"code": p.code, "message": p.message} for p in self.problems]}


@record
class VerifyReport:
    stages: list[StageCheck]
    skipped: list[str]  # superseded journal keys, not replayed

    @property
    def ok(self) -> bool:
        return all(s.ok for s in self.stages)

    @property
    def differing(self) -> list[str]:
        return [s.stage for s in self.stages if not s.ok]

    @property
    def first_difference(self) -> str | None:
        bad = self.differing
        return bad[0] if bad else None

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "first_difference": self.first_difference, "differing": self.differing,
                "skipped": self.skipped, "stages": [s.to_dict() for s in self.stages]}


def archive_range(lang: str) -> str:
    return layout.rng(layout.tab(lang, "archive"), "A2:F")


def parse_archive(rows: list[list[str]]) -> dict[tuple[str, int], str]:
    """(stage key, seat) -> the order text in the director's Orders archive tab."""
    out: dict[tuple[str, int], str] = {}
    for raw in rows:
        cells = list(raw) + [""] * (6 - len(raw))
        try:
            seat = int(cells[1])
        except ValueError:
            continue
        if cells[0]:
            out[(cells[0].strip(), seat)] = cells[3]
    return out


def verify(game: Game) -> VerifyReport:
    lang = game.lang
    got = game.gateway.read(DIRECTOR, [journal_range(lang), archive_range(lang)])
    entries, broken = scan_entries(got[journal_range(lang)])
    archive = parse_archive(got[archive_range(lang)])
    live = [e for e in entries if e.status != SUPERSEDED]
    skipped = [e.key for e in entries if e.status == SUPERSEDED]
    if not live or live[0].key != SETUP_KEY:
        if not broken:
            raise ServiceError("err.svc.no_journal")
        raise broken[0]
    check, base = _setup(game, live[0])
    checks = [check]
    for entry in live[1:]:
        check, replayed = _entry(game, base, entry, archive)
        checks.append(check)
        stored = _stored(game, entry, check, replayed)
        base = stored if stored is not None else (replayed[0] if replayed else base)
    _rows(game, live, checks)
    for e in entries:
        if e.status == SUPERSEDED and not e.note.strip():
            checks.append(StageCheck(e.key, "superseded", e.state_hash,
                                     problems=[_problem(game, "rollback_note", row=e.where)]))
    for err in broken:
        stage = str(err.params.get("stage", "?"))
        checks.append(StageCheck(stage, "row", "", problems=[Problem("cell", err.message(game.voice))]))
    return VerifyReport(checks, skipped)


def _problem(game: Game, code: str, **params: Any) -> Problem:
    return Problem(code, render(game.voice, f"replay.verify.{code}", **params))


def _rows(game: Game, live: list[Entry], checks: list[StageCheck]) -> None:
    """What each live row must be, apart from its replay: its status, its place, and no stage missing before it."""
    last = live[-1]
    seen: set[str] = set()
    stages = [e for e in live if e.kind == "stage"]
    for e, check in zip(live, checks, strict=True):
        if e.status not in STATUSES or (e.status == RESOLVED and e is not last) or (
                e.status == PUBLISHED and e.where >= HISTORY_FIRST_ROW):
            check.problems.append(_problem(game, "status", status=e.status, row=e.where))
        if e.where < HISTORY_FIRST_ROW and e.where != entry_row(e.key):
            check.problems.append(_problem(game, "row", row=e.where, want=entry_row(e.key)))
        if e.key in seen:
            check.problems.append(_problem(game, "duplicate", row=e.where))
        seen.add(e.key)
    for before, e in zip(stages, stages[1:], strict=False):
        gap = [key_of_index(i) for i in range(stage_index(before.key) + 1, stage_index(e.key))]
        if gap:
            checks[live.index(e)].problems.append(_problem(game, "missing", stages=", ".join(gap)))


def _seed(game: Game, entry: Entry, check: StageCheck) -> None:
    if entry.seed != game.cfg.seed:
        check.problems.append(_problem(game, "seed", got=entry.seed, want=game.cfg.seed))


def _setup(game: Game, entry: Entry) -> tuple[StageCheck, State]:
    cfg = game.cfg
    dealt = deal(game.board, game.seat_specs(), cfg.seed, cfg.options, cfg.role_pool)
    check = StageCheck(entry.key, "setup", entry.state_hash, entry_hash(dealt, []))
    _seed(game, entry, check)
    if check.replay_hash != entry.state_hash:
        check.problems.append(_problem(game, "replay", got=check.replay_hash, want=entry.state_hash))
    stored = _stored(game, entry, check, (dealt, []))
    return check, stored if stored is not None else dealt


def _stored(game: Game, entry: Entry, check: StageCheck, replayed: tuple[State, list[Event]] | None
            ) -> State | None:
    """The journal's state of ``entry`` if it and the events still match their hash (a problem is noted if
    not). When the stored state is the replayed one, only the events (or the hash itself) can differ."""
    try:
        state = entry.state(game.board)
        events = entry.events()
    except SheetgmError as exc:
        check.problems.append(Problem("cell", exc.message(game.voice)))
        return None
    if entry_hash(state, events) == entry.state_hash:
        return state
    if replayed is not None and state.digest() == replayed[0].digest():
        if [e.to_dict() for e in events] != [e.to_dict() for e in replayed[1]]:
            check.problems.append(_problem(game, "events_json", hash=entry.state_hash))
        return state  # the state is intact: an edited hash is named by the replay
    check.problems.append(_problem(game, "state_json", hash=entry.state_hash))
    return None


def _entry(game: Game, base: State, entry: Entry, archive: dict[tuple[str, int], str]
           ) -> tuple[StageCheck, tuple[State, list[Event]] | None]:
    check = StageCheck(entry.key, entry.kind, entry.state_hash)
    _seed(game, entry, check)
    try:
        if entry.kind == "stage":
            new, events = _replay_stage(game, base, entry, archive, check)
        else:
            if digest(desk.actions_of(entry)) != entry.orders_hash:
                check.problems.append(_problem(game, "orders_hash", hash=entry.orders_hash))
            new, events = desk.replay(base, entry)
    except (SheetgmError, StageError, ValueError, KeyError, TypeError) as exc:
        detail = exc.message(game.voice) if isinstance(exc, SheetgmError) else f"{type(exc).__name__}: {exc}"
        check.problems.append(_problem(game, "replay_failed", detail=detail))
        return check, None
    check.replay_hash = entry_hash(new, events)
    if check.replay_hash != entry.state_hash:
        check.problems.insert(0, _problem(game, "replay", got=check.replay_hash, want=entry.state_hash))
    return check, (new, events)


def _replay_stage(game: Game, base: State, entry: Entry, archive: dict[tuple[str, int], str],
                  check: StageCheck) -> tuple[State, list[Event]]:
    """Resolve the stage again the way ``resolve.read_orders`` fed it, from the archived texts."""
    journal = entry.orders()
    if digest({s: a.text for s, a in journal.items()}) != entry.orders_hash:
        check.problems.append(_problem(game, "orders_hash", hash=entry.orders_hash))
    orders: dict[int, Order] = {}
    stamps: dict[int, str] = {}
    for seat, info in sorted(journal.items()):
        text = info.text
        archived = archive.get((entry.key, seat))
        known = 1 <= seat <= len(game.seats)
        alias = game.alias(seat) if known else str(seat)
        if archived is None:
            check.problems.append(_problem(game, "archive_missing", alias=alias, seat=seat))
        elif archived.strip() != text:
            check.problems.append(_problem(game, "archive", alias=alias, seat=seat, archived=archived,
                                           journal=text))
            text = archived.strip()
        if text:
            orders[seat] = judge(base, seat, text, game.seat_lang(seat) if known else game.lang)[0]
        elif nothing_used(info):  # a late order: an empty one, so the engine did not say "no order" (RUL-50)
            orders[seat] = Order()
        stamps[seat] = info.stamp
    return resolve_stage(base, orders, game.cfg.seed, priority(stamps))
