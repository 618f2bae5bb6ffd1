"""The cache folder's one gateway (core/cachedir.py, issue 26): the folder owner-only or not used, files opened
without following links or blocking, reads bounded, writes whole and never through a link."""

from __future__ import annotations

import json
import os
import stat
import threading
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


@pytest.mark.parametrize("mode", [0o755, 0o640], ids=oct)  # (0o640: even one its owner may not enter)
def test_a_folder_of_ours_readable_by_others_is_made_owner_only(mode: int, where: Path) -> None:
    where.mkdir(parents=True)
    where.chmod(mode)
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


def _open_writer(fifo: Path) -> None:
    try:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    except OSError:  # no reader waiting
        pass


def test_reads_are_bounded_and_open_nothing_but_a_regular_file(where: Path) -> None:
    folder = cachedir.usable_dir()
    assert folder is not None
    (folder / "ok").write_bytes(b"12345")
    assert cachedir.read_bytes(folder / "ok", 5) == b"12345" and cachedir.read_bytes(folder / "ok", 4) is None
    with open(folder / "huge", "wb") as f:
        f.truncate(1 << 30)
    assert cachedir.read_bytes(folder / "huge", 1 << 20) is None
    os.mkfifo(folder / "fifo")
    writer = threading.Timer(3, _open_writer, (folder / "fifo",))  # frees a reader that would wait: no test hangs
    writer.start()
    started = time.monotonic()
    try:
        assert cachedir.read_bytes(folder / "fifo", 100) is None and time.monotonic() - started < 2.5  # no wait
    finally:
        writer.cancel()
        writer.join()
    (folder / "link").symlink_to(folder / "ok")
    assert cachedir.read_bytes(folder / "link", 100) is None
    (folder / "dir").mkdir()
    assert cachedir.read_bytes(folder / "dir", 100) is None
    assert cachedir.read_bytes(folder / "missing", 100) is None and cachedir.read_bytes(None, 100) is None


@pytest.mark.parametrize(("text", "depth", "ok"), [
    (b"[" * 200_000, 32, False), (b'{"a":' * 10_000, 32, False), (b"[[[]]]", 3, True), (b"[[[[]]]]", 3, False),
    (b'{"a": "[[[[{{{{"}', 1, True), (b'{"a": "\\"[[[["}', 1, True), (b'{"a": "\\\\", "b": [[[]]]}', 2, False),
    (b"[1]," * 10_000, 1, True), (b'"' + b'\\"' * 300_000, 1, True), (b'"' * 300_000, 1, True),
    (b"[[],[[]]]", 2, False), (b"[[],[[]]]", 3, True), (b'{"a":[]}', 2, True)])
def test_json_depth_is_looked_at_before_parsing(text: bytes, depth: int, ok: bool) -> None:
    """Linear, whatever the bytes: a file of escaped quotes made a regular expression take minutes."""
    started = time.monotonic()
    assert cachedir.json_depth(text, depth) is ok
    assert time.monotonic() - started < 2


@pytest.mark.parametrize(("text", "depth"), [
    (b"[[[]]]", 3), (b"[[[[]]]]", 3), (b'{"a": "[[[[{{{{"}', 1), (b'{"a": "\\\\", "b": [[[]]]}', 2),
    (b"[[],[[]]]", 2), (b"[[],[[]]]", 3), (b'{"a":[]}', 2), (b'{"a":[]}', 1), (b'"x"', 0), (b"[]", 0),
    (b"[" * 900 + b"]" * 900, 1000), (b"[" * 900 + b"]" * 900, 899), (b'{"a": {"b": {}}, "c": [1, [2]]}', 2),
    (b'{"a": {"b": {}}, "c": [1, [2]]}', 3)])
def test_read_json_refuses_what_json_depth_refuses(where: Path, text: bytes, depth: int) -> None:
    """Parsed first, measured after: the same verdict as measuring the text before parsing it."""
    folder = cachedir.usable_dir()
    assert folder is not None
    (folder / "t.json").write_bytes(text)
    found = cachedir.read_json(folder / "t.json", 1 << 20, depth)
    assert (found is not None) is cachedir.json_depth(text, depth)
    if found is not None:
        assert found == json.loads(text)


