"""`sheetgm recap` on finished demo games: how long it takes and how big its files are.

For each seed a 10-player demo game is played to its end (in process), then ``sheetgm recap`` runs in a fresh
process as a director runs it (interpreter start and imports included), once for the GIF and once for the APNG,
in the game's language and in the other. Printed per run: stages, CPU time (user + system of the child), wall
time, the child's peak memory, the page's bytes, the animation's bytes and size in pixels. A game that did not
end within the demo's 12 nights is skipped (its recap would be refused).

Run: ``python benchmarks/bench_recap.py [--seeds 1 2 3] [--players 10]``.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CLI = "import sys; from sheetgm.cli.main import main; sys.argv[0] = 'sheetgm'; main()"


def run_recap(folder: Path, *args: str) -> dict[str, float | int | str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CLI, "recap", "--game", str(folder), "--json", *args],
                          capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    doc = json.loads(done.stdout)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    w, h = doc["animation_size"]
    return {"stages": doc["stages"], "cpu": cpu, "wall": wall, "rss_mb": after.ru_maxrss / 1024,
            "html": doc["html_bytes"], "anim": doc["animation_bytes"], "size": f"{w}x{h}",
            "file": Path(doc["animation"]).suffix}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--players", type=int, default=10)
    opts = parser.parse_args()
    from sheetgm.service.demo import demo

    print("seed lang anim  stages  cpu s  wall s  peak MB  page bytes  animation bytes  pixels")
    with tempfile.TemporaryDirectory() as tmp:
        for seed in opts.seeds:
            folder = Path(tmp) / f"demo-{seed}"
            rep = demo(folder, players=opts.players, seed=seed)
            if rep.winner is None:
                print(f"{seed:>4}  the game did not end in {rep.nights} nights: skipped")
                continue
            for lang, fmt in (("zh", "--gif"), ("zh", "--apng"), ("en", "--gif")):
                r = run_recap(folder, "--lang", lang, fmt)
                print(f"{seed:>4} {lang:>4} {r['file']:>5} {r['stages']:>7} {r['cpu']:>6.2f} {r['wall']:>7.2f} "
                      f"{r['rss_mb']:>8.0f} {r['html']:>11,} {r['anim']:>16,}  {r['size']}")


if __name__ == "__main__":
    main()
