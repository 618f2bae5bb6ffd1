"""The order preview held to the resolver (issue 28): 10,000+ single-player orders on every ready map.

    python benchmarks/preview_agree.py [SEEDS]     (default 30: ~10,000 orders, ~30 s on one core)

On the positions of bot games (seeds 0..SEEDS-1, 5 nights, up to 4 pieces a position whose stage is due, each with
its own known state varied: role, bag, Downed, Fear, Stealth, traps and boards near it), 4 orders a piece, each
written step by step from where the order leaves it (moves into walls and off the map, dashes, sprints, searches,
cracks, items, skills, heals, robot steps, day gifts). Each order is previewed, then resolved alone (no other
player acts in its stage), cut after each written step; the preview's tile, MP, AP, failure and "does nothing"
are compared with the resolver's on every step the preview is sure of (tests/preview_agree.py says how). Prints per
map and in total: orders generated, orders on which all agree, the steps compared and left as "may", and the
disagreements by kind (none expected).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from preview_agree import MAPS, Tally, run  # noqa: E402


def line(name: str, t: Tally, secs: float) -> str:
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(t.disagreements.items())) or "none"
    return (f"{name:<8} orders {t.orders:>6}  agree {t.agreed:>6}  disagree {t.orders - t.agreed:>4}"
            f"  (by kind: {kinds})  steps compared {t.steps} (failing {t.failed}, doing nothing {t.wasted}), "
            f"left as may {t.unsure}; searches finding nothing: warned no room {t.no_room}, "
            f"hidden cause {t.blind_waste}; stunned hunters {t.stunned}  {secs:.1f} s")


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    total = Tally()
    t0 = time.process_time()
    for name in MAPS:
        t1 = time.process_time()
        tally = run(name, range(seeds), per_actor=4, nights=5)
        print(line(name, tally, time.process_time() - t1))
        total.add(tally)
    print(line("total", total, time.process_time() - t0))
    for example in total.examples[:10]:
        print("  ", example)


if __name__ == "__main__":
    main()
