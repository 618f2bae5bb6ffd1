"""Issue 8.6: one resolve at a time, for real.

Two real `sheetgm resolve` processes started at the same instant on one xlsx game, 20 times, meeting at the
game folder's lock after each has read the journal: exactly one resolves, the other is refused with the
"locked" message, and every workbook still opens and verifies.
The Google token: a loser reads someone else's token and backs off; freeing after a failure clears only
our own token; the same holder does not wait out its own stale lock; `sheetgm unlock` clears a stuck lock,
recorded (who, when, why) and shown by `sheetgm status`.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import openpyxl
import pytest
from cli_games import cli_game
from svc_helpers import FlakyGateway, make_game, write_order

from sheetgm.backends.memory import MemoryGateway
from sheetgm.backends.port import Op, SetValues
from sheetgm.backends.xlsx.gateway import FILES
from sheetgm.cli.main import main
from sheetgm.service.errors import LockedError
from sheetgm.service.game import DIRECTOR, WORKBOOK_DIR, open_game
from sheetgm.service.ledger import lock as gamelock
from sheetgm.service.ledger import stamps
from sheetgm.service.ledger.journal import PUBLISHED, lock_range, read_director
from sheetgm.service.ledger.lock import LOCK_FILE, folder_lock, take_lock, try_release
from sheetgm.service.resolve import resolve
from sheetgm.service.verify import verify

RUNS = 20


@dataclass
class Pipes:
    """The start signal, the meeting at the lock and the winner's hold (read ends, write ends)."""

    go: tuple[int, int] = field(default_factory=os.pipe)
    ready: tuple[int, int] = field(default_factory=os.pipe)
    race: tuple[int, int] = field(default_factory=os.pipe)
    hold: tuple[int, int] = field(default_factory=os.pipe)

    def close(self) -> None:
        for r, w in (self.go, self.ready, self.race, self.hold):
            os.close(r)
            os.close(w)


