"""Bot games per second: on one core (CPU time), and on every core (multiprocessing), with the efficiency.

    python benchmarks/bench_bots.py [--games 200] [--map standard] [--workers 0] [--seed 1] [--repeat 3]

1. One core: ``--games`` whole bot games (``sheetgm.bots.play_game``, the
   purposeful bots, 10 players on the standard map) one after another in this
   process, timed in CPU time (``time.process_time``), so the machine's other
   users do not count (the best of ``--repeat`` runs: on a shared machine the
   other processes still slow the caches and the core we share). Also the share
   of that time spent resolving stages (the engine) rather than writing the
   bots' orders.
2. Every core: the same games on a pool of ``--workers`` processes (0: one
   per core), timed in wall time, and the workers' CPU time from
   ``resource.getrusage(RUSAGE_CHILDREN)``. Efficiency = games/s on N cores /
   (N x games/s on one core); the CPU-time efficiency (one-core CPU per game /
   pool CPU per game) leaves out what other users of the machine took.

Only ``play_game(board, roster, seed)`` is used, so the same script measures
an older tree for a side-by-side figure: run it from outside the repository
with ``PYTHONPATH=/path/to/old/tree python /path/to/bench_bots.py``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import time
from collections import Counter
from typing import Any

import sheetgm.bots.play as play
from sheetgm.bots import play_game, roster_for
from sheetgm.core.board import Board
from sheetgm.notation.mapfile import ready_map

_MAP = "standard"
_boards: dict[str, Board] = {}  # per process: the map is read once, as `sheetgm simulate` does


def one(seed: int) -> tuple[str | None, int]:
    board = _boards.get(_MAP)
    if board is None:
        board = _boards[_MAP] = ready_map(_MAP)
    st, _ = play_game(board, roster_for(board), seed)
    return st.winner, st.night


def _init(map_name: str) -> None:
    global _MAP
    _MAP = map_name


def single_core(seeds: range) -> tuple[float, float, list[tuple[str | None, int]]]:
    """(CPU seconds for the games, CPU seconds of it in resolution, results)."""
    spent = [0.0]

    def timed(fn: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            t0 = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[0] += time.process_time() - t0
        return wrapper

    saved = play.resolve_survivor_stage, play.resolve_hunter_stage
    play.resolve_survivor_stage, play.resolve_hunter_stage = timed(saved[0]), timed(saved[1])
    try:
        t0 = time.process_time()
        results = [one(seed) for seed in seeds]
        return time.process_time() - t0, spent[0], results
    finally:
        play.resolve_survivor_stage, play.resolve_hunter_stage = saved


def every_core(seeds: range, workers: int, map_name: str) -> tuple[float, float]:
    """(wall seconds, the workers' CPU seconds) for the games on a pool of processes."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with multiprocessing.get_context(method).Pool(workers, initializer=_init, initargs=(map_name,)) as pool:
        list(pool.imap_unordered(one, seeds, chunksize=max(1, len(seeds) // (workers * 8))))
        pool.close()
        pool.join()
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--map", default="standard")
    ap.add_argument("--workers", type=int, default=0, help="processes for the second part (0: one per core)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="one-core runs; the fastest counts (default 3)")
    args = ap.parse_args(argv)
    _init(args.map)
    seeds = range(args.seed, args.seed + args.games)
    cpu, engine, results = min((single_core(seeds) for _ in range(max(1, args.repeat))), key=lambda run: run[0])
    rate = args.games / cpu
    ends = Counter(w or "unfinished" for w, _ in results)
    nights = sum(n for _, n in results) / len(results)
    print(f"{args.games} bot games on {args.map} (sheetgm from {os.path.dirname(play.__file__)})")
    print(f"one core: {rate:.1f} games/s ({cpu / args.games * 1000:.2f} ms CPU a game, {nights:.2f} nights); "
          f"engine (resolving stages) {engine / cpu:.0%} of it, bots {1 - engine / cpu:.0%}")
    print(f"  endings: {dict(sorted(ends.items()))}")
    workers = args.workers or os.cpu_count() or 1
    wall, pool_cpu = every_core(seeds, workers, args.map)
    print(f"{workers} cores: {args.games / wall:.1f} games/s wall ({pool_cpu / args.games * 1000:.2f} ms CPU a game "
          f"in the workers); efficiency {args.games / wall / (workers * rate):.0%} of {workers} x one core "
          f"(CPU time: {cpu / pool_cpu:.0%})")
    # The same pool with one worker, right after: both wall times share whatever else the machine runs.
    wall1, _ = every_core(seeds, 1, args.map)
    print(f"  the same games on a pool of 1 worker: {args.games / wall1:.1f} games/s wall; {workers} workers are "
          f"{wall1 / wall:.2f}x as fast ({wall1 / wall / workers:.0%} efficiency, wall time against wall time)")


if __name__ == "__main__":
    main()
