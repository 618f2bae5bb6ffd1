"""The templates' parsed tables kept in the cache folder (core/texts.py): used when the files are the same,
never when one changed, and a cache that is broken or cannot be written costs nothing but the parse."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from sheetgm.core import texts
from sheetgm.core.cachedir import CACHE_ENV


def _parsed(lang: str) -> dict[str, str]:
    flat: dict[str, str] = {}
    folder = texts.templates_dir() / "texts" / lang
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            texts._flatten(tomllib.loads(entry.read_text("utf-8")), "", flat)
    return flat


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    texts.table.cache_clear()
    yield tmp_path / "cache"
    texts.table.cache_clear()


def test_the_first_read_parses_and_keeps_one_file_a_language(cache: Path) -> None:
    assert texts.table("zh") == _parsed("zh")
    assert texts.table("en") == _parsed("en")
    kept = sorted(p.name for p in cache.iterdir())
    assert len(kept) == 2 and kept[0].startswith("texts-en-") and kept[1].startswith("texts-zh-")
    assert json.loads((cache / kept[1]).read_text("utf-8")) == _parsed("zh")


def test_a_kept_table_is_what_the_next_process_reads(cache: Path) -> None:
    texts.table("zh")
    (kept,) = cache.iterdir()
    kept.write_text(json.dumps({"only.key": "from the cache"}), "utf-8")
    texts.table.cache_clear()
    assert texts.table("zh") == {"only.key": "from the cache"}


@pytest.mark.parametrize("garbage", ["{not json", "[1, 2]", '{"a": 1}', ""])
def test_a_broken_cache_file_is_parsed_again_and_replaced(cache: Path, garbage: str) -> None:
    texts.table("zh")
    (kept,) = cache.iterdir()
    kept.write_text(garbage, "utf-8")
    texts.table.cache_clear()
    assert texts.table("zh") == _parsed("zh")
    assert json.loads(kept.read_text("utf-8")) == _parsed("zh")


def test_a_changed_template_is_a_new_entry_and_the_old_one_goes(cache: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "tpl"
    (root / "texts" / "zh").mkdir(parents=True)
    (root / "texts" / "zh" / "a.toml").write_text('[x]\ny = "一"\n', "utf-8")
    monkeypatch.setattr(texts, "templates_dir", lambda: root)
    assert texts.table("zh") == {"x.y": "一"}
    (root / "texts" / "zh" / "a.toml").write_text('[x]\ny = "二"\n', "utf-8")
    texts.table.cache_clear()
    assert texts.table("zh") == {"x.y": "二"}
    assert len(list(cache.glob("texts-zh-*.json"))) == 1


def test_a_cache_folder_that_cannot_be_written_costs_only_the_parse(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", "utf-8")
    monkeypatch.setenv(CACHE_ENV, str(blocker / "cache"))  # a folder under a file: mkdir fails
    texts.table.cache_clear()
    try:
        assert texts.table("zh") == _parsed("zh")
    finally:
        texts.table.cache_clear()


def test_an_empty_text_is_a_text_and_english_is_read_only_for_a_missing_key(cache: Path) -> None:
    """``preview.flag.ok`` is "" in every language: rendering it in Chinese reads no English table (a check
    rendered it for every player and read the whole English table for it)."""
    assert texts.render("zh", "preview.flag.ok") == ""
    assert texts.render("zh", "preview.flag.fails") == _parsed("zh")["preview.flag.fails"]
    assert [p.name.split("-")[1] for p in cache.iterdir()] == ["zh"]  # only the Chinese table was read
    zh = texts.table("zh")
    missing = next(k for k in _parsed("en") if k not in zh) if any(k not in zh for k in _parsed("en")) else None
    if missing is None:  # every key is in both languages (tests/test_template_keys.py): make one missing
        zh.pop("preview.flag.fails")
        missing = "preview.flag.fails"
    assert texts.render("zh", missing) == texts.table("en")[missing]  # a missing key: said in English
