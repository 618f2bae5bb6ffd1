"""render/fonts.py: a font that keeps the masks it rendered (``Stamped``) draws the very pixels a plain FreeType
font draws, the second time as the first, at every anchor and fractional position the maps use."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw, ImageFont

from sheetgm.render.fonts import Stamped, find_font


@pytest.fixture(scope="module")
def face() -> tuple[str, int]:
    found = find_font()
    if found.path is None:
        pytest.skip("no FreeType font file on this machine (CI installs fonts-noto-cjk)")
    return found.path, found.index


TEXTS = ["第2夜 逃生者阶段", "S1 的视角", "进度 3/5", "Gates: off", "①②③", ""]
PLACES = [((10, 10), "la"), ((10.25, 30.5), "lm"), ((200.75, 40.125), "ra"), ((50.5, 60.9), "mm")]


def _drawn(font: ImageFont.FreeTypeFont) -> bytes:
    img = Image.new("RGB", (400, 120), "#ffffff")
    d = ImageDraw.Draw(img)
    for _round in range(2):  # the second round draws from the masks kept by the first
        for text in TEXTS:
            for xy, anchor in PLACES:
                d.text(xy, text, font=font, fill="#334455", anchor=anchor)
                d.text((xy[0] + 1.5, xy[1]), text, font=font, fill="#aa0000", anchor=anchor, stroke_width=1)
    return img.tobytes()


@pytest.mark.parametrize("size", [7, 8, 13])
def test_a_stamped_font_draws_what_freetype_draws(face: tuple[str, int], size: int) -> None:
    path, index = face
    stamped = Stamped(path, size, index)
    assert _drawn(stamped) == _drawn(ImageFont.truetype(path, size, index=index))
    assert stamped._masks  # it did keep them


def test_a_full_stamp_book_starts_again(face: tuple[str, int], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Stamped, "LIMIT", 3)
    path, index = face
    stamped = Stamped(path, 9, index)
    assert _drawn(stamped) == _drawn(ImageFont.truetype(path, 9, index=index))
    assert 0 < len(stamped._masks) <= 3


def test_unhashable_arguments_are_drawn_not_kept(face: tuple[str, int]) -> None:
    path, index = face
    stamped = Stamped(path, 9, index)
    mask, offset = stamped.getmask2("x", "L", features=["-kern"])
    plain, plain_offset = ImageFont.truetype(path, 9, index=index).getmask2("x", "L", features=["-kern"])
    assert not stamped._masks and offset == plain_offset and mask.size == plain.size
