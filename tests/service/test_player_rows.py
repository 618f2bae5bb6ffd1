"""Issue 15, item 2: whatever a player does to the rows of their Orders tab (insert, delete, move, sort,
paste over, clear), in Google Sheets or in a program that edits their .xlsx file, over two nights: the tool
never writes over a cell that holds the player's text, every stage row is there afterwards, and each
night's order is read from the row that carries its label (RUL-45)."""

# covers: RUL-45

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import rowops
from fakes.google import FakeGoogle
from svc_helpers import Clock, make_game

from sheetgm.backends.port import SetValues
from sheetgm.backends.xlsx.gateway import XlsxGateway
from sheetgm.service.check import check
from sheetgm.service.game import Game, player_key
from sheetgm.service.ledger.journal import read_director
from sheetgm.service.resolve import resolve
from sheetgm.sheets import layout

ORDERS = "指令"
NOTE = "我的草稿"  # a line of the player's own, far below their orders
ORDER = {1: "搜索", 2: "破解"}


@dataclass
class Seat:
    """Seat 1's workbook, and the hands of its player in one program."""

    game: Game
    program: str
    fake: FakeGoogle | None = None

    def tab(self) -> list[list[str]]:
        rng = f"'{ORDERS}'!A2:G"
        return [list(r) + [""] * (7 - len(r)) for r in self.game.gateway.read(player_key(1), [rng])[rng]]

    def row_of(self, key: str) -> int:
        return next(r for r, cells in enumerate(self.tab(), 2) if cells[0] == key)

    def do(self, name: str, *args: int) -> None:
        if self.program == "google":
            assert self.fake is not None
            gw: Any = self.game.gateway
            getattr(rowops, f"g_{name}")(self.fake.books[gw.ids[player_key(1)]], ORDERS, *args)
        else:
            gw = self.game.gateway
            assert isinstance(gw, XlsxGateway)
            getattr(rowops, f"x_{name}")(gw.path(player_key(1)), ORDERS, *args)

    def type(self, row: int, text: str, tick: str = "✓") -> None:
        self.game.gateway.write(player_key(1), [SetValues(f"'{ORDERS}'!B{row}:C{row}", ((text, tick),))])


@pytest.fixture(params=["xlsx", "google"])
def seat(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Seat]:
    with FakeGoogle() as fake:
        gw = XlsxGateway(tmp_path / "workbooks") if request.param == "xlsx" else fake.gateway()
        game = make_game(tmp_path, gw, Clock())
        yield Seat(game, request.param, fake if request.param == "google" else None)


def players_cells(tab: list[list[str]]) -> dict[tuple[int, int], str]:
    """Every cell holding the player's text: order and tick (B, C) of any row, and anything in a row whose
    column A is not a stage label."""
    out = {}
    for r, cells in enumerate(tab, 2):
        labelled = cells[0].strip().startswith("N") and "-" in cells[0]
        for c, value in enumerate(cells):
            if value.strip() and (c in (layout.O_TEXT, layout.O_TICK) or not labelled):
                out[(r, c)] = value
    return out


def kept(before: list[list[str]], after: list[list[str]]) -> list[str]:
    """The player's cells of ``before`` that the tool changed in ``after``."""
    return [f"row {r} col {c}: {v!r} -> {(after[r - 2] + [''] * 7)[c] if r - 2 < len(after) else ''!r}"
            for (r, c), v in players_cells(before).items()
            if r - 2 >= len(after) or (after[r - 2] + [""] * 7)[c] != v]


def run(seat: Seat, step: Callable[[Game], object]) -> None:
    """A run of the tool, which must leave every cell of the player's as it found it."""
    before = seat.tab()
    step(seat.game)
    assert kept(before, seat.tab()) == []


# What the player does on night n, before writing that night's order (rows as the player sees them then).
def insert(seat: Seat, n: int) -> None:
    seat.do("insert", seat.row_of(f"N{n}-survivor"))


def delete(seat: Seat, n: int) -> None:
    seat.do("delete", seat.row_of("N1-survivor") if n > 1 else 12)  # a resolved row; night 1: their draft line


def move(seat: Seat, n: int) -> None:
    seat.do("move", seat.row_of(f"N{n}-survivor"), 15)


def sort(seat: Seat, n: int) -> None:
    seat.do("sort", 2, 15, layout.O_TEXT, True)  # by column B, Z to A: the draft line goes to the top


def paste(seat: Seat, n: int) -> None:
    if n > 1:
        seat.do("paste", seat.row_of("N1-survivor"), seat.row_of(f"N{n}-survivor"))  # night 1's row over tonight's
    else:
        seat.do("paste", 12, seat.row_of("N1-survivor"))  # the draft line over tonight's row, label and all


def clear(seat: Seat, n: int) -> None:
    seat.do("clear", seat.row_of("N1-survivor") if n > 1 else seat.row_of(f"N{n}-survivor"))


@pytest.mark.parametrize("action", [insert, delete, move, sort, paste, clear], ids=lambda f: f.__name__)
def test_whatever_a_player_does_to_rows_nothing_of_theirs_is_lost(seat: Seat, action: Callable[[Seat, int], None]
                                                                   ) -> None:
    seat.type(12, NOTE, "")
    for night in (1, 2):
        key = f"N{night}-survivor"
        action(seat, night)
        run(seat, check)  # the label is put back where it went missing; the player is told where the row is
        seat.type(seat.row_of(key), ORDER[night])
        run(seat, check)
        run(seat, resolve)  # the survivors' stage
        run(seat, resolve)  # the hunters' stage: S1's next row is labelled
        used = read_director(seat.game)[0][-2].orders()[1]
        assert used.text == ORDER[night], (key, used)
        labels = [cells[0] for cells in seat.tab()]
        assert {"N1-survivor", f"N{night}-survivor", f"N{night + 1}-survivor"} <= set(labels), labels
    assert any(NOTE in cells for cells in seat.tab()) or action in (delete, paste)  # only the player removed it


def test_the_issue_case_an_inserted_row_costs_no_row_on_night_two(seat: Seat) -> None:
    """Insert a row above N1's, write the order in B3 with ✓ in C3, check, resolve: the N2 label goes into an
    empty row, never over the N1 row (its order, tick, status and time all stay)."""
    seat.do("insert", 2)
    seat.type(3, ORDER[1])
    check(seat.game)
    resolve(seat.game)
    n1 = seat.tab()[1]
    resolve(seat.game)
    tab = seat.tab()
    assert tab[1][:6] == n1[:6] and tab[1][0] == "N1-survivor" and tab[1][1] == ORDER[1]
    assert tab[0] == [""] * 7  # the row they inserted, still theirs
    assert seat.row_of("N2-survivor") == 4 and "第 4 行" in tab[2][layout.O_STATUS]
