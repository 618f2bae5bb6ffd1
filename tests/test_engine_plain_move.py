"""The resolver plays the commonest step, a plain Move, without the rule's calls (``moves.plain_move``, issue 14):
it must play it exactly as ``moves.move`` through ``do_step`` does, and leave every other case to the rule."""

from __future__ import annotations

import random

import pytest
from test_check_agrees import positions
from test_check_in_place import due_seats

from sheetgm.core.act import do_step
from sheetgm.core.board import edge_key
from sheetgm.core.context import Budget, Ctx, Illegal
from sheetgm.core.moves import plain_move
from sheetgm.core.resolve import stage_rng
from sheetgm.core.state import State
from sheetgm.core.steps import Move


def _ctx(st: State) -> Ctx:
    return Ctx(st, stage_rng(1, st.night, st.stage), st.stage)


def _stirred(st: State, seat: int, rng: random.Random) -> State:
    """The position with boards, traps, a trap's hold or an Escape thrown in around the piece."""
    st = st.copy()
    p = st.players[seat]
    for n in st.board.neighbour_map[p.pos]:
        if rng.random() < 0.25:
            st.boards.add(edge_key(p.pos, n))
        if rng.random() < 0.25:
            st.traps[n] = 99
    if rng.random() < 0.1:
        p.flags["held"] = True
    for q in st.players.values():  # a hunter on a neighbour: a survivor walks into her discovery, and back
        if q.is_hunter and rng.random() < 0.3:
            q.pos = rng.choice(st.board.neighbour_map[p.pos])
    return st


@pytest.mark.parametrize("map_name", ["standard", "teach"])
def test_a_plain_move_is_the_rule_s_move(map_name: str) -> None:
    """From positions of bot games, stirred, each Move to a neighbour, a far tile or a passage's end with 0 to 4 MP:
    where ``plain_move`` plays it, ``do_step`` plays it alike (state, budget, events); where it declines, it has
    changed nothing and emitted nothing."""
    rng = random.Random(f"plain-move-resolver/{map_name}")
    played = declined = 0
    for seed in range(3):
        for base in positions(map_name, seed, nights=5):
            for seat in due_seats(base):
                st = _stirred(base, seat, rng)
                here = st.players[seat].pos
                targets = [*st.board.neighbour_map[here], *rng.sample(list(st.board.tiles()), 2)]
                targets += [pa.ends[0] if pa.ends[1] == here else pa.ends[1] for pa in st.passages if here in pa.ends]
                for to in targets:
                    mp = rng.randrange(5)
                    mine, theirs = st.copy(), st.copy()
                    ctx, rule = _ctx(mine), _ctx(theirs)
                    b = Budget(mp=mp, ap=1, escaped=rng.random() < 0.05)
                    rb = Budget(**b.__dict__)
                    where = f"{map_name}/{seed} N{st.night} {st.players[seat].alias} -> {to} with {mp} MP"
                    if not plain_move(ctx, mine.players[seat], b, to):
                        declined += 1
                        assert mine.to_json() == st.to_json() and ctx.events == [], where
                        assert b == rb, where
                        continue
                    played += 1
                    try:
                        do_step(rule, theirs.players[seat], rb, Move(to))
                    except Illegal as exc:  # pragma: no cover - the failure's message names the case
                        raise AssertionError(f"{where}: the rule refuses ({exc.code})") from exc
                    assert b == rb, where
                    assert ctx.events == rule.events, where
                    assert mine.to_json() == theirs.to_json(), where
                    assert [q.pos for q in mine.at(to)] == [q.pos for q in theirs.at(to)], where
    assert played > 50 and declined > 50, (played, declined)