def test_read_json_gives_none_for_damage(where: Path) -> None:
    folder = cachedir.usable_dir()
    assert folder is not None
    for data in (b"[" * 200_000, b"[" * 200_000 + b"]" * 200_000, b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
                 b"{not json", b"\xff\xfe", b""):
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


@pytest.mark.parametrize(("platform", "env", "expected"), [
    ("linux", {"SHEETGM_CACHE_DIR": "  /set/here  ", "HOME": "/h"}, "/set/here"),
    ("linux", {"SHEETGM_CACHE_DIR": "  ", "HOME": "/h"}, "/h/.cache/sheetgm"),
    ("linux", {"HOME": "/h", "XDG_CACHE_HOME": "/xdg"}, "/xdg/sheetgm"),
    ("darwin", {"HOME": "/h", "XDG_CACHE_HOME": "/xdg"}, "/h/Library/Caches/sheetgm"),
    ("win32", {"HOME": "/h", "LOCALAPPDATA": "/local"}, "/local/sheetgm/Cache"),
    ("win32", {"HOME": "/h"}, "/h/AppData/Local/sheetgm/Cache"),
])
def test_the_cache_folder_is_where_each_platform_keeps_caches(platform: str, env: dict[str, str], expected: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The environment given is the one read (not the process's), and each platform's usual place."""
    monkeypatch.setenv(cachedir.CACHE_ENV, "/not/this/one")
    monkeypatch.setenv("HOME", "/nor/this")
    with monkeypatch.context() as m:
        m.setattr(cachedir.sys, "platform", platform)
        found = cachedir.cache_dir(env)
    assert found == Path(expected)


def test_without_home_in_the_environment_the_users_home_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        m.setattr(cachedir.sys, "platform", "linux")
        assert cachedir.cache_dir({}) == Path.home() / ".cache" / "sheetgm"


def test_the_folder_is_owner_only_whatever_the_umask(where: Path) -> None:
    old = os.umask(0)
    try:
        assert cachedir.usable_dir() == where and cachedir.refusal() is None
    finally:
        os.umask(old)
    assert stat.S_IMODE(where.stat().st_mode) == 0o700


def test_a_folder_made_by_another_process_in_between_is_looked_at_again(where: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Missing when looked at, then a link when sheetgm makes it (another process was quicker): refused."""
    (where.parent / "real").mkdir(parents=True, mode=0o700)

    def quicker(path: object, mode: int = 0o777) -> None:
        where.symlink_to(where.parent / "real")
        raise FileExistsError(path)

    monkeypatch.setattr(cachedir.os, "mkdir", quicker)
    assert cachedir.usable_dir() is None and cachedir.refusal() == (where, "link")


def test_a_folder_that_cannot_be_made_is_not_used_and_not_reported_as_refused(where: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A read-only home: nothing is kept, nothing to warn about, and the second use in the process says the same."""
    def read_only(path: object, mode: int = 0o777) -> None:
        raise PermissionError(path)

    monkeypatch.setattr(cachedir.os, "mkdir", read_only)
    assert cachedir.usable_dir() is None and cachedir.refusal() is None
    assert cachedir.usable_dir() is None and cachedir.file_in("x.json") is None and cachedir.refusal() is None


def test_a_folder_whose_name_cannot_be_looked_at_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / ("x" * 300)  # longer than a name may be: looking at it fails, not for its absence
    monkeypatch.setenv(cachedir.CACHE_ENV, str(folder))
    cachedir.forget()
    try:
        assert cachedir.usable_dir() is None and cachedir.refusal() == (folder, "not_dir")
    finally:
        cachedir.forget()


def test_reads_come_back_whole_in_pieces_and_a_file_that_grows_while_read_is_refused(
        where: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A read may bring fewer bytes than asked; a file another process appends to after its size was looked at is
    refused, not cut at the bound nor read past it."""
    folder = cachedir.usable_dir()
    assert folder is not None
    real_read = os.read

    def reading(file: Path, limit: int, piece: int, grows: bool) -> bytes | None:
        """read_bytes with reads of at most ``piece`` bytes; ``grows``: 3 bytes appended before the first."""
        appended = [not grows]

        def short(fd: int, n: int) -> bytes:
            if not appended[0]:
                appended[0] = True
                with open(file, "ab") as f:
                    f.write(b"678")
            return real_read(fd, min(n, piece))

        with monkeypatch.context() as m:
            m.setattr(os, "read", short)
            return cachedir.read_bytes(file, limit)

    (folder / "f").write_bytes(b"123456")
    assert reading(folder / "f", 10, 3, grows=False) == b"123456"
    (folder / "g").write_bytes(b"12345")
    assert reading(folder / "g", 5, 3, grows=True) is None
    (folder / "h").write_bytes(b"12345")
    assert reading(folder / "h", 5, 5, grows=True) is None  # its first read brings exactly the bound


def test_chinese_text_is_kept_as_written_and_what_json_cannot_hold_is_not_kept(where: Path) -> None:
    """Not escaped: an escaped character takes 6 bytes where UTF-8 takes 3, against the readers' bounds."""
    folder = cachedir.usable_dir()
    assert folder is not None
    assert cachedir.keep_json(folder / "t.json", {"t": "中文"})
    assert (folder / "t.json").read_bytes() == '{"t": "中文"}'.encode()
    assert cachedir.keep_json(folder / "u.json", {"t": {1, 2}}) is False and not (folder / "u.json").exists()


def test_a_link_planted_at_the_parts_name_is_never_written_through(where: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    folder = cachedir.usable_dir()
    assert folder is not None
    victim = tmp_path / "victim"
    victim.write_text("the director's file")
    monkeypatch.setattr(cachedir.os, "urandom", lambda n: b"\0" * n)  # the part's name, guessed
    (folder / f"t.json.{os.getpid()}.00000000.part").symlink_to(victim)
    assert cachedir.keep_bytes(folder / "t.json", b"{}") is False
    assert victim.read_text() == "the director's file" and not (folder / "t.json").exists()


def test_a_file_removed_right_after_it_was_written_still_counts_as_written(where: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    folder = cachedir.usable_dir()
    assert folder is not None
    real_replace = os.replace

    def then_removed(src: Path, dst: Path) -> None:
        real_replace(src, dst)
        os.unlink(dst)  # another process's clean-up, between the rename and the look at its time

    monkeypatch.setattr(cachedir.os, "replace", then_removed)
    assert cachedir.keep_bytes(folder / "c", b"x") is True


def test_the_sweep_removes_only_parts_older_than_its_age_and_counts_them(where: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    folder = cachedir.usable_dir()
    assert folder is not None
    now = 10_000.0
    files = {"a.1.2.part": now - 601, "b.1.2.part": now - 3600, "c.1.2.part": now - 600, "kept.json": now - 3600}
    for name, when in files.items():
        (folder / name).write_bytes(b"x")
        os.utime(folder / name, (when, when))
    (folder / "link.part").symlink_to(folder / "kept.json")  # not a part sheetgm wrote: left alone
    os.utime(folder / "link.part", (now - 3600, now - 3600), follow_symlinks=False)
    assert cachedir.sweep_parts(folder, now) == 2
    assert sorted(p.name for p in folder.iterdir()) == ["c.1.2.part", "kept.json", "link.part"]
    (folder / "d.1.2.part").write_bytes(b"x")
    os.utime(folder / "d.1.2.part", (now - 3600, now - 3600))

    def gone(path: object) -> None:
        raise FileNotFoundError(path)  # another process swept it first

    monkeypatch.setattr(cachedir.os, "unlink", gone)
    assert cachedir.sweep_parts(folder, now) == 0


def test_a_file_opened_to_be_made_is_made_owner_only_whatever_the_umask(where: Path) -> None:
    """The shared quota log is made through open_regular: no one else may read or write it."""
    folder = cachedir.usable_dir()
    assert folder is not None
    old = os.umask(0)
    try:
        os.close(cachedir.open_regular(folder / "quota.json", os.O_RDWR | os.O_CREAT))
    finally:
        os.umask(old)
    assert stat.S_IMODE((folder / "quota.json").stat().st_mode) == 0o600
