"""The lock's small parts, each on its own: what a loser reads from the lock file (and how long it waits for it),
the lock file's error, the token's expiry and owner, and the record of hand unlocks."""

from __future__ import annotations

import json
import os
from datetime import timedelta
from pathlib import Path

import pytest
from svc_helpers import make_game

from sheetgm.backends.memory import MemoryGateway
from sheetgm.service import lock as gamelock
from sheetgm.service.lock import LOCK_FILE, _file_error, _held_here, lock_is_free, parse_unlocks


class Sleeps:
    """time.sleep as the loser calls it: recorded, never slept; a loop that would not end fails the test."""

    def __init__(self) -> None:
        self.calls: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)
        assert len(self.calls) < 50, "the loser never stops waiting"


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> Sleeps:
    s = Sleeps()
    monkeypatch.setattr(gamelock.time, "sleep", s)
    return s


def _lock_file(tmp_path: Path, text: str) -> int:
    path = tmp_path / LOCK_FILE
    path.write_text(text, "utf-8")
    return os.open(path, os.O_RDWR)


def _held(tmp_path: Path, text: str) -> gamelock.LockedError:
    fd = _lock_file(tmp_path, text)
    try:
        os.lseek(fd, 0, os.SEEK_END)  # the loser reads from the start whatever the offset
        return _held_here(fd)
    finally:
        os.close(fd)


def test_a_named_holder_is_told_at_once(tmp_path: Path, sleeps: Sleeps) -> None:
    err = _held(tmp_path, json.dumps({"holder": "ann@box", "pid": 4242, "since": "05-01 12:00"}))
    assert err.code == "err.svc.locked_here"
    assert err.params == {"holder": "ann@box", "pid": 4242, "since": "05-01 12:00"}
    assert sleeps.calls == []  # the holder had written who it is: no wait


def test_a_holder_without_name_or_time_is_shown_as_a_dash(tmp_path: Path, sleeps: Sleeps) -> None:
    err = _held(tmp_path, json.dumps({"pid": 7, "holder": "", "since": None}))
    assert err.params == {"holder": "-", "pid": 7, "since": "-"}
    assert "进程 7，-，开始于 -" in err.message("zh")
    assert sleeps.calls == []


@pytest.mark.parametrize("text", ["", "   ", "{not json", json.dumps({"holder": "ann@box"}), json.dumps([1, 2]),
                                  json.dumps({"pid": 0, "holder": "ann@box"})])
