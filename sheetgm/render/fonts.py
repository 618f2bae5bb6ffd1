"""Fonts for the map PNG: a CJK font from the system when there is one, else Pillow's default.

Chinese labels need a CJK font. We look for one with ``fc-list`` and in the
usual font folders; when none is found the drawing still works, with
Pillow's built-in font and ASCII (English) labels. Never an error for lack
of a font.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from PIL import ImageFont

from sheetgm.core.cachedir import file_in, keep_json, read_json
from sheetgm.core.values import Value, record

FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "/System/Library/Fonts", "/Library/Fonts",
             "C:/Windows/Fonts")
NAME_HINTS = ("notosanscjk", "notoserifcjk", "sourcehansans", "wqy", "droidsansfallback", "msyh", "simhei",
              "pingfang", "simsun")
PROBE = "机箱门"
KEPT = "font.json"  # the font chosen, in the cache folder

FontLike = ImageFont.FreeTypeFont | ImageFont.ImageFont


@record(frozen=True)
class FontChoice(Value):
    """Where labels come from: ``path`` None means Pillow's default font (ASCII labels only)."""

    path: str | None
    index: int = 0

    @property
    def cjk(self) -> bool:
        return self.path is not None

    def get(self, size: int) -> FontLike:
        return _load(self.path, self.index, max(6, int(size)))


DEFAULT = FontChoice(None)


class Stamped(ImageFont.FreeTypeFont):
    """A FreeType font that keeps each mask it renders. The legend's lines, the pieces' and the steps' labels
    are the same on every map a command draws (a check draws one per player): rendered once a process and
    stamped again, the same pixels, since Pillow draws text as ``draw_bitmap(getmask2(...))``."""

    LIMIT = 2048  # masks kept, of a few kB each

    def __init__(self, path: str, size: int, index: int) -> None:
        super().__init__(path, size, index)
        self._masks: dict[object, tuple[Any, tuple[int, int]]] = {}

    def getmask2(self, text: str | bytes, mode: str = "", *args: Any, **kwargs: Any) -> tuple[Any, tuple[int, int]]:
        key = (text, mode, args, tuple(kwargs.items()))  # Pillow passes the same arguments by the same names
        try:
            made = self._masks.get(key)
        except TypeError:  # a list among them (features): drawn, not kept
            return super().getmask2(text, mode, *args, **kwargs)
        if made is None:
            made = super().getmask2(text, mode, *args, **kwargs)
            if mode == "RGBA":  # a colour font's mask, which Pillow writes on: never stamped again
                return made
            if len(self._masks) >= self.LIMIT:
                self._masks.clear()
            self._masks[key] = made
        return made


@cache
def _load(path: str | None, index: int, size: int) -> FontLike:
    if path is not None:
        try:
            return Stamped(path, size, index)
        except OSError:
            pass
    try:
        return ImageFont.load_default(size)
    except (TypeError, OSError, AttributeError):  # Pillow without FreeType: the fixed bitmap font
        return ImageFont.load_default()


def _listed() -> list[str]:
    """The fonts ``fc-list`` says cover Chinese (regular faces first)."""
    import shutil  # here, not at the top: a command whose font is kept (``find_font``) runs no program
    import subprocess

    if not shutil.which("fc-list"):
        return []
    try:
        out = subprocess.run(["fc-list", ":lang=zh", "file"], capture_output=True, text=True, timeout=10,
                             check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return _regular_first(sorted(line.split(":")[0].strip() for line in out.splitlines() if line.strip()))


def _in_folders() -> list[str]:
    """The fonts in the usual folders whose names say CJK (a walk of every folder: only when fc-list found none
    that draws Chinese)."""
    found: list[str] = []
    for folder in FONT_DIRS:
        root = Path(folder)
        if not root.is_dir():
            continue
        for ext in ("*.ttc", "*.otf", "*.ttf"):
            for f in sorted(root.rglob(ext)):
                if any(h in f.name.lower().replace("-", "").replace("_", "") for h in NAME_HINTS):
                    found.append(str(f))
    return _regular_first(found)


def _regular_first(found: list[str]) -> list[str]:
    regular = [f for f in found if "bold" not in f.lower()]
    return list(dict.fromkeys(regular + found))


def _candidates() -> Iterator[str]:
    """Fonts to try, in order: fc-list's, then the folders' (walked only if it comes to that)."""
    listed = _listed()
    yield from listed
    yield from (f for f in _in_folders() if f not in listed)


def _usable(path: str) -> FontChoice | None:
    """The face of ``path`` that draws Chinese, preferring a Simplified Chinese one in a collection."""
    best: FontChoice | None = None
    for index in range(12):
        try:
            font = ImageFont.truetype(path, 20, index=index)
        except OSError:
            break
        if not _draws_cjk(font):
            continue
        family = " ".join(part for part in font.getname() if part)
        if "SC" in family.split() or "GB" in family:
            return FontChoice(path, index)
        best = best or FontChoice(path, index)
    return best


def _draws_cjk(font: ImageFont.FreeTypeFont) -> bool:
    """A face without the glyphs draws the same .notdef box for every character."""
    try:
        masks = [bytes(font.getmask(ch)) for ch in PROBE]
    except (OSError, ValueError):
        return False
    return len(set(masks)) == len(PROBE) and all(any(m) for m in masks)


@cache
def find_font() -> FontChoice:
    """The first CJK font found on this machine, or the default font. The choice is kept in the cache folder
    (``font.json``: the file, its face, its size and time) so that a command drawing a picture does not run
    ``fc-list`` and probe faces each time; a kept choice whose file is gone or changed is looked for again."""
    kept = read_json(file_in(KEPT), 4096, 2)
    if isinstance(kept, dict) and isinstance(kept.get("path"), str) and type(kept.get("index")) is int:
        if kept.get("stamp") == _stamp(kept["path"]):
            return FontChoice(kept["path"], kept["index"])
    choice = _search()
    if choice.path is not None:
        keep_json(file_in(KEPT), {"path": choice.path, "index": choice.index, "stamp": _stamp(choice.path)})
    return choice


def _stamp(path: str) -> str | None:
    """The font file's size and time (None: not a regular file)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return f"{st.st_size}:{st.st_mtime_ns}" if stat.S_ISREG(st.st_mode) else None


def _search() -> FontChoice:
    for path in _candidates():
        choice = _usable(path)
        if choice is not None:
            return choice
    return DEFAULT
