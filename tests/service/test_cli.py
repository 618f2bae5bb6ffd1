"""The commands through typer's CliRunner: exit codes, messages, --json, --help."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sheetgm.cli.app import app

runner = CliRunner()
DRAFT = """name = "cli"
seed = 3
lang = "en"
[options]
crack_target = 6
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


def run(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args))


@pytest.fixture
def game(tmp_path: Path) -> Path:
    (tmp_path / "game.toml").write_text(DRAFT, "utf-8")
    result = run("new", "--game", str(tmp_path), "--json")
    assert result.exit_code == 0, result.output
    assert set(json.loads(result.stdout)["workbooks"]) == {"director", "public", "player-1", "player-2", "player-3"}
    return tmp_path


def test_every_command_has_help() -> None:
    for name in ("new", "check", "resolve", "status", "audit", "demo", "case"):
        result = run(name, "--help")
        assert result.exit_code == 0, name
        assert "Usage" in result.output


def test_new_creates_the_workbooks(game: Path) -> None:
    # named by seat and alias, the director's and the public one by the game (issue 10)
    assert sorted(p.name for p in (game / "workbooks").glob("*.xlsx")) == [
        "01-Ann.xlsx", "02-Bo.xlsx", "03-Hu.xlsx", "cli-director.xlsx", "cli-public.xlsx"]
    again = run("new", "--game", str(game))
    assert again.exit_code == 1
    assert "already exists" in again.stderr


def test_check_resolve_status_audit(game: Path) -> None:
    result = run("check", "--game", str(game), "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["missing"] == ["Ann", "Bo"]
    unset = run("resolve", "--game", str(game), "--dry-run", "--json")  # no deadline: never by the schedule
    assert unset.exit_code == 0 and json.loads(unset.stdout)["action"] == "no-deadline"
    dry = run("resolve", "--game", str(game), "--dry-run", "--stage", "survivor", "--json")
    assert dry.exit_code == 0 and json.loads(dry.stdout)["action"] == "dry-run"
    done = run("resolve", "--game", str(game), "--stage", "N1-survivor")
    assert done.exit_code == 0
    assert "N1-survivor resolved and published." in done.stdout
    same = run("resolve", "--game", str(game), "--stage", "N1-survivor")
    assert same.exit_code == 0 and "nothing to do" in same.stdout
    late = run("resolve", "--game", str(game), "--stage", "N3-survivor")
    assert late.exit_code == 1
    assert late.stderr.strip() == "Stage N3-survivor cannot be resolved now: the stage due is N1-hunter"
    st = run("status", "--game", str(game), "--json")
    assert st.exit_code == 0 and json.loads(st.stdout)["due"] == "N1-hunter"
    audit = run("audit", "--game", str(game))
    assert audit.exit_code == 0 and "Audit passed" in audit.stdout
    heads = [line.split(":")[0] for line in audit.stdout.splitlines() if not line.startswith((" ", "ℹ"))]
    assert heads[:3] == ["Director's workbook", "Public workbook", "Seat 1 · Ann"]  # seats and aliases, not keys
    assert not any(h.startswith(("director", "public", "player-")) for h in heads)


def test_missing_game_is_a_one_line_error(tmp_path: Path) -> None:
    result = run("status", "--game", str(tmp_path / "nowhere"))
    assert result.exit_code == 1
    hint = "（用 --game 路径 指明游戏文件夹，或先运行 `sheetgm new`）"
    assert result.stderr.strip() == f"{tmp_path / 'nowhere'} 里没有 game.toml{hint}"
    english = runner.invoke(app, ["status", "--game", str(tmp_path / "nowhere")], env={"SHEETGM_LANG": "en"})
    assert english.exit_code == 1 and english.stderr.startswith("No game.toml in ")
    assert "Traceback" not in result.output + english.output


def test_bad_config_names_the_field(tmp_path: Path) -> None:
    (tmp_path / "game.toml").write_text(DRAFT.replace('camp = "hunter"', 'camp = "wolf"'), "utf-8")
    result = run("new", "--game", str(tmp_path))
    assert result.exit_code == 1
    assert "roster.3.camp (player 3, Hu: camp)" in result.stderr  # counted from 1, as a director counts
    assert result.stderr.startswith("The game config")


def test_a_config_that_is_not_a_table_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "game.json").write_text('["not", "a", "table"]', "utf-8")
    result = run("status", "--game", str(tmp_path))
    assert result.exit_code == 1
    assert "game.json" in result.stderr and "Traceback" not in result.output


