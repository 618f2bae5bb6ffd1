"""Driving whole games with bots, and random legal orders for fuzzing."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from sheetgm.bots.hunter import hunter_order
from sheetgm.bots.intel import Intel
from sheetgm.bots.paths import Fields
from sheetgm.bots.survivor import Team, survivor_order, team_of
from sheetgm.core.board import Board
from sheetgm.core.check import Draft, legal_steps
from sheetgm.core.events import Event
from sheetgm.core.resolve import resolve_hunter_stage, resolve_survivor_stage
from sheetgm.core.setup import SeatSpec, new_game
from sheetgm.core.state import HUNTER, SURVIVOR, State
from sheetgm.core.steps import Give, Order, Step

Bot = Callable[[State, int, random.Random], Order]


def bot_order(state: State, seat: int, rng: random.Random, intel: Intel | None = None) -> Order:
    """A purposeful order for ``seat`` in the stage that is due (see the survivor and hunter modules);
    ``intel``: what the seat's camp has learned so far (none: only what the state shows the player)."""
    p = state.players[seat]
    if not p.in_play or state.over():
        return Order()
    return survivor_order(state, seat, rng, intel) if p.is_survivor else hunter_order(state, seat, rng, intel)


class Table:
    """The bots of one game: each camp remembers what its players were told (``Intel``).

    Use ``table.order`` as a ``Bot`` and feed every resolved stage to ``table.learn``."""

    def __init__(self) -> None:
        self.intel = {SURVIVOR: Intel(SURVIVOR), HUNTER: Intel(HUNTER)}
        # The state, its dry copy, its cost fields, the team.
        self._stage: tuple[State, State, Fields, Team | None] | None = None

    def order(self, state: State, seat: int, rng: random.Random) -> Order:
        p = state.players[seat]
        if not p.in_play or state.over():
            return Order()
        if self._stage is None or self._stage[0] is not state:
            # One dry copy and one set of cost fields for every bot of the stage.
            self._stage = (state, Draft.shared_copy(state), Fields(state), None)
        _, dry, fields, team = self._stage
        if p.is_hunter:
            return hunter_order(state, seat, rng, self.intel[HUNTER], dry, fields)
        if team is None:
            team = team_of(state, self.intel[SURVIVOR], fields)  # agreed once per stage
            self._stage = (state, dry, fields, team)
        return survivor_order(state, seat, rng, self.intel[SURVIVOR], team, dry)

    def handoff(self, state: State) -> State | None:
        """The stage's dry copy of ``state``, every draft on it released, for its resolution to take
        (``resolve_*_stage(fresh=...)``): the resolver need not copy the state again. None: no bot wrote."""
        stage, self._stage = self._stage, None
        return stage[1] if stage is not None and stage[0] is state else None

    def learn(self, state: State, events: Sequence[Event]) -> None:
        for intel in self.intel.values():
            intel.learn(state, events)


def random_order(state: State, seat: int, rng: random.Random, max_steps: int = 4) -> Order:
    """Up to ``max_steps`` steps, each uniform over ``legal_steps`` for the order so far.

    A survivor sharing its tile with a friend sometimes adds a day gift too (R-PHASE-1)."""
    p = state.players[seat]
    if not p.in_play or state.over():
        return Order()
    steps: list[Step] = []
    for _ in range(rng.randint(0, max_steps)):
        legal = legal_steps(state, seat, after=steps)
        if not legal:
            break
        steps.append(legal[rng.randrange(len(legal))])
    day: list[Give] = []
    if p.is_survivor and rng.random() < 0.3:
        friends = [s for s in state.at(p.pos, SURVIVOR) if s.seat != seat and not s.is_robot]
        gifts = list(p.items) + (["key"] if p.keys else [])
        if friends and gifts:
            day.append(Give(friends[rng.randrange(len(friends))].alias, gifts[rng.randrange(len(gifts))]))
    return Order(tuple(steps), tuple(day))


def roster_for(board: Board, survivors: int | None = None, hunters: int | None = None,
               roles: Sequence[str | None] = ()) -> list[SeatSpec]:
    """Seats S1.. and H1.. in the counts the map names (``survivors:`` / ``hunters:``), else 8 and 2.

    ``roles`` fixes roles seat by seat (None: dealt); more seats than roles in
    the pool need an explicit role list that repeats roles."""
    meta = dict(board.meta)
    n_s = survivors if survivors is not None else int(meta.get("survivors", 8))
    n_h = hunters if hunters is not None else int(meta.get("hunters", 2))
    specs = [SeatSpec(f"S{i}", "survivor") for i in range(1, n_s + 1)]
    specs += [SeatSpec(f"H{i}", "hunter") for i in range(1, n_h + 1)]
    fixed = list(roles) + [None] * (len(specs) - len(roles))
    return [SeatSpec(s.alias, s.camp, r, s.lang) for s, r in zip(specs, fixed, strict=True)]


def scaled_options(roster: Sequence[SeatSpec]) -> dict[str, bool]:
    """The house rule RUL-26 (option ``scale_targets``) for a roster of other than 8 survivors.

    The seed's targets (R-ACT-CRACK, R-END-3, R-END-5) cannot be reached, or
    take too long, with fewer survivors, as on the teaching map, so games of
    bots there play with the targets scaled; 8 survivors keep the seed's."""
    n = sum(1 for s in roster if s.camp == SURVIVOR)
    return {"scale_targets": True} if n != 8 else {}


def play_night(state: State, seed: int, bot: Bot, rng: random.Random,
               table: Table | None = None) -> tuple[State, list[Event]]:
    """Both stages of one night: survivors' orders, then hunters' orders on the stage's result
    (``table``: bots that learn from each stage's events)."""
    orders = {p.seat: bot(state, p.seat, rng) for p in state.survivors()}
    fresh = table.handoff(state) if table is not None else None
    state, events = resolve_survivor_stage(state, orders, seed, fresh=fresh)
    if table is not None:
        table.learn(state, events)
    orders = {h.seat: bot(state, h.seat, rng) for h in state.hunters()}
    fresh = table.handoff(state) if table is not None else None
    state, more = resolve_hunter_stage(state, orders, seed, fresh=fresh)
    if table is not None:
        table.learn(state, more)
    return state, events + more


def play_game(board: Board, roster: Sequence[SeatSpec], seed: int, bot: Bot | None = None,
              max_nights: int = 30, options: dict[str, Any] | None = None) -> tuple[State, list[Event]]:
    """A whole game from setup until a camp wins, a draw, or ``max_nights`` nights.

    ``bot`` None: the purposeful bots, each camp remembering what it was told
    (``Table``). ``options`` are game options over ``scaled_options(roster)``
    (the house rule for small rosters)."""
    st = new_game(board, roster, seed, options={**scaled_options(roster), **(options or {})})
    rng = random.Random(f"sheetgm-bots/{seed}")
    table = Table() if bot is None else None
    play = table.order if table is not None else bot
    assert play is not None
    events: list[Event] = []
    while not st.over() and st.night <= max_nights:
        st, evs = play_night(st, seed, play, rng, table)
        events += evs
    return st, events
