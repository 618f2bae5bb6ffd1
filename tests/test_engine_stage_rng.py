"""A stage's dice are seeded at their first draw (``resolve.stage_rng``, issue 14): the same stream as
``random.Random`` seeded from the same text at once, whichever way it is drawn."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest

from sheetgm.core.resolve import stage_rng

DRAWS: dict[str, Callable[[random.Random], Any]] = {
    "random": lambda r: [r.random() for _ in range(5)],
    "randrange": lambda r: [r.randrange(17) for _ in range(5)],
    "choice": lambda r: [r.choice("abcdefgh") for _ in range(5)],
    "shuffle": lambda r: (x := list(range(30)), r.shuffle(x), x)[2],
    "sample": lambda r: r.sample(range(100), 7),
    "randint": lambda r: [r.randint(1, 6) for _ in range(5)],
    "gauss": lambda r: [r.gauss(0, 1) for _ in range(3)],
    "randbytes": lambda r: r.randbytes(9),
    "getstate": lambda r: r.getstate(),
    "pickled": lambda r: pickle.loads(pickle.dumps(r)).random(),
    "deepcopied": lambda r: copy.deepcopy(r).random(),
    "reseeded": lambda r: (r.seed(7), r.random())[1],
    "state set": lambda r: (r.setstate(random.Random(11).getstate()), r.random())[1],
}


@pytest.mark.parametrize("draw", sorted(DRAWS))
def test_stage_dice_are_the_seeded_random_s(draw: str) -> None:
    mine, theirs = stage_rng(3, 2, "hunter"), random.Random("sheetgm/3/2/hunter")
    assert DRAWS[draw](mine) == DRAWS[draw](theirs)
    assert [mine.random() for _ in range(3)] == [theirs.random() for _ in range(3)]  # and on from there
    assert type(mine) is random.Random


def test_each_stage_has_its_own_dice() -> None:
    firsts = {stage_rng(seed, night, stage).random() for seed in (1, 2) for night in (1, 2)
              for stage in ("survivor", "hunter")}
    assert len(firsts) == 8
