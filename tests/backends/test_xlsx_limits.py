"""A workbook file built to harm, or grown past what a workbook of the game holds, is refused as that one
file's problem, named, before the cost it would bring is paid (the costs themselves are measured by
benchmarks/bench_hostile.py). Each limit is tested at a small value so the files stay small."""

from __future__ import annotations

import io
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from sheetgm.backends.errors import UnreadableFileError
from sheetgm.backends.port import SetValues
from sheetgm.backends.xlsx import gateway as xlsx_gateway
from sheetgm.backends.xlsx.gateway import XlsxGateway
from sheetgm.backends.xlsx.package import LIMITS, Limits, Package
from sheetgm.backends.xlsx.read import read_book

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def _workbook(tmp_path: Path) -> bytes:
    gw = XlsxGateway(tmp_path)
    gw.create("p", "t", ["Orders", "Results"])
    gw.write("p", [SetValues("Orders!A1:C3", [[f"{r}{c}" for c in "abc"] for r in range(3)])])
    return (tmp_path / "p.xlsx").read_bytes()


def _with(data: bytes, parts: dict[str, bytes], rels: str = "") -> bytes:
    """``data`` with ``parts`` added or replaced (and relationships added to the workbook's)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            if info.filename not in parts:
                body = src.read(info.filename)
                if info.filename == "xl/_rels/workbook.xml.rels" and rels:
                    body = body.replace(b"</Relationships>", rels.encode() + b"</Relationships>")
                dst.writestr(info.filename, body)
        for name, body in parts.items():
            dst.writestr(name, body)
    return out.getvalue()


def _code(data: bytes, limits: Limits = LIMITS) -> str:
    with pytest.raises(UnreadableFileError) as err:
        read_book(data, limits)
    return err.value.code.rsplit(".", 1)[-1]


def test_a_part_that_inflates_past_the_limit_is_refused_before_it_is_inflated(tmp_path: Path) -> None:
    """A 4 MB part of blanks (4 KB in the file) under a 1 MB limit: refused while inflating, whatever the zip
    says of its size."""
    data = _workbook(tmp_path)
    sheet = zipfile.ZipFile(io.BytesIO(data)).read("xl/worksheets/sheet1.xml")
    bomb = _with(data, {"xl/worksheets/sheet1.xml": sheet.replace(b"</worksheet>", b" " * (4 << 20) + b"</worksheet>")})
    assert len(bomb) < 64_000
    assert _code(bomb, replace(LIMITS, part_bytes=1 << 20)) == "part_too_large"
    with pytest.raises(UnreadableFileError) as err:
        read_book(bomb, replace(LIMITS, part_bytes=1 << 20))
    assert "more than 1.0 MB" in err.value.message("en")  # the limit in MB, as the director reads it
    image = _with(data, {"xl/media/image1.png": b"\0" * (4 << 20)})  # a part not read, only carried: checked too
    assert _code(image, replace(LIMITS, total_bytes=2 << 20)) == "inflates_too_much"


def test_too_many_parts_are_refused_before_zipfile_lists_them(tmp_path: Path) -> None:
    data = _with(_workbook(tmp_path), {f"x/{i}": b"" for i in range(40)})
    assert _code(data, replace(LIMITS, entries=30)) == "too_many_parts"
    read_book(data, replace(LIMITS, entries=60))


@pytest.mark.parametrize(("field", "limit", "code"), [
    ("cells", 50, "too_many_cells"), ("strings", 50, "too_many_strings"), ("tabs", 2, "too_many_tabs")])
def test_cells_strings_and_tabs_past_the_limit_are_refused(field: str, limit: int, code: str, tmp_path: Path) -> None:
    data = _workbook(tmp_path)
    rows = "".join(f'<row r="{r}"><c r="A{r}" t="s"><v>{r % 60}</v></c></row>' for r in range(10, 70))
    sheet = f'<worksheet xmlns="{MAIN}"><sheetData>{rows}</sheetData></worksheet>'.encode()
    strings = f'<sst xmlns="{MAIN}">' + "".join(f"<si><t>s{i}</t></si>" for i in range(60)) + "</sst>"
    grown = _with(data, {"xl/worksheets/sheet1.xml": sheet, "xl/sharedStrings.xml": strings.encode()},
                  f'<Relationship Id="rIdS" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/>')
    book = read_book(grown)
    assert len(book.sheets) == 3 and len(book.sheets[0].cells) == 60  # within the default limits: read
    assert _code(grown, replace(LIMITS, **{field: limit})) == code


def test_a_dtd_is_refused_and_an_entity_bomb_never_expands(tmp_path: Path) -> None:
    lol = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10 if i else "lol"}">' for i in range(9))
    table = (f'<?xml version="1.0"?><!-- a comment --><!DOCTYPE sst [{lol}]><sst xmlns="{MAIN}"><si><t>&l8;</t></si>'
             "</sst>")
    data = _with(_workbook(tmp_path), {"xl/sharedStrings.xml": table.encode()},
                 f'<Relationship Id="rIdS" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/>')
    assert _code(data) == "doctype"


def test_a_part_whose_bytes_do_not_match_its_crc_is_refused_even_if_never_read(tmp_path: Path) -> None:
    data = bytearray(_with(_workbook(tmp_path), {"xl/media/image1.png": b"\x89PNG" + bytes(range(256)) * 40}))
    with zipfile.ZipFile(io.BytesIO(bytes(data))) as z:
        info = z.getinfo("xl/media/image1.png")
    data[info.header_offset + 30 + len(info.filename) + 5] ^= 0xFF  # a byte of its deflated data
    assert _code(bytes(data)) == "damaged"


def test_a_file_larger_than_a_workbook_may_be_is_refused_unread(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "p.xlsx").write_bytes(_workbook(tmp_path))
    monkeypatch.setattr(xlsx_gateway, "LIMITS", replace(LIMITS, file_bytes=1000))
    with pytest.raises(UnreadableFileError) as err:
        XlsxGateway(tmp_path).read("p", ["Orders!A1"])
    assert err.value.code == "err.backend.file.too_large" and "p.xlsx" in err.value.message("zh")
    size = (tmp_path / "p.xlsx").stat().st_size
    assert f"is {size / (1 << 20):.1f} MB, and a workbook may be at most 0.0 MB" in err.value.message("en")


def test_an_unreadable_file_is_read_once_per_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """check and resolve ask for a player's workbook several times: a file refused once is not parsed again
    until it changes."""
    (tmp_path / "p.xlsx").write_bytes(b"PK\x03\x04" + bytes(100))
    gw = XlsxGateway(tmp_path)
    calls = []
    real = xlsx_gateway.read_book
    monkeypatch.setattr(xlsx_gateway, "read_book", lambda data: calls.append(1) or real(data))
    for _ in range(3):
        with pytest.raises(UnreadableFileError):
            gw.read("p", ["Orders!A1"])
    assert len(calls) == 1
    (tmp_path / "p.xlsx").write_bytes(_workbook(tmp_path / "fresh"))  # repaired: read again
    assert gw.read("p", ["Orders!A1"]) == {"Orders!A1": [["0a"]]}


def test_the_central_directory_count_is_checked_before_parsing() -> None:
    """A zip whose end record claims a million entries is refused from that record alone."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("a", b"x")
    data = bytearray(out.getvalue())
    end = data.rfind(b"PK\x05\x06")
    data[end + 8:end + 12] = (0xFFFF).to_bytes(2, "little") * 2
    with pytest.raises(UnreadableFileError) as err:
        Package(bytes(data))
    assert err.value.code == "err.backend.file.too_many_parts"


