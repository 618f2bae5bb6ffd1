"""A clock shared by several threads that never sleeps for real: time moves only when every thread waits.

Each thread that takes part calls ``join()`` first and ``leave()`` when done. ``sleep(d)`` parks the
thread until the clock reaches now + d; the clock jumps to the earliest wake-up time as soon as every
joined thread is parked, so two threads sleeping 30 s at once take 30 s, not 60, and work between
sleeps takes no time at all (the worst case for a quota: calls as fast as they can be made).

    clock = VirtualClock()
    def run():
        clock.join()
        try: ...  # calls paced with clock.time / clock.sleep
        finally: clock.leave()
"""

from __future__ import annotations

import heapq
import itertools
import threading


class VirtualClock:
    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self._cv = threading.Condition()
        self._active = 0
        self._sleepers: list[tuple[float, int]] = []
        self._released: set[int] = set()
        self._seq = itertools.count()
        self.slept: list[float] = []

    def time(self) -> float:
        return self.now

    def join(self) -> None:
        with self._cv:
            self._active += 1

    def leave(self) -> None:
        with self._cv:
            self._active -= 1
            self._advance()

    def sleep(self, seconds: float) -> None:
        with self._cv:
            self.slept.append(seconds)
            me = next(self._seq)
            heapq.heappush(self._sleepers, (self.now + max(seconds, 0.0), me))
            self._active -= 1
            self._advance()
            while me not in self._released:
                self._cv.wait()
            self._released.discard(me)

    def _advance(self) -> None:
        """With every joined thread parked, move to the earliest wake-up and release who wakes then."""
        if self._active > 0 or not self._sleepers:
            return
        self.now = max(self.now, self._sleepers[0][0])
        while self._sleepers and self._sleepers[0][0] <= self.now:
            _, who = heapq.heappop(self._sleepers)
            self._released.add(who)
            self._active += 1
        self._cv.notify_all()
