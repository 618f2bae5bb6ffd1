"""The working context of one stage: the state being changed, the seeded
random source, the events so far, and helpers every rule module shares
(noise, fear, elimination, effective edges)."""

from __future__ import annotations

import random
from typing import Any

from sheetgm.core.board import EDGE_BOARD, EDGE_OPEN, Edge, Tile, distance, edge_key, tile_name
from sheetgm.core.events import Event
from sheetgm.core.state import ELIMINATED, HUNTER_STAGE, Player, State
from sheetgm.core.steps import POTIONS
from sheetgm.core.values import field, record

_tuple_new = tuple.__new__  # Ctx.emit makes an Event as Event.__new__ does, without its call
JAMMER_REACH = 3  # R-ITEM-JAMMER: hunters learn no noise farther than this while jammed


class Illegal(Exception):
    """A step cannot be played in the position it meets (R-ORDER-5).

    Carries a message code and parameters; never escapes the engine: the
    resolver turns it into a ``step_failed`` event, the checker into a Problem.
    """

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


SURVIVOR_MP, SURVIVOR_AP = 3, 1  # R-PHASE-4
HUNTER_MP, HUNTER_AP = 4, 2


def downed_mp(p: Player) -> int:
    """R-STATUS-DOWNED: 1 MP while Downed (the Mercenary 2), 0 AP."""
    return 2 if p.role == "mercenary" else 1


class Held(Illegal):
    """A step that would take a trapped survivor off her tile (R-ROLE-BANE: "停止移动"). At execution it
    does nothing, costs nothing and the order goes on (RUL-31); the checker still warns of it."""

    def __init__(self, tile: str) -> None:
        super().__init__("err.rule.held", tile=tile)


@record
class Budget:
    """Points of one player's action (R-PHASE-4), fixed when the action starts."""

    mp: int
    ap: int
    attacked: bool = False
    fury_used: bool = False
    escaped: bool = False
    robot_mp: int = 0
    robot_ap: int = 0


def lift_downed_limits(p: Player, b: Budget) -> None:
    """Downed removed during the survivor's own action: the rest of it has her full points
    (what the Downed budget lacked is added to what is left)."""
    b.mp += SURVIVOR_MP - downed_mp(p)
    b.ap += SURVIVOR_AP


