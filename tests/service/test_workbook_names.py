"""Workbooks carry the player's alias: in their titles on every backend, and in local file names (issue 10)."""

from __future__ import annotations

import json
from pathlib import Path

from svc_helpers import Clock, make_game, roster, write_order

from sheetgm.backends.port import Gateway
from sheetgm.backends.xlsx.gateway import FILES, XlsxGateway
from sheetgm.service.game import DIRECTOR, PUBLIC, open_game, player_key
from sheetgm.service.resolve import resolve


def test_titles_carry_the_alias_and_the_game(gw: Gateway, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw, name="spring-cup")
    assert gw.view(player_key(2)).title == "spring-cup · S2"
    assert (gw.view(DIRECTOR).title, gw.view(PUBLIC).title) == ("spring-cup · director", "spring-cup · public")
    assert game.alias(2) == "S2"


def test_local_files_are_named_by_seat_and_alias_even_awkward_ones(tmp_path: Path) -> None:
    seats = roster()
    # a path separator, "..", a device name (CON, NUL...) never get this far: game.toml refuses them
    # (tests/service/test_config_rules.py); what Windows still cannot hold in a file name is replaced
    for seat, alias in zip(seats, ["a|b", "x*y?", "点.", "k<"], strict=True):
        seat["alias"] = alias
    game = make_game(tmp_path, None, name="春季*杯", roster=seats)  # the gateway the config names
    names = sorted(p.name for p in (tmp_path / "workbooks").glob("*.xlsx"))
    assert names == ["01-a_b.xlsx", "02-x_y_.xlsx", "03-点.xlsx", "04-k_.xlsx", "春季_杯-director.xlsx",
                     "春季_杯-public.xlsx"]
    assert json.loads((tmp_path / "workbooks" / FILES).read_text("utf-8"))["player-2"] == "02-x_y_.xlsx"
    write_order(game, 1, "搜索")
    again = open_game(tmp_path, clock=Clock())  # a new process finds the files through the record
    assert resolve(again).action in ("resolved", "resolved-early")
    assert sorted(p.name for p in (tmp_path / "workbooks").glob("*.xlsx")) == names


def test_a_game_folder_made_before_names_keeps_working(tmp_path: Path) -> None:
    game = make_game(tmp_path, XlsxGateway(tmp_path / "workbooks"))  # files named by key, as before
    write_order(game, 1, "搜索")
    before = sorted(p.name for p in (tmp_path / "workbooks").iterdir())
    assert "player-1.xlsx" in before and FILES not in before
    again = open_game(tmp_path, clock=Clock())
    assert resolve(again).action in ("resolved", "resolved-early")
    assert sorted(p.name for p in (tmp_path / "workbooks").iterdir()) == before
