"""Issue 16 through the command line, on local files and on the Google fake: public news in every reader's
language, the director's table, words that fit a local game, rollback's next command, maps under maps/."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_games import CliGame, cli_game
from svc_helpers import orders_row, roster, write_order

from sheetgm.core.texts import render
from sheetgm.service.game import DIRECTOR, PUBLIC
from sheetgm.service.ledger.journal import read_director
from sheetgm.sheets import layout

BILINGUAL = roster(langs={2: "en", 4: "en"})  # S1, S3 read Chinese, S2 and H1 English; the director Chinese


@pytest.fixture(params=["xlsx", "google"])
def game(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[CliGame]:
    with cli_game(request.param, tmp_path, roster=roster(langs={2: "en", 4: "en"}, emails=request.param == "google")
                  ) as g:
        yield g


def ok(result: Any) -> Any:
    assert result.exit_code == 0, result.output
    return result


def data(result: Any) -> Any:
    return json.loads(ok(result).stdout)


def play_night_one(g: CliGame) -> None:
    opened = g.open()
    for seat, text in ((1, "搜索"), (2, "search"), (3, "破解")):
        write_order(opened, seat, text)
    ok(g.run("resolve", "--stage", "N1-survivor"))


# --- each reader's language

def test_the_public_workbook_holds_the_news_in_every_language_of_the_roster(game: CliGame) -> None:
    play_night_one(game)
    gw = game.gateway()
    tabs = gw.tabs(PUBLIC)
    assert tabs[:4] == [layout.tab("zh", t) for t in layout.PUBLIC_TABS]  # the director's language first
    assert tabs[4:] == [layout.tab("en", t) for t in layout.PUBLIC_TABS]
    zh, en = (gw.read(PUBLIC, [layout.rng(layout.tab(lang, "log"), "A2:B2")]) for lang in ("zh", "en"))
    zh_row = next(iter(zh.values()))[0]
    en_row = next(iter(en.values()))[0]
    assert zh_row[0] == en_row[0] == "N1-survivor"
    assert "第1夜" in zh_row[1] and "Night 1" in en_row[1] and "夜" not in en_row[1]
    progress = next(iter(gw.read(PUBLIC, [layout.rng(layout.tab("en", "progress"), "A2:B3")]).values()))
    assert progress[0][0] == "Stage" and progress[1][0] == render("en", "sheet.prog.progress")
    # each language's tabs are protected like the director's (the audit reads them from the file)
    descriptions = {p.description for p in gw.protections(PUBLIC)}
    assert {"sheetgm:public:log", "sheetgm:public:en:log", "sheetgm:public:en:map"} <= descriptions
    assert "✗" not in ok(game.run("audit")).stdout


def test_a_public_workbook_made_before_gets_the_other_languages_tabs_with_the_earlier_log(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sheetgm.service.game import Game

    with monkeypatch.context() as old:  # an older sheetgm laid the public workbook out in one language
        old.setattr(Game, "langs", property(lambda self: [self.lang]))
        made = cli_game("xlsx", tmp_path, roster=BILINGUAL)
        g = made.__enter__()
        play_night_one(g)
        assert layout.tab("en", "log") not in g.gateway().tabs(PUBLIC)
    ok(g.run("resolve", "--stage", "N1-hunter"))
    log = g.gateway().read(PUBLIC, [layout.rng("Log", "A1:B3")])[layout.rng("Log", "A1:B3")]
    assert [r[0] for r in log] == ["Stage", "N1-survivor", "N1-hunter"]  # night 1's survivors backfilled
    assert "Night 1" in log[1][1] and "Night 1" in log[2][1]
    assert "✗" not in ok(g.run("audit")).stdout
    made.__exit__(None, None, None)


def test_publish_writes_a_post_per_language_and_never_a_local_path(game: CliGame) -> None:
    play_night_one(game)
    out = game.folder / "post.txt"
    said = ok(game.run("publish", "--out", str(out)))
    assert out.read_text("utf-8").startswith("[size=5]") and "第1夜" in out.read_text("utf-8")
    english = (game.folder / "post.en.txt").read_text("utf-8")
    assert "Night 1" in english and "第" not in english
    assert str(out) in said.stdout and str(game.folder / "post.en.txt") in said.stdout
    no_url = game.run("publish", "--map")
    assert no_url.exit_code == 1 and "[img]" not in no_url.output and "--map-url" in no_url.stderr
    web = ok(game.run("publish", "--map-url", "https://img.example.org/cup", "--together"))
    assert "[img]https://img.example.org/cup/N1-survivor.png[/img]" in web.stdout
    assert "[img]https://img.example.org/cup/N1-survivor.en.png[/img]" in web.stdout
    assert "✂" not in web.stdout and str(game.folder) not in web.stdout


# --- the director's table

def test_status_shows_every_seat_with_camp_role_and_order_state(game: CliGame) -> None:
    opened = game.open()
    write_order(opened, 1, "搜索")
    write_order(opened, 2, "fly C4")  # a problem
    ok(game.run("check"))
    st = data(game.run("status", "--json"))
    by = {p["alias"]: p for p in st["players"]}
    assert {p["camp"] for p in st["players"]} == {"survivor", "hunter"} and all(p["role"] for p in st["players"])
    assert by["S1"]["order"] == "ok" and by["S2"]["order"] == "problems" and by["S3"]["order"] == "empty"
    assert by["H1"]["order"] == "" and by["S1"]["read"].startswith("20")
    assert by["S2"]["lang"] == "en"
    text = ok(game.run("status")).stdout
    heads = render("zh", "day.head.table").split("|")
    assert all(h in text for h in heads)
    role = render("zh", f"role.{by['S1']['role']}") if by["S1"]["role"] else ""
    assert any(ln.split()[:2] == ["1", "S1"] and role in ln and "已提交" in ln for ln in text.splitlines())
    assert "player-1" not in text and "1 号 S1" in text  # workbooks by seat and alias, not by key
    assert "T" not in "".join(ln for ln in text.splitlines() if "UTC+" in ln and ":" in ln).replace("UTC", "")
    # each player sees when their text was last read, and what was read (issue 16)
    opened = game.open()
    zh, en = orders_row(opened, 1)[layout.O_STATUS], orders_row(opened, 2)[layout.O_STATUS]
    assert "读到「搜索」" in zh and "（Asia/Shanghai，UTC+8）" in zh  # (the game's deadlines are long past here)
    assert "“fly C4”" in en and "(Asia/Shanghai, UTC+8)" in en and "读" not in en
    # the director workbook holds the same view, written by the check
    table = game.gateway().read(DIRECTOR, [layout.rng(layout.tab("zh", "table"), "A4:I8")])
    rows = next(iter(table.values()))
    assert rows[0] == heads and rows[1][1] == "S1" and rows[1][6] == "已提交" and rows[2][6] == "有问题"


# --- words that fit

def test_a_local_resolve_before_the_deadline_names_no_scheduled_run(tmp_path: Path) -> None:
    future = {"survivors": "21:00", "hunters": "23:00", "start": "2099-01-01"}
    for backend, expected, absent in (("xlsx", "本地游戏没有定时运行", "定时运行会结算"),
                                      ("google", "定时运行会结算", "本地游戏")):
        with cli_game(backend, tmp_path / backend, schedule=future,
                      roster=roster(emails=backend == "google")) as g:
            said = ok(g.run("resolve")).stdout
            assert expected in said and absent not in said, said


def test_rollback_prints_the_exact_commands_and_says_the_reason_is_public(game: CliGame) -> None:
    play_night_one(game)
    said = ok(game.run("rollback", "N1", "--reason", "S1 的指令被误读")).stdout
    assert render("zh", "day.rollback.public", reason="S1 的指令被误读") in said
    command = f"sheetgm resolve --game {game.folder} --stage N1-survivor"
    assert command in said.splitlines()[-1]
    again = ok(game.run(*command.split()[1:])).stdout  # exactly as printed (run() names the same folder again)
    assert "N1-survivor" in again and "等待" not in again


def test_rollback_asks_before_a_reason_every_player_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with cli_game("xlsx", tmp_path) as g:
        play_night_one(g)
        from typer.testing import CliRunner

        from sheetgm.cli import replay
        from sheetgm.cli.app import app

        monkeypatch.setattr(replay, "interactive", lambda: True)  # a director at the terminal

        no = CliRunner().invoke(app, ["rollback", "N1", "--reason", "H1 在 C4", "--game", str(g.folder)], input="n\n")
        assert no.exit_code == 1 and "H1 在 C4" in no.output and "没有回滚" in no.output
        assert [e.status for e in read_director(g.open())[0]][-1] == "published"  # nothing was written
        yes = CliRunner().invoke(app, ["rollback", "N1", "--reason", "误读", "--game", str(g.folder)], input="y\n")
        assert yes.exit_code == 0 and [e.status for e in read_director(g.open())[0]][-1] == "superseded"


def test_map_writes_into_the_game_folders_maps(game: CliGame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                               ) -> None:
    play_night_one(game)
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    ok(game.run("map"))
    ok(game.run("map", "--view", "director"))
    ok(game.run("map", "--view", "player", "S2", "--lang", "en"))
    maps = game.folder / "maps"
    assert (maps / "N1-survivor.png").is_file()
    assert (maps / "private" / "N1-survivor-director.png").is_file()
    assert (maps / "private" / "N1-survivor-player-S2.en.png").is_file()
    assert list(elsewhere.iterdir()) == []
