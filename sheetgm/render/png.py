"""An RGB picture as a PNG, its rows unfiltered.

Pillow's encoder tries the five PNG filters on every row and keeps the best (adaptive filtering): on a stage
map that choice is two thirds of the encoding. A map is mostly flat colour and horizontal runs, which the
deflater matches as they are: rows left unfiltered (type 0) against rows filtered "Up" (the choice before),
on the ready maps at 24-48 pixels a tile in every view (``benchmarks/bench_png.py``), deflate in 0.61-0.80x
the time to 0.88-1.04x the size with ISA-L, 0.84-0.91x the time to 0.93-1.23x the size with zlib (the fallback).
So the pixels are written as they are, each row after its filter byte 0, in the
format's three chunks (PNG specification, sections 5.3, 9.2, 11.2). The rows are deflated by ISA-L (the ``isal``
package, as the xlsx writer's parts are) at level 1: a tenth of zlib's time for a stage map; by zlib where ISA-L
has no wheel.
"""

from __future__ import annotations

import struct
import zlib
from types import ModuleType
from typing import Any

from PIL import Image

_fast: ModuleType | None
try:
    from isal import isal_zlib as _fast
except ImportError:  # pragma: no cover - a platform without its wheel: zlib makes the same stream, slower
    _fast = None

SIGNATURE = b"\x89PNG\r\n\x1a\n"
_NONE = b"\x00"  # the filter byte of a row written as it is


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def pixels(img: Image.Image) -> bytes:
    """``img.tobytes()``, from the same C encoder, without its import of ``PIL.ImageFile`` (which brings in
    ``logging``: ~6 ms of a command that draws a map); ``tobytes`` itself where Pillow has no such encoder."""
    encoder = getattr(getattr(Image, "core", None), "raw_encoder", None)
    if encoder is None or img.width == 0 or img.height == 0:  # pragma: no cover - another Pillow
        return img.tobytes()
    img.load()
    e = encoder(img.mode, img.mode)
    try:
        e.setimage(img.im, (0, 0, *img.size))
        out = []
        while True:
            _, status, data = e.encode(max(65536, img.width * 4))
            out.append(data)
            if status:
                break
    finally:
        e.cleanup()
    if status < 0:
        raise RuntimeError(f"encoder error {status} reading the picture's pixels")
    return b"".join(out)


def compress(data: bytes, level: int) -> bytes:
    """A zlib stream (RFC 1950) of ``data``: ISA-L's where installed, else zlib's."""
    return _fast.compress(data, level) if _fast is not None else zlib.compress(data, level)


# What inflating a damaged zlib stream raises: zlib's error, or ISA-L's.
DAMAGED: tuple[type[BaseException], ...] = (zlib.error,) + ((_fast.error,) if _fast is not None else ())


def decompressor() -> Any:
    """An inflater of a zlib stream (``decompress(data, max_length)``, ``eof``, ``unused_data``): ISA-L's where
    installed (a third of zlib's time), else zlib's."""
    return (_fast if _fast is not None else zlib).decompressobj()


def encode_rgb(img: Image.Image, level: int = 1) -> bytes:
    """The PNG of ``img`` (mode RGB, 8 bits a channel, not interlaced), deflated at ``level`` (0-3 in ISA-L's
    scale, zlib's where ISA-L is missing)."""
    if img.mode != "RGB":
        raise ValueError(f"encode_rgb takes an RGB picture, not {img.mode}")
    width, height = img.size
    data = pixels(img)
    stride = width * 3
    rows = b"".join(_NONE + data[i:i + stride] for i in range(0, len(data), stride))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", compress(rows, level))
            + _chunk(b"IEND", b""))
