"""Issue 15, item 1 on Google: the player, an editor of their own file, can change only the order, tick and
dropdown cells of the row of the stage due; the row freezes when the stage is resolved and the next one opens
when it is published; the tool (the service account) writes everywhere (RUL-46). The fake holds Google's
protected ranges in force (tests/fakes/protected.py)."""

# covers: RUL-46

from __future__ import annotations

from pathlib import Path

import pytest
from cli_games import CliGame, cli_game

from sheetgm.backends.errors import ProtectedRangeError
from sheetgm.backends.google.idmap import JsonIdMap
from sheetgm.backends.port import SetValues, Unprotect
from sheetgm.service.game import DIRECTOR, IDS_FILE, player_key

ORDERS, RESULTS = "指令", "结果"


def as_player(game: CliGame, email: str):  # type: ignore[no-untyped-def]
    assert game.fake is not None
    return game.fake.gateway(ids=JsonIdMap(game.folder / IDS_FILE), acting_as=email, meta_home=DIRECTOR)


def can(gw, a1: str) -> bool:  # type: ignore[no-untyped-def]
    try:
        gw.write(player_key(1), [SetValues(a1, (("x",),))])
    except ProtectedRangeError:
        return False
    return True


def test_a_player_edits_only_the_order_cells_of_the_stage_due(tmp_path: Path) -> None:
    with cli_game("google", tmp_path) as game:
        me = as_player(game, "p1@example.com")
        allowed = [a1 for a1 in ("B2", "C2", "G2", "A2", "D2", "E2", "F2", "B3", "A1", "I1")
                   if can(me, f"'{ORDERS}'!{a1}")]
        assert allowed == ["B2", "C2", "G2"]
        assert not can(me, f"'{RESULTS}'!B2")
        with pytest.raises(ProtectedRangeError):
            me.write(player_key(1), [Unprotect("sheetgm:orders")])
        me.write(player_key(1), [SetValues(f"'{ORDERS}'!B2:C2", (("搜索", "✓"),))])
        assert game.run("resolve").exit_code == 0 and game.run("resolve").exit_code == 0
        assert [a1 for a1 in ("B2", "C2", "B3", "C3", "G3") if can(me, f"'{ORDERS}'!{a1}")] == ["B3", "C3", "G3"]