def test_many_parts_each_within_the_part_limit_are_refused_past_the_total(tmp_path: Path) -> None:
    """Slip caught: the running total across parts no longer counted (``self.inflated += size`` lost, or the
    total check skipped): five 1 MB parts under a 2 MB part limit pass alone, but not 5 MB under a 3 MB total,
    whether they are read or only checked."""
    data = _workbook(tmp_path)
    blank = b"<a>" + b" " * (1 << 20) + b"</a>"
    many = _with(data, {f"xl/media/pad{i}.xml": blank for i in range(5)})
    limits = replace(LIMITS, part_bytes=2 << 20, total_bytes=3 << 20)
    read_book(many, replace(limits, total_bytes=64 << 20))  # within every limit: read
    assert _code(many, limits) == "inflates_too_much"
    with Package(many, limits) as pkg:
        with pytest.raises(UnreadableFileError) as err:
            for i in range(5):
                pkg.read(f"xl/media/pad{i}.xml")
        assert err.value.code.endswith("inflates_too_much") and pkg.inflated <= 3 << 20


def test_a_part_neither_read_nor_carried_is_still_inflated_and_checked(tmp_path: Path) -> None:
    """A second spelling of the workbook part (part names compare without case): the reader reads the first and
    writes the workbook anew, so the second is neither read nor kept, and is checked all the same (a bomb)."""
    data = _with(_workbook(tmp_path), {"XL/WORKBOOK.XML": b" " * (4 << 20)})
    assert _code(data, replace(LIMITS, total_bytes=2 << 20)) == "inflates_too_much"
    assert read_book(data, replace(LIMITS, part_bytes=1 << 20)).sheets  # not kept: bound by the total only
