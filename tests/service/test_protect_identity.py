"""Issue 15, item 7: each workbook knows whose it is. A file saved over another seat's is refused and named,
never read or written as that seat; a Results tab renamed or deleted is reported by `check` and made again,
its reports written back, the order still read; the hidden tab is restored when wiped; a report edited with
its old-style hash recomputed, or a row copied from another seat, is caught (RUL-47, RUL-48). Through the
command line, on the .xlsx files and on the Google fake."""

# covers: RUL-47, RUL-48

from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil
from pathlib import Path

import openpyxl
import pytest
from cli_games import CliGame, cli_game
from svc_helpers import write_order

from sheetgm.backends.google.idmap import JsonIdMap
from sheetgm.backends.port import SetValues
from sheetgm.service.game import IDS_FILE, player_key
from sheetgm.service.ledger.journal import read_director
from sheetgm.sheets.seals import results_seal

RESULTS, ORDERS = "结果", "指令"


def ok(game: CliGame, *args: str) -> str:
    done = game.run(*args)
    assert done.exit_code == 0, done.output
    return done.stdout


def cells(game: CliGame, seat: int, a1: str) -> list[list[str]]:
    return game.open().gateway.read(player_key(seat), [a1])[a1]


def swap_in(game: CliGame, seat: int, other: int) -> None:
    """Seat ``other``'s workbook put where seat ``seat``'s belongs (the director saved the wrong file over it)."""
    if game.fake is None:
        shutil.copy(game.file(player_key(other)), game.file(player_key(seat)))
    else:
        ids = JsonIdMap(game.folder / IDS_FILE)
        ids[player_key(seat)] = ids[player_key(other)]


@pytest.mark.parametrize("backend", ["xlsx", "google"])
def test_a_workbook_saved_over_another_seats_is_refused_and_named(backend: str, tmp_path: Path) -> None:
    with cli_game(backend, tmp_path) as game:
        g = game.open()
        write_order(g, 1, "搜索")
        write_order(g, 2, "破解")
        swap_in(game, 1, 2)
        before = game.file(player_key(1)).read_bytes() if game.fake is None else None
        checked = json.loads(ok(game, "check", "--json"))
        s1 = next(p for p in checked["players"] if p["alias"] == "S1")
        assert s1["state"] == "unreadable" and "seat 2" in s1["problems"][0].replace("2 号", "seat 2")
        assert any("S1" in w and "S2" in w for w in checked["warnings"])
        done = ok(game, "resolve")
        assert "S1" in done and "2 号" in done
        entry = read_director(game.open())[0][-1]
        assert 1 not in entry.orders() or not entry.orders()[1].text  # S2's order is not S1's
        assert entry.orders()[2].text == "破解"
        assert [s for s, _ in entry.undelivered] == [1]
        if before is not None:
            assert game.file(player_key(1)).read_bytes() == before  # not written as seat 1: nothing of S1's in it
        assert cells(game, 2, f"'{RESULTS}'!A2")[0][0] == "N1-survivor"  # S2's own workbook is S2's


@pytest.mark.parametrize("backend", ["xlsx", "google"])
def test_an_identity_not_sealed_by_this_game_is_refused_and_a_missing_one_written(backend: str,
                                                                                  tmp_path: Path) -> None:
    with cli_game(backend, tmp_path) as game:
        gw = game.gateway()
        gw.write(player_key(1), [SetValues(f"'{ORDERS}'!I1", (("player-1/0123456789abcdef",),))])
        gw.write(player_key(2), [SetValues(f"'{ORDERS}'!I1", (("",),))])  # a workbook from before identities
        checked = json.loads(ok(game, "check", "--json"))
        states = {p["alias"]: p["state"] for p in checked["players"]}
        assert states["S1"] == "unreadable" and states["S2"] != "unreadable"
        assert "player-2/" in cells(game, 2, f"'{ORDERS}'!I1")[0][0]


def delete_results(game: CliGame, seat: int) -> None:
    if game.fake is None:
        path = game.file(player_key(seat))
        wb = openpyxl.load_workbook(path)
        del wb[RESULTS]
        wb.save(path)
    else:  # renamed in the browser: its protections go with it (Google keys them by the tab's id)
        book = game.fake.books[game.sid(player_key(seat))]
        book.sheet(RESULTS).name = "Results (mine)"
        for p in book.protected:
            if p.range.tab == RESULTS:
                p.range = dataclasses.replace(p.range, tab="Results (mine)")


@pytest.mark.parametrize("backend", ["xlsx", "google"])
def test_a_results_tab_gone_is_reported_by_check_made_again_and_the_order_still_read(backend: str,
                                                                                      tmp_path: Path) -> None:
    with cli_game(backend, tmp_path) as game:
        ok(game, "resolve")
        ok(game, "resolve")  # night 1 over: S1 has two reports
        delete_results(game, 1)
        write_order(game.open(), 1, "搜索", night=2)
        checked = json.loads(ok(game, "check", "--json"))
        assert any("S1" in w and RESULTS in w for w in checked["warnings"]), checked["warnings"]
        status = cells(game, 1, f"'{ORDERS}'!D3")[0][0]
        assert RESULTS in status  # the player is told too
        secret = game.open().secret()
        rows = cells(game, 1, f"'{RESULTS}'!A2:C3")
        assert [r[0] for r in rows] == ["N1-survivor", "N1-hunter"] and all(r[1] for r in rows)
        assert all(r[2] == results_seal(secret, player_key(1), r[0], r[1]) for r in rows)
        delete_results(game, 1)  # gone again before the deadline: the order is not dropped
        ok(game, "resolve")
        assert read_director(game.open())[0][-1].orders()[1].text == "搜索"
        assert cells(game, 1, f"'{RESULTS}'!A4")[0][0] == "N2-survivor"


@pytest.mark.parametrize("backend", ["xlsx", "google"])
def test_an_edited_report_is_caught_even_with_its_old_hash_recomputed(backend: str, tmp_path: Path) -> None:
    with cli_game(backend, tmp_path) as game:
        ok(game, "resolve")
        real = cells(game, 1, f"'{RESULTS}'!A2:C2")[0]
        forged = "你被攻击了，但毫发无伤"
        old_hash = hashlib.sha256(forged.encode("utf-8")).hexdigest()[:10]  # what the tool once checked
        gw = game.gateway()
        gw.write(player_key(1), [SetValues(f"'{RESULTS}'!B2:C2", ((forged, old_hash),))])
        theirs = cells(game, 2, f"'{RESULTS}'!A2:C2")[0]  # S2's own sealed row, copied into S3's workbook
        gw.write(player_key(3), [SetValues(f"'{RESULTS}'!A2:C2", (tuple(theirs),))])
        done = ok(game, "resolve")
        assert f"{RESULTS}!B2" in done and "S1" in done and "S3" in done
        assert cells(game, 1, f"'{RESULTS}'!A2:C2")[0] == real


def test_a_wiped_hidden_tab_is_restored_and_audit_passes_again(tmp_path: Path) -> None:
    with cli_game("xlsx", tmp_path) as game:
        path = game.file(player_key(1))
        wb = openpyxl.load_workbook(path)
        del wb["_sheetgm"]
        wb.save(path)
        ok(game, "resolve")
        wb = openpyxl.load_workbook(path)
        assert wb["_sheetgm"].sheet_state == "hidden"
        assert "sheetgm:results" in {c.value for row in wb["_sheetgm"].iter_rows() for c in row}
        assert game.run("audit").exit_code == 0
