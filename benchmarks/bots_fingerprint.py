"""Fingerprints of whole bot games, to prove that a change to the bots or the engine plays the same games.

    python benchmarks/bots_fingerprint.py --write /tmp/before.json [--games 150] [--teach 30]
    python benchmarks/bots_fingerprint.py --check /tmp/before.json

Each game (``sheetgm.bots.play_game``, the purposeful bots; seeds 1.. on the
standard map and on the teaching map) is summed up in one SHA-256 over every
stage's orders, events and resulting state (its JSON), in order. ``--check``
plays the same games and names every game whose fingerprint differs. Only
``play_game`` and the module's two resolvers are used, so the same script
fingerprints an older tree: ``PYTHONPATH=/path/to/old/tree python bots_fingerprint.py --write ...``.

``benchmarks/bots_fingerprints.json`` holds the games of the tree it is committed with (the default counts):
``--check benchmarks/bots_fingerprints.json`` after a change that must play the same games; a change to the
bots' decisions writes it anew in the same commit.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from typing import Any

import sheetgm.bots.play as play
from sheetgm.bots import play_game, roster_for
from sheetgm.notation.mapfile import ready_map


def fingerprints(map_name: str, seeds: range) -> dict[str, str]:
    board = ready_map(map_name)
    out: dict[str, str] = {}
    saved = play.resolve_survivor_stage, play.resolve_hunter_stage
    h = hashlib.sha256()

    def recording(fn: Any) -> Any:
        def wrapper(state: Any, orders: dict[int, Any], seed: int, **kwargs: Any) -> Any:
            new, events = fn(state, orders, seed, **kwargs)
            h.update(repr(sorted(orders.items())).encode())
            h.update(json.dumps([e.to_dict() for e in events], sort_keys=True, ensure_ascii=False).encode())
            h.update(new.to_json().encode())
            return new, events
        return wrapper

    play.resolve_survivor_stage, play.resolve_hunter_stage = recording(saved[0]), recording(saved[1])
    try:
        for seed in seeds:
            h = hashlib.sha256()
            st, events = play_game(board, roster_for(board), seed)
            h.update(st.to_json().encode())
            h.update(str(len(events)).encode())
            out[f"{map_name}/{seed}"] = h.hexdigest()
    finally:
        play.resolve_survivor_stage, play.resolve_hunter_stage = saved
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    what = ap.add_mutually_exclusive_group(required=True)
    what.add_argument("--write", metavar="FILE")
    what.add_argument("--check", metavar="FILE")
    ap.add_argument("--games", type=int, default=150, help="games on the standard map (default 150)")
    ap.add_argument("--teach", type=int, default=30, help="games on the teaching map (default 30)")
    args = ap.parse_args(argv)
    prints = {**fingerprints("standard", range(1, args.games + 1)), **fingerprints("teach", range(1, args.teach + 1))}
    if args.write:
        with open(args.write, "w", encoding="utf-8") as f:
            json.dump(prints, f, indent=0, sort_keys=True)
        print(f"{len(prints)} games fingerprinted (sheetgm from {play.__file__}) into {args.write}")
        return 0
    with open(args.check, encoding="utf-8") as f:
        before = json.load(f)
    differ = sorted(k for k in before.keys() | prints.keys() if before.get(k) != prints.get(k))
    if differ:
        print(f"{len(differ)} of {len(before)} games differ: {', '.join(differ[:20])}")
        return 1
    print(f"the same {len(prints)} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
