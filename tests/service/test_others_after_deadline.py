"""After the deadline each order is reviewed with the others as they count (RUL-39 with RUL-38/RUL-50), through
the CLI on xlsx and the Google fake: S1's gift to S2 seen by the last check before the deadline still reaches
S2's review when S1 rewrites her order after it, in `check` and in `resolve`, and the night carries both out.
Read from the written text instead, S2's use of the map would be a problem (she holds none)."""

# covers: RUL-39, RUL-50

from __future__ import annotations

from typing import Any

from played_games import played, run  # noqa: F401 - played is a fixture
from svc_helpers import orders_row, state_of, write_order

from sheetgm.core.board import tile_name
from sheetgm.service.ledger.journal import read_director
from sheetgm.sheets import layout


def test_a_gift_seen_before_the_deadline_still_counts_for_the_other_after_a_late_change(
        played: Any) -> None:  # noqa: F811
    game = played()
    for stage in ("N1-survivor", "N1-hunter"):  # the director sets the scene once a stage is resolved
        run(game, "resolve", "--stage", stage)
    here = tile_name(state_of(game).players[1].pos)
    run(game, "override", "S1", "items", "map", "--reason", "scene")
    run(game, "override", "S2", "pos", here, "--reason", "scene")
    played.clock.advance(days=1)  # 2024-05-02 20:50: the last quarter hour before N2-survivor's deadline
    write_order(game, 1, "给予 S2 地图", night=2)
    write_order(game, 2, "地图", night=2)
    before = {p["alias"]: p for p in run(game, "check")["players"]}
    assert before["S2"]["state"] == "ok" and before["S2"]["problems"] == []

    played.clock.advance(minutes=17)  # 21:07, after the deadline
    write_order(game, 1, "无", night=2)  # S1 drops the gift: too late, the version seen counts (RUL-38)
    after = {p["alias"]: p for p in run(game, "check")["players"]}
    assert after["S1"]["state"] == "late"
    assert after["S2"]["state"] == "ok" and after["S2"]["problems"] == []
    assert "取决于 S1 白天给你的东西" in orders_row(game, 2, night=2)[layout.O_PROBLEMS]

    rep = run(game, "resolve")
    assert rep["action"] == "resolved", rep
    used = read_director(game)[0][-1].orders()
    assert used[1].text == "给予 S2 地图" and used[2].problems == ()
    st = state_of(game)
    assert st.players[1].items == [] and st.players[2].items == []  # given, then used