def test_demo_plays_and_says_where_the_workbooks_are(tmp_path: Path) -> None:
    result = run("demo", "--players", "4", "--seed", "2", "--max-nights", "2", "--lang", "en",
                 "--dir", str(tmp_path / "d"))
    assert result.exit_code == 0, result.output
    assert "Demo over: 4 stages" in result.stdout
    assert str(tmp_path / "d" / "workbooks" / "01-S1.xlsx") in result.stdout
    again = run("demo", "--dir", str(tmp_path / "d"), "--lang", "en", "--players", "4")
    assert again.exit_code == 1 and "already exists" in again.stderr
    bad = run("demo", "--players", "1", "--lang", "en", "--dir", str(tmp_path / "e"))
    assert bad.exit_code == 1 and "at least 2 players" in bad.stderr


def test_status_shows_each_players_result_when_the_game_is_over(tmp_path: Path) -> None:
    """RUL-35: the result of each player is kept in the state and shown by `sheetgm status`."""
    played = run("demo", "--players", "4", "--seed", "2", "--max-nights", "30", "--lang", "en",
                 "--dir", str(tmp_path / "d"))
    assert played.exit_code == 0, played.output
    assert "Each player's result: " in played.stdout
    st = run("status", "--game", str(tmp_path / "d"), "--json")
    players = json.loads(st.stdout)["players"]
    assert {p["result"] for p in players} <= {"won", "lost", "draw"} and all(p["result"] for p in players)
    text = run("status", "--game", str(tmp_path / "d")).stdout
    lines = text.splitlines()
    assert lines[[i for i, ln in enumerate(lines) if ln.startswith("Seat")][0]].rstrip().endswith("Result")
    rows = {ln.split()[0]: ln.split() for ln in lines if ln.split() and ln.split()[0].isdigit()}
    assert {seat: row[-1] for seat, row in rows.items()} == {str(p["seat"]): p["result"] for p in players}
    assert all(rows[str(p["seat"])][1] == p["alias"] for p in players)


def test_a_roster_without_camps_gets_them_with_the_role_cards(tmp_path: Path) -> None:
    """R-SETUP-2, RUL-34: camps left out of the roster are dealt with the roles (options.hunters of them)."""
    draft = DRAFT.replace('camp = "survivor"\n', "").replace('camp = "hunter"\n', "")
    draft = draft.replace("crack_target = 6\n", "crack_target = 6\nhunters = 1\n")
    (tmp_path / "game.toml").write_text(draft, "utf-8")
    made = run("new", "--game", str(tmp_path), "--json")
    assert made.exit_code == 0, made.output
    players = json.loads(run("status", "--game", str(tmp_path), "--json").stdout)["players"]
    assert sorted(p["camp"] for p in players) == ["hunter", "survivor", "survivor"]
    (tmp_path / "again").mkdir()
    (tmp_path / "again" / "game.toml").write_text(draft.replace("hunters = 1", "hunters = 3"), "utf-8")
    refused = run("new", "--game", str(tmp_path / "again"))
    assert refused.exit_code == 1 and "roster" in refused.stderr


def test_a_missing_map_file_is_named_in_the_directors_language(tmp_path: Path) -> None:
    text = DRAFT.replace('lang = "en"\n[options]', 'lang = "zh"\nmap = "ours.map"\n[options]', 1)
    (tmp_path / "game.toml").write_text(text, "utf-8")
    result = run("new", "--game", str(tmp_path))
    assert result.exit_code == 1
    assert result.stderr.strip() == (f"游戏配置 {tmp_path / 'game.toml'} 有误：地图文件 {tmp_path / 'ours.map'} 不存在")
    assert not (tmp_path / "workbooks").exists()
