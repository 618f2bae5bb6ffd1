"""The director's desk on every gateway: overrides, cards, lurking, the stage announcement."""

from __future__ import annotations

from pathlib import Path

import pytest
from svc_helpers import FlakyGateway, cells, make_game, snapshot, state_of, write_order

from sheetgm.backends.memory import MemoryGateway
from sheetgm.core.observe import event_line
from sheetgm.service import desk
from sheetgm.service.demo import demo
from sheetgm.service.errors import ServiceError
from sheetgm.service.game import DIRECTOR, PUBLIC, open_game, player_key
from sheetgm.service.ledger.journal import (
    DESK_FIRST_ROW,
    PUBLISHED,
    RESOLVED,
    entry_hash,
    latest,
    read_director,
    unpack,
)
from sheetgm.service.resolve import resolve
from sheetgm.sheets import layout
from sheetgm.sheets.player import info_range


def night_one(game, survivors: tuple[int, ...] = (1, 2, 3)) -> None:  # type: ignore[no-untyped-def]
    for s in survivors:
        write_order(game, s, "搜索")
    assert resolve(game).action == "resolved"


def entries_of(game):  # type: ignore[no-untyped-def]
    return read_director(game)[0]


def test_override_is_journaled_replayable_public_and_on_the_players_sheet(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw)
    night_one(game)
    before = state_of(game)
    rep = desk.override(game, "s1", "生命值", "2", "误判了一次攻击")
    assert rep.key == "N1-survivor+override-1" and rep.kind == "override"
    entries = entries_of(game)
    entry = entries[-1]
    assert entry.key == rep.key and entry.status == PUBLISHED and entry.kind == "override"
    after = entry.state(game.board)
    assert after.players[1].hp == 2 and before.players[1].hp != 2
    assert entry.state_hash == entry_hash(after, entry.events())  # the state and the events, hashed together
    assert entry_hash(*desk.replay(before, entry)) == entry.state_hash  # what verify re-applies
    assert desk.actions_of(entry) == [{"do": "override", "target": 1, "field": "hp", "value": "2",
                                       "reason": "误判了一次攻击"}]
    lang = game.lang
    row = cells(game, DIRECTOR, layout.rng(layout.tab(lang, "journal"), f"A{DESK_FIRST_ROW}"))
    assert row == [[rep.key]]
    overrides = cells(game, DIRECTOR, layout.rng(layout.tab(lang, "overrides"), "A2:E2"))[0]
    assert overrides[1] == "N1-survivor" and overrides[2] == "1 S1" and overrides[4] == "误判了一次攻击"
    assert "2" in overrides[3]
    log = cells(game, PUBLIC, layout.rng(layout.tab(lang, "log"), "A2:B2"))[0]
    assert log[0] == "N1-survivor" and "导演裁定" in log[1] and "误判了一次攻击" in log[1]
    assert log[1].index("求生者阶段开始") < log[1].index("导演裁定")  # the stage's own lines stay first
    current = cells(game, player_key(1), layout.rng(layout.tab("zh", "current"), info_range(game.board)))
    assert ["生命值", "2/5"] in [r[:2] for r in current] or any(r[1] == "2/5" for r in current)
    assert not cells(game, DIRECTOR, layout.rng(layout.tab(lang, "lock"), "A2:A2")) or \
        not cells(game, DIRECTOR, layout.rng(layout.tab(lang, "lock"), "A2:A2"))[0][0]


def test_the_next_stage_resolves_from_the_overridden_state(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw)
    night_one(game)
    desk.override(game, "game", "progress", "3", "补记一台发电机")
    assert state_of(game).progress == 3
    write_order(game, 4, "停留", night=1)
    rep = resolve(game)
    assert rep.action == "resolved" and rep.stage == "N1-hunter"
    keys = [e.key for e in entries_of(game)]
    assert keys == ["N0-setup", "N1-survivor", "N1-survivor+override-1", "N1-hunter"]
    assert latest(entries_of(game)).key == "N1-hunter"
    assert state_of(game).progress >= 3


