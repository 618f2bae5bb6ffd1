"""The desk and schedule commands through typer's CliRunner: help, exit codes, --json, output files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sheetgm.cli.app import app
from sheetgm.service.game import open_game
from sheetgm.service.ledger.journal import latest, read_director

runner = CliRunner()
DRAFT = """name = "desk"
seed = 3
lang = "en"
timezone = "Asia/Shanghai"
[options]
crack_target = 6
[deadlines]
N1-survivor = "2024-05-01T21:00:00+08:00"
N1-hunter = "2024-05-01T23:30:00+08:00"
[[roster]]
alias = "Ann"
camp = "survivor"
[[roster]]
alias = "Bo"
camp = "survivor"
[[roster]]
alias = "Hu"
camp = "hunter"
"""


def run(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args))


@pytest.fixture
def game(tmp_path: Path) -> Path:
    (tmp_path / "game.toml").write_text(DRAFT, "utf-8")
    assert run("new", "--game", str(tmp_path)).exit_code == 0
    done = run("resolve", "--game", str(tmp_path), "--stage", "N1-survivor", "--json")
    assert done.exit_code == 0, done.output
    return tmp_path


def test_every_desk_command_has_help() -> None:
    for args in (["override"], ["card"], ["card", "give"], ["card", "list"], ["card", "lurking"], ["publish"],
                 ["schedule"]):
        result = run(*args, "--help")
        assert result.exit_code == 0, args
        assert "Usage" in result.output


def test_schedule_prints_cron_lines_from_the_game_or_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "game.toml").write_text(DRAFT, "utf-8")
    out = run("schedule", "--game", str(tmp_path))
    assert out.exit_code == 0, out.output
    assert "schedule:" in out.stdout  # the timezone key form by default; the game's deadlines are one-offs
    assert "- cron: '7 21 1 5 *'\n      timezone: Asia/Shanghai" in out.stdout  # once, on 2024-05-01
    assert "- cron: '37 23 1 5 *'\n      timezone: Asia/Shanghai" in out.stdout
    utc = run("schedule", "--game", str(tmp_path), "--utc", "--offset", "11")
    assert utc.exit_code == 0 and "11 13 1 5 *" in utc.stdout and "timezone:" not in utc.stdout
    direct = run("schedule", "--deadline", "survivor=20:00", "--tz", "UTC", "--offset", "5")
    assert direct.exit_code == 0 and "5 20 * * *" in direct.stdout


def test_schedule_errors_go_to_stderr(tmp_path: Path) -> None:
    bad = run("schedule", "--deadline", "survivor", "--tz", "UTC")
    assert bad.exit_code == 1 and ("CAMP=HH:MM" in bad.stderr or "阵营=时:分" in bad.stderr)
    zone = run("schedule", "--deadline", "survivor=20:00")
    assert zone.exit_code == 1 and zone.stderr.strip()
    late = run("schedule", "--deadline", "survivor=25:00", "--tz", "UTC")
    assert late.exit_code == 1 and "25:00" in late.stderr


def test_override_card_and_list(game: Path) -> None:
    over = run("override", "Ann", "hp", "3", "--reason", "misread order", "--game", str(game), "--json")
    assert over.exit_code == 0, over.output
    data = json.loads(over.stdout)
    assert data["key"] == "N1-survivor+override-1" and "misread order" in data["public_log"]
    assert latest(read_director(open_game(game))[0]).state(open_game(game).board).players[1].hp == 3
    card = run("card", "give", "Bo", "yellow", "--reason", "insult", "--game", str(game))
    assert card.exit_code == 0 and "N1-survivor+card-2" in card.stdout
    listed = run("card", "list", "--game", str(game), "--json")
    assert json.loads(listed.stdout)[0]["alias"] == "Bo"
    text = run("card", "list", "--game", str(game))
    assert "Bo" in text.stdout and "yellow card" in text.stdout and "insult" in text.stdout
    wrong = run("card", "give", "Zed", "blue", "--reason", "x", "--game", str(game))
    assert wrong.exit_code == 1 and "Zed" in wrong.stderr and "Ann" in wrong.stderr
    colour = run("card", "give", "Bo", "green", "--reason", "x", "--game", str(game))
    assert colour.exit_code == 1 and "green" in colour.stderr
    noreason = run("override", "Ann", "hp", "3", "--game", str(game))
    assert noreason.exit_code != 0


def test_lurking_proposes_then_applies(game: Path) -> None:
    prop = run("card", "lurking", "--day", "1", "--posts", "Ann=7", "--posts", "Bo=2", "--posts", "Hu=5",
               "--no-vote", "Hu", "--game", str(game))
    assert prop.exit_code == 0, prop.output
    assert "Bo" in prop.stdout and "2 posts" in prop.stdout and "Hu" in prop.stdout and "--apply" in prop.stdout
    bad = run("card", "lurking", "--day", "1", "--posts", "Ann:7", "--game", str(game))
    assert bad.exit_code == 1 and "Ann:7" in bad.stderr
    done = run("card", "lurking", "--day", "1", "--posts", "Ann=7", "--posts", "Bo=2", "--posts", "Hu=5",
               "--no-vote", "Hu", "--apply", "--game", str(game), "--json")
    data = json.loads(done.stdout)
    assert [p["alias"] for p in data["proposals"]] == ["Bo", "Hu"] and data["applied"]["kind"] == "card"


def test_publish_prints_or_writes_the_announcement(game: Path, tmp_path: Path) -> None:
    shown = run("publish", "--game", str(game))
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.startswith("[size=5][color=#FF0000][b]desk · Night 1, survivor stage")
    assert "Orders due by Wed 2024-05-01 23:30 (Asia/Shanghai, UTC+8)" in shown.stdout
    # the players read Chinese: their post follows the director's, after a line that is not part of either
    english, chinese = shown.stdout.split("\n✂", 1)
    assert "第1夜 求生者阶段 公告" in chinese and "公告" not in english and "2024-05-01 周三 23:30" in chinese
    together = run("publish", "--together", "--game", str(game))
    assert "✂" not in together.stdout and together.stdout.count("[size=5]") == 2
    target = tmp_path / "post.txt"
    written = run("publish", "N1-survivor", "--format", "plain", "--lang", "zh", "--out", str(target),
                  "--game", str(game))
    assert written.exit_code == 0 and written.stdout == ""
    assert target.read_text("utf-8").startswith("【desk · 第1夜 求生者阶段 公告】")
    missing = run("publish", "N3-hunter", "--game", str(game))
    assert missing.exit_code == 1 and "N1-survivor" in missing.stderr
    lang = run("publish", "--lang", "fr", "--game", str(game))
    assert lang.exit_code == 1 and "fr" in lang.stderr
