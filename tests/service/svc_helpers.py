"""Small helpers shared by the service tests."""

from __future__ import annotations

from sheetgm.backends.port import SetValues
from sheetgm.service import layout as L
from sheetgm.service.game import Game, player_key
from sheetgm.service.journal import latest, read_director
from sheetgm.service.stages import order_row


def write_order(game: Game, seat: int, text: str, tick: str = "✓", night: int = 1) -> None:
    lang = game.seat_lang(seat)
    r = order_row(night)
    game.gateway.write(player_key(seat), [SetValues(L.rng(L.tab(lang, "orders"), f"B{r}:C{r}"), ((text, tick),))])


def cells(game: Game, key: str, a1: str) -> list[list[str]]:
    return game.gateway.read(key, [a1])[a1]


def orders_row(game: Game, seat: int, night: int = 1) -> list[str]:
    lang = game.seat_lang(seat)
    r = order_row(night)
    got = cells(game, player_key(seat), L.rng(L.tab(lang, "orders"), f"A{r}:G{r}"))
    row = got[0] if got else []
    return list(row) + [""] * (7 - len(row))


def state_of(game: Game):  # type: ignore[no-untyped-def]
    return latest(read_director(game)[0]).state(game.board)


def snapshot(game: Game) -> dict[str, object]:
    return {key: game.gateway.view(key) for key in game.keys() if game.gateway.exists(key)}
