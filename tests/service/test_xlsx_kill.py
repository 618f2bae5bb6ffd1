"""Local workbooks: a resolve killed at any write and run again by a new process ends as a clean run does,
and the demo's saving once a night ends with the workbooks a game saved at every write has."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from svc_helpers import Clock, FlakyGateway, make_game, snapshot, write_order

from sheetgm.backends.xlsx.book import Book
from sheetgm.backends.xlsx.gateway import XlsxGateway
from sheetgm.service.demo import demo
from sheetgm.service.game import Game, open_game
from sheetgm.service.ledger.journal import PUBLISHED, read_director
from sheetgm.service.resolve import resolve


def _orders(game: Game) -> None:
    write_order(game, 1, "搜索")
    write_order(game, 2, "破解")


def _fresh(folder: Path) -> Game:
    """The game as a new process opens it: a new gateway, nothing parsed yet."""
    return open_game(folder, gateway=XlsxGateway(folder / "workbooks"), clock=Clock())


def test_a_resolve_killed_at_any_write_is_completed_by_the_next_process(tmp_path: Path) -> None:
    ref = make_game(tmp_path / "ref", XlsxGateway(tmp_path / "ref" / "workbooks"))
    _orders(ref)
    probe = FlakyGateway(ref.gateway)
    ref.gateway = probe
    resolve(ref)
    total = probe.writes
    reference = snapshot(_fresh(tmp_path / "ref"))
    assert total >= len(ref.keys()) + 2  # lock, journal, every workbook
    for n in range(1, total + 1):
        folder = tmp_path / f"kill{n}"
        flaky = FlakyGateway(XlsxGateway(folder / "workbooks"))
        game = make_game(folder, flaky)
        _orders(game)
        flaky.arm(n)
        with pytest.raises(RuntimeError):
            resolve(game)
        again = _fresh(folder)
        assert resolve(again).action in ("resolved", "republished"), n
        entries, lock = read_director(again)
        assert [e.key for e in entries] == ["N0-setup", "N1-survivor"] and entries[-1].status == PUBLISHED, n
        assert not (lock and lock[0]), n
        assert snapshot(_fresh(folder)) == reference, f"killed at write {n}"


class EveryReadFromFile(XlsxGateway):
    """As if every command were a new process: nothing kept between calls (outside a batch)."""

    def _load(self, key: str) -> Book:
        if key not in self._dirty:
            self._books.pop(key, None)
        return super()._load(key)


def _workbooks(folder: Path) -> dict[str, Any]:
    gw = XlsxGateway(folder / "workbooks")
    return {key: gw.view(key) for key in ("director", "public", *(f"player-{i}" for i in range(1, 11)))}


def test_the_demo_saving_once_a_night_ends_as_saving_every_write(tmp_path: Path) -> None:
    night = demo(tmp_path / "night", players=10, seed=4, max_nights=3,
                 gateway=XlsxGateway(tmp_path / "night" / "workbooks"), clock=Clock(), secret="same")
    every = EveryReadFromFile(tmp_path / "every" / "workbooks")
    each = demo(tmp_path / "every", players=10, seed=4, max_nights=3, gateway=every, save_each_write=True,
                clock=Clock(), secret="same")
    assert (night.stages, night.public_log) == (each.stages, each.public_log) and night.stages >= 5
    assert _workbooks(tmp_path / "night") == _workbooks(tmp_path / "every")
    assert every.loads > 100  # it did read every workbook back from its file
