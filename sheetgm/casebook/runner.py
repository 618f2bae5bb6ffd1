"""Run one case against the engine and say whether it passed, and why not."""

from __future__ import annotations

import traceback
from collections.abc import Iterable
from typing import Any

from sheetgm.casebook.engine import Engine, default_engine
from sheetgm.casebook.matcher import Scope, match, same
from sheetgm.casebook.model import Case, DirectorAct, Night
from sheetgm.casebook.setup import Names, build_state
from sheetgm.core.errors import CaseError, SheetgmError
from sheetgm.core.state import HUNTER_STAGE, SURVIVOR_STAGE
from sheetgm.core.values import Value, field, record


@record(frozen=True)
class CaseResult(Value):
    case: Case
    passed: bool
    reasons: tuple[str, ...] = ()
    detail: str = ""  # a traceback when the engine crashed

    def line(self) -> str:
        head = f"{'PASS' if self.passed else 'FAIL'} {self.case.id} {self.case.title}"
        if self.passed:
            return head
        return head + "\n" + "\n".join("    " + r.replace("\n", "\n    ") for r in self.reasons)


@record
class StageRun:
    night: int  # index of the case's night
    stage: str
    before: Any
    orders: dict[int, Any]
    after: Any
    events: list[Any]
    director_mark: int = 0  # len(director_events) when the stage ran: a rollback drops the acts after it


@record
class _Run:
    case: Case
    engine: Engine
    names: Names
    state: Any
    runs: list[StageRun] = field(default_factory=list)
    director_events: list[tuple[int, Any]] = field(default_factory=list)  # (night index, event)
    failures: list[str] = field(default_factory=list)


class _Stop(Exception):
    """The case cannot go on (a stage was asked for that the state does not allow)."""


def run_case(case: Case, engine: Engine | None = None) -> CaseResult:
    engine = engine or default_engine()
    try:
        run = _start(case, engine)
        for i, night in enumerate(case.nights):
            _night(run, i, night)
    except CaseError as exc:
        return CaseResult(case, False, (f"case file error: {exc.message('en')}",))
    except SheetgmError as exc:
        return _expected_error(case, exc)
    except _Stop as exc:
        return CaseResult(case, False, (str(exc),))
    except Exception as exc:  # the engine crashed: a failed case, with its traceback
        return CaseResult(case, False, (f"crash: {type(exc).__name__}: {exc}",), traceback.format_exc())
    if case.error:
        return CaseResult(case, False, (f"expected error {case.error}, but nothing was rejected",))
    if case.expect is not None:
        try:
            run.failures += match(case.expect, _scope(run, range(len(case.nights)), None), "expect")
        except CaseError as exc:
            return CaseResult(case, False, (f"case file error: {exc.message('en')}",))
        except _Stop as exc:
            return CaseResult(case, False, (str(exc),))
        except Exception as exc:
            return CaseResult(case, False, (f"crash: {type(exc).__name__}: {exc}",), traceback.format_exc())
    return CaseResult(case, not run.failures, tuple(run.failures))


def run_cases(cases: Iterable[Case], engine: Engine | None = None) -> list[CaseResult]:
    engine = engine or default_engine()
    return [run_case(c, engine) for c in cases]


def _expected_error(case: Case, exc: SheetgmError) -> CaseResult:
    got = f"{exc.code} {exc.params}"
    if case.error is None:
        return CaseResult(case, False, (f"unexpected error {got}: {exc.message('en')}",))
    if exc.code != case.error:
        return CaseResult(case, False, (f"expected error {case.error}, got {got}",))
    bad = [k for k, v in case.error_params.items() if k not in exc.params or not same(v, exc.params[k])]
    if bad:
        return CaseResult(case, False, (f"error {exc.code}: params {', '.join(bad)} differ: expected "
                                        f"{case.error_params}, got {exc.params}",))
    return CaseResult(case, True)


def _start(case: Case, engine: Engine) -> _Run:
    if case.map_text is not None:
        board = engine.load_map(case.map_text)
    else:
        board = engine.ready_map(case.map_name or "")
    state, names = build_state(case, board, engine)
    return _Run(case, engine, names, state)


def _night(run: _Run, i: int, night: Night) -> None:
    where = f"night[{i}]"
    if night.rollback:
        _rollback(run, where)
    _director(run, i, night, "before")
    if night.survivor is not None or night.hunter is not None:
        if run.state.stage == SURVIVOR_STAGE:
            _stage(run, i, night, SURVIVOR_STAGE, night.survivor or {})
        elif night.survivor is not None:
            raise _Stop(f"{where}: survivor orders given but the state is at stage {run.state.stage!r}")
        _director(run, i, night, "after_survivor")
        if night.after_survivor is not None:
            run.failures += match(night.after_survivor, _scope(run, [i], SURVIVOR_STAGE), f"{where}.after_survivor")
        if night.runs_hunter_stage:
            if night.resolve and run.state.stage != HUNTER_STAGE:
                raise _Stop(f"{where}: hunter stage asked for but the state is at stage {run.state.stage!r}")
            _stage(run, i, night, HUNTER_STAGE, night.hunter or {})
    _director(run, i, night, "after")
    if night.expect is not None:
        run.failures += match(night.expect, _scope(run, [i], None), f"{where}.expect")


