"""Issue 29.2 and 29.3: seals compare text as spreadsheet programs store it, and bind the row.

Gnumeric drops a cell's trailing line end and a program may store ``\\r\\n`` or ``\\r`` for a line end: neither is
an edit. A Results row copied whole over another row of the same file (label and seal included) is: the stage
fixes the row, and the row is restored from the journal. A real Gnumeric round trip (``ssconvert``) proves the
first beside LibreOffice's (test_libreoffice_nights.py).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from cli_games import cli_game
from svc_helpers import cells, write_order

from sheetgm.backends.port import SetValues
from sheetgm.core.digests import hmac_sha256_hex
from sheetgm.service.game import player_key
from sheetgm.sheets import layout
from sheetgm.sheets.player import edited_rows, results_op
from sheetgm.sheets.seals import SEAL_CHARS, results_seal, stored

SECRET, BOOK = "s3cret", "player-1"


def _row(key: str, text: str) -> list[str]:
    op = results_op("en", key, text, SECRET, BOOK)
    return list(op.rows[0])  # type: ignore[union-attr]


def test_a_line_end_as_another_program_stores_it_is_no_edit() -> None:
    rows = [_row("N1-survivor", "a\nb\n"), _row("N1-hunter", "c\nd")]
    rows[0][1] = "a\nb"  # Gnumeric: the trailing line end dropped
    rows[1][1] = "c\r\nd"  # a program's own line end
    assert edited_rows(rows, SECRET, BOOK) == []
    assert stored("x\r\ny\rz\n\n") == "x\ny\nz"
    rows[1][1] = "c\nd!"
    assert edited_rows(rows, SECRET, BOOK) == [3]


def test_a_seal_made_before_texts_were_sealed_as_stored_still_holds() -> None:
    old = hmac_sha256_hex(SECRET.encode(), "\x1f".join(("results", BOOK, "N1-survivor", "a\n")).encode())[:SEAL_CHARS]
    assert edited_rows([["N1-survivor", "a\n", old]], SECRET, BOOK) == []
    assert edited_rows([["N1-survivor", "a", old]], SECRET, BOOK) == []  # and through Gnumeric too
    assert results_seal(SECRET, BOOK, "N1-survivor", "a\n") == results_seal(SECRET, BOOK, "N1-survivor", "a")


def test_a_row_copied_whole_over_another_is_named_by_its_place() -> None:
    rows = [_row("N1-survivor", "first"), _row("N1-hunter", "second"), _row("N2-survivor", "third")]
    rows[1] = list(rows[0])  # label, report and seal of row 2 copied over row 3
    assert edited_rows(rows, SECRET, BOOK) == [3]
    rows[1] = ["not a stage", "x", "y"]
    assert edited_rows(rows, SECRET, BOOK) == [3]


def _play(cli, nights: int) -> None:  # type: ignore[no-untyped-def]
    """Resolve the stages up to night ``nights``'s hunters (every survivor searching)."""
    for night in range(1, nights + 1):
        game = cli.open()
        for seat in (1, 2, 3):
            write_order(game, seat, "搜索", night=night)
        for _ in range(2):
            done = cli.run("resolve")
            assert done.exit_code == 0, done.output


def test_a_results_row_copied_over_another_is_restored_and_the_director_told(tmp_path: Path) -> None:
    with cli_game("xlsx", tmp_path) as cli:
        _play(cli, 1)
        game = cli.open()
        results = layout.tab("zh", "results")
        row2 = cells(game, player_key(1), layout.rng(results, "A2:C2"))[0]
        want = cells(game, player_key(1), layout.rng(results, "A3:C3"))[0]
        game.gateway.write(player_key(1), [SetValues(layout.rng(results, "A3:C3"), (tuple(row2),))])
        game = cli.open()
        for seat in (1, 2, 3):
            write_order(game, seat, "搜索", night=2)
        done = cli.run("resolve")
        assert done.exit_code == 0, done.output
        assert "S1（1 号）的「结果!B3」被手工改动过" in done.stdout
        assert cells(cli.open(), player_key(1), layout.rng(results, "A3:C3"))[0] == want  # N1-hunter's report back


@pytest.mark.skipif(shutil.which("ssconvert") is None, reason="Gnumeric's ssconvert is not installed (apt gnumeric)")
def test_a_gnumeric_round_trip_leaves_every_seal_whole(tmp_path: Path) -> None:
    with cli_game("xlsx", tmp_path / "game") as cli:
        _play(cli, 1)
        path = cli.file(player_key(2))
        out = tmp_path / "gnumeric.xlsx"
        ran = subprocess.run(["ssconvert", str(path), str(out)], capture_output=True, text=True, timeout=300)
        assert ran.returncode == 0, ran.stderr
        results = layout.tab("zh", "results")
        before = cells(cli.open(), player_key(2), layout.rng(results, "B2:B3"))
        shutil.copy(out, path)
        after = cells(cli.open(), player_key(2), layout.rng(results, "B2:B3"))
        assert [r[0] + "\n" for r in after] == [r[0] for r in before]  # Gnumeric did drop the trailing line ends
        game = cli.open()
        for seat in (1, 2, 3):
            write_order(game, seat, "搜索", night=2)
        done = cli.run("resolve")
        assert done.exit_code == 0, done.output
        assert "被手工改动过" not in done.stdout, done.stdout
        assert cli.run("verify").exit_code == 0
