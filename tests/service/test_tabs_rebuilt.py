"""Issue 29.2: LibreOffice and Gnumeric do not enforce the workbook's structure lock, so a player can delete or
rename any tab. A tab of sheetgm's own that is gone is made again with what the tool wrote there, the player's
results are delivered, and the advice fits what happened: a deleted tab is not "renamed", and nothing asks the
director to rename a tab back."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import openpyxl
import pytest
from cli_games import cli_game
from svc_helpers import cells, write_order

from sheetgm.backends.a1 import parse_range
from sheetgm.service.game import player_key
from sheetgm.service.ledger.journal import read_director
from sheetgm.sheets import layout
from sheetgm.sheets.player import edited_rows

TABS = {name: layout.tab("zh", name) for name in layout.PLAYER_TABS}


def _break(path: Path, name: str, how: str) -> None:
    wb = openpyxl.load_workbook(path)
    if how == "deleted":
        del wb[TABS[name]]
    else:
        wb[TABS[name]].title = "我的页"
    wb.save(path)


@pytest.mark.parametrize("how", ["deleted", "renamed"])
@pytest.mark.parametrize("name", layout.PLAYER_TABS)
def test_a_tab_of_sheetgms_gone_is_made_again_and_the_results_delivered(tmp_path: Path, name: str,
                                                                        how: str) -> None:
    with cli_game("xlsx", tmp_path) as cli:
        game = cli.open()
        for seat in (1, 2, 3):
            write_order(game, seat, "搜索")
        assert cli.run("resolve").exit_code == 0
        _break(cli.file(player_key(1)), name, how)
        done = cli.run("resolve")  # N1-hunter: S1's workbook is read and written by publishing
        assert done.exit_code == 0, done.output
        said = "被删除了" if how == "deleted" else "被改名为" if name == "orders" else "看来是被改名了"
        assert said in done.stdout and f"「{TABS[name]}」" in done.stdout, done.stdout
        assert "改回" not in done.output  # no "rename the tab back"
        game = cli.open()
        entries = read_director(game)[0]
        assert all(not e.undelivered for e in entries)  # every report written, S1's too
        assert set(TABS.values()) <= set(game.gateway.tabs(player_key(1)))
        results = cells(game, player_key(1), layout.rng(TABS["results"], "A2:C3"))
        assert [r[0] for r in results] == ["N1-survivor", "N1-hunter"]
        assert edited_rows(results, game.secret(), player_key(1)) == []
        orders = cells(game, player_key(1), layout.rng(TABS["orders"], "A1:A3"))
        assert [r[0] for r in orders][1:] == ["N1-survivor", "N2-survivor"]  # the stage rows, the next one open
        help_text = cells(game, player_key(1), layout.rng(TABS["help"], "A1:A3"))
        assert help_text and help_text[0][0]
        assert {parse_range(p.range).tab for p in game.gateway.protections(player_key(1))} >= set(TABS.values())
        audit = cli.run("audit")
        assert "没有保护" not in audit.stdout, audit.stdout
        status = cli.run("status")
        assert "还没收到" not in status.stdout


@pytest.mark.parametrize("name", ["orders", "help"])
def test_a_tab_renamed_on_google_is_made_again_and_the_results_delivered(tmp_path: Path, name: str) -> None:
    with cli_game("google", tmp_path) as cli:
        game = cli.open()
        for seat in (1, 2, 3):
            write_order(game, seat, "搜索")
        assert cli.run("resolve").exit_code == 0
        assert cli.fake is not None
        book = cli.fake.books[cli.sid(player_key(1))]
        book.sheet(TABS[name]).name = "我的页"  # in the browser: its protection goes with it (keyed by the tab's id)
        for p in book.protected:
            if p.range.tab == TABS[name]:
                p.range = dataclasses.replace(p.range, tab="我的页")
        cli.fake.edited_in_browser(cli.sid(player_key(1)), "ann@example.com")  # Drive names who changed it last
        done = cli.run("resolve")
        assert done.exit_code == 0, done.output
        said = "被改名为" if name == "orders" else "看来是被改名了"  # an Orders tab is known by its header row
        assert said in done.stdout and "「我的页」" in done.stdout and "改回" not in done.output
        game = cli.open()
        assert all(not e.undelivered for e in read_director(game)[0])
        assert set(TABS.values()) <= set(game.gateway.tabs(player_key(1)))
        results = cells(game, player_key(1), layout.rng(TABS["results"], "A2:A3"))
        assert [r[0] for r in results] == ["N1-survivor", "N1-hunter"]


@pytest.mark.parametrize("backend", ["xlsx", "google"])
def test_an_order_typed_in_a_renamed_orders_tab_is_read_and_carried_into_the_tab_made_again(tmp_path: Path,
                                                                                          backend: str) -> None:
    with cli_game(backend, tmp_path) as cli:
        game = cli.open()
        for seat in (1, 2, 3):
            write_order(game, seat, "搜索")
        if cli.fake is None:
            _break(cli.file(player_key(1)), "orders", "renamed")
        else:
            book = cli.fake.books[cli.sid(player_key(1))]
            book.sheet(TABS["orders"]).name = "我的页"
            for p in book.protected:
                if p.range.tab == TABS["orders"]:
                    p.range = dataclasses.replace(p.range, tab="我的页")
        done = cli.run("resolve")
        assert done.exit_code == 0, done.output
        assert "指令已从那里读到" in done.stdout and "「我的页」" in done.stdout, done.stdout
        game = cli.open()
        entry = read_director(game)[0][-1]
        assert entry.key == "N1-survivor" and entry.orders()[1].text == "搜索" and not entry.undelivered
        row = cells(game, player_key(1), layout.rng(TABS["orders"], "A2:D2"))[0]
        assert row[:3] == ["N1-survivor", "搜索", "✓"] and "搜索" in row[3]  # carried over, then resolved
        assert "player-1/" in cells(game, player_key(1), layout.rng(TABS["orders"], "I1"))[0][0]