def test_bad_targets_fields_and_timing_are_refused(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw)
    with pytest.raises(ServiceError) as err:
        desk.override(game, "S1", "hp", "2", "x")
    assert err.value.code == "err.desk.before_first_stage"
    night_one(game)
    with pytest.raises(ServiceError) as err:
        desk.give(game, "Nobody", "blue", "x")
    assert err.value.code == "err.desk.unknown_alias" and "S1" in err.value.message("en")
    with pytest.raises(Exception) as bad:
        desk.override(game, "S1", "wings", "2", "x")
    assert "wings" in str(bad.value)
    with pytest.raises(Exception) as empty:
        desk.give(game, "S1", "blue", "   ")
    assert getattr(empty.value, "code", "") == "err.state.no_reason"
    assert [e.key for e in entries_of(game)] == ["N0-setup", "N1-survivor"]  # nothing journaled


def test_a_resolved_but_unpublished_stage_blocks_the_desk(tmp_path: Path) -> None:
    flaky = FlakyGateway(MemoryGateway())
    game = make_game(tmp_path, flaky)
    write_order(game, 1, "搜索")
    flaky.arm(3)  # lock (1) and journal row (2) are written, the first player's write dies
    with pytest.raises(RuntimeError):
        resolve(game)
    assert latest(entries_of(game)).status == RESOLVED
    with pytest.raises(ServiceError) as err:
        desk.give(game, "S1", "blue", "x")
    assert err.value.code == "err.desk.unpublished"


def test_cards_merge_send_off_and_show_in_both_workbooks(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw)
    night_one(game)
    for i in range(3):
        desk.give(game, "S2", "蓝", f"不熟悉规则 {i}")
    state = state_of(game)
    live = [c.colour for c in state.cards if c.seat == 2 and not c.merged]
    assert live == ["yellow"]
    lang = game.lang
    public = cells(game, PUBLIC, layout.rng(layout.tab(lang, "cards"), "A2:D10"))
    assert [r[2] for r in public] == ["蓝牌", "蓝牌", "蓝牌", "黄牌"] and public[0][1] == "S2"
    assert cells(game, DIRECTOR, layout.rng(layout.tab(lang, "cards"), "A2:D10")) == public
    rep = desk.give(game, "S3", "red", "贴证")
    assert "红牌" in rep.public_log
    state = state_of(game)
    assert state.players[3].status == "red_carded" and state.winner is None
    current = cells(game, player_key(3), layout.rng(layout.tab("zh", "current"), info_range(game.board)))
    assert any(r[1] == "红牌罚下" for r in current if len(r) > 1)
    roster = cells(game, DIRECTOR, layout.rng(layout.tab(lang, "roster"), "A2:G10"))
    assert roster[2][1] == "S3" and roster[2][6] == "红牌罚下"
    listed = desk.cards(game)
    assert [(c["alias"], c["colour"], c["merged"]) for c in listed][-2:] == [("S2", "yellow", False),
                                                                             ("S3", "red", False)]
    assert "已合并" in desk.describe_cards("zh", listed)


def test_a_declared_loss_ends_the_game(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw)
    night_one(game)
    rep = desk.give(game, "H1", "red", "恶意破坏", declare_loss=True)
    assert rep.winner == "survivors"
    state = state_of(game)
    assert state.over() and state.end_reason == "red_cards"
    assert resolve(game).action == "nothing"
    text = desk.announcement(game, fmt="plain")
    assert "游戏结束" in text and "求生者阵营" in text


def test_lurking_is_recorded_proposed_and_applied(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw)
    night_one(game)
    rep = desk.lurking(game, 1, {"S1": 7, "S2": 3, "S3": 9, "H1": 5}, ["S3"])
    assert [a for a, _r in rep.proposals] == ["S2", "S3"]
    assert "3" in rep.proposals[0][1] and "未投票" in rep.proposals[1][1]
    assert rep.applied is None and not state_of(game).cards
    lang = game.lang
    record = cells(game, DIRECTOR, layout.rng(layout.tab(lang, "cards"), "F1:J5"))
    assert record[0][0] == "讨论日"
    assert record[1][:4] == ["1", "S1", "7", "是"] and record[3][:4] == ["1", "S3", "9", "否"]
    assert "不足五帖" in record[2][4]
    quiet = desk.lurking(game, 2, {}, [], accelerated=True, apply=True)
    assert quiet.proposals == [] and quiet.applied is None
    assert "加速" in cells(game, DIRECTOR, layout.rng(layout.tab(lang, "cards"), "J6"))[0][0]
    given = desk.lurking(game, 1, {"S1": 7, "S2": 3, "S3": 9, "H1": 5}, ["S3"], apply=True)
    assert given.applied is not None and given.applied.kind == "card"
    cards = state_of(game).cards
    assert [(c.seat, c.colour, c.source) for c in cards] == [(2, "yellow", "lurking"), (3, "yellow", "lurking")]
    assert len([e for e in entries_of(game) if e.kind == "card"]) == 1  # one command, one journal row