def test_a_holder_that_never_writes_its_pid_is_waited_for_then_told_plainly(
        tmp_path: Path, sleeps: Sleeps, monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(gamelock, "HOLDER_WAIT", 0.05)
    err = _held(tmp_path, text)
    assert err.code == "err.svc.locked_here_unknown" and err.params == {}
    assert sleeps.calls == [0.02, 0.02, 0.02]  # 0.02 s at a time until HOLDER_WAIT has passed: 0.06 >= 0.05


def test_no_wait_at_all_when_holder_wait_is_zero(tmp_path: Path, sleeps: Sleeps,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gamelock, "HOLDER_WAIT", 0.0)
    assert _held(tmp_path, "").code == "err.svc.locked_here_unknown"
    assert sleeps.calls == []


def test_a_holder_that_writes_while_the_loser_waits_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fd = _lock_file(tmp_path, "")
    calls: list[float] = []

    def sleep(seconds: float) -> None:  # the holder writes its name during the loser's second wait
        calls.append(seconds)
        if len(calls) == 2:
            (tmp_path / LOCK_FILE).write_text(json.dumps({"holder": "bo@box", "pid": 9, "since": "s"}), "utf-8")

    monkeypatch.setattr(gamelock.time, "sleep", sleep)
    try:
        err = _held_here(fd)
    finally:
        os.close(fd)
    assert err.params == {"holder": "bo@box", "pid": 9, "since": "s"} and len(calls) == 2


def test_the_lock_file_error_names_the_file_and_the_reason(tmp_path: Path) -> None:
    path = tmp_path / LOCK_FILE
    err = _file_error(path, OSError(28, "No space left on device"))
    assert err.code == "err.svc.lock_file"
    assert err.params == {"path": str(path), "detail": "No space left on device"}
    assert str(path) in err.message("en")
    bare = _file_error(path, PermissionError())  # no strerror: the kind of error is the reason
    assert bare.params == {"path": str(path), "detail": "PermissionError"}


def test_the_token_expires_after_the_ttl_and_its_own_holder_need_not_wait(tmp_path: Path) -> None:
    game = make_game(tmp_path, MemoryGateway())
    now = game.now()
    at = (now - gamelock.LOCK_TTL).isoformat()  # exactly the TTL ago: not yet expired
    assert not lock_is_free(game, ["tok", "ann@box", at])
    assert lock_is_free(game, ["tok", "ann@box", (now - gamelock.LOCK_TTL - timedelta(seconds=1)).isoformat()])
    assert not lock_is_free(game, ["tok", "ann@box", now.isoformat()], "bo@box")
    assert lock_is_free(game, ["tok", "ann@box", now.isoformat()], "ann@box")
    assert not lock_is_free(game, ["tok", "", now.isoformat()], None)  # no holder named is nobody's own
    assert lock_is_free(game, ["", "ann@box", now.isoformat()])
    assert lock_is_free(game, ["tok", "ann@box", "not a time"]) and lock_is_free(game, ["tok"])
    assert gamelock.LOCK_TTL == timedelta(minutes=15)


def test_hand_unlocks_are_read_row_by_row_short_rows_padded() -> None:
    rows = [["2024-05-01T12:00:00", "dir@box", "ann@box", "2024-05-01T11:00:00", "killed"],
            ["2024-05-02T12:00:00", "dir@box"], [], ["", "no time: not an unlock", "x", "y", "z"]]
    assert parse_unlocks(rows) == [
        {"at": "2024-05-01T12:00:00", "by": "dir@box", "holder": "ann@box", "since": "2024-05-01T11:00:00",
         "reason": "killed"},
        {"at": "2024-05-02T12:00:00", "by": "dir@box", "holder": "", "since": "", "reason": ""},
    ]


def _lock_tab(game: gamelock.Game, a1: str) -> list[list[str]]:
    rng = gamelock.layout.rng(gamelock.layout.tab(game.lang, "lock"), a1)
    return game.gateway.read(gamelock.DIRECTOR, [rng])[rng]


def test_unlock_needs_a_reason_and_records_each_unlock_below_the_last(tmp_path: Path) -> None:
    game = make_game(tmp_path, MemoryGateway())
    for blank in ("", "  \n\t "):
        with pytest.raises(gamelock.ServiceError) as err:
            gamelock.unlock(game, blank, "dir@box")
        assert err.value.code == "err.svc.no_unlock_reason"
    empty = gamelock.unlock(game, "nothing to clear", "dir@box")
    assert not empty.cleared and empty.holder == "" and _lock_tab(game, "A4:E6") == []  # nothing recorded
    for n, holder in enumerate(("ann@box", "bo@box")):
        held = gamelock.take_lock(game, [], holder)
        rep = gamelock.unlock(game, f"  run {n}\n killed ", "dir@box")
        assert rep.to_dict() == {"cleared": True, "holder": holder, "since": rep.since, "by": "dir@box",
                                 "at": game.now().isoformat(timespec="seconds"), "reason": f"run {n} killed"}
        assert rep.since and held.token not in sum(_lock_tab(game, "A2:C2"), [])
    rows = _lock_tab(game, "A4:E7")
    assert tuple(rows[0]) == tuple(gamelock.render(game.lang, "sheet.head.d_unlocks").split("|"))
    assert [r[1:] for r in rows[1:]] == [["dir@box", "ann@box", rows[1][4 - 1], "run 0 killed"],
                                         ["dir@box", "bo@box", rows[2][4 - 1], "run 1 killed"]]
    assert [u["holder"] for u in parse_unlocks(_lock_tab(game, "A5:E"))] == ["ann@box", "bo@box"]
    assert gamelock.unlocks_range(game.lang).endswith("!A5:E")
