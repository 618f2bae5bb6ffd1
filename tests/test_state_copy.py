"""The cheap State.copy is a true copy, State.at's index never goes stale, and a Draft leaves its state
as it found it.

The copy is written field by field for speed; these tests walk every field of
the State and of every Player, Passage and Card, so a field added later is
covered without anyone touching this file.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from typing import Any

import pytest

from sheetgm.bots import random_order, roster_for, scaled_options
from sheetgm.core.board import Board
from sheetgm.core.check import Draft, legal_steps
from sheetgm.core.resolve import resolve_stage
from sheetgm.core.setup import new_game
from sheetgm.core.state import Card, Passage, Player, State
from sheetgm.core.steps import Move, Skill
from sheetgm.notation.mapfile import ready_map

MUTABLE = (list, dict, set)


def rich_state() -> State:
    """A state with something in every container, nested values in flags and options included."""
    board = ready_map("standard")
    st = new_game(board, roster_for(board), 3, options=scaled_options(roster_for(board)))
    st.boards.add(((1, 1), (1, 2)))
    st.traps[(3, 3)] = 9
    st.lying[(2, 2)] = ["map", "bottle"]
    st.keys_on[(4, 4)] = 2
    st.passages.append(Passage(ends=((0, 0), (0, 5)), owner=9))
    st.cracked_tonight[(2, 1)] = 2
    st.noise.append((5, 5))
    st.cards.append(Card(seat=1, colour="blue", reason="late", night=1))
    st.eliminated.append(4)
    st.escaped.append(5)
    st.spent.append("stimulant")
    st.options["nested"] = {"a": [1, 2]}
    p = st.players[1]
    p.items.append("wings")
    p.uses["magic"] = 1
    p.flags.update({"held": True, "seen": [(1, 1)], "pair": ((1, 2), [3])})
    return st


def mutable_ids(obj: Any, seen: set[int] | None = None, skip: tuple[type, ...] = (Board,)) -> set[int]:
    """The ids of every mutable object reachable from obj through dataclass fields and containers."""
    seen = set() if seen is None else seen
    if isinstance(obj, skip) or id(obj) in seen:
        return seen
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        seen.add(id(obj))
        for f in dataclasses.fields(obj):
            mutable_ids(getattr(obj, f.name), seen, skip)
    elif isinstance(obj, dict):
        seen.add(id(obj))
        for k, v in obj.items():
            mutable_ids(k, seen, skip)
            mutable_ids(v, seen, skip)
    elif isinstance(obj, (list, set, tuple, frozenset)):
        if isinstance(obj, MUTABLE):
            seen.add(id(obj))
        for v in obj:
            mutable_ids(v, seen, skip)
    return seen


def test_the_copy_equals_the_original_and_shares_nothing_mutable_but_the_board() -> None:
    st = rich_state()
    dup = st.copy()
    assert dup == st and dup.to_json() == st.to_json()
    assert dup.board is st.board
    assert not mutable_ids(st) & mutable_ids(dup)


def _mutate(value: Any) -> Any:
    """A changed version of a field's value, changing nested containers in place where there are some."""
    if isinstance(value, list):
        for v in value:
            if isinstance(v, MUTABLE) or dataclasses.is_dataclass(v):
                _poke(v)
        value.append("x")
        return value
    if isinstance(value, dict):
        for v in value.values():
            if isinstance(v, MUTABLE) or dataclasses.is_dataclass(v):
                _poke(v)
        value["x"] = "y"
        return value
    if isinstance(value, set):
        value.add("x")
        return value
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, tuple):
        return (*value, (9, 9))
    return "changed"


def _poke(obj: Any) -> None:
    if dataclasses.is_dataclass(obj):
        for f in dataclasses.fields(obj):
            setattr(obj, f.name, _mutate(getattr(obj, f.name)))
    else:
        _mutate(obj)


@pytest.mark.parametrize("name", [f.name for f in dataclasses.fields(State) if f.name != "board"])
def test_changing_any_state_field_of_the_copy_leaves_the_original(name: str) -> None:
    st = rich_state()
    before = copy.deepcopy(st)
    dup = st.copy()
    value = getattr(dup, name)
    if name == "players":
        for p in value.values():
            _poke(p)
        value[99] = Player(seat=99, alias="new", camp="survivor")
    else:
        setattr(dup, name, _mutate(value))
    assert st == before and st.to_json() == before.to_json()


@pytest.mark.parametrize("record", [Player, Passage, Card])
def test_changing_any_field_of_a_copied_player_passage_or_card_leaves_the_original(record: type) -> None:
    st = rich_state()
    before = copy.deepcopy(st)
    dup = st.copy()
    things = {Player: list(dup.players.values()), Passage: dup.passages, Card: dup.cards}[record]
    assert things
    for thing in things:
        for f in dataclasses.fields(thing):
            setattr(thing, f.name, _mutate(getattr(thing, f.name)))
    assert st == before


