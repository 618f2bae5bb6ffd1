"""Local (.xlsx) game speed: the whole demo, and `check` and `resolve` as a director runs them.

Every figure comes from fresh processes started as the command line starts them (interpreter start and
imports included), so what is measured is what a director waits for:

- ``sheetgm demo``: a whole game with bots (10 players by default), CPU time (user + system of the child)
  and wall time; also with ``--save-each-write`` (every write saved, as real commands save) where it exists;
- ``sheetgm check`` and ``sheetgm resolve --stage survivor`` on a 10-player game whose survivors have all
  written their first order (a fresh copy of the game folder for every run);
- ``sheetgm --help``: the floor of any command (interpreter, typer, the CLI);
- the modules each command imports that it should not need (``python -X importtime``);
- workbook loads and saves per stage of the demo, split into the bots typing their orders, `check` and
  `resolve` (counted in one in-process demo by wrapping the functions that parse and write a file).

CPU time is what to compare between runs: the machine is shared and wall time follows its load (and the
disk, for the fsync of every save).

Bytecode: an installed sheetgm has its modules compiled (pip compiles them at install; Python caches them at
the first run), so by default every child process reads compiled bytecode from a cache in the benchmark's
temporary folder (``PYTHONPYCACHEPREFIX``, filled by one run first), whatever ``PYTHONDONTWRITEBYTECODE`` says.
``--no-bytecode-cache`` leaves the environment as it is: where ``PYTHONDONTWRITEBYTECODE`` is set (as on the
project's machine) an editable install compiles every module of sheetgm from source in every process, which
costs 0.05-0.1 s a command. ``--src DIR`` measures another source tree of sheetgm instead of the
installed one (e.g. ``git archive main | tar -x -C /tmp/main``), which is how the "before" figures in
``benchmarks/README.md`` were taken.

Run: ``python benchmarks/bench_local.py [--players 10] [--repeat 5] [--src DIR] [--no-bytecode-cache]``.
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
from pathlib import Path

CLI = "import sys; from sheetgm.cli.main import main; sys.argv[0] = 'sheetgm'; main()"
UNNEEDED = ("PIL", "rich", "openpyxl", "gspread", "google.auth", "hypothesis", "requests", "tenacity")

MAKE_GAME = """
import random, sys
from pathlib import Path
from sheetgm.service.config.load import parse_config
from sheetgm.service.demo import demo_config, submit
from sheetgm.service.ledger.journal import latest, read_director
from sheetgm.service.new_game import new_game
game = new_game(Path(sys.argv[1]), parse_config(demo_config(int(sys.argv[2]), 1, "zh", 12), "demo"))
state = latest(read_director(game)[0]).state(game.board)
rng = random.Random(1)
for p in state.survivors():
    submit(game, state, p.seat, rng)
"""

COUNTING = """
import json, sys
from pathlib import Path
try:  # the xlsx adapter of this tree, or of an older one measured side by side
    import sheetgm.backends.xlsx.gateway as X
except ImportError:
    import sheetgm.backends.xlsx as X
n = [0, 0]  # workbook files parsed, written
def counted(i, fn):
    def wrapper(*a, **k):
        n[i] += 1
        return fn(*a, **k)
    return wrapper
if hasattr(X, "read_book"):  # sheetgm's own reader and writer
    X.read_book, X.write_book = counted(0, X.read_book), counted(1, X.write_book)
else:  # openpyxl
    X.openpyxl.load_workbook = counted(0, X.openpyxl.load_workbook)
    X.openpyxl.Workbook.save = counted(1, X.openpyxl.Workbook.save)
def since(start):
    return [n[0] - start[0], n[1] - start[1]]
"""

# One in-process demo: the loads and saves of each stage, split into the demo reading the state and the bots
# typing their orders, `check`, `resolve`, and the saves at the end of a night (when the demo saves nightly).
COUNT_DEMO = COUNTING + """
import sheetgm.service.demo as D
mark, part, rows, setup = [0, 0], {}, [], {}
def phase(name, fn, into):
    def wrapper(*a, **k):
        if name == "check":
            into["bots"] = since(mark)
        start = n[:]
        try:
            return fn(*a, **k)
        finally:
            if into is not None or rows:  # the saves that end new_game count in its own
                (rows[-1] if into is None else into)[name] = since(start)
                mark[:] = n
    return wrapper
D.new_game = phase("new", D.new_game, setup)
D.check, D.resolve = phase("check", D.check, part), phase("resolve", D.resolve, part)
if hasattr(X.XlsxGateway, "_flush"):
    X.XlsxGateway._flush = phase("night", X.XlsxGateway._flush, None)
def progress(stage):
    rows.append({"stage": stage, **part})
    part.clear()
D.demo(Path(sys.argv[1]), int(sys.argv[2]), progress=progress)
print(json.dumps({"setup": setup["new"], "stages": rows}))
"""

# `check` then `resolve` as a real game runs them: each opens the game afresh, as a new process would.
COUNT_COMMANDS = COUNTING + """
from sheetgm.service.check import check
from sheetgm.service.game import open_game
from sheetgm.service.resolve import resolve
out = {}
for name, call in (("check", check), ("resolve", lambda g: resolve(g, stage="survivor"))):
    start = n[:]
    call(open_game(Path(sys.argv[1])))
    out[name] = since(start)
