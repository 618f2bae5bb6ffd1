"""The whole game as one animated image for a forum post (`sheetgm recap`): one frame per stage; and the maps of
the recap page made small.

Frames are the stage maps (``draw.draw_map``), drawn at a scale that keeps the image at most ``MAX_WIDTH``
pixels wide (what forums show without shrinking). Every frame shares one palette of 256 colours made from all
of them, without dithering, so flat tiles stay flat and each frame is stored as the rectangle that changed (a
GIF or an APNG alike). The last frame stays longer, and the image loops. The director's copy of a game not over yet
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


def compact(im: Image.Image) -> bytes:
    """A map as a PNG of at most 256 colours, without dithering (a map has a few flat colours and the edges of
    its letters): a third of the size, for the maps the recap page carries inside it."""
    buf = io.BytesIO()
    _indexed(im).save(buf, "PNG", compress_level=9)
    return buf.getvalue()


def _indexed(im: Image.Image, palette: Image.Image | None = None) -> Image.Image:
    if palette is not None:
        return im.quantize(palette=palette, dither=Image.Dither.NONE)
    return im.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def frame_scale(board_width: int) -> int:
    """Pixels per tile so that a map of ``board_width`` columns (its margins and legend included) fits."""
    return max(MIN_SCALE, min(MAX_SCALE, MAX_WIDTH // (board_width + LEGEND_TILES + 1)))


def _frames(images: Sequence[Image.Image], mark: bool) -> list[Image.Image]:
    width, height = max(i.width for i in images), max(i.height for i in images)
    out = []
    for im in images:
        canvas = Image.new("RGB", (width, height), BACKGROUND)  # a legend one line longer: all the same size
        canvas.paste(im.convert("RGB"), (0, 0))
        if mark:
            edge = max(4, width // 150)
            ImageDraw.Draw(canvas).rectangle((0, 0, width - 1, height - 1), outline=SECRET_MARK, width=edge)
        out.append(canvas)
    return out


def _sample(frames: Sequence[Image.Image]) -> Image.Image:
    """Every frame side by side, every other pixel of each (nearest: no colour that is not in the frames), to
    make the shared palette from: a quarter of the pixels, a quarter of the memory."""
    small = [im.resize((im.width // 2, im.height // 2), Image.Resampling.NEAREST) for im in frames]
    strip = Image.new("RGB", (small[0].width, small[0].height * len(small)))
    for i, im in enumerate(small):
        strip.paste(im, (0, i * im.height))
    return strip


def animate(images: Sequence[Image.Image], fmt: str = GIF, mark: bool = False, frame_ms: int = FRAME_MS,
            last_ms: int = LAST_MS) -> bytes:
    """One looping animation of ``images``, one frame each, in ``fmt`` (gif or apng); ``mark``: the red frame
    of the director's copy."""
    if fmt not in FORMATS:
        raise ValueError(f"animation format {fmt!r}: one of {', '.join(FORMATS)}")
    if not images:
        raise ValueError("an animation needs at least one frame")
    frames = _frames(images, mark)
    durations = [frame_ms] * (len(frames) - 1) + [last_ms]
    buf = io.BytesIO()
    palette = _indexed(_sample(frames))
    indexed = [_indexed(im, palette) for im in frames]
    if fmt == GIF:
        indexed[0].save(buf, "GIF", save_all=True, append_images=indexed[1:], duration=durations, loop=0,
                        disposal=1)
    else:
        indexed[0].save(buf, "PNG", save_all=True, append_images=indexed[1:], duration=durations, loop=0,
                        compress_level=9)
    return buf.getvalue()
