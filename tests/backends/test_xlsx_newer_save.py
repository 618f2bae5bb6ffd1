"""A file is replaced only if it is still the one read: a save a sync client lands meanwhile survives."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from sheetgm.backends.port import SetValues
from sheetgm.backends.xlsx import gateway as xlsx
from sheetgm.backends.xlsx.gateway import XlsxGateway


@pytest.fixture
def gw(tmp_path: Path) -> XlsxGateway:
    g = XlsxGateway(tmp_path)
    g.create("player-1", "P1", ["Orders", "Results"])
    return g


def sync_client_saves(tmp_path: Path, cell: str, text: str) -> None:
    """The player's save landing as a sync client lands it: the player's program saved a copy elsewhere, the client
    renames it into place (another program: it takes no sheetgm lock)."""
    elsewhere = tmp_path.parent / (tmp_path.name + "-player")
    elsewhere.mkdir(exist_ok=True)
    shutil.copy(tmp_path / "player-1.xlsx", elsewhere / "player-1.xlsx")
    XlsxGateway(elsewhere).write("player-1", [SetValues(cell, [[text]])])
    os.replace(elsewhere / "player-1.xlsx", tmp_path / "player-1.xlsx")


def _player_saves_once_before_our_replace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cell: str,
                                          text: str) -> list[int]:
    """The first serialisation of a workbook by sheetgm is followed by a 'sync client' landing the player's
    save (another gateway, as another program) before sheetgm replaces the file."""
    plain = xlsx.write_book
    done: list[int] = []

    def write_book(book):  # type: ignore[no-untyped-def]
        data = plain(book)
        if not done:
            done.append(1)
            monkeypatch.setattr(xlsx, "write_book", plain)
            sync_client_saves(tmp_path, cell, text)
            monkeypatch.setattr(xlsx, "write_book", write_book)
        return data

    monkeypatch.setattr(xlsx, "write_book", write_book)
    return done


def test_a_save_landed_between_read_and_replace_survives(gw: XlsxGateway, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    done = _player_saves_once_before_our_replace(tmp_path, monkeypatch, "Orders!A1", "移动 B3")
    gw.write("player-1", [SetValues("Results!A1", [["stage 1 report"]])])
    assert done == [1] and gw.redone == 1
    fresh = XlsxGateway(tmp_path)
    assert fresh.read("player-1", ["Orders!A1", "Results!A1"]) == {
        "Orders!A1": [["移动 B3"]], "Results!A1": [["stage 1 report"]]}


def test_inside_a_batch_every_change_is_made_again_on_the_newer_file(gw: XlsxGateway, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    with gw.batch():
        gw.write("player-1", [SetValues("Results!A1", [["one"]])])
        sync_client_saves(tmp_path, "Orders!A1", "player's save")  # mid-batch
        gw.write("player-1", [SetValues("Results!A2", [["two"]])])
        assert gw.read("player-1", ["Results!A1:A2"]) == {"Results!A1:A2": [["one"], ["two"]]}
    assert gw.redone == 1
    got = XlsxGateway(tmp_path).read("player-1", ["Orders!A1", "Results!A1:A2"])
    assert got == {"Orders!A1": [["player's save"]], "Results!A1:A2": [["one"], ["two"]]}


def test_a_player_saving_the_same_cell_is_overwritten_only_where_sheetgm_writes(
        gw: XlsxGateway, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sheetgm's changes are made again on the newer file: its own cells hold its text, every other cell the
    player's."""
    _player_saves_once_before_our_replace(tmp_path, monkeypatch, "Orders!A1:B1", "x")
    gw.write("player-1", [SetValues("Orders!B1", [["sheetgm"]])])
    assert XlsxGateway(tmp_path).read("player-1", ["Orders!A1:B1"]) == {"Orders!A1:B1": [["x", "sheetgm"]]}


def test_a_file_that_keeps_changing_is_named_and_left_as_the_player_saved_it(
        gw: XlsxGateway, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plain = xlsx.write_book
    saves: list[str] = []

    def write_book(book):  # type: ignore[no-untyped-def]
        data = plain(book)
        if book.title == "P1" and len(saves) < 50 and not getattr(book, "_player", False):
            saves.append(f"save {len(saves)}")
            monkeypatch.setattr(xlsx, "write_book", plain)  # the player's own program saves plainly
            sync_client_saves(tmp_path, "Orders!A1", saves[-1])
            monkeypatch.setattr(xlsx, "write_book", write_book)
        return data

    monkeypatch.setattr(xlsx, "write_book", write_book)
    with pytest.raises(xlsx.FileError) as err:
        gw.write("player-1", [SetValues("Results!A1", [["ours"]])])
    assert "player-1.xlsx" in err.value.message("en") and "again" in err.value.message("en")
    monkeypatch.undo()
    assert len(saves) == xlsx._TRIES
    last = XlsxGateway(tmp_path).read("player-1", ["Orders!A1", "Results!A1"])
    assert last == {"Orders!A1": [[saves[-1]]], "Results!A1": []}  # the player's last save, nothing half written
