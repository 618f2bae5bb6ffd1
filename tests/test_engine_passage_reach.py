"""A passage asks for the tiles at most 7 steps away (``path_lengths(..., most)``, issue 14): the same tiles and
steps as the whole map's search, cut there."""

from __future__ import annotations

import pytest

from sheetgm.core.passages import MAX_PASSAGE_TILES, path_lengths
from sheetgm.notation.mapfile import ready_map


@pytest.mark.parametrize("map_name", ["standard", "teach"])
def test_the_near_search_is_the_whole_search_cut(map_name: str) -> None:
    board = ready_map(map_name)
    most = MAX_PASSAGE_TILES - 1
    cut = 0
    for start in board.tile_list[::3]:
        whole = path_lengths(board, start)
        near = path_lengths(board, start, most)
        assert near == {t: d for t, d in whole.items() if d <= most}, start
        cut += len(whole) > len(near)
    assert cut > 0  # the cut left tiles out somewhere
