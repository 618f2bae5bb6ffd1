"""Pictures and the font kept between commands (render/kept.py, render/fonts.py; issue 26): a map drawn with them
is the map drawn without them, byte for byte, whatever has happened to the files; they are pixels and a font's
path, never code, and only this user's regular files are read."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from sheetgm.core import cachedir
from sheetgm.core.board import Board
from sheetgm.core.setup import SeatSpec, new_game
from sheetgm.core.state import State
from sheetgm.notation.mapfile import ready_map
from sheetgm.render import draw, fonts, kept
from sheetgm.render.views import public_view

S = 32
ROSTER = [SeatSpec(f"S{i}", "survivor") for i in range(1, 9)] + [SeatSpec("H1", "hunter"), SeatSpec("H2", "hunter")]


@pytest.fixture()
def board() -> Board:
    return ready_map("standard")


@pytest.fixture()
def state(board: Board) -> State:
    return new_game(board, ROSTER, seed=5)


@pytest.fixture()
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    cache = tmp_path / "cache"
    monkeypatch.setenv(cachedir.CACHE_ENV, str(cache))
    cachedir.forget()
    _fresh()
    yield cache
    cachedir.forget()
    _fresh()


def _fresh() -> None:
    """A new process as far as the drawing goes: nothing drawn or found in memory."""
    draw._ground.cache_clear()
    draw._KEYS.clear()
    draw._FITS.clear()
    fonts.find_font.cache_clear()


def _pictures(cache: Path) -> list[Path]:
    return sorted(cache.glob("picture-*.bin"))


def _map(board: Board, state: State) -> bytes:
    return draw.draw_map(board, public_view(state), S, "zh")


def _without_cache(board: Board, state: State, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> bytes:
    """The map drawn where no cache folder may be used (one open to others is refused)."""
    other = tmp_path / "open"
    other.mkdir(mode=0o777)
    other.chmod(0o777)
    with monkeypatch.context() as m:
        m.setenv(cachedir.CACHE_ENV, str(other))
        cachedir.forget()
        _fresh()
        png = _map(board, state)
        assert not list(other.iterdir())
    cachedir.forget()
    _fresh()
    return png


def test_a_map_drawn_from_kept_pictures_is_the_map_drawn_anew(board: Board, state: State, folder: Path,
                                                              monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path) -> None:
    plain = _without_cache(board, state, monkeypatch, tmp_path)
    first = _map(board, state)
    made = _pictures(folder)
    assert len(made) >= 2  # the ground and the legend's keys
    _fresh()
    calls: list[str] = []
    real = draw._Canvas.tiles
    monkeypatch.setattr(draw._Canvas, "tiles", lambda self: (calls.append("tiles"), real(self))[1])
    again = _map(board, state)
    assert calls == []  # the ground came from the folder: not drawn again
    assert plain == first == again


@pytest.mark.parametrize("damage", ["cut", "garbage", "empty", "wrong size", "trailing bytes", "other mark",
                                    "huge", "fifo", "link", "folder"])
def test_a_damaged_kept_picture_is_drawn_again_and_the_map_is_the_same(board: Board, state: State, folder: Path,
                                                                       monkeypatch: pytest.MonkeyPatch,
                                                                       tmp_path: Path, damage: str) -> None:
    plain = _without_cache(board, state, monkeypatch, tmp_path)
    _map(board, state)
    target = tmp_path / "elsewhere.bin"
    target.write_bytes(b"keep me")
    for file in _pictures(folder):
        data = file.read_bytes()
        file.unlink()
        if damage == "cut":
            file.write_bytes(data[: len(data) // 2])
        elif damage == "garbage":
            file.write_bytes(os.urandom(len(data)))
        elif damage == "empty":
            file.write_bytes(b"")
        elif damage == "wrong size":
            file.write_bytes(data[:6] + (7).to_bytes(4, "big") + data[10:])
        elif damage == "trailing bytes":
            file.write_bytes(data + b"\0" * 8)
        elif damage == "other mark":
            file.write_bytes(b"XXXXXX" + data[6:])
        elif damage == "huge":
            with file.open("wb") as out:
                out.truncate(kept.LIMIT + 1)
        elif damage == "fifo":
            os.mkfifo(file)
        elif damage == "link":
            file.symlink_to(target)
        else:
            file.mkdir()
    _fresh()
    assert _map(board, state) == plain
    assert target.read_bytes() == b"keep me"  # nothing written through a link


def test_no_more_than_keep_pictures_are_kept(folder: Path) -> None:
    from PIL import Image

    for i in range(kept.KEEP + 5):
        assert kept.keep(kept.name_of(("test", i)), Image.new("RGB", (3, 2), (i, 0, 0)))
    assert len(_pictures(folder)) == kept.KEEP
    assert kept.load(kept.name_of(("test", kept.KEEP + 4)), (3, 2)) is not None  # the newest stay


def test_another_board_or_language_reads_another_picture(board: Board) -> None:
    geo = draw.geometry(board, public_view(new_game(board, ROSTER, seed=5)), S)
    moved = Board(**{**{f: getattr(board, f) for f in board.__dataclass_fields__}, "walls": frozenset()})
    names = {kept.name_of(("ground", kept.board_key(b), geo, lang)) for b in (board, moved) for lang in ("zh", "en")}
    assert len(names) == 4


def test_the_font_found_is_kept_and_a_kept_font_that_changed_is_looked_for_again(
        folder: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    found = fonts.find_font()
    if not found.cjk:
        pytest.skip("no CJK font on this machine: nothing to keep")
    note = folder / fonts.KEPT
    assert json.loads(note.read_text("utf-8"))["path"] == found.path
    searched: list[int] = []
    real = fonts._search
    monkeypatch.setattr(fonts, "_search", lambda: (searched.append(1), real())[1])
    fonts.find_font.cache_clear()
    assert fonts.find_font() == found and searched == []  # kept: no fc-list, no probing
    for planted in ({"path": str(tmp_path / "gone.ttc"), "index": 0, "stamp": "1:1"},
                    {"path": found.path, "index": 0, "stamp": "0:0"},  # the file changed since
                    {"path": found.path, "index": "0"}, [1, 2], "x" * 5000):
        note.write_text(json.dumps(planted), "utf-8")
        fonts.find_font.cache_clear()
        searched.clear()
        assert fonts.find_font() == found and searched == [1]


def test_a_picture_too_large_to_keep_is_drawn_each_time(folder: Path) -> None:
    from PIL import Image

    made: list[int] = []
    big = (kept.PIXELS // 1000 + 1, 1000)
    for _ in range(2):
        kept.picture(("big",), big, lambda: (made.append(1), Image.new("RGB", big))[1])
    assert made == [1, 1] and not _pictures(folder)
    kept.picture(("small",), (3, 3), lambda: (made.append(1), Image.new("RGB", (3, 3)))[1])
    kept.picture(("small",), (3, 3), lambda: (made.append(1), Image.new("RGB", (3, 3)))[1])
    assert made == [1, 1, 1] and len(_pictures(folder)) == 1


def test_without_the_drawing_code_to_digest_nothing_is_kept(board: Board, state: State, folder: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kept, "_code", [b""])  # as where the modules' source cannot be read (a packed install)
    first = _map(board, state)
    assert not _pictures(folder)
    _fresh()
    assert _map(board, state) == first
