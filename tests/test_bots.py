"""Bots: every step they write is legal when written, they play with purpose, and games end."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from sheetgm.bots import bot_order, hunter_view, paths, play_game, random_order, roster_for, scaled_options
from sheetgm.bots.hunter import HunterBot
from sheetgm.bots.paths import Fields, cost_field, points
from sheetgm.bots.play import Table, play_night
from sheetgm.bots.survivor import SurvivorBot, team_of
from sheetgm.core.act import do_step
from sheetgm.core.board import EDGE_OPEN, Board, edge_key, parse_tile, tile_name
from sheetgm.core.check import Draft, check_order, legal_steps
from sheetgm.core.context import Illegal
from sheetgm.core.resolve import resolve_hunter_stage, resolve_stage, resolve_survivor_stage
from sheetgm.core.setup import SeatSpec, new_game
from sheetgm.core.state import HUNTER_STAGE, Passage, State
from sheetgm.core.steps import Attack, Crack, Escape, Heal, Move, Order, Skill, Step
from sheetgm.notation.mapfile import ready_map

SEEDS = range(20)


def T(name: str) -> tuple[int, int]:
    t = parse_tile(name)
    assert t is not None
    return t


def game(map_name: str = "standard", seed: int = 1, roles: tuple[str | None, ...] = ()) -> State:
    board = ready_map(map_name)
    roster = roster_for(board, roles=roles)
    return new_game(board, roster, seed, options=scaled_options(roster))


def assert_built_from_legal_steps(st: State, seat: int, order: Order) -> None:
    for i, step in enumerate(order.steps):
        assert step in legal_steps(st, seat, after=order.steps[:i]), f"step {i + 1} {step} of {order}"
    assert check_order(st, seat, order) == []


@pytest.mark.parametrize("map_name", ["standard", "teach"])
def test_bot_and_random_orders_come_from_legal_steps(map_name: str) -> None:
    rng = random.Random(5)
    st = game(map_name, seed=3)
    checked = Counter[str]()
    while not st.over() and st.night <= 6:
        pieces = st.survivors() if st.stage != HUNTER_STAGE else st.hunters()
        orders = {}
        for p in pieces:
            for make in (bot_order, random_order):
                order = make(st, p.seat, rng)
                assert_built_from_legal_steps(st, p.seat, order)
                checked[make.__name__] += len(order.steps)
            orders[p.seat] = bot_order(st, p.seat, rng)
        st, _ = resolve_stage(st, orders, 3)
    assert checked["bot_order"] > 10 and checked["random_order"] > 10


def test_out_of_play_and_finished_games_give_empty_orders() -> None:
    st = game()
    st.players[1].status = "eliminated"
    assert bot_order(st, 1, random.Random(0)) == Order()
    assert random_order(st, 1, random.Random(0)) == Order()


def test_survivor_on_a_generator_cracks_then_steps_off_the_noise() -> None:
    st = game(roles=("mercenary",))
    st.players[1].pos = T("C2")  # a generator
    order = bot_order(st, 1, random.Random(0))
    assert order.steps[0] == Crack()
    assert isinstance(order.steps[1], Move)  # hunters follow noise markers


def test_the_magician_s_decoy_does_not_depend_on_where_hunters_stand() -> None:
    """A survivor bot plays on what its player knows: a hunter she has not seen changes nothing."""
    st = game(roles=("magician",))
    st.players[1].pos = T("C2")  # a generator: she cracks, then leaves a decoy 2 tiles away
    for h in st.hunters():
        h.pos = T("J10")
    alone = bot_order(st, 1, random.Random(0))
    assert any(isinstance(s, Skill) and s.skill == "magic" for s in alone.steps)
    for t in st.board.within(T("C2"), 2):
        near = st.copy()
        near.hunters()[0].pos = t
        assert bot_order(near, 1, random.Random(0)) == alone, f"a hunter on {tile_name(t)}"


def test_a_survivor_bot_plans_only_through_passages_she_found() -> None:
    """A passage another survivor found is hers to use only when she finds it too (RUL-36)."""
    st = game()
    passage = st.passages[0]
    here, there = passage.ends
    st.players[1].pos = here
    passage.discovered, passage.known_by = True, [2]  # found by a friend: she does not know where it leads
    landings = [o[0] for o in SurvivorBot(st, 1, random.Random(0), team_of(st, None), None).movement_options()]
    assert there not in landings
    passage.known_by = [1, 2]
    landings = [o[0] for o in SurvivorBot(st, 1, random.Random(0), team_of(st, None), None).movement_options()]
    assert there in landings


def test_survivors_head_for_generators_along_the_shortest_path() -> None:
    st = game()
    for p in st.survivors():
        order = bot_order(st, p.seat, random.Random(p.seat))
        fld = cost_field(st, p, st.board.generators)
        end = p.pos
        for step in order.steps:
            if isinstance(step, Move):
                end = step.to
        assert points(fld, end) < points(fld, p.pos) or Crack() in order.steps, (p.alias, order)


def test_gates_powered_a_survivor_on_a_gate_escapes() -> None:
    st = game()
    st.gates_powered = True
    st.players[2].pos = T("J1")
    assert bot_order(st, 2, random.Random(0)).steps == (Escape(),)


def test_a_healthy_survivor_heals_a_downed_friend_on_its_tile() -> None:
    st = game(roles=("lawyer", "athlete"))
    st.players[1].pos = st.players[2].pos = T("E7")
    st.players[2].downed = True
    st.players[2].hp = 4
    order = bot_order(st, 1, random.Random(0))
    assert Heal(st.players[2].alias) in order.steps


def test_a_downed_survivor_uses_its_adrenaline() -> None:
    st = game(roles=("doctor",))
    st.players[1].downed = True
    assert bot_order(st, 1, random.Random(0)).steps[0].item == "adrenaline"  # type: ignore[union-attr]


def _hunter_stage(st: State) -> State:
    st, _ = resolve_survivor_stage(st, {}, 1)
    return st


def test_hunter_attacks_a_survivor_he_senses_on_his_tile() -> None:
    st = game(roles=(None,) * 8 + ("ember", "clown"))
    h = st.players[9]
    st.players[1].pos = h.pos
    st = _hunter_stage(st)
    assert bot_order(st, 9, random.Random(0)).steps[0] == Attack()


def test_hunter_walks_to_the_nearest_noise_and_attacks_there() -> None:
    st = game(roles=(None,) * 8 + ("ember", "clown"))
    st.players[9].pos = T("A10")
    st = _hunter_stage(st)
    for p in st.survivors():
        p.pos = T("J1")  # out of his senses
    st.noise = [T("C10")]
    order = bot_order(st, 9, random.Random(0))
    assert order.steps[:3] == (Move(T("B10")), Move(T("C10")), Attack())  # then what is left: listen, a board


def test_a_hunter_bot_plans_only_through_passages_he_knows() -> None:
    """Another Assassin's passage is hers alone (RUL-1); the map's passages every hunter knows."""
    st = _hunter_stage(game(roles=(None,) * 8 + ("ember", "clown")))
    map_passage = st.passages[0]
    laid = Passage(ends=(T("B2"), T("B6")), owner=10)  # laid by the other hunter
    st.passages.append(laid)
    for passage, known in ((laid, False), (map_passage, True)):
        st.players[9].pos = passage.ends[0]
        landings = [o[0] for o in HunterBot(st, 9, random.Random(0), None, None).movement_options()]
        assert (passage.ends[1] in landings) is known


def test_hunter_view_is_his_briefing() -> None:
    """The bot's hunter acts on exactly the tiles his briefing names (R-SENSE-5)."""
    for seed in range(12):
        board = ready_map("standard")
        roster = roster_for(board)
        st = new_game(board, roster, seed)
        rng = random.Random(seed)
        for _ in range(3):
            orders = {p.seat: bot_order(st, p.seat, rng) for p in st.survivors()}
            st, events = resolve_survivor_stage(st, orders, seed)
            for h in st.hunters():
                told = [e for e in events if e.kind.startswith("brief_") and h.seat in e.to]
                seen = {f["tile"] for e in told for f in e.params.get("found", ())}
                noise = next(e.params["tiles"] for e in told if e.kind == "brief_noise")
                view = hunter_view(st, h)
                assert {tile_name(t) for t in view.seen} == seen
                assert sorted(tile_name(t) for t in view.noise) == sorted(noise)
            st, _ = resolve_hunter_stage(st, {h.seat: bot_order(st, h.seat, rng) for h in st.hunters()}, seed)
            if st.over():
                break


