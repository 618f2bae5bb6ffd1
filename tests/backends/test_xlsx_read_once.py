"""A sheet's XML outside its cells is parsed once per distinct text in a process (``read._layout``): a workbook
read from the memo reads and writes back as one parsed afresh, on real files and on files sheetgm wrote, and
each gets its own copy of what it may change."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest

from sheetgm.backends import port
from sheetgm.backends.errors import UnreadableFileError
from sheetgm.backends.xlsx import read as xlsx_read
from sheetgm.backends.xlsx.book import Book
from sheetgm.backends.xlsx.gateway import XlsxGateway
from sheetgm.backends.xlsx.write import write_book

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
REAL = sorted(p for d in ("xlsx", "libreoffice") for p in (FIXTURES / d).iterdir() if p.suffix in (".xlsx", ".xlsm"))


def _layouts(book: Book) -> list[tuple[object, ...]]:
    return [(s.root, s.kept, s.cols, s.view, s.frozen, s.protection, s.validations, s.legacy) for s in book.sheets]


def _written(book: Book) -> dict[str, bytes]:
    """The parts a save writes, the time of the save left out (a file sheetgm wrote records it)."""
    with zipfile.ZipFile(io.BytesIO(write_book(book))) as z:
        parts = {name: z.read(name) for name in z.namelist()}
    return {name: re.sub(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", b"T", data) for name, data in parts.items()}


def _ours(tmp_path: Path) -> bytes:
    gw = XlsxGateway(tmp_path)
    gw.create("p", "p", ["Map", "Orders"])
    gw.write("p", [port.SetValues("Map!A1:B2", [["x", "y"], ["z", ""]]), port.SetBackground("Map!A1:B2", "#ffe599"),
                   port.FreezeRows("Map", 1), port.ResizeColumns("Map!A:B", 40),
                   port.Protect("Map", ["gm@example.com"], "map", ["Map!B2:B3"]),
                   port.SetValidation("Orders!A1:A3", ["move", "hide"], help="pick one")])
    return gw.path("p").read_bytes()


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_a_workbook_read_from_the_memo_is_the_one_parsed_afresh(path: Path) -> None:
    data = path.read_bytes()
    xlsx_read._LAYOUTS.clear()
    try:
        fresh = xlsx_read.read_book(data)
    except UnreadableFileError:
        pytest.skip("a file refused either way")
    held = len(xlsx_read._LAYOUTS)
    again = xlsx_read.read_book(data)
    assert held and len(xlsx_read._LAYOUTS) == held  # every sheet's layout was found in the memo
    assert _layouts(again) == _layouts(fresh)
    assert _written(again) == _written(fresh)


def test_a_workbook_sheetgm_wrote_reads_the_same_from_the_memo(tmp_path: Path) -> None:
    data = _ours(tmp_path)
    xlsx_read._LAYOUTS.clear()
    fresh = xlsx_read.read_book(data)
    again = xlsx_read.read_book(data)
    tabs = {s.name: s for s in fresh.sheets}
    assert tabs["Map"].frozen == (1, 0) and tabs["Map"].cols and tabs["Map"].protection and tabs["Orders"].validations
    assert _layouts(again) == _layouts(fresh) and _written(again) == _written(fresh)


def test_each_workbook_gets_its_own_copy_of_what_it_may_change(tmp_path: Path) -> None:
    data = _ours(tmp_path)
    xlsx_read._LAYOUTS.clear()
    first = xlsx_read.read_book(data)
    want = repr(_layouts(xlsx_read.read_book(data)))  # as text: a shared object would change with it
    map_tab, orders = (next(s for s in first.sheets if s.name == name) for name in ("Map", "Orders"))
    map_tab.kept.append((99.0, "extra", "<extra/>"))
    map_tab.cols.append(map_tab.cols[0])
    for col in map_tab.cols:
        col.attrs["width"], col.max = "99", 999
    map_tab.view["zoomScale"] = "50"
    assert map_tab.protection is not None
    map_tab.protection["sheet"] = "0"
    orders.validations[0].attrs["type"] = "whole"
    orders.validations.append(orders.validations[0])
    assert repr(_layouts(xlsx_read.read_book(data))) == want


def test_the_layouts_held_are_bounded_by_their_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xlsx_read, "_LAYOUTS_HELD", [0, 300])
    xlsx_read._LAYOUTS.clear()
    texts = [f'<worksheet xmlns="{xlsx_read.xmlkit.MAIN}"><sheetData/><x{i}/></worksheet>'.encode() for i in range(9)]
    for text in texts:
        xlsx_read._layout(text)
        held = sum(map(len, xlsx_read._LAYOUTS))
        assert held == xlsx_read._LAYOUTS_HELD[0] <= 300
    assert len(texts[0]) == 106 and len(xlsx_read._LAYOUTS) == 1  # two held at most: emptied at the 3rd, 5th...
    assert xlsx_read._layout(texts[-1]) is xlsx_read._LAYOUTS[texts[-1]]


@pytest.mark.parametrize("path", REAL[:6], ids=lambda p: p.name)
def test_relationships_and_content_types_from_the_memo_are_those_parsed_afresh(path: Path) -> None:
    data = path.read_bytes()
    xlsx_read._RELS.clear()
    xlsx_read._TYPES.clear()
    try:
        fresh = xlsx_read.read_book(data)
    except UnreadableFileError:
        pytest.skip("a file refused either way")
    assert xlsx_read._RELS and xlsx_read._TYPES
    want = repr((fresh.package_rels, fresh.workbook_rels, [s.rels for s in fresh.sheets], fresh.defaults,
                 fresh.overrides))
    fresh.package_rels.append(fresh.package_rels[0]) if fresh.package_rels else None
    fresh.workbook_rels.clear()
    for sheet in fresh.sheets:
        sheet.rels.append(xlsx_read.Rel("x", "y", "z"))
    fresh.defaults["new"] = "x"
    fresh.overrides.clear()
    again = xlsx_read.read_book(data)
    assert repr((again.package_rels, again.workbook_rels, [s.rels for s in again.sheets], again.defaults,
                 again.overrides)) == want
    assert _written(again) == _written(xlsx_read.read_book(data))


def test_the_small_parts_held_are_bounded_by_their_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xlsx_read, "_RELS_HELD", [0, 1500])
    monkeypatch.setattr(xlsx_read, "_TYPES_HELD", [0, 2500])
    xlsx_read._RELS.clear()
    xlsx_read._TYPES.clear()
    for path in REAL:
        try:
            xlsx_read.read_book(path.read_bytes())
        except UnreadableFileError:
            continue
        for memo, held in ((xlsx_read._RELS, xlsx_read._RELS_HELD), (xlsx_read._TYPES, xlsx_read._TYPES_HELD)):
            assert sum(map(len, memo)) == held[0] and (held[0] <= held[1] or len(memo) == 1)
    assert xlsx_read._TYPES and xlsx_read._RELS
