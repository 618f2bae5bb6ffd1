"""Client-side pacing: at most N Sheets reads and N Sheets writes in any sliding window.

The per-user Sheets quota is 60 reads and 60 writes a minute (per user and project: a service
account's quota is shared by every process that acts as it). A token bucket refilling one token a
second would still allow a burst of 60 followed by 60 more within one minute, so the limiters keep
a log of the last calls instead and wait until the oldest one leaves the window.

- `RateLimiter`: the log in memory, for one process.
- `SharedRateLimiter`: the log in a file under the user's cache folder, keyed by the account, held
  with an OS lock (``fcntl.flock``; ``msvcrt`` on Windows) while it is read and appended to, never
  while waiting: every sheetgm process of this machine acting as one account shares one budget (a
  ``check`` overlapping a ``resolve``, two games of one service account). The file is opened as the
  cache folder's files are (core/cachedir.py: no link followed, no FIFO waited on, only a regular
  file of this user) and read up to LOG_LIMIT bytes; a log that is damaged (cut, nested, too large,
  another shape) is started anew. A file or folder that cannot be used falls back to the in-memory
  log, with a warning: pacing never stops a run.

Drive calls (sharing, listings) have their own, far larger quota and are not counted here. The
clock and sleep are injectable so tests never sleep.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path

from sheetgm.core.cachedir import cache_dir, json_depth, open_regular, usable_dir

log = logging.getLogger(__name__)
KINDS = ("read", "write")
QUOTA_ENV = "SHEETGM_QUOTA"  # the project's per-user quota a minute, if it was raised above Google's 60
QUOTA = 60
MARGIN = 5  # calls kept in reserve: for the calls' own latency and the clocks'
WINDOW = 60.0
LIMIT = QUOTA - MARGIN
LOG_LIMIT = 1_000_000  # bytes of the shared log read, at most (a minute at 1,000 calls a minute is ~40 kB)


def quota_per_minute(env: dict[str, str] | None = None) -> int:
    """Sheets reads (and writes) a minute per user: ``SHEETGM_QUOTA`` if set to a number, else Google's 60."""
    raw = (os.environ if env is None else env).get(QUOTA_ENV, "").strip()
    return int(raw) if raw.isdigit() and int(raw) > MARGIN else QUOTA


def _check(reads: int, writes: int, window: float) -> None:
    if reads < 1 or writes < 1 or window <= 0:
        raise ValueError("limits and window must be positive")


