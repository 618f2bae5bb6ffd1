"""Google API calls per night, counted on the stateful fake (every request checked against Google's discovery
documents), and a 100-player night with a check overlapping each resolve under Google's per-minute quotas.

Each command runs as a fresh scheduled process would: a new gateway, nothing in memory. Bots write every
due player's order into their workbook (as the director's login, not counted). Three ways to run a night:

- ``resolve``: the survivors' and the hunters' resolves after their deadlines, nothing else;
- ``check+resolve``: one ``check`` before each resolve;
- ``workflow``: what resolve.yml does: six runs before each deadline (check, then a resolve that waits
  unless everyone has submitted), the orders coming in across them (a sixth of the players before each run,
  the last sixth after the last one), and one run after the deadline.

Counted per night (the average of ``--nights``): Sheets reads and writes (the per-user quota: 60 a minute
each) and Drive calls (own quota), by command. ``--src DIR`` measures another source tree (its sheetgm
and its tests/fakes), e.g. main for the "before" figures: ``git archive main | tar -x -C /tmp/main``.

The overlap: a 100-player game, two nights; at each stage a resolve (in the game folder) and a check (in a
second checkout of the same game: another folder, so the folder lock lets both run) start together, two
threads with their own gateway acting as the same account, on a virtual clock (tests/fakes/virtualclock.py:
time moves only when both wait, so calls go as fast as they can), the fake answering 429 past 60 reads or
60 writes a minute. Once with a pacing log per process (as before), once with the log shared by both.

Run: ``python benchmarks/bench_sync.py [--nights 2] [--sizes 10,30,100] [--src DIR] [--no-overlap]``.
Nothing here reaches the network.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import shutil
import sys
import tempfile
import threading
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

SRC = Path(__file__).resolve().parents[1]
if "--src" in sys.argv:
    SRC = Path(sys.argv[sys.argv.index("--src") + 1]).resolve()
sys.path[:0] = [str(SRC), str(SRC / "tests")]  # the tree measured, and its Google fake (it lives with the tests)

from fakes.google import FakeGoogle  # noqa: E402

from sheetgm.backends.port import SetValues  # noqa: E402
from sheetgm.bots import bot_order  # noqa: E402
from sheetgm.core.steps import HUNTER_ROLES, SURVIVOR_ROLES  # noqa: E402
from sheetgm.notation.order_format import format_order  # noqa: E402
from sheetgm.service.check import check  # noqa: E402
from sheetgm.service.config.load import parse_config  # noqa: E402
from sheetgm.service.game import DIRECTOR, Game, player_key  # noqa: E402
from sheetgm.service.ledger.journal import latest, read_director  # noqa: E402
from sheetgm.service.new_game import new_game  # noqa: E402
from sheetgm.service.resolve import resolve  # noqa: E402
from sheetgm.sheets import layout  # noqa: E402
from sheetgm.sheets.stages import order_row  # noqa: E402

BOARDS = {10: "standard", 30: "large4x"}  # 100 players: large4x tiled 2x2 (40x40, as bench_engine builds it)
START = datetime(2024, 5, 1, tzinfo=UTC)
DEADLINES = {"survivor": timedelta(hours=21), "hunter": timedelta(hours=23)}
BEFORE = (-110, -90, -53, -38, -23, -8)  # minutes before a deadline: the workflow's check runs
AFTER = 7  # minutes after it: the resolve run


def big_map(folder: Path) -> str:
    """large4x tiled 2x2 (40x40: 128 survivor and 32 hunter starts), written into the game folder."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_engine import tiled

    from sheetgm.notation.mapfile import dump_map, ready_map

    (folder / "big.map").write_text(dump_map(tiled(ready_map("large4x"), 2)), "utf-8")
    return "big.map"


def config(players: int, board: str) -> dict[str, Any]:
    survivors = players * 4 // 5
    roster = [{"alias": f"S{i}", "camp": "survivor", "role": SURVIVOR_ROLES[i % len(SURVIVOR_ROLES)]}
              for i in range(1, survivors + 1)]
    roster += [{"alias": f"H{i}", "camp": "hunter", "role": HUNTER_ROLES[i % len(HUNTER_ROLES)]}
               for i in range(1, players - survivors + 1)]
    return {"name": f"bench{players}", "map": board, "seed": 11, "roster": roster, "timezone": "UTC",
            "schedule": {"survivors": "21:00", "hunters": "23:00", "start": "2024-05-01"}}