@pytest.mark.parametrize("map_name", ["standard", "teach"])
def test_bot_games_end_with_a_winner(map_name: str) -> None:
    board = ready_map(map_name)
    results: Counter[str | None] = Counter()
    nights = []
    for seed in SEEDS:
        st, events = play_game(board, roster_for(board), seed)
        results[st.winner] += 1
        nights.append(st.night)
        assert (st.winner is None) == (not any(e.kind == "game_over" for e in events))
    decided = results["survivors"] + results["hunters"]
    assert decided >= 0.8 * len(SEEDS), results
    assert results["survivors"] >= 1 and results["hunters"] >= 1, results
    assert sum(nights) / len(nights) <= 15, nights


def test_play_game_is_deterministic_and_bounded() -> None:
    board = ready_map("standard")
    a, ev_a = play_game(board, roster_for(board), 7)
    b, ev_b = play_game(board, roster_for(board), 7)
    assert a.digest() == b.digest() and [e.to_dict() for e in ev_a] == [e.to_dict() for e in ev_b]
    short, _ = play_game(board, roster_for(board), 7, max_nights=1)
    assert short.night == 2 or short.over()


def test_play_night_resolves_both_stages() -> None:
    st = game()
    st2, events = play_night(st, 1, bot_order, random.Random(0))
    assert st2.night == 2 and {e.stage for e in events} == {"survivor", "hunter"}


