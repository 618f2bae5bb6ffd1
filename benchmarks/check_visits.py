"""How a `check` walks the service layer (issue 26): its calls traced, and each entry into a service module counted.

    python benchmarks/check_visits.py [--players 10] [--steps 400] [--src DIR]

A 10-player local game is made in a temporary folder and its survivors write their first orders (as
bench_local.py does); then ``service.check.check`` runs under ``sys.setprofile``. A call *enters* a module when
its caller's module is another one; entries into ``sheetgm.service.*`` modules are counted per module, over the
first ``--steps`` calls into sheetgm (the issue's measure) and over the whole check; a *climb back* is an entry
into a service module from a module of a lower layer (core, notation, backends, sheets, render); the calls that
``check.py`` itself makes into other service modules are what the ledger's one interface (``Record``) is for.
``--src`` runs
another tree of sheetgm (``git archive <commit> | tar -x -C DIR``), to put two trees side by side.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

TRACE = r"""
import collections, json, random, sys
from pathlib import Path
from sheetgm.service.config.load import parse_config
from sheetgm.service.demo import demo_config, submit
from sheetgm.service.new_game import new_game
from sheetgm.service.ledger.journal import latest, read_director
from sheetgm.service.check import check
folder, players, steps = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
game = new_game(folder, parse_config(demo_config(players, 1, "zh", 12), "demo"))
state = latest(read_director(game)[0]).state(game.board)
rng = random.Random(1)
for p in state.survivors():
    submit(game, state, p.seat, rng)
LOWER = ("sheetgm.core", "sheetgm.notation", "sheetgm.backends", "sheetgm.sheets", "sheetgm.render")
stack, seen = [], {"first": collections.Counter(), "all": collections.Counter(), "climbs_first": 0, "climbs_all": 0,
                   "calls": 0, "direct": collections.Counter()}
def prof(frame, event, arg):
    if event == "call":
        mod = frame.f_globals.get("__name__", "")
        caller = stack[-1] if stack else ""
        stack.append(mod)
        if not mod.startswith("sheetgm"):
            return
        seen["calls"] += 1
        first = seen["calls"] <= steps
        if mod.startswith("sheetgm.service") and mod != caller:
            seen["all"][mod] += 1
            if caller == "sheetgm.service.check":
                seen["direct"][mod] += 1
            if first:
                seen["first"][mod] += 1
            if caller.startswith(LOWER):
                seen["climbs_all"] += 1
                seen["climbs_first"] += first
    elif event == "return" and stack:
        stack.pop()
sys.setprofile(prof)
check(game)
sys.setprofile(None)
print(json.dumps(seen))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=10)
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--src", type=Path, default=Path(__file__).resolve().parent.parent)
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run([sys.executable, "-c", TRACE, str(Path(tmp) / "game"), str(opts.players),
                              str(opts.steps)], capture_output=True, text=True, check=True,
                             cwd=tmp, env={"PYTHONPATH": str(opts.src), "SHEETGM_CACHE_DIR": str(Path(tmp) / "cache"),
                                  "PATH": "/usr/bin:/bin"}).stdout
    seen = json.loads(out.strip().splitlines()[-1])
    for part, label in (("first", f"the first {opts.steps} calls into sheetgm"), ("all", "the whole check")):
        visits = seen[part]
        print(f"{label}: {sum(visits.values())} entries into {len(visits)} service modules, "
              f"{seen['climbs_' + part]} climbing back from a lower layer")
        for mod, n in sorted(visits.items(), key=lambda x: (-x[1], x[0])):
            print(f"  {n:5d}  {mod}")
    direct = seen["direct"]
    print(f"asked by check.py itself: {sum(direct.values())} calls into {len(direct)} service modules")
    for mod, n in sorted(direct.items(), key=lambda x: (-x[1], x[0])):
        print(f"  {n:5d}  {mod}")
    print(f"calls into sheetgm in all: {seen['calls']}")


if __name__ == "__main__":
    main()
