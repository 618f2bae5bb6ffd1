"""A part's bytes deflated for the zip, and inflated again: where the writer needs a part's text, and as a file
is read (``package.py``, which checks sizes and CRCs itself).

ISA-L's deflate (the ``isal`` package) where it is installed: at its level 1 about four times faster than
zlib's fastest level, and its output smaller; else zlib's level 1. Both make a raw deflate stream that every zip
reader inflates to the same bytes (a 160-player stage deflates ~35 MB of sheets: 0.22 s with zlib, ~0.05 s);
its inflate is ~2x zlib's.
"""

from __future__ import annotations

import zlib
from types import ModuleType
from typing import Any

_fast: ModuleType | None
try:
    from isal import isal_zlib as _fast
except ImportError:  # pragma: no cover - a platform without its wheel: zlib does the same job, slower
    _fast = None


def deflate(raw: bytes) -> bytes:
    """``raw`` as a raw deflate stream (no header, as a zip entry holds it)."""
    engine = _fast if _fast is not None else zlib
    squeeze = engine.compressobj(1, engine.DEFLATED, -15)
    out: bytes = squeeze.compress(raw) + squeeze.flush()
    return out


def inflate(raw: bytes) -> bytes:
    """A raw deflate stream's content (a part sheetgm read and checked already, or wrote itself)."""
    engine = _fast if _fast is not None else zlib
    out: bytes = engine.decompress(raw, -15)
    return out


def crc32(data: bytes, value: int = 0) -> int:
    """The CRC-32 a zip entry records (ISA-L's, the same value, ~4x zlib's speed where it is installed)."""
    found: int = (_fast if _fast is not None else zlib).crc32(data, value)
    return found


def inflater() -> Any:
    """A raw deflate stream's inflater (``decompress(data, max_length)``, ``unconsumed_tail``, ``eof``), for a
    part of a file read, whatever made it: a damaged stream raises (zlib.error, or isal's IsalError)."""
    return (_fast if _fast is not None else zlib).decompressobj(-15)
