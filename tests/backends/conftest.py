"""Fixtures for the gateway tests: the three adapters, the fake Google, a fake clock."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from google.auth.credentials import AnonymousCredentials

from sheetgm.backends.fake_google import FakeGoogle
from sheetgm.backends.gsheets import GoogleGateway
from sheetgm.backends.memory import MemoryGateway
from sheetgm.backends.port import Gateway
from sheetgm.backends.ratelimit import RateLimiter
from sheetgm.backends.retry import RetryPolicy
from sheetgm.backends.xlsx import XlsxGateway


class Clock:
    """A clock whose sleep moves time forward instantly."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def time(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def make_google(clock: Clock, attempts: int = 5, ids: dict[str, str] | None = None, **kw: object) -> GoogleGateway:
    return GoogleGateway(
        AnonymousCredentials(),
        {} if ids is None else ids,
        retry=RetryPolicy(attempts=attempts, sleep=clock.sleep, jitter=lambda: 0.5),
        limiter=RateLimiter(clock=clock.time, sleep=clock.sleep),
        **kw,  # type: ignore[arg-type]
    )


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def fake() -> Iterator[FakeGoogle]:
    with FakeGoogle() as f:
        yield f


@pytest.fixture(params=["memory", "xlsx", "google"])
def gw(request: pytest.FixtureRequest, tmp_path, clock: Clock) -> Iterator[Gateway]:
    if request.param == "memory":
        yield MemoryGateway()
    elif request.param == "xlsx":
        yield XlsxGateway(tmp_path / "game")
    else:
        with FakeGoogle():
            yield make_google(clock)
