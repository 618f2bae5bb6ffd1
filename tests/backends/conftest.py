"""Fixtures for the gateway tests: the three adapters, the fake Google, a fake clock."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sheetgm.backends.fake_google import FakeClock, FakeGoogle
from sheetgm.backends.memory import MemoryGateway
from sheetgm.backends.port import Gateway
from sheetgm.backends.xlsx import XlsxGateway


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def fake() -> Iterator[FakeGoogle]:
    with FakeGoogle() as f:
        yield f


@pytest.fixture(params=["memory", "xlsx", "google"])
def gw(request: pytest.FixtureRequest, tmp_path, clock: FakeClock) -> Iterator[Gateway]:
    if request.param == "memory":
        yield MemoryGateway()
    elif request.param == "xlsx":
        yield XlsxGateway(tmp_path / "game")
    else:
        with FakeGoogle() as fake:
            yield fake.gateway(clock=clock)
