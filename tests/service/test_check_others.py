"""`sheetgm check` and `resolve` read the stage's other orders for each player's review (issue 15 item 6,
RUL-39), through the command line on local workbooks and on Google (the fake).

Ann gives Bo her map in the day and Bo uses it at night: before, Bo's order was a problem (not_holding) and
lost its stamp; now it is complete and stamped, his sheet notes that it depends on Ann's gift, and the night
carries it out. The director names players as orders do (State.by_alias, case folded).
"""

# covers: R-ORDER-4, RUL-18, RUL-39, R-PHASE-1

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_games import cli_game
from svc_helpers import orders_row, roster, state_of, write_order

from sheetgm.core.board import tile_name
from sheetgm.sheets import layout


def _roster() -> list[dict[str, object]]:
    out = roster(3, 1, emails=True)
    out[0]["alias"], out[1]["alias"] = "Ann", "Straße"  # "STRASSE" names her only when case is folded
    return out


@pytest.mark.parametrize("backend", ["xlsx", "google"])
def test_a_gift_from_anothers_order_makes_the_use_complete(backend: str, tmp_path: Path) -> None:
    with cli_game(backend, tmp_path, roster=_roster(), schedule=None) as game:
        for stage in ("N1-survivor", "N1-hunter"):  # the director may set the scene once a stage is resolved
            assert game.run("resolve", "--stage", stage).exit_code == 0
        here = tile_name(state_of(game.open()).players[1].pos)
        for args in (("Ann", "items", "map"), ("STRASSE", "pos", here)):
            done = game.run("override", *args, "--reason", "setting the scene")
            assert done.exit_code == 0, done.output
        g = game.open()
        write_order(g, 1, "给予 Straße 地图", night=2)
        write_order(g, 2, "地图；破解", night=2)  # a crack where there is no generator: still a problem
        write_order(g, 3, "地图", night=2)  # nobody gives S3 a map: a problem

        checked = game.run("check", "--json")
        assert checked.exit_code == 0, checked.output
        by = {p["alias"]: p for p in json.loads(checked.stdout)["players"]}
        assert by["Ann"]["state"] == "ok" and by["Ann"]["stamp"]
        bo = by["Straße"]
        assert [n.startswith("第 1 步：取决于 Ann 白天给你的东西能否送到") for n in bo["notes"]] == [True]
        assert bo["state"] == "problems" and len(bo["problems"]) == 1 and "第 2 步" in bo["problems"][0]
        assert by["S3"]["state"] == "problems" and "你没有持有地图" in by["S3"]["problems"][0]

        write_order(g, 2, "地图", night=2)
        checked = json.loads(game.run("check", "--json").stdout)
        bo = next(p for p in checked["players"] if p["alias"] == "Straße")
        assert bo["state"] == "ok" and bo["problems"] == [] and bo["stamp"]  # complete: stamped (RUL-37)
        row = orders_row(game.open(), 2, night=2)
        assert bo["stamp"][:10] in row[layout.O_STAMP]  # shown in the player's local time
        assert "取决于 Ann 白天给你的东西" in row[layout.O_PROBLEMS]

        done = game.run("resolve", "--stage", "N2-survivor")
        assert done.exit_code == 0, done.output
        st = state_of(game.open())
        assert st.players[1].items == [] and st.players[2].items == []  # given, then used
