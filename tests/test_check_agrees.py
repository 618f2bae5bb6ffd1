"""The checker and the resolver agree (R-ORDER-4, R-ORDER-5, RUL-18, RUL-27; issue 10 item 5).

For random positions of bot games and random orders (legal steps, and steps of every kind aimed
anywhere, as a player may write them), the order is checked and then resolved as the only order of
its stage, so that nothing another player does can change the outcome:

- an order the checker passes, with no note, runs through: no step fails at resolution, except for
  a reason the player cannot know (where the target of a heal stands, tonight's noise markers);
- from the first step with a note ("depends on what the search finds", the chain claw, Bloodlust,
  a gift) the outcome may go either way;
- where the checker reports a problem, the resolver fails at that step with the same reason, or
  earlier for a hidden reason; a problem the resolver never meets is a false alarm;
- day orders (gifts, prayers) fail at resolution exactly where the checker said.

A hunter's order is also checked during the survivor stage (when he may write it) and resolved
after a survivor stage in which nobody acts.
"""

# covers: R-ORDER-4, R-ORDER-5, RUL-18, RUL-27

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from sheetgm.bots import bot_order, random_order, roster_for, scaled_options
from sheetgm.core.board import Tile, distance
from sheetgm.core.check import Review, candidates, legal_steps, review_order
from sheetgm.core.events import Event
from sheetgm.core.resolve import resolve_stage
from sheetgm.core.setup import new_game
from sheetgm.core.state import HUNTER_STAGE, SURVIVOR_STAGE, State
from sheetgm.core.steps import (
    ITEMS,
    SKILLS,
    Attack,
    Block,
    Crack,
    Cross,
    Dismantle,
    Drop,
    Escape,
    Force,
    Gaze,
    Give,
    Heal,
    Listen,
    Move,
    Order,
    Pray,
    RobotStep,
    Search,
    Skill,
    Step,
    UseItem,
    Vault,
)
from sheetgm.notation.mapfile import ready_map
from sheetgm.notation.orders import format_order, format_step

# Failures at resolution that depend on what the checker may not use (RUL-18).
HIDDEN = frozenset({"err.rule.target_not_here", "err.rule.not_downed", "err.rule.no_noise_there"})


@dataclass(frozen=True)
class Outcome:
    """What resolving one order alone did to it: the first failed night step, and the failed day steps."""

    failed: tuple[int, str] | None
    day_failed: frozenset[tuple[int, str]]


def outcome(events: Sequence[Event], seat: int) -> Outcome:
    night = [e for e in events if e.kind == "step_failed" and e.actor == seat]
    day = frozenset((int(e.params["step"]), str(e.params["code"]))
                    for e in events if e.kind == "day_failed" and e.actor == seat)
    return Outcome((int(night[0].params["step"]), str(night[0].params["code"])) if night else None, day)


def disagreements(review: Review, out: Outcome, survivor: bool) -> list[str]:
    """Every way the checker's review and the resolution disagree (empty: they agree)."""
    found: list[str] = []
    noted = min([n.step for n in review.notes if n.step is not None], default=None)
    day = frozenset((p.step or 0, p.code) for p in review.problems if p.day)
    if survivor and day != out.day_failed:
        found.append(f"day orders: checker {sorted(day)}, resolver {sorted(out.day_failed)}")
    night = [p for p in review.problems if not p.day]
    first = (night[0].step or 0, night[0].code) if night else None
    if out.failed is None:
        if first is not None and (noted is None or first[0] < noted):
            found.append(f"false alarm: checker {first}, the resolver ran the order through")
        return found
    step, code = out.failed
    if noted is not None and step >= noted:
        return found
    if first is None:
        if code not in HIDDEN:
            found.append(f"passed the checker, failed at resolution: {out.failed}")
    elif step > first[0] and (noted is None or first[0] < noted):
        found.append(f"checker {first}, but the resolver ran that step and failed later: {out.failed}")
    elif step == first[0] and code != first[1] and code not in HIDDEN:
        found.append(f"checker {first}, resolver {out.failed}")
    elif step < first[0] and code not in HIDDEN:
        found.append(f"the checker missed {out.failed} (its first problem: {first})")
    return found


# --- random orders -------------------------------------------------------------------


def _near(st: State, tile: Tile, reach: int) -> list[Tile]:
    return [t for t in st.board.tiles() if distance(t, tile) <= reach]


def any_step(st: State, seat: int, rng: random.Random) -> Step:
    """A step of any kind, aimed anywhere: what a player might write, legal or not."""
    p = st.players[seat]
    near = _near(st, p.pos, 2)
    n = rng.choice(near)
    alias = rng.choice([q.alias for q in st.players.values() if not q.is_robot])
    item = rng.choice(ITEMS)
    kind = rng.randrange(13)
    if kind == 0:
        return Move(rng.choice([rng.choice(list(st.board.tiles())), n]))
    if kind == 1:
        return UseItem(item, rng.choice([None, n]))
    if kind == 2:
        return Drop(item)
    if kind == 3:
        skill = rng.choice(list(SKILLS))
        tiles = tuple(rng.choice(near) for _ in range(rng.choice([0, 1, 1, 2, 4])))
        return Skill(skill, tiles=tiles, direction=rng.choice([None, "N", "E", "S", "W"]),
                     amount=rng.choice([None, 1, 2]), what=rng.choice([None, "mp", "ap"]))
    if kind == 4:
        return Search(rng.choice([None, "key", item]))
    if kind == 5:
        return Heal(alias, rng.choice([None, "downed", "fear"]))
    if kind == 6:
        return Attack(rng.choice([None, "N", "E", "S", "W"]), rng.choice([None, n]))
    if kind == 7:
        return Block(n, rng.choice([None, n, p.pos]))
    if kind == 8:
        return rng.choice([Gaze(), Listen(), Crack(), Escape()])
    if kind == 9:
        return rng.choice([Force(n), Cross(n), Vault(n)])
    if kind == 10:
        return Dismantle(rng.choice([None, n]))
    if kind == 11:
        return RobotStep(rng.choice([Move(n), Crack(), Search(), Move(rng.choice(list(st.board.tiles())))]))
    return rng.choice(candidates(st, p) or [Crack()])


