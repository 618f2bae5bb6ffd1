"""sheetgm's cache folder (core/cachedir.py), by its public behaviour: each test names the slip it catches.
(core/cachedir.py is being rewritten on wp-caches: if its API changes, these follow it.)"""

from __future__ import annotations

import json
import marshal
import sys
from pathlib import Path

import pytest

from sheetgm.core.cachedir import CACHE_ENV, cache_dir, keep_bytes, keep_json, keep_marshal


def test_the_variable_wins_stripped_and_a_blank_one_is_ignored(tmp_path: Path) -> None:
    """Slips caught: the variable not stripped, or a blank one taken as a folder (the cache would land in the
    working directory), or read after the platform's folder."""
    home = str(tmp_path / "home")
    assert cache_dir({CACHE_ENV: f"  {tmp_path}/c \n", "HOME": home, "XDG_CACHE_HOME": "/x"}) == tmp_path / "c"
    assert cache_dir({CACHE_ENV: "   ", "HOME": home}) != Path("")
    assert cache_dir({CACHE_ENV: "", "HOME": home}).is_absolute()


def test_each_platform_has_its_users_cache_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Slips caught: a platform's folder or its fallback mistyped or swapped (XDG_CACHE_HOME ignored, LOCALAPPDATA
    ignored, HOME ignored for Path.home())."""
    home = tmp_path / "home"
    monkeypatch.setattr(sys, "platform", "linux")
    assert cache_dir({"HOME": str(home)}) == home / ".cache" / "sheetgm"
    assert cache_dir({"HOME": str(home), "XDG_CACHE_HOME": str(tmp_path / "x")}) == tmp_path / "x" / "sheetgm"
    monkeypatch.setattr(sys, "platform", "darwin")
    assert cache_dir({"HOME": str(home), "XDG_CACHE_HOME": "/x"}) == home / "Library" / "Caches" / "sheetgm"
    monkeypatch.setattr(sys, "platform", "win32")
    assert cache_dir({"HOME": str(home)}) == home / "AppData" / "Local" / "sheetgm" / "Cache"
    assert cache_dir({"HOME": str(home), "LOCALAPPDATA": str(tmp_path / "l")}) == tmp_path / "l" / "sheetgm" / "Cache"


def test_no_arguments_reads_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Slip caught: the process environment not read when no mapping is given."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "env"))
    assert cache_dir() == tmp_path / "env"


def test_what_is_kept_reads_back_whole_and_leaves_no_part_file(tmp_path: Path) -> None:
    """Slips caught: a write not renamed into place (the part file left, the file missing), the folder not made,
    text not UTF-8, or True returned for a write that did not happen."""
    data = {"名": [1, 2.5, None, "✔"]}
    assert keep_json(tmp_path / "a" / "b.json", data)
    assert json.loads((tmp_path / "a" / "b.json").read_text("utf-8")) == data
    assert keep_marshal(tmp_path / "m" / "c.bin", {"k": (1, "二")})
    assert marshal.loads((tmp_path / "m" / "c.bin").read_bytes()) == {"k": (1, "二")}
    assert keep_bytes(tmp_path / "d.bin", b"\0\1") and (tmp_path / "d.bin").read_bytes() == b"\0\1"
    assert keep_json(tmp_path / "a" / "b.json", [1])  # replaced whole
    assert json.loads((tmp_path / "a" / "b.json").read_text("utf-8")) == [1]
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["b.json", "c.bin", "d.bin"]


def test_a_cache_that_cannot_be_written_is_false_not_an_error(tmp_path: Path) -> None:
    """Slips caught: an unwritable cache raising instead of answering False (a read-only home would stop every
    command), or a value marshal refuses passing as written."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert keep_json(blocker / "sub" / "a.json", [1]) is False
    assert keep_bytes(blocker / "a.bin", b"x") is False
    assert keep_marshal(blocker / "a.bin", [1]) is False
    assert keep_marshal(tmp_path / "ok" / "a.bin", [object()]) is False
