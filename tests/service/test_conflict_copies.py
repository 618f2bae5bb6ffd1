"""Conflict copies and renamed files beside a player's workbook, in a WebDAV seat's folder (a real WsgiDAV) and in a
local game's workbooks folder: the newest copy carrying the seat's seal is read and becomes the workbook, older ones
are named to delete, another seat's or a forged one is refused and named; each told once."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import dav_servers
import pytest
from svc_helpers import make_game, orders_row

from sheetgm.backends.port import SetValues
from sheetgm.backends.webdav.client import DavClient
from sheetgm.backends.webdav.gateway import WebDavGateway
from sheetgm.backends.xlsx.gateway import XlsxGateway
from sheetgm.service.check import check
from sheetgm.service.game import Game, open_game, player_key
from sheetgm.sheets import layout
from sheetgm.sheets.stages import order_row


def _with_order(data: bytes, scratch: Path, order: str) -> bytes:
    """The workbook's bytes with ``order`` typed and ticked in night 1's row (as the player's program saved it)."""
    scratch.mkdir(parents=True, exist_ok=True)
    (scratch / "x.xlsx").write_bytes(data)
    r = order_row(1)
    XlsxGateway(scratch).write("x", [SetValues(layout.rng(layout.tab("zh", "orders"), f"B{r}:C{r}"), [[order, "✓"]])])
    return (scratch / "x.xlsx").read_bytes()


class Where:
    """The server's folder of a WebDAV game, or a local game's workbooks folder: where a sync client writes."""

    def __init__(self, game: Game, folder: Path, files: Path) -> None:
        self.game, self.folder, self.files = game, folder, files

    def main(self, seat: int) -> Path:
        gw = self.game.gateway
        rel = gw.path(player_key(seat))
        return self.files / rel if not rel.is_absolute() else rel

    def fresh(self) -> Game:
        gw = self.game.gateway
        if isinstance(gw, WebDavGateway):
            return open_game(self.folder, gateway=WebDavGateway(
                DavClient(gw.client.root, dav_servers.USER, dav_servers.PASSWORD)))
        return open_game(self.folder, gateway=XlsxGateway(self.folder / "workbooks"))


@pytest.fixture(params=["webdav", "xlsx"])
def where(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Where]:
    monkeypatch.setenv("SHEETGM_LANG", "en")  # what the director reads
    if request.param == "xlsx":
        game = make_game(tmp_path / "game", XlsxGateway(tmp_path / "game" / "workbooks"))
        yield Where(game, game.folder, game.folder / "workbooks")
        return
    with dav_servers.wsgidav(tmp_path / "server") as server:
        gw = WebDavGateway(DavClient(server.url, dav_servers.USER, dav_servers.PASSWORD))
        game = make_game(tmp_path / "game", gw)
        yield Where(game, game.folder, tmp_path / "server")


def test_the_newest_sealed_copy_is_read_older_and_foreign_ones_are_named(where: Where, tmp_path: Path) -> None:
    main = where.main(1)
    base = main.read_bytes()
    stem = main.stem
    older = main.parent / f"{stem} (1).xlsx"  # a download saved again
    older.write_bytes(_with_order(base, tmp_path / "o", "移动 B2"))
    os.utime(older, (main.stat().st_mtime - 3600,) * 2)
    newest = main.parent / f"{stem}-NSConflict-小明-20261206.xlsx"  # Nutstore's conflict copy
    newest.write_bytes(_with_order(base, tmp_path / "n", "搜索"))
    os.utime(newest, (main.stat().st_mtime + 60,) * 2)
    shutil.copy(where.main(2), main.parent / f"{stem} (conflicted copy 2026-12-06).xlsx")  # seat 2's workbook
    os.utime(main.parent / f"{stem} (conflicted copy 2026-12-06).xlsx", (main.stat().st_mtime + 120,) * 2)

    rep = check(where.fresh())
    assert "S1" not in rep.missing + rep.without_order  # the order of the conflict copy was read
    said = "\n".join(rep.warnings)
    assert f"{newest.name} beside it" in said and "is now their workbook" in said
    assert f"{older.name} is an older copy" in said
    assert f"{stem} (conflicted copy 2026-12-06).xlsx in their folder carries the seal of player-2" in said
    fresh = where.fresh()
    assert orders_row(fresh, 1)[1:3] == ["搜索", "✓"]
    assert newest.exists()  # the copy stays, for the player to delete
    assert not any("copy" in w for w in check(where.fresh()).warnings)  # told once


def test_without_a_newer_copy_nothing_is_adopted(where: Where, tmp_path: Path) -> None:
    main = where.main(1)
    old = main.parent / f"{main.stem}-DESKTOP-4F2K.xlsx"  # OneDrive's copy named for the machine
    old.write_bytes(_with_order(main.read_bytes(), tmp_path / "o", "搜索"))
    os.utime(old, (main.stat().st_mtime - 600,) * 2)
    rep = check(where.fresh())
    assert "S1" in rep.missing + rep.without_order and any(f"{old.name} is an older copy" in w for w in rep.warnings)
