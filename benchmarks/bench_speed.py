"""Every command against its floor, two source trees side by side in one run (issue 14).

    python benchmarks/bench_speed.py [--before DIR] [--after DIR] [--repeat 5] [--sizes 10,40,80,160]
                                     [--games 100] [--skip big,bots,demo]

For each tree (``--before``, default /work/before, and ``--after``, default this checkout), every figure
comes from fresh processes whose ``PYTHONPATH`` is that tree, taken in turns (before, after, before, ...)
so that the machine's load falls on both alike:

- the floor: ``python -c "import typer, pydantic"`` (wall and CPU);
- ``sheetgm check`` and ``sheetgm resolve --stage survivor`` on a 10-player local (.xlsx) game in the middle
  of the game (night 3, the survivors' orders written), a fresh copy of the game folder per run: wall time,
  CPU time and the ratio of the wall time to the floor's;
- the top offenders of ``python -X importtime`` for that ``resolve`` (self time, and sheetgm's own share);
- a whole ``sheetgm demo`` (10 players): CPU time of the process;
- ``resolve`` on large4x tiled 2x2 (40x40, as bench_engine builds it) at 10, 40, 80 and 160 players (night 2,
  survivors' orders written): wall and CPU time and the process's peak memory (``ru_maxrss``), with the
  growth per player against the smallest game;
- bot games per second on one core (``bench_bots.single_core``, CPU time, best of three).

Bytecode is cached (``PYTHONPYCACHEPREFIX`` in the run's temporary folder, one per tree, filled by a first
run) as an installed sheetgm has it; so is sheetgm's own cache folder (``SHEETGM_CACHE_DIR``, one per tree, warmed
by two untimed runs of each command): a shared ``~/.cache/sheetgm`` is rewritten by every other tree that runs
with other parsing code or templates (the kept tables are stamped with the code's digest), which made a check's
CPU wander by ~10 ms with the machine's other users. Medians are printed; wall time on a shared machine follows
its load, which is why the floor is measured in the same turns and the ratio is the figure to keep.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FLOOR = "import typer, pydantic"
# The command line as the `sheetgm` script starts it, in any layout (cli/main.py; cli/app.py or cli.py before);
# the child prints its own peak memory (kB) on stderr's last line.
CLI = """import atexit, resource, sys
atexit.register(lambda: print("maxrss", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr))
try:
    from sheetgm.cli.main import main
except ImportError:
    try:
        from sheetgm.cli.app import main
    except ImportError:
        from sheetgm.cli import main
sys.argv[0] = "sheetgm"
main()
"""

# A game played to night ``nights`` in-process by the bots (not timed), the survivors' orders then written.
MAKE_GAME = """
import json, random, sys
from pathlib import Path
from sheetgm.core.steps import HUNTER_ROLES, SURVIVOR_ROLES
from sheetgm.service.config.load import parse_config
from sheetgm.service.demo import demo_config, submit
from sheetgm.service.ledger.journal import latest, read_director
from sheetgm.service.new_game import new_game
from sheetgm.service.resolve import resolve
folder, players, nights, big = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "big"
if big:
    sys.path.insert(0, sys.argv[5])
    from bench_engine import tiled
    from sheetgm.notation.mapfile import dump_map, ready_map
    folder.mkdir(parents=True)
    (folder / "big.map").write_text(dump_map(tiled(ready_map("large4x"), 2)), "utf-8")
    survivors = players * 4 // 5
    roster = [{"alias": f"S{i}", "camp": "survivor", "role": SURVIVOR_ROLES[i % len(SURVIVOR_ROLES)]}
              for i in range(1, survivors + 1)]
    roster += [{"alias": f"H{i}", "camp": "hunter", "role": HUNTER_ROLES[i % len(HUNTER_ROLES)]}
               for i in range(1, players - survivors + 1)]
    data = {"name": f"bench{players}", "map": str(folder / "big.map"), "seed": 11, "roster": roster}
else:
    data = demo_config(players, 1, "zh", 12)
game = new_game(folder, parse_config(data, "bench"))
rng = random.Random(1)
def now():
    return latest(read_director(game)[0]).state(game.board)
st = now()
while st.night < nights and not st.over():
    for p in st.survivors() if st.stage == "survivor" else st.hunters():
        submit(game, st, p.seat, rng)
    resolve(game, stage=st.stage)
    st = now()