print(json.dumps(out))
"""


def run(args: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, str]:
    """(cpu seconds, wall seconds, stdout) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *args], env=env, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args[:3])}... failed:\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, done.stdout


def figures(samples: list[tuple[float, float]]) -> str:
    cpus, walls = [c for c, _ in samples], [w for _, w in samples]
    return (f"CPU median {statistics.median(cpus):.2f} s (min {min(cpus):.2f})   "
            f"wall median {statistics.median(walls):.2f} s (min {min(walls):.2f})")


def imported(command: list[str], env: dict[str, str], cwd: Path) -> list[str]:
    """The unneeded top-level packages a command imports."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", CLI, *command], env=env, cwd=cwd,
                          capture_output=True, text=True)
    names = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time")}
    return sorted(u for u in UNNEEDED if u in names)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--demos", type=int, default=3, help="how many whole demos to time")
    ap.add_argument("--src", type=Path, help="measure this source tree of sheetgm instead of the installed one")
    ap.add_argument("--no-bytecode-cache", action="store_true",
                    help="leave PYTHONDONTWRITEBYTECODE as the environment has it (sheetgm compiled in every process)")
    opts = ap.parse_args()
    env = dict(os.environ)
    if opts.src:
        env["PYTHONPATH"] = str(opts.src.resolve())
    with tempfile.TemporaryDirectory(prefix="bench-local-") as tmp:
        work = Path(tmp)
        source = f" from {opts.src}" if opts.src else ""
        if opts.no_bytecode_cache:
            no_cache = env.get("PYTHONDONTWRITEBYTECODE")
            bytecode = "no bytecode cache" if no_cache else "bytecode as the environment has it"
        else:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
            run(["-c", CLI, "--help"], env, work)
            run(["-c", CLI, "demo", "--dir", str(work / "warm-up"), "--players", str(opts.players)], env, work)
            bytecode = "bytecode cached"
        print(f"sheetgm{source}, {opts.players} players, Python {sys.version.split()[0]}, {os.cpu_count()} cores, "
              f"{bytecode}")

        helps = [run(["-c", CLI, "--help"], env, work)[:2] for _ in range(opts.repeat)]
        print(f"sheetgm --help        {figures(helps)}")

        demos = []
        for i in range(opts.demos):
            cpu, wall, _out = run(["-c", CLI, "demo", "--dir", str(work / f"demo{i}"), "--players",
                                   str(opts.players)], env, work)
            demos.append((cpu, wall))
        print(f"sheetgm demo          {figures(demos)}")
        if "--save-each-write" in run(["-c", CLI, "demo", "--help"], env, work)[2]:
            each = [run(["-c", CLI, "demo", "--save-each-write", "--dir", str(work / f"each{i}"), "--players",
                         str(opts.players)], env, work)[:2] for i in range(opts.demos)]
            print(f"  --save-each-write   {figures(each)}")

        game = work / "game"
        run(["-c", MAKE_GAME, str(game), str(opts.players)], env, work)
        for command in (["check"], ["resolve", "--stage", "survivor"]):
            samples = []
            for i in range(opts.repeat):
                copy = work / f"{command[0]}{i}"
                shutil.copytree(game, copy)
                samples.append(run(["-c", CLI, *command, "--game", str(copy)], env, work)[:2])
            print(f"sheetgm {command[0]:<14}{figures(samples)}")

        shutil.copytree(game, work / "imports")
        for command in (["--help"], ["check", "--game", str(work / "imports")]):
            print(f"imports of {command[0]:<11} unneeded: {', '.join(imported(command, env, work)) or 'none'}")

        shutil.copytree(game, work / "counted-game")
        commands = json.loads(run(["-c", COUNT_COMMANDS, str(work / "counted-game")], env, work)[2])
        counts = json.loads(run(["-c", COUNT_DEMO, str(work / "counted"), str(opts.players)], env, work)[2])
    print("\nworkbook loads / saves of a command in a new process: "
          + ", ".join(f"{k} {v[0]} / {v[1]}" for k, v in commands.items()))
    print(f"\nworkbook loads / saves per stage of the demo (new game: {counts['setup'][0]} / {counts['setup'][1]})")
    phases = ("bots", "check", "resolve", "night")
    print(f"{'stage':<14}" + "".join(f"{k:>10}" for k in (*phases, "stage")))
    totals = [0, 0]
    for row in counts["stages"]:
        parts = [row.get(k, [0, 0]) for k in phases]
        stage = [sum(p[0] for p in parts), sum(p[1] for p in parts)]
        totals = [totals[0] + stage[0], totals[1] + stage[1]]
        print(f"{row['stage']:<14}" + "".join(f"{p[0]:>5}/{p[1]:<4}" for p in [*parts, stage]))
    n = max(1, len(counts["stages"]))
    print(f"{len(counts['stages'])} stages: {totals[0]} loads, {totals[1]} saves "
          f"({totals[0] / n:.1f} / {totals[1] / n:.1f} per stage)")


if __name__ == "__main__":
    main()
