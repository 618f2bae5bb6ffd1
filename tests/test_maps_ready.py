"""The maps shipped in sheet_templates/maps/: they load, validate and keep their promises."""

from __future__ import annotations

import pytest

from sheetgm.core.board import Board, Edge, distance
from sheetgm.core.steps import ITEMS
from sheetgm.notation.mapfile import dump_map, load_map, ready_map, ready_map_names


def _meta(board: Board) -> dict[str, str]:
    return dict(board.meta)


def test_ready_map_names() -> None:
    assert {"standard", "teach", "large4x"} <= set(ready_map_names())


@pytest.mark.parametrize("name", ["standard", "teach", "large4x"])
def test_ready_map_is_valid_and_round_trips(name: str) -> None:
    # covers: R-MAP-8, R-SETUP-3
    board = ready_map(name)
    assert board.name == name
    assert load_map(dump_map(board)) == board
    for h in board.hunter_starts:
        assert all(distance(h, s) > 3 for s in board.survivor_starts)
    meta = _meta(board)
    assert len(board.survivor_starts) >= int(meta["survivors"])
    assert len(board.hunter_starts) >= int(meta["hunters"])


def test_standard_map_promises() -> None:
    # covers: R-SETUP-1, R-SETUP-4, R-MAP-4, R-MAP-5, R-MAP-7
    b = ready_map("standard")
    assert (b.width, b.height) == (10, 10)
    assert 5 <= len(b.generators) <= 7
    assert 8 <= len(b.chests) <= 10
    assert set(b.item_pool) == set(ITEMS)
    assert len(b.item_pool) >= len(b.chests)
    assert len(b.gates) == 2
    g1, g2 = sorted(b.gates)
    assert distance(g1, g2) >= 10
    assert b.dark and len(set(b.flat_region.values())) >= 1
    assert b.obstacles and b.walls
    assert len(b.passages) == 1
    assert len(b.survivor_starts) >= 8 and len(b.hunter_starts) >= 2
    assert _meta(b)["players"] == "10"
    for tile, _item in b.chest_items:
        assert tile in b.chests


def test_standard_map_full_ten_player_options() -> None:
    # The game's own options win over the header: the standard map must hold 8 survivors and 2 hunters.
    assert ready_map("standard", options={"survivors": 8, "hunters": 2}).width == 10


def test_teach_map_promises() -> None:
    b = ready_map("teach")
    assert (b.width, b.height) == (6, 6)
    assert 2 <= len(b.generators) <= 3
    assert 1 <= len(b.chests) <= 4
    assert len(b.gates) == 1
    assert _meta(b)["players"] == "4"
    # start zones are big enough for a full 10-player game too
    assert ready_map("teach", options={"survivors": 8, "hunters": 2}).name == "teach"


def test_large_map_promises() -> None:
    b = ready_map("large4x")
    assert (b.width, b.height) == (20, 20)
    assert len(b.survivor_starts) >= 32 and len(b.hunter_starts) >= 8
    assert len(b.generators) >= 12
    assert len(b.gates) >= 2


@pytest.mark.parametrize("name", ["standard", "teach", "large4x"])
def test_border_is_wall_and_no_edge_is_both(name: str) -> None:
    # covers: R-MAP-2
    b = ready_map(name)
    assert not (b.obstacles & b.walls)
    assert b.edge((0, 0), (-1, 0)) is Edge.WALL
