"""Google's per-minute Sheets quotas, enforced by `FakeGoogle` when a test or benchmark asks for it.

Sheets counts read requests (GET) and write requests (everything else) per user (per project) in a
window of a minute; past the limit it answers 429 ``RESOURCE_EXHAUSTED`` with an ``ErrorInfo``
(``RATE_LIMIT_EXCEEDED``, the quota metric and limit named: `errors.sheets_quota`). A refused request
is not counted. Drive has its own quota (12,000 a minute per user): not enforced here.

    fake.enforce_quota(reads=60, writes=60, window=60.0, clock=clock.time)
    ...
    assert fake.refused() == 0
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Quota:
    reads: int = 60
    writes: int = 60
    window: float = 60.0
    clock: Callable[[], float] = lambda: 0.0
    log: dict[tuple[str, str], deque[float]] = field(default_factory=dict)  # (user, kind) -> admitted at
    refusals: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def admit(self, who: str, kind: str) -> bool:
        """Count one Sheets request of ``kind`` ("read" or "write") by ``who``; False if it is over quota."""
        limit = self.reads if kind == "read" else self.writes
        with self._lock:
            now = self.clock()
            times = self.log.setdefault((who.lower(), kind), deque())
            while times and times[0] <= now - self.window:
                times.popleft()
            if len(times) >= limit:
                self.refusals += 1
                return False
            times.append(now)
            return True