@record
class Ctx:
    """What a stage's resolution carries from step to step: the state, the dice, the events so far."""

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
        if not to:
            readers: tuple[int, ...] = ()
        elif len(to) == 1:  # _reader spelt out for the one reader most events have
            p = self.state.players.get(to[0])
            robot_of = p.flags.get("robot_of") if p is not None and p.flags else None
            readers = (to if type(to) is tuple else (to[0],)) if robot_of is None else (int(robot_of),)
        else:
            readers = tuple(sorted({self._reader(s) for s in to}))
        self.events.append(_tuple_new(Event, (kind, self.state.night, self.stage, params, public, readers, actor)))

    def tell(self, kind: str, p: Player, params: dict[str, Any]) -> None:
        """``emit(kind, to=(p.seat,), actor=p.seat, **params)`` for the state's own piece p, without the keywords'
        call (a move's event: a hundred a night)."""
        if self.dry:
            return
        flags = p.flags
        robot_of = flags.get("robot_of") if flags else None
        seat = p.seat
        self.events.append(_tuple_new(Event, (kind, self.state.night, self.stage, params, False,
                                              (seat,) if robot_of is None else (int(robot_of),), seat)))

    def _reader(self, seat: int) -> int:
        """What happens to the robot is told to the Mechanic who runs it."""
        p = self.state.players.get(seat)
        robot_of = p.flags.get("robot_of") if p is not None else None  # Player.is_robot spelt out
        return int(robot_of) if robot_of is not None else seat

    # -- board with runtime boards --------------------------------------------
    def edge(self, a: Tile, b: Tile) -> Edge:
        kind = self.state.board.edge(a, b)
        if kind is EDGE_OPEN and edge_key(a, b) in self.state.boards:
            return EDGE_BOARD
        return kind

    def sight(self, a: Tile, b: Tile) -> bool:
        """Line of sight between adjacent tiles (R-SENSE-2): only an open edge."""
        return self.edge(a, b) is EDGE_OPEN

    # -- noise (R-SENSE-4) ------------------------------------------------------
    def noise(self, tile: Tile, cause: str, actor: int | None) -> None:
        if self.dry:
            return
        if tile not in self.state.noise:
            self.state.noise.append(tile)
        self.emit("noise", actor=actor, tile=tile_name(tile), cause=cause)

    # -- fear (R-STATUS-FEAR) ----------------------------------------------------
    def add_fear(self, p: Player, source: str) -> None:
        if self.dry or not p.in_play or p.role == "lawyer":
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
            if self.stage == HUNTER_STAGE:
                self.scream_heard(p.pos)

    def scream_heard(self, tile: Tile) -> None:
        """A scream in the hunter stage tells every hunter its tile at once (即便是杀手轮次也会爆点);
        the briefing has passed, so they hear it now. A Jammer limits it like any noise (R-ITEM-JAMMER)."""
        st = self.state
        for h in st.hunters():
            if not st.jammed or distance(h.pos, tile) <= JAMMER_REACH:
                self.emit("scream_heard", to=(h.seat,), actor=h.seat, tile=tile_name(tile))

    # -- capacity ----------------------------------------------------------------
    def has_room(self, p: Player, item: str) -> bool:
        return self.fits(p, [*p.items, item])

    @staticmethod
    def fits(p: Player, items: list[str]) -> bool:
        """Whether p may hold ``items``: one item; the Lucky Guy three (行囊); the Doctor one potion
        besides the usual one item (医药箱, R-ROLE-DOCTOR)."""
        if p.role == "lucky":
            return len(items) <= 3
        if p.role == "doctor":
            return len(items) <= 2 and len([i for i in items if i not in POTIONS]) <= 1
        return len(items) <= 1

    # -- elimination (R-HP, R-END-2, R-END-9) ------------------------------------------
    def eliminate(self, p: Player, cause: str) -> None:
        st = self.state
        if not p.in_play:
            return
        p.status = ELIMINATED
        p.downed = False
        p.escaping = False
        if p.is_robot:
            # Destroyed for good; no elimination of a player, but what it carried drops where it stood (RUL-22).
            p.hp = 0
            self.emit("robot_destroyed", to=(p.flags["robot_of"],), actor=p.seat, tile=tile_name(p.pos), cause=cause)
        else:
            st.eliminated.append(p.seat)
            self.emit("eliminated", public=True, actor=p.seat, alias=p.alias, cause=cause)
            self.emit("eliminated_at", actor=p.seat, alias=p.alias, tile=tile_name(p.pos))
        self.drop_all(p)
        if not p.is_robot and st.night >= int(st.opt("key_first_night")):
            self.scatter_key(p.pos)

    def drop_all(self, p: Player) -> None:
        """R-END-9, RUL-16: items and keys of a piece leaving play drop on its tile."""
        st = self.state
        if p.items:
            st.lying.setdefault(p.pos, []).extend(p.items)
            self.emit("items_dropped", actor=p.seat, tile=tile_name(p.pos), items=list(p.items))
            p.items = []
        if p.keys:
            st.keys_on[p.pos] = st.keys_on.get(p.pos, 0) + p.keys
            self.emit("keys_dropped", actor=p.seat, tile=tile_name(p.pos), count=p.keys)
            p.keys = 0

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


def known_passage(state: State, p: Player, a: Tile, b: Tile) -> bool:
    """Whether p may move between a and b through a passage she knows (R-MAP-7, RUL-1, RUL-36)."""
    pa = state.passage_between(a, b)
    return pa is not None and pa.known_to(p)
