"""Helpers shared by the service tests: a clock, a gateway that dies on a chosen write, a game factory."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sheetgm.backends.port import Gateway, Op, SetValues
from sheetgm.service.config.load import parse_config
from sheetgm.service.game import Game, player_key
from sheetgm.service.ledger.journal import latest, read_director
from sheetgm.service.new_game import new_game
from sheetgm.sheets import layout
from sheetgm.sheets.stages import order_row

START = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
# The default game's recurring deadlines are long past at START (night 1 on 2024-01-01): a resolve
# resolves the due stage as the schedule would after its deadline. A test about deadlines sets its own.
SECRET = "test-secret"  # one game's password and seal key, so that two games made alike compare equal
PAST_SCHEDULE = {"survivors": "21:00", "hunters": "23:00", "start": "2024-01-01"}


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

    def release(self, key: str) -> None:
        self.inner.release(key)


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
    data: dict[str, Any] = {"name": "t", "seed": 7, "roster": roster(), "options": {"crack_target": 6},
                            "schedule": PAST_SCHEDULE}
    data.update(cfg)
    return new_game(folder, parse_config(data), gateway, clock=clock or Clock(), secret=SECRET)


def write_order(game: Game, seat: int, text: str, tick: str = "✓", night: int = 1) -> None:
    lang = game.seat_lang(seat)
    r = order_row(night)
    orders = layout.tab(lang, "orders")
    game.gateway.write(player_key(seat), [SetValues(layout.rng(orders, f"B{r}:C{r}"), ((text, tick),))])


def cells(game: Game, key: str, a1: str) -> list[list[str]]:
    return game.gateway.read(key, [a1])[a1]


def orders_row(game: Game, seat: int, night: int = 1) -> list[str]:
    lang = game.seat_lang(seat)
    r = order_row(night)
    got = cells(game, player_key(seat), layout.rng(layout.tab(lang, "orders"), f"A{r}:G{r}"))
    row = got[0] if got else []
    return list(row) + [""] * (7 - len(row))


def state_of(game: Game):  # type: ignore[no-untyped-def]
    return latest(read_director(game)[0]).state(game.board)


def snapshot(game: Game) -> dict[str, object]:
    return {key: game.gateway.view(key) for key in game.keys() if game.gateway.exists(key)}
