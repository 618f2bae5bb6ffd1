"""What protection in force and the row upkeep cost (issue 15), in one process:

- the game's password hash (salted SHA-512, lock.SPIN rounds), worked out once per process;
- writing a player's .xlsx workbook with all its protections (the password's lock checked, the open cells set)
  against the same write without them, and reading the protections back from the file (``audit``);
- finding tonight's row in an Orders tab with filler rows below (``rows.locate``): time, and how many lines the
  player and the director are told (one each, however many rows);
- `check` on a local (.xlsx) 4-player game whose first player pasted filler rows into their Orders tab.

Run: ``python benchmarks/bench_protect.py [--rows 1000000] [--repeat 5]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from sheetgm.backends import port
from sheetgm.backends.xlsx import lock
from sheetgm.backends.xlsx.gateway import XlsxGateway
from sheetgm.service.check import check
from sheetgm.service.config.load import parse_config
from sheetgm.service.game import player_key
from sheetgm.service.new_game import new_game
from sheetgm.sheets import layout
from sheetgm.sheets.player import orders_protect
from sheetgm.sheets.rows import locate


def best(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    start = time.perf_counter()
    lock.password_hash("a game's password", "c2FsdHNhbHRzYWx0c2FsdA==", lock.SPIN)
    print(f"password hash (SHA-512, {lock.SPIN} rounds), once a process: {time.perf_counter() - start:.3f} s")

    with tempfile.TemporaryDirectory() as tmp:
        gw = XlsxGateway(Path(tmp))
        gw.password_source = lambda: "a game's password"
        tabs = [layout.tab("zh", t) for t in layout.PLAYER_TABS]
        gw.create("player-1", "bench", tabs)
        cells = [port.SetValues(layout.rng(tabs[0], f"A{r}:B{r}"), ((f"N{r - 1}-survivor", "搜索"),))
                 for r in range(2, 14)]
        guarded = [*layout.player_protections("zh", ("gm@x.com",)), orders_protect("zh", ("gm@x.com",), 13)]
        gw.write("player-1", cells + guarded)
        gw.write("player-1", cells)
        protected = best(lambda: gw.write("player-1", cells + guarded), args.repeat)
        plain = best(lambda: gw.write("player-1", cells), args.repeat)
        read = best(lambda: gw.protections("player-1"), args.repeat)
        print(f"a player workbook written: {plain * 1000:.1f} ms; with its 5 protections: {protected * 1000:.1f} ms; "
              f"protections read back from the file: {read * 1000:.1f} ms")

    key = "N2-survivor"
    tab = [["N1-survivor", "搜索", "✓", "ok", "", "", ""], [key, "破解", "✓", "", "", "", ""]]
    tab += [["", f"filler {i}", "", "", "", "", ""] for i in range(args.rows)]
    took = best(lambda: locate(tab, key, 2, "zh", "zh", {"N1-survivor": "搜索"}, "S1"), args.repeat)
    found = locate(tab, key, 2, "zh", "zh", {"N1-survivor": "搜索"}, "S1")
    print(f"tonight's row among {args.rows} filler rows: {took:.2f} s; lines told: player {len(found.notes)}, "
          f"director {len(found.director_notes)}")

    with tempfile.TemporaryDirectory() as tmp:
        roster = [{"alias": f"S{i}", "camp": "survivor"} for i in (1, 2, 3)] + [{"alias": "H1", "camp": "hunter"}]
        game = new_game(Path(tmp), parse_config({"name": "b", "seed": 1, "roster": roster}),
                        XlsxGateway(Path(tmp) / "workbooks"))
        rows = min(args.rows, 100_000)
        filler = tuple(("", f"filler {i}") for i in range(rows))
        game.gateway.write(player_key(1), [port.SetValues(f"'{layout.tab('zh', 'orders')}'!A20:B{19 + rows}", filler)])
        start = time.perf_counter()
        rep = check(game)
        said = [w for w in rep.warnings if "S1" in w]
        print(f"check with {rows} filler rows in one Orders tab (.xlsx): {time.perf_counter() - start:.2f} s, "
              f"{len(said)} warning line(s) about them")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
