"""The WebDAV adapter on real servers: a player's save between sheetgm's read and write survives; a server that
ignores If-Match is handled by looking again right before the write."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import dav_servers
import pytest
import requests

from sheetgm.backends.errors import FileError
from sheetgm.backends.port import Protect, SetValues
from sheetgm.backends.webdav import gateway as dav
from sheetgm.backends.webdav.client import DavClient
from sheetgm.backends.webdav.gateway import WebDavGateway
from sheetgm.backends.webdav.probe import probe


def _gw(root: str, **kw: object) -> WebDavGateway:
    return WebDavGateway(DavClient(root, dav_servers.USER, dav_servers.PASSWORD), **kw)  # type: ignore[arg-type]


@pytest.fixture
def rclone_root(tmp_path: Path) -> Iterator[str]:
    missing = dav_servers.rclone_missing()
    if missing:
        print(f"skipped: {missing}")
        pytest.skip(missing)
    with dav_servers.rclone(tmp_path / "rclone") as server:
        yield server.url


def _player_saves_before_each_put(monkeypatch: pytest.MonkeyPatch, root: str, times: int) -> list[str]:
    """Right after sheetgm serialised a workbook and before it puts it, the player saves it (a PUT of the
    player's own program, through another client) ``times`` times in all."""
    plain = dav.write_book
    saves: list[str] = []

    def write_book(book):  # type: ignore[no-untyped-def]
        data = plain(book)
        if len(saves) < times:
            saves.append(f"移动 B{len(saves) + 1}")
            monkeypatch.setattr(dav, "write_book", plain)
            _gw(root).write("player-1", [SetValues("Orders!A1", [[saves[-1]]])])
            monkeypatch.setattr(dav, "write_book", write_book)
        return data

    monkeypatch.setattr(dav, "write_book", write_book)
    return saves


def test_a_save_between_read_and_write_survives(dav_root: str, monkeypatch: pytest.MonkeyPatch) -> None:
    gw = _gw(dav_root)
    gw.create("player-1", "P1", ["Orders", "Results"])
    saves = _player_saves_before_each_put(monkeypatch, dav_root, 1)
    gw.write("player-1", [SetValues("Results!A1", [["report"]])])
    assert saves and gw.redone == 1
    got = _gw(dav_root).read("player-1", ["Orders!A1", "Results!A1"])
    assert got == {"Orders!A1": [[saves[-1]]], "Results!A1": [["report"]]}


def test_a_batch_redoes_every_change_on_the_newer_file(dav_root: str) -> None:
    gw = _gw(dav_root)
    gw.create("player-1", "P1", ["Orders", "Results"])
    with gw.batch():
        gw.write("player-1", [SetValues("Results!A1", [["one"]])])
        _gw(dav_root).write("player-1", [SetValues("Orders!A1", [["the player's save"]])])
        gw.write("player-1", [Protect("Results", [], "results closed")])
    got = _gw(dav_root).read("player-1", ["Orders!A1", "Results!A1"])
    assert got == {"Orders!A1": [["the player's save"]], "Results!A1": [["one"]]}
    assert [p.description for p in _gw(dav_root).protections("player-1")] == ["results closed"]


def test_saves_that_keep_coming_are_named_and_kept(dav_root: str, monkeypatch: pytest.MonkeyPatch) -> None:
    gw = _gw(dav_root)
    gw.create("player-1", "P1", ["Orders", "Results"])
    saves = _player_saves_before_each_put(monkeypatch, dav_root, 50)
    with pytest.raises(dav.ChangingError) as err:
        gw.write("player-1", [SetValues("Results!A1", [["report"]])])
    assert "player-1.xlsx" in err.value.message("en") and dav_servers.PASSWORD not in err.value.message("en")
    monkeypatch.undo()
    got = _gw(dav_root).read("player-1", ["Orders!A1", "Results!A1"])
    assert got == {"Orders!A1": [[saves[-1]]], "Results!A1": []}


def test_wsgidav_honours_if_match_and_the_probe_says_so(dav_root: str) -> None:
    found = probe(DavClient(dav_root, dav_servers.USER, dav_servers.PASSWORD))
    assert found.if_match and found.etags and found.skew is not None and abs(found.skew) < 5


def test_rclone_ignores_if_match_and_the_look_before_the_write_keeps_the_save(
        rclone_root: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert not probe(DavClient(rclone_root, dav_servers.USER, dav_servers.PASSWORD)).if_match
    gw = _gw(rclone_root, if_match=False)
    gw.create("player-1", "P1", ["Orders", "Results"])
    saves = _player_saves_before_each_put(monkeypatch, rclone_root, 1)
    gw.write("player-1", [SetValues("Results!A1", [["report"]])])
    assert gw.redone == 1
    got = _gw(rclone_root).read("player-1", ["Orders!A1", "Results!A1"])
    assert got == {"Orders!A1": [[saves[-1]]], "Results!A1": [["report"]]}


def test_folders_are_named_for_people(dav_root: str, dav_server: dav_servers.Server) -> None:
    gw = _gw(dav_root, names={"player-3": "03-小明", "public": "春季杯-public"})
    gw.create("player-3", "P3", ["Orders"])
    gw.create("public", "Pub", ["Log"])
    base = dav_server.folder / dav_root.rstrip("/").rsplit("/", 1)[1]
    assert (base / "03-小明" / "03-小明.xlsx").is_file() and (base / "春季杯-public" / "春季杯-public.xlsx").is_file()
    assert _gw(dav_root).tabs("player-3") == ["Orders"]  # found again through the record, names not given


def test_a_damaged_list_of_file_names_is_said_in_the_directors_language(dav_root: str) -> None:
    requests.put(dav_root + dav.FILES, data=b"[1, 2]", auth=(dav_servers.USER, dav_servers.PASSWORD), timeout=10)
    with pytest.raises(FileError) as err:
        _gw(dav_root).read("player-1", ["Orders!A1"])
    assert err.value.code == "err.backend.file.bad_record"
    assert "不是本游戏工作簿及其文件名的清单" in err.value.message("zh")
