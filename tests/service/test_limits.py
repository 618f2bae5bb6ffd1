"""Issue 8.8: bad input never breaks a cell or a command.

An order longer than ``MAX_ORDER_CHARS`` is refused with a message naming the player and the cell before
anything is journaled; no cell the tool writes exceeds what a cell holds (the adapters refuse it: Google's
50,000 characters, enforced by the fake, and Excel's 32,767 in .xlsx files, which openpyxl would silently
cut); the journal splits long values across cells; a report too long to show is cut with a note.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from cli_games import cli_game
from fakes.google import FakeGoogle
from svc_helpers import make_game, orders_row, roster, state_of, write_order

from sheetgm.backends.errors import CellTooLongError
from sheetgm.backends.memory import MemoryGateway
from sheetgm.backends.port import CELL_LIMIT, GOOGLE_CELL_LIMIT, XLSX_CELL_LIMIT, Gateway, SetValues
from sheetgm.backends.xlsx.gateway import XlsxGateway
from sheetgm.service.game import DIRECTOR
from sheetgm.service.ledger.journal import CHUNK, PUBLISHED, Entry, journal_range, pack, parse_entries, read_director
from sheetgm.service.resolve import resolve
from sheetgm.service.verify import verify
from sheetgm.sheets import layout
from sheetgm.sheets.archive import ArchivedOrder
from sheetgm.sheets.limits import MAX_ORDER_CHARS, fit
from sheetgm.sheets.player import results_op
from sheetgm.sheets.stages import archive_row


def _noise(n: int, seed: int = 1) -> str:
    """Text that does not compress: random CJK characters."""
    rnd = random.Random(seed)
    return "".join(chr(rnd.randrange(0x4E00, 0x9FA5)) for _ in range(n))


@pytest.mark.parametrize("backend", ["xlsx", "google"])
def test_an_order_too_long_is_refused_naming_the_player_and_the_cell(backend: str, tmp_path: Path) -> None:
    with cli_game(backend, tmp_path) as cli:
        game = cli.open()
        start = state_of(game)
        write_order(game, 1, "搜索；" * 700)  # 2,100 characters
        write_order(game, 2, "破解")
        check = cli.run("check")
        assert check.exit_code == 0
        assert f"2100 个字符，太长了：一条指令最多 {MAX_ORDER_CHARS} 个字符" in check.stdout
        assert "太长了" in orders_row(cli.open(), 1)[layout.O_PROBLEMS]  # told in their own sheet
        done = cli.run("resolve")
        assert done.exit_code == 0, done.output
        assert any("S1" in line and "指令!B2" in line and "太长了" in line for line in done.stdout.splitlines())
        game = cli.open()
        entry = read_director(game)[0][-1]
        assert entry.status == PUBLISHED
        assert len(entry.orders()[1].text) == MAX_ORDER_CHARS + 1  # kept just long enough to be refused again
        archived = game.gateway.read(DIRECTOR, [f"'指令存档'!D{archive_row('N1-survivor', 1, 4)}"])
        assert len(next(iter(archived.values()))[0][0]) == MAX_ORDER_CHARS + 1
        after = state_of(game)
        assert after.players[1].pos == start.players[1].pos  # stayed and did nothing
        assert "原地不动" in orders_row(game, 1)[layout.O_STATUS]
        assert cli.run("verify").exit_code == 0  # the refusal replays


def _every_cell(gw: Gateway, key: str) -> list[str]:
    view = gw.view(key)
    return [cell for tab in view.tabs for row in tab.values for cell in row]


def test_the_adapters_refuse_a_cell_longer_than_they_hold(tmp_path: Path) -> None:
    xlsx = XlsxGateway(tmp_path)
    xlsx.create("w", "t", ["A"])
    xlsx.write("w", [SetValues("A!A1", (("x" * XLSX_CELL_LIMIT,),))])
    assert len(xlsx.read("w", ["A!A1"])["A!A1"][0][0]) == XLSX_CELL_LIMIT
    with pytest.raises(CellTooLongError) as err:
        xlsx.write("w", [SetValues("A!B2", (("x" * (XLSX_CELL_LIMIT + 1),),))])  # openpyxl would cut it silently
    assert "32767" in err.value.message("en") and "A!B2" in err.value.message("en")
    memory = MemoryGateway()
    memory.create("w", "t", ["A"])
    with pytest.raises(CellTooLongError):
        memory.write("w", [SetValues("A!A1", (("x" * (GOOGLE_CELL_LIMIT + 1),),))])
    with FakeGoogle() as fake:
        gw = fake.gateway()
        gw.create("w", "t", ["A"])
        with pytest.raises(CellTooLongError):
            gw.write("w", [SetValues("A!A1", (("x" * (GOOGLE_CELL_LIMIT + 1),),))])
        assert fake.count("batch_update") == 0  # refused before any call
        with pytest.raises(CellTooLongError):  # and the fake answers as the API does if one gets through
            gw._batch("w", [SetValues("A!A1", (("x" * (GOOGLE_CELL_LIMIT + 1),),))])
        error = json.loads(fake.mock.calls[-1].response.text)["error"]
        assert error["code"] == 400 and "maximum of 50000 characters in a single cell" in error["message"]
        gw.write("w", [SetValues("A!A1", (("x" * GOOGLE_CELL_LIMIT,),))])


@pytest.mark.parametrize("size", [10, CHUNK - 5, CHUNK + 5, 3 * CHUNK + 17])
def test_long_journal_values_are_split_across_cells_and_read_back_whole(gw, tmp_path: Path, size: int) -> None:
    game = make_game(tmp_path, gw)
    setup = read_director(game)[0][0]
    orders = {"1": {"text": _noise(size // 3 + 1)}}  # packed: zlib cannot shrink it much, base64 grows it
    big = Entry("N1-survivor", PUBLISHED, "h", "h", 7, "t", setup.state_json, pack([]), pack(orders))
    assert len(big.orders_json) >= size // 3
    gw.write(DIRECTOR, [big.op(game.lang)])
    rows = gw.read(DIRECTOR, [journal_range(game.lang)])[journal_range(game.lang)]
    back = parse_entries(rows, game.lang)[-1]
    assert back == big and back.orders() == {1: ArchivedOrder(text=orders["1"]["text"])}
    assert all(len(c) <= CELL_LIMIT for c in _every_cell(gw, DIRECTOR))


def test_a_report_too_long_for_its_cell_is_cut_with_a_note() -> None:
    text = "战报" * 30_000
    op = results_op("zh", "N1-survivor", text, "secret", "player-1")
    cell = op.rows[0][1]  # type: ignore[union-attr]
    assert len(cell) == CELL_LIMIT and cell.startswith("战报战报")
    assert "共 60000 个字符" in cell and "N1-survivor" in cell
    assert fit("short", "en", "svc.cut_report", stage="N1-survivor") == "short"


def test_ten_long_orders_resolve_on_google_within_every_cell_limit(tmp_path: Path) -> None:
    """Eight survivors each paste 2,000 characters that do not compress: the journal row is split,
    the fake (which refuses cells over 50,000 characters) accepts every write, and the game verifies."""
    with FakeGoogle() as fake:
        game = make_game(tmp_path, fake.gateway(), roster=roster(survivors=8, hunters=2))
        for seat in range(1, 9):
            write_order(game, seat, _noise(MAX_ORDER_CHARS + 500, seed=seat))
        rep = resolve(game)
        assert rep.action == "resolved" and sum("太长了" in w for w in rep.warnings) == 8
        row = game.gateway.read(DIRECTOR, [journal_range(game.lang)])[journal_range(game.lang)][1]
        assert len(row) > 12 and row[8].startswith("+")  # the orders JSON continues in the overflow cells
        for key in game.keys():
            assert all(len(c) <= CELL_LIMIT for c in _every_cell(game.gateway, key)), key
        assert verify(game).ok
