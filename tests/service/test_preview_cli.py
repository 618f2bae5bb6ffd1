"""`sheetgm check` writes each player's order preview (RUL-61): in the order row's column E and the Current tab, and
the path on the Current tab's map; `sheetgm resolve` quotes the step as written (RUL-63). Through the command line on
local workbooks and on Google (the fake), read back from the workbooks themselves.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_games import cli_game
from svc_helpers import cells, orders_row, roster, state_of, write_order

from sheetgm.core.board import Tile, tile_name
from sheetgm.core.check import Draft
from sheetgm.core.state import State
from sheetgm.core.steps import Move
from sheetgm.render.draw import sample
from sheetgm.service.game import player_key
from sheetgm.sheets import layout, mapcells
from sheetgm.sheets.player import PREVIEW_ROWS, preview_row


def two_moves(st: State, seat: int) -> list[Tile]:
    """Two legal moves in a row from where the player stands, onto tiles with no chest."""
    here = st.players[seat].pos
    with Draft.on(st, seat) as draft:
        out: list[Tile] = []
        for _ in range(2):
            step = next(s for s in draft.legal_steps() if isinstance(s, Move) and s.to not in out
                        and s.to != here and s.to not in st.board.chests)
            draft.add(step)
            out.append(step.to)
        return out


PLAN_RGB = (0x0D, 0x47, 0xA1)


def disc(png: bytes, tile: Tile, scale: int = 64) -> tuple[int, int, int]:
    """The colour inside a tile's step-number disc (left of its number), on a map drawn at ``scale``."""
    margin = scale // 2
    r = scale * 0.15
    cx, cy = margin + tile[0] * scale + scale - r - scale * 0.04, margin + tile[1] * scale + r + scale * 0.04
    return sample(png, [(round(cx - r * 0.75), round(cy))])[0]


def current(game_cells: list[list[str]]) -> list[str]:
    return [r[0] if r else "" for r in game_cells]


@pytest.mark.parametrize("backend", ["xlsx", "google"])
def test_check_writes_the_preview_and_resolve_quotes_the_step(backend: str, tmp_path: Path) -> None:
    with cli_game(backend, tmp_path, roster=roster(3, 1, emails=True), schedule=None) as game:
        g = game.open()
        st = state_of(g)
        a, b = two_moves(st, 1)
        text = f"移动 {tile_name(a)}，{tile_name(b)}；搜索；破解"
        write_order(g, 1, text)

        checked = game.run("check", "--json")
        assert checked.exit_code == 0, checked.output
        ann = json.loads(checked.stdout)["players"][0]
        # one numbering: the comma joins the path (RUL-60), so the crack is step 3 in the checker's words too
        assert any(p.startswith("第 3 步：") and "没有电动机" in p for p in ann["problems"]), ann["problems"]

        g = game.open()
        row = orders_row(g, 1)
        assert row[layout.O_TEXT] == text  # nothing of the order is touched
        e = row[layout.O_PROBLEMS].splitlines()
        assert "指令预览（只按你已知的情况推算；夜里可能不同）" in e
        assert any(x.startswith(f"第 1 步「移动 {tile_name(a)}，{tile_name(b)}」→ {tile_name(b)} · 移动力 1")
                   for x in e), e
        assert f"  ⚠ 很可能白费：{tile_name(b)} 没有宝物箱，在那里搜索只能找到别人可能留下或藏着的东西" in e

        tab = layout.tab("zh", "current")
        top = preview_row(st.board)
        block = current(cells(g, player_key(1), f"{tab}!A{top}:A{top + PREVIEW_ROWS - 1}"))
        assert block[0] == "指令预览（只按你已知的情况推算；夜里可能不同）"
        start = tile_name(st.players[1].pos)
        assert f"路线：{start} → {tile_name(a)} → {tile_name(b)}" in block
        assert any(x.startswith("  ✗ ") and "没有电动机" in x for x in block)
        grid = cells(g, player_key(1), f"{tab}!A1:{layout.col(st.board.width - 1)}{st.board.height}")
        for tile in (a, b):
            assert grid[tile[1]][tile[0]].endswith("→1"), mapcells.cell(tile)
        assert "★" in grid[st.players[1].pos[1]][st.players[1].pos[0]]

        # the player's map PNG with the path: the step-number discs on the tiles step 1 enters, none elsewhere
        png = tmp_path / "ann.png"
        drawn = game.run("map", "--view", "player", "S1", "--preview", "--scale", "64", "-o", str(png))
        assert drawn.exit_code == 0, drawn.output
        assert [disc(png.read_bytes(), t) for t in (a, b)] == [PLAN_RGB, PLAN_RGB]
        assert disc(png.read_bytes(), st.players[1].pos) != PLAN_RGB
        plain = tmp_path / "plain.png"
        assert game.run("map", "--view", "player", "S1", "--scale", "64", "-o", str(plain)).exit_code == 0
        assert disc(plain.read_bytes(), a) != PLAN_RGB
        refused = game.run("map", "--view", "public", "--preview")
        assert refused.exit_code == 1 and "--view player" in refused.output

        # a shorter order leaves nothing of the longer one's preview behind
        write_order(g, 1, "搜索")
        assert game.run("check").exit_code == 0
        g = game.open()
        block = current(cells(g, player_key(1), f"{tab}!A{top}:A{top + PREVIEW_ROWS - 1}"))
        assert not any("路线" in x or "第 2 步" in x for x in block) and block[2].startswith("第 1 步「搜索」")
        grid = cells(g, player_key(1), f"{tab}!A1:{layout.col(st.board.width - 1)}{st.board.height}")
        assert not any("→" in c for r in grid for c in r)

        write_order(g, 1, text)
        assert game.run("resolve", "--stage", "N1-survivor").exit_code == 0
        results = "\n".join(r[1] for r in cells(game.open(), player_key(1), f"{layout.tab('zh', 'results')}!A2:C")
                            if len(r) > 1)
        assert "第 3 步「破解」未能执行" in results, results