def writable(step: Step) -> bool:
    try:
        format_step(step, "en")
    except ValueError:
        return False
    return True


def any_order(st: State, seat: int, rng: random.Random) -> Order:
    p = st.players[seat]
    steps: list[Step] = []
    for _ in range(rng.randint(1, 5)):
        r = rng.random()
        if r < 0.4:
            step = any_step(st, seat, rng)
        elif r < 0.7:
            legal = legal_steps(st, seat, after=steps)
            step = rng.choice(legal) if legal else Crack()
        else:
            step = rng.choice(candidates(st, p) or [Crack()])
        if writable(step):
            steps.append(step)
    day: tuple[Give | Pray, ...] = ()
    if p.is_survivor and rng.random() < 0.2:
        alias = rng.choice([q.alias for q in st.players.values() if not q.is_robot])
        day = (rng.choice([Give(alias, rng.choice((*ITEMS, "key"))), Pray(rng.choice(ITEMS))]),)
    return Order(tuple(steps), day)


def compare(st: State, seat: int, order: Order, seed: int) -> list[str]:
    """Check the order, resolve it alone (a hunter's after an idle survivor stage), and compare."""
    review = review_order(st, seat, order)
    p = st.players[seat]
    if p.is_hunter and st.stage == SURVIVOR_STAGE:
        st, _ = resolve_stage(st, {}, seed)
    if p.is_hunter and st.players[seat].stunned:
        return []  # a stunned hunter does not act: the checker notes it
    _, events = resolve_stage(st, {seat: order}, seed)
    return disagreements(review, outcome(events, seat), p.is_survivor)


def positions(map_name: str, seed: int, nights: int = 6) -> list[State]:
    """The states before every stage of a bot game."""
    rng = random.Random(f"agree/{map_name}/{seed}")
    board = ready_map(map_name)
    roster = roster_for(board)
    st = new_game(board, roster, seed, options=scaled_options(roster))
    out = []
    while not st.over() and st.night <= nights:
        out.append(st)
        seats = [q.seat for q in (st.hunters() if st.stage == HUNTER_STAGE else st.survivors())]
        orders = {s: bot_order(st, s, rng) if rng.random() < 0.7 else random_order(st, s, rng) for s in seats}
        st, _ = resolve_stage(st, orders, seed)
    return out


@pytest.mark.parametrize("map_name", ["standard", "teach"])
def test_the_checker_and_the_resolver_agree(map_name: str) -> None:
    rng = random.Random(map_name)
    found: list[str] = []
    tried = 0
    for seed in range(5):
        for st in positions(map_name, seed):
            for p in list(st.players.values()):
                if not p.in_play or p.is_robot or (st.stage == HUNTER_STAGE and p.is_survivor):
                    continue
                for _ in range(3):
                    order = any_order(st, p.seat, rng)
                    tried += 1
                    for d in compare(st, p.seat, order, seed):
                        found.append(f"{map_name} seed {seed} night {st.night} {st.stage}: {p.alias} ({p.role}) "
                                     f"at {p.pos} '{format_order(order, 'en')}': {d}")
    assert tried > 300
    assert not found, "\n".join(found[:10])


# --- the comparison can fail -----------------------------------------------------------


def _review(problems: Sequence[tuple[int, str]] = (), notes: Sequence[int] = ()) -> Review:
    from sheetgm.core.check import Problem

    return Review([Problem(code, {}, step) for step, code in problems],
                  [Problem("check.note.search", {}, step) for step in notes])


@pytest.mark.parametrize(("review", "out", "says"), [
    (_review(), Outcome((2, "err.rule.no_mp"), frozenset()), "passed the checker"),
    (_review([(1, "err.rule.wall")]), Outcome(None, frozenset()), "false alarm"),
    (_review([(1, "err.rule.wall")]), Outcome((1, "err.rule.no_mp"), frozenset()), "resolver (1, 'err.rule.no_mp')"),
    (_review([(3, "err.rule.wall")]), Outcome((1, "err.rule.no_mp"), frozenset()), "missed"),
    (_review([(1, "err.rule.wall")]), Outcome((2, "err.rule.no_mp"), frozenset()), "failed later"),
])
def test_a_disagreement_is_found(review: Review, out: Outcome, says: str) -> None:
    assert any(says in d for d in disagreements(review, out, survivor=True))


def test_what_may_differ_is_not_a_disagreement() -> None:
    hidden = Outcome((1, "err.rule.target_not_here"), frozenset())
    assert disagreements(_review(), hidden, survivor=True) == []
    after_note = Outcome((3, "err.rule.not_holding"), frozenset())
    assert disagreements(_review(notes=[2]), after_note, survivor=True) == []
    assert disagreements(_review([(2, "err.rule.no_ap")]), Outcome((2, "err.rule.no_ap"), frozenset()), True) == []