class Night:
    """A game on the fake and its clock; each command a fresh process."""

    def __init__(self, fake: FakeGoogle, folder: Path, players: int) -> None:
        self.fake, self.folder = fake, folder
        self.now = START
        folder.mkdir(parents=True, exist_ok=True)
        board = BOARDS.get(players) or big_map(folder)
        made = new_game(folder, parse_config(config(players, board)), fake.gateway(meta_home=DIRECTOR),
                        clock=lambda: START)
        self.game = dataclasses.replace(made, clock=lambda: self.now)
        self.rng = random.Random(1)
        self.players = self.game.gateway  # where the players' own saves go (bench_webdav: clients of their own)

    def fresh(self, folder: Path | None = None) -> Game:
        gw = self.fake.gateway(ids=dict(self.game.gateway.ids), meta_home=DIRECTOR)  # type: ignore[attr-defined]
        return dataclasses.replace(self.game, gateway=gw, folder=folder or self.folder)

    def state(self) -> Any:
        return latest(read_director(self.game)[0]).state(self.game.board)

    def due(self) -> list[int]:
        st = self.state()
        return [p.seat for p in (st.survivors() if st.stage == "survivor" else st.hunters())]

    def write_orders(self, seats: list[int]) -> None:
        """The bots' orders of ``seats`` written into their Orders rows, as the players would."""
        st = self.state()
        for seat in seats:
            lang = self.game.seat_lang(seat)
            text = format_order(bot_order(st, seat, self.rng), lang)
            r = order_row(st.night)
            self.players.write(player_key(seat), [SetValues(layout.rng(layout.tab(lang, "orders"),
                                                                       f"B{r}:C{r}"), ((text, "✓"),))])

    def deadline(self) -> datetime:
        st = self.state()
        return START + timedelta(days=st.night - 1) + DEADLINES[st.stage]

    def run(self, what: str, tally: Counter[str]) -> Any:
        start = len(self.fake.log)
        rep = check(self.fresh()) if what == "check" else resolve(self.fresh())
        for c in self.fake.log[start:]:
            if c.kind == "token":
                continue
            api = "drive" if "www.googleapis.com" in c.url else ("read" if c.method == "GET" else "write")
            tally[f"{what} {api}"] += 1
            if api == "write":
                tally[f"{what} bytes"] += len(json.dumps(c.body, ensure_ascii=False).encode("utf-8"))
        return rep


def night_calls(players: int, nights: int, way: str) -> Counter[str]:
    """Calls per night of ``way`` (resolve | check+resolve | workflow), summed over ``nights``."""
    tally: Counter[str] = Counter()
    with FakeGoogle() as fake, tempfile.TemporaryDirectory() as tmp:
        night = Night(fake, Path(tmp), players)
        for _ in range(nights * 2):
            due = night.due()
            end = night.deadline()
            if way == "workflow":
                waves = [due[i::len(BEFORE)] for i in range(len(BEFORE))]
                for minutes, wave in zip(BEFORE, waves, strict=True):
                    night.now = end + timedelta(minutes=minutes)
                    if minutes != BEFORE[-1]:
                        night.write_orders(wave)
                    night.run("check", tally)
                    night.run("resolve", tally)
                night.write_orders(waves[-1])  # the last sixth, after the last run before the deadline
            else:
                night.write_orders(due)
            night.now = end + timedelta(minutes=AFTER)
            if way != "resolve":
                night.run("check", tally)
            rep = night.run("resolve", tally)
            if rep.winner:
                break
    return tally


def one_resolve(players: int) -> tuple[int, int, int, int]:
    """The Sheets reads and writes of the second stage's resolve (every workbook known by then), measured on the
    fake, and what ``publish.stage_calls`` (doctor's estimate) says for it."""
    from sheetgm.service.publish import stage_calls

    tally: Counter[str] = Counter()
    with FakeGoogle() as fake, tempfile.TemporaryDirectory() as tmp:
        night = Night(fake, Path(tmp), players)
        for stage in range(2):
            due = night.due()
            night.write_orders(due)
            night.now = night.deadline() + timedelta(minutes=AFTER)
            if stage:
                night.run("resolve", tally)
            else:
                night.run("resolve", Counter())
    return tally["resolve read"], tally["resolve write"], *stage_calls(players, len(due))