def test_a_desk_run_killed_at_any_write_then_rerun_equals_a_clean_run(tmp_path: Path) -> None:
    clean_gw = MemoryGateway()
    clean = make_game(tmp_path / "clean", clean_gw)
    night_one(clean)
    desk.give(clean, "S1", "yellow", "贴脸")
    want = snapshot(clean)
    for k in (1, 2, 3):
        flaky = FlakyGateway(MemoryGateway())
        game = make_game(tmp_path / f"k{k}", flaky)
        night_one(game)
        flaky.arm(k)
        with pytest.raises(RuntimeError):
            desk.give(game, "S1", "yellow", "贴脸")
        assert [e.key for e in entries_of(game)] == ["N0-setup", "N1-survivor"]  # the journal row comes last
        desk.give(game, "S1", "yellow", "贴脸")
        assert snapshot(game) == want, k


def test_the_announcement_never_tells_private_events(tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    demo(folder, 10, 5, "zh", 3)
    game = open_game(folder)
    entries = [e for e in entries_of(game) if e.kind == "stage" and e.key != "N0-setup"]
    assert len(entries) >= 4
    secret_seen = 0
    for entry in entries:
        events = entry.events()
        public = {event_line(e, "zh") for e in events if e.public}
        private = {event_line(e, "zh") for e in events if not e.public} - public
        for fmt in ("bbcode", "plain"):
            text = desk.announcement(game, entry.key, fmt)
            plain = text.replace("［", "[").replace("］", "]")
            for line in public:
                assert line in plain or fmt == "bbcode", (entry.key, line)
            for line in private:
                assert line not in plain, (entry.key, line)
        secret_seen += len(private)
        state = entry.state(game.board)
        text = desk.announcement(game, entry.key, "plain")
        for p in state.players.values():  # no position of anyone is ever told
            assert f"{p.alias} 在" not in text
    assert secret_seen > 10  # the game had private events to leak


def test_publish_picks_a_stage_includes_the_rulings_and_names_unknown_stages(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw)
    night_one(game)
    desk.give(game, "S1", "blue", "格式错误")
    text = desk.announcement(game)
    assert text.startswith("[size=5][color=#FF0000][b]")
    assert "N1" not in text.splitlines()[0] and "第1夜" in text.splitlines()[0]
    assert "[quote]" in text and "格式错误" in text
    assert "下一阶段：第1夜 杀手阶段" in text
    same = desk.announcement(game, "N1-survivor")
    assert same == text
    en = desk.announcement(game, fmt="plain", lang="en")
    assert "Night 1, survivor stage" in en and "[" not in en
    with pytest.raises(ServiceError) as err:
        desk.announcement(game, "N4-hunter")
    assert err.value.code == "err.desk.no_stage" and "N1-survivor" in err.value.message("en")
    with pytest.raises(ServiceError):
        desk.announcement(game, fmt="html")


def test_deadline_of_the_next_stage_is_announced(tmp_path: Path) -> None:
    game = make_game(tmp_path, MemoryGateway(), deadlines={"N1-hunter": "2024-05-01T23:00:00+08:00"},
                     timezone="Asia/Shanghai")
    night_one(game)
    text = desk.announcement(game, fmt="plain")
    assert "下一阶段：第1夜 杀手阶段，请在 2024-05-01 周三 23:00（Asia/Shanghai，UTC+8） 前提交指令" in text, text
    assert unpack(entries_of(game)[1].orders_json)  # the stage row kept its archive
