"""What a camp of bots has learned from its players' reports (they talk in the day).

Only events addressed to a player of the camp count, so a bot plays on what
its players were told: survivors learn where a hunter stood from being
attacked, from a parried attack, from the Map and from Fear (a hunter within
2, R-STATUS-FEAR-SRC); hunters learn where survivors stood from discovery,
sensing (gaze, listen), their attacks, the Assassin's deduction and trace,
and the briefing. Facts older than ``MEMORY`` nights are forgotten.
"""

from __future__ import annotations

from collections.abc import Iterable

from sheetgm.core.board import DIRECTIONS, Tile, parse_tile
from sheetgm.core.events import Event
from sheetgm.core.state import State
from sheetgm.core.values import field, record

MEMORY = 1  # nights a sighting stays useful (pieces move 3 to 5 tiles a night)
_SURVIVOR_KINDS = frozenset({"attacked", "dagger_parried", "fear", "map_view"})
_HUNTER_KINDS = frozenset({"discovered", "sensed", "brief_sensed", "brief_downed", "brief_resonance",
                           "brief_wolfsense", "brief_reveal", "deduction", "trace"})


@record
class Intel:
    camp: str  # "survivor" | "hunter"
    seen: dict[Tile, int] = field(default_factory=dict)  # tile -> night an enemy was known there

    def recent(self, night: int) -> list[Tile]:
        """Tiles where an enemy was known last night or tonight, in a fixed order."""
        return sorted((t for t, n in self.seen.items() if n >= night - MEMORY), key=lambda t: (t[1], t[0]))

    def note(self, tile: Tile | None, night: int) -> None:
        if tile is not None:
            self.seen[tile] = max(self.seen.get(tile, 0), night)

    def learn(self, state: State, events: Iterable[Event]) -> None:
        """Read a resolved stage's events (``state`` is the state after it)."""
        if self.camp == "survivor":
            kinds, fact = _SURVIVOR_KINDS, self._survivor_fact
        else:
            kinds, fact = _HUNTER_KINDS, self._hunter_fact
        picked = [e for e in events if e.kind in kinds]  # (a few of a stage's events)
        if picked:
            camp = self.camp
            mine = {p.seat for p in state.players.values() if p.camp == camp}
            for e in picked:
                if not mine.isdisjoint(e.to):
                    fact(state, e)
        seen = self.seen
        if seen:
            oldest = state.night - MEMORY
            if min(seen.values()) < oldest:
                for t in [t for t, n in seen.items() if n < oldest]:
                    del seen[t]

    def _survivor_fact(self, state: State, e: Event) -> None:
        me = state.players.get(e.actor) if e.actor is not None else None
        if e.kind in ("attacked", "dagger_parried") and me is not None:
            self.note(me.pos, e.night)  # the attacker stood on her tile (a chain pulls her there too)
        elif e.kind == "fear" and e.params.get("source") == "hunter_near" and me is not None:
            self.note(me.pos, e.night)  # a hunter within 2: her own tile is the best guess
        elif e.kind == "map_view":
            for h in e.params.get("hunters", ()):
                self.note(parse_tile(h["tile"]), e.night)

    def _hunter_fact(self, state: State, e: Event) -> None:
        if e.kind == "discovered":
            self.note(parse_tile(str(e.params.get("tile", ""))), e.night)
        elif e.kind in ("sensed", "brief_sensed", "brief_downed", "brief_resonance", "brief_wolfsense",
                        "brief_reveal"):
            for f in e.params.get("found", ()):
                self.note(parse_tile(f["tile"]), e.night)
        elif e.kind == "deduction" and e.params.get("yes"):
            tiles = [parse_tile(t) for t in e.params.get("tiles", ())]
            self.note(min((t for t in tiles if t is not None), default=None), e.night)
        elif e.kind == "trace" and e.params.get("distance", -1) > 0 and e.actor in state.players:
            self.note(_along(state, state.players[e.actor].pos, e.params), e.night)


def _along(state: State, frm: Tile, params: dict[str, object]) -> Tile | None:
    """The Assassin's trace (distance, compass) as a tile: the first direction named, at that distance."""
    dirs = params.get("directions") or []
    dist = params.get("distance")
    if not isinstance(dirs, list) or not dirs or not isinstance(dist, int) or dirs[0] == "here":
        return None
    letters = str(dirs[0])
    dx = sum(DIRECTIONS[c][0] for c in letters)
    dy = sum(DIRECTIONS[c][1] for c in letters)
    step = dist // len(letters)
    t = (frm[0] + dx * step, frm[1] + dy * step)
    return t if state.board.in_bounds(t) else None
