"""Small helpers for engine tests: a State on a tiny inline map, orders, stages.

A test writes its map as text (docs/map-format.md), places players by hand
and runs one stage with typed steps::

    st = game(GRID, survivors=[("Ann", "lucky", "A1")], hunters=[("Hal", "ripper", "E3")])
    st2, evs = survive(st, {1: order(Move(t("B1")), Search())})
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sheetgm.core.board import Board, Tile, edge_key, parse_tile
from sheetgm.core.events import Event
from sheetgm.core.resolve import resolve_hunter_stage, resolve_survivor_stage
from sheetgm.core.state import DEFAULT_OPTIONS, HUNTER, HUNTER_STAGE, SURVIVOR, Passage, Player, State
from sheetgm.core.steps import DayStep, Order, Step
from sheetgm.notation.mapfile import load_map

SEED = 7

# A 6x5 map with one of everything, used by most tests.
#    A    B    C    D    E    F
# 1  G    C    .    .    .    X
# 2  .    .  | .    fC   f    .      obstacle B2|C2
# 3  P1   .    .    f    f    .      flat region D2,E2,D3,E3
#       =                            high wall A3/A4
# 4  .    d    G    .    .    P1
# 5  .    .    .    .    C    .
GRID = """name: kit
map:
   A    B    C    D    E    F
1  G    C    .    .    .    X
2  .    .  | .    Cf   f    .
3  P1   .    .    f    f    .
   =
4  .    d    G    .    .    P1
5  .    .    .    .    C    .
"""


def t(name: str) -> Tile:
    tile = parse_tile(name)
    assert tile is not None, name
    return tile


def board(text: str = GRID) -> Board:
    """A map from inline text, grammar only (tiny maps cannot meet the whole-board rules)."""
    return load_map(text, check=False)


def _player(seat: int, camp: str, spec: Sequence[Any]) -> Player:
    alias, role, pos = spec[0], spec[1], spec[2]
    extra: dict[str, Any] = dict(spec[3]) if len(spec) > 3 else {}
    return Player(seat=seat, alias=alias, camp=camp, role=role, pos=t(pos), **extra)


def game(
    text: str | Board = GRID,
    survivors: Iterable[Sequence[Any]] = (),
    hunters: Iterable[Sequence[Any]] = (),
    chests: Mapping[str, str | None] | None = None,
    night: int = 1,
    stage: str = "survivor",
    **options: Any,
) -> State:
    """A state: survivors get seats 1.., hunters the seats after them.

    Each player is ``(alias, role, tile)`` or ``(alias, role, tile, {field: value})``.
    ``chests`` sets chest contents by tile name (other chests start empty)."""
    b = text if isinstance(text, Board) else board(text)
    players: dict[int, Player] = {}
    seat = 1
    for spec in survivors:
        players[seat] = _player(seat, SURVIVOR, spec)
        seat += 1
    for spec in hunters:
        players[seat] = _player(seat, HUNTER, spec)
        seat += 1
    st = State(board=b, players=players, night=night, stage=stage, options={**DEFAULT_OPTIONS, **options})
    st.chests = {c: None for c in sorted(b.chests)}
    for c, item in b.chest_items:
        st.chests[c] = item
    for name, item in (chests or {}).items():
        assert t(name) in b.chests, name
        st.chests[t(name)] = item
    st.passages = [Passage(ends=edge_key(a, c)) for a, c in b.passages]
    return st


def order(*steps: Step, day: Sequence[DayStep] = ()) -> Order:
    return Order(steps=tuple(steps), day=tuple(day))


def survive(state: State, orders: Mapping[int, Order] | None = None, seed: int = SEED,
            priority: Sequence[int] | None = None) -> tuple[State, list[Event]]:
    return resolve_survivor_stage(state, orders or {}, seed, priority)


def hunt(state: State, orders: Mapping[int, Order] | None = None, seed: int = SEED,
         priority: Sequence[int] | None = None) -> tuple[State, list[Event]]:
    if state.stage != HUNTER_STAGE:
        state = state.copy()
        state.stage = HUNTER_STAGE
    return resolve_hunter_stage(state, orders or {}, seed, priority)


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def of(events: Iterable[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def one(events: Iterable[Event], kind: str) -> Event:
    found = of(events, kind)
    assert len(found) == 1, (kind, found)
    return found[0]


def failed(events: Iterable[Event], seat: int) -> Event | None:
    """The step_failed event of a seat, if any."""
    found = [e for e in events if e.kind == "step_failed" and e.actor == seat]
    return found[0] if found else None


def noise_tiles(events: Iterable[Event]) -> list[str]:
    return [e.params["tile"] for e in events if e.kind == "noise"]