def test_roster_and_scaled_options_follow_the_map() -> None:
    teach = ready_map("teach")
    roster = roster_for(teach)
    assert [s.camp for s in roster] == ["survivor"] * 3 + ["hunter"]
    assert scaled_options(roster) == {"scale_targets": True}
    st = new_game(teach, roster, 1, options=scaled_options(roster))
    assert (st.opt("crack_target"), st.opt("survivors_to_win"), st.opt("eliminations_to_win")) == (6, 2, 2)
    eight = roster_for(ready_map("standard"))
    assert scaled_options(eight) == {}
    assert roster_for(teach, roles=("doctor",))[0] == SeatSpec("S1", "survivor", "doctor")


def reference_field(st: State, mover_seat: int, targets: list[tuple[int, int]]) -> dict[tuple[int, int], int]:
    """A plain Dijkstra over edge_cost and the usable passages, to check the fast cached one against."""
    import heapq

    from sheetgm.bots.paths import SCALE, _passage_links, edge_cost

    mover = st.players[mover_seat]
    links = _passage_links(st, mover)
    dist = {t: 0 for t in targets}
    heap = [(0, t) for t in targets]
    while heap:
        d, cur = heapq.heappop(heap)
        if d > dist[cur]:
            continue
        steps = [(n, edge_cost(st, mover, cur, n)) for n in st.board.neighbours(cur)]
        steps += [(b if a == cur else a, 1) for a, b in links if cur in (a, b)]
        for n, c in steps:
            if c is not None and d + c * SCALE + 1 < dist.get(n, 10**9):
                dist[n] = d + c * SCALE + 1
                heapq.heappush(heap, (dist[n], n))
    return dist


def test_cost_fields_are_shortest_paths_with_boards_and_passages() -> None:
    st = game(roles=("mercenary",) + (None,) * 7 + ("assassin", "clown"))
    st.boards |= {(T("C3"), T("C4")), (T("E5"), T("F5")), (T("B7"), T("B8"))}
    for p in st.passages:
        p.discovered = False
    rng = random.Random(3)
    for _ in range(12):
        targets = [st.board.tile_list[rng.randrange(len(st.board.tile_list))] for _ in range(rng.randint(1, 3))]
        fields = Fields(st)  # a stage's fields: each state of the loop is another stage's
        for seat in (1, 2, 9, 10):
            want = reference_field(st, seat, targets)
            assert cost_field(st, st.players[seat], targets) == want
            assert fields(st.players[seat], targets) == want and fields(st.players[seat], tuple(targets)) == want
        if st.passages:
            st.passages[0].discovered = not st.passages[0].discovered


