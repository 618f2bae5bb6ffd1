"""`sheetgm recap` through the command line, on local workbooks and on Google (the fake), as a director runs it:
refused before the end, the director's copy on demand, the replay once the game is over, in either language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_games import cli_game
from PIL import Image
from recap_games import read_page
from typer.testing import CliRunner

from sheetgm.cli.app import app
from sheetgm.core.texts import render


@pytest.mark.parametrize("backend", ["xlsx", "google"])
def test_recap_through_the_cli(backend: str, tmp_path: Path) -> None:
    with cli_game(backend, tmp_path / "game") as game:
        refused = game.run("recap")
        assert refused.exit_code == 1 and "--director" in refused.stderr and "N1-survivor" in refused.stderr
        assert not (game.folder / "recap").exists()

        mine = game.run("recap", "--director", "--json")
        assert mine.exit_code == 0, mine.output
        doc = json.loads(mine.stdout)
        assert doc["director_copy"] is True and doc["stages"] == 1
        assert Path(doc["html"]) == game.folder / "recap" / "recap-director-zh.html" and Path(doc["html"]).is_file()
        assert render("zh", "recap.secret") in Path(doc["html"]).read_text("utf-8")

        assert game.run("resolve", "--stage", "N1-survivor").exit_code == 0
        ended = game.run("override", "game", "winner", "survivors", "--reason", "the forum closed")
        assert ended.exit_code == 0, ended.output

        done = game.run("recap")
        assert done.exit_code == 0, done.output
        html, gif = game.folder / "recap" / "recap-zh.html", game.folder / "recap" / "recap-zh.gif"
        assert str(html) in done.stdout and str(gif) in done.stdout and "2 个阶段" in done.stdout
        assert "导演专用" not in done.stdout
        page = read_page(html)
        assert page.sections == ["N0-setup", "N1-survivor"]
        text = "".join(page.text)
        assert "游戏结束：求生者阵营获胜（导演裁定）" in text and "the forum closed" in text
        assert all(alias in text for alias in ("S1", "S2", "S3", "H1")) and "演员表" in text
        assert Image.open(gif).n_frames == 2

        en = game.run("recap", "--lang", "en", "--apng", "--out", str(tmp_path / "post"), "--json")
        assert en.exit_code == 0, en.output
        doc = json.loads(en.stdout)
        assert doc["lang"] == "en" and doc["director_copy"] is False and doc["winner"] == "survivors"
        assert Path(doc["html"]) == tmp_path / "post" / "recap-en.html"
        assert "Game over: the survivors win (director's ruling)" in "".join(read_page(Path(doc["html"])).text)
        apng = Image.open(doc["animation"])
        assert apng.format == "PNG" and apng.n_frames == 2
        assert doc["animation_bytes"] == Path(doc["animation"]).stat().st_size

        bad = game.run("recap", "--lang", "fr")
        assert bad.exit_code == 1 and "fr" in bad.stderr and "Traceback" not in bad.output


def test_recap_has_help_in_both_languages() -> None:
    for lang, words in (("en", "self-contained HTML replay"), ("zh", "演员表")):
        result = CliRunner().invoke(app, ["recap", "--help"], env={"SHEETGM_LANG": lang, "COLUMNS": "200"})
        assert result.exit_code == 0 and words in result.output and "--apng" in result.output
