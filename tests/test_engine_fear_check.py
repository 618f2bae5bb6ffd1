"""The fear check at the end of a survivor's action (R-STATUS-FEAR-SRC a) asks the hunters in a game of few,
the tiles within 2 in a game of many (``resolve._FEW_HUNTERS``, so that a big night stays linear): the two ways
must frighten the same survivors."""

from __future__ import annotations

import random

import pytest
from enginekit import GRID, game

from sheetgm.core import resolve
from sheetgm.core.board import tile_name
from sheetgm.core.context import Ctx


def _frightened(st_hunters: int, few: int, seed: int) -> list[tuple[str, int]]:
    rng = random.Random(f"fear/{seed}")
    tiles = [tile_name((x, y)) for x in range(6) for y in range(5)]
    st = game(GRID, survivors=[(f"S{i}", "lucky", rng.choice(tiles)) for i in range(4)],
              hunters=[(f"H{i}", "ripper", rng.choice(tiles), {"stealth": rng.random() < 0.3})
                       for i in range(st_hunters)])
    ctx = Ctx(st, random.Random(0), "survivor")
    old = resolve._FEW_HUNTERS
    resolve._FEW_HUNTERS = few
    try:
        for p in st.survivors():
            resolve.fear_check(ctx, p.seat)
    finally:
        resolve._FEW_HUNTERS = old
    return [(p.alias, p.fear) for p in st.survivors()]


@pytest.mark.parametrize("hunters", [1, 2, 5, 14])
def test_both_ways_frighten_the_same_survivors(hunters: int) -> None:
    frightened = 0
    for seed in range(20):
        by_hunters, by_tiles = _frightened(hunters, 10**6, seed), _frightened(hunters, 0, seed)
        assert by_hunters == by_tiles, seed
        frightened += sum(1 for _, fear in by_hunters if fear)
    assert 0 < frightened < 80  # some survivors were frightened, not all
