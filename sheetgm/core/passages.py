"""The Master Assassin's secret passage (R-ROLE-ASSASSIN (1), R-SETUP-6, RUL-30).

"优先布置相连格不超过8格的两点为秘密通道": two tiles joined by a path of at
most 8 tiles (both ends counted; high walls cut paths, obstacles do not).
Every way a passage is laid is held to it: her roster entry, the director's
config, her night-1 order (``潜入者 B2 E5``), or the seeded choice made for
her when she named none by the end of her night-1 action.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable

from sheetgm.core.board import EDGE_WALL, Board, Tile, edge_key, parse_tile, tile_name
from sheetgm.core.context import Ctx, Illegal
from sheetgm.core.errors import StateError
from sheetgm.core.state import Passage, Player, State

MAX_PASSAGE_TILES = 8
MIN_RANDOM_STEPS = 3  # a random passage worth having: its ends at least 3 steps apart


def path_lengths(board: Board, start: Tile, most: int | None = None) -> dict[Tile, int]:
    """Steps from ``start`` to every tile, across any edge but a high wall (``most``: only the tiles at most that
    many steps away; a passage asks no farther, and a whole big map took ~0.2 ms)."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        if most is not None and seen[cur] >= most:
            continue
        for n in board.neighbours(cur):
            if n not in seen and board.edge(cur, n) is not EDGE_WALL:
                seen[n] = seen[cur] + 1
                queue.append(n)
    return seen


def passage_fault(board: Board, taken: Iterable[Tile], a: Tile, b: Tile) -> Illegal | None:
    """Why the ends ``a``, ``b`` cannot be a passage, or None."""
    for t in (a, b):
        if not board.in_bounds(t):
            return Illegal("err.rule.off_map", tile=tile_name(t))
    if a == b:
        return Illegal("err.rule.passage_same", tile=tile_name(a))
    used = set(taken)
    for t in (a, b):
        if t in used:
            return Illegal("err.rule.passage_taken", tile=tile_name(t))
    steps = path_lengths(board, a, MAX_PASSAGE_TILES - 1).get(b)
    if steps is None or steps + 1 > MAX_PASSAGE_TILES:
        return Illegal("err.rule.passage_too_long", a=tile_name(a), b=tile_name(b), most=MAX_PASSAGE_TILES)
    return None


def taken_ends(passages: Iterable[Passage]) -> set[Tile]:
    return {t for pa in passages for t in pa.ends}


def parse_passage(board: Board, passages: list[Passage], spec: str) -> tuple[Tile, Tile]:
    """A passage written ``B2-E5`` in the roster or the config, checked; a bad one is a setup error."""
    left, _, right = spec.partition("-")
    a, b = parse_tile(left), parse_tile(right)
    if a is None or b is None:
        raise StateError("err.state.bad_passage", spec=spec)
    fault = passage_fault(board, taken_ends(passages), a, b)
    if fault is not None:
        raise StateError(fault.code, **fault.params)
    return a, b


def random_passage(board: Board, taken: set[Tile], rng: random.Random) -> tuple[Tile, Tile]:
    """A seeded passage for an Assassin who named none: ends 3 to 7 steps apart, off the gates."""
    tiles = [t for t in board.tiles() if t not in taken and t not in board.gates]
    for _ in range(200):
        a = rng.choice(tiles)
        far = path_lengths(board, a, MAX_PASSAGE_TILES - 1)
        options = [t for t, d in far.items() if MIN_RANDOM_STEPS <= d <= MAX_PASSAGE_TILES - 1 and t in tiles]
        if options:
            return a, rng.choice(sorted(options))
    raise StateError("err.state.bad_passage", spec="(random)")


def known_passages(state: State, seat: int | None = None) -> list[Passage]:
    """What a seat knows (RUL-1, RUL-36): the map's passages, which everyone sees on the map, and the
    ones it knows beyond them (the Assassin her own, a survivor those she found); None: the public."""
    p = state.players.get(seat) if seat is not None else None
    return [pa for pa in state.passages if pa.owner is None or (p is not None and pa.known_to(p))]


def own_passage(ctx: Ctx, p: Player) -> Passage | None:
    return next((pa for pa in ctx.state.passages if pa.owner == p.seat), None)


def lay(ctx: Ctx, p: Player, a: Tile, b: Tile, how: str) -> None:
    ctx.state.passages.append(Passage(ends=edge_key(a, b), owner=p.seat))
    ctx.emit("passage_laid", to=(p.seat,), actor=p.seat, a=tile_name(a), b=tile_name(b), how=how)


def lay_missing(ctx: Ctx) -> None:
    """After the hunters' night-1 actions: an Assassin who named no passage gets a seeded one."""
    for h in ctx.state.hunters():
        if h.role == "assassin" and own_passage(ctx, h) is None:
            a, b = random_passage(ctx.state.board, taken_ends(ctx.state.passages), ctx.rng)
            lay(ctx, h, a, b, "at_random")