def overlap(players: int, nights: int, shared: bool) -> dict[str, Any]:
    """A night with a check (in a second folder) overlapping each resolve, both paced, quotas enforced."""
    from fakes.virtualclock import VirtualClock

    from sheetgm.backends.google.ratelimit import RateLimiter, SharedRateLimiter

    out: dict[str, Any] = {"refused": 0, "failed": [], "minutes": 0.0, "calls": 0}
    with FakeGoogle() as fake, tempfile.TemporaryDirectory() as tmp:
        night = Night(fake, Path(tmp) / "game", players)
        other = Path(tmp) / "checkout"
        shutil.copytree(night.folder, other)
        log = Path(tmp) / "quota.json"
        for _ in range(nights * 2):
            night.write_orders(night.due())
            night.now = night.deadline() + timedelta(minutes=AFTER)
            clock = VirtualClock()
            quota = fake.enforce_quota(clock=clock.time)
            start, t0 = len(fake.log), clock.now
            reports: list[Any] = []

            def process(what: str, folder: Path, clock: VirtualClock = clock, reports: list[Any] = reports) -> None:
                clock.join()
                try:
                    game = night.fresh(folder)
                    gw: Any = game.gateway
                    gw.http.policy.sleep = clock.sleep
                    gw.http.limiter = (SharedRateLimiter(log, clock=clock.time, sleep=clock.sleep) if shared
                                       else RateLimiter(clock=clock.time, sleep=clock.sleep))
                    reports.append(resolve(game) if what == "resolve" else check(game))
                except Exception as exc:  # noqa: BLE001 - a run that fails is what is measured
                    out["failed"].append(f"{what}: {type(exc).__name__}: {str(exc)[:100]}")
                finally:
                    clock.leave()

            threads = [threading.Thread(target=process, args=("resolve", night.folder)),
                       threading.Thread(target=process, args=("check", other))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            fake.quota = None
            out["refused"] += quota.refusals
            out["minutes"] += (clock.now - t0) / 60
            out["calls"] += sum(1 for c in fake.log[start:] if "sheets.googleapis.com" in c.url)
            if any(getattr(r, "winner", None) for r in reports):
                break
            if not any(getattr(r, "action", "") in ("resolved", "resolved-early") for r in reports):
                out["failed"].append("the stage was not resolved")
                break
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nights", type=int, default=2, help="nights per figure (default 2)")
    ap.add_argument("--sizes", default="10,30,100", help="players per game, comma-separated")
    ap.add_argument("--ways", default="resolve,check+resolve,workflow")
    ap.add_argument("--src", default=None, help="the source tree to measure (default: this one)")
    ap.add_argument("--no-overlap", action="store_true", help="skip the overlapping night")
    ap.add_argument("--overlap-players", type=int, default=100, help="players of the overlapping night (100)")
    args = ap.parse_args()
    print(f"source tree: {SRC}")
    print("calls per night (Sheets reads / Sheets writes / Drive calls), by command, and the bytes of the writes:")
    for players in [int(x) for x in args.sizes.split(",")]:
        for way in args.ways.split(","):
            t = night_calls(players, args.nights, way)
            n = args.nights
            parts = [f"{cmd} {t[f'{cmd} read'] / n:6.1f} / {t[f'{cmd} write'] / n:6.1f} / {t[f'{cmd} drive'] / n:5.1f}"
                     for cmd in ("check", "resolve") if any(t[f"{cmd} {k}"] for k in ("read", "write", "drive"))]
            reads, writes = (t["check read"] + t["resolve read"]) / n, (t["check write"] + t["resolve write"]) / n
            total = f"{reads:6.1f} / {writes:6.1f}"
            sent = (t["check bytes"] + t["resolve bytes"]) / n / 1000
            print(f"  {players:3} players  {way:14} all {total}   " + "   ".join(parts) + f"   ({sent:.0f} kB written)",
                  flush=True)
    print("one resolve after the deadline (the second stage), Sheets reads / writes: measured, and what "
          "publish.stage_calls (doctor's estimate) says:")
    for players in [int(x) for x in args.sizes.split(",")]:
        try:
            reads, writes, want_r, want_w = one_resolve(players)
        except ImportError:  # a tree (--src) from before stage_calls
            print("  (this tree has no publish.stage_calls)")
            break
        print(f"  {players:3} players  measured {reads:4} / {writes:4}   stage_calls {want_r:4} / {want_w:4}",
              flush=True)
    if args.no_overlap or not hasattr(FakeGoogle, "enforce_quota"):
        return
    print(f"a {args.overlap_players}-player game, a check overlapping each resolve, 60 reads and 60 writes a minute "
          "enforced:")
    for shared, label in ((False, "a pacing log per process"), (True, "one pacing log shared")):
        got = overlap(args.overlap_players, args.nights, shared)
        print(f"  {label:26} {got['calls']:4} Sheets calls in {got['minutes']:5.1f} virtual minutes, "
              f"{got['refused']} answered 429, {len(got['failed'])} runs failed {got['failed'][:2]}", flush=True)


if __name__ == "__main__":
    main()
