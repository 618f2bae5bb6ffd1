"""Scheduled runs are fresh processes: with the tab ids kept in the director workbook, a stage reads the
director's workbook and each player's once, and a run killed at any call is completed by the next
fresh run, nothing lost or doubled (the ids a dead run did not save are found again)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from fakes.google import FakeGoogle
from svc_helpers import make_game, snapshot, write_order

from sheetgm.core.errors import SheetgmError
from sheetgm.service.game import DIRECTOR, Game
from sheetgm.service.ledger.journal import PUBLISHED, read_director
from sheetgm.service.resolve import resolve
from sheetgm.service.rollback import rollback


def fresh(fake: FakeGoogle, game: Game, attempts: int = 1) -> Game:
    return dataclasses.replace(game, gateway=fake.gateway(dict(game.gateway.ids), attempts=attempts,  # type: ignore
                                                          meta_home=DIRECTOR))


def _run(folder: Path, at: int | None) -> tuple[dict[str, object], list[str]]:
    with FakeGoogle() as fake:
        game = make_game(folder, fake.gateway(meta_home=DIRECTOR))
        write_order(game, 1, "搜索")
        write_order(game, 2, "破解")
        first = len(fake.log)
        if at is not None:
            fake.fail_on(first + at, 500)
            try:
                resolve(fresh(fake, game))
            except SheetgmError:
                pass
        done = fresh(fake, game)
        resolve(done)
        kinds = [c.kind for c in fake.log[first:]]
        entries, lock = read_director(done)
        assert entries[-1].key == "N1-survivor" and entries[-1].status == PUBLISHED and not (lock and lock[0])
        rollback(fresh(fake, game), "N1-survivor", "test", holder="t")  # unfreezes rows the dead run froze
        return snapshot(fresh(fake, game)), kinds


def test_a_stage_reads_the_director_and_each_player_workbook_once(tmp_path: Path) -> None:
    """The due players' workbooks for their orders; the others just before they are written (whose workbook it
    is, where the next stage's row can go: issue 15): one read each, never more."""
    with FakeGoogle() as fake:
        game = make_game(tmp_path, fake.gateway(meta_home=DIRECTOR))
        write_order(game, 1, "搜索")
        first = len(fake.log)
        resolve(fresh(fake, game))
        reads = [c for c in fake.log[first:] if c.method == "GET" and "/spreadsheets/" in c.url]  # Drive aside
        ids = {v: k for k, v in game.gateway.ids.items()}  # type: ignore[attr-defined]
        read = sorted(ids[c.url.split("/spreadsheets/")[1].split("/")[0].split("?")[0]] for c in reads)
        assert read == ["director", "director", "player-1", "player-2", "player-3", "player-4"]  # and the lock


def test_a_run_killed_at_any_call_is_completed_by_the_next_fresh_run(tmp_path: Path) -> None:
    reference, kinds = _run(tmp_path / "ref", None)
    calls = len(kinds)
    assert "meta" in kinds and calls >= 8
    for n in range(1, calls + 1):
        final, _ = _run(tmp_path / f"k{n}", n)
        assert final == reference, f"killed at call {n} of {calls} ({kinds[n - 1]})"
