"""Fixtures for the service tests: every gateway that exists, a game factory, a fixed clock."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from sheetgm.backends.fake_google import FakeGoogle
from sheetgm.backends.memory import MemoryGateway
from sheetgm.backends.port import Gateway, Op
from sheetgm.backends.xlsx import XlsxGateway
from sheetgm.service.config import parse_config
from sheetgm.service.game import Game
from sheetgm.service.new_game import new_game

START = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kw: float) -> None:
        self.now += timedelta(**kw)


class FlakyGateway(Gateway):
    """Delegates to ``inner``; the ``fail_at``-th write (1-based, counted from ``arm()``) raises."""

    def __init__(self, inner: Gateway) -> None:
        self.inner, self.writes, self.fail_at, self.account = inner, 0, 0, inner.account
        self.reads = 0

    def arm(self, n: int) -> None:
        self.writes, self.reads, self.fail_at = 0, 0, n

    def write(self, key: str, ops: Sequence[Op]) -> None:
        self.writes += 1
        if self.writes == self.fail_at:
            raise RuntimeError(f"killed at write {self.writes} ({key})")
        self.inner.write(key, ops)

    def read(self, key: str, ranges: Sequence[str]) -> dict[str, list[list[str]]]:
        self.reads += 1
        return self.inner.read(key, ranges)

    def exists(self, key: str) -> bool:
        return self.inner.exists(key)

    def create(self, key: str, title: str, tabs: Sequence[str]) -> None:
        self.inner.create(key, title, tabs)

    def tabs(self, key: str) -> list[str]:
        return self.inner.tabs(key)

    def protections(self, key: str) -> Any:
        return self.inner.protections(key)

    def permissions(self, key: str) -> Any:
        return self.inner.permissions(key)

    def share(self, key: str, email: str, role: str) -> None:
        self.inner.share(key, email, role)

    def unshare(self, key: str, email: str) -> None:
        self.inner.unshare(key, email)

    def url(self, key: str) -> str | None:
        return self.inner.url(key)

    def view(self, key: str) -> Any:
        return self.inner.view(key)


@pytest.fixture(params=["memory", "xlsx", "google"])
def gw(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Gateway]:
    if request.param == "memory":
        yield MemoryGateway()
    elif request.param == "xlsx":
        yield XlsxGateway(tmp_path / "workbooks")
    else:
        with FakeGoogle() as fake:
            gateway = fake.gateway()
            gateway.fake = fake  # type: ignore[attr-defined]
            yield gateway


def roster(survivors: int = 3, hunters: int = 1, langs: dict[int, str] | None = None,
           emails: bool = False) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"alias": f"S{i}", "camp": "survivor"} for i in range(1, survivors + 1)]
    out += [{"alias": f"H{i}", "camp": "hunter"} for i in range(1, hunters + 1)]
    for i, seat in enumerate(out, 1):
        seat["lang"] = (langs or {}).get(i, "zh")
        if emails:
            seat["email"] = f"p{i}@example.com"
    return out


def make_game(folder: Path, gateway: Gateway, clock: Clock | None = None, **cfg: Any) -> Game:
    data: dict[str, Any] = {"name": "t", "seed": 7, "roster": roster(), "options": {"crack_target": 6}}
    data.update(cfg)
    return new_game(folder, parse_config(data), gateway, clock=clock or Clock())


@pytest.fixture
def clock() -> Clock:
    return Clock()
