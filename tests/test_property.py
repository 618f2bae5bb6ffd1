"""Random legal play: thousands of nights with random and purposeful orders, every invariant checked
after every stage (OpenSpiel-style random simulation tests).

Each game is a seeded loop (no hypothesis shrinking needed: a failure names its map, seed and
night, and ``replay`` rebuilds it)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping

import pytest

from sheetgm.bots import bot_order, random_order, roster_for, scaled_options
from sheetgm.core.check import check_order, legal_steps
from sheetgm.core.events import Event
from sheetgm.core.resolve import resolve_stage
from sheetgm.core.setup import new_game
from sheetgm.core.state import ELIMINATED, ESCAPED, HUNTER_STAGE, MAX_HP, State
from sheetgm.core.steps import Order
from sheetgm.notation.mapfile import ready_map

MAPS = ("standard", "teach")
NIGHTS = 12


def item_count(st: State) -> Counter[str]:
    """Items held by anyone, lying on tiles, in chests, and spent."""
    c: Counter[str] = Counter()
    for p in st.players.values():
        c.update(p.items)
    for items in st.lying.values():
        c.update(items)
    c.update(i for i in st.chests.values() if i)
    c.update(st.spent)
    return c


class Ledger:
    """What the invariants compare against: starting items, brews, scattered keys, progress."""

    def __init__(self, st: State) -> None:
        self.items = item_count(st)
        self.keys_scattered = 0
        self.progress = st.progress

    def record(self, events: list[Event]) -> None:
        for e in events:
            if e.kind == "brewed":
                self.items["stimulant"] += 1  # the Doctor's brew makes a new item
            elif e.kind == "key_scattered":
                self.keys_scattered += int(e.params.get("count", 1))


def check_invariants(before: State, st: State, events: list[Event], ledger: Ledger, where: str) -> None:
    board = st.board
    for p in st.players.values():
        assert board.in_bounds(p.pos), f"{where}: {p.alias} off the map at {p.pos}"
        if p.is_survivor:
            top = 1 if p.is_robot else MAX_HP
            assert 0 <= p.hp <= top, f"{where}: {p.alias} has HP {p.hp}"
            if p.in_play and not p.is_robot:
                assert p.hp >= 1, f"{where}: {p.alias} in play with HP {p.hp}"
    assert st.progress >= ledger.progress, f"{where}: progress fell {ledger.progress} -> {st.progress}"
    ledger.progress = st.progress
    ledger.record(events)
    assert item_count(st) == ledger.items, f"{where}: items {dict(item_count(st))} != {dict(ledger.items)}"
    held = sum(p.keys for p in st.players.values())
    on_tiles = sum(st.keys_on.values())
    assert held + on_tiles == ledger.keys_scattered, f"{where}: keys {held}+{on_tiles} != {ledger.keys_scattered}"
    assert len(set(st.eliminated)) == len(st.eliminated) and len(set(st.escaped)) == len(st.escaped)
    assert not set(st.eliminated) & set(st.escaped), f"{where}: a seat both eliminated and escaped"
    for seat in st.eliminated:
        assert st.players[seat].status == ELIMINATED, f"{where}: seat {seat} listed eliminated"
    for seat in st.escaped:
        assert st.players[seat].status == ESCAPED, f"{where}: seat {seat} listed escaped"
    for p in st.players.values():
        if p.status in (ELIMINATED, ESCAPED) and not p.is_robot:
            assert p.seat in (st.eliminated if p.status == ELIMINATED else st.escaped), where
            assert not p.downed and not p.escaping, f"{where}: {p.alias} out of play but {p}"
            assert legal_steps(st, p.seat) == [], f"{where}: {p.alias} out of play has legal steps"
        acted = [e for e in events if e.actor == p.seat and e.kind in ("moved", "cracked", "attack")]
        if before.players.get(p.seat) is not None and not before.players[p.seat].in_play:
            assert not acted, f"{where}: {p.alias} acted while out of play"


def orders_for(st: State, rng: random.Random, purposeful: float, longest: int = 6) -> dict[int, Order]:
    seats = [p.seat for p in (st.survivors() if st.stage != HUNTER_STAGE else st.hunters())]
    out = {}
    for seat in seats:
        if rng.random() < purposeful:
            out[seat] = bot_order(st, seat, rng)
        else:
            out[seat] = random_order(st, seat, rng, max_steps=rng.randint(1, longest))
    return out


def resolve_checked(st: State, orders: Mapping[int, Order], seed: int, priority: list[int] | None,
                    where: str) -> tuple[State, list[Event]]:
    """Resolve twice and compare (determinism); the input must come back untouched."""
    frozen = st.to_json()
    new, events = resolve_stage(st, orders, seed, priority)
    assert st.to_json() == frozen, f"{where}: the resolver changed its input state"
    again, events2 = resolve_stage(st, orders, seed, priority)
    assert again.digest() == new.digest(), f"{where}: same seed and orders, different states"
    assert [e.to_dict() for e in events2] == [e.to_dict() for e in events], f"{where}: different events"
    return new, events


def run_game(map_name: str, seed: int, nights: int = NIGHTS, longest: int = 6) -> tuple[State, set[str]]:
    rng = random.Random(f"prop/{map_name}/{seed}")
    board = ready_map(map_name)
    roster = roster_for(board)
    key_drop = rng.choice(("random", "at_elimination"))  # R-END-2 option
    st = new_game(board, roster, seed, options={**scaled_options(roster), "key_drop": key_drop})
    roles = {p.role or "" for p in st.players.values()}
    ledger = Ledger(st)
    purposeful = rng.choice((0.0, 0.5, 0.9))
    while not st.over() and st.night <= nights:
        where = f"{map_name} seed {seed} night {st.night} {st.stage} stage"
        frozen = st.to_json()
        orders = orders_for(st, rng, purposeful, longest)
        for seat, order in orders.items():
            problems = check_order(st, seat, order)
            assert problems == [], f"{where}: seat {seat} order {order} rejected: {problems}"
        assert st.to_json() == frozen, f"{where}: legal_steps or check_order changed the state"
        priority = None
        if rng.random() < 0.5:  # R-PHASE-3: stamp times in any order
            priority = list(orders)
            rng.shuffle(priority)
        before = st
        st, events = resolve_checked(st, orders, seed, priority, where)
        check_invariants(before, st, events, ledger, where)
    return st, roles


@pytest.mark.parametrize("map_name", MAPS)
def test_random_nights_keep_every_invariant(map_name: str) -> None:
    # covers: R-HP, R-ACT-CRACK, R-END-2, R-END-9, R-PHASE-3
    roles: set[str] = set()
    nights = 0
    for seed in range(90 if map_name == "standard" else 180):
        st, seen = run_game(map_name, seed)
        roles |= seen
        nights += st.night
    assert nights >= 600
    if map_name == "standard":
        from sheetgm.core.steps import HUNTER_ROLES, SURVIVOR_ROLES

        assert set(SURVIVOR_ROLES) | set(HUNTER_ROLES) <= roles


def test_the_invariant_checks_can_fail() -> None:
    board = ready_map("standard")
    st = new_game(board, roster_for(board), 1)
    ledger = Ledger(st)
    dup = st.copy()
    dup.players[1].items.append("map")
    with pytest.raises(AssertionError, match="items"):
        check_invariants(st, dup, [], ledger, "probe")
    dup = st.copy()
    dup.keys_on[(0, 0)] = 1
    with pytest.raises(AssertionError, match="keys"):
        check_invariants(st, dup, [], Ledger(st), "probe")
    dup = st.copy()
    dup.players[2].hp = 6
    with pytest.raises(AssertionError, match="HP"):
        check_invariants(st, dup, [], Ledger(st), "probe")
    low = Ledger(st)
    low.progress = 3
    with pytest.raises(AssertionError, match="progress"):
        check_invariants(st, st.copy(), [], low, "probe")
    dup = st.copy()
    dup.eliminated.append(3)
    with pytest.raises(AssertionError, match="listed eliminated"):
        check_invariants(st, dup, [], Ledger(st), "probe")
