"""Sheets sync figures: API calls per stage against the floor, and the time of a local (xlsx) resolve.

For a 10-player game (standard map) and a 30-player game (large4x), bots write every due order into the
players' workbooks, then one stage is resolved:

- on "Google" (the stateful fake in ``fakes.google``, which checks every request and answer
  against Google's discovery documents): the calls of the resolve, as a fresh scheduled run makes them,
  against the floor of one read per workbook that must be read (the director's and the due players') and
  one write per workbook touched, plus the journal. Above the floor: the lock (one write and one read-back
  on the director workbook). Twice: with the other workbooks' tab and protection ids read by each run
  (as before), and kept in a hidden tab of the director workbook (as the gateway now does);
- on local .xlsx workbooks: the CPU time of the resolve (median of the stages timed).

Figures (``--nights 2``, 2026-12-03; reads / writes per stage, reads per night):

    players  ids read by each run           ids kept in the director workbook    floor
    10       13 / 14, 26 a night            10 / 14 and 4 / 14, 13-14 a night     9 / 13 and 3 / 13
             (3-9 reads of tab ids only)    (no read of tab ids only)
    30       33 / 34, 66 a night            26 / 34 and 8 / 34, 34 a night        25 / 33 and 7 / 33
             (7-25 reads of tab ids only)

Run: ``python benchmarks/bench_sync.py [--nights N]``. Nothing here reaches the network.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the Google fake lives with the tests

from fakes.google import FakeGoogle  # noqa: E402

from sheetgm.backends.port import Gateway, SetValues
from sheetgm.backends.xlsx.gateway import XlsxGateway
from sheetgm.bots import bot_order
from sheetgm.core.steps import HUNTER_ROLES, SURVIVOR_ROLES
from sheetgm.notation.order_format import format_order
from sheetgm.service.config import parse_config
from sheetgm.service.game import DIRECTOR, Game, player_key
from sheetgm.service.journal import latest, read_director
from sheetgm.service.new_game import new_game
from sheetgm.service.resolve import resolve
from sheetgm.sheets import layout
from sheetgm.sheets.stages import order_row

SIZES = ((10, "standard"), (30, "large4x"))


def config(players: int, board: str) -> dict[str, Any]:
    survivors = players * 4 // 5
    roster = [{"alias": f"S{i}", "camp": "survivor", "role": SURVIVOR_ROLES[i % len(SURVIVOR_ROLES)]}
              for i in range(1, survivors + 1)]
    roster += [{"alias": f"H{i}", "camp": "hunter", "role": HUNTER_ROLES[i % len(HUNTER_ROLES)]}
               for i in range(1, players - survivors + 1)]
    return {"name": f"bench{players}", "map": board, "seed": 11, "roster": roster}


def write_bot_orders(game: Game, rng: random.Random) -> None:
    """Every due player's order, written into their Orders row as a player would."""
    state = latest(read_director(game)[0]).state(game.board)
    for p in (state.survivors() if state.stage == "survivor" else state.hunters()):
        lang = game.seat_lang(p.seat)
        text = format_order(bot_order(state, p.seat, rng), lang)
        r = order_row(state.night)
        game.gateway.write(player_key(p.seat), [SetValues(layout.rng(layout.tab(lang, "orders"), f"B{r}:C{r}"),
                                                          ((text, "✓"),))])


def make(folder: Path, gateway: Gateway, players: int, board: str) -> Game:
    return new_game(folder, parse_config(config(players, board)), gateway,
                    clock=lambda: datetime(2024, 5, 1, 12, 0, tzinfo=UTC))


def google_calls(players: int, board: str, nights: int, home: str | None
                 ) -> list[tuple[str, Counter[str], int, int]]:
    """(stage, calls by kind, floor reads, floor writes) for each stage resolved; ``home`` is the workbook
    whose hidden tab keeps the others' tab and protection ids (None: each process reads them)."""
    out = []
    rng = random.Random(1)
    with FakeGoogle() as fake, tempfile.TemporaryDirectory() as tmp:  # the fake checks every call (discovery)
        game = make(Path(tmp), fake.gateway(meta_home=home), players, board)
        for _ in range(nights * 2):
            write_bot_orders(game, rng)
            # A scheduled run is a fresh process: a new gateway, with nothing cached in memory.
            fresh = fake.gateway(ids=game.gateway.ids, meta_home=home)  # type: ignore[attr-defined]
            game = dataclasses.replace(game, gateway=fresh)
            first = len(fake.log)
            rep = resolve(game)
            calls = fake.log[first:]
            sid_of = {v: k for k, v in fresh.ids.items()}
            read_books, written_books = set(), set()
            kinds: Counter[str] = Counter()
            for c in calls:
                sid = c.url.split("/spreadsheets/")[1].split(":")[0].split("/")[0].split("?")[0]
                book = sid_of.get(sid, sid)
                if c.method == "GET":
                    kinds["read"] += 1
                    if c.kind == "meta" and "fields" not in c.params:  # tab ids only, no values
                        kinds["metadata"] += 1
                    else:
                        read_books.add(book)
                else:
                    written_books.add(book)
                    kinds["write"] += 1
                kinds["director " + ("read" if c.method == "GET" else "write")] += book == DIRECTOR
            out.append((rep.stage, kinds, len(read_books), len(written_books) + 1))
            if rep.winner:
                break
    return out


def xlsx_times(players: int, board: str, nights: int) -> list[float]:
    rng = random.Random(2)
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        game = make(folder, XlsxGateway(folder / "workbooks"), players, board)
        for _ in range(nights * 2):
            write_bot_orders(game, rng)
            t0 = time.process_time()
            rep = resolve(game)
            times.append(time.process_time() - t0)
            if rep.winner:
                break
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nights", type=int, default=2, help="nights to resolve per game size (default 2)")
    args = ap.parse_args()
    for players, board in SIZES:
        print(f"{players} players on {board} ({players} player workbooks + public + director):")
        for home, label in ((None, "tab ids read by each run"), (DIRECTOR, "tab ids kept in the director workbook")):
            stages = google_calls(players, board, args.nights, home)
            print(f"  Google, {label}:")
            for stage, kinds, floor_r, floor_w in stages:
                print(f"    {stage:12} {kinds['read']:3} reads ({kinds['metadata']:2} of them tab ids only), "
                      f"{kinds['write']:3} writes   floor: {floor_r:3} reads, {floor_w:3} writes   "
                      f"(director workbook: {kinds['director read']} reads, {kinds['director write']} writes)")
            nightly = [a[1]["read"] + b[1]["read"] for a, b in zip(stages[::2], stages[1::2], strict=False)]
            print(f"    reads per night: {', '.join(map(str, nightly))}")
        times = xlsx_times(players, board, args.nights)
        print(f"  local xlsx resolve: median {statistics.median(times):.2f} s CPU, max {max(times):.2f} s "
              f"over {len(times)} stages")


if __name__ == "__main__":
    main()
