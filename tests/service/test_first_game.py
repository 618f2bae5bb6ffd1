"""A first game that starts cleanly (issue 28): `sheetgm new` in a folder without game.toml writes a commented
starter and says what next; the director's comments and order of keys survive every rewrite of game.toml; a past
start date is warned of with the fix; every game.toml example in docs/ works as written; `demo` ends with the
line that starts a real game."""

from __future__ import annotations

import dataclasses
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from typer.testing import CliRunner

from sheetgm.cli.app import app
from sheetgm.core.texts import render
from sheetgm.service.config.load import load_config, parse_config, save_config
from sheetgm.service.timing.deadlines import past_start

runner = CliRunner()
DOCS = Path(__file__).resolve().parents[2] / "docs"
COMMENTED = """# the spring cup: the director's notes
name = "spring"   # shown in the file names
seed = 7
timezone = "Asia/Shanghai"

[schedule]        # every day
survivors = "21:00"
hunters = "23:00"
start = "2099-05-01"  # night 1

[[roster]]
alias = "Ann"  # first
camp = "survivor"

[[roster]]
alias = "Hu"
camp = "hunter"
"""


def new(*args: str, lang: str = "zh"):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["new", *args], env={"SHEETGM_LANG": lang})


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_new_without_game_toml_writes_a_starter_and_says_what_to_edit_and_run(tmp_path: Path, lang: str) -> None:
    folder = tmp_path / "cup"
    first = new("--game", str(folder), lang=lang)
    assert first.exit_code == 0, first.output
    file = folder / "game.toml"
    text = file.read_text("utf-8")
    assert text.startswith("#") and text.count("#") >= 10  # commented
    assert "先运行 `sheetgm new`" not in first.output and "run `sheetgm new`" not in first.output
    assert first.stdout.strip().splitlines()[-1].endswith(f"sheetgm new --game {folder}")  # what to run next
    assert str(file) in first.stdout and ("alias" in first.stdout and "[schedule]" in first.stdout)
    cfg = load_config(file)
    tomorrow = datetime.now(ZoneInfo("Asia/Shanghai")).date() + timedelta(days=1)
    assert cfg.map == "standard" and len(cfg.roster) == 10 and cfg.lang == lang
    assert cfg.schedule is not None and cfg.schedule.start == tomorrow
    assert not list(folder.glob("workbooks/*"))  # nothing made yet
    second = new("--game", str(folder), lang=lang)  # as written: the game is made
    assert second.exit_code == 0, second.output
    assert len(list((folder / "workbooks").glob("*.xlsx"))) == 12 and "!" not in second.stderr
    assert file.read_text("utf-8") == text  # the starter's comments kept: game.toml not rewritten


def test_a_rewrite_keeps_the_directors_comments_and_order(tmp_path: Path) -> None:
    file = tmp_path / "game.toml"
    file.write_text(COMMENTED, "utf-8")
    cfg = load_config(file)
    save_config(cfg, tmp_path)
    assert file.read_text("utf-8") == COMMENTED  # nothing changed: not rewritten
    moved = dataclasses.replace(cfg, max_nights=5, map_url="https://example.org/maps/")
    save_config(moved, tmp_path)
    text = file.read_text("utf-8")
    for line in COMMENTED.splitlines():
        assert line in text  # every line and comment of the director's kept
    assert text.index("name =") < text.index("max_nights = 5") < text.index("[schedule]")  # a new key in the head
    assert load_config(file) == moved


def test_new_from_another_file_keeps_its_comments(tmp_path: Path) -> None:
    source = tmp_path / "draft.toml"
    source.write_text(COMMENTED, "utf-8")
    made = new(str(source), "--game", str(tmp_path / "game"))
    assert made.exit_code == 0, made.output
    assert (tmp_path / "game" / "game.toml").read_text("utf-8") == COMMENTED


def test_a_start_date_in_the_past_is_warned_of_with_the_fix(tmp_path: Path) -> None:
    (tmp_path / "game.toml").write_text(COMMENTED.replace("2099-05-01", "2024-05-01"), "utf-8")
    made = new("--game", str(tmp_path))
    assert made.exit_code == 0, made.output
    tomorrow = (datetime.now(ZoneInfo("Asia/Shanghai")).date() + timedelta(days=1)).isoformat()
    warning = made.stderr.strip()
    assert warning.startswith(
        "! [schedule] start = 2024-05-01：第 1 夜的第一个截止时间 2024-05-01 周三 21:00（Asia/Shanghai，UTC+8）"
        "已经过了")
    assert f'start = "{tomorrow}"' in warning  # the fix
    cfg = parse_config({"name": "g", "seed": 1, "roster": [{"alias": "A", "camp": "survivor"},
                                                           {"alias": "B", "camp": "hunter"}],
                        "deadlines": {"N1-survivor": "2024-05-01T21:00:00+08:00"}})
    now = datetime(2024, 6, 1, tzinfo=UTC)
    said = past_start(cfg, now, "en")
    assert said.startswith('[deadlines] "N1-survivor" = Wed 2024-05-01 21:00') and "2024-06-02T21:00:00+08:00" in said
    assert past_start(cfg, datetime(2024, 5, 1, tzinfo=UTC), "en") == ""


def _examples() -> list[tuple[str, str]]:
    """Every ```toml block of docs/ that is (part of) a game.toml: (where, text)."""
    out = []
    for doc in sorted(DOCS.glob("*.md")):
        for i, block in enumerate(re.findall(r"```toml\n(.*?)```", doc.read_text("utf-8"), re.S)):
            if re.search(r"^(name|timezone) = |^\[schedule\]|^\[\[roster\]\]", block, re.M):
                out.append((f"{doc.name}#{i + 1}", block))
    return out


def test_the_docs_have_game_toml_examples() -> None:
    assert {w.split("#")[0] for w, _ in _examples()} == {"director-guide.md", "schedule.md"}


@pytest.mark.parametrize(("where", "block"), _examples(), ids=[w for w, _ in _examples()])
def test_every_game_toml_example_in_the_docs_works_as_written(tmp_path: Path, where: str, block: str) -> None:
    """A whole example is made into a game by `sheetgm new` as it stands; a part of one (the schedule's page
    shows [schedule] alone) is made with the fewest keys a game needs added before it."""
    whole = "[[roster]]" in block
    source = tmp_path / "example.toml"
    source.write_text(block if whole else _with_roster(block), "utf-8")
    made = new(str(source), "--game", str(tmp_path / "game"))
    assert made.exit_code == 0, made.output
    assert "!" not in made.stderr, made.stderr  # no warning either: the dates are ahead
    if whole:
        assert (tmp_path / "game" / "game.toml").read_text("utf-8") == block  # and kept as written


def _with_roster(fragment: str) -> str:
    return ('name = "doc"\nseed = 1\n' + fragment + '\n[[roster]]\nalias = "A"\ncamp = "survivor"\n'
            '\n[[roster]]\nalias = "B"\ncamp = "hunter"\n')


def test_demo_ends_with_the_line_that_starts_a_real_game(tmp_path: Path) -> None:
    done = runner.invoke(app, ["demo", "--dir", str(tmp_path / "demo"), "--max-nights", "1"],
                         env={"SHEETGM_LANG": "en"})
    assert done.exit_code == 0, done.output
    assert done.stdout.strip().splitlines()[-1] == render("zh", "cli.demo_next")  # the demo plays in Chinese
