"""`sheetgm recap` (issue 16, item 6): the replay page and the animation of a whole game, read back from the files.

The page must stand alone (nothing fetched: no http(s) source, no external font or script), carry every stage of
the journal with its map and every event told to anyone, and the cast list (演员表) with each player's alias,
camp, role and result; the animation has one frame per stage. Before the end only the director's copy is made,
and it says so.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image
from recap_games import copy_of, finished, frames, png_of, read_page, unfinished

from sheetgm.backends.port import SetValues
from sheetgm.core.observe import event_line, name
from sheetgm.core.texts import render
from sheetgm.render import animation
from sheetgm.render.recap_html import END_MARK, SECRET_MARK
from sheetgm.service import desk
from sheetgm.service.errors import ServiceError
from sheetgm.service.game import DIRECTOR, open_game
from sheetgm.service.ledger.journal import SUPERSEDED, journal_range, read_director
from sheetgm.service.recap import RecapReport, recap
from sheetgm.sheets import layout


@pytest.fixture(scope="module")
def ended(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return finished(tmp_path_factory.mktemp("ended") / "demo")


@pytest.fixture(scope="module")
def going(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return unfinished(tmp_path_factory.mktemp("going") / "demo")


@pytest.fixture(scope="module")
def made(ended: Path, tmp_path_factory: pytest.TempPathFactory) -> RecapReport:
    """The recap of the finished game, in its own language (zh), read by several tests."""
    return recap(open_game(ended), out=tmp_path_factory.mktemp("recap"))


def close(a: tuple[int, ...], b: tuple[int, ...], by: int = 24) -> bool:
    return all(abs(x - y) <= by for x, y in zip(a, b, strict=True))


def test_the_page_stands_alone(made: RecapReport) -> None:
    rep = made
    assert rep.html.name == "recap-zh.html" and rep.animation == rep.html.with_suffix(".gif")
    raw = rep.html.read_text("utf-8")
    page = read_page(rep.html)
    assert page.tags[:2] == ["html", "head"] and raw.startswith("<!DOCTYPE html>")
    for tag, attr, value in page.urls:
        if tag == "meta":
            continue
        assert value.startswith(("data:image/png;base64,", "#")), (tag, attr, value[:80])
    assert "link" not in page.tags and "iframe" not in page.tags and "object" not in page.tags
    style = "".join(page.styles)
    assert "@import" not in style and "@font-face" not in style and "url(" not in style
    assert "http://" not in raw and "https://" not in raw and "//" not in "".join(page.scripts).replace("'//'", "")
    assert "Content-Security-Policy" in raw and "default-src 'none'" in raw  # the browser fetches nothing else
    assert 'class="secret"' not in raw and render("zh", "recap.secret") not in raw  # not the director's copy


def test_every_stage_is_there_with_its_map_and_every_event(ended: Path, made: RecapReport) -> None:
    game = open_game(ended)
    rep = made
    entries = [e for e in read_director(game)[0] if e.status != SUPERSEDED]
    keys = [e.key for e in entries]
    assert keys[0] == "N0-setup" and keys[-1] == "N6-hunter" and len(keys) == 13
    page = read_page(rep.html)
    assert page.sections == keys and rep.stages == 13
    assert page.hidden == ["nav"]  # with scripts off every stage shows, and the buttons that need them do not
    assert len(page.images) == 13
    maps = [png_of(src) for src in page.images]
    assert all(m.format == "PNG" and m.width > 600 and m.height > 400 for m in maps)
    assert len({m.tobytes() for m in maps}) == 13  # a map per stage, each its own
    text = "".join(page.text)
    told = [e for entry in entries for e in entry.events() if e.kind not in ("stage_start", "points_left")]
    assert len(told) > 300
    missing = [event_line(e, "zh") for e in told if event_line(e, "zh") not in text]
    assert missing == []
    assert text.index("第 1 夜 · 求生者阶段") < text.index("第 6 夜 · 杀手阶段")
    assert "游戏结束：杀手阵营获胜（淘汰人数达到）" in text


def test_the_cast_list_names_every_role_and_result(ended: Path, made: RecapReport) -> None:
    game = open_game(ended)
    rep = made
    raw = rep.html.read_text("utf-8")
    cast = raw[raw.index('<section id="cast">'):]
    assert "演员表" in cast
    state = read_director(game)[0][-1].state(game.board)
    rows = cast.split("<tr")[2:]
    assert len(rows) == 10
    for row, (seat, p) in zip(rows, sorted((s, p) for s, p in state.players.items() if not p.is_robot), strict=True):
        assert f"<td>{seat}</td>" in row and p.alias in row and name("zh", "role", p.role) in row
        assert render("zh", f"word.result_{p.result}") in row
        assert render("zh", f"recap.camp.{p.camp}") in row
    won = sum(1 for p in state.players.values() if not p.is_robot and p.result == "won")
    assert won >= 3 and sum('class="won"' in r for r in rows) == won  # the two hunters and who escaped


def test_the_animation_has_one_frame_per_stage(ended: Path, made: RecapReport, tmp_path: Path) -> None:
    rep = made
    gif = Image.open(rep.animation)
    assert gif.format == "GIF" and gif.n_frames == rep.stages == 13 and gif.info.get("loop") == 0
    assert gif.width <= animation.MAX_WIDTH and (gif.width, gif.height) == (rep.width, rep.height)
    shots = frames(rep.animation)
    assert len({f.tobytes() for f in shots}) == 13
    assert rep.animation_bytes == rep.animation.stat().st_size < 300_000  # small enough for a forum post
    png = recap(open_game(ended), out=tmp_path, fmt="apng")
    apng = Image.open(png.animation)
    assert png.animation.suffix == ".png" and apng.format == "PNG" and apng.is_animated and apng.n_frames == 13


def test_the_recap_in_the_other_language(ended: Path, tmp_path: Path) -> None:
    rep = recap(open_game(ended), out=tmp_path, lang="en")
    assert rep.html.name == "recap-en.html" and rep.lang == "en"
    page = read_page(rep.html)
    text = "".join(page.text)
    assert "Game over: the hunters win (enough eliminations)" in text and "The cast" in text
    # Not a Chinese word of ours left; what a player wrote is quoted as written ("…", the English texts' quotes).
    ours = re.sub(r'"[^"\n]*"', "", text)
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in ours)
    assert 'lang="en"' in rep.html.read_text("utf-8")
    with pytest.raises(ServiceError) as bad:
        recap(open_game(ended), out=tmp_path, lang="fr")
    assert "fr" in bad.value.message("en")


def test_before_the_end_only_the_director_gets_a_copy_and_it_says_so(going: Path, made: RecapReport,
                                                                     tmp_path: Path) -> None:
    game = open_game(going)
    with pytest.raises(ServiceError) as refused:
        recap(game, out=tmp_path)
    assert refused.value.code == "err.recap.not_over"
    assert "N2-survivor" in refused.value.message("zh") and "--director" in refused.value.message("zh")
    assert not tmp_path.exists() or not list(tmp_path.iterdir())  # nothing written
    rep = recap(game, director=True, out=tmp_path)
    assert rep.director_copy and rep.html.name == "recap-director-zh.html" and rep.stages == 3
    raw = rep.html.read_text("utf-8")
    assert render("zh", "recap.secret") in raw and render("zh", "recap.secret_title") in raw
    assert 'class="secret"' in raw and 'class="over"' not in raw
    assert render("zh", "recap.going_on", stage="N2-survivor") in raw
    assert render("zh", "recap.cast.playing") in raw
    red = Image.new("RGB", (1, 1), SECRET_MARK).getpixel((0, 0))
    assert all(close(f.getpixel((1, 1)), red) and close(f.getpixel((f.width - 2, f.height // 2)), red)
               for f in frames(rep.animation))
    assert not any(close(f.getpixel((1, 1)), red) for f in frames(made.animation))


def test_a_game_ended_by_the_director_ends_with_the_ruling(going: Path, tmp_path: Path) -> None:
    game = copy_of(going, tmp_path / "game")
    desk.override(game, "game", "winner", "draw", "the forum closed")
    rep = recap(open_game(game.folder), out=tmp_path / "out")
    assert not rep.director_copy and rep.winner == "draw" and rep.stages == 3  # the desk entry is not a stage
    raw = rep.html.read_text("utf-8")
    last = raw[raw.index('id="N1-hunter"'):raw.index('<section id="cast">')]
    assert render("zh", "recap.rulings") in last and "the forum closed" in last
    assert "游戏结束：平局（导演裁定）" in last and END_MARK not in last  # the mark is in the style sheet only
    assert raw.count('class="over"') == 1


def test_a_last_stage_not_published_yet_is_refused(ended: Path, tmp_path: Path) -> None:
    game = copy_of(ended, tmp_path / "game")
    rows = game.gateway.read(DIRECTOR, [journal_range(game.lang)])[journal_range(game.lang)]
    row = next(i for i, r in enumerate(rows, 2) if r and r[0] == "N6-hunter")
    journal = layout.tab(game.lang, "journal")
    game.gateway.write(DIRECTOR, [SetValues(layout.rng(journal, f"B{row}"), (("resolved",),))])
    with pytest.raises(ServiceError) as refused:
        recap(open_game(game.folder), out=tmp_path / "out")
    assert refused.value.code == "err.recap.unpublished" and "N6-hunter" in refused.value.message("en")
    rep = recap(open_game(game.folder), director=True, out=tmp_path / "out")
    assert rep.director_copy and rep.html.name == "recap-director-zh.html"


def test_by_default_the_files_go_to_the_game_folder(ended: Path, tmp_path: Path) -> None:
    game = copy_of(ended, tmp_path / "game")
    rep = recap(game)
    assert rep.html == game.folder / "recap" / "recap-zh.html" and rep.html.is_file() and rep.animation.is_file()
