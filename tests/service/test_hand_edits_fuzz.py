"""Whatever a player types into whatever cell of their workbook, protected or not, and whatever row they insert
or delete, `check`, `resolve` and `status` end with a result or a one-line error, never a traceback, and lose
nothing the journal holds.

Each case copies one played game, makes one edit in one workbook with openpyxl (which ignores sheet protection,
as a player who lifts it does), saves, and runs the commands through the script. The cells, edits and values
are drawn by a fixed seed, so a failure names a case that replays; ``SHEETGM_FUZZ_CASES`` draws more.
"""

from __future__ import annotations

import datetime
import os
import random
import shutil
from pathlib import Path

import openpyxl
import pytest
from cli_games import CliGame, cli_game
from svc_helpers import write_order

from sheetgm.backends.port import SetValues
from sheetgm.service.game import DIRECTOR, PUBLIC, player_key
from sheetgm.service.ledger.journal import read_director

VALUES: list[object] = [
    "封印", "ａｂｃ１２３", "移动 Z99", "=1+1", "=SUM(A1:A3)", "x" * 40000, "\n\n", "é" * 3, "🙂", "N1-survivor",
    "N99-hunter", "TRUE", "#REF!", " ", "0", -1, 3.5, 10**15, True, datetime.datetime(2026, 1, 2, 3, 4),
    "S1", "H1", "✓", "✗", "搜索", "破解 破解 破解", "\t", "'", "<b>x</b>", "&amp;", None,
]
CASES = int(os.environ.get("SHEETGM_FUZZ_CASES", "40"))  # more for a longer hunt
WEIGHTS = [4, 4, 1, 1, 1, 3]  # by tab: the ones the tool reads back (Orders, Results, its own hidden tab) most


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> CliGame:
    folder = tmp_path_factory.mktemp("fuzz") / "game"
    with cli_game("xlsx", folder) as game:
        g = game.open()
        write_order(g, 1, "搜索")
        write_order(g, 2, "破解")
        assert game.run("resolve").exit_code == 0  # night 1, survivors
        assert game.run("resolve").exit_code == 0  # night 1, hunters
        return game


def _edit(game: CliGame, rng: random.Random, keys: list[str]) -> str:
    key = rng.choice(keys)
    path = game.file(key)
    wb = openpyxl.load_workbook(path)
    weights = WEIGHTS if key.startswith("player") and len(wb.sheetnames) == len(WEIGHTS) else None
    ws = wb.worksheets[rng.choices(range(len(wb.sheetnames)), weights=weights)[0]]
    row = rng.randint(1, max(ws.max_row, 1) + 2)
    col = rng.randint(1, max(ws.max_column, 1) + 1)
    value = rng.choice(VALUES)
    kind = rng.choices(["type", "insert", "delete"], weights=[8, 1, 1])[0]
    if kind == "insert":  # a row inserted (what a player does to make room), then typed in
        ws.insert_rows(row)
        ws.cell(row=row, column=col).value = value
    elif kind == "delete":
        ws.delete_rows(row)
    else:
        ws.cell(row=row, column=col).value = value
    wb.save(path)
    return f"{key} {ws.title}!R{row}C{col} {kind} {value!r:.40}"


@pytest.mark.parametrize("case", range(CASES))
def test_one_typed_cell_never_crashes_a_command_nor_loses_the_journal(played: CliGame, tmp_path: Path,
                                                                      case: int) -> None:
    folder = tmp_path / "game"
    shutil.copytree(played.folder, folder)
    game = CliGame(folder, "xlsx", None)
    before = [(e.key, e.status) for e in read_director(game.open())[0]]
    what = _edit(game, random.Random(case), [player_key(seat) for seat in (1, 2, 3, 4)])
    for command in ("check", "resolve", "status"):
        result = game.run(command)
        assert result.exception is None or isinstance(result.exception, SystemExit), (what, command, result.output)
        assert "Traceback" not in result.output, (what, command)
        if result.exit_code:
            assert result.output.strip(), (what, command)  # an error says what
    after = read_director(game.open())[0]
    assert {k for k, _ in before} <= {e.key for e in after}, what  # every stage the journal held, still held


@pytest.mark.parametrize("case", range(CASES // 4))
def test_one_typed_cell_in_the_director_or_public_workbook_never_crashes_a_command(played: CliGame, tmp_path: Path,
                                                                                   case: int) -> None:
    """The director's workbook holds the journal: an edit there may stop a resolve (``verify`` names it), but
    always with a message, never a traceback."""
    folder = tmp_path / "game"
    shutil.copytree(played.folder, folder)
    game = CliGame(folder, "xlsx", None)
    what = _edit(game, random.Random(1000 + case), [DIRECTOR, PUBLIC])
    for command in ("check", "resolve", "status", "verify", "audit"):
        result = game.run(command)
        assert result.exception is None or isinstance(result.exception, SystemExit), (what, command, result.output)
        assert "Traceback" not in result.output, (what, command)
        if result.exit_code:
            assert result.output.strip(), (what, command)


@pytest.mark.parametrize("case", range(CASES // 5))
def test_one_typed_cell_in_a_google_workbook_never_crashes_a_command(tmp_path: Path, case: int) -> None:
    """The same on Google (the fake): a player types into any cell of any tab of their spreadsheet."""
    rng = random.Random(2000 + case)
    with cli_game("google", tmp_path / "game") as game:
        g = game.open()
        write_order(g, 1, "搜索")
        assert game.run("resolve").exit_code == 0
        before = {e.key for e in read_director(game.open())[0]}
        gw = game.gateway()
        key = player_key(rng.choice([1, 2, 3, 4]))
        tab = rng.choice(gw.tabs(key))
        value = rng.choice([v for v in VALUES if v is not None])
        cell = f"'{tab}'!{'ABCDEFGHI'[rng.randint(0, 8)]}{rng.randint(1, 30)}"
        text = value.isoformat() if isinstance(value, datetime.datetime) else str(value)
        gw.write(key, [SetValues(cell, ((text[:5000],),))])
        what = f"{key} {cell} = {text!r:.40}"
        for command in ("check", "resolve", "status"):
            result = game.run(command)
            assert result.exception is None or isinstance(result.exception, SystemExit), (what, command, result.output)
            assert "Traceback" not in result.output, (what, command)
        assert before <= {e.key for e in read_director(game.open())[0]}, what
