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

from sheetgm.core.board import EDGE_OBSTACLE, EDGE_OPEN, EDGE_WALL, Board, EdgeKey, Tile, edge_key
from sheetgm.core.state import Player, State
from sheetgm.core.steps import Cross, Force, Move, Vault

UNREACHABLE = 10**6
SCALE = 10  # field units per movement point
# Field entries (tiles) kept per map before the cache starts afresh, ~75 bytes each: 10,000 fields of the standard
# map (~3,000 bot games), 625 of a 40x40 one; counted per map, since a field's size is the map's.
CACHE_ENTRIES = 1_000_000

# The plain movement steps by the name the bots plan them with (each takes the landing tile).
STEP_OF: dict[str, type[Move] | type[Force] | type[Cross] | type[Vault]] = {
    "move": Move, "force": Force, "cross": Cross, "vault": Vault}

# The map's tiles by index, and per kind of mover each tile's neighbours as (index, cost, the edge's key
# when it is open, so that a board may lie on it; else None), and the same without the keys (``_Rows``:
# what ``_dijkstra`` walks, a row made anew only where a board or a passage changes it).
_Adjacency = list[tuple[tuple[int, int, "EdgeKey | None"], ...]]
_Rows = list[tuple[tuple[int, int], ...]]
_Tables = tuple[tuple[Tile, ...], dict[Tile, int], dict[str, tuple[_Adjacency, _Rows]]]
_Field = dict[Tile, int]
_maps: dict[int, tuple[Board, tuple[_Tables, dict[object, _Field]]]] = {}
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
    if edge is EDGE_WALL:
        return None
    if edge is EDGE_OBSTACLE:
        return 1 if kind == "mercenary" else 2
    return 0 if board.same_flat_region(a, b) else 1


def _tables(board: Board) -> tuple[_Tables, dict[object, _Field]]:
    def make() -> tuple[_Tables, dict[object, _Field]]:
        tiles = board.tile_list
        index = {t: i for i, t in enumerate(tiles)}
        adjacency: dict[str, tuple[_Adjacency, _Rows]] = {}
        for kind in ("hunter", "survivor", "mercenary"):
            table: _Adjacency = []
            for t in tiles:
                near = []
                for n in board.neighbour_map[t]:
                    c = _static_cost(board, kind, t, n)
                    if c is not None:
                        key = edge_key(t, n) if board.edge(t, n) is EDGE_OPEN else None
                        near.append((index[n], c * SCALE + 1, key))
                table.append(tuple(near))
            adjacency[kind] = (table, [tuple((n, c) for n, c, _ in near) for near in table])
        return (tiles, index, adjacency), {}

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
    if kind is EDGE_OPEN and edge_key(a, b) in state.boards:
        return 1 if mover.is_hunter else 4
    return _static_cost(state.board, _kind(mover), a, b)


def cost_field(state: State, mover: Player, targets: Iterable[Tile]) -> dict[Tile, int]:
    """Dijkstra from every target at once; tiles that cannot reach a target are absent.

    The returned dict is shared with the cache: read it, do not change it."""
    kind = _kind(mover)
    # A board costs a hunter what an open edge does (boards never touch flat tiles, R-MAP-6).
    boards = frozenset(state.boards) if kind != "hunter" and state.boards else frozenset()
    return _field(state.board, kind, boards, _passage_links(state, mover), targets)


def _field(board: Board, kind: str, boards: frozenset[EdgeKey], links: tuple[tuple[Tile, Tile], ...],
           targets: Iterable[Tile]) -> _Field:
    """The field, cached under the targets as given and as a sorted set (the same field either way)."""
    given = targets if type(targets) is tuple else tuple(targets)
    (tiles, index, adjacency), cache = _tables(board)
    fld = cache.get((kind, boards, links, given))
    if fld is not None:
        return fld
    goal = tuple(sorted(set(given)))
    key = (kind, boards, links, goal)
    fld = cache.get(key)
    if fld is None:
        if (len(cache) + 1) * len(tiles) > CACHE_ENTRIES:
            cache.clear()
        fld = _dijkstra(tiles, index, adjacency[kind], boards, links, goal)
        cache[key] = fld
    cache[(kind, boards, links, given)] = fld
    return fld


