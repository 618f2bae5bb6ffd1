"""Pictures kept between commands: the parts of a map that are the same on every map of a board (the ground,
the legend's keys), so that a ``check`` drawing a route picture does not draw them again each time (issue 26).

A kept picture is pixels, never code: a file ``picture-<digest>.bin`` in the cache folder (core/cachedir.py: owner
only, no link followed, bounded reads) holding a mark, the width and height and the pixels deflated. Its name is a
digest of everything the picture is drawn from (the drawing code and Pillow's version, the font file, the texts
drawn, the board, the geometry), so a change to any of them reads another name. A file that is missing, cut,
of the wrong size or not deflate is ignored and the picture drawn again (and kept anew); the same pixels come out
either way. At most ``KEEP`` pictures are kept: the oldest go when a new one is written.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Callable
from pathlib import Path

import PIL
from PIL import Image

from sheetgm import __version__
from sheetgm.core.cachedir import file_in, keep_bytes, read_bytes
from sheetgm.core.digests import blake2b
from sheetgm.core.values import fields
from sheetgm.render.png import DAMAGED, compress, decompressor, pixels

MARK = b"SGPIC1"
KEEP = 16  # pictures kept at most (a few boards, languages and view kinds)
LIMIT = 16 * 1024 * 1024  # bytes of a kept file, at most
PIXELS = 4096 * 4096  # a larger picture (a director's map at a large scale) is drawn, not kept
_HEAD = struct.Struct(">6sII")
_CODE = ("draw.py", "fonts.py", "kept.py", "png.py", "views.py", "../core/board.py")  # tile names, pieces, drawing
_code: list[bytes] = []


def code_digest() -> bytes:
    """sheetgm's version, Pillow's, and the bytes of the drawing modules (b"" where they cannot be read, as in a
    packed install: then nothing is kept or loaded)."""
    if not _code:
        here = Path(__file__).parent
        d = blake2b(f"{__version__} {PIL.__version__}".encode(), digest_size=16)
        try:
            for name in _CODE:
                d.update((here / name).read_bytes())
        except OSError:
            _code.append(b"")
        else:
            _code.append(bytes(d.digest()))
    return _code[0]


def board_key(board: object) -> str:
    """A text that is the same for equal boards in any process (sets written sorted)."""
    parts = []
    for f in fields(board):
        value = getattr(board, f.name)
        parts.append(f"{f.name}={sorted(value) if isinstance(value, frozenset) else value!r}")
    return "\n".join(parts)


def font_key(path: str | None) -> str:
    """The font file as it is now (its size and time: a font updated in place reads another name)."""
    if path is None:
        return "default"
    try:
        st = os.stat(path)
    except OSError:
        return f"{path}:missing"
    return f"{path}:{st.st_size}:{st.st_mtime_ns}"


def name_of(parts: tuple[object, ...]) -> str:
    d = blake2b(code_digest(), digest_size=16)
    d.update(repr(parts).encode("utf-8", "surrogatepass"))
    return f"picture-{d.hexdigest()}.bin"


def load(name: str, size: tuple[int, int]) -> Image.Image | None:
    """The kept RGB picture ``name`` of ``size``; None if absent or damaged in any way."""
    if not code_digest():
        return None
    data = read_bytes(file_in(name), LIMIT)
    if data is None or len(data) < _HEAD.size:
        return None
    mark, width, height = _HEAD.unpack_from(data)
    if mark != MARK or (width, height) != size:
        return None
    want = width * height * 3
    try:
        inflate = decompressor()
        raw = inflate.decompress(data[_HEAD.size:], want + 1)
    except DAMAGED:
        return None
    if len(raw) != want or not inflate.eof or inflate.unused_data:
        return None
    return Image.frombytes("RGB", size, raw)


def keep(name: str, img: Image.Image) -> bool:
    """Keep ``img`` (RGB) as ``name``; the oldest kept pictures beyond KEEP are removed."""
    file = file_in(name) if code_digest() else None
    if file is None or img.mode != "RGB":
        return False
    data = _HEAD.pack(MARK, *img.size) + compress(pixels(img), 1)
    if len(data) > LIMIT or not keep_bytes(file, data):
        return False
    _prune(file.parent)
    return True


def _prune(folder: Path) -> None:
    try:
        kept = [(e.stat(follow_symlinks=False).st_mtime_ns, e.path) for e in os.scandir(folder)
                if e.name.startswith("picture-") and e.name.endswith(".bin") and e.is_file(follow_symlinks=False)]
    except OSError:
        return
    for _, path in sorted(kept)[:-KEEP]:
        try:
            os.unlink(path)
        except OSError:
            pass


def picture(parts: tuple[object, ...], size: tuple[int, int], make: Callable[[], Image.Image]) -> Image.Image:
    """The picture drawn by ``make`` from ``parts``: kept from an earlier command when it is there whole, else
    drawn and kept."""
    if size[0] * size[1] > PIXELS:
        return make()
    name = name_of(parts)
    img = load(name, size)
    if img is None:
        img = make()
        keep(name, img)
    return img
