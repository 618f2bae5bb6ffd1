"""render/png.py: the PNG of unfiltered rows holds exactly the picture drawn, read by Pillow and by a decoder written
here from the specification (so a fault shared by our encoder and Pillow's reader would still show)."""

from __future__ import annotations

import io
import random
import struct
import subprocess
import sys
import zlib

import pytest
from PIL import Image

from sheetgm.core.setup import SeatSpec, new_game
from sheetgm.notation.mapfile import ready_map
from sheetgm.render import png as png_module
from sheetgm.render.draw import draw_image, draw_map
from sheetgm.render.fonts import DEFAULT
from sheetgm.render.png import SIGNATURE, encode_rgb
from sheetgm.render.views import director_view


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def decode(png: bytes) -> tuple[int, int, bytes]:
    """Width, height and RGB bytes of an 8-bit RGB, non-interlaced PNG: every chunk's CRC checked, all five
    filters undone (PNG specification 5.3, 9.2-9.4)."""
    assert png[:8] == SIGNATURE
    pos, idat, kinds, header = 8, b"", [], b""
    while pos < len(png):
        (size,) = struct.unpack(">I", png[pos:pos + 4])
        kind, data = png[pos + 4:pos + 8], png[pos + 8:pos + 8 + size]
        assert struct.unpack(">I", png[pos + 8 + size:pos + 12 + size])[0] == zlib.crc32(kind + data)
        kinds.append(kind)
        if kind == b"IHDR":
            header = data
        elif kind == b"IDAT":
            idat += data
        pos += 12 + size
    assert kinds[0] == b"IHDR" and kinds[-1] == b"IEND" and pos == len(png)
    width, height, depth, colour, comp, flt, lace = struct.unpack(">IIBBBBB", header)
    assert (depth, colour, comp, flt, lace) == (8, 2, 0, 0, 0)
    raw, stride, out, prev = zlib.decompress(idat), width * 3, bytearray(), bytearray(width * 3)
    assert len(raw) == height * (stride + 1)
    for r in range(height):
        kind, row = raw[r * (stride + 1)], bytearray(raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)])
        for i in range(stride):
            a = row[i - 3] if i >= 3 else 0
            b, c = prev[i], prev[i - 3] if i >= 3 else 0
            row[i] = (row[i] + (0, a, b, (a + b) // 2, _paeth(a, b, c))[kind]) & 0xFF
        out += row
        prev = row
    return width, height, bytes(out)


def _noise(width: int, height: int, seed: int) -> Image.Image:
    rng = random.Random(seed)
    return Image.frombytes("RGB", (width, height), bytes(rng.randrange(256) for _ in range(width * height * 3)))


@pytest.fixture(params=["isal", "zlib"])
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Either deflate: ISA-L's (installed with sheetgm) or zlib's (a platform without its wheel)."""
    if request.param == "zlib":
        monkeypatch.setattr(png_module, "_fast", None)
    else:
        assert png_module._fast is not None
    return str(request.param)


@pytest.mark.parametrize("size", [(1, 1), (1, 7), (9, 1), (17, 13)])
def test_random_pictures_come_back_exactly(size: tuple[int, int], engine: str) -> None:
    img = _noise(*size, seed=size[0] * 31 + size[1])
    png = encode_rgb(img)
    assert decode(png) == (*size, img.tobytes())
    back = Image.open(io.BytesIO(png))
    assert back.mode == "RGB" and back.size == size and back.tobytes() == img.tobytes()


def test_a_stage_map_is_the_picture_drawn(engine: str) -> None:
    board = ready_map("standard")
    roster = [SeatSpec(f"S{i}", "survivor") for i in range(1, 9)] + [SeatSpec("H1", "hunter"), SeatSpec("H2", "hunter")]
    view = director_view(new_game(board, roster, seed=7))
    img = draw_image(board, view, scale=24, lang="en", font=DEFAULT)
    png = draw_map(board, view, scale=24, lang="en", font=DEFAULT)
    assert len(img.getcolors(1 << 20) or ()) > 20  # (a real map: tiles, pieces, letters)
    width, height, pixels = decode(png)
    assert (width, height) == img.size and pixels == img.tobytes()
    # Pillow's own encoding of the same picture reads back as the same pixels: only the filters differ.
    buf = io.BytesIO()
    img.save(buf, "PNG")
    assert Image.open(io.BytesIO(png)).tobytes() == Image.open(buf).tobytes()


def test_every_row_is_written_unfiltered() -> None:
    img = _noise(5, 4, seed=3)
    png = encode_rgb(img)
    (size,) = struct.unpack(">I", png[33:37])
    raw = zlib.decompress(png[41:41 + size])
    assert raw == b"".join(b"\x00" + img.tobytes()[r * 15:(r + 1) * 15] for r in range(4))


def test_other_modes_are_refused() -> None:
    with pytest.raises(ValueError, match="RGB"):
        encode_rgb(Image.new("RGBA", (2, 2)))


@pytest.mark.parametrize("mode", ["RGB", "L", "RGBA", "1", "P", "I;16", "F"])
@pytest.mark.parametrize("size", [(1, 1), (3, 7), (300, 200), (17000, 2)])
def test_pixels_are_what_tobytes_gives(mode: str, size: tuple[int, int]) -> None:
    """``pixels`` reads the raw encoder itself (to spare ``PIL.ImageFile``'s import): the same bytes for every
    mode and for rows wider than the encoder's block."""
    rng = random.Random(f"{mode}{size}")
    length = len(Image.new(mode, size).tobytes())
    img = Image.frombytes(mode, size, bytes(rng.randrange(256) for _ in range(length)))
    assert png_module.pixels(img) == img.tobytes()


def test_drawing_a_map_imports_no_logging() -> None:
    """The route picture's path stays clear of ``PIL.ImageFile`` and ``logging`` (~6 ms of every check)."""
    code = ("import sys; from sheetgm.core.setup import SeatSpec, new_game; "
            "from sheetgm.notation.mapfile import ready_map; from sheetgm.render.draw import draw_map; "
            "from sheetgm.render.views import director_view; "
            "b = ready_map('standard'); "
            "draw_map(b, director_view(new_game(b, [SeatSpec('S1', 'survivor'), SeatSpec('H1', 'hunter')], seed=1)), "
            "scale=24, lang='en'); "
            "print(sorted(m for m in ('logging', 'PIL.ImageFile') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
