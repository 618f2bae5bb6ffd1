"""Client-side pacing: at most N reads and N writes in any sliding window.

The per-user Sheets quota is 60 reads and 60 writes a minute. A token bucket
refilling one token a second would still allow a burst of 60 followed by 60
more within one minute, so this keeps a log of the last calls instead and
waits until the oldest one leaves the window. The clock and sleep are
injectable so tests never sleep.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable


class RateLimiter:
    def __init__(
        self,
        reads: int = 55,
        writes: int = 55,
        window: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if reads < 1 or writes < 1 or window <= 0:
            raise ValueError("limits and window must be positive")
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
