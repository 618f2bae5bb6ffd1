"""The map in cells: tile B3 in the sheet's cell B3, walls, obstacles and boards told apart, dark tiles stay
dark under a generator or a chest, and a legend in the player's language beside it (issue 10, item 4)."""

from __future__ import annotations

from pathlib import Path

from svc_helpers import cells, make_game, write_order
from typer.testing import CliRunner

from sheetgm.backends.xlsx.gateway import XlsxGateway
from sheetgm.cli.app import app
from sheetgm.core.board import tile_name
from sheetgm.core.texts import render
from sheetgm.service.game import PUBLIC, open_game, player_key
from sheetgm.service.ledger.journal import latest, read_director
from sheetgm.service.resolve import resolve
from sheetgm.sheets import layout, mapcells

DRAFT = """name = "m"
seed = 5
[[roster]]
alias = "Ann"
camp = "survivor"
[[roster]]
alias = "Bo"
camp = "survivor"
lang = "en"
[[roster]]
alias = "Hu"
camp = "hunter"
"""


def _made(tmp_path: Path) -> Path:
    (tmp_path / "game.toml").write_text(DRAFT, "utf-8")
    result = CliRunner().invoke(app, ["new", "--game", str(tmp_path)])
    assert result.exit_code == 0, result.output
    return tmp_path


def _grid(view, top: int, w: int, h: int) -> list[list[str]]:  # type: ignore[no-untyped-def]
    vals = view.values
    return [[(vals[r][c] if r < len(vals) and c < len(vals[r]) else "") for c in range(w + 1)]
            for r in range(top - 1, top + h)]


def test_every_named_tile_is_in_the_cell_of_its_name(tmp_path: Path) -> None:
    folder = _made(tmp_path)
    game = open_game(folder)
    board = game.board
    gw = XlsxGateway(folder / "workbooks")
    for key, lang, tab in ((PUBLIC, "zh", "map"), (player_key(1), "zh", "current"), (player_key(2), "en", "current")):
        view = gw.view(key).tab(layout.tab(lang, tab))
        rows = _grid(view, 1, board.width, board.height)
        for t in board.tiles():
            assert mapcells.cell(t) == tile_name(t), t  # the cell's own A1 name is the tile's name
            text = rows[t[1]][t[0]]
            if t in board.generators:
                assert render(lang, "sheet.map.generator") in text, (key, tile_name(t), text)
            if t in board.chests:
                assert render(lang, "sheet.map.chest") in text, (key, tile_name(t), text)
            if t in board.gates:
                assert render(lang, "sheet.map.gate") in text, (key, tile_name(t), text)
        # the labels beside the map repeat the sheet's own: numbers right of it, letters below it
        assert [rows[r][board.width] for r in range(board.height)] == [str(r + 1) for r in range(board.height)]
        assert rows[board.height][: board.width] == [tile_name((c, 0))[:-1] for c in range(board.width)]
    me = latest(read_director(game)[0]).state(board).players[1].pos
    current = gw.view(player_key(1)).tab("当前")
    assert "★" in _grid(current, 1, board.width, board.height)[me[1]][me[0]]


def test_walls_obstacles_and_boards_are_drawn_differently_and_dark_stays_dark(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw, map="standard",
                     roster=[{"alias": "S1", "camp": "survivor"}, {"alias": "H1", "camp": "hunter",
                                                                       "role": "ember"}])
    board = game.board
    write_order(game, 1, "无")
    resolve(game)
    state = latest(read_director(game)[0]).state(board)
    here = state.players[2].pos
    other = next(t for t in board.neighbours(here)
                 if board.edge(here, t).value == "open" and not board.touches_flat(here, t))
    write_order(game, 2, f"封堵 {tile_name(other)}")
    assert resolve(game).action == "resolved"
    view = gw.view(PUBLIC).tab("地图")
    styles = {}
    for kind, edges in (("wall", board.walls), ("obstacle", board.obstacles)):
        a, b = sorted(edges)[0]
        side = "right" if a[1] == b[1] else "bottom"
        styles[kind] = view.borders[mapcells.cell(a)][side]
    after = latest(read_director(game)[0]).state(board)
    assert after.boards, "the hunter's board is up"
    a, b = sorted(after.boards)[0]
    styles["board"] = view.borders[mapcells.cell(a)]["right" if a[1] == b[1] else "bottom"]
    assert styles == {"wall": "thick", "obstacle": "dashed", "board": "double"}
    dark_features = [t for t in board.dark if t in board.generators | board.chests | board.gates]
    for t in dark_features:
        assert view.backgrounds[mapcells.cell(t)] == mapcells.COLOURS["dark"], tile_name(t)
    assert all(view.backgrounds[mapcells.cell(t)] == mapcells.COLOURS["generator"]
               for t in board.generators - board.dark)


def test_the_legend_uses_the_seeds_terms_in_the_players_language(tmp_path: Path) -> None:
    folder = _made(tmp_path)
    gw = XlsxGateway(folder / "workbooks")
    board = open_game(folder).board
    texts = {key: " ".join(v for row in gw.view(key).tab(tab).values for v in row)
             for key, tab in ((PUBLIC, "地图"), (player_key(1), "当前"), (player_key(2), "Current"),
                              (player_key(3), "当前"))}
    for term in ("挡板", "平坦地形", "障碍物", "昏暗地形", "高墙", "秘密通道", "电动机", "宝物箱", "大门"):
        assert term in texts[PUBLIC] and term in texts[player_key(1)], term
    assert "Obstacle" in texts[player_key(2)] and "障碍物" not in texts[player_key(2)]
    assert render("zh", "sheet.legend.noise") in texts[player_key(3)]  # the hunter's noise markers
    assert render("zh", "sheet.legend.noise") not in texts[player_key(1)]
    swatch = layout.col(mapcells.side_col(board))
    end = layout.col(mapcells.side_col(board) + 1)
    legend = cells(open_game(folder), PUBLIC, layout.rng("地图", f"{swatch}1:{end}12"))
    assert legend[0][0] == "图例" and legend[1] == ["机", render("zh", "sheet.legend.generator")]


def test_a_drawn_maps_cells_are_each_tiles_text_and_marks_whatever_is_shared_between_draws() -> None:
    """``draw`` reuses the rows without marks between draws (``_plain_rows``): each cell is still the tile's own
    text and its marks, row numbers right of the map, letters below it."""
    import random

    from sheetgm.backends.port import SetValues
    from sheetgm.core.board import col_name
    from sheetgm.notation.mapfile import ready_map

    board = ready_map("large4x")
    rng = random.Random(3)
    tiles = sorted(board.tiles())
    passages = rng.sample(tiles, 4)
    for _ in range(3):
        marks = {t: rng.choice(["你", "陷阱", "→2", "噪音陷阱"]) for t in rng.sample(tiles, 6)}
        marks[(board.width + 3, 1)] = "off the map"
        op = mapcells.draw("当前", board, 1, "zh", marks, passages=passages, formats=False)[0]
        assert isinstance(op, SetValues)
        want = [tuple(f"{mapcells.tile_text(board, (c, r), 'zh', passages)} {marks.get((c, r), '')}".strip()
                      for c in range(board.width)) + (str(r + 1),) for r in range(board.height)]
        want.append(tuple(col_name(c) for c in range(board.width)) + ("",))
        assert [tuple(row) for row in op.rows] == want
