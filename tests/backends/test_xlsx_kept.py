"""What reading and writing workbooks work out, kept across commands (backends/xlsx/kept.py): a workbook read with
a cold table, a warm one, a damaged, cut or foreign one is the same workbook, and a check writes the same files and
says the same; an entry enters the table only when a second run parses its text, so what one run alone parses
(a check's status rows) neither grows the table nor has it rewritten; the table is bounded."""

from __future__ import annotations

import enum
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sheetgm.backends.xlsx import kept

# Every workbook of a game read, then described in full (every sheet's cells, pending rows parsed, its layout,
# the style table) and written again with a cell changed in every row of every sheet (the writer's rows made).
READ_ALL = r"""
import hashlib, io, json, sys, zipfile
from pathlib import Path
from sheetgm.backends.xlsx import kept
from sheetgm.backends.xlsx.book import Cell
from sheetgm.backends.xlsx.read import read_book
from sheetgm.backends.xlsx.write import write_book
described, written = hashlib.sha256(), hashlib.sha256()
for file in sorted(Path(sys.argv[1]).rglob("*.xlsx")):
    book = read_book(file.read_bytes())
    st = {k: v for k, v in vars(book.styles).items() if k != "line"}
    described.update(repr(sorted(st.items())).encode())
    for sheet in book.sheets:
        p = sheet.pending
        lazy = None if p is None else (p.start, p.end, p.last, p.measured, sorted(p.styles or ()), p.measure(p.text()))
        described.update(repr((sheet.name, sheet.root, sheet.kept, sheet.cols, sheet.view, sheet.frozen,
                               sheet.protection, sheet.validations, sheet.legacy, sheet.rels,
                               sorted(sheet.rows.items()), lazy,
                               [(at, c.kind, c.value, c.style, c.formula, c.sst, c.extra)
                                for at, c in sorted(sheet.cells.items())])).encode())
    styles = book.styles  # formats derived from the table's entries (their borders, fonts, fills parsed and made)
    made = [styles.derive(styles.derive(styles.derive(i, ("border", side, "medium")), ("bold", True)),
                          ("fill", "#aabbcc")) for i in range(len(styles.xfs)) for side in ("top", "left")]
    described.update(repr((made, [styles.xf(i) for i in made], [styles.look(i) for i in made], styles.xml())).encode())
    for sheet in book.sheets:
        for (r, c), cell in list(sheet.cells.items())[::7]:
            sheet.cells[(r, c)] = Cell("s", cell.value + "!", cell.style)
            sheet.touch_row(r)
    with zipfile.ZipFile(io.BytesIO(write_book(book))) as z:
        for name in sorted(z.namelist()):
            if not name.startswith("docProps/"):
                written.update(name.encode() + z.read(name))
fresh = {}
for (section, _key) in kept._fresh:
    fresh[section] = fresh.get(section, 0) + 1
print(json.dumps({"described": described.hexdigest(), "written": written.hexdigest(), "fresh": fresh,
                  "used": len(kept._used), "saved": kept.save()}))
"""


