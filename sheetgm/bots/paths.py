"""Shortest paths for bots: movement cost fields over the map as one piece sees it.

A *field* maps every tile to its cost to reach the nearest target tile, so a
bot steps to whichever legal landing tile has the lowest value. Costs mirror
the movement rules (R-ORDER-2, R-MAP-5..7, hunters' moves of R-ACT): an open
edge costs 1 (0 inside a flat region); an obstacle costs a survivor 2 (a
3-MP crossing or a 1-AP vault; 1 for the Mercenary) and a hunter 2; a board
blocks survivors (they would have to dismantle it: counted as 4) and costs a
hunter 1; high walls never open. Passages count when the piece may use them.
Edges and passages are symmetric, so the field from the targets is also the
cost towards them. Values are in tenths of a point plus one per step, so a
step inside a flat region (0 MP) still brings the piece closer.

The static edge costs are computed once per map and kind of mover; a field
is cached by everything it depends on (map, mover kind, boards, usable
passages, targets), so the same generator or gate field serves every
survivor and every night until a board or a passage changes it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from sheetgm.core.board import Board, Edge, Tile, edge_key
from sheetgm.core.state import Player, State
from sheetgm.core.steps import Cross, Force, Move, Vault

UNREACHABLE = 10**6
SCALE = 10  # field units per movement point
CACHE_FIELDS = 50_000  # fields kept per map before the cache starts afresh

# The plain movement steps by the name the bots plan them with (each takes the landing tile).
STEP_OF: dict[str, type[Move] | type[Force] | type[Cross] | type[Vault]] = {
    "move": Move, "force": Force, "cross": Cross, "vault": Vault}

_Adjacency = dict[Tile, tuple[tuple[Tile, int, bool], ...]]  # tile -> (neighbour, cost, open edge)
_Field = dict[Tile, int]
_maps: dict[int, tuple[Board, tuple[dict[str, _Adjacency], dict[object, _Field]]]] = {}
_T = TypeVar("_T")


def per_map(store: dict[int, tuple[Board, _T]], board: Board, make: Callable[[], _T]) -> _T:
    """What a bot computes once per map, kept by the board's identity (a process sees a few maps at most)."""
    entry = store.get(id(board))
    if entry is None or entry[0] is not board:
        if len(store) > 16:
            store.clear()
        entry = (board, make())
        store[id(board)] = entry
    return entry[1]


def _kind(mover: Player) -> str:
    if mover.is_hunter:
        return "hunter"
    return "mercenary" if mover.role == "mercenary" else "survivor"


def _static_cost(board: Board, kind: str, a: Tile, b: Tile) -> int | None:
    edge = board.edge(a, b)
    if edge is Edge.WALL:
        return None
    if edge is Edge.OBSTACLE:
        return 1 if kind == "mercenary" else 2
    return 0 if board.same_flat_region(a, b) else 1


def _tables(board: Board) -> tuple[dict[str, _Adjacency], dict[object, _Field]]:
    def make() -> tuple[dict[str, _Adjacency], dict[object, _Field]]:
        adjacency: dict[str, _Adjacency] = {}
        for kind in ("hunter", "survivor", "mercenary"):
            table: _Adjacency = {}
            for t in board.tile_list:
                near = []
                for n in board.neighbour_map[t]:
                    c = _static_cost(board, kind, t, n)
                    if c is not None:
                        near.append((n, c * SCALE + 1, board.edge(t, n) is Edge.OPEN))
                table[t] = tuple(near)
            adjacency[kind] = table
        return adjacency, {}

    return per_map(_maps, board, make)


def _passage_links(state: State, mover: Player) -> tuple[tuple[Tile, Tile], ...]:
    links = []
    for p in state.passages:
        if p.known_to(mover):
            links.append(p.ends)
    return tuple(links)


def edge_cost(state: State, mover: Player, a: Tile, b: Tile) -> int | None:
    """What one step from a to adjacent b costs the mover for planning; None: never."""
    kind = state.board.edge(a, b)
    if kind is Edge.OPEN and edge_key(a, b) in state.boards:
        return 1 if mover.is_hunter else 4
    return _static_cost(state.board, _kind(mover), a, b)


def cost_field(state: State, mover: Player, targets: Iterable[Tile]) -> dict[Tile, int]:
    """Dijkstra from every target at once; tiles that cannot reach a target are absent.

    The returned dict is shared with the cache: read it, do not change it."""
    board = state.board
    kind = _kind(mover)
    links = _passage_links(state, mover)
    # A board costs a hunter what an open edge does (boards never touch flat tiles, R-MAP-6).
    boards = frozenset(state.boards) if kind != "hunter" and state.boards else frozenset()
    goal = tuple(sorted(set(targets)))
    adjacency, cache = _tables(board)
    key = (kind, boards, links, goal)
    fld = cache.get(key)
    if fld is None:
        if len(cache) >= CACHE_FIELDS:
            cache.clear()
        fld = _dijkstra(board, adjacency[kind], boards, links, goal)
        cache[key] = fld
    return fld


def _dijkstra(board: Board, adjacency: _Adjacency, boards: frozenset[tuple[Tile, Tile]],
              links: tuple[tuple[Tile, Tile], ...], goal: tuple[Tile, ...]) -> _Field:
    """Dijkstra with a bucket per distance (Dial's): the costs are small integers, so this beats a heap."""
    extra: dict[Tile, list[Tile]] = {}
    for a, b in links:
        extra.setdefault(a, []).append(b)
        extra.setdefault(b, []).append(a)
    board_cost = 4 * SCALE + 1
    link_cost = SCALE + 1
    dist: dict[Tile, int] = {}
    start = [t for t in goal if board.in_bounds(t)]
    for t in start:
        dist[t] = 0
    buckets: dict[int, list[Tile]] = {0: start} if start else {}
    known = dist.get
    while buckets:
        d = min(buckets)
        for cur in buckets.pop(d):
            if dist[cur] != d:
                continue  # reached more cheaply since it was filed here
            for n, c, is_open in adjacency[cur]:
                if boards and is_open and edge_key(cur, n) in boards:
                    c = board_cost
                nd = d + c
                if nd < known(n, UNREACHABLE):
                    dist[n] = nd
                    buckets.setdefault(nd, []).append(n)
            if extra:
                for n in extra.get(cur, ()):
                    nd = d + link_cost
                    if nd < known(n, UNREACHABLE):
                        dist[n] = nd
                        buckets.setdefault(nd, []).append(n)
    return dist


def cost(field: dict[Tile, int], tile: Tile) -> int:
    """The field value of a tile (compare tiles with it)."""
    return field.get(tile, UNREACHABLE)


def points(field: dict[Tile, int], tile: Tile) -> int:
    """About how many movement points the tile is from the targets."""
    return cost(field, tile) // SCALE
