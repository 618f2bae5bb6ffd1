"""What the survivors settle once a stage (``team_of``) is what each of them worked out alone before: the generator
plan, the rescues, the Downed survivors' crawls, the risky tiles."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from sheetgm.bots import roster_for, scaled_options
from sheetgm.bots.play import Table, play_night
from sheetgm.bots.survivor import DANGER, crawl_to, generator_plan, rescuer_of, team_of
from sheetgm.core.board import Tile, distance
from sheetgm.core.check import Draft
from sheetgm.core.setup import new_game
from sheetgm.core.state import HUNTER_STAGE, State
from sheetgm.notation.mapfile import ready_map


def survivor_stages(map_name: str, seeds: Sequence[int]) -> Iterator[State]:
    """The survivor stages of whole bot games, as the survivors' bots meet them."""
    board = ready_map(map_name)
    roster = roster_for(board)
    for seed in seeds:
        st = new_game(board, roster, seed, options=scaled_options(roster))
        rng, table = random.Random(seed), Table()
        while not st.over() and st.night <= 12:
            if st.stage != HUNTER_STAGE:
                yield st
            st, _ = play_night(st, seed, table.order, rng, table)


def reference_plan(st: State, danger: Sequence[Tile]) -> dict[int, Tile]:
    """The generator plan as first written: seat by seat the first generator of least distance + 3 a point already
    planned there + 100 past the cap + 6 near a known hunter."""
    cap = int(st.opt("generator_cap"))
    gens = sorted(st.board.generators, key=lambda t: (t[1], t[0]))
    load = [0] * len(gens)
    plan = {}
    for s in st.survivors():
        if s.downed:
            continue
        gain = 2 if s.role == "mechanic" else 1
        scores = [distance(s.pos, g) + 3 * load[i] + (100 if load[i] + gain > cap else 0)
                  + (6 if any(distance(g, h) <= DANGER for h in danger) else 0) for i, g in enumerate(gens)]
        best = scores.index(min(scores))
        load[best] += gain
        plan[s.seat] = gens[best]
    return plan


def test_the_team_settles_what_each_survivor_worked_out() -> None:
    rng = random.Random(7)
    stages = downed = 0
    for st in survivor_stages("standard", range(6)):
        stages += 1
        # Hunters known anywhere, some near generators: the charge for danger is weighed too.
        danger = sorted(rng.sample(st.board.tile_list, rng.randrange(4)) + rng.sample(sorted(st.board.generators), 1))
        assert generator_plan(st, danger) == reference_plan(st, danger)
        assert generator_plan(st, danger, st.survivors()) == reference_plan(st, danger)
        team = team_of(st, None)
        assert team.plan == reference_plan(st, [])
        assert team.risky == frozenset(t for t in st.board.tile_list if any(distance(t, h) <= DANGER for h in []))
        for p in st.survivors():
            mine = [st.players[d] for d, r in team.rescuers.items() if r == p.seat]
            nearest = min(mine, key=lambda d: (distance(d.pos, p.pos), d.seat)).pos if mine else None
            assert team.rescue.get(p.seat) == nearest
            if p.downed:
                downed += 1
                rescuer = rescuer_of(st, p)
                assert team.rescuers.get(p.seat) == (rescuer.seat if rescuer is not None else None)
                assert crawl_to(st, p, Draft(st, p.seat), team) == crawl_to(st, p, Draft(st, p.seat))
        assert team.passage_ends == frozenset(t for t in st.board.tile_list if st.passage_at(t) is not None)
    assert stages > 30 and downed > 5  # (the games reach Downed survivors and rescues)


def test_the_risky_tiles_are_those_near_a_known_hunter() -> None:
    st = next(survivor_stages("standard", [3]))
    danger = [(2, 1), (7, 5), (0, 0)]

    class Seen:
        def recent(self, night: int) -> list[Tile]:
            return danger

    team = team_of(st, Seen())  # type: ignore[arg-type]
    assert team.risky == frozenset(t for t in st.board.tile_list if any(distance(t, h) <= DANGER for h in danger))
    assert team.plan == reference_plan(st, danger)
