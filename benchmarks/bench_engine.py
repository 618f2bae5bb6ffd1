"""Engine benchmark: the time to resolve one full night (both stages) with random legal orders.

Two games: 10 players on the standard map, and 40 players (32 survivors, 8
hunters) on large4x, four times the area. Orders are generated outside the
timed region; only ``resolve_survivor_stage`` + ``resolve_hunter_stage`` are
timed. Also times ``legal_steps`` and ``check_order`` per player.

    python benchmarks/bench_engine.py [--nights 30] [--repeat 3] [--seed 1] [--orders random|bots]

``--orders bots`` times nights of purposeful bot orders instead (more attacks, eliminations, ends).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass, field

from sheetgm.bots import bot_order, random_order, roster_for
from sheetgm.core.check import check_order, legal_steps
from sheetgm.core.resolve import resolve_hunter_stage, resolve_survivor_stage
from sheetgm.core.setup import SeatSpec, new_game
from sheetgm.core.state import State
from sheetgm.core.steps import HUNTER_ROLES, SURVIVOR_ROLES, Order
from sheetgm.notation.mapfile import ready_map


@dataclass
class Sample:
    nights: list[float] = field(default_factory=list)  # seconds per night, both stages
    legal: list[float] = field(default_factory=list)  # seconds per legal_steps call
    check: list[float] = field(default_factory=list)  # seconds per check_order call


def cycled_roster(board_name: str, survivors: int, hunters: int) -> list[SeatSpec]:
    """Roles fixed in turn from every role, so that big games (more seats than roles) can be dealt."""
    board = ready_map(board_name)
    roles = [SURVIVOR_ROLES[i % len(SURVIVOR_ROLES)] for i in range(survivors)]
    roles += [HUNTER_ROLES[i % len(HUNTER_ROLES)] for i in range(hunters)]
    return roster_for(board, survivors, hunters, roles=roles)


def orders_for(st: State, seats: list[int], rng: random.Random, sample: Sample, bots: bool) -> dict[int, Order]:
    orders = {}
    for seat in seats:
        t0 = time.perf_counter()
        legal_steps(st, seat)
        sample.legal.append(time.perf_counter() - t0)
        order = bot_order(st, seat, rng) if bots else random_order(st, seat, rng, max_steps=6)
        t0 = time.perf_counter()
        check_order(st, seat, order)
        sample.check.append(time.perf_counter() - t0)
        orders[seat] = order
    return orders


def run(board_name: str, roster: list[SeatSpec], nights: int, seed: int, bots: bool = False) -> Sample:
    board = ready_map(board_name)
    rng = random.Random(f"bench/{board_name}/{seed}")
    sample = Sample()
    game = seed
    st = new_game(board, roster, game)
    while len(sample.nights) < nights:
        if st.over():
            game += 1
            st = new_game(board, roster, game)
        orders = orders_for(st, [p.seat for p in st.survivors()], rng, sample, bots)
        t0 = time.perf_counter()
        mid, _ = resolve_survivor_stage(st, orders, game)
        t1 = time.perf_counter() - t0
        orders = orders_for(mid, [h.seat for h in mid.hunters()], rng, sample, bots)
        t0 = time.perf_counter()
        st, _ = resolve_hunter_stage(mid, orders, game)
        sample.nights.append(t1 + time.perf_counter() - t0)
    return sample


def p90(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=10)[-1] if len(xs) >= 2 else xs[0]


def ms(x: float) -> str:
    return f"{x * 1000:.2f} ms"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--nights", type=int, default=30, help="timed nights per repeat (default 30)")
    ap.add_argument("--repeat", type=int, default=3, help="repeats with different seeds (default 3)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--orders", choices=("random", "bots"), default="random",
                    help="random legal orders (default) or purposeful bot orders")
    args = ap.parse_args(argv)
    cases = [
        ("10 players, standard (10x10)", "standard", cycled_roster("standard", 8, 2)),
        ("40 players, large4x (20x20)", "large4x", cycled_roster("large4x", 32, 8)),
    ]
    print(f"orders: {args.orders}; {args.nights} nights x {args.repeat} repeats per game size")
    medians = []
    for label, board_name, roster in cases:
        total = Sample()
        for r in range(args.repeat):
            s = run(board_name, roster, args.nights, args.seed + 1000 * r, args.orders == "bots")
            total.nights += s.nights
            total.legal += s.legal
            total.check += s.check
        med = statistics.median(total.nights)
        medians.append(med)
        print(f"{label}: night median {ms(med)}, p90 {ms(p90(total.nights))} "
              f"({len(total.nights)} nights)")
        print(f"  legal_steps per player: median {ms(statistics.median(total.legal))}, "
              f"p90 {ms(p90(total.legal))}; check_order per player: median "
              f"{ms(statistics.median(total.check))}, p90 {ms(p90(total.check))}")
    ratio = medians[1] / medians[0]
    print(f"growth: 4x players and 4x area cost {ratio:.1f}x per night "
          f"({ratio / 4:.2f}x per player)")


if __name__ == "__main__":
    main()
