"""WebDAV requests and bytes per night, counted against a real WsgiDAV on this machine, and the shortest night
under a plan's request limit (Nutstore's free plan: 600 requests in 30 minutes).

Each command runs as a fresh scheduled process would (a new gateway and client, nothing in memory). Bots write
every due player's order into their workbook through a client of their own (the players' saves: not counted;
on Nutstore they are the players' own accounts). Three ways to run a night, as bench_sync.py:

- ``resolve``: the survivors' and the hunters' resolves after their deadlines, nothing else;
- ``check+resolve``: one ``check`` before each resolve;
- ``workflow``: what resolve.yml does: six runs before each deadline (check, then a resolve that waits unless
  everyone has submitted), the orders coming in across them, and one run after the deadline.

Then the time one WebDAV GET and PUT of a player's workbook take over one keep-alive session (the client's own
cost; on the Internet the round trip dominates), and the shortest night under ``--limit`` requests per
``--minutes``: a night's requests past the limit wait for the window to move on.

Run: ``python benchmarks/bench_webdav.py [--sizes 10,30,100] [--ways resolve,check+resolve,workflow]``.
Nothing here reaches the network.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import sys
import tempfile
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

SRC = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(SRC), str(SRC / "tests"), str(SRC / "benchmarks")]

import bench_sync  # noqa: E402
import dav_servers  # noqa: E402
import requests  # noqa: E402
from bench_sync import AFTER, BEFORE, BOARDS, START, big_map, config  # noqa: E402

from sheetgm.backends.webdav.client import DavClient  # noqa: E402
from sheetgm.backends.webdav.gateway import WebDavGateway  # noqa: E402
from sheetgm.service.check import check  # noqa: E402
from sheetgm.service.config.load import parse_config  # noqa: E402
from sheetgm.service.game import Game, player_key, workbook_names  # noqa: E402
from sheetgm.service.ledger.journal import latest, read_director  # noqa: E402
from sheetgm.service.new_game import new_game  # noqa: E402
from sheetgm.service.resolve import resolve  # noqa: E402


def client(root: str) -> DavClient:
    return DavClient(root, dav_servers.USER, dav_servers.PASSWORD)


class Night(bench_sync.Night):
    """bench_sync's night (the due seats, the bots' orders, the deadlines) on a WebDAV server."""

    def __init__(self, root: str, folder: Path, players: int) -> None:  # (no fake: a server and its clients)
        self.root, self.folder = root, folder
        self.now = START
        folder.mkdir(parents=True, exist_ok=True)
        board = BOARDS.get(players) or big_map(folder)
        cfg = parse_config(config(players, board))
        self.names = workbook_names(cfg)
        self.made_calls = client(root)
        made = new_game(folder, cfg, WebDavGateway(self.made_calls, self.names), clock=lambda: START)
        self.game = dataclasses.replace(made, clock=lambda: self.now)
        self.rng = random.Random(1)
        self.players = WebDavGateway(client(root), self.names)  # the players' own programs (not counted)

    def fresh(self) -> tuple[Game, DavClient]:  # type: ignore[override]  # (and the client, to count it)
        c = client(self.root)
        return dataclasses.replace(self.game, gateway=WebDavGateway(c, self.names)), c

    def state(self) -> Any:
        return latest(read_director(dataclasses.replace(self.game, gateway=self.players))[0]).state(self.game.board)

    def run(self, what: str, tally: Counter[str]) -> Any:
        game, c = self.fresh()
        rep = check(game) if what == "check" else resolve(game)
        tally[f"{what} requests"] += c.calls
        tally[f"{what} sent"] += c.sent
        tally[f"{what} received"] += c.received
        tally[f"{what} runs"] += 1
        tally["peak"] = max(tally["peak"], c.calls)
        return rep


def night_requests(server: dav_servers.Server, players: int, way: str) -> tuple[Counter[str], int]:
    """Requests of one night (both stages) run ``way``, and the requests of creating the game."""
    tally: Counter[str] = Counter()
    name = f"n{players}-{way.replace('+', '-')}-{time.monotonic_ns()}"
    requests.request("MKCOL", server.url + name + "/", auth=(dav_servers.USER, dav_servers.PASSWORD), timeout=10)
    with tempfile.TemporaryDirectory() as tmp:
        night = Night(server.url + name + "/", Path(tmp), players)
        for _ in range(2):
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
                night.write_orders(waves[-1])
            else:
                night.write_orders(due)
            night.now = end + timedelta(minutes=AFTER)
            if way != "resolve":
                night.run("check", tally)
            night.run("resolve", tally)
        return tally, night.made_calls.calls


def shortest(requests_: int, limit: int, minutes: int) -> float:
    """Minutes a night's requests need at least under ``limit`` per sliding ``minutes`` (network time aside)."""
    return (math.ceil(requests_ / limit) - 1) * minutes if requests_ > limit else 0.0


