"""Engine benchmark: the CPU time to resolve one full night (both stages) with random legal orders.

Three games, the players in proportion to the area: 10 players on the
standard map (10x10), 40 (32 survivors, 8 hunters) on large4x (20x20), and
160 (128 survivors, 32 hunters) on large4x tiled 2x2 (40x40, built here).
Orders are generated outside the timed region; only ``resolve_survivor_stage``
+ ``resolve_hunter_stage`` are timed, in CPU time (``time.process_time``:
the other users of the machine do not count). Also times ``legal_steps`` and
``check_order`` per player (with the stage's other orders, as ``sheetgm check`` runs it).

    python benchmarks/bench_engine.py [--nights 30] [--repeat 3] [--seed 1] [--orders random|bots] [--sizes 10,40,160]

``--orders bots`` times nights of purposeful bot orders instead (more attacks, eliminations, ends).
"""

from __future__ import annotations

import argparse
import inspect
import random
import statistics
import time
from dataclasses import dataclass, field, replace

from sheetgm.bots import bot_order, random_order, roster_for, scaled_options
from sheetgm.core.board import Board, Tile
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


def tiled(board: Board, k: int) -> Board:
    """k x k copies of a map side by side (passages stay within their copy), for bigger games than any map."""
    w, h = board.width, board.height
    offsets = [(i * w, j * h) for j in range(k) for i in range(k)]

    def tiles(ts: frozenset[Tile] | tuple[Tile, ...]) -> list[Tile]:
        return [(t[0] + dx, t[1] + dy) for dx, dy in offsets for t in ts]

    def edges(es: frozenset[tuple[Tile, Tile]] | tuple[tuple[Tile, Tile], ...]) -> list[tuple[Tile, Tile]]:
        return [((a[0] + dx, a[1] + dy), (b[0] + dx, b[1] + dy)) for dx, dy in offsets for a, b in es]

    return replace(
        board, name=f"{board.name}x{k}", width=w * k, height=h * k,
        obstacles=frozenset(edges(board.obstacles)), walls=frozenset(edges(board.walls)),
        generators=frozenset(tiles(board.generators)), chests=frozenset(tiles(board.chests)),
        gates=frozenset(tiles(board.gates)), dark=frozenset(tiles(board.dark)), flat=frozenset(tiles(board.flat)),
        passages=tuple(edges(board.passages)), survivor_starts=tuple(tiles(board.survivor_starts)),
        hunter_starts=tuple(tiles(board.hunter_starts)),
        chest_items=tuple(((t[0] + dx, t[1] + dy), item) for dx, dy in offsets for t, item in board.chest_items),
        item_pool=board.item_pool * k * k,
    )


def board_for(players: int) -> Board:
    return {10: ready_map("standard"), 40: ready_map("large4x"), 160: tiled(ready_map("large4x"), 2)}[players]


def cycled_roster(board: Board, survivors: int, hunters: int) -> list[SeatSpec]:
    """Roles fixed in turn from every role, so that big games (more seats than roles) can be dealt."""
    roles = [SURVIVOR_ROLES[i % len(SURVIVOR_ROLES)] for i in range(survivors)]
    roles += [HUNTER_ROLES[i % len(HUNTER_ROLES)] for i in range(hunters)]
    return roster_for(board, survivors, hunters, roles=roles)


clock = time.process_time
# An older tree (measured side by side, see the docstring) checks each order alone.
_WITH_OTHERS = "others" in inspect.signature(check_order).parameters


def orders_for(st: State, seats: list[int], rng: random.Random, sample: Sample, bots: bool) -> dict[int, Order]:
    orders = {}
    for seat in seats:
        t0 = clock()
        legal_steps(st, seat)
        sample.legal.append(clock() - t0)
        orders[seat] = bot_order(st, seat, rng) if bots else random_order(st, seat, rng, max_steps=6)
    for seat, order in orders.items():  # as `sheetgm check` does: each with the stage's other orders (RUL-39)
        others = {s: o for s, o in orders.items() if s != seat}
        t0 = clock()
        if _WITH_OTHERS:
            check_order(st, seat, order, others)
        else:
            check_order(st, seat, order)
        sample.check.append(clock() - t0)
    return orders


def run(board: Board, roster: list[SeatSpec], nights: int, seed: int, bots: bool = False) -> Sample:
    rng = random.Random(f"bench/{board.name}/{seed}")
    sample = Sample()
    game = seed
    options = scaled_options(roster)  # targets in proportion to the survivors: big games last
    st = new_game(board, roster, game, options=options)
    while len(sample.nights) < nights:
        if st.over():
            game += 1
            st = new_game(board, roster, game, options=options)
        orders = orders_for(st, [p.seat for p in st.survivors()], rng, sample, bots)
        t0 = clock()
        mid, _ = resolve_survivor_stage(st, orders, game)
        t1 = clock() - t0
        orders = orders_for(mid, [h.seat for h in mid.hunters()], rng, sample, bots)
        t0 = clock()
        st, _ = resolve_hunter_stage(mid, orders, game)
        sample.nights.append(t1 + clock() - t0)
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
    ap.add_argument("--sizes", default="10,40,160", help="players per game: 10, 40 and/or 160 (default all)")
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",")]
    print(f"orders: {args.orders}; {args.nights} nights x {args.repeat} repeats per game size; CPU time")
    first: tuple[int, float] | None = None
    for players in sizes:
        board = board_for(players)
        roster = cycled_roster(board, players * 4 // 5, players // 5)
        total = Sample()
        for r in range(args.repeat):
            s = run(board, roster, args.nights, args.seed + 1000 * r, args.orders == "bots")
            total.nights += s.nights
            total.legal += s.legal
            total.check += s.check
        med = statistics.median(total.nights)
        first = first or (players, med)
        growth = f"; {med / first[1]:.1f}x the {first[0]}-player night for {players / first[0]:g}x the players" \
            if players != first[0] else ""
        print(f"{players} players, {board.name} ({board.width}x{board.height}): night median {ms(med)}, "
              f"p90 {ms(p90(total.nights))}, {med / players * 1e6:.1f} us per player ({len(total.nights)} nights)"
              f"{growth}")
        print(f"  legal_steps per player: median {ms(statistics.median(total.legal))}, "
              f"p90 {ms(p90(total.legal))}; check_order per player: median "
              f"{ms(statistics.median(total.check))}, p90 {ms(p90(total.check))}")


if __name__ == "__main__":
    main()
