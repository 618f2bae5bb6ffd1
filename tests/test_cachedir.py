"""The cache folder's one gateway (core/cachedir.py, issue 26): the folder owner-only or not used, files opened
without following links or blocking, reads bounded, writes whole and never through a link."""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sheetgm.core import cachedir


@pytest.fixture()
def where(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "home" / ".cache" / "sheetgm"
    monkeypatch.setenv(cachedir.CACHE_ENV, str(folder))
    cachedir.forget()
    yield folder
    cachedir.forget()


def test_the_folder_is_made_owner_only(where: Path) -> None:
    os.umask(0o022)
    assert cachedir.usable_dir() == where
    assert stat.S_IMODE(where.stat().st_mode) == 0o700 and cachedir.refusal() is None


def test_a_folder_of_ours_readable_by_others_is_made_owner_only(where: Path) -> None:
    where.mkdir(parents=True)
    where.chmod(0o755)
    assert cachedir.usable_dir() == where and stat.S_IMODE(where.stat().st_mode) == 0o700


@pytest.mark.parametrize("why", ["open", "link", "not_dir", "owner"])
def test_a_folder_that_may_not_be_used_is_refused_and_left_alone(why: str, where: Path) -> None:
    where.parent.mkdir(parents=True)
    if why == "open":
        where.mkdir()
        where.chmod(0o770)
    elif why == "link":
        (where.parent / "real").mkdir(mode=0o700)
        where.symlink_to(where.parent / "real")
    elif why == "not_dir":
        where.write_text("")
    else:
        if os.geteuid() != 0:
            pytest.skip("giving a folder to another user needs root")
        where.mkdir(mode=0o700)
        os.chown(where, 65534, 65534)
    before = os.lstat(where)
    assert cachedir.usable_dir() is None and cachedir.file_in("x.json") is None
    assert cachedir.refusal() == (where, why)
    assert os.lstat(where).st_mode == before.st_mode  # not changed either
    assert cachedir.keep_bytes(cachedir.file_in("x.json"), b"{}") is False


def test_reads_are_bounded_and_open_nothing_but_a_regular_file(where: Path) -> None:
    folder = cachedir.usable_dir()
    assert folder is not None
    (folder / "ok").write_bytes(b"12345")
    assert cachedir.read_bytes(folder / "ok", 5) == b"12345" and cachedir.read_bytes(folder / "ok", 4) is None
    with open(folder / "huge", "wb") as f:
        f.truncate(1 << 30)
    assert cachedir.read_bytes(folder / "huge", 1 << 20) is None
    os.mkfifo(folder / "fifo")
    started = time.monotonic()
    assert cachedir.read_bytes(folder / "fifo", 100) is None and time.monotonic() - started < 5  # no wait
    (folder / "link").symlink_to(folder / "ok")
    assert cachedir.read_bytes(folder / "link", 100) is None
    (folder / "dir").mkdir()
    assert cachedir.read_bytes(folder / "dir", 100) is None
    assert cachedir.read_bytes(folder / "missing", 100) is None and cachedir.read_bytes(None, 100) is None


@pytest.mark.parametrize(("text", "depth", "ok"), [
    (b"[" * 200_000, 32, False), (b'{"a":' * 10_000, 32, False), (b"[[[]]]", 3, True), (b"[[[[]]]]", 3, False),
    (b'{"a": "[[[[{{{{"}', 1, True), (b'{"a": "\\"[[[["}', 1, True), (b'{"a": "\\\\", "b": [[[]]]}', 2, False),
    (b"[1]," * 10_000, 1, True), (b'"' + b'\\"' * 300_000, 1, True), (b'"' * 300_000, 1, True)])
def test_json_depth_is_looked_at_before_parsing(text: bytes, depth: int, ok: bool) -> None:
    """Linear, whatever the bytes: a file of escaped quotes made a regular expression take minutes."""
    started = time.monotonic()
    assert cachedir.json_depth(text, depth) is ok
    assert time.monotonic() - started < 2


def test_read_json_gives_none_for_damage(where: Path) -> None:
    folder = cachedir.usable_dir()
    assert folder is not None
    for data in (b"[" * 200_000, b"{not json", b"\xff\xfe", b""):
        (folder / "t.json").write_bytes(data)
        assert cachedir.read_json(folder / "t.json", 1 << 20, 4) is None
    (folder / "t.json").write_bytes(b'{"a": "b"}')
    assert cachedir.read_json(folder / "t.json", 1 << 20, 1) == {"a": "b"}


def test_a_write_replaces_a_link_and_never_writes_through_it(where: Path, tmp_path: Path) -> None:
    folder = cachedir.usable_dir()
    assert folder is not None
    victim = tmp_path / "victim"
    victim.write_text("the director's file")
    (folder / "t.json").symlink_to(victim)
    assert cachedir.keep_json(folder / "t.json", {"a": 1})
    assert victim.read_text() == "the director's file"
    assert not (folder / "t.json").is_symlink() and cachedir.read_json(folder / "t.json", 100, 1) == {"a": 1}
    assert stat.S_IMODE((folder / "t.json").stat().st_mode) == 0o600


def test_a_failed_write_leaves_no_part_and_old_parts_are_swept(where: Path) -> None:
    folder = cachedir.usable_dir()
    assert folder is not None
    (folder / "d").mkdir()
    assert cachedir.keep_bytes(folder / "d", b"x") is False  # a folder in the way: the rename fails
    assert not list(folder.glob("*.part"))
    old, young = folder / "a.1.2.part", folder / "b.1.2.part"
    for part in (old, young):
        part.write_bytes(b"half")
    os.utime(old, (time.time() - 3600, time.time() - 3600))
    table = folder / "dataclass-methods.cpython-311-4.marshal"  # an older sheetgm's code table
    table.write_bytes(b"code")
    assert cachedir.keep_bytes(folder / "c", b"whole")
    assert not old.exists() and young.exists() and (folder / "c").read_bytes() == b"whole"
    assert not table.exists()
