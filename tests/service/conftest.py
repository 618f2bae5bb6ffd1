"""Fixtures for the service tests: every gateway that exists and a fixed clock."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fakes.google import FakeGoogle
from svc_helpers import Clock

from sheetgm.backends.memory import MemoryGateway
from sheetgm.backends.port import Gateway
from sheetgm.backends.xlsx.gateway import XlsxGateway


@pytest.fixture(params=["memory", "xlsx", "google"])
def gw(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Gateway]:
    if request.param == "memory":
        yield MemoryGateway()
    elif request.param == "xlsx":
        yield XlsxGateway(tmp_path / "workbooks")
    else:
        with FakeGoogle() as fake:
            gateway = fake.gateway(meta_home="director")  # as the CLI opens it (service/game.make_gateway)
            gateway.fake = fake  # type: ignore[attr-defined]
            yield gateway


@pytest.fixture
def clock() -> Clock:
    return Clock()
