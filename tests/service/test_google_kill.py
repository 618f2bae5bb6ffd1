"""A resolve on "Google" (the stateful fake) killed at every single API call in turn: the next run ends in
the same published state as a clean run, with nothing lost or doubled (DESIGN.md, the safe resolve)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes.google import FakeGoogle
from svc_helpers import make_game, snapshot, write_order

from sheetgm.core.errors import SheetgmError
from sheetgm.service.game import Game
from sheetgm.service.ledger.journal import PUBLISHED, read_director
from sheetgm.service.resolve import resolve

ATTEMPTS = 3


def _orders(game: Game) -> None:
    write_order(game, 1, "搜索")
    write_order(game, 2, "破解")


def _run(folder: Path, fault: str | int | None, at: int) -> tuple[dict[str, object], int, bool]:
    """(the final snapshot, the resolve's call count, whether the faulty run failed)."""
    with FakeGoogle() as fake:
        game = make_game(folder, fake.gateway(attempts=ATTEMPTS, meta_home="director"))
        _orders(game)
        first = len(fake.log)
        failed = fault is not None
        if fault is not None:
            # A 500 on every attempt makes the call fail for good; a lost reply is retried and may pass.
            fake.fail_on(first + at, fault, times=ATTEMPTS if fault != "lost_reply" else 1)
            try:
                resolve(game)
                failed = False
            except SheetgmError:
                pass
        if failed or fault is None:
            again = resolve(game)
            assert again.stage == "N1-survivor"
        calls = len(fake.log) - first
        entries, lock = read_director(game)
        assert [e.key for e in entries] == ["N0-setup", "N1-survivor"]
        assert entries[-1].status == PUBLISHED and not (lock and lock[0])
        return snapshot(game), calls, failed


@pytest.mark.parametrize("fault", [500, "lost_reply"])
def test_a_resolve_killed_at_every_call_is_completed_by_the_next_run(tmp_path: Path, fault: str | int) -> None:
    reference, calls, _ = _run(tmp_path / "ref", None, 0)
    assert calls >= 4
    killed = 0
    for n in range(1, calls + 1):
        final, _, failed = _run(tmp_path / f"k{n}", fault, n)
        killed += failed
        assert final == reference, f"{fault} at call {n} of {calls}"
    if fault == 500:
        assert killed == calls  # every call, failing for good, stopped the run: nothing half-done was kept
