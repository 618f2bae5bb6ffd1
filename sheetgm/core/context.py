"""The working context of one stage: the state being changed, the seeded
random source, the events so far, and helpers every rule module shares
(noise, fear, elimination, effective edges)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields
from typing import Any

from sheetgm.core.board import Edge, Tile, edge_key, tile_name
from sheetgm.core.events import Event
from sheetgm.core.state import ELIMINATED, Player, State
from sheetgm.core.steps import POTIONS

# Ctx.emit fills an Event's fields itself while they are exactly these (a new field falls back to Event(...)).
_FAST_EVENT = tuple(f.name for f in fields(Event)) == ("kind", "night", "stage", "params", "public", "to", "actor")


class Illegal(Exception):
    """A step cannot be played in the position it meets (R-ORDER-5).

    Carries a message code and parameters; never escapes the engine: the
    resolver turns it into a ``step_failed`` event, the checker into a Problem.
    """

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass
class Budget:
    """Points of one player's action (R-PHASE-4), fixed when the action starts."""

    mp: int
    ap: int
    attacked: bool = False
    fury_used: bool = False
    escaped: bool = False
    robot_mp: int = 0
    robot_ap: int = 0


@dataclass
class Ctx:
    state: State
    rng: random.Random
    stage: str
    dry: bool = False  # checker mode: test legality only, from what the player knows
    events: list[Event] = field(default_factory=list)

    # -- events --------------------------------------------------------------
    def emit(self, kind: str, public: bool = False, to: tuple[int, ...] = (), actor: int | None = None,
             **params: Any) -> None:
        if self.dry:
            return
        readers = (self._reader(to[0]),) if len(to) == 1 else tuple(sorted({self._reader(s) for s in to}))
        if not _FAST_EVENT:
            self.events.append(Event(kind=kind, night=self.state.night, stage=self.stage, params=params,
                                     public=public, to=readers, actor=actor))
            return
        # Event(...) field by field, without the frozen dataclass's __init__ (hundreds of events a night).
        event = object.__new__(Event)
        event.__dict__.update(kind=kind, night=self.state.night, stage=self.stage, params=params, public=public,
                              to=readers, actor=actor)
        self.events.append(event)

    def _reader(self, seat: int) -> int:
        """What happens to the robot is told to the Mechanic who runs it."""
        p = self.state.players.get(seat)
        return int(p.flags["robot_of"]) if p is not None and p.is_robot else seat

    # -- board with runtime boards --------------------------------------------
    def edge(self, a: Tile, b: Tile) -> Edge:
        kind = self.state.board.edge(a, b)
        if kind is Edge.OPEN and edge_key(a, b) in self.state.boards:
            return Edge.BOARD
        return kind

    def sight(self, a: Tile, b: Tile) -> bool:
        """Line of sight between adjacent tiles (R-SENSE-2): only an open edge."""
        return self.edge(a, b) is Edge.OPEN

    # -- noise (R-SENSE-4) ------------------------------------------------------
    def noise(self, tile: Tile, cause: str, actor: int | None) -> None:
        if self.dry:
            return
        if tile not in self.state.noise:
            self.state.noise.append(tile)
        self.emit("noise", actor=actor, tile=tile_name(tile), cause=cause)

    # -- fear (R-STATUS-FEAR) ----------------------------------------------------
    def add_fear(self, p: Player, source: str) -> None:
        if self.dry or not p.in_play or p.role == "lawyer" or p.is_robot:
            if p.role == "lawyer" and not self.dry and p.in_play:
                # Director only: immunity means she feels nothing, so learns nothing (RUL-24).
                self.emit("fear_immune", actor=p.seat, source=source)
            return
        p.fear += 1
        self.emit("fear", to=(p.seat,), actor=p.seat, source=source, fear=p.fear)
        if p.fear >= 3:
            p.fear = 0
            self.emit("scream", to=(p.seat,), actor=p.seat, tile=tile_name(p.pos))
            self.noise(p.pos, "scream", p.seat)

    # -- capacity ----------------------------------------------------------------
    def has_room(self, p: Player, item: str) -> bool:
        if p.is_robot:
            return False
        if p.role == "lucky":
            return len(p.items) < 3
        if p.role == "doctor":
            # Medkit: one potion besides the usual one item (R-ROLE-DOCTOR).
            potions = [i for i in p.items if i in POTIONS]
            others = [i for i in p.items if i not in POTIONS]
            if item in POTIONS:
                return len(p.items) < 2 and (len(potions) < 1 or len(others) < 1)
            return len(others) < 1 and len(p.items) < 2
        return len(p.items) < 1

    # -- elimination (R-HP, R-END-2, R-END-9) ------------------------------------------
    def eliminate(self, p: Player, cause: str) -> None:
        st = self.state
        if not p.in_play:
            return
        if p.is_robot:
            p.status = ELIMINATED
            p.hp = 0
            self.emit("robot_destroyed", to=(p.flags["robot_of"],), actor=p.seat, tile=tile_name(p.pos), cause=cause)
            return
        p.status = ELIMINATED
        p.downed = False
        p.escaping = False
        st.eliminated.append(p.seat)
        self.emit("eliminated", public=True, actor=p.seat, alias=p.alias, cause=cause)
        self.emit("eliminated_at", actor=p.seat, alias=p.alias, tile=tile_name(p.pos))
        if p.items:
            st.lying.setdefault(p.pos, []).extend(p.items)
            self.emit("items_dropped", actor=p.seat, tile=tile_name(p.pos), items=list(p.items))
            p.items = []
        if p.keys:
            st.keys_on[p.pos] = st.keys_on.get(p.pos, 0) + p.keys
            self.emit("keys_dropped", actor=p.seat, tile=tile_name(p.pos), count=p.keys)
            p.keys = 0
        if st.night >= int(st.opt("key_first_night")):
            self.scatter_key(p.pos)

    def scatter_key(self, where: Tile) -> None:
        st = self.state
        if st.opt("key_drop") == "at_elimination":
            tile = where
        else:
            options = [t for t in st.board.tiles() if t not in st.board.gates]
            tile = options[self.rng.randrange(len(options))]
        st.keys_on[tile] = st.keys_on.get(tile, 0) + 1
        self.emit("key_scattered", public=True, count=1)
        self.emit("key_scattered_at", tile=tile_name(tile))


def hunter_known_passage(state: State, hunter: Player, a: Tile, b: Tile) -> bool:
    """Hunters use map passages and discovered ones; the Assassin also his own (ruling 1)."""
    p = state.passage_between(a, b)
    if p is None:
        return False
    return p.owner is None or p.discovered or p.owner == hunter.seat


def survivor_known_passage(state: State, a: Tile, b: Tile) -> bool:
    p = state.passage_between(a, b)
    return p is not None and p.discovered
