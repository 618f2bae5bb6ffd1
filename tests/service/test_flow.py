"""The use cases end to end on every gateway: new, check, resolve, status, demo."""

from __future__ import annotations

from pathlib import Path

import pytest
from svc_helpers import make_game, orders_row, snapshot, state_of, write_order

from sheetgm.service.check import check
from sheetgm.service.demo import demo
from sheetgm.service.errors import NotDueError
from sheetgm.service.game import DIRECTOR, PUBLIC, player_key
from sheetgm.service.ledger.journal import PUBLISHED, read_director
from sheetgm.service.resolve import resolve
from sheetgm.service.status import status
from sheetgm.sheets import layout


def test_new_game_lays_out_every_workbook(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw)
    assert (tmp_path / "game.toml").is_file()
    for key in game.keys():
        assert gw.exists(key)
    view = gw.view(player_key(1))
    orders = view.tab("指令")
    assert orders.frozen_rows == 1
    assert orders.values[1][0] == "N1-survivor"
    assert "G2" in orders.validations and orders.validations["G2"].choices
    assert orders.notes["B1"].startswith("在本阶段")
    current = view.tab("当前")
    assert any("★" in v for row in current.values for v in row)
    assert any(b.get("right") == "thick" or b.get("bottom") == "thick" for b in current.borders.values())
    assert current.backgrounds  # generators, chests, gates coloured
    assert any(p.range in ("结果", "'结果'") for p in gw.protections(player_key(1)))
    entries, lock = read_director(game)
    assert [e.key for e in entries] == ["N0-setup"] and entries[0].status == PUBLISHED
    assert not lock or not lock[0]


def test_english_player_gets_english_sheets(gw, tmp_path: Path) -> None:
    from svc_helpers import roster

    game = make_game(tmp_path, gw, roster=roster(langs={2: "en"}))
    assert gw.tabs(player_key(2)) == ["Orders", "Results", "Current", "Map history", "How to write orders"]
    assert gw.tabs(player_key(1)) == ["指令", "结果", "当前", "地图记录", "如何写指令"]
    assert game.gateway.view(player_key(2)).tab("Orders").values[0][1] == "Order"


def test_check_writes_problems_in_each_players_language(gw, tmp_path: Path, clock) -> None:
    from svc_helpers import roster

    game = make_game(tmp_path, gw, clock, roster=roster(langs={2: "en"}), schedule=None)  # no deadline yet
    write_order(game, 1, "飞 C4")
    write_order(game, 2, "fly C4")
    here = state_of(game).players[3].pos
    write_order(game, 3, "搜索")
    rep = check(game)
    by_alias = {p.alias: p for p in rep.players}
    assert by_alias["S1"].state == "problems" and by_alias["S2"].state == "problems"
    zh, en = orders_row(game, 1), orders_row(game, 2)
    assert "不认识" in zh[layout.O_PROBLEMS] and "问题" in zh[layout.O_STATUS]
    assert "fly" in en[layout.O_PROBLEMS] and "problem" in en[layout.O_STATUS]
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in en[layout.O_PROBLEMS])
    ok = orders_row(game, 3)
    assert by_alias["S3"].state == "ok", (here, ok)
    assert ok[layout.O_STAMP] == "2024-05-01 周三 20:00（Asia/Shanghai，UTC+8）"  # the record, shown
    assert rep.missing == ["S1", "S2"] and rep.with_problems == ["S1", "S2"]  # not submitted: problems


def test_check_stamps_only_the_first_complete_time(gw, tmp_path: Path, clock) -> None:
    game = make_game(tmp_path, gw, clock, schedule=None)
    write_order(game, 1, "搜索")
    check(game)
    first = orders_row(game, 1)[layout.O_STAMP]
    clock.advance(hours=1)
    check(game)
    assert orders_row(game, 1)[layout.O_STAMP] == first
    write_order(game, 2, "搜索", tick="")
    rep = check(game)
    assert {p.alias: p.state for p in rep.players}["S2"] == "unticked"
    assert rep.missing == ["S2", "S3"]  # unticked is not submitted: the public reminder names S2 too


def test_resolve_runs_survivors_then_hunters(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw)
    first = resolve(game)
    assert (first.stage, first.action) == ("N1-survivor", "resolved")
    second = resolve(game)
    assert (second.stage, second.action) == ("N1-hunter", "resolved")
    st = state_of(game)
    assert (st.night, st.stage) == (2, "survivor")
    results = gw.view(player_key(4)).tab("结果").values
    assert [r[0] for r in results[1:3]] == ["N1-survivor", "N1-hunter"]
    log = gw.view(PUBLIC).tab("日志").values
    assert log[1][0] == "N1-survivor" and "第1夜" in log[1][1]
    assert orders_row(game, 4)[0] == "N1-hunter"
    assert orders_row(game, 1, night=2)[0] == "N2-survivor"


def test_second_run_of_a_stage_changes_nothing(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw)
    write_order(game, 1, "搜索")
    resolve(game, stage="N1-survivor")
    before = snapshot(game)
    again = resolve(game, stage="N1-survivor")
    assert again.action == "nothing"
    assert snapshot(game) == before


def test_dry_run_writes_nothing(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw)
    write_order(game, 1, "搜索")
    before = snapshot(game)
    rep = resolve(game, dry_run=True)
    assert rep.action == "dry-run" and rep.stage == "N1-survivor"
    assert "S1" in rep.reports and rep.public_log
    assert snapshot(game) == before


def test_stage_not_due_and_deadline(gw, tmp_path: Path, clock) -> None:
    game = make_game(tmp_path, gw, clock, deadlines={"N1-survivor": "2024-05-01T21:00:00+08:00"})
    with pytest.raises(NotDueError) as err:
        resolve(game, stage="N1-hunter")
    assert "N1-survivor" in err.value.message("en")
    early = resolve(game)  # before the deadline, not everyone submitted: it waits, naming --stage
    assert early.action == "waiting" and "--stage N1-survivor" in early.notes[0]
    clock.advance(hours=1)  # 13:00 UTC = 21:00 +08:00
    assert resolve(game).action == "resolved"


def test_demo_plays_to_the_end(gw, tmp_path: Path) -> None:
    rep = demo(tmp_path / "demo", players=4, seed=2, max_nights=2, gateway=gw)
    assert rep.stages == 4
    entries, _ = read_director_of(tmp_path / "demo", gw)
    assert all(e.status == PUBLISHED for e in entries)
    assert rep.public_log.count("第1夜") >= 2


def read_director_of(folder: Path, gw):  # type: ignore[no-untyped-def]
    from sheetgm.service.game import open_game

    return read_director(open_game(folder, gw))


def test_full_demo_on_memory_ends_with_a_winner(tmp_path: Path) -> None:
    from sheetgm.backends.memory import MemoryGateway

    rep = demo(tmp_path / "demo", players=10, seed=1, max_nights=20, gateway=MemoryGateway())
    assert rep.winner in ("hunters", "survivors")
    assert rep.warnings == []


def test_status_reports_the_due_stage(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw)
    resolve(game)
    rep = status(game)
    assert rep.due == "N1-hunter" and not rep.pending_publish and rep.locked_by is None
    assert [k for k, _s, _t in rep.journal] == ["N0-setup", "N1-survivor"]
    assert set(rep.workbooks) == {DIRECTOR, PUBLIC, *(player_key(s) for s in game.seats)}
