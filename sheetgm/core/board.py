"""The static map: tiles, edges, features, distance and line of sight (R-MAP).

Tiles are ``(col, row)`` pairs, 0-based; ``A1`` is ``(0, 0)`` at the
top-left, north is row - 1 (R-MAP-1). Runtime things (boards, traps, lying
items, keys, discovered passages) live in the state, not here.
"""

from __future__ import annotations

import re
from enum import Enum
from functools import cached_property, lru_cache

from sheetgm.core.values import Value, field, record

Tile = tuple[int, int]
EdgeKey = tuple[Tile, Tile]

DIRECTIONS: dict[str, Tile] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}

_TILE_RE = re.compile(r"^([A-Za-z]{1,2})([1-9][0-9]{0,2})$")


class Edge(str, Enum):
    OPEN = "open"
    OBSTACLE = "obstacle"
    WALL = "wall"
    BOARD = "board"  # runtime only: never stored in a Board


# The members as plain names, for the engine's and the bots' hot paths: in Python 3.11 the Enum metaclass's
# __getattr__ hook makes every ``Edge.X`` a slow class attribute lookup (~150 ns, a tuple lookup's time).
EDGE_OPEN, EDGE_OBSTACLE, EDGE_WALL, EDGE_BOARD = Edge.OPEN, Edge.OBSTACLE, Edge.WALL, Edge.BOARD