def _stage(run: _Run, i: int, night: Night, stage: str, texts: dict[str, str]) -> None:
    where = f"night[{i}].{stage}"
    orders = {run.names.seat(alias, f"{where}.{alias}"): run.engine.parse_order(text) for alias, text in texts.items()}
    priority = ([run.names.seat(a, f"night[{i}].priority") for a in night.priority]
                if night.priority is not None else None)
    seed = night.seed if night.seed is not None else run.case.seed
    resolve = run.engine.resolve_survivor_stage if stage == SURVIVOR_STAGE else run.engine.resolve_hunter_stage
    before = run.state
    if not night.resolve:
        run.runs.append(StageRun(i, stage, before, orders, before, []))
        return
    digest = before.digest()
    after, events = resolve(before.copy(), orders, seed, priority)
    if night.replay:
        again, events2 = resolve(before.copy(), orders, seed, priority)
        if again.digest() != after.digest() or [e.to_dict() for e in events2] != [e.to_dict() for e in events]:
            run.failures.append(f"{where}: resolving the same state, orders and seed twice gave different results")
        if before.digest() != digest:
            run.failures.append(f"{where}: resolving changed the state it was given")
    run.runs.append(StageRun(i, stage, before, orders, after, list(events), len(run.director_events)))
    run.state = after


def _rollback(run: _Run, where: str) -> None:
    """R-DIR-2: restore the state before the last resolved stage, as if it had never run
    (its events and the director acts after it are dropped), so it can be resolved again."""
    if not run.runs:
        raise _Stop(f"{where}.rollback: no stage has run yet")
    last = run.runs.pop()
    del run.director_events[last.director_mark:]
    run.state = last.before


def _director(run: _Run, i: int, night: Night, when: str) -> None:
    for j, act in enumerate(a for a in night.director if a.when == when):
        run.state, events = _apply(run, act, f"night[{i}].director[{j}]")
        run.director_events += [(i, e) for e in events]


def _apply(run: _Run, act: DirectorAct, where: str) -> tuple[Any, list[Any]]:
    if act.card is not None:
        seat = run.names.seat(act.card, f"{where}.card")
        if act.declare_loss:
            return run.engine.give_card(run.state, seat, act.colour, act.reason, declare_loss=True)
        return run.engine.give_card(run.state, seat, act.colour, act.reason)
    if act.lurking is not None:
        return _lurking(run, act.lurking, act.reason, where)
    target = None if act.override in (None, "game") else run.names.seat(act.override, f"{where}.override")
    field_name = "pos" if act.field == "at" else act.field
    return run.engine.apply_override(run.state, target, field_name, act.value, act.reason)


def _lurking(run: _Run, spec: dict[str, Any], reason: str, where: str) -> tuple[Any, list[Any]]:
    """The tool proposes the fixed yellow cards for lurking (R-CARD-4); the case gives every proposal."""
    posts = {run.names.seat(a, f"{where}.lurking.posts"): n for a, n in spec.get("posts", {}).items()}
    voted = {run.names.seat(a, f"{where}.lurking.voted"): v for a, v in spec.get("voted", {}).items()}
    if run.engine.lurking_proposals is None:
        raise _Stop(f"{where}: the engine has no lurking_proposals")
    state, events = run.state, []
    for seat, why in run.engine.lurking_proposals(state, posts, voted, bool(spec.get("accelerated", False))):
        state, more = run.engine.give_card(state, seat, "yellow", why, source="lurking")
        events += more
    return state, events


def _scope(run: _Run, nights: Iterable[int], stage: str | None) -> Scope:
    wanted = set(nights)
    runs = [r for r in run.runs if r.night in wanted and (stage is None or r.stage == stage)]
    events = [e for r in runs for e in r.events] + [e for n, e in run.director_events if n in wanted]
    last = runs[-1] if runs else None
    engine = run.engine
    state = run.state if stage is None or last is None else last.after

    def report(seat: int) -> str:
        if last is None:
            raise _Stop("a report is expected but no stage ran")
        lang = last.after.players[seat].lang if seat in last.after.players else "zh"
        return str(engine.report(last.after, last.events, seat, lang))

    def others(r: Any, seat: int) -> dict[int, Any]:
        """The other orders of the stage: the checker may use what they bring her (RUL-39)."""
        return {s: o for s, o in r.orders.items() if s != seat}

    def problems(seat: int) -> list[Any] | None:
        mine = [r for r in runs if seat in r.orders]
        if not mine:
            return None
        return [p for r in mine for p in engine.check_order(r.before, seat, r.orders[seat], others(r, seat))]

    def notes(seat: int) -> list[Any] | None:
        mine = [r for r in runs if seat in r.orders]
        if not mine:
            return None
        if engine.review_order is None:
            raise _Stop("notes are expected but the engine has no review_order")
        review = engine.review_order
        return [n for r in mine for n in review(r.before, seat, r.orders[seat], others(r, seat)).notes]

    return Scope(
        state=state, events=events, names=run.names, report=report,
        public_log=lambda: str(engine.public_log(events, "zh")),
        director_log=lambda: str(engine.director_log(events, "zh")),
        problems=problems,
        notes=notes,
    )


def run_paths(paths: Iterable[str], only: Iterable[str] = (), engine: Engine | None = None) -> list[CaseResult]:
    """Load every case under ``paths`` (files or folders) and run them; ``only`` keeps the named case ids."""
    from sheetgm.casebook.loader import load_paths

    keep = {c.casefold() for c in only}
    cases = [c for c in load_paths(paths) if not keep or c.id.casefold() in keep]
    return run_cases(cases, engine)
