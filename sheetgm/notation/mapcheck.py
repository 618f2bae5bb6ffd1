"""Whole-board rules a map must satisfy (R-MAP-8, R-SETUP-3).

Each check raises MapError pointing at the line and column that best shows
the problem: the tile's token for a tile, the ``map:`` line for the map as a
whole.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sheetgm.core.board import Board, Edge, Tile, distance, tile_name
from sheetgm.core.errors import MapError
from sheetgm.core.state import DEFAULT_OPTIONS
from sheetgm.notation.mapsyntax import Source

# "generators unable to give the target in fewer than 4 nights" (R-MAP-8): 3 nights at most.
NIGHTS_TO_POWER = 3
DEFAULT_SURVIVORS = 8  # R-SETUP-1
DEFAULT_HUNTERS = 2
HUNTER_MIN_DISTANCE = 4  # hunters never start within distance 3 of a survivor (R-SETUP-3)


def numbers(board: Board, options: Mapping[str, Any] | None) -> dict[str, int]:
    """The numbers the checks use: game options, else the map's own header, else the defaults."""
    out = {
        "crack_target": int(DEFAULT_OPTIONS["crack_target"]),
        "generator_cap": int(DEFAULT_OPTIONS["generator_cap"]),
        "survivors": DEFAULT_SURVIVORS,
        "hunters": DEFAULT_HUNTERS,
    }
    for key, value in board.meta:
        if key in out:
            out[key] = int(value)
    for key in out:
        if options and key in options:
            out[key] = int(options[key])
    return out


def check(board: Board, src: Source, options: Mapping[str, Any] | None = None) -> None:
    nums = numbers(board, options)
    _chests(board, src)
    _passages(board, src)
    _gate_and_generators(board, src, nums)
    _reachable(board, src)
    _starts(board, src, nums)


def _at(src: Source, tile: Tile) -> dict[str, int]:
    line, col = src.tiles.get(tile, src.grid)
    return {"line": line, "col": col}


def _chests(board: Board, src: Source) -> None:
    for tile, _ in board.chest_items:
        if tile not in board.chests:
            line, col = src.chests.get(tile, src.grid)
            raise MapError("err.map.chest_missing", line=line, col=col, tile=tile_name(tile))


def _passages(board: Board, src: Source) -> None:
    seen: set[Tile] = set()
    for a, b in board.passages:
        for t in (a, b):
            if t in seen:
                raise MapError("err.map.passage_stacked", tile=tile_name(t), **_at(src, t))
            seen.add(t)


def _gate_and_generators(board: Board, src: Source, nums: dict[str, int]) -> None:
    line, col = src.grid
    if not board.gates:
        raise MapError("err.map.no_gate", line=line, col=col)
    target, cap = nums["crack_target"], nums["generator_cap"]
    per_night = len(board.generators) * cap
    if per_night * NIGHTS_TO_POWER < target:
        need = -(-target // (cap * NIGHTS_TO_POWER))
        raise MapError(
            "err.map.few_generators", line=line, col=col, count=len(board.generators),
            target=target, cap=cap, nights=NIGHTS_TO_POWER, need=need,
        )


def _reachable(board: Board, src: Source) -> None:
    """Every tile reachable from every other: obstacles can be crossed, high walls not; passages join."""
    links: dict[Tile, list[Tile]] = {t: [] for t in board.tiles()}
    for a, b in board.passages:
        links[a].append(b)
        links[b].append(a)
    seen: set[Tile] = set()
    parts: list[set[Tile]] = []
    for start in board.tiles():
        if start in seen:
            continue
        part = {start}
        stack = [start]
        while stack:
            cur = stack.pop()
            nexts = [n for n in board.neighbours(cur) if board.edge(cur, n) is not Edge.WALL]
            for n in nexts + links[cur]:
                if n not in part:
                    part.add(n)
                    stack.append(n)
        seen |= part
        parts.append(part)
    if len(parts) > 1:
        main = max(parts, key=len)
        cut_off = [t for t in board.tiles() if t not in main]
        first = cut_off[0]
        raise MapError("err.map.unreachable", tile=tile_name(first), count=len(cut_off), **_at(src, first))


def _starts(board: Board, src: Source, nums: dict[str, int]) -> None:
    zones = (
        ("err.map.survivor_zone_small", board.survivor_starts, nums["survivors"]),
        ("err.map.hunter_zone_small", board.hunter_starts, nums["hunters"]),
    )
    for code, zone, need in zones:
        if zone and len(zone) < need:
            raise MapError(code, tiles=len(zone), need=need, **_at(src, zone[0]))
    for h in board.hunter_starts:
        for s in board.survivor_starts:
            d = distance(h, s)
            if d < HUNTER_MIN_DISTANCE:
                raise MapError(
                    "err.map.hunter_too_close", hunter=tile_name(h), survivor=tile_name(s),
                    distance=d, limit=HUNTER_MIN_DISTANCE - 1, **_at(src, h),
                )
