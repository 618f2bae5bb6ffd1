"""How well the bots play: one table over many whole bot games, to compare a change to the bots' decisions.

    python benchmarks/bots_quality.py [--games 300] [--teach 300]

Games (``sheetgm.bots.play_game``, the purposeful bots) on the standard map (seeds 1..``--games``, which holds
the seeds of ``bench_bots.py`` and ``bots_fingerprint.py``) and on the teaching map (seeds 1..``--teach``; its
games vary more: with 60 a win share moves by ±6 points). Per map: the games each camp won (and draws),
survivors escaped and eliminated per game, hunters' hits per game, the crack progress at the end (generators
repaired), stages per game, and per stage's orders: those the checker refuses (``check_order`` before the stage
is resolved: must be 0) and the idle ones (no step at all) of each camp.
Only ``play_game`` and the module's two resolvers are used, so the same script measures an older tree:
``PYTHONPATH=/path/to/old/tree python bots_quality.py``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from typing import Any

import sheetgm.bots.play as play
from sheetgm.bots import play_game, roster_for
from sheetgm.core.check import check_order
from sheetgm.notation.mapfile import ready_map


def measure(map_name: str, seeds: range) -> Counter[str]:
    board = ready_map(map_name)
    c: Counter[str] = Counter()
    saved = play.resolve_survivor_stage, play.resolve_hunter_stage

    def watching(fn: Any, camp: str) -> Any:
        def wrapper(state: Any, orders: dict[int, Any], seed: int, **kwargs: Any) -> Any:
            c["stages"] += 1
            for seat, order in orders.items():
                if not state.players[seat].in_play:
                    continue
                c[f"{camp} orders"] += 1
                if check_order(state, seat, order, orders):
                    c[f"{camp} refused"] += 1
                if not order.steps:
                    c[f"{camp} idle"] += 1
            new, events = fn(state, orders, seed, **kwargs)
            for e in events:
                if e.kind == "attack_hit":
                    c["hits"] += 1
            return new, events
        return wrapper

    play.resolve_survivor_stage = watching(saved[0], "survivor")
    play.resolve_hunter_stage = watching(saved[1], "hunter")
    try:
        for seed in seeds:
            st, _ = play_game(board, roster_for(board), seed)
            c["games"] += 1
            c[f"won by {st.winner}"] += 1
            c["escaped"] += len(st.escaped)
            c["eliminated"] += len(st.eliminated)
            c["progress"] += st.progress
            c["nights"] += st.night
    finally:
        play.resolve_survivor_stage, play.resolve_hunter_stage = saved
    return c


def table(name: str, c: Counter[str]) -> list[str]:
    g = c["games"]

    def share(k: str) -> str:
        return f"{100 * c[k] / g:.1f} %"

    def per_game(k: str) -> str:
        return f"{c[k] / g:.2f}"

    def per_order(camp: str, k: str) -> str:
        n = c[f"{camp} orders"]
        return f"{100 * c[f'{camp} {k}'] / n:.1f} % ({c[f'{camp} {k}']})" if n else "-"

    rows = [
        ("games", str(g)),
        ("won by survivors", share("won by survivors")),
        ("won by hunters", share("won by hunters")),
        ("draws / unfinished", f"{100 * (g - c['won by survivors'] - c['won by hunters']) / g:.1f} %"),
        ("survivors escaped a game", per_game("escaped")),
        ("survivors eliminated a game", per_game("eliminated")),
        ("hunters' hits a game", per_game("hits")),
        ("crack progress at the end", per_game("progress")),
        ("stages a game", per_game("stages")),
        ("survivors' orders refused", per_order("survivor", "refused")),
        ("survivors' orders idle", per_order("survivor", "idle")),
        ("hunters' orders refused", per_order("hunter", "refused")),
        ("hunters' orders idle", per_order("hunter", "idle")),
    ]
    return [f"| {name}: {k} | {v} |" for k, v in rows]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=300, help="games on the standard map (default 300)")
    ap.add_argument("--teach", type=int, default=300,
                    help="games on the teaching map (default 300: with 60 a win share moves by ±6 points)")
    args = ap.parse_args(argv)
    print(f"sheetgm from {play.__file__}")
    print("| measure | value |\n| --- | --- |")
    for name, n in (("standard", args.games), ("teach", args.teach)):
        if n > 0:
            print("\n".join(table(name, measure(name, range(1, n + 1)))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
