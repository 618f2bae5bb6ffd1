"""The director's table holds every seat of a long roster (100 players), not only the tab's usual 60 rows."""

from __future__ import annotations

from pathlib import Path

from svc_helpers import Clock, make_game

from sheetgm.backends.memory import MemoryGateway
from sheetgm.service.game import DIRECTOR
from sheetgm.service.ledger import table
from sheetgm.sheets import layout


def test_a_roster_longer_than_the_tab_is_written_whole(tmp_path: Path) -> None:
    game = make_game(tmp_path, MemoryGateway(), Clock())
    rows = [table.SeatRow(i, f"P{i}", "zh", "survivor", "", "in_play", True, "ok", "", "") for i in range(1, 101)]
    game.gateway.write(DIRECTOR, table.sheet_ops(game, rows, "N1-survivor", None))  # 104 rows: refused before
    tab = layout.tab(game.lang, table.TAB)
    got = game.gateway.read(DIRECTOR, [layout.rng(tab, "A1:I200")])[layout.rng(tab, "A1:I200")]
    assert len(got) == 104 and any("P100" in cell for cell in got[-1])
    game.gateway.write(DIRECTOR, table.sheet_ops(game, rows[:3], "N1-survivor", None))  # a shorter one clears
    got = game.gateway.read(DIRECTOR, [layout.rng(tab, "A1:I200")])[layout.rng(tab, "A1:I200")]
    assert len(got) == 7
