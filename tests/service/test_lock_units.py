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
from sheetgm.service.ledger import lock as gamelock
from sheetgm.service.ledger.lock import LOCK_FILE, _file_error, _held_here, lock_is_free, parse_unlocks


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


def test_a_row_wider_than_the_lock_cells_is_read_by_its_first_three(tmp_path: Path) -> None:
    game = make_game(tmp_path, MemoryGateway())
    assert lock_is_free(game, ["", "ann@box", game.now().isoformat(), "a note beside it"])
    assert not lock_is_free(game, ["tok", "ann@box", game.now().isoformat(), "a note beside it"], "bo@box")
    held = gamelock.take_lock(game, ["", "", "", "a note beside it"], "bo@box")
    assert len(held.token) == 16 and int(held.token, 16) >= 0  # 8 random bytes, in hex


def test_a_refusal_names_the_holder_and_when_it_took_the_lock_in_the_directors_voice(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHEETGM_LANG", "zh")
    game = make_game(tmp_path, MemoryGateway())
    since = game.now().isoformat(timespec="seconds")
    with pytest.raises(gamelock.LockedError) as err:
        gamelock.take_lock(game, ["tok", "ann@box", since], "bo@box")
    assert err.value.params == {"holder": "ann@box", "since": gamelock.shown(since, "zh", game.cfg.timezone)}
    assert "周" in err.value.params["since"]
    assert game.cfg.timezone in err.value.params["since"]
    with pytest.raises(gamelock.LockedError) as err:
        gamelock.take_lock(game, ["tok", "", since], "bo@box")  # a token without a holder's name
    assert err.value.params["holder"] == "-"


def test_unlock_holds_the_folder_lock_under_its_own_name_while_it_reads(tmp_path: Path) -> None:
    seen: list[dict[str, object]] = []

    class Peek(MemoryGateway):
        def read(self, key: str, ranges):  # type: ignore[no-untyped-def]
            text = (tmp_path / LOCK_FILE).read_text("utf-8") if (tmp_path / LOCK_FILE).exists() else ""
            seen.append(json.loads(text) if text else {})
            return super().read(key, ranges)

    game = make_game(tmp_path, Peek())
    gamelock.take_lock(game, [], "ann@box")
    seen.clear()
    gamelock.unlock(game, "stuck", "dir@box")
    now = game.now().isoformat(timespec="seconds")
    assert seen[0]["holder"] == "dir@box" and seen[0]["pid"] == os.getpid()
    assert seen[0]["since"] == gamelock.shown(now, game.lang, game.cfg.timezone) and game.cfg.timezone in str(
        seen[0]["since"])


class FakeMsvcrt:
    """msvcrt as Windows has it: locking() records the mode, the byte count and where the file offset stood."""

    LK_NBLCK, LK_UNLCK = 2, 0

    def __init__(self) -> None:
        self.calls: list[tuple[int, int, int]] = []

    def locking(self, fd: int, mode: int, n: int) -> None:
        self.calls.append((mode, n, os.lseek(fd, 0, os.SEEK_CUR)))


def test_on_windows_one_byte_far_from_the_text_is_locked_and_the_text_stays_readable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    fake = FakeMsvcrt()
    monkeypatch.setattr(gamelock.sys, "platform", "win32")
    monkeypatch.setitem(sys.modules, "msvcrt", fake)
    fd = _lock_file(tmp_path, "")
    try:
        gamelock._os_lock(fd)
        assert fake.calls == [(FakeMsvcrt.LK_NBLCK, 1, gamelock._WIN_OFFSET)]
        assert os.lseek(fd, 0, os.SEEK_CUR) == 0  # back at the start: the holder's name is written there
        gamelock._os_unlock(fd)
        assert fake.calls[1] == (FakeMsvcrt.LK_UNLCK, 1, gamelock._WIN_OFFSET)
    finally:
        os.close(fd)
    assert gamelock._WIN_OFFSET == 1 << 20


def _held_by_the_winner(tmp_path: Path, cells: tuple[str, str, str]) -> gamelock.Game:
    """A gateway where another run writes its token right after ours (it won the race)."""

    class Raced(MemoryGateway):
        lock = ""  # the lock's range, once the game is made

        def write(self, key, ops):  # type: ignore[no-untyped-def]
            super().write(key, ops)
            if any(isinstance(op, gamelock.SetValues) and op.range == self.lock and op.rows[0][0] for op in ops):
                super().write(key, [gamelock.SetValues(self.lock, (cells,))])

    gw = Raced()
    game = make_game(tmp_path, gw)
    gw.lock = gamelock.lock_range(game.lang)
    return game


def test_the_loser_of_a_race_names_the_winner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHEETGM_LANG", "zh")
    since = "2024-05-01T12:00:00+08:00"
    game = _held_by_the_winner(tmp_path, ("theirs", "cy@box", since))
    with pytest.raises(gamelock.LockedError) as err:
        gamelock.take_lock(game, [], "bo@box")
    assert err.value.params == {"holder": "cy@box", "since": gamelock.shown(since, "zh", game.cfg.timezone)}
    assert "周三" in err.value.params["since"]
    assert game.cfg.timezone in err.value.params["since"]
    with pytest.raises(gamelock.LockedError) as err:
        gamelock.take_lock(_held_by_the_winner(tmp_path / "b", ("theirs", "", "")), [], "bo@box")
    assert err.value.params == {"holder": "-", "since": "-"}


def test_a_journal_that_cannot_be_read_frees_the_token_just_taken(tmp_path: Path) -> None:
    game = make_game(tmp_path, MemoryGateway())
    rng = gamelock.journal_range(game.lang)
    first = rng.split("!")[0] + "!A2:H2"
    game.gateway.write(gamelock.DIRECTOR, [gamelock.SetValues(first, (("N1-survivor", "resolved", "zz", "{", "}",
                                                                       "x", "y", "z"),))])
    with pytest.raises(gamelock.ServiceError):
        gamelock.take_lock(game, [], "ann@box")
    assert _lock_tab(game, "A2:C2") in ([], [["", "", ""]], [[]])
    assert lock_is_free(game, sum(_lock_tab(game, "A2:C2"), []), "someone@else")
