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
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable

from sheetgm.core.board import Edge, Tile, edge_key
from sheetgm.core.state import Player, State

UNREACHABLE = 10**6
SCALE = 10  # field units per movement point


def _passage_links(state: State, mover: Player) -> dict[Tile, list[Tile]]:
    links: dict[Tile, list[Tile]] = {}
    for p in state.passages:
        if p.known_to(mover):
            a, b = p.ends
            links.setdefault(a, []).append(b)
            links.setdefault(b, []).append(a)
    return links


def edge_cost(state: State, mover: Player, a: Tile, b: Tile) -> int | None:
    """What one step from a to adjacent b costs the mover for planning; None: never."""
    board = state.board
    kind = board.edge(a, b)
    if kind is Edge.WALL:
        return None
    if kind is Edge.OBSTACLE:
        if mover.is_hunter:
            return 2
        return 1 if mover.role == "mercenary" else 2
    if edge_key(a, b) in state.boards:
        return 1 if mover.is_hunter else 4
    return 0 if board.same_flat_region(a, b) else 1


def cost_field(state: State, mover: Player, targets: Iterable[Tile]) -> dict[Tile, int]:
    """Dijkstra from every target at once; tiles that cannot reach a target are absent."""
    board = state.board
    links = _passage_links(state, mover)
    dist: dict[Tile, int] = {}
    heap: list[tuple[int, Tile]] = []
    for t in targets:
        if board.in_bounds(t) and t not in dist:
            dist[t] = 0
            heap.append((0, t))
    heapq.heapify(heap)
    while heap:
        d, cur = heapq.heappop(heap)
        if d > dist.get(cur, UNREACHABLE):
            continue
        nexts: list[tuple[Tile, int]] = []
        for n in board.neighbours(cur):
            c = edge_cost(state, mover, cur, n)
            if c is not None:
                nexts.append((n, c))
        nexts += [(n, 1) for n in links.get(cur, ())]
        for n, c in nexts:
            nd = d + c * SCALE + 1
            if nd < dist.get(n, UNREACHABLE):
                dist[n] = nd
                heapq.heappush(heap, (nd, n))
    return dist


def cost(field: dict[Tile, int], tile: Tile) -> int:
    """The field value of a tile (compare tiles with it)."""
    return field.get(tile, UNREACHABLE)


def points(field: dict[Tile, int], tile: Tile) -> int:
    """About how many movement points the tile is from the targets."""
    return cost(field, tile) // SCALE
