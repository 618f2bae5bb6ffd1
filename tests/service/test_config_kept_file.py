"""A game's config file validated once on this machine is read back by its bytes, without parsing TOML (issue 14),
and never stands in for a file that changed or a validation that could come out differently."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sheetgm.core.cachedir import CACHE_ENV
from sheetgm.service.config.file import declared_lang
from sheetgm.service.config.load import InvalidConfigError, load_config, parse_config, to_toml
from sheetgm.service.config import file as configfile

TOML = """name = "g"
seed = 3
lang = "en"
timezone = "Europe/Paris"
deadlines = { "N1-survivor" = 2026-05-01T21:00:00+08:00 }

[schedule]
survivors = "21:00"
start = 2026-05-01
"""
ROSTER = "".join(f'\n[[roster]]\nalias = "P{i}"\n' for i in range(1, 11))


def _by_bytes(cache: Path) -> list[Path]:
    folder = cache / "configs" / "files"
    return sorted(folder.glob("*.json")) if folder.exists() else []


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setattr(configfile, "_parsed", {})
    return tmp_path / "cache"


def _game(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "game"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.toml").write_text(text, "utf-8")
    return folder


def test_the_config_read_back_by_its_bytes_is_the_one_validated(cache: Path, tmp_path: Path) -> None:
    folder = _game(tmp_path, TOML + ROSTER)
    first = load_config(folder)
    (kept,) = _by_bytes(cache)
    configfile._parsed.clear()
    again = load_config(folder)
    assert again == first and again.deadlines["N1-survivor"].utcoffset() is not None
    assert again.schedule is not None and str(again.schedule.start) == "2026-05-01" and len(again.roster) == 10
    assert json.loads(kept.read_text("utf-8")) == json.loads(next(
        p for p in (cache / "configs").glob("*.json")).read_text("utf-8"))  # the same form the data's hash names


def test_a_new_process_reads_a_kept_config_without_tomllib_or_pydantic(cache: Path, tmp_path: Path) -> None:
    folder = _game(tmp_path, TOML + ROSTER)
    script = ("import sys; from pathlib import Path; from sheetgm.service.config.load import load_config; "
              "from sheetgm.service.config.file import declared_lang; "
              f"lang = declared_lang(Path({str(folder)!r})); cfg = load_config(Path({str(folder)!r})); "
              "print(lang, cfg.name, len(cfg.roster), 'tomllib' in sys.modules, 'pydantic' in sys.modules)")
    env = {**os.environ, CACHE_ENV: str(cache)}
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60)
            for _ in range(2)]
    assert [r.stdout.split() for r in runs] == [["en", "g", "10", "True", "True"],
                                                ["en", "g", "10", "False", "False"]], [r.stderr for r in runs]


def test_a_changed_file_is_read_and_validated_again(cache: Path, tmp_path: Path) -> None:
    folder = _game(tmp_path, TOML + ROSTER)
    assert load_config(folder).seed == 3
    (folder / "game.toml").write_text(TOML.replace("seed = 3", "seed = 4") + ROSTER, "utf-8")
    assert load_config(folder).seed == 4 and len(_by_bytes(cache)) == 2
    (folder / "game.toml").write_text(TOML.replace("seed = 3", "seed = 0") + ROSTER.replace('"P1"', '""'), "utf-8")
    with pytest.raises(InvalidConfigError):
        load_config(folder)  # refused, and the refusal kept nowhere
    assert len(_by_bytes(cache)) == 2
    (folder / "game.toml").write_text('lang = "en"\nseed = "x"\n', "utf-8")
    assert declared_lang(folder) == "en"  # a file that does not validate still says its language


@pytest.mark.parametrize("garbage", ["{", "[]", '{"name": "g"}', '{"name": "g", "seed": 1, "roster": [{"x": 1}]}'])
def test_a_broken_kept_file_is_validated_again_and_replaced(garbage: str, cache: Path, tmp_path: Path) -> None:
    folder = _game(tmp_path, TOML + ROSTER)
    first = load_config(folder)
    (kept,) = _by_bytes(cache)
    kept.write_text(garbage, "utf-8")
    configfile._parsed.clear()
    assert load_config(folder) == first
    assert json.loads(kept.read_text("utf-8"))["name"] == "g"


def test_the_same_data_in_other_bytes_is_kept_apart_and_json_is_not_toml(cache: Path, tmp_path: Path) -> None:
    cfg = load_config(_game(tmp_path, TOML + ROSTER))
    json_game = tmp_path / "json"
    json_game.mkdir()
    (json_game / "game.json").write_text(json.dumps({"name": "g", "seed": 3, "lang": "en", "roster": [
        {"alias": f"P{i}"} for i in range(1, 11)]}), "utf-8")
    assert load_config(json_game).roster == cfg.roster
    saved = _game(tmp_path / "saved", to_toml({"name": "g", "seed": 3, "lang": "en", "timezone": "Europe/Paris",
                                               "roster": [{"alias": f"P{i}"} for i in range(1, 11)]}))
    assert load_config(saved).name == "g" and len(_by_bytes(cache)) == 3
    assert parse_config({"name": "g", "seed": 3, "roster": [{"alias": f"P{i}"} for i in range(1, 11)]}).lang == "zh"


def test_a_cache_that_cannot_be_written_costs_only_parsing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "file").write_text("", "utf-8")
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "file"))
    folder = _game(tmp_path, TOML + ROSTER)
    assert load_config(folder).name == "g" and load_config(folder).seed == 3
    assert declared_lang(folder) == "en"


def test_the_name_covers_the_bytes_how_they_are_read_and_the_code(cache: Path, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    toml, as_json = tmp_path / "game.toml", tmp_path / "game.json"
    names = {configfile.kept_for_bytes(toml, b"a"), configfile.kept_for_bytes(toml, b"b"),
             configfile.kept_for_bytes(as_json, b"a")}
    monkeypatch.setattr(configfile, "code_bytes", lambda: b"another version of the validating code")
    names.add(configfile.kept_for_bytes(toml, b"a"))
    assert len(names) == 4 and None not in names
    monkeypatch.setattr(configfile, "code_bytes", lambda: None)
    assert configfile.kept_for_bytes(toml, b"a") is None  # the code cannot be read: nothing is kept or read back
