"""Playing many bot games, on every core (one process per core, games handed out in chunks).

Each game is a pure function of (map, seed): the results do not depend on
the number of processes or the order they finish in, and ``simulate``
returns them sorted by map and seed.
"""

from __future__ import annotations

import multiprocessing
import os
import random
from collections.abc import Callable, Sequence
from pathlib import Path

from sheetgm.bots import play_game, roster_for
from sheetgm.core.board import Board
from sheetgm.core.errors import SheetgmError
from sheetgm.core.setup import SeatSpec
from sheetgm.core.state import ESCAPED, IN_PLAY, SURVIVOR
from sheetgm.core.steps import HUNTER_ROLES, SURVIVOR_ROLES
from sheetgm.core.values import Value, record

MAX_NIGHTS = 30

_boards: dict[str, Board] = {}  # per process: a map is read and validated once


@record(frozen=True)
class Seat(Value):
    role: str
    camp: str  # survivor | hunter
    outcome: str  # escaped | eliminated | in (still in play at the end) for survivors; in for hunters


@record(frozen=True)
class GameResult(Value):
    map: str
    seed: int
    winner: str | None  # survivors | hunters | draw | None (not over after the last night)
    reason: str | None
    nights: int  # nights played
    seats: tuple[Seat, ...]


def board_of(spec: str) -> Board:
    """A shipped map by name (``standard``) or a ``.map`` file."""
    board = _boards.get(spec)
    if board is None:
        from sheetgm.notation.mapfile import load_map_file, ready_map

        board = load_map_file(spec) if spec.endswith(".map") or Path(spec).is_file() else ready_map(spec)
        _boards[spec] = board
    return board


def roster_of(board: Board, seed: int) -> list[SeatSpec]:
    """The map's seats; roles are dealt by the game (R-SETUP-2) unless a camp has more seats than
    roles (large4x: 32 survivors), then each role comes in turn, in an order drawn from the seed."""
    seats = roster_for(board)
    n_s = sum(1 for s in seats if s.camp == SURVIVOR)
    n_h = len(seats) - n_s
    if n_s <= len(SURVIVOR_ROLES) and n_h <= len(HUNTER_ROLES):
        return seats
    rng = random.Random(f"sheetgm-sim-roles/{seed}")
    roles: list[str | None] = []
    for pool, n in ((SURVIVOR_ROLES, n_s), (HUNTER_ROLES, n_h)):
        order = list(pool)
        rng.shuffle(order)
        roles += [order[i % len(order)] for i in range(n)]
    return roster_for(board, n_s, n_h, roles=roles)


def play_one(task: tuple[str, int, int]) -> GameResult:
    """One bot game: (map, seed, most nights) → its result."""
    spec, seed, max_nights = task
    board = board_of(spec)
    st, _ = play_game(board, roster_of(board, seed), seed, max_nights=max_nights)
    seats = []
    for p in st.players.values():
        if p.is_robot:
            continue
        outcome = "escaped" if p.status == ESCAPED else "in" if p.status == IN_PLAY else "eliminated"
        seats.append(Seat(p.role or "", p.camp, outcome))
    nights = st.night if st.over() else st.night - 1
    return GameResult(board.name, seed, st.winner, st.end_reason, nights, tuple(seats))


class SameMapError(SheetgmError):
    """Two --map values name one board (params: first, second, name): their games would be counted as one map's."""

    code = "err.sim.same_map"


def simulate(maps: Sequence[str], games: int, seed: int = 1, workers: int | None = None,
             max_nights: int = MAX_NIGHTS, advance: Callable[[], None] | None = None) -> list[GameResult]:
    """``games`` games on each map (seeds ``seed`` .. ``seed + games - 1``) on ``workers`` processes
    (default: every core); ``advance`` is called once per finished game (a progress bar)."""
    seen: dict[str, str] = {}
    for spec in maps:
        name = board_of(spec).name  # a bad map fails here, in this process, with its own error
        if name in seen:
            raise SameMapError(first=seen[name], second=spec, name=name)
        seen[name] = spec
    tasks = [(spec, seed + i, max_nights) for spec in maps for i in range(games)]
    workers = max(1, min(workers or os.cpu_count() or 1, len(tasks) or 1))
    results: list[GameResult] = []
    if workers == 1:
        for task in tasks:
            results.append(play_one(task))
            if advance is not None:
                advance()
    else:
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        with multiprocessing.get_context(method).Pool(workers) as pool:
            chunk = max(1, min(50, len(tasks) // (workers * 8)))
            for result in pool.imap_unordered(play_one, tasks, chunksize=chunk):
                results.append(result)
                if advance is not None:
                    advance()
    order = {spec: i for i, spec in enumerate(maps)}
    names = {board_of(spec).name: order[spec] for spec in maps}
    return sorted(results, key=lambda r: (names.get(r.map, 0), r.seed))