def round_trip(server: dav_servers.Server) -> str:
    """Median time of a GET and a conditional PUT of a 10-player game's workbook, one keep-alive session."""
    name = f"rt-{time.monotonic_ns()}"
    requests.request("MKCOL", server.url + name + "/", auth=(dav_servers.USER, dav_servers.PASSWORD), timeout=10)
    with tempfile.TemporaryDirectory() as tmp:
        night = Night(server.url + name + "/", Path(tmp), 10)
        path = night.players.path(player_key(1)).as_posix()
    c = client(server.url + name + "/")
    gets, puts = [], []
    for _ in range(30):
        t = time.perf_counter()
        got = c.get(path)
        gets.append(time.perf_counter() - t)
        assert got is not None
        t = time.perf_counter()
        c.put(path, got[0], if_match=got[1])
        puts.append(time.perf_counter() - t)
    size = len(got[0]) / 1000
    return (f"a player's workbook ({size:.0f} kB): GET {sorted(gets)[15] * 1000:.1f} ms, "
            f"PUT with If-Match {sorted(puts)[15] * 1000:.1f} ms (median of 30, WsgiDAV on 127.0.0.1)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10,30,100")
    ap.add_argument("--ways", default="resolve,check+resolve,workflow")
    ap.add_argument("--limit", type=int, default=600, help="requests the plan allows per window (600)")
    ap.add_argument("--minutes", type=int, default=30, help="the plan's window in minutes (30)")
    args = ap.parse_args()
    pace = args.limit - max(2, args.limit // 50)  # what the pacing allows (service/game.webdav_gateway)
    with tempfile.TemporaryDirectory() as tmp, dav_servers.wsgidav(Path(tmp) / "server") as server:
        print(round_trip(server))
        print(f"requests per night (both stages), by command; bytes sent / received; the shortest night under "
              f"{args.limit} requests per {args.minutes} min (pacing at {pace}):")
        for players in [int(x) for x in args.sizes.split(",")]:
            for way in args.ways.split(","):
                t0 = time.perf_counter()
                t, made = night_requests(server, players, way)
                total = t["check requests"] + t["resolve requests"]
                sent = (t["check sent"] + t["resolve sent"]) / 1e6
                got = (t["check received"] + t["resolve received"]) / 1e6
                parts = "  ".join(f"{cmd} {t[f'{cmd} requests']:4} in {t[f'{cmd} runs']} runs"
                                  for cmd in ("check", "resolve") if t[f"{cmd} runs"])
                print(f"  {players:3} players {way:14} {total:5} requests ({parts}; the largest run {t['peak']})  "
                      f"{sent:6.1f} MB sent {got:6.1f} MB received  shortest night "
                      f"{shortest(total, pace, args.minutes):4.0f} min  (new: {made} requests; "
                      f"{time.perf_counter() - t0:.0f} s here)", flush=True)


if __name__ == "__main__":
    main()
