"""`sheetgm verify` on memory, xlsx and the Google fake: the journal replays, hand edits are named by stage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from svc_helpers import make_game, write_order
from typer.testing import CliRunner

from sheetgm.backends.port import SetValues
from sheetgm.cli.app import app
from sheetgm.service import desk
from sheetgm.service.game import DIRECTOR, Game, open_game
from sheetgm.service.ledger.journal import pack, read_director, unpack
from sheetgm.service.resolve import resolve
from sheetgm.service.verify import verify
from sheetgm.sheets import layout
from sheetgm.sheets.stages import archive_row, journal_row


def play(game: Game, nights: int = 2) -> None:
    for night in range(1, nights + 1):
        for seat in (1, 2, 3):
            write_order(game, seat, "搜索", night=night)
        resolve(game)
        write_order(game, 4, "聆听", night=night)
        resolve(game)


def entry(game: Game, key: str):  # type: ignore[no-untyped-def]
    return next(e for e in read_director(game)[0] if e.key == key)


def set_cell(game: Game, tab: str, a1: str, value: str) -> None:
    """An edit made by hand in the director workbook, behind sheetgm's back."""
    game.gateway.write(DIRECTOR, [SetValues(layout.rng(layout.tab(game.lang, tab), a1), ((value,),))])


def codes(rep, key: str) -> set[str]:  # type: ignore[no-untyped-def]
    return {p.code for s in rep.stages if s.stage == key for p in s.problems}


def test_a_played_game_replays_stage_by_stage(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw)
    assert verify(game).ok  # the setup alone
    play(game)
    rep = verify(game)
    assert rep.ok and rep.first_difference is None and rep.skipped == []
    assert [s.stage for s in rep.stages] == ["N0-setup", "N1-survivor", "N1-hunter", "N2-survivor", "N2-hunter"]
    assert all(s.replay_hash == s.journal_hash for s in rep.stages)


def test_an_archived_order_edited_by_hand_names_the_stage_that_no_longer_replays(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw)
    play(game)
    set_cell(game, "archive", f"D{archive_row('N2-survivor', 1, len(game.seats))}", "移动 E3")
    rep = verify(game)
    assert not rep.ok
    assert rep.first_difference == "N2-survivor" and rep.differing == ["N2-survivor"]
    assert codes(rep, "N2-survivor") == {"replay", "archive"}
    bad = next(s for s in rep.stages if s.stage == "N2-survivor")
    assert bad.replay_hash != bad.journal_hash
    assert "移动 E3" in " ".join(p.message for p in bad.problems)


def test_orders_edited_in_the_journal_are_named(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw)
    play(game)
    e = entry(game, "N1-hunter")
    orders = unpack(e.orders_json)
    orders["4"]["text"] = "攻击"
    set_cell(game, "journal", f"I{journal_row('N1-hunter')}", pack(orders))
    rep = verify(game)
    assert rep.differing == ["N1-hunter"]
    assert codes(rep, "N1-hunter") == {"orders_hash", "archive"}


def test_a_state_edited_in_the_journal_is_named_and_the_next_stages_still_replay(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw)
    play(game)
    e = entry(game, "N1-hunter")
    data = unpack(e.state_json)
    data["players"][0]["hp"] = 1
    set_cell(game, "journal", f"G{journal_row('N1-hunter')}", pack(data))
    rep = verify(game)
    assert rep.differing == ["N1-hunter"] and codes(rep, "N1-hunter") == {"state_json"}
    set_cell(game, "journal", f"D{journal_row('N1-hunter')}", "0123456789abcdef")  # and its hash too
    rep = verify(game)
    assert rep.first_difference == "N1-hunter" and "replay" in codes(rep, "N1-hunter")


def test_desk_entries_are_replayed_too(tmp_path: Path) -> None:
    from sheetgm.backends.memory import MemoryGateway

    game = make_game(tmp_path, MemoryGateway())
    play(game, nights=1)
    rep = desk.override(game, "S1", "hp", "2", "误判了一次攻击")
    play_night_two(game)
    assert verify(game).ok
    e = entry(game, rep.key)
    actions = unpack(e.orders_json)
    actions[0]["value"] = "3"
    from sheetgm.service.ledger.journal import entry_row

    set_cell(game, "journal", f"I{entry_row(rep.key)}", pack(actions))
    check = verify(game)
    assert check.differing == [rep.key] and codes(check, rep.key) == {"orders_hash", "replay"}


def play_night_two(game: Game) -> None:
    for seat in (1, 2, 3):
        write_order(game, seat, "搜索", night=2)
    resolve(game)


def test_verify_command_exit_codes_and_json(tmp_path: Path) -> None:
    from sheetgm.backends.xlsx.gateway import XlsxGateway

    game = make_game(tmp_path, XlsxGateway(tmp_path / "workbooks"), backend="xlsx")
    play(game, nights=1)
    runner = CliRunner()
    ok = runner.invoke(app, ["verify", "--game", str(tmp_path)])
    assert ok.exit_code == 0, ok.output
    assert "OK    N1-hunter" in ok.output and "全部 3 条记录重放一致" in ok.output
    edited = open_game(tmp_path)
    set_cell(edited, "archive", f"D{archive_row('N1-survivor', 2, 4)}", "移动 F3")
    bad = runner.invoke(app, ["verify", "--game", str(tmp_path), "--json"])
    assert bad.exit_code == 1
    doc = json.loads(bad.output)
    assert doc["ok"] is False and doc["first_difference"] == "N1-survivor" and doc["differing"] == ["N1-survivor"]
    text = runner.invoke(app, ["verify", "--game", str(tmp_path)])
    assert text.exit_code == 1 and "不符  N1-survivor" in text.output and "首个不符的阶段：N1-survivor" in text.output


def test_rollback_command(tmp_path: Path) -> None:
    from sheetgm.backends.xlsx.gateway import XlsxGateway

    game = make_game(tmp_path, XlsxGateway(tmp_path / "workbooks"), backend="xlsx")
    play(game, nights=1)
    runner = CliRunner()
    missing = runner.invoke(app, ["rollback", "N1-hunter", "--game", str(tmp_path)])
    assert missing.exit_code != 0
    done = runner.invoke(app, ["rollback", "N1-hunter", "--reason", "typo", "--game", str(tmp_path), "--json"])
    assert done.exit_code == 0, done.output
    doc = json.loads(done.output)
    assert doc["superseded"] == ["N1-hunter"] and doc["restored"] == "N1-survivor" and doc["reopened"] == {"H1": [1]}
    again = runner.invoke(app, ["rollback", "N1-hunter", "--reason", "typo", "--game", str(tmp_path)])
    assert again.exit_code == 1 and "N1-hunter" in again.output
    for cmd in ("rollback", "verify"):
        assert runner.invoke(app, [cmd, "--help"]).exit_code == 0


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_verify_messages_in_the_directors_language(tmp_path: Path, lang: str) -> None:
    from sheetgm.backends.memory import MemoryGateway

    game = make_game(tmp_path, MemoryGateway(), lang=lang)
    play(game, nights=1)
    set_cell(game, "archive", f"D{archive_row('N1-survivor', 1, 4)}", "移动 E3")
    msgs = " ".join(p.message for s in verify(game).stages for p in s.problems)
    assert ("重放得到局面哈希" in msgs) == (lang == "zh") and ("replays to state hash" in msgs) == (lang == "en")