def _spawn(folder: Path, pipes: Pipes, out: Path) -> int:
    """A real `sheetgm resolve` process, forked from this one (sheetgm already imported: no start-up skew),
    that starts on a byte on ``go``; its stdout and stderr go to ``out``.{1,2}; returns its pid.

    Once it has read the journal it says so and waits at the game folder's OS lock until both runs are
    there, so both race for the lock with the same journal; the one that gets it holds it until the test
    lets it go on (after the other run has ended), so the run that lost always finds the lock taken."""
    pid = os.fork()
    if pid:
        return pid
    code = 70
    try:
        for fd, suffix in ((1, ".1"), (2, ".2")):
            target = os.open(str(out) + suffix, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(target, fd)
        sys.stdout, sys.stderr = (open(fd, "w", encoding="utf-8", closefd=False) for fd in (1, 2))  # not pytest's
        for fd in (pipes.go[1], pipes.ready[0], pipes.race[1], pipes.hold[1]):
            os.close(fd)  # only the test writes the signals: if it stops, the reads here end
        real = gamelock.folder_lock

        @contextmanager
        def at_the_lock(where: Path, holder: str, since: str) -> Iterator[None]:
            os.write(pipes.ready[1], b"r")
            os.read(pipes.race[0], 1)
            with real(where, holder, since):
                os.read(pipes.hold[0], 1)
                yield

        gamelock.folder_lock = at_the_lock  # type: ignore[assignment]  # this child process only
        os.read(pipes.go[0], 1)
        sys.argv = ["sheetgm", "resolve", "--game", str(folder), "--stage", "N1-survivor"]
        try:
            main()
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _read(fd: int, n: int) -> bytes:
    """``n`` bytes from ``fd``, or fail after a minute (a child that died before its signal)."""
    got = b""
    while len(got) < n:
        assert select.select([fd], [], [], 60)[0], f"no signal from the runs after {got!r}"
        got += os.read(fd, n - len(got))
    return got


def _wait_for_one(pids: list[int], statuses: dict[int, int]) -> None:
    """Wait until one more of ``pids`` has ended (its wait status in ``statuses``), or fail after a minute."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for pid in pids:
            if pid not in statuses:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    statuses[pid] = status
                    return
        time.sleep(0.005)
    for pid in pids:
        if pid not in statuses:
            os.kill(pid, 9)
            statuses[pid] = os.waitpid(pid, 0)[1]
    raise AssertionError("neither run ended while the other waited at the lock: both held it?")


def _lock_cells(game) -> list[str]:  # type: ignore[no-untyped-def]
    rng = lock_range(game.lang)
    return list((game.gateway.read(DIRECTOR, [rng])[rng] or [[]])[0])


def test_two_resolves_started_together_twenty_times(tmp_path: Path) -> None:
    template = tmp_path / "template"
    game = make_game(template, None, backend="xlsx")  # the gateway the config names: files named by alias
    for seat in (1, 2, 3):
        write_order(game, seat, "破解")
    import sheetgm.cli.present  # noqa: F401 - loaded before the children start, as the command would

    outcomes = []
    for run in range(RUNS):
        folder = tmp_path / f"run{run}"
        shutil.copytree(template, folder)
        pipes = Pipes()
        pids = [_spawn(folder, pipes, tmp_path / f"out{run}-{i}") for i in range(2)]
        statuses: dict[int, int] = {}
        try:
            os.write(pipes.go[1], b"go")  # both start now
            _read(pipes.ready[0], 2)  # both have read the journal, neither has the lock
            os.write(pipes.race[1], b"rr")  # both try the lock at once
            _wait_for_one(pids, statuses)  # one ends (refused) while the other holds the lock
            os.write(pipes.hold[1], b"h")  # the holder goes on
            _wait_for_one(pids, statuses)
        finally:
            pipes.close()
        results = []
        for i, pid in enumerate(pids):
            texts = [(tmp_path / f"out{run}-{i}.{n}").read_text("utf-8") for n in (1, 2)]
            results.append((os.waitstatus_to_exitcode(statuses[pid]), *texts))
        won = [r for r in results if r[0] == 0]
        lost = [r for r in results if r[0] != 0]
        assert len(won) == 1 and len(lost) == 1, results
        assert "N1-survivor 已结算并发布" in won[0][1]
        assert lost[0][0] == 1 and "本机另一个 sheetgm 进程正在处理这局游戏" in lost[0][2], lost
        assert "Traceback" not in lost[0][2]
        for path in sorted((folder / WORKBOOK_DIR).iterdir()):
            if path.name == FILES:
                continue
            assert path.suffix == ".xlsx", f"left behind: {path.name}"
            openpyxl.load_workbook(path)  # never damaged (openpyxl as a witness of our own codec's files)
        after = open_game(folder)
        entries, lock = read_director(after)
        assert [e.key for e in entries] == ["N0-setup", "N1-survivor"] and entries[-1].status == PUBLISHED
        assert not (lock and lock[0]) and verify(after).ok
        outcomes.append("one resolved, one refused")
    assert outcomes == ["one resolved, one refused"] * RUNS


def test_the_folder_lock_names_the_process_and_is_freed_with_it(tmp_path: Path) -> None:
    with folder_lock(tmp_path, "ann@box", "2024-05-01T12:00:00"):
        with pytest.raises(LockedError) as err, folder_lock(tmp_path, "bo@box", "2024-05-01T12:00:01"):
            pass
        assert f"进程 {os.getpid()}" in err.value.message("zh") and "ann@box" in err.value.message("zh")
    with folder_lock(tmp_path, "bo@box", "2024-05-01T12:00:02"):  # freed on exit
        assert json.loads((tmp_path / LOCK_FILE).read_text())["holder"] == "bo@box"
    kid = subprocess.run([sys.executable, "-c", "import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDWR);"
                          "fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB); os._exit(9)", str(tmp_path / LOCK_FILE)])
    assert kid.returncode == 9  # a killed holder's lock is gone with it
    with folder_lock(tmp_path, "cy@box", "2024-05-01T12:00:03"):
        pass


class _Racer(FlakyGateway):
    """Right after our token is written, another run's token lands (it read the lock free before ours)."""

    raced = False

    def write(self, key: str, ops: Sequence[Op]) -> None:
        super().write(key, ops)
        if key == DIRECTOR and any(isinstance(op, SetValues) and op.range.endswith("!A2:C2") and op.rows[0][0]
                                   for op in ops) and not self.raced:
            self.raced = True
            self.inner.write(key, [SetValues(ops[0].range, (("othertoken", "ci@runner", "2024-05-01T12:00:00"),))])


@pytest.mark.parametrize("backend", ["memory", "google"])
def test_a_loser_reads_someone_elses_token_and_backs_off(backend: str, tmp_path: Path) -> None:
    from fakes.google import FakeGoogle

    with FakeGoogle() as fake:
        inner = MemoryGateway() if backend == "memory" else fake.gateway()
        racer = _Racer(inner)
        game = make_game(tmp_path, racer)
        write_order(game, 1, "破解")
        racer.raced = False
        with pytest.raises(LockedError) as err:
            resolve(game)
        assert "ci@runner" in err.value.message("zh")
        assert _lock_cells(game)[:2] == ["othertoken", "ci@runner"]  # the winner's token is left alone
        assert racer.raced
        assert [e.key for e in read_director(game)[0]] == ["N0-setup"]


def test_freeing_after_a_failure_clears_only_our_own_token(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw)
    held = take_lock(game, [], "ann@box")
    try_release(game, "not-ours")
    assert _lock_cells(game)[0] == held.token
    try_release(game, held.token)
    assert not _lock_cells(game)


def test_the_same_holder_does_not_wait_out_its_own_stale_lock(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw)
    write_order(game, 1, "破解")
    take_lock(game, [], "github-actions@forum/games")  # a run killed before it released
    with pytest.raises(LockedError):
        resolve(game, holder="director@laptop")
    assert resolve(game, holder="github-actions@forum/games").action == "resolved"
    assert not _lock_cells(game)


def test_a_run_goes_on_from_the_journal_it_read_back_with_the_lock(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A run that read the journal just before another run resolved the stage does not resolve it again."""
    game = make_game(tmp_path, MemoryGateway())
    write_order(game, 1, "破解")
    stale = stamps.read_desk(game)
    assert resolve(game).action == "resolved"
    monkeypatch.setattr(stamps, "read_desk", lambda _game: stale)
    again = resolve(game, stage="N1-survivor")
    assert again.action == "nothing"
    assert [e.key for e in read_director(game)[0]] == ["N0-setup", "N1-survivor"]


@pytest.mark.parametrize("backend", ["xlsx", "google"])
def test_unlock_clears_a_stuck_lock_and_is_recorded(backend: str, tmp_path: Path) -> None:
    with cli_game(backend, tmp_path) as game:
        g = game.open()
        write_order(g, 1, "破解")
        g.clock = lambda: datetime.now(UTC)  # the commands run on the real clock: a fresh lock
        take_lock(g, [], "ci@killed-runner")  # a resolve killed on another machine
        stuck = game.run("resolve")
        assert stuck.exit_code == 1 and "ci@killed-runner" in stuck.stderr and "sheetgm unlock" in stuck.stderr
        assert "ci@killed-runner" in game.run("status").stdout
        assert game.run("unlock", "--reason", "  ").exit_code == 1
        done = game.run("unlock", "--reason", "the runner was cancelled", "--json")
        assert done.exit_code == 0, done.output
        doc = json.loads(done.stdout)
        assert doc["cleared"] and doc["holder"] == "ci@killed-runner" and doc["reason"] == "the runner was cancelled"
        rows = game.open().gateway.read(DIRECTOR, ["'锁'!A4:E5"])["'锁'!A4:E5"]
        assert rows[0][0] == "手工解锁时间" and rows[1][1:] == [doc["by"], "ci@killed-runner", doc["since"],
                                                               "the runner was cancelled"]
        status = game.run("status")
        assert "手工解锁" in status.stdout and "the runner was cancelled" in status.stdout
        assert json.loads(game.run("status", "--json").stdout)["unlocks"][0]["holder"] == "ci@killed-runner"
        assert game.run("unlock", "--reason", "again").stdout.strip() == "锁是空的，无需清除。"
        assert game.run("resolve").exit_code == 0


def test_unlock_never_frees_a_run_alive_on_this_machine(tmp_path: Path) -> None:
    with cli_game("xlsx", tmp_path) as game:
        take_lock(game.open(), [], "ann@box")
        with folder_lock(tmp_path, "ann@box", "2024-05-01T12:00:00"):
            refused = game.run("unlock", "--reason", "impatient")
        assert refused.exit_code == 1 and "本机另一个 sheetgm 进程" in refused.stderr
        assert _lock_cells(game.open())[1] == "ann@box"


def test_a_check_is_refused_while_another_process_holds_the_local_files(tmp_path: Path) -> None:
    """A check saves the director's and the players' .xlsx files whole: while another process holds the game
    folder (a resolve publishing), a check that wrote them could lose that run's cells. It is refused instead,
    and writes nothing; once the folder is free it runs."""
    with cli_game("xlsx", tmp_path) as game:
        write_order(game.open(), 1, "破解")
        before = {p.name: p.read_bytes() for p in (tmp_path / WORKBOOK_DIR).iterdir()}
        with folder_lock(tmp_path, "ann@box", "2024-05-01T12:00:00"):
            refused = game.run("check")
        assert refused.exit_code == 1 and "本机另一个 sheetgm 进程正在处理这局游戏" in refused.stderr, refused.output
        assert "Traceback" not in refused.output
        assert {p.name: p.read_bytes() for p in (tmp_path / WORKBOOK_DIR).iterdir()} == before
        assert game.run("check").exit_code == 0


def _github_run(monkeypatch: pytest.MonkeyPatch, run_id: str, attempt: str = "1") -> str:
    from sheetgm.cli.common import holder

    monkeypatch.delenv("SHEETGM_HOLDER", raising=False)
    for key, value in {"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "forum/games", "GITHUB_WORKFLOW": "resolve",
                       "GITHUB_RUN_ID": run_id, "GITHUB_RUN_ATTEMPT": attempt}.items():
        monkeypatch.setenv(key, value)
    return holder()


def test_two_github_runs_never_both_hold_the_lock(gw, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29.4: every run took the lock as the same holder, so a lock another run took a minute earlier
    counted as free. The holder names the run and its attempt; the steps of one run share it."""
    game = make_game(tmp_path, gw)
    first = _github_run(monkeypatch, "9001")
    assert first == "github-actions@forum/games/resolve#9001.1"
    held = take_lock(game, [], first)
    for other in (_github_run(monkeypatch, "9002"), _github_run(monkeypatch, "9001", attempt="2")):
        assert other != first
        with pytest.raises(LockedError):
            take_lock(game, _lock_cells(game), other)
        assert _lock_cells(game)[0] == held.token
    assert take_lock(game, _lock_cells(game), _github_run(monkeypatch, "9001")).token != held.token  # same run
