"""Issue 15.8 and 15.9: the lock says who holds it or that it cannot tell, never "process ?, ?, since ?"; a full disk
at the lock file or at a workbook is a one-line error through the CLI; a lock write that fails leaves no token."""

from __future__ import annotations

import errno
import fcntl
import json
import os
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from cli_games import cli_game
from svc_helpers import FlakyGateway, make_game, write_order

from sheetgm.backends.memory import MemoryGateway
from sheetgm.backends.port import Op
from sheetgm.service.errors import LockedError
from sheetgm.service.game import DIRECTOR, WORKBOOK_DIR
from sheetgm.service.ledger import lock as gamelock
from sheetgm.service.ledger.journal import lock_range
from sheetgm.service.ledger.lock import LOCK_FILE, folder_lock, take_lock


def _hold_without_name(folder: Path) -> int:
    """Another process's moment between taking the OS lock and writing who it is."""
    fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    os.ftruncate(fd, 0)
    return fd


def test_a_loser_in_the_holders_first_instant_is_told_plainly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gamelock, "HOLDER_WAIT", 0.1)
    fd = _hold_without_name(tmp_path)
    try:
        with pytest.raises(LockedError) as err, folder_lock(tmp_path, "bo@box", "2024-05-01T12:00:01"):
            pass
    finally:
        os.close(fd)
    for lang in ("zh", "en"):
        text = err.value.message(lang)
        assert "?" not in text and "{" not in text
    assert "本机另一个 sheetgm 进程正在处理这局游戏" in err.value.message("zh")


def test_a_loser_waits_a_moment_for_the_holder_to_say_who_it_is(tmp_path: Path) -> None:
    fd = _hold_without_name(tmp_path)

    def name_it() -> None:
        time.sleep(0.15)
        os.write(fd, json.dumps({"holder": "ann@box", "pid": 4242, "since": "2024-05-01T12:00:00"}).encode())

    writer = threading.Thread(target=name_it)
    writer.start()
    try:
        with pytest.raises(LockedError) as err, folder_lock(tmp_path, "bo@box", "2024-05-01T12:00:01"):
            pass
    finally:
        writer.join()
        os.close(fd)
    assert "进程 4242" in err.value.message("zh") and "ann@box" in err.value.message("zh")


def _full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.write

    def write(fd: int, data: bytes) -> int:
        if b'"holder"' in data:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data)

    monkeypatch.setattr(gamelock.os, "write", write)


def test_a_full_disk_at_the_lock_file_is_one_line_and_frees_the_lock(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    with cli_game("xlsx", tmp_path) as game:
        write_order(game.open(), 1, "破解")
        _full_disk(monkeypatch)
        for command in ("check", "resolve"):
            out = game.run(command)
            assert out.exit_code == 1, out.output
            assert "锁文件" in out.stderr and os.strerror(errno.ENOSPC) in out.stderr
            assert "Traceback" not in out.output and out.exception is None or isinstance(out.exception, SystemExit)
        monkeypatch.undo()
        with folder_lock(tmp_path, "cy@box", "2024-05-01T12:00:03"):  # the OS lock was freed
            pass
        assert game.run("check").exit_code == 0


def test_a_full_disk_at_a_workbook_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Saving a workbook on a full disk: the system's reason and the file, in the director's language, no
    traceback; the workbooks are as they were (the xlsx gateway saves a copy, then renames it)."""
    from sheetgm.backends.xlsx import gateway

    with cli_game("xlsx", tmp_path) as game:
        write_order(game.open(), 1, "破解")
        before = {p.name: p.read_bytes() for p in (tmp_path / WORKBOOK_DIR).iterdir()}
        real = gateway._new_beside

        def full(path: Path) -> tuple[int, str]:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path.parent))

        monkeypatch.setattr(gateway, "_new_beside", full)
        out = game.run("check")
        monkeypatch.setattr(gateway, "_new_beside", real)
        assert out.exit_code == 1, out.output
        assert os.strerror(errno.ENOSPC) in out.stderr and "Traceback" not in out.output
        assert {p.name: p.read_bytes() for p in (tmp_path / WORKBOOK_DIR).iterdir()} == before


class _LostReply(FlakyGateway):
    """The lock's write lands, but its reply is lost (the call raises)."""

    def write(self, key: str, ops: Sequence[Op]) -> None:
        self.inner.write(key, ops)
        self.writes += 1
        if self.writes == self.fail_at:
            raise ConnectionError("reply lost")


def test_a_lock_write_whose_reply_is_lost_leaves_no_token(tmp_path: Path) -> None:
    gw = _LostReply(MemoryGateway())
    game = make_game(tmp_path, gw)
    gw.arm(1)
    with pytest.raises(ConnectionError):
        take_lock(game, [], "ann@box")
    cells = game.gateway.read(DIRECTOR, [lock_range(game.lang)])[lock_range(game.lang)]
    assert not (cells and cells[0] and cells[0][0]), "the token stayed: every run is refused for 15 minutes"


def test_a_file_the_system_refuses_is_one_line_not_a_traceback(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk while `new` saves game.toml: the system's reason and the file, in the director's language."""
    from typer.testing import CliRunner

    from sheetgm.cli.app import app
    from sheetgm.service import new_game

    draft = tmp_path / "draft.toml"
    draft.write_text('name = "g"\nseed = 1\n[[roster]]\nalias = "A"\ncamp = "survivor"\n[[roster]]\nalias = "H"\n'
                     'camp = "hunter"\n', "utf-8")

    def full(cfg: object, folder: Path, source: Path | None = None) -> Path:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(folder / "game.toml"))

    monkeypatch.setattr(new_game, "save_config", full)
    out = CliRunner().invoke(app, ["new", str(draft), "--game", str(tmp_path / "g")], env={"SHEETGM_LANG": "en"})
    assert out.exit_code == 1
    assert isinstance(out.exception, SystemExit), out.exception
    assert "The system refused" in out.stderr and "game.toml" in out.stderr and os.strerror(errno.ENOSPC) in out.stderr
