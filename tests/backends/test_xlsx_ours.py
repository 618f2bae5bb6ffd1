"""A sheet of a file sheetgm wrote is read by the writer's own patterns (``read._read_our_cells``), without an XML
tree: whatever was written, it reads exactly as the XML parser reads it, and anything in another shape (a
number, a formula, a stray entity, a file edited by hand that still says sheetgm made it) goes to the parser."""

from __future__ import annotations

import io
import random
import zipfile
from pathlib import Path

import pytest

from sheetgm.backends import port
from sheetgm.backends.errors import UnreadableFileError
from sheetgm.backends.xlsx import read as xlsx_read
from sheetgm.backends.xlsx.book import Book
from sheetgm.backends.xlsx.gateway import XlsxGateway

TEXTS = ["", "x", "a & b", "<b>", "x > y", "  padded ", "two\nlines", "tab\there", "_x0041_ kept", "line\r\nend",
         "引号\"和'撇号", "]] >", "&amp;", "&#13;", "1", "=1+1", "\u3000全角", "é"]


def _book(tmp_path: Path, seed: int) -> bytes:
    rng = random.Random(seed)
    gw = XlsxGateway(tmp_path)
    gw.create("player-1", "P1", ["Orders", "Map"])
    for _ in range(12):
        tab = rng.choice(["Orders", "Map"])
        r, c = rng.randint(1, 30), rng.randint(0, 8)
        cell = f"{tab}!{'ABCDEFGHI'[c]}{r}"
        gw.write("player-1", [
            port.SetValues(cell, [[rng.choice(TEXTS) for _ in range(3)] for _ in range(2)]),
            port.SetBackground(f"{tab}!A{r}:C{r + 2}", rng.choice([None, "#ffe599"])),
            port.SetBorders(f"{tab}!B{r}:D{r + 1}", ("outer",), "thick"),
            port.ResizeRows(f"{tab}!{r}:{r}", rng.choice([21, 44])),
        ])
    return (tmp_path / "player-1.xlsx").read_bytes()


def _cells(book: Book) -> list[object]:
    return [(s.name, {rc: (c.kind, c.value, c.style, c.formula, c.sst, c.extra) for rc, c in s.cells.items()},
             s.rows) for s in book.sheets]