MAPS = sorted(p.stem for p in (Path(__file__).resolve().parents[1] / "sheet_templates" / "maps").glob("*.map"))


def test_the_map_s_field_cache_is_bounded_by_its_entries(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fields kept per map, and the walk memos that keep a field each, start afresh before they hold
    ``CACHE_ENTRIES`` tiles (a long simulation on a big map would otherwise keep every field it ever made), and every
    field given is still the shortest paths."""
    st = game()
    tiles = st.board.tile_list
    monkeypatch.setattr(paths, "CACHE_ENTRIES", 10 * len(tiles))
    cache = paths._tables(st.board)[1]
    cache.clear()
    rng = random.Random(5)
    for _ in range(60):
        targets = [tiles[rng.randrange(len(tiles))]]
        fld = cost_field(st, st.players[1], targets)
        assert len(cache) * len(tiles) <= 10 * len(tiles)
        assert fld == reference_field(st, 1, targets)
        paths.memo_of(fld)
        assert sum(len(f) for f, _ in paths._memos.values()) <= 10 * len(tiles)  # memos keep fields: bounded alike
    assert len(cache) > 0


@pytest.mark.parametrize("map_name", MAPS)
def test_cost_fields_are_shortest_paths_on_every_map(map_name: str) -> None:
    """``paths._dijkstra`` (rows of the map's edges, made anew only where a board or a passage touches them) gives
    the plain Dijkstra's field on every map, for every kind of mover, with boards, the map's passages and an
    Assassin's own."""
    roster = roster_for(ready_map(map_name), survivors=4, hunters=2, roles=("mercenary", None, None, None, "assassin"))
    st = new_game(ready_map(map_name), roster, 1, options=scaled_options(roster))
    board, rng = st.board, random.Random(map_name)
    open_edges = sorted(k for k, kind in board.edge_kinds.items()
                        if kind is EDGE_OPEN and k == edge_key(*k) and not board.same_flat_region(*k))
    st.boards |= set(rng.sample(open_edges, min(8, len(open_edges))))
    seat_of = {p.role: p.seat for p in st.players.values()}
    tiles = board.tile_list
    st.passages.append(Passage(ends=edge_key(tiles[1], tiles[-2]), owner=seat_of["assassin"]))
    # the Mercenary, another survivor, the Assassin, the other hunter: each kind of mover, each hunter's passages
    movers = [seat_of["mercenary"], 2, seat_of["assassin"], next(p.seat for p in st.players.values()
                                                               if p.is_hunter and p.role != "assassin")]
    for _ in range(6):
        targets = [tiles[rng.randrange(len(tiles))] for _ in range(rng.randint(1, 4))]
        fields = Fields(st)
        for seat in movers:
            want = reference_field(st, seat, targets)
            assert cost_field(st, st.players[seat], targets) == want
            assert fields(st.players[seat], targets) == want
        known = st.passages[0].known_by  # survivor 2 finds the first passage, and the next stage forgets it
        if 2 in known:
            known.remove(2)
        else:
            known.append(2)


def _six_games(board: Board) -> list[tuple[str, list[dict[str, object]]]]:
    """Six bot games on ``board``, each as its final state's digest and every event."""
    out = []
    for seed in range(6):
        st, events = play_game(board, roster_for(board), seed)
        out.append((st.digest(), [e.to_dict() for e in events]))
    return out


@pytest.mark.parametrize("map_name", ["standard", "teach"])
def test_the_bots_play_the_same_games_when_every_try_is_saved_and_undone(
        map_name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``Draft.add`` saves only the budget before a try (a step that fails changes nothing else): the games are
    step for step those of an add that saves the player, robot, boards, traps and passages and puts them back."""
    board = ready_map(map_name)

    fast = _six_games(board)
    tries = Counter[bool]()

    def add_with_undo(self: Draft, step: Step) -> bool:
        saved, budget = self._save(), dict(self.budget.__dict__)
        try:
            do_step(self.ctx, self.p, self.budget, step)
        except Illegal:
            self._restore(saved)
            self.budget.__dict__.update(budget)
            tries[False] += 1
            return False
        self.steps.append(step)
        tries[True] += 1
        return True

    monkeypatch.setattr(Draft, "add", add_with_undo)
    assert _six_games(board) == fast
    assert tries[False] > 10 and tries[True] > 200, tries


@pytest.mark.parametrize("map_name", ["standard", "teach"])
def test_a_stage_resolved_on_the_bots_dry_copy_is_the_stage_resolved_on_a_new_copy(
        map_name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``Table.handoff`` gives the resolver the stage's dry copy once every draft on it is released: the games
    are step for step those resolved on a new copy of the state, and the state a stage starts from is unchanged."""
    board = ready_map(map_name)
    handed = Counter[bool]()
    handoff = Table.handoff

    def counted(self: Table, state: State) -> State | None:
        fresh = handoff(self, state)
        handed[fresh is not None] += 1
        return fresh

    monkeypatch.setattr(Table, "handoff", counted)
    on_dry_copies = _six_games(board)
    assert handed[True] > 20
    monkeypatch.setattr(Table, "handoff", lambda self, state: None)
    assert _six_games(board) == on_dry_copies
    monkeypatch.undo()

    st = new_game(board, roster_for(board), 5)
    before = st.to_json()
    table = Table()
    orders = {p.seat: table.order(st, p.seat, random.Random(1)) for p in st.survivors()}
    fresh = table.handoff(st)
    assert fresh is not None and fresh is not st and table.handoff(st) is None
    mine, events = resolve_survivor_stage(st, orders, 5, fresh=fresh)
    assert mine is fresh and st.to_json() == before
    theirs, their_events = resolve_survivor_stage(st, orders, 5)
    assert mine.to_json() == theirs.to_json() and events == their_events


def test_the_fingerprint_script_names_the_games_that_differ(tmp_path: Path) -> None:
    """benchmarks/bots_fingerprint.py, which proves a change plays the same games: the same tree agrees with itself,
    and a game whose fingerprint differs is named."""
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "bots_fingerprint.py"
    prints = tmp_path / "prints.json"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(script), *args, "--games", "2", "--teach", "1"],
                              capture_output=True, text=True, timeout=120)

    assert run("--write", str(prints)).returncode == 0
    written = json.loads(prints.read_text(encoding="utf-8"))
    assert sorted(written) == ["standard/1", "standard/2", "teach/1"]
    same = run("--check", str(prints))
    assert same.returncode == 0 and "the same 3 games" in same.stdout
    prints.write_text(json.dumps({**written, "standard/2": "0" * 64}), encoding="utf-8")
    differ = run("--check", str(prints))
    assert differ.returncode == 1 and "1 of 3 games differ: standard/2" in differ.stdout


def test_the_quality_script_counts_what_the_games_did() -> None:
    """benchmarks/bots_quality.py, which holds a change to the bots' decisions to playing no worse: its table
    counts the winners, escapes and stages the games really had, and no order the checker refuses."""
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "bots_quality.py"
    out = subprocess.run([sys.executable, str(script), "--games", "3", "--teach", "0"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    rows = dict(line.strip("| ").split(" | ") for line in out.stdout.splitlines() if line.startswith("| standard"))
    board = ready_map("standard")
    games = [play_game(board, roster_for(board), seed)[0] for seed in (1, 2, 3)]
    won = sum(1 for st in games if st.winner == "survivors")
    assert rows["standard: games"] == "3"
    assert rows["standard: won by survivors"] == f"{100 * won / 3:.1f} %"
    assert rows["standard: survivors escaped a game"] == f"{sum(len(st.escaped) for st in games) / 3:.2f}"
    assert rows["standard: survivors' orders refused"] == "0.0 % (0)"
    assert rows["standard: hunters' orders refused"] == "0.0 % (0)"
    stages = float(rows["standard: stages a game"])
    assert 2 <= stages <= 2 * max(st.night for st in games)