class Fields:
    """``cost_field`` for the bots of one stage, on a state that does not change while they write: the boards,
    each mover's passages and each field asked for are worked out once (the survivors share most fields)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.boards = frozenset(state.boards) if state.boards else frozenset()
        # seat -> kind, the boards that count for it, its passages
        self._movers: dict[int, tuple[str, frozenset[EdgeKey], tuple[tuple[Tile, Tile], ...]]] = {}
        self._cache = _tables(state.board)[1]  # the map's fields (``_field``'s cache, read here first)

    def __call__(self, mover: Player, targets: Iterable[Tile]) -> _Field:
        """The same field as ``cost_field(state, mover, targets)`` (``mover``: a player of this state, or the
        same player on a dry copy of it)."""
        known = self._movers.get(mover.seat)
        if known is None:
            kind = _kind(mover)
            boards = self.boards if kind != "hunter" else frozenset()
            known = self._movers[mover.seat] = (kind, boards, _passage_links(self.state, mover))
        kind, boards, links = known
        goal = targets if type(targets) is tuple else tuple(targets)
        fld = self._cache.get((kind, boards, links, goal))
        if fld is None:
            fld = _field(self.state.board, kind, boards, links, goal)
        return fld


def _dijkstra(tiles: tuple[Tile, ...], index: dict[Tile, int], adjacency: tuple[_Adjacency, _Rows],
              boards: frozenset[tuple[Tile, Tile]], links: tuple[tuple[Tile, Tile], ...],
              goal: tuple[Tile, ...]) -> _Field:
    """Dijkstra with a bucket per distance (Dial's: the costs are small integers, so this beats a heap), over
    tile indices and a list of distances; the field is made a dict of tiles at the end. The rows of the tiles a
    board or a passage touches are made for this call (a copy of the map's list with those rows replaced)."""
    keyed, rows = adjacency
    if boards or links:
        rows = list(rows)
        board_cost = 4 * SCALE + 1
        for edge in boards:
            for i in (index.get(edge[0]), index.get(edge[1])):
                if i is not None:
                    rows[i] = tuple((n, board_cost if key is not None and key in boards else c)
                                    for n, c, key in keyed[i])
        for a, b in links:
            ia, ib = index[a], index[b]
            rows[ia] += ((ib, SCALE + 1),)
            rows[ib] += ((ia, SCALE + 1),)
    dist = [UNREACHABLE] * len(tiles)
    start = [index[t] for t in goal if t in index]
    for i in start:
        dist[i] = 0
    buckets: dict[int, list[int]] = {0: start} if start else {}
    d = 0
    while buckets:
        frontier = buckets.pop(d, None)
        if frontier is not None:
            for cur in frontier:
                if dist[cur] != d:
                    continue  # reached more cheaply since it was filed here
                for n, c in rows[cur]:
                    nd = d + c
                    if nd < dist[n]:
                        dist[n] = nd
                        bucket = buckets.get(nd)
                        if bucket is None:
                            buckets[nd] = [n]
                        else:
                            bucket.append(n)
        d += 1
    return {t: v for t, v in zip(tiles, dist, strict=True) if v < UNREACHABLE}


_memos: dict[int, tuple[_Field, dict[object, object]]] = {}
MEMOS = 4096  # memos kept before they start afresh (fewer on a big map: the fields they keep count to CACHE_ENTRIES)


def memo_of(field: _Field) -> dict[object, object]:
    """A memo kept with a cost field while the field is kept, for what the bots derive from a field and a tile (the
    walks that bring a piece closer): fields are shared by a stage's bots and cached across nights and games."""
    entry = _memos.get(id(field))
    if entry is None or entry[0] is not field:
        if len(_memos) >= MEMOS or (len(_memos) + 1) * len(field) > CACHE_ENTRIES:  # (a memo keeps its field)
            _memos.clear()
        entry = _memos[id(field)] = (field, {})
    return entry[1]


def cost(field: dict[Tile, int], tile: Tile) -> int:
    """The field value of a tile (compare tiles with it)."""
    return field.get(tile, UNREACHABLE)


def points(field: dict[Tile, int], tile: Tile) -> int:
    """About how many movement points the tile is from the targets."""
    return cost(field, tile) // SCALE