@pytest.mark.parametrize("seed", range(8))
def test_a_sheet_sheetgm_wrote_reads_as_the_parser_reads_it(tmp_path: Path, seed: int,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    data = _book(tmp_path, seed)
    used: list[bool] = []
    real = xlsx_read._read_our_cells
    monkeypatch.setattr(xlsx_read, "_read_our_cells", lambda *a: used.append(real(*a)) or used[-1])
    fast = xlsx_read.read_book(data)
    assert any(used)  # the patterns read sheets of this file
    monkeypatch.setattr(xlsx_read, "_read_our_cells", lambda *a: False)
    assert _cells(fast) == _cells(xlsx_read.read_book(data))
    assert any(c.value for s in fast.sheets for c in s.cells.values())


def _edited(data: bytes, old: bytes, new: bytes) -> bytes:
    """The file with its Map sheet's XML edited (it still says sheetgm made it)."""
    src, buf = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == "xl/worksheets/sheet2.xml":
                assert old in body
                body = body.replace(old, new, 1)
            z.writestr(info.filename, body)
    return buf.getvalue()


@pytest.mark.parametrize(("old", "new"), [
    (b"</row>", b'<c r="Z1"><v>12</v></c></row>'),  # a number
    (b"</row>", b'<c r="Z1" t="str"><f>1+1</f><v>2</v></c></row>'),  # a formula
    (b"<t>", b"<t>&quot;"),  # an entity the writer does not make
    (b"<t>", b"<t>a\r\nb"),  # a raw carriage return: the parser reads a line feed
    (b"<t>", b"<t> \t"),  # blanks at the start of a text not marked preserve: layout
    (b"<t>", "<t> \u3000".encode()),  # an ideographic space is text, not layout
    (b"<t>", b"<t> X"),  # only blanks are layout
    (b"</t>", b" \n</t>"),  # blanks at its end
    (b'"><c r="', b'" spans="1:9"><c r="'),  # the row's spans: not one of its own attributes
    (b"</row>", b'<c r="Z1"/><c r="Y1" s="0"/></row>'),  # cells with neither a value nor a format
    (b'"><c r="', b'" x="a\rb"><c r="'),  # a raw carriage return in a row's attribute
    (b'"><c r="', b'" x="a\r\nb"><c r="'),
])
def test_another_shape_in_a_file_sheetgm_wrote_goes_to_the_parser(tmp_path: Path, old: bytes, new: bytes,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    data = _book(tmp_path, 1)
    edited = _edited(data, old, new)
    fast = xlsx_read.read_book(edited)
    monkeypatch.setattr(xlsx_read, "_read_our_cells", lambda *a: False)
    assert _cells(fast) == _cells(xlsx_read.read_book(edited))


@pytest.mark.parametrize(("old", "bad"), [
    (b"<t>", b"<t>a]]>b"), (b"<t>", b"<t>\x01"), (b"<t>", b"<t>&bogus;"), (b"<t>", "<t>\ufffe".encode()),
    (b'"><c r="', b'" x="\x0b"><c r="'),  # a character XML refuses, in a row's attribute
    (b'"><c r="', b'" ht="20" ht="21"><c r="'), (b'"><c r="', b'" r="1"><c r="'),  # a row's attribute twice
])
def test_a_malformed_sheet_claiming_sheetgm_is_still_refused(tmp_path: Path, old: bytes, bad: bytes) -> None:
    data = _book(tmp_path, 2)
    with pytest.raises(UnreadableFileError):
        (tmp_path / "bad").mkdir()
        (tmp_path / "bad" / "player-1.xlsx").write_bytes(_edited(data, old, bad))
        XlsxGateway(tmp_path / "bad").read("player-1", ["Map!A1"])


def test_every_sheet_sheetgm_wrote_is_read_by_the_patterns_as_the_parser_reads_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No tree for either tab: formats alone (row 1 too), texts with each entity the writer makes, a row's height;
    the reference memo empty, as in a fresh process."""
    gw = XlsxGateway(tmp_path)
    gw.create("p", "P", ["Orders", "Map"])
    gw.write("p", [port.SetBackground("Map!A1:B2", "#ffe599"), port.ResizeRows("Map!3:3", 44),
                   port.SetValues("Map!C1:C3", [["a & b"], ["<x> \r"], ["  kept "]]),
                   port.SetValues("Orders!A2:B2", [["1", "=1+1"]])])
    data = (tmp_path / "p.xlsx").read_bytes()
    monkeypatch.setattr(xlsx_read, "_COLUMNS", {})
    used: list[bool] = []
    real = xlsx_read._read_our_cells
    monkeypatch.setattr(xlsx_read, "_read_our_cells", lambda *a: used.append(real(*a)) or used[-1])
    fast = xlsx_read.read_book(data)
    assert used == [True] * len(fast.sheets)
    orders, map_ = fast.sheets[:2]
    assert {k: c.value for k, c in orders.cells.items()} == {(1, 0): "1", (1, 1): "=1+1"}
    assert {k: (c.kind, c.value) for k, c in map_.cells.items()} == {
        (0, 0): ("", ""), (0, 1): ("", ""), (1, 0): ("", ""), (1, 1): ("", ""),
        (0, 2): ("s", "a & b"), (1, 2): ("s", "<x> \r"), (2, 2): ("s", "  kept ")}
    assert len({c.style for k, c in map_.cells.items() if k[1] < 2}) == 1 and map_.cells[(0, 0)].style > 0
    assert map_.rows[2]["customHeight"] == "1"
    monkeypatch.setattr(xlsx_read, "_read_our_cells", lambda *a: False)
    assert _cells(fast) == _cells(xlsx_read.read_book(data))


def test_the_patterns_count_each_row_as_the_parser_counts_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cell limit holds at the same bound on either path: a row costs its cells, an empty one one."""
    from dataclasses import replace

    from sheetgm.backends.xlsx.package import LIMITS

    gw = XlsxGateway(tmp_path)
    gw.create("p", "P", ["Map"])
    gw.write("p", [port.SetValues("Map!A1:C1", [["a", "b", "c"]]), port.SetValues("Map!E2", [["one"]]),
                   port.ResizeRows("Map!4:4", 44)])  # rows of 3 cells, 1 cell, none
    data = (tmp_path / "p.xlsx").read_bytes()
    assert b'<row r="4" ht="33" customHeight="1"></row>' in zipfile.ZipFile(io.BytesIO(data)).read(
        "xl/worksheets/sheet1.xml")
    parsed = _smallest_limit(data, monkeypatch, fast=False)
    monkeypatch.undo()
    assert parsed == _smallest_limit(data, monkeypatch, fast=True)
    xlsx_read.read_book(data, replace(LIMITS, cells=parsed))
    with pytest.raises(UnreadableFileError):
        xlsx_read.read_book(data, replace(LIMITS, cells=parsed - 1))


def _smallest_limit(data: bytes, monkeypatch: pytest.MonkeyPatch, fast: bool) -> int:
    from dataclasses import replace

    from sheetgm.backends.xlsx.package import LIMITS

    if not fast:
        monkeypatch.setattr(xlsx_read, "_read_our_cells", lambda *a: False)
    low = 1
    while True:
        try:
            xlsx_read.read_book(data, replace(LIMITS, cells=low))
            return low
        except UnreadableFileError:
            low += 1
