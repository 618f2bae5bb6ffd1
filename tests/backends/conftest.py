"""Fixtures for the gateway tests: the three adapters, the fake Google, a fake clock."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest
from fakes.google import FakeClock, FakeGoogle

from sheetgm.backends.memory import MemoryGateway
from sheetgm.backends.port import Gateway
from sheetgm.backends.xlsx.gateway import XlsxGateway


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def fake() -> Iterator[FakeGoogle]:
    with FakeGoogle() as f:
        yield f


@pytest.fixture(params=["memory", "xlsx", "google", "google-fresh"])
def gw(request: pytest.FixtureRequest, tmp_path, clock: FakeClock) -> Iterator[Gateway]:
    if request.param == "memory":
        yield MemoryGateway()
    elif request.param == "xlsx":
        yield XlsxGateway(tmp_path / "game")
    else:
        with FakeGoogle() as fake:
            google = fake.gateway(clock=clock)
            if request.param == "google-fresh":
                # Every read as in a new process, the workbook's metadata not cached: the read is then
                # one spreadsheets.get, which must answer as values:batchGet does.
                plain = google.read

                def read(key: str, ranges: Sequence[str]) -> dict[str, list[list[str]]]:
                    google._meta.pop(key, None)
                    return plain(key, ranges)

                google.read = read  # type: ignore[method-assign]
            yield google
