"""`sheetgm verify`: replay the game from the journal and say, stage by stage, whether it still holds.

The setup is dealt again from the config and the journal's seed; every live
stage is resolved again from the state before it with its archived orders
(the director's Orders archive tab, as a person reads it) and the seed of its
journal row; every desk entry (override, card) is applied again. Each result
is compared with the state hash in the journal. Superseded rows are skipped.

Besides the replay, a stage is checked for a state JSON that no longer matches
its hash, an orders hash that no longer matches the archived orders, and an
archive row that differs from the journal's copy of the order. When a stage
differs, the next one starts from the journal's state if that is intact, so
each stage is judged on its own inputs and every difference is named.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sheetgm.core.errors import SheetgmError
from sheetgm.core.resolve import StageError, resolve_stage
from sheetgm.core.setup import new_game as deal
from sheetgm.core.state import State
from sheetgm.core.steps import Order
from sheetgm.core.texts import render
from sheetgm.service import desk
from sheetgm.service import layout as L
from sheetgm.service.errors import ServiceError
from sheetgm.service.game import DIRECTOR, Game
from sheetgm.service.journal import SUPERSEDED, Entry, digest, journal_range, parse_entries
from sheetgm.service.sheetorders import judge, priority
from sheetgm.service.stages import SETUP_KEY

OK = "ok"


@dataclass(frozen=True)
class Problem:
    code: str  # replay | replay_failed | state_json | orders_hash | archive | archive_missing
    message: str  # in the director's language


@dataclass
class StageCheck:
    stage: str  # the journal key
    kind: str  # "setup", "stage", or a desk kind ("override", "card")
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


@dataclass
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
    return L.rng(L.tab(lang, "archive"), "A2:F")


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
    entries = parse_entries(got[journal_range(lang)], lang)
    archive = parse_archive(got[archive_range(lang)])
    live = [e for e in entries if e.status != SUPERSEDED]
    skipped = [e.key for e in entries if e.status == SUPERSEDED]
    if not live or live[0].key != SETUP_KEY:
        raise ServiceError("err.svc.no_journal")
    check, base = _setup(game, live[0])
    checks = [check]
    for entry in live[1:]:
        check, replayed = _entry(game, base, entry, archive)
        checks.append(check)
        stored = _stored(game, entry, check)
        base = stored if stored is not None else (replayed or base)
    return VerifyReport(checks, skipped)


def _problem(game: Game, code: str, **params: Any) -> Problem:
    return Problem(code, render(game.lang, f"replay.verify.{code}", **params))


def _setup(game: Game, entry: Entry) -> tuple[StageCheck, State]:
    cfg = game.cfg
    dealt = deal(game.board, game.seat_specs(), entry.seed, cfg.options, cfg.role_pool)
    check = StageCheck(entry.key, "setup", entry.state_hash, dealt.digest())
    if check.replay_hash != entry.state_hash:
        check.problems.append(_problem(game, "replay", got=check.replay_hash, want=entry.state_hash))
    stored = _stored(game, entry, check)
    return check, stored if stored is not None else dealt


def _stored(game: Game, entry: Entry, check: StageCheck) -> State | None:
    """The journal's state of ``entry`` if it still matches its hash (a problem is noted once if not)."""
    try:
        state = entry.state(game.board)
    except (SheetgmError, ValueError, KeyError, TypeError):
        state = None
    if state is not None and state.digest() == entry.state_hash:
        return state
    if not any(p.code == "state_json" for p in check.problems):
        check.problems.append(_problem(game, "state_json", hash=entry.state_hash))
    return None


def _entry(game: Game, base: State, entry: Entry, archive: dict[tuple[str, int], str]
           ) -> tuple[StageCheck, State | None]:
    check = StageCheck(entry.key, entry.kind, entry.state_hash)
    try:
        if entry.kind == "stage":
            new = _replay_stage(game, base, entry, archive, check)
        else:
            if digest(desk.actions_of(entry)) != entry.orders_hash:
                check.problems.append(_problem(game, "orders_hash", hash=entry.orders_hash))
            new = desk.replay(base, entry)[0]
    except (SheetgmError, StageError, ValueError, KeyError, TypeError) as exc:
        detail = exc.message(game.lang) if isinstance(exc, SheetgmError) else f"{type(exc).__name__}: {exc}"
        check.problems.append(_problem(game, "replay_failed", detail=detail))
        return check, None
    check.replay_hash = new.digest()
    if check.replay_hash != entry.state_hash:
        check.problems.insert(0, _problem(game, "replay", got=check.replay_hash, want=entry.state_hash))
    return check, new


def _replay_stage(game: Game, base: State, entry: Entry, archive: dict[tuple[str, int], str],
                  check: StageCheck) -> State:
    """Resolve the stage again the way ``resolve.read_orders`` fed it, from the archived texts."""
    journal = entry.orders()
    if digest({s: a.get("text", "") for s, a in journal.items()}) != entry.orders_hash:
        check.problems.append(_problem(game, "orders_hash", hash=entry.orders_hash))
    orders: dict[int, Order] = {}
    stamps: dict[int, str] = {}
    for seat, info in sorted(journal.items()):
        text = str(info.get("text", ""))
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
        stamps[seat] = str(info.get("stamp", ""))
    return resolve_stage(base, orders, entry.seed, priority(stamps))[0]