def col_name(col: int) -> str:
    if col < 26:
        return chr(ord("A") + col)
    return chr(ord("A") + col // 26 - 1) + chr(ord("A") + col % 26)


@lru_cache(maxsize=65536)
def tile_name(tile: Tile) -> str:
    """``(2, 3)`` → ``"C4"`` (memoised: every event names tiles)."""
    return f"{col_name(tile[0])}{tile[1] + 1}"


def parse_tile(text: str) -> Tile | None:
    """``"C4"`` → ``(2, 3)``; None when the text is not a tile name (short texts memoised: the bots read back
    every tile their events name)."""
    return _parse_short(text) if type(text) is str and len(text) <= 8 else _parse_tile(text)


@lru_cache(maxsize=8192)
def _parse_short(text: str) -> Tile | None:
    return _parse_tile(text)


def _parse_tile(text: str) -> Tile | None:
    m = _TILE_RE.match(text.strip())
    if not m:
        return None
    letters = m.group(1).upper()
    if len(letters) == 1:
        col = ord(letters) - ord("A")
    else:
        col = (ord(letters[0]) - ord("A") + 1) * 26 + ord(letters[1]) - ord("A")
    return (col, int(m.group(2)) - 1)


def edge_key(a: Tile, b: Tile) -> EdgeKey:
    return (a, b) if a <= b else (b, a)


def edge_name(key: EdgeKey) -> str:
    return f"{tile_name(key[0])}-{tile_name(key[1])}"


def distance(a: Tile, b: Tile) -> int:
    """Manhattan distance, edges ignored (R-MAP-3)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def adjacent(a: Tile, b: Tile) -> bool:
    return distance(a, b) == 1


def compass(a: Tile, b: Tile) -> str:
    """Eight-point compass direction of b from a ("" when equal)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    ns = "N" if dy < 0 else "S" if dy > 0 else ""
    ew = "E" if dx > 0 else "W" if dx < 0 else ""
    return ns + ew


@record(frozen=True)
class Board(Value):
    """A loaded, validated map."""

    name: str
    width: int
    height: int
    obstacles: frozenset[EdgeKey] = frozenset()
    walls: frozenset[EdgeKey] = frozenset()
    generators: frozenset[Tile] = frozenset()
    chests: frozenset[Tile] = frozenset()
    gates: frozenset[Tile] = frozenset()
    dark: frozenset[Tile] = frozenset()
    flat: frozenset[Tile] = frozenset()
    passages: tuple[EdgeKey, ...] = ()
    survivor_starts: tuple[Tile, ...] = ()
    hunter_starts: tuple[Tile, ...] = ()
    chest_items: tuple[tuple[Tile, str], ...] = ()
    item_pool: tuple[str, ...] = ()
    title: str = ""
    meta: tuple[tuple[str, str], ...] = field(default=())

    def in_bounds(self, t: Tile) -> bool:
        return 0 <= t[0] < self.width and 0 <= t[1] < self.height

    def tiles(self) -> list[Tile]:
        return list(self.tile_list)

    def neighbours(self, t: Tile) -> list[Tile]:
        """In-bounds 4-neighbours in N, E, S, W order."""
        return list(self.neighbour_map.get(t, ()))

    def edge(self, a: Tile, b: Tile) -> Edge:
        """The static kind of the edge between adjacent a and b (border = wall)."""
        return self.edge_kinds.get((a, b), EDGE_WALL)

    def within(self, t: Tile, reach: int) -> tuple[Tile, ...]:
        """In-bounds tiles within Manhattan distance ``reach`` of t, row by row (as ``tiles()`` orders them)."""
        near = self.within_cache.get((t, reach))
        if near is None:
            c, r = t
            near = tuple((x, y) for y in range(max(0, r - reach), min(self.height, r + reach + 1))
                         for x in range(max(0, c - (reach - abs(y - r))), min(self.width, c + reach - abs(y - r) + 1)))
            self.within_cache[(t, reach)] = near
        return near

    @cached_property
    def within_cache(self) -> dict[tuple[Tile, int], tuple[Tile, ...]]:
        return {}

    # -- precomputed once per board (the engine and the bots ask these thousands of times a game) ----
    @cached_property
    def tile_list(self) -> tuple[Tile, ...]:
        """Every tile, row by row."""
        return tuple((c, r) for r in range(self.height) for c in range(self.width))

    @cached_property
    def neighbour_map(self) -> dict[Tile, tuple[Tile, ...]]:
        """Tile → its in-bounds 4-neighbours in N, E, S, W order."""
        out: dict[Tile, tuple[Tile, ...]] = {}
        for t in self.tile_list:
            near = ((t[0] + DIRECTIONS[d][0], t[1] + DIRECTIONS[d][1]) for d in ("N", "E", "S", "W"))
            out[t] = tuple(n for n in near if self.in_bounds(n))
        return out

    @cached_property
    def edge_kinds(self) -> dict[tuple[Tile, Tile], Edge]:
        """(a, b) → the static kind of the edge, for both orders of every pair of adjacent in-bounds tiles."""
        out: dict[tuple[Tile, Tile], Edge] = {}
        for a, near in self.neighbour_map.items():
            for b in near:
                k = edge_key(a, b)
                out[(a, b)] = EDGE_WALL if k in self.walls else EDGE_OBSTACLE if k in self.obstacles else EDGE_OPEN
        return out

    @cached_property
    def flat_region(self) -> dict[Tile, int]:
        """Tile → id of its flat region (R-MAP-5): flat tiles joined by open edges."""
        region: dict[Tile, int] = {}
        next_id = 0
        for start in sorted(self.flat, key=lambda t: (t[1], t[0])):
            if start in region:
                continue
            stack = [start]
            region[start] = next_id
            while stack:
                cur = stack.pop()
                for n in self.neighbours(cur):
                    if n in self.flat and n not in region and self.edge(cur, n) is EDGE_OPEN:
                        region[n] = next_id
                        stack.append(n)
            next_id += 1
        return region

    def same_flat_region(self, a: Tile, b: Tile) -> bool:
        ra = self.flat_region.get(a)
        return ra is not None and ra == self.flat_region.get(b)

    def touches_flat(self, a: Tile, b: Tile) -> bool:
        return a in self.flat or b in self.flat

    def chest_item_map(self) -> dict[Tile, str]:
        return dict(self.chest_items)