class RateLimiter:
    def __init__(
        self,
        reads: int = LIMIT,
        writes: int = LIMIT,
        window: float = WINDOW,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        _check(reads, writes, window)
        self.limits = {"read": reads, "write": writes}
        self.window = window
        self.clock = clock
        self.sleep = sleep
        self.waited = 0.0
        self._log: dict[str, deque[float]] = {"read": deque(), "write": deque()}

    def acquire(self, kind: str) -> None:
        """Block until one more call of ``kind`` ("read" or "write") fits in the window."""
        log = self._log[kind]
        while True:
            now = self.clock()
            while log and log[0] <= now - self.window:
                log.popleft()
            if len(log) < self.limits[kind]:
                log.append(now)
                return
            wait = log[0] + self.window - now
            self.waited += wait
            self.sleep(wait)

    def count(self, kind: str) -> int:
        """Calls of ``kind`` in the current window."""
        now = self.clock()
        return sum(1 for t in self._log[kind] if t > now - self.window)


def budget_file(account: str | None, folder: Path | None = None) -> Path:
    """The shared log of one account's calls (its name is a digest: no address in a file name); in ``folder``,
    else the cache folder (where it is, whether or not it may be used: ``shared_limiter`` decides)."""
    digest = hashlib.sha256((account or "anonymous").strip().lower().encode("utf-8")).hexdigest()[:16]
    return (folder or cache_dir()) / f"quota-{digest}.json"


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[int]:
    """The file open and locked (blocking) for this process; freed when the block ends."""
    fd = open_regular(path, os.O_RDWR | os.O_CREAT)
    try:
        if sys.platform == "win32":
            import msvcrt

            msvcrt.locking(fd, msvcrt.LK_LOCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield fd
        finally:
            if sys.platform == "win32":
                import msvcrt

                os.lseek(fd, 0, os.SEEK_SET)
                msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
            else:
                import fcntl

                fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _read_log(fd: int) -> dict[str, list[float]]:
    """The log's times by kind; empty lists for a log that is damaged (cut, nested, too large, another shape):
    a new one is started (at worst one window is over-spent)."""
    empty: dict[str, list[float]] = {k: [] for k in KINDS}
    if os.fstat(fd).st_size > LOG_LIMIT:
        return empty
    os.lseek(fd, 0, os.SEEK_SET)
    chunks, size = [], 0
    while size <= LOG_LIMIT and (chunk := os.read(fd, LOG_LIMIT + 1 - size)):
        chunks.append(chunk)
        size += len(chunk)
    raw = b"".join(chunks)
    if size > LOG_LIMIT or not json_depth(raw, 2):
        return empty
    try:
        data = json.loads(raw.decode("utf-8") or "{}")
        times = {k: data.get(k, []) for k in KINDS}
        if all(isinstance(v, list) and all(type(t) in (int, float) for t in v) for v in times.values()):
            return {k: [float(t) for t in v] for k, v in times.items()}
    except (ValueError, TypeError, AttributeError, RecursionError):
        pass
    return empty


def _write_log(fd: int, data: dict[str, list[float]]) -> None:
    text = json.dumps(data, separators=(",", ":")).encode("utf-8")
    os.lseek(fd, 0, os.SEEK_SET)
    os.ftruncate(fd, 0)
    os.write(fd, text)


class SharedRateLimiter(RateLimiter):
    """The sliding window of `RateLimiter`, its log in ``path`` shared by every process that uses it."""

    def __init__(
        self,
        path: Path,
        reads: int = LIMIT,
        writes: int = LIMIT,
        window: float = WINDOW,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        super().__init__(reads, writes, window, clock, sleep)
        self.path = Path(path)
        self.shared = True

    def _prune(self, data: dict[str, list[float]], now: float) -> dict[str, list[float]]:
        # Times ahead of now by more than a window come from a clock that went back: forget them.
        return {k: [t for t in data.get(k, []) if now - self.window < t <= now + self.window] for k in KINDS}

    def acquire(self, kind: str) -> None:
        while True:
            if not self.shared:
                return super().acquire(kind)
            try:
                with _locked(self.path) as fd:
                    now = self.clock()
                    data = self._prune(_read_log(fd), now)
                    times = sorted(data[kind])
                    if len(times) < self.limits[kind]:
                        data[kind] = [*times, now]
                        _write_log(fd, data)
                        return
                    wait = max(times[len(times) - self.limits[kind]] + self.window - now, 0.01)
            except OSError as exc:
                log.warning("the shared quota log %s cannot be used (%s): pacing this process alone",
                            self.path, type(exc).__name__)
                self.shared = False
                continue
            self.waited += wait
            self.sleep(wait)  # never while holding the file: the other processes go on meanwhile

    def count(self, kind: str) -> int:
        if not self.shared:
            return super().count(kind)
        try:
            with _locked(self.path) as fd:
                now = self.clock()
                return len(self._prune(_read_log(fd), now)[kind])
        except OSError:
            return super().count(kind)


def shared_limiter(account: str | None, folder: Path | None = None) -> RateLimiter:
    """The limiter of every process acting as ``account`` on this machine; the in-memory one if there is no
    cache folder to use (core/cachedir.py: one that cannot be made, or one refused, which the script warns of)."""
    limit = quota_per_minute() - MARGIN
    if folder is None:
        folder = usable_dir()
        if folder is None:
            log.warning("no cache folder for the shared quota log: pacing this process alone")
            return RateLimiter(limit, limit)
    else:
        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as exc:
            log.warning("no folder for the shared quota log (%s): pacing this process alone", type(exc).__name__)
            return RateLimiter(limit, limit)
    return SharedRateLimiter(budget_file(account, folder), limit, limit)
