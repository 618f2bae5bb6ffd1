"""Fonts for the map PNG: a CJK font from the system when there is one, else Pillow's default.

Chinese labels need a CJK font. We look for one with ``fc-list`` and in the
usual font folders; when none is found the drawing still works, with
Pillow's built-in font and ASCII (English) labels. Never an error for lack
of a font.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import ImageFont

FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "/System/Library/Fonts", "/Library/Fonts",
             "C:/Windows/Fonts")
NAME_HINTS = ("notosanscjk", "notoserifcjk", "sourcehansans", "wqy", "droidsansfallback", "msyh", "simhei",
              "pingfang", "simsun")
PROBE = "机箱门"

FontLike = ImageFont.FreeTypeFont | ImageFont.ImageFont


@dataclass(frozen=True)
class FontChoice:
    """Where labels come from: ``path`` None means Pillow's default font (ASCII labels only)."""

    path: str | None
    index: int = 0

    @property
    def cjk(self) -> bool:
        return self.path is not None

    def get(self, size: int) -> FontLike:
        return _load(self.path, self.index, max(6, int(size)))


DEFAULT = FontChoice(None)


@cache
def _load(path: str | None, index: int, size: int) -> FontLike:
    if path is not None:
        try:
            return ImageFont.truetype(path, size, index=index)
        except OSError:
            pass
    try:
        return ImageFont.load_default(size)
    except (TypeError, OSError, AttributeError):  # Pillow without FreeType: the fixed bitmap font
        return ImageFont.load_default()


def _candidates() -> list[str]:
    found: list[str] = []
    if shutil.which("fc-list"):
        try:
            out = subprocess.run(["fc-list", ":lang=zh", "file"], capture_output=True, text=True, timeout=10,
                                 check=False).stdout
            found += sorted(line.split(":")[0].strip() for line in out.splitlines() if line.strip())
        except (OSError, subprocess.SubprocessError):
            pass
    for folder in FONT_DIRS:
        root = Path(folder)
        if not root.is_dir():
            continue
        for ext in ("*.ttc", "*.otf", "*.ttf"):
            for f in sorted(root.rglob(ext)):
                if any(h in f.name.lower().replace("-", "").replace("_", "") for h in NAME_HINTS):
                    found.append(str(f))
    regular = [f for f in found if "bold" not in f.lower()]
    return list(dict.fromkeys(regular + found))


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
    """The first CJK font found on this machine, or the default font."""
    for path in _candidates():
        choice = _usable(path)
        if choice is not None:
            return choice
    return DEFAULT
