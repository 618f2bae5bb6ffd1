"""The whole game as one animated image for a forum post (`sheetgm recap`): one frame per stage; and the maps of
the recap page made small.

Frames are the stage maps (``draw.draw_map``), drawn at a scale that keeps the image at most ``MAX_WIDTH``
pixels wide (what forums show without shrinking). A GIF shares one palette made from every frame, without
dithering, so flat tiles stay flat and Pillow stores each frame as the rectangle that changed; an APNG keeps
every colour. The last frame stays longer, and the image loops. The director's copy of a game not over yet
has a red frame around every picture.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from sheetgm.render.draw import BACKGROUND, LEGEND_TILES, MIN_SCALE

GIF, APNG = "gif", "apng"
FORMATS = (GIF, APNG)
SUFFIX = {GIF: ".gif", APNG: ".png"}
MAX_WIDTH = 800
MAX_SCALE = 48
FRAME_MS, LAST_MS = 1500, 5000
SECRET_MARK = "#c62828"


def compact(png: bytes) -> bytes:
    """The same picture in at most 256 colours, without dithering (a map has a few flat colours and the edges of
    its letters): a third of the size, for the maps the recap page carries inside it."""
    im = Image.open(io.BytesIO(png)).convert("RGB")
    buf = io.BytesIO()
    im.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(buf, "PNG", optimize=True)
    return buf.getvalue()


def frame_scale(board_width: int) -> int:
    """Pixels per tile so that a map of ``board_width`` columns (its margins and legend included) fits."""
    return max(MIN_SCALE, min(MAX_SCALE, MAX_WIDTH // (board_width + LEGEND_TILES + 1)))


def _frames(pngs: Sequence[bytes], mark: bool) -> list[Image.Image]:
    images = [Image.open(io.BytesIO(png)).convert("RGB") for png in pngs]
    width, height = max(i.width for i in images), max(i.height for i in images)
    out = []
    for im in images:
        if im.size != (width, height):  # a legend one line longer: every frame the same size
            canvas = Image.new("RGB", (width, height), BACKGROUND)
            canvas.paste(im, (0, 0))
            im = canvas
        if mark:
            edge = max(4, width // 150)
            ImageDraw.Draw(im).rectangle((0, 0, width - 1, height - 1), outline=SECRET_MARK, width=edge)
        out.append(im)
    return out


def animate(pngs: Sequence[bytes], fmt: str = GIF, mark: bool = False, frame_ms: int = FRAME_MS,
            last_ms: int = LAST_MS) -> bytes:
    """One looping animation of the PNG ``pngs``, one frame each, in ``fmt`` (gif or apng)."""
    if fmt not in FORMATS:
        raise ValueError(f"animation format {fmt!r}: one of {', '.join(FORMATS)}")
    if not pngs:
        raise ValueError("an animation needs at least one frame")
    frames = _frames(pngs, mark)
    durations = [frame_ms] * (len(frames) - 1) + [last_ms]
    buf = io.BytesIO()
    if fmt == GIF:
        strip = Image.new("RGB", (frames[0].width, frames[0].height * len(frames)))
        for i, im in enumerate(frames):
            strip.paste(im, (0, i * im.height))
        palette = strip.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        indexed = [im.quantize(palette=palette, dither=Image.Dither.NONE) for im in frames]
        indexed[0].save(buf, "GIF", save_all=True, append_images=indexed[1:], duration=durations, loop=0,
                        disposal=1)
    else:
        frames[0].save(buf, "PNG", save_all=True, append_images=frames[1:], duration=durations, loop=0,
                       optimize=True)
    return buf.getvalue()
