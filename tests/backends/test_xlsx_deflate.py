"""The parts of a workbook are deflated by ISA-L where it is installed, else by zlib (``xlsx/deflate.py``): the
file saved either way holds the same parts, byte for byte once inflated, and every zip reader takes it."""

from __future__ import annotations

import io
import random
import zipfile
import zlib
from pathlib import Path

import openpyxl
import pytest

from sheetgm.backends import port
from sheetgm.backends.xlsx import deflate
from sheetgm.backends.xlsx.gateway import XlsxGateway

KEY = "player-1"


def _save(folder: Path, seed: int) -> Path:
    rng = random.Random(seed)
    gw = XlsxGateway(folder)
    gw.password_source = lambda: "secret"
    gw.create(KEY, "P1", ["Orders", "Map"])
    texts = ["", "门", "x & y", "<b>", " spaced ", "发电机", "\u2603" * 40]
    ops: list[port.Op] = [port.SetValues("Orders!A1:B3", [["night", "order"], ["N1", "go"], ["N2", "两行\n文字"]])]
    for top in (1, 30, 59):
        ops += [port.SetValues(f"Map!A{top}:X{top + 24}", [[rng.choice(texts) for _ in range(24)] for _ in range(25)]),
                port.SetBackground(f"Map!A{top}:X{top + 24}", "#cfe2f3"),
                port.SetBorders(f"Map!B{top + 1}:D{top + 3}", ("outer",), "thick")]
    gw.write(KEY, [*ops, port.Protect("Map", (), "sheetgm:maps")])
    gw.write(KEY, [port.SetValues("Orders!C2", [["done"]])])  # a save of a workbook read back
    return gw.path(KEY)


def _parts(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as z:
        assert z.testzip() is None  # every entry inflates, its CRC right
        return {n: z.read(n) for n in z.namelist() if n != "docProps/core.xml"}  # (core.xml: the save's time)


@pytest.mark.skipif(deflate._fast is None, reason="isal not installed: zlib deflates every part")
@pytest.mark.parametrize("seed", range(3))
def test_a_workbook_deflated_by_isal_holds_the_parts_zlib_makes(tmp_path: Path, seed: int,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    fast = _save(tmp_path / "isal", seed)
    with monkeypatch.context() as m:
        m.setattr(deflate, "_fast", None)
        plain = _save(tmp_path / "zlib", seed)
    assert _parts(fast) == _parts(plain)
    assert fast.read_bytes() != plain.read_bytes()  # (deflated otherwise: the comparison above is the point)
    book = openpyxl.load_workbook(fast)
    assert book["Orders"]["C2"].value == "done" and book["Map"].max_row == 83


@pytest.mark.parametrize("engine", ["isal", "zlib"])
def test_deflate_and_inflate_give_back_every_byte(engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if engine == "zlib":
        monkeypatch.setattr(deflate, "_fast", None)
    elif deflate._fast is None:
        pytest.skip("isal not installed")
    rng = random.Random(7)
    for data in [b"", b"a", "门".encode() * 5000, rng.randbytes(70_000), b"<row/>" * 40_000]:
        packed = deflate.deflate(data)
        assert zlib.decompress(packed, -15) == data and deflate.inflate(packed) == data


@pytest.mark.parametrize("engine", ["isal", "zlib"])
def test_a_file_is_read_alike_by_either_inflater_and_a_damaged_part_refused(
        tmp_path: Path, engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from sheetgm.backends.errors import UnreadableFileError

    path = _save(tmp_path / "made", 1)
    want = XlsxGateway(path.parent).view(KEY)
    if engine == "zlib":
        monkeypatch.setattr(deflate, "_fast", None)
    elif deflate._fast is None:
        pytest.skip("isal not installed")
    assert XlsxGateway(path.parent).view(KEY) == want
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as z:
        info = z.getinfo("xl/worksheets/sheet2.xml")
    at = info.header_offset + 30 + len(info.filename) + len(info.extra) + 40
    data[at:at + 16] = b"\xff" * 16  # the Map tab's deflated bytes broken
    path.write_bytes(bytes(data))
    with pytest.raises(UnreadableFileError) as err:
        XlsxGateway(path.parent).view(KEY)
    assert err.value.code == "err.backend.file.damaged"


def test_the_crc_is_zlibs() -> None:
    """A part's CRC-32 (written in the zip, checked as a file is read) is zlib's value, in one go or in pieces."""
    rng = random.Random(5)
    for _ in range(200):
        data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 3000)))
        cut = rng.randint(0, len(data))
        assert deflate.crc32(data) == zlib.crc32(data)
        assert deflate.crc32(data[cut:], deflate.crc32(data[:cut])) == zlib.crc32(data)
