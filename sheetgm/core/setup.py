"""A new game from a map, a roster and a seed (R-SETUP)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from sheetgm.core.board import Board, Tile, distance, edge_key
from sheetgm.core.errors import StateError
from sheetgm.core.passages import parse_passage
from sheetgm.core.state import DEFAULT_OPTIONS, HUNTER, SURVIVOR, Passage, Player, State
from sheetgm.core.steps import HUNTER_ROLES, SURVIVOR_ROLES
from sheetgm.core.values import Value, record


@record(frozen=True)
class SeatSpec(Value):
    """A seat as the config declares it: alias, and camp and role if chosen."""

    alias: str
    camp: str | None = None  # "survivor" | "hunter"; None: drawn with the role (R-SETUP-2)
    role: str | None = None  # None: dealt from the pool
    lang: str = "zh"
    passage: str | None = None  # the Master Assassin's passage "B2-E5", when she named it before the game


def deal_camps(roster: Sequence[SeatSpec], hunters: int, rng: random.Random) -> list[str]:
    """R-SETUP-1/2: a seat with no camp gets one with its role card: of the open seats, as many draw
    the hunters' camp as ``hunters`` (the game's option) leaves after the fixed seats. A fixed role
    fixes its camp. With every camp fixed nothing is drawn (the roster decides the counts)."""
    camps = [s.camp or _camp_of_role(s.role) for s in roster]
    open_seats = [i for i, c in enumerate(camps) if c is None]
    if not open_seats:
        return [c for c in camps if c is not None]
    need = hunters - camps.count(HUNTER)
    if not 0 <= need <= len(open_seats):
        raise StateError("err.state.camp_count", hunters=hunters, open=len(open_seats))
    drawn = set(rng.sample(open_seats, need))
    return [c if c is not None else (HUNTER if i in drawn else SURVIVOR) for i, c in enumerate(camps)]


def _camp_of_role(role: str | None) -> str | None:
    if role in SURVIVOR_ROLES:
        return SURVIVOR
    if role in HUNTER_ROLES:
        return HUNTER
    return None


def deal_roles(roster: Sequence[SeatSpec], camps: Sequence[str], pool: Sequence[str] | None,
               rng: random.Random) -> list[str]:
    """R-SETUP-2: seeded deal without duplicates from the director's pool."""
    pool = list(pool) if pool else list(SURVIVOR_ROLES + HUNTER_ROLES)
    fixed = {s.role for s in roster if s.role}
    dealt: dict[int, str] = {}
    for camp, roles in ((SURVIVOR, SURVIVOR_ROLES), (HUNTER, HUNTER_ROLES)):
        free = [r for r in pool if r in roles and r not in fixed]
        rng.shuffle(free)
        need = [i for i, s in enumerate(roster) if camps[i] == camp and not s.role]
        if len(free) < len(need):
            raise StateError("err.state.pool_too_small", camp=camp, need=len(need), have=len(free))
        for i, role in zip(need, free, strict=False):
            dealt[i] = role
    return [s.role or dealt[i] for i, s in enumerate(roster)]


def place_starts(board: Board, camps: Sequence[str], rng: random.Random) -> list[Tile]:
    """R-SETUP-3: start zones (or anywhere); hunters never within distance 3 of a survivor."""
    tiles = board.tiles()
    s_zone = list(board.survivor_starts) or tiles
    n_surv = camps.count(SURVIVOR)
    picks = rng.sample(s_zone, n_surv) if len(s_zone) >= n_surv else [rng.choice(s_zone) for _ in range(n_surv)]
    h_zone = list(board.hunter_starts) or tiles
    safe = [t for t in h_zone if all(distance(t, s) > 3 for s in picks)]
    if not safe:
        best = max(min(distance(t, s) for s in picks) for t in tiles)
        safe = [t for t in tiles if min(distance(t, s) for s in picks) == best]
    out: list[Tile] = []
    it = iter(picks)
    for camp in camps:
        out.append(next(it) if camp == SURVIVOR else rng.choice(safe))
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


def scaled_targets(n_survivors: int) -> dict[str, int]:
    """RUL-26, a house rule (option ``scale_targets``): victory targets for other than 8 survivors.

    The seed's numbers (16 crack points, 4 escapes, 5 eliminations) are for 8
    survivors; the house rule scales them (2 points a survivor, half of them
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
    given = dict(options or {})
    camps = deal_camps(roster, int(given.get("hunters", DEFAULT_OPTIONS["hunters"])), rng)
    roles = deal_roles(roster, camps, role_pool, rng)
    starts = place_starts(board, camps, rng)
    players: dict[int, Player] = {}
    for seat, (spec, camp, role, pos) in enumerate(zip(roster, camps, roles, starts, strict=True), 1):
        p = Player(seat=seat, alias=spec.alias, camp=camp, role=role, pos=pos, lang=spec.lang)
        if role == "doctor":
            p.items.append("adrenaline")  # R-SETUP-5
        if role == "lawyer":
            p.items.append("map")
        players[seat] = p
    targets = scaled_targets(camps.count(SURVIVOR)) if given.get("scale_targets") else {}
    st = State(board=board, players=players, options={**DEFAULT_OPTIONS, **targets, **given})
    st.chests = stock_chests(board, rng)
    st.passages = [Passage(ends=edge_key(a, b)) for a, b in board.passages]
    for spec, p in zip(roster, st.players.values(), strict=True):
        if spec.passage and p.role != "assassin":
            raise StateError("err.state.passage_not_assassin", alias=p.alias)
        spec_text = spec.passage or (given.get("assassin_passage") if p.role == "assassin" else None)
        if spec_text:  # R-SETUP-6; else she names it on night 1 (RUL-30)
            a, b = parse_passage(board, st.passages, str(spec_text))
            st.passages.append(Passage(ends=edge_key(a, b), owner=p.seat))
    return st
