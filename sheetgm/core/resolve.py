"""The two stages of a night (R-PHASE-2) as pure functions:
(state, orders, seed) → (new state, events).

The input state is never changed. Randomness comes only from a
``random.Random`` seeded by (seed, night, stage).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from sheetgm.core.act import run_order
from sheetgm.core.brief import brief_all
from sheetgm.core.context import Ctx
from sheetgm.core.day import day_orders
from sheetgm.core.ending import end_of_night
from sheetgm.core.events import Event
from sheetgm.core.passages import lay_missing
from sheetgm.core.roles import robot_of
from sheetgm.core.state import HUNTER_STAGE, IN_PLAY, OVER, SURVIVOR_STAGE, Player, State
from sheetgm.core.steps import Order


class StageError(Exception):
    """Raised when asked to resolve a stage that is not due (a programming error of the caller)."""


def stage_rng(seed: int, night: int, stage: str) -> random.Random:
    return _SeededAtFirstDraw(f"sheetgm/{seed}/{night}/{stage}")


class _SeededAtFirstDraw(random.Random):
    """``random.Random(text)``, seeded at its first draw: seeding from a text costs ~10 µs and most stages draw
    nothing (no survivor stage of the bots' games, half the hunter stages). Every draw of ``random.Random`` goes
    through ``random()`` or ``getrandbits()``; once seeded, it is a plain ``random.Random``: the same stream."""

    def __init__(self, text: str) -> None:  # (random.Random.__init__ would seed now)
        self._text = text
        self.gauss_next = None

    def random(self) -> float:
        return random.Random.random(_seed_now(self))

    def getrandbits(self, k: int) -> int:  # (a method bound before the first draw may be called after it)
        return random.Random.getrandbits(_seed_now(self), k)

    def getstate(self) -> tuple[Any, ...]:
        return random.Random.getstate(_seed_now(self))

    def seed(self, *args: Any, **kwargs: Any) -> None:
        random.Random.seed(_seed_now(self), *args, **kwargs)

    def setstate(self, state: tuple[Any, ...]) -> None:  # (a state set before the first draw is kept, not reseeded)
        random.Random.setstate(_seed_now(self), state)

    def __reduce__(self) -> tuple[Any, ...]:  # (pickle and deepcopy)
        return random.Random, (), self.getstate()


def _seed_now(rng: random.Random) -> random.Random:
    text = rng.__dict__.pop("_text", None)
    if text is not None:
        random.Random.seed(rng, text)
        rng.__class__ = random.Random
    return rng


def priority_order(state: State, priority: Sequence[int] | None, camp: str) -> list[int]:
    """R-PHASE-3: the given order first (stamp times), then the rest by seat."""
    seats = [p.seat for p in (state.survivors() if camp == "survivor" else state.hunters())]
    first = [s for s in (priority or ()) if s in seats]
    return first + [s for s in seats if s not in first]


def start_night(ctx: Ctx) -> None:
    """Per-night resets (markers last until the end of the night, R-SENSE-4)."""
    st = ctx.state
    st.noise = []
    st.cracked_tonight = {}
    st.jammed = False
    for p in st.players.values():
        night_reset(p)


def night_reset(p: Player) -> None:
    """What a new night clears on one piece (the checker applies it to the piece it plays alone)."""
    if p.escaping:
        p.escaping = False
    if p.stunned:
        p.stunned = False
    flags = p.flags
    if flags:
        for flag in _NIGHT_FLAGS:
            flags.pop(flag, None)


_NIGHT_FLAGS = ("held", "brew", "pray", "attacked_tonight")


def fear_check(ctx: Ctx, seat: int) -> None:
    """R-STATUS-FEAR-SRC (a): at the end of a survivor's own action, a visible hunter within 2 frightens."""
    st = ctx.state
    p = st.players[seat]
    if p.status != IN_PLAY:
        return
    hunters = st.hunters()
    if len(hunters) > _FEW_HUNTERS:  # a big game: the tiles within 2 instead, so that a night stays linear
        frightened = any(not h.stealth for t in st.board.within(p.pos, 2) for h in st.at(t, "hunter"))
    else:
        x, y = p.pos
        frightened = False
        for h in hunters:
            if not h.stealth and abs(h.pos[0] - x) + abs(h.pos[1] - y) <= 2:
                frightened = True
                break
    if frightened:
        ctx.add_fear(p, "hunter_near")


_FEW_HUNTERS = 12  # (either way asks the same; the tiles within 2 are at most 13)


def resolve_survivor_stage(
    state: State, orders: Mapping[int, Order], seed: int, priority: Sequence[int] | None = None, *,
    fresh: State | None = None,
) -> tuple[State, list[Event]]:
    """``fresh``: a copy of ``state`` that its maker gives up, as ``Draft.shared_copy(state)`` made it (the bots'
    dry copy, every draft on it released): resolved in place of a new copy (the night's resets are idempotent)."""
    if state.stage != SURVIVOR_STAGE:
        raise StageError(f"the survivor stage is not due (stage is {state.stage})")
    st = state.copy() if fresh is None else fresh
    ctx = Ctx(st, stage_rng(seed, st.night, SURVIVOR_STAGE), SURVIVOR_STAGE)
    ctx.emit("stage_start", public=True, stage_name=SURVIVOR_STAGE)
    start_night(ctx)
    seats = priority_order(st, priority, "survivor")
    day_orders(ctx, orders, seats)
    for seat in seats:
        p = st.players[seat]
        if not p.in_play:
            continue
        order = orders.get(seat)
        if order is None:
            ctx.emit("no_order", to=(seat,), actor=seat)
        run_order(ctx, p, order if order else ())
        fear_check(ctx, seat)
        robot = robot_of(ctx, p)
        if robot is not None:
            fear_check(ctx, robot.seat)  # it acts in her action, and gains Fear like any survivor (RUL-22)
    # (4) progress check: the gates are powered and the Open-Door Battle starts (R-ODB-1).
    if not st.gates_powered and st.progress >= int(st.opt("crack_target")):
        st.gates_powered = True
        st.odb_left = int(st.opt("odb_stages"))
        st.odb_reveal = True
        ctx.emit("gates_powered", public=True, progress=st.progress, target=int(st.opt("crack_target")))
    ctx.emit("progress", public=True, progress=st.progress, target=int(st.opt("crack_target")))
    brief_all(ctx)
    st.stage = HUNTER_STAGE
    return st, ctx.events


def resolve_hunter_stage(
    state: State, orders: Mapping[int, Order], seed: int, priority: Sequence[int] | None = None, *,
    fresh: State | None = None,
) -> tuple[State, list[Event]]:
    """``fresh``: as for ``resolve_survivor_stage`` (``Draft.shared_copy`` of the hunter stage's state)."""
    if state.stage != HUNTER_STAGE:
        raise StageError(f"the hunter stage is not due (stage is {state.stage})")
    st = state.copy() if fresh is None else fresh
    ctx = Ctx(st, stage_rng(seed, st.night, HUNTER_STAGE), HUNTER_STAGE)
    ctx.emit("stage_start", public=True, stage_name=HUNTER_STAGE)
    for seat in priority_order(st, priority, "hunter"):
        p = st.players[seat]
        if not p.in_play:
            continue
        if p.stunned:
            ctx.emit("stunned_skip", to=(seat,), actor=seat)
            continue
        order = orders.get(seat)
        if order is None:
            ctx.emit("no_order", to=(seat,), actor=seat)
        run_order(ctx, p, order if order else ())
    if st.night == 1:
        lay_missing(ctx)  # an Assassin who named no passage on night 1 gets a seeded one (RUL-30)
    end_of_night(ctx)
    if st.winner is None:
        st.night += 1
        st.stage = SURVIVOR_STAGE
    else:
        st.stage = OVER
    return st, ctx.events


def resolve_stage(
    state: State, orders: Mapping[int, Order], seed: int, priority: Sequence[int] | None = None
) -> tuple[State, list[Event]]:
    """Resolve whichever stage is due."""
    if state.stage == SURVIVOR_STAGE:
        return resolve_survivor_stage(state, orders, seed, priority)
    if state.stage == HUNTER_STAGE:
        return resolve_hunter_stage(state, orders, seed, priority)
    raise StageError("the game is over")


__all__ = [
    "resolve_stage", "resolve_survivor_stage", "resolve_hunter_stage", "priority_order", "stage_rng",
]