CLI = "import sys; from sheetgm.cli.main import main; sys.argv[0] = 'sheetgm'; main()"


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 6-player game played to its second night, the survivors' orders typed (as bench_speed's)."""
    from sheetgm.service.config.load import parse_config
    from sheetgm.service.demo import demo_config, submit
    from sheetgm.service.ledger.journal import latest, read_director
    from sheetgm.service.new_game import new_game
    from sheetgm.service.resolve import resolve

    folder = tmp_path_factory.mktemp("kept") / "g"
    g = new_game(folder, parse_config(demo_config(6, 1, "zh", 12), "t"))
    rng = random.Random(1)
    st = latest(read_director(g)[0]).state(g.board)
    while st.night < 2:
        for p in st.survivors() if st.stage == "survivor" else st.hunters():
            submit(g, st, p.seat, rng)
        resolve(g, stage=st.stage)
        st = latest(read_director(g)[0]).state(g.board)
    for p in st.survivors():
        submit(g, st, p.seat, rng)
    return folder


def _env(cache: Path) -> dict[str, str]:
    env = dict(os.environ, SHEETGM_CACHE_DIR=str(cache), PYTHONPATH=str(Path(kept.__file__).parents[3]))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _read_all(folder: Path, cache: Path) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", READ_ALL, str(folder)], env=_env(cache), capture_output=True,
                          text=True, check=True)
    out: dict[str, Any] = json.loads(done.stdout)
    return out


def test_cold_warm_damaged_read_alike(game: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cold = _read_all(game, cache)
    assert cold["used"] == 0 and cold["saved"] == [False, True]  # the digests noted, nothing kept yet
    assert set(cold["fresh"]) == {"layout", "styles", "sheet", "row", "cells", "wrow", "xf", "with_side",
                                  "with_bold", "sides"}
    second = _read_all(game, cache)
    assert second["saved"][0] is True  # parsed again: kept
    files = sorted(cache.glob("xlsx-kept.*"))
    assert len(files) == 1
    table = files[0].read_bytes()
    warm = _read_all(game, cache)
    assert warm["used"] > 0 and warm["fresh"] == {} and warm["saved"] == [False, False]  # nothing parsed
    assert files[0].read_bytes() == table
    for run in (second, warm):
        assert (run["described"], run["written"]) == (cold["described"], cold["written"])
    good = files[0].read_bytes()
    flipped = bytearray(good)
    flipped[len(good) // 2] ^= 0xFF
    for bad in (good[: len(good) // 2], bytes(flipped), good[:4] + b"another code 16b" + good[20:], b"",
                b"\x00garbage"):
        files[0].write_bytes(bad)
        run = _read_all(game, cache)
        assert run["used"] == 0 and (run["described"], run["written"]) == (cold["described"], cold["written"])


_WHEN = re.compile(rb'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d|"[cj]":"[0-9a-f]{16}"')


def _parts(folder: Path) -> dict[str, bytes]:
    """Every part of every workbook, inflated; what a check notes of the time (the director's desk) left out."""
    out = {}
    for file in sorted(folder.rglob("*.xlsx")):
        with zipfile.ZipFile(file) as z:
            for name in z.namelist():
                if not name.startswith("docProps/"):
                    out[f"{file.relative_to(folder)}:{name}"] = _WHEN.sub(b"(when)", z.read(name))
    return out


def _check(game: Path, cache: Path, copy: Path) -> tuple[str, str, dict[str, bytes]]:
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(game, copy)
    done = subprocess.run([sys.executable, "-c", CLI, "check", "--game", str(copy)], env=_env(cache),
                          capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr
    return done.stdout, done.stderr, _parts(copy)


def test_check_alike_cold_and_warm(game: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    for _ in range(3):  # the three within one minute: the times the cells show are to the minute
        shutil.rmtree(cache, ignore_errors=True)
        minute = int(time.time() // 60)
        runs = [_check(game, cache, tmp_path / "copy") for _ in range(3)]
        if int(time.time() // 60) == minute:
            break
    assert any(cache.glob("xlsx-kept.*"))
    assert runs[0][0] and runs[1] == runs[0] and runs[2] == runs[0]
    shutil.rmtree(cache)  # deleting the cache folder is always safe
    assert _check(game, cache, tmp_path / "copy") == runs[0]


@pytest.fixture
def fresh_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("SHEETGM_CACHE_DIR", str(tmp_path))
    kept.reset()
    yield tmp_path
    kept.reset()


def _run(notes: dict[str, str], gets: tuple[str, ...] = ()) -> tuple[dict[str, Any], tuple[bool, bool]]:
    """One run: ``gets`` looked up in the table, ``notes`` parsed (text -> result); what it found, what it saved."""
    kept.reset()
    found = {key: kept.get("row", key) for key in gets}
    for key, value in notes.items():
        if kept.get("row", key) is None:
            kept.note("row", key, value)
    return found, kept.save()


def test_only_what_a_second_run_parses_enters_the_table(fresh_kept: Path) -> None:
    table = kept.table_file()
    assert _run({"a": "A", "b": "B"}) == ({}, (False, True))
    assert not table.exists()
    assert _run({"b": "B", "c": "C"}) == ({}, (True, True))  # b parsed twice: kept
    assert _run({}, ("a", "b", "c")) == ({"a": None, "b": "B", "c": None}, (False, False))
    before = table.read_bytes()
    for i in range(5):  # a text new at every run (a status row): the table neither grows nor is written
        found, saved = _run({f"status {i}": "S"}, ("b",))
        assert found == {"b": "B"} and saved == (False, True)
        assert table.read_bytes() == before
    assert _run({"status 4": "S"}) == ({}, (True, True))  # the same twice: kept
    assert _run({}, ("b", "status 4")) == ({"b": "B", "status 4": "S"}, (False, False))  # nothing parsed: no write


def test_table_bounded_keeping_what_was_used(fresh_kept: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kept, "LIMIT", 600)
    big = {f"row {i}": "x" * 90 for i in range(8)}
    _run(big)
    _run(big)  # all eight kept: 8 results of ~100 bytes pass the limit, the first ones kept
    kept.reset()
    held = [key for key in big if kept.get("row", key) is not None]
    assert 0 < len(held) < 8
    _run({"new": "N"})
    _run({"new": "N"}, (held[-1],))  # adds "new": the entry used comes first, then the older ones while they fit
    kept.reset()
    assert kept.get("row", "new") == "N" and kept.get("row", held[-1]) == "x" * 90


class Kind(enum.IntEnum):
    A = 1


def test_keys_of_other_types_are_not_confused() -> None:
    assert kept.digest("wrow", (1, "a")) != kept.digest("wrow", (True, "a"))
    assert kept.digest("wrow", (Kind.A, "a")) is None
    assert kept.digest("row", "a") != kept.digest("layout", "a") != kept.digest("row", b"a")


def test_what_two_writers_in_a_row_did_not_use_falls_out(fresh_kept: Path) -> None:
    for text in ("night 1", "night 2", "night 3"):  # each night's rows, read by two runs (kept), never again
        _run({text: text.upper()})
        assert _run({text: text.upper()})[1][0] is True
    kept.reset()
    assert [kept.get("row", text) for text in ("night 1", "night 2", "night 3")] == [None, "NIGHT 2", "NIGHT 3"]


def test_a_process_past_its_share_of_texts_neither_looks_up_nor_notes(fresh_kept: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kept, "LOOK_LIMIT", 10)  # a large game: hashing every text would cost more than it saves
    for _ in range(2):
        _run({"abcdef": "A", "ghijkl": "B"})  # 6 characters, then 12: past the limit
    kept.reset()
    assert kept.get("row", "abcdef") == "A" and kept._table is not None and len(kept._table) == 1


def test_a_cache_that_cannot_be_written_costs_only_the_parsing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("SHEETGM_CACHE_DIR", str(blocker / "sub"))  # a folder under a file cannot be made
    kept.reset()
    try:
        for _ in range(2):
            assert _run({"a": "A"}) == ({}, (False, False))
    finally:
        kept.reset()
