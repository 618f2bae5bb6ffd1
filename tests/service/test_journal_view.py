"""A stage's state is parsed once per process and shared (``Entry.view``) by everything that publishes it: the
players' reports and tabs, the public news, the director's tabs, the stage map. None of them may change it: after
a whole game played with the bots, each stage's shared state is still what its journal cell holds."""

from __future__ import annotations

from pathlib import Path

from sheetgm.backends.memory import MemoryGateway
from sheetgm.core.state import State
from sheetgm.service.demo import demo
from sheetgm.service.game import open_game
from sheetgm.service.ledger.journal import read_director, unpack
from sheetgm.sheets.archive import ArchivedOrder


def test_publishing_leaves_every_shared_state_as_its_journal_cell(tmp_path: Path) -> None:
    gateway = MemoryGateway()
    report = demo(tmp_path / "game", players=6, seed=3, max_nights=3, gateway=gateway)
    assert report.stages >= 4
    game = open_game(tmp_path / "game", gateway=gateway)
    entries = [e for e in read_director(game)[0] if e.state_json]
    assert len(entries) >= report.stages
    for e in entries:
        shared = e.view(game.board)
        assert e.view(game.board) is shared  # parsed once: the same object each time
        assert shared.to_dict() == State.from_dict(unpack(e.state_json), game.board).to_dict(), e.key
        mine = e.state(game.board)  # a copy to change: changing it leaves the shared one
        mine.night += 5
        assert e.view(game.board).night == shared.night != mine.night


def test_a_stage_s_orders_are_parsed_once_and_each_caller_gets_its_own_dict(tmp_path: Path) -> None:
    gateway = MemoryGateway()
    demo(tmp_path / "game", players=6, seed=3, max_nights=2, gateway=gateway)
    game = open_game(tmp_path / "game", gateway=gateway)
    entries = [e for e in read_director(game)[0] if e.kind == "stage" and e.orders_json]
    assert entries
    for e in entries:
        first = e.orders()
        assert first == {int(k): ArchivedOrder.from_dict(v) for k, v in unpack(e.orders_json).items()}
        assert all(a is b for a, b in zip(first.values(), e.orders().values(), strict=True))  # parsed once
        first.clear()  # a caller's dict is its own
        assert e.orders() and len(e.orders()) == len(unpack(e.orders_json))
