"""Each player's route picture in their workbook (issue 28, RUL-61): every check that writes a player's .xlsx
places their private map with the route of the order it read over the Current tab; a published stage clears
it (the route was of the order now resolved); on Google, whose API places no private picture, the cell map and
its marks stay and nothing else is sent. Driven through the command line, as the director runs it."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from cli_games import cli_game
from PIL import Image
from svc_helpers import state_of, write_order

from sheetgm.core.board import EDGE_OPEN, Tile, tile_name
from sheetgm.core.preview import preview
from sheetgm.core.state import State
from sheetgm.notation.orders import parse_order
from sheetgm.render.route import route_png
from sheetgm.service.game import player_key
from sheetgm.sheets import layout


def _survivor_and_step(state: State) -> tuple[int, Tile]:
    """A survivor and a tile she can walk to (an open edge)."""
    board = state.board
    for seat, p in sorted(state.players.items()):
        if p.is_survivor:
            for t in board.neighbours(p.pos):
                if board.edge(p.pos, t) is EDGE_OPEN:
                    return seat, t
    raise AssertionError("no survivor can step anywhere")


def test_a_check_places_the_route_and_a_resolve_clears_it(tmp_path: Path) -> None:
    with cli_game("xlsx", tmp_path / "game") as cg:
        game = cg.open()
        state = state_of(game)
        seat, to = _survivor_and_step(state)
        write_order(game, seat, f"move {tile_name(to)}; search")
        assert cg.run("check").exit_code == 0
        placed = cg.gateway().pictures(player_key(seat))
        tab = layout.tab(game.seat_lang(seat), "current")
        assert list(placed) == [tab] and list(placed[tab]) == ["route"]
        png = placed[tab]["route"]
        seen = preview(state, seat, parse_order(f"move {tile_name(to)}; search"))
        want, width, height = route_png(state, seat, seen, game.seat_lang(seat))
        assert png == want  # the picture is her view with the route of the order the check read
        assert Image.open(io.BytesIO(png)).size == (width, height)
        assert png != route_png(state, seat, None, game.seat_lang(seat))[0]  # the route is on it
        others = [s for s in state.players if s != seat]
        assert all(not cg.gateway().pictures(player_key(s)) for s in others if state.players[s].is_hunter)

        write_order(game, seat, "search")  # she changes her order: the next check draws the new route
        assert cg.run("check").exit_code == 0
        png2 = cg.gateway().pictures(player_key(seat))[tab]["route"]
        assert png2 == route_png(state, seat, preview(state, seat, parse_order("search")), game.seat_lang(seat))[0]
        assert png2 != png

        assert cg.run("resolve", "--stage", "N1-survivor").exit_code == 0
        assert cg.gateway().pictures(player_key(seat)) == {}


@pytest.mark.parametrize("backend", ["google"])
def test_google_keeps_the_cell_map_and_sends_no_picture(tmp_path: Path, backend: str) -> None:
    with cli_game(backend, tmp_path / "game") as cg:
        game = cg.open()
        state = state_of(game)
        seat, to = _survivor_and_step(state)
        write_order(game, seat, f"move {tile_name(to)}; search")
        result = cg.run("check")
        assert result.exit_code == 0, result.output
        assert cg.gateway().pictures(player_key(seat)) == {}
        assert cg.fake is not None
        sent = [c.body for c in cg.fake.calls("batch_update")]
        assert sent and not any("image" in str(b).lower() for b in sent)
