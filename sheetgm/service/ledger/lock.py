"""The game lock: one run at a time changes a game.

Two locks, taken in this order and held for the whole run:

1. an OS lock on ``<game folder>/.sheetgm.lock`` (``fcntl.flock``; ``msvcrt`` on
   Windows). It excludes every other sheetgm process on this machine, so local
   .xlsx workbooks are never written by two runs at once (``check`` takes it
   too, alone). The OS frees it when the process ends, even when it is killed.
2. a token in the director workbook's Lock tab (A2 token, B2 holder, C2 since),
   for runs on other machines (a Google game run by the scheduled job and by the
   director). A run writes its token and reads it back with the journal: a loser
   reads someone else's token and backs off; the winner goes on from the journal
   it read back, never from what it read before taking the lock.

A token left by a killed run expires after ``LOCK_TTL``; the same holder (one
GitHub run and attempt, whose check and resolve share it, or the same user on the
same machine) takes its own token over at once, while another run (any other run
id) waits for it to expire (``cli.common.holder``); ``sheetgm unlock --reason`` clears it by hand,
recorded below the lock (who, when, why) and shown by ``sheetgm status``.
Freeing after a failure compares the token first: a run only ever clears its own.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sheetgm.backends.port import SetBold, SetValues
from sheetgm.core.texts import render
from sheetgm.core.values import Value, record
from sheetgm.notation.times import shown
from sheetgm.service.errors import LockedError, ServiceError
from sheetgm.service.game import DIRECTOR, Game
from sheetgm.service.ledger.journal import Entry, journal_range, lock_range, parse_entries, release_op
from sheetgm.service.ledger.stamps import archive_range
from sheetgm.sheets import layout

LOCK_TTL = timedelta(minutes=15)
LOCK_FILE = ".sheetgm.lock"
UNLOCKS_HEAD_ROW = 4  # the record of hand unlocks sits below the lock cells of the Lock tab
_WIN_OFFSET = 1 << 20  # Windows locks a byte range: lock one far from the text, which stays readable


# -- 1. the OS lock on the game folder -----------------------------------------------------------

def _os_lock(fd: int) -> None:
    if sys.platform == "win32":
        import msvcrt

        os.lseek(fd, _WIN_OFFSET, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        os.lseek(fd, 0, os.SEEK_SET)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _os_unlock(fd: int) -> None:
    if sys.platform == "win32":
        import msvcrt

        os.lseek(fd, _WIN_OFFSET, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_UN)


@contextmanager
def folder_lock(folder: Path, holder: str, since: str) -> Iterator[None]:
    """Hold the game folder's OS lock, or raise LockedError naming the process that holds it. A lock file that
    cannot be made or written (a full disk, a read-only folder) is a one-line error naming the file."""
    path = Path(folder) / LOCK_FILE
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise _file_error(path, exc) from None
    try:
        try:
            _os_lock(fd)
        except OSError:
            raise _held_here(fd) from None
        try:
            try:
                os.ftruncate(fd, 0)
                os.lseek(fd, 0, os.SEEK_SET)
                os.write(fd, json.dumps({"holder": holder, "pid": os.getpid(), "since": since}).encode("utf-8"))
            except OSError as exc:
                raise _file_error(path, exc) from None
            yield
        finally:
            try:
                os.ftruncate(fd, 0)
            except OSError:
                pass  # the file says who held it; the OS lock below is what counts, and it is freed
            _os_unlock(fd)
    finally:
        os.close(fd)


def _file_error(path: Path, exc: OSError) -> ServiceError:
    return ServiceError("err.svc.lock_file", path=str(path), detail=exc.strerror or type(exc).__name__)


HOLDER_WAIT = 1.0  # seconds a loser waits for the winner to write who it is (it writes right after locking)


def _held_here(fd: int) -> LockedError:
    """The error naming the process that holds the lock. The holder writes its name right after it takes the
    lock: a run that loses in between waits a moment for it, and never prints "?" for what it could not read."""
    info: dict[str, Any] = {}
    waited = 0.0
    while True:
        try:
            os.lseek(fd, 0, os.SEEK_SET)
            text = os.read(fd, 4096).decode("utf-8")
            info = json.loads(text) if text.strip() else {}
        except (OSError, ValueError):
            info = {}
        if (isinstance(info, dict) and info.get("pid")) or waited >= HOLDER_WAIT:
            break
        time.sleep(0.02)
        waited += 0.02
    if not isinstance(info, dict) or not info.get("pid"):
        return LockedError("err.svc.locked_here_unknown")
    return LockedError("err.svc.locked_here", holder=info.get("holder") or "-", pid=info["pid"],
                       since=info.get("since") or "-")


# -- 2. the token in the director workbook -------------------------------------------------------

@record(frozen=True)
class Held(Value):
    """The game lock taken: its token and the journal and archive read with it."""

    token: str
    entries: list[Entry]  # the journal as read back with the token: the state the run goes on from
    archive: list[list[str]]  # the Orders archive's rows (the tool's stamps, stamps.py), read back with it


def _cells(cells: list[str]) -> list[str]:
    return list(cells) + [""] * (3 - len(cells))


def lock_is_free(game: Game, cells: list[str], holder: str | None = None) -> bool:
    """No token, an expired one, or one of ``holder`` itself (its own run was killed: no need to wait)."""
    token, who, since = _cells(cells)[:3]
    if not token or (holder is not None and who == holder):
        return True
    try:
        return game.now() - datetime.fromisoformat(since) > LOCK_TTL
    except (TypeError, ValueError):
        return True


def take_lock(game: Game, cells: list[str], holder: str) -> Held:
    """Write our token into the lock, then read it back with the journal and the Orders archive: only one of
    two racing runs sees its own token, and it goes on from the journal and the stamps as they are now (the
    other may have just finished a stage, a check may have just stamped an order)."""
    token, who, since = _cells(cells)[:3]
    if not lock_is_free(game, cells, holder):
        raise LockedError(holder=who or "-", since=shown(since, game.voice, game.cfg.timezone) if since else "-")
    mine = os.urandom(8).hex()  # secrets.token_hex(8) is this; importing secrets loads OpenSSL (hmac)
    lang = game.lang
    try:
        since = game.now().isoformat(timespec="seconds")
        game.gateway.write(DIRECTOR, [SetValues(lock_range(lang), ((mine, holder, since),))])
        got = game.gateway.read(DIRECTOR, [lock_range(lang), journal_range(lang), archive_range(lang)])
    except BaseException:
        # The write may have landed (a lost reply) though we cannot confirm it: free the lock again,
        # if it is ours, or every run would be refused until it expires.
        try_release(game, mine)
        raise
    back = _cells((got[lock_range(lang)] or [[]])[0])
    if back[0] != mine:
        raise LockedError(holder=back[1] or "-",
                          since=shown(back[2], game.voice, game.cfg.timezone) if back[2] else "-")
    try:
        entries = parse_entries(got[journal_range(lang)], lang)
    except BaseException:
        try_release(game, mine)
        raise
    return Held(mine, entries, got[archive_range(lang)])


def try_release(game: Game, token: str) -> None:
    """Free the lock after a failed run, if it still holds our token and the workbook can still be written."""
    lang = game.lang
    try:
        cells = _cells((game.gateway.read(DIRECTOR, [lock_range(lang)])[lock_range(lang)] or [[]])[0])
        if cells[0] == token:
            game.gateway.write(DIRECTOR, [release_op(lang)])
    except Exception:  # noqa: BLE001 - the lock also expires by itself (LOCK_TTL)
        pass


@contextmanager
def holding(game: Game, cells: list[str], holder: str) -> Iterator[Held]:
    """Both locks for one run. The run frees the token itself in its last write (``release_op``);
    if it fails, the token is freed here (when it is still ours) and the OS lock in any case."""
    with folder_lock(game.folder, holder, shown(game.now(), game.lang, game.cfg.timezone)):
        held = take_lock(game, cells, holder)
        try:
            yield held
        except BaseException:
            try_release(game, held.token)
            raise


# -- sheetgm unlock ------------------------------------------------------------------------------

def unlocks_range(lang: str) -> str:
    return layout.rng(layout.tab(lang, "lock"), f"A{UNLOCKS_HEAD_ROW + 1}:E")


@record
class UnlockReport:
    """What `sheetgm unlock` cleared, and whose lock it was."""

    cleared: bool
    holder: str
    since: str
    by: str
    at: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def unlock(game: Game, reason: str, holder: str) -> UnlockReport:
    """Clear the token of a run that will not finish (killed, lost runner), and record who, when and why.
    A run still alive on this machine keeps its OS lock: it is never unlocked from under it."""
    reason = " ".join(reason.split())
    if not reason:
        raise ServiceError("err.svc.no_unlock_reason")
    lang = game.lang
    now = game.now().isoformat(timespec="seconds")
    with folder_lock(game.folder, holder, shown(now, lang, game.cfg.timezone)):
        got = game.gateway.read(DIRECTOR, [lock_range(lang), unlocks_range(lang)])
        token, who, since = _cells((got[lock_range(lang)] or [[]])[0])[:3]
        rep = UnlockReport(bool(token), who, since, holder, now, reason)
        if not token:
            return rep
        r = UNLOCKS_HEAD_ROW + 1 + len(got[unlocks_range(lang)])
        lock_tab = layout.tab(lang, "lock")
        head = tuple(render(lang, "sheet.head.d_unlocks").split("|"))
        game.gateway.write(DIRECTOR, [
            release_op(lang),
            SetValues(layout.rng(lock_tab, f"A{UNLOCKS_HEAD_ROW}:E{UNLOCKS_HEAD_ROW}"), (head,)),
            SetBold(layout.rng(lock_tab, f"A{UNLOCKS_HEAD_ROW}:E{UNLOCKS_HEAD_ROW}")),
            SetValues(layout.rng(lock_tab, f"A{r}:E{r}"), ((now, holder, who, since, reason),)),
        ])
    return rep


def parse_unlocks(rows: list[list[str]]) -> list[dict[str, str]]:
    """The hand unlocks recorded below the lock, oldest first."""
    out = []
    for raw in rows:
        cells = list(raw) + [""] * (5 - len(raw))
        if cells[0]:
            out.append({"at": cells[0], "by": cells[1], "holder": cells[2], "since": cells[3], "reason": cells[4]})
    return out
