"""Real files written by Excel (Windows, Mac, web), LibreOffice, WPS, Google Sheets, Numbers and others
(tests/fixtures/xlsx, sources and licenses in its README): every value reads as openpyxl or python-calamine
reads it, and a save that writes one cell drops nothing, in the file itself (parts, relationships, elements)
and as the witnesses see it (values, images, charts, tables, pivots, comments, hyperlinks, macros, custom
properties, protections, chart sheets, rich text)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from xlsx_witness import (
    by_calamine,
    by_openpyxl,
    differences,
    features,
    is_strict,
    ours,
    rich_runs,
    save_one_cell,
)

from sheetgm.backends.xlsx.book import text_of
from sheetgm.backends.xlsx.read import read_book

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "xlsx"
FILES = sorted(p for p in FIXTURES.iterdir() if p.suffix in (".xlsx", ".xlsm"))


def _witness(read: object, data: bytes) -> object:
    try:
        return read(data)  # type: ignore[operator]
    except Exception:  # noqa: BLE001 - a witness that cannot read a file does not vote on it
        return None


def test_the_corpus_is_real_files_from_every_program_players_use() -> None:
    readme = (FIXTURES / "README.md").read_text("utf-8")
    assert len(FILES) >= 30 and all(p.name in readme for p in FILES)
    for program in ("Excel", "Macintosh Excel", "Excel Online", "LibreOffice", "WPS", "Google Sheets", "Numbers"):
        assert program in readme, program
    assert sum(p.stat().st_size for p in FILES) < 2_000_000


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_value_reads_as_a_witness_reads_it(path: Path) -> None:
    data = path.read_bytes()
    opx, cal = _witness(by_openpyxl, data), _witness(by_calamine, data)
    assert opx is not None or cal is not None
    assert differences(ours(read_book(data)), opx, cal) == []  # type: ignore[arg-type]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_a_save_drops_nothing(path: Path) -> None:
    data = path.read_bytes()
    kept = save_one_cell(data)
    assert (kept.dropped_parts, kept.changed_parts, kept.dropped_elements, kept.value_changes) == ([], [], [], [])
    before, after = features(data), features(kept.saved)
    if is_strict(data):  # openpyxl reads no tab of a Strict file; saved as transitional, it does
        assert after is not None and all(s.name in after for s in read_book(data).sheets)
    elif before is not None:
        assert after == before
        assert rich_runs(kept.saved) == rich_runs(data)
    cal = _witness(by_calamine, data)
    if cal is not None:
        again = by_calamine(kept.saved)
        first = read_book(data).sheets[0].name
        again[first] = {rc: t for rc, t in again[first].items() if t != "sheetgm"}
        assert again == cal


def test_a_strict_file_is_read_and_saved_as_transitional() -> None:
    data = (FIXTURES / "poi-sample.strict.xlsx").read_bytes()
    book = read_book(data)
    assert [s.name for s in book.sheets] == ["Sheet1", "rich test", "Sheet3"]
    assert text_of(book, book.sheets[0].cells[(0, 0)]) == "Lorem"
    saved = save_one_cell(data).saved
    with zipfile.ZipFile(io.BytesIO(saved)) as z:
        assert all(b"purl.oclc.org/ooxml" not in z.read(n) for n in z.namelist())
    assert by_openpyxl(saved)["Sheet1"][(0, 0)] == "Lorem"


def test_text_reads_whole_rich_and_without_phonetic_guides() -> None:
    """Rich text keeps its first plain run; a Japanese phonetic guide (<rPh>) is not part of the text."""
    book = read_book((FIXTURES / "sheetjs-phonetic_text.xlsx").read_bytes())
    assert text_of(book, book.sheets[0].cells[(0, 0)]) == "漢字"
    book = read_book((FIXTURES / "roo-html_strings_formatting.xlsx").read_bytes())
    texts = {text_of(book, c) for c in book.sheets[0].cells.values()}
    assert "This has no formatting." in texts and "This has bold formatting." in texts


def test_a_mac_excel_file_with_an_empty_style_reads() -> None:
    book = read_book((FIXTURES / "calamine-empty_s_attribute.xlsx").read_bytes())
    assert any(text_of(book, c) for c in book.sheets[0].cells.values())


def test_durations_and_times_read_as_they_show() -> None:
    """[h]:mm:ss shows elapsed hours (36:00:00 for a day and a half); a time of day shows as a time."""
    book = read_book((FIXTURES / "sheetjs-LONumbers-2010.xlsx").read_bytes())
    shown = {text_of(book, c) for c in book.sheets[0].cells.values()}
    assert "29629:36:28.800000" in shown or any(t.count(":") == 2 and int(t.split(":")[0]) > 24 for t in shown)