def test_a_field_added_later_is_deep_copied() -> None:
    """A field copy() does not know by name falls back to a deepcopy (here: a new field on Player)."""
    from sheetgm.core import state as state_module

    assert state_module._PLAYER_DEEP == () and state_module._STATE_DEEP == ()
    st = rich_state()
    for p in st.players.values():
        p.__dict__["later"] = [p.seat]  # what a new list field would hold
    saved = state_module._PLAYER_DEEP
    state_module._PLAYER_DEEP = ("later",)
    try:
        dup = st.copy()
    finally:
        state_module._PLAYER_DEEP = saved
    dup.players[1].__dict__["later"].append(2)
    assert dup.players[1].__dict__["later"] == [1, 2] and st.players[1].__dict__["later"] == [1]


def brute_at(st: State, tile: tuple[int, int], camp: str | None = None) -> list[Player]:
    return [p for _, p in sorted(st.players.items()) if p.in_play and p.pos == tile and camp in (None, p.camp)]


def assert_index_true(st: State) -> None:
    for tile in st.board.tile_list:
        for camp in (None, "survivor", "hunter"):
            assert st.at(tile, camp) == brute_at(st, tile, camp)
    assert st.survivors(robots=True) == [p for _, p in sorted(st.players.items()) if p.is_survivor and p.in_play]


def test_at_follows_every_move_copy_deploy_and_pickle() -> None:
    board = ready_map("standard")
    roster = roster_for(board, roles=("mechanic",))
    st = new_game(board, roster, 5, options=scaled_options(roster))
    rng = random.Random(5)
    assert_index_true(st)
    for _ in range(6):
        tiles = board.tiles()
        for p in list(st.players.values()):
            p.pos = tiles[rng.randrange(len(tiles))]  # moved by hand, as tests and overrides do
        st.players[2].status = "eliminated"
        assert_index_true(st)
        dup = st.copy()
        dup.players[1].pos = (0, 0)
        assert_index_true(dup)
        assert_index_true(st)
        for other in (copy.deepcopy(st), pickle.loads(pickle.dumps(st))):
            assert_index_true(other)
        orders = {p.seat: random_order(st, p.seat, rng) for p in st.players.values()}
        st, _ = resolve_stage(st, orders, 5)
        assert_index_true(st)
    st.players[100 + 1] = Player(seat=101, alias="S1#robot", camp="survivor", pos=(9, 9), flags={"robot_of": 1})
    assert_index_true(st)
    st.players = {s: p for s, p in st.players.items() if s != 3}
    assert_index_true(st)


def test_a_draft_leaves_the_state_and_a_shared_copy_as_it_found_them() -> None:
    board = ready_map("standard")
    roster = roster_for(board, roles=("mechanic", "athlete"))
    st = new_game(board, roster, 2, options=scaled_options(roster))
    before = st.to_json()
    shared = st.copy()
    draft = Draft(st, 1, shared)
    for step in draft.legal_steps():
        draft.legal(step)
    assert draft.add(Skill("deploy"))  # the robot joins the shared copy's players
    assert 101 in shared.players
    here = draft.p.pos
    nxt = next(n for n in board.neighbour_map[here] if draft.legal(Move(n)))
    assert draft.add(Move(nxt)) and draft.p.pos == nxt
    draft.release()
    assert shared.to_json() == before and st.to_json() == before
    assert_index_true(shared)
    assert legal_steps(st, 1) == Draft(st, 1).legal_steps()


def test_to_dict_writes_each_player_as_asdict_would_and_shares_nothing() -> None:
    """State.to_dict makes each player's record without ``asdict``: the same values, equal and of the same types
    (a tuple stays a tuple; a set or a dataclass in flags becomes what asdict makes of it), sharing no list or
    dict with the state."""
    st = rich_state()
    p = st.players[1]
    card = Card(seat=2, colour="red", reason="x", night=2)
    p.flags.update({"set": {3, 1}, "card": card, "f": 0.5, "n": None})
    rng = random.Random(5)
    for _ in range(6):  # nested lists in tuples in lists, in every player
        for q in st.players.values():
            q.flags.setdefault("tried", []).append((rng.randrange(9), [rng.random() > 0.5]))
    got = st.to_dict()["players"]
    want = [{**dataclasses.asdict(q), "pos": got[i]["pos"]} for i, (_, q) in enumerate(sorted(st.players.items()))]

    def typed(v: Any) -> Any:
        if isinstance(v, dict):
            return ("dict", sorted((repr(k), typed(x)) for k, x in v.items()))
        if isinstance(v, (list, tuple, set)):
            return (type(v).__name__, [typed(x) for x in v])
        return (type(v).__name__, v)

    assert typed(got) == typed(want) and got[0]["flags"]["card"] == dataclasses.asdict(card)
    assert not mutable_ids(got) & mutable_ids(st)