assert not st.over() and st.stage == "survivor", (st.night, st.stage, st.winner)
for p in st.survivors():
    submit(game, st, p.seat, rng)
print(json.dumps({"night": st.night, "survivors": len(st.survivors()), "hunters": len(st.hunters())}))
"""

BOTS = """
import json, sys
sys.path.insert(0, sys.argv[1])
from bench_bots import single_core
games = int(sys.argv[2])
best = min((single_core(range(1, games + 1)) for _ in range(3)), key=lambda run: run[0])
print(json.dumps({"cpu": best[0], "engine": best[1], "games": games}))
"""


class Tree:
    """One source tree of sheetgm and the environment its children run in."""

    def __init__(self, name: str, src: Path, work: Path) -> None:
        self.name, self.src, self.work = name, src.resolve(), work / name
        self.work.mkdir()
        self.env = dict(os.environ, PYTHONPATH=str(self.src), PYTHONPYCACHEPREFIX=str(self.work / "pycache"),
                        SHEETGM_CACHE_DIR=str(self.work / "cache"))
        self.env.pop("PYTHONDONTWRITEBYTECODE", None)


class Run:
    def __init__(self, cpu: float, wall: float, out: str, err: str) -> None:
        self.cpu, self.wall, self.out, self.err = cpu, wall, out, err
        rss = [line.split()[1] for line in err.splitlines() if line.startswith("maxrss ")]
        self.rss_mb = int(rss[-1]) / 1024 if rss else 0.0


def run(tree: Tree, args: list[str], cwd: Path | None = None) -> Run:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *args], env=tree.env, cwd=cwd or tree.work, capture_output=True,
                          text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"[{tree.name}] {' '.join(args)[:200]} failed:\n{done.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(cpu, wall, done.stdout, done.stderr)


def turns(trees: list[Tree], repeat: int, one: Callable[[Tree, int], Run]) -> dict[str, list[Run]]:
    """``repeat`` runs of ``one`` per tree, the trees taking turns."""
    out: dict[str, list[Run]] = {t.name: [] for t in trees}
    for i in range(repeat):
        for t in trees:
            out[t.name].append(one(t, i))
    return out


def med(runs: list[Run], what: str) -> float:
    return statistics.median(getattr(r, what) for r in runs)


def make_game(tree: Tree, name: str, players: int, nights: int, big: bool) -> Path:
    folder = tree.work / name
    info = json.loads(run(tree, ["-c", MAKE_GAME, str(folder), str(players), str(nights),
                                 "big" if big else "std", str(HERE)]).out)
    print(f"  [{tree.name}] {name}: night {info['night']}, {info['survivors']} survivors, "
          f"{info['hunters']} hunters", flush=True)
    return folder


def command(tree: Tree, game: Path, args: list[str], i: int) -> Run:
    copy = tree.work / f"{game.name}-{args[0]}-{i}"
    shutil.copytree(game, copy)
    try:
        return run(tree, ["-c", CLI, *args, "--game", str(copy)])
    finally:
        shutil.rmtree(copy, ignore_errors=True)


def importtime(tree: Tree, game: Path, top: int) -> None:
    copy = tree.work / "importtime"
    shutil.copytree(game, copy)
    err = run(tree, ["-X", "importtime", "-c", CLI, "resolve", "--stage", "survivor", "--game", str(copy)]).err
    rows: list[tuple[int, int, str]] = []
    for line in err.splitlines():
        if line.startswith("import time:") and "|" in line and "self [us]" not in line:
            own, cum, name = line[len("import time:"):].split("|")
            rows.append((int(own), int(cum), name.rstrip()))
    total = sum(r[0] for r in rows)
    mine = sum(r[0] for r in rows if r[2].strip().startswith("sheetgm"))
    print(f"  [{tree.name}] resolve imports {total / 1e6:.3f} s in all (self times), sheetgm's own modules "
          f"{mine / 1e6:.3f} s, {sum(1 for r in rows if r[2].strip().startswith('sheetgm'))} of them; top by self:")
    for own, cum, name in sorted(rows, reverse=True)[:top]:
        print(f"      {own / 1000:7.1f} ms self {cum / 1000:7.1f} ms cumulative  {name.strip()}")
    shutil.rmtree(copy, ignore_errors=True)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--before", type=Path, default=Path("/work/before"))
    ap.add_argument("--after", type=Path, default=HERE.parent)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--demos", type=int, default=3)
    ap.add_argument("--sizes", default="10,40,80,160")
    ap.add_argument("--big-repeat", type=int, default=2)
    ap.add_argument("--games", type=int, default=100, help="bot games per one-core run")
    ap.add_argument("--top", type=int, default=12, help="import offenders to list")
    ap.add_argument("--skip", default="", help="comma-separated: commands,imports,demo,big,bots")
    opts = ap.parse_args(argv)
    skip = set(opts.skip.split(",")) - {""}
    with tempfile.TemporaryDirectory(prefix="bench-speed-") as tmp:
        trees = [Tree("before", opts.before, Path(tmp)), Tree("after", opts.after, Path(tmp))]
        print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; "
              + "; ".join(f"{t.name} = {t.src}" for t in trees))
        for t in trees:  # fill the bytecode caches
            run(t, ["-c", CLI, "--help"])
        games = {t.name: make_game(t, "mid10", 10, 3, False) for t in trees}

        if "commands" not in skip:
            print("\n10-player local game, night 3: wall (CPU), median of", opts.repeat)
            for args in (["check"], ["resolve", "--stage", "survivor"]):  # warm each tree's cache folder
                turns(trees, 2, lambda t, i: command(t, games[t.name], args, 100 + i))  # noqa: B023 (used at once)
            floor = turns(trees, opts.repeat, lambda t, i: run(t, ["-c", FLOOR]))
            check = turns(trees, opts.repeat, lambda t, i: command(t, games[t.name], ["check"], i))
            res = turns(trees, opts.repeat,
                        lambda t, i: command(t, games[t.name], ["resolve", "--stage", "survivor"], i))
            print(f"  {'':<26}" + "".join(f"{t.name:>34}" for t in trees))
            for label, runs in (("floor (import typer, pydantic)", floor), ("check", check), ("resolve", res)):
                cells = []
                for t in trees:
                    wall, cpu = med(runs[t.name], "wall"), med(runs[t.name], "cpu")
                    ratio = wall / med(floor[t.name], "wall")
                    cells.append(f"{wall:.3f} s ({cpu:.3f} s CPU) {ratio:4.2f}x")
                print(f"  {label:<26}" + "".join(f"{c:>34}" for c in cells))

        if "imports" not in skip:
            print("\npython -X importtime, resolve of the 10-player game:")
            for t in trees:
                importtime(t, games[t.name], opts.top)

        if "demo" not in skip:
            demo = turns(trees, opts.demos, lambda t, i: run(t, ["-c", CLI, "demo", "--dir", str(t.work / f"d{i}")]))
            print("\nsheetgm demo (10 players, whole game): CPU median "
                  + "   ".join(f"{t.name} {med(demo[t.name], 'cpu'):.2f} s (wall {med(demo[t.name], 'wall'):.2f} s)"
                             for t in trees))

        if "big" not in skip:
            sizes = [int(x) for x in opts.sizes.split(",")]
            print(f"\nresolve on large4x tiled 2x2 (40x40), night 2: median of {opts.big_repeat}")
            first: dict[str, float] = {}
            for n in sizes:
                made = {t.name: make_game(t, f"big{n}", n, 2, True) for t in trees}
                runs = turns(trees, opts.big_repeat,
                             lambda t, i, made=made: command(t, made[t.name], ["resolve", "--stage", "survivor"], i))
                cells = []
                for t in trees:
                    wall, cpu, rss = (med(runs[t.name], k) for k in ("wall", "cpu", "rss_mb"))
                    first.setdefault(t.name, cpu / n)
                    cells.append(f"{t.name} {wall:6.2f} s wall {cpu:6.2f} s CPU {rss:5.0f} MB "
                                 f"({cpu / n * 1000:5.1f} ms CPU a player, {cpu / n / first[t.name]:4.2f}x)")
                print(f"  {n:>3} players: " + "   ".join(cells), flush=True)
                for t in trees:
                    shutil.rmtree(made[t.name], ignore_errors=True)

        if "bots" not in skip:
            print(f"\nbot games on one core ({opts.games} games, CPU time, best of 3):")
            for t in trees:
                r: dict[str, Any] = json.loads(run(t, ["-c", BOTS, str(HERE), str(opts.games)]).out)
                print(f"  {t.name}: {r['games'] / r['cpu']:.1f} games/s ({r['cpu'] / r['games'] * 1000:.2f} ms a game, "
                      f"engine {r['engine'] / r['cpu']:.0%})")


if __name__ == "__main__":
    main()
