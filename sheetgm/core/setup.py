"""A new game from a map, a roster and a seed (R-SETUP)."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sheetgm.core.board import Board, Edge, Tile, distance, edge_key, parse_tile
from sheetgm.core.errors import StateError
from sheetgm.core.state import DEFAULT_OPTIONS, HUNTER, SURVIVOR, Passage, Player, State
from sheetgm.core.steps import HUNTER_ROLES, SURVIVOR_ROLES

MAX_PASSAGE_TILES = 8


@dataclass(frozen=True)
class SeatSpec:
    alias: str
    camp: str  # "survivor" | "hunter"
    role: str | None = None  # None: dealt from the pool
    lang: str = "zh"


def deal_roles(roster: Sequence[SeatSpec], pool: Sequence[str] | None, rng: random.Random) -> list[str]:
    """R-SETUP-2: seeded deal without duplicates from the director's pool."""
    pool = list(pool) if pool else list(SURVIVOR_ROLES + HUNTER_ROLES)
    fixed = {s.role for s in roster if s.role}
    dealt: dict[int, str] = {}
    for camp, roles in ((SURVIVOR, SURVIVOR_ROLES), (HUNTER, HUNTER_ROLES)):
        free = [r for r in pool if r in roles and r not in fixed]
        rng.shuffle(free)
        need = [i for i, s in enumerate(roster) if s.camp == camp and not s.role]
        if len(free) < len(need):
            raise StateError("err.state.pool_too_small", camp=camp, need=len(need), have=len(free))
        for i, role in zip(need, free, strict=False):
            dealt[i] = role
    return [s.role or dealt[i] for i, s in enumerate(roster)]


def place_starts(board: Board, roster: Sequence[SeatSpec], rng: random.Random) -> list[Tile]:
    """R-SETUP-3: start zones (or anywhere); hunters never within distance 3 of a survivor."""
    tiles = board.tiles()
    s_zone = list(board.survivor_starts) or tiles
    n_surv = sum(1 for s in roster if s.camp == SURVIVOR)
    picks = rng.sample(s_zone, n_surv) if len(s_zone) >= n_surv else [rng.choice(s_zone) for _ in range(n_surv)]
    h_zone = list(board.hunter_starts) or tiles
    safe = [t for t in h_zone if all(distance(t, s) > 3 for s in picks)]
    if not safe:
        best = max(min(distance(t, s) for s in picks) for t in tiles)
        safe = [t for t in tiles if min(distance(t, s) for s in picks) == best]
    out: list[Tile] = []
    it = iter(picks)
    for s in roster:
        out.append(next(it) if s.camp == SURVIVOR else rng.choice(safe))
    return out


def stock_chests(board: Board, rng: random.Random) -> dict[Tile, str | None]:
    """R-SETUP-4: map-defined contents, the rest from the item pool by seed."""
    chests: dict[Tile, str | None] = {t: None for t in sorted(board.chests, key=lambda t: (t[1], t[0]))}
    fixed = board.chest_item_map()
    for t, item in fixed.items():
        chests[t] = item
    pool = list(board.item_pool)
    rng.shuffle(pool)
    for t in chests:
        if t not in fixed and pool:
            chests[t] = pool.pop()
    return chests


def assassin_passage(board: Board, rng: random.Random, taken: set[Tile], spec: str | None) -> tuple[Tile, Tile]:
    """R-ROLE-ASSASSIN (1): two tiles joined by a path of at most 8 tiles."""
    if spec:
        left, _, right = spec.partition("-")
        ta, tb = parse_tile(left), parse_tile(right)
        if ta is None or tb is None or not board.in_bounds(ta) or not board.in_bounds(tb) or ta == tb:
            raise StateError("err.state.bad_passage", spec=spec)
        return ta, tb
    tiles = [t for t in board.tiles() if t not in taken and t not in board.gates]
    for _ in range(200):
        a = rng.choice(tiles)
        far = _path_lengths(board, a)
        options = [t for t, d in far.items() if 3 <= d <= MAX_PASSAGE_TILES - 1 and t in tiles]
        if options:
            return a, rng.choice(sorted(options))
    raise StateError("err.state.bad_passage", spec="(random)")


def _path_lengths(board: Board, start: Tile) -> dict[Tile, int]:
    seen = {start: 0}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        for n in board.neighbours(cur):
            if n not in seen and board.edge(cur, n) is not Edge.WALL:
                seen[n] = seen[cur] + 1
                queue.append(n)
    return seen


def scaled_targets(n_survivors: int) -> dict[str, int]:
    """RUL-26: victory targets for a roster with other than 8 survivors.

    8 survivors keep the seed's numbers (16 crack points, 4 escapes, 5
    eliminations); other counts scale them (2 points a survivor, half of them
    escaping rounded up, half plus one eliminated), so that a small teaching
    game can still be won by either camp."""
    if n_survivors == 8:
        return {}
    return {
        "crack_target": 2 * n_survivors,
        "survivors_to_win": max(1, (n_survivors + 1) // 2),
        "eliminations_to_win": n_survivors // 2 + 1,
    }


def new_game(
    board: Board,
    roster: Sequence[SeatSpec],
    seed: int,
    options: dict[str, Any] | None = None,
    role_pool: Sequence[str] | None = None,
) -> State:
    rng = random.Random(f"sheetgm/{seed}/setup")
    roles = deal_roles(roster, role_pool, rng)
    starts = place_starts(board, roster, rng)
    players: dict[int, Player] = {}
    for seat, (spec, role, pos) in enumerate(zip(roster, roles, starts, strict=True), 1):
        p = Player(seat=seat, alias=spec.alias, camp=spec.camp, role=role, pos=pos, lang=spec.lang)
        if role == "doctor":
            p.items.append("adrenaline")  # R-SETUP-5
        if role == "lawyer":
            p.items.append("map")
        players[seat] = p
    n_survivors = sum(1 for spec in roster if spec.camp == SURVIVOR)
    st = State(board=board, players=players,
               options={**DEFAULT_OPTIONS, **scaled_targets(n_survivors), **(options or {})})
    st.chests = stock_chests(board, rng)
    st.passages = [Passage(ends=edge_key(a, b)) for a, b in board.passages]
    taken = {t for pa in st.passages for t in pa.ends}
    for p in st.hunters():
        if p.role == "assassin":  # R-SETUP-6
            a, b = assassin_passage(board, rng, taken, st.options.get("assassin_passage"))
            st.passages.append(Passage(ends=edge_key(a, b), owner=p.seat))
            taken |= {a, b}
    return st
