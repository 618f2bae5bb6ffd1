"""Every stage's public map as a picture beside the game, linked from the announcement; every stage's map view
kept in each player's workbook; status lists each stage once (issue 10, items 7 and 8)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from svc_helpers import make_game, write_order
from typer.testing import CliRunner

from sheetgm.backends.xlsx.gateway import XlsxGateway
from sheetgm.cli.app import app
from sheetgm.core.board import tile_name
from sheetgm.render.draw import DEFAULT_SCALE, draw_map
from sheetgm.render.views import after, public_view
from sheetgm.service.game import open_game, player_key
from sheetgm.service.ledger.journal import read_director
from sheetgm.service.resolve import resolve
from sheetgm.service.workbooks.stagemap import ensure_stage_map
from sheetgm.sheets import mapcells
from sheetgm.sheets.stages import parse_key

runner = CliRunner()
DRAFT = """name = "sm"
seed = 3
lang = "en"
[options]
crack_target = 6
[[roster]]
alias = "Ann"
camp = "survivor"
[[roster]]
alias = "Bo"
camp = "survivor"
[[roster]]
alias = "Hu"
camp = "hunter"
"""


def run(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args))


def _game(tmp_path: Path, extra: str = "") -> Path:
    (tmp_path / "game.toml").write_text(DRAFT.replace("[options]", extra + "[options]"), "utf-8")
    assert run("new", "--game", str(tmp_path)).exit_code == 0
    for stage in ("N1-survivor", "N1-hunter"):
        done = run("resolve", "--game", str(tmp_path), "--stage", stage)
        assert done.exit_code == 0, done.output
    return tmp_path


def test_resolve_writes_each_nights_public_map_with_nothing_private(tmp_path: Path) -> None:
    folder = _game(tmp_path)
    game = open_game(folder)
    entries = read_director(game)[0]
    # once a night, in each language of the roster (the players read Chinese, the director English)
    assert sorted(p.name for p in (folder / "maps").iterdir()) == ["N1-hunter.png", "N1-hunter.zh.png"]
    for entry in entries[1:]:
        png = ensure_stage_map(game, entry).read_bytes()  # the survivor stage's is drawn when asked
        state = entry.state(game.board)
        night, stage = parse_key(entry.key)
        assert png == draw_map(game.board, after(public_view(state), night, stage), DEFAULT_SCALE, "en")
        # move every piece, hide every secret: the public picture does not change by a byte
        for p in state.players.values():
            p.pos = (game.board.width - 1 - p.pos[0], game.board.height - 1 - p.pos[1])
            p.items = []
        moved = replace(public_view(state))
        assert draw_map(game.board, after(moved, night, stage), DEFAULT_SCALE, "en") == png
    assert sorted(p.name for p in (folder / "maps").iterdir()) == ["N1-hunter.png", "N1-hunter.zh.png",
                                                                   "N1-survivor.png"]
    local = run("publish", "--map", "--game", str(folder))  # no map_url: never a path on the director's disk
    assert local.exit_code == 1 and local.stdout == "" and "[img]" not in local.output
    assert str(folder / "maps" / "N1-hunter.png") in local.stderr and "--map-url" in local.stderr


def test_publish_links_the_map_and_takes_a_night_like_rollback(tmp_path: Path) -> None:
    folder = _game(tmp_path, 'map_url = "https://img.example.com/sm/"\n')
    short = run("publish", "N1", "--map", "--game", str(folder))
    full = run("publish", "N1-survivor", "--map", "--game", str(folder))
    assert short.exit_code == 0, short.output
    assert short.stdout == full.stdout
    assert "[img]https://img.example.com/sm/N1-survivor.png[/img]" in short.stdout  # the English post
    assert "[img]https://img.example.com/sm/N1-survivor.zh.png[/img]" in short.stdout  # the Chinese one
    other = run("publish", "--map-url", "file:///m", "-f", "plain", "--game", str(folder))
    assert other.exit_code == 1 and "file:///m" in other.stderr and other.stdout == ""
    web = run("publish", "--map-url", "https://host.example/m", "-f", "plain", "--lang", "en", "--game", str(folder))
    assert "https://host.example/m/N1-hunter.png" in web.stdout and "[img]" not in web.stdout
    plain = run("publish", "N1-hunter", "--game", str(folder))
    assert "[img]" not in plain.stdout
    (folder / "maps" / "N1-hunter.png").unlink()  # a Google game resolved elsewhere: drawn on demand
    again = run("publish", "N1-hunter", "--map", "--game", str(folder))
    assert again.exit_code == 0 and (folder / "maps" / "N1-hunter.png").is_file()
    bad = run("publish", "N9", "--game", str(folder))
    assert bad.exit_code == 1 and "N1-survivor, N1-hunter" in bad.stderr


def test_status_lists_each_stage_once_after_a_rollback(tmp_path: Path) -> None:
    folder = _game(tmp_path)
    assert run("rollback", "N1", "--reason", "misread", "--game", str(folder)).exit_code == 0
    assert run("resolve", "--game", str(folder), "--stage", "N1-survivor").exit_code == 0
    st = json.loads(run("status", "--game", str(folder), "--json").stdout)
    keys = [j["stage"] for j in st["journal"]]
    assert keys == ["N0-setup", "N1-survivor", "N1-hunter"]
    assert [j["status"] for j in st["journal"]] == ["published", "published", "superseded"]
    assert [j["rolled_back"] for j in st["journal"]] == [0, 1, 1]
    text = run("status", "--game", str(folder)).stdout
    assert text.count("N1-survivor  published") == 1 and "rolled back 1 time(s)" in text


def test_each_players_map_history_keeps_every_stage(gw, tmp_path: Path) -> None:
    game = make_game(tmp_path, gw)
    write_order(game, 1, "无")
    resolve(game)
    write_order(game, 4, "无", night=1)
    resolve(game)
    h = game.board.height
    entries = read_director(game)[0]
    for seat, tab in ((1, "地图记录"), (4, "地图记录")):
        view = gw.view(player_key(seat)).tab(tab)
        for k, entry in enumerate(entries[1:]):
            top = k * (h + 3) + 1
            assert entry.key in view.values[top - 1][0]
            pos = entry.state(game.board).players[seat].pos
            row = view.values[top + pos[1]]
            assert "★" in row[pos[0]], (seat, entry.key, tile_name(pos))
            assert row[game.board.width] == str(pos[1] + 1)  # the map's own row label beside it
        assert view.borders[mapcells.cell(sorted(game.board.walls)[0][0], 2)]


def test_the_map_history_survives_in_a_workbook_made_before_it(tmp_path: Path) -> None:
    folder = tmp_path
    (folder / "game.toml").write_text(DRAFT, "utf-8")
    assert run("new", "--game", str(folder)).exit_code == 0
    import openpyxl

    from sheetgm.service.game import open_game

    path = open_game(folder).gateway.path(player_key(1))  # named by alias (e.g. 01-Ann.xlsx)
    wb = openpyxl.load_workbook(path)
    del wb["地图记录"]
    wb.save(path)
    assert run("resolve", "--game", str(folder), "--stage", "N1-survivor").exit_code == 0
    assert "地图记录" in XlsxGateway(folder / "workbooks").tabs(player_key(1))
