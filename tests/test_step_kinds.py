"""One table of step kinds (issue 14, "repeated shapes"): every step class carries its Kind, and the resolver,
the parser and the formatter each dispatch on its name through one table with exactly those keys, so a kind
added to ``steps.STEP_TYPES`` and forgotten in a layer fails here, not in a game."""

from __future__ import annotations

import pytest

from sheetgm.core import act
from sheetgm.core.context import Budget, Ctx, Illegal
from sheetgm.core.draft import NO_DRAWS
from sheetgm.core.state import HUNTER_STAGE, SURVIVOR_STAGE
from sheetgm.core.steps import NIGHT_KINDS, STEP_TYPES, Attack, Crack, Give, Move, Search
from sheetgm.notation import order_format, orders
from sheetgm.notation.vocab import STEP_WORDS


def test_every_layer_dispatches_every_kind() -> None:
    assert set(STEP_TYPES) == set(STEP_WORDS.values()) | {"skill", "robot"}
    assert act.RULE_KINDS == NIGHT_KINDS
    assert order_format.WRITER_KINDS == set(STEP_TYPES)
    assert orders.READER_KINDS == set(STEP_TYPES)
    assert {cls.kind.name for cls in STEP_TYPES.values()} == set(STEP_TYPES)  # each class its own kind


def test_a_kinds_camp_is_who_may_take_it() -> None:
    from enginekit import game

    st = game(survivors=[("Ann", "lucky", "B2")], hunters=[("Hal", "clown", "E5")])
    survivor, hunter = st.players[1], st.players[2]
    with pytest.raises(Illegal) as hunters_only:
        act.do_step(Ctx(st, NO_DRAWS, SURVIVOR_STAGE, dry=True), survivor, Budget(3, 1), Attack())
    assert hunters_only.value.code == "err.rule.hunter_only"
    with pytest.raises(Illegal) as survivors_only:
        act.do_step(Ctx(st, NO_DRAWS, HUNTER_STAGE, dry=True), hunter, Budget(4, 2), Search())
    assert survivors_only.value.code == "err.rule.survivor_only"
    assert Move.kind.camp is None and Crack.kind.camp == "survivor" and Give.kind.day
