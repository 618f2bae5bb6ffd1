"""Issue 16: a ten-player local game over three nights, six players writing Chinese and four English, played
through the command line as a new director plays it (day_game.py). Nobody reads a raw template key, English
inside a Chinese text or Chinese inside an English one."""

from __future__ import annotations

from pathlib import Path

import day_game


def test_a_bilingual_game_shows_everyone_their_own_language_and_no_raw_key(tmp_path: Path) -> None:
    t = day_game.play(tmp_path / "game")
    found = day_game.count(t)
    assert all(not seen for seen in found.values()), "\n".join(day_game.offenders(found))
    # what was counted is what people read: each public tab set, each post and each player's workbook
    readers = {(s.reader, s.lang) for s in t.seen}
    assert {("everyone", "zh"), ("everyone", "en"), ("director", "zh"), ("Ann", "en"), ("小明", "zh")} <= readers
    posts = {s.where for s in t.seen if s.where.startswith("post ")}
    assert {"post N1-survivor.txt", "post N1-survivor.en.txt", "post N3-hunter.en.txt"} <= posts
    assert any("Night 3" in s.text for s in t.seen if s.reader == "everyone" and s.lang == "en")
    assert (t.folder / "maps" / "N3-hunter.en.png").is_file()


def test_the_count_finds_what_it_looks_for(tmp_path: Path) -> None:
    """The counter can fail: a raw key, an English word in a Chinese text, Chinese in an English text."""
    t = day_game.Transcript(tmp_path)
    t.seen += [day_game.Seen("director", "zh", "check", "  小明: cli.state.late"),
               day_game.Seen("小明", "zh", "status", "已结算（in play）"),
               day_game.Seen("Ann", "en", "log", "Night 1: 求生者阶段开始"),
               day_game.Seen("Ann", "en", "log", "svc.undelivered(alias=Ann)"),
               day_game.Seen("小明", "zh", "status", "截止 N1-survivor：2026-12-04 周五 21:00（Asia/Shanghai，UTC+8）"),
               day_game.Seen("Ann", "en", "log", "Night 3: 小红 is eliminated")]
    found = day_game.count(t)
    assert [s.text for s in found["raw_keys"]] == ["  小明: cli.state.late", "svc.undelivered(alias=Ann)"]
    assert [s.where for s in found["english_in_chinese"]] == ["check", "status"]
    assert [s.text for s in found["chinese_in_english"]] == ["Night 1: 求生者阶段开始"]
