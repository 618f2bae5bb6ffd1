"""The checker plays on the state itself, undoing what it changed, instead of copying it per order (issue 14:
"each order check copies the whole state", N² at 160 players), with exactly the answers of the copy.

The copy-style answers are those of a Draft on its own copy of the whole state, the night's resets applied to
every player (as ``review_order`` and ``budget_of`` worked before); the in-place ones are ``review_order``,
``budget_of`` and ``legal_steps`` themselves. They are compared over the positions of bot games and orders of
every kind, alone and with the stage's other orders (RUL-39), and the state must come back unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest
from test_check_agrees import any_order, any_step, positions

from sheetgm.bots import bot_order
from sheetgm.core import check
from sheetgm.core.act import do_step
from sheetgm.core.check import Draft, Review, budget_of, candidates, legal_steps, review_order
from sheetgm.core.context import Illegal
from sheetgm.core.others import brought
from sheetgm.core.state import HUNTER_STAGE, State
from sheetgm.core.steps import Move, Order
from sheetgm.core.unknowns import Unknowns


def review_by_copy(state: State, seat: int, order: Order, others: Mapping[int, Order]) -> Review:
    """The same rules on a private copy of the whole state (``Draft`` without a shared copy makes one)."""
    unknown = Unknowns(brought=brought(state, state.players[seat], others))
    return check._review(Draft(state, seat), order, unknown)


def due_seats(st: State) -> list[int]:
    """The seats whose camp plays this stage (robots write no orders)."""
    return [p.seat for p in st.players.values() if p.in_play and not p.is_robot
            and p.is_hunter == (st.stage == HUNTER_STAGE)]


def shown(review: Review) -> list[tuple[str, object]]:
    return [("problem", (x.code, x.step, x.day, repr(x.params))) for x in review.problems] + \
        [("note", (x.code, x.step, repr(x.params))) for x in review.notes]


@pytest.mark.parametrize("map_name", ["standard", "teach"])
def test_in_place_answers_are_the_copys(map_name: str) -> None:
    rng = random.Random(f"in-place/{map_name}")
    compared = noted = 0
    for seed in range(4):
        for st in positions(map_name, seed):
            frozen = st.to_json()
            camp = "hunter" if st.stage == HUNTER_STAGE else "survivor"
            seats = [p.seat for p in st.players.values() if p.in_play and not p.is_robot and p.camp == camp]
            stage = {s: bot_order(st, s, rng) if rng.random() < 0.5 else any_order(st, s, rng) for s in seats}
            for p in list(st.players.values()):
                if not p.in_play or p.is_robot:
                    continue
                orders = [any_order(st, p.seat, rng) for _ in range(2)] + [stage.get(p.seat, Order())]
                for order in orders:
                    for others in ({}, {s: o for s, o in stage.items() if s != p.seat}):
                        want = shown(review_by_copy(st, p.seat, order, others))
                        got = shown(review_order(st, p.seat, order, others))
                        assert got == want, f"{map_name}/{seed} N{st.night} {p.alias} {order}"
                        compared += 1
                        noted += any(kind == "note" for kind, _ in got)
                copied = Draft(st, p.seat)
                assert budget_of(st, p.seat) == copied.budget
                assert legal_steps(st, p.seat) == copied.legal_steps()
            assert st.to_json() == frozen, "the checker left the state changed"
    assert compared > 1000 and noted > 20


def test_checking_copies_no_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """The in-place checker never copies the state, so checking a stage costs N orders, not N states."""
    rng = random.Random("no-copy")
    states = positions("standard", 1, nights=3)

    def no_copy(self: State) -> State:
        raise AssertionError("the checker copied the state")

    monkeypatch.setattr(State, "copy", no_copy)
    checked = 0
    for st in states:
        for p in st.players.values():
            if p.in_play and not p.is_robot:
                review_order(st, p.seat, any_order(st, p.seat, rng))
                budget_of(st, p.seat)
                legal_steps(st, p.seat)
                checked += 1
    assert checked > 50


@pytest.mark.parametrize("map_name", ["standard", "teach"])
def test_a_step_that_fails_in_dry_mode_changes_nothing_but_the_budget(map_name: str) -> None:
    """``do_step``'s contract, on which ``Draft.add`` (no save before a try: the bots' every step) and the
    checker's ``_judge`` (no undo after a failed step) rely: an illegal step raises before it changes the state;
    ``Draft.add`` gives the budget back itself. Steps of every kind, from positions of bot games, each order
    going on from the steps that were legal."""
    rng = random.Random(f"fail-clean/{map_name}")
    failed = kept = 0
    for seed in range(3):
        for st in positions(map_name, seed, nights=5):
            for seat in due_seats(st):
                with Draft.on(st, seat) as draft:
                    for _ in range(6):
                        near = candidates(st, draft.p)
                        tries = rng.sample(near, min(6, len(near))) + [any_step(st, seat, rng) for _ in range(4)]
                        for step in tries:
                            before, budget = st.to_json(), dict(draft.budget.__dict__)
                            if draft.add(step):
                                kept += 1
                                break
                            assert st.to_json() == before, f"{map_name}/{seed} N{st.night} {draft.p.alias} {step}"
                            assert draft.budget.__dict__ == budget
                            failed += 1
    assert failed > 500 and kept > 200, (failed, kept)


@pytest.mark.parametrize("map_name", ["standard", "teach"])
def test_a_plain_move_played_without_the_rule_is_the_rule_s_move(map_name: str) -> None:
    """``Draft.add`` plays a Move over an open edge itself (``Draft._plain_move``, the bots' commonest try): each
    Move to every neighbour, the passage's far end and tiles farther off, from positions of bot games and after
    random steps (boards, traps, Fear, a trap's hold, flat regions), leaves the draft exactly as ``do_step`` does;
    ``Draft.legal`` answers as the rule and leaves the draft as it was."""
    rng = random.Random(f"plain-move/{map_name}")
    fast = ruled = 0
    for seed in range(3):
        for st in positions(map_name, seed, nights=5):
            for seat in due_seats(st):
                before = [any_step(st, seat, rng) for _ in range(rng.randrange(3))]
                here = st.players[seat].pos
                targets = [*st.board.neighbour_map[here], *rng.sample(list(st.board.tiles()), 3)]
                targets += [pa.ends[0] if pa.ends[1] == here else pa.ends[1] for pa in st.passages if here in pa.ends]
                for to in targets:
                    mine, theirs = Draft(st, seat), Draft(st, seat)
                    for step in before:
                        mine.add(step)
                        theirs.add(step)
                    move = Move(to)
                    fast += mine._plain_move(to) is not None
                    mine = Draft(st, seat)
                    for step in before:
                        mine.add(step)
                    got = mine.add(move)
                    budget = dict(theirs.budget.__dict__)
                    try:
                        do_step(theirs.ctx, theirs.p, theirs.budget, move)
                        want = True
                    except Illegal:
                        theirs.budget.__dict__.update(budget)
                        want = False
                    ruled += 1
                    where = f"{map_name}/{seed} N{st.night} {st.players[seat].alias} -> {to}"
                    assert got == want, where
                    assert mine.budget == theirs.budget, where
                    assert mine.state.to_json() == theirs.state.to_json(), where
                    probe = Draft(st, seat)
                    for step in before:
                        probe.add(step)
                    was, budget = probe.state.to_json(), dict(probe.budget.__dict__)
                    assert probe.legal(move) == want, where
                    assert probe.state.to_json() == was and probe.budget.__dict__ == budget, where
    assert fast > 100 and ruled > fast, (fast, ruled)


def test_a_stage_s_drafts_on_one_shared_copy_share_one_dry_context_that_keeps_nothing() -> None:
    """Drafts on the same shared copy and stage reuse one dry ``Ctx`` (``draft._dry_ctx``): it must carry nothing
    from one draft to the next (no event, the copy given back as found), and a draft on another copy gets its own."""
    rng = random.Random("dry-ctx")
    for st in positions("standard", 1, nights=4):
        shared = Draft.shared_copy(st)
        found, ctxs = shared.to_json(), set()
        for seat in due_seats(st):
            draft = Draft(st, seat, shared)
            for _ in range(rng.randrange(1, 5)):
                draft.add(any_step(st, seat, rng))
            draft.release()
            ctxs.add(id(draft.ctx))
            assert draft.ctx.state is shared and draft.ctx.dry and draft.ctx.events == []
            assert shared.to_json() == found, f"N{st.night} {st.players[seat].alias}"
        assert len(ctxs) == 1
        other = Draft(st, due_seats(st)[0], Draft.shared_copy(st))
        assert other.ctx.state is other.state is not shared and id(other.ctx) not in ctxs
