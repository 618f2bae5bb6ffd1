"""The movement options the bots price, per map: the steps a piece can take from a tile on the bare map (a
walk, a crossing, a vault; a hunter's forced move; the Athlete's sprints, the Wings' flights, the Door Key's
steps), each priced, computed once per map and tile; and the steps they stand for, made once (steps are
frozen values). What the state adds (a passage she knows, the Ripper's appearance) the bots add themselves."""

from __future__ import annotations

from functools import lru_cache

from sheetgm.bots.paths import STEP_OF, per_map
from sheetgm.core.board import EDGE_OBSTACLE, EDGE_OPEN, Board, Tile
from sheetgm.core.steps import Skill, Step, UseItem


@lru_cache(maxsize=4096)
def survivor_step(kind: str, landing: Tile, arg: object) -> Step:
    """The step a planned movement option stands for (made once: steps are frozen values)."""
    plain = STEP_OF.get(kind)
    if plain is not None:
        return plain(landing)
    if kind == "sprint":
        assert isinstance(arg, tuple)
        return Skill("sprint", arg)
    return UseItem(kind, landing)  # wings, doorkey (the Priestess's skill when she holds none)


SurvivorWalk = tuple[Tile, int, int, int, str, object]  # landing, mp, ap, preference penalty, kind, argument
_survivor_walks: dict[int, tuple[Board, dict[tuple[Tile, bool], tuple[tuple[SurvivorWalk, ...], bool]]]] = {}


def survivor_walks(board: Board, here: Tile, mercenary: bool) -> tuple[tuple[SurvivorWalk, ...], bool]:
    """The moves, vaults and crossings from a tile on the bare map, priced, and whether one of them is a plain
    walk over an open edge (computed once per map)."""
    walks = per_map(_survivor_walks, board, dict)
    found = walks.get((here, mercenary))
    if found is None:
        out: list[SurvivorWalk] = []
        for n in board.neighbour_map[here]:
            kind = board.edge(here, n)
            if kind is EDGE_OPEN:
                out.append((n, 0 if board.same_flat_region(here, n) else 1, 0, 0, "move", None))
            elif kind is EDGE_OBSTACLE:
                out.append((n, 1, 0, 0, "vault", None) if mercenary else (n, 0, 1, 2, "vault", None))
                out.append((n, 3, 0, 1, "cross", None))
        found = walks[(here, mercenary)] = (tuple(out), any(w[4] == "move" for w in out))
    return found


_survivor_extras: dict[int, tuple[Board, dict[tuple[Tile, bool, bool, bool], tuple[SurvivorWalk, ...]]]] = {}


def survivor_extras(board: Board, here: Tile, athlete: bool, wings: bool, doorkey: bool) -> tuple[SurvivorWalk, ...]:
    """The Athlete's straight sprints of 4 tiles, the Wings' flights within 3 and the Door Key's steps through a
    wall, from a tile, priced (computed once per map)."""
    more = per_map(_survivor_extras, board, dict)
    found = more.get((here, athlete, wings, doorkey))
    if found is None:
        out: list[SurvivorWalk] = []
        if athlete:
            for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
                path = tuple((here[0] + dx * k, here[1] + dy * k) for k in range(1, 5))
                out.append((path[-1], 3, 0, 0, "sprint", path))
        if wings:
            out += [(t, 0, 1, 3, "wings", None) for t in board.within(here, 3) if t != here]
        if doorkey:
            out += [(t, 0, 0, 2, "doorkey", None) for t in board.neighbour_map[here]]  # limited uses
        found = more[(here, athlete, wings, doorkey)] = tuple(out)
    return found


@lru_cache(maxsize=4096)
def hunter_step(kind: str, landing: Tile) -> Step:
    """The step a planned movement option stands for (made once: steps are frozen values)."""
    plain = STEP_OF.get(kind)
    return plain(landing) if plain is not None else Skill("appear", (landing,))


HunterWalk = tuple[Tile, bool, int, str]  # landing, paid with an action point, mp, kind
_hunter_walks: dict[int, tuple[Board, dict[Tile, tuple[HunterWalk, ...]]]] = {}


def hunter_walks(board: Board, here: Tile) -> tuple[HunterWalk, ...]:
    """A hunter's moves, forced moves, crossings and vaults from a tile on the bare map (computed once per map)."""
    walks = per_map(_hunter_walks, board, dict)
    found = walks.get(here)
    if found is None:
        out: list[HunterWalk] = []
        for n in board.neighbour_map[here]:
            kind = board.edge(here, n)
            if kind is EDGE_OPEN:
                out.append((n, False, 0 if board.same_flat_region(here, n) else 1, "move"))
                out.append((n, True, 0, "force"))
            elif kind is EDGE_OBSTACLE:
                out.append((n, False, 2, "cross"))
                out.append((n, True, 0, "vault"))
        found = walks[here] = tuple(out)
    return found
