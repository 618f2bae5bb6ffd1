"""The route picture's PNG rows: written unfiltered (render/png.py) against filtered "Up" (the choice before).

For the ready maps at 24, 32 and 48 pixels a tile, in the director's, a player's and the public view, with
Pillow's font and the CJK font found: encoding time (median of 10, one core) and file size, with the deflater
the writer uses (ISA-L where installed) and with zlib (its fallback).

    python benchmarks/bench_png.py
"""

from __future__ import annotations

import statistics
import time
import zlib
from collections.abc import Callable

from PIL import Image, ImageChops

from sheetgm.core.setup import SeatSpec, new_game
from sheetgm.notation.mapfile import ready_map
from sheetgm.render import draw, png
from sheetgm.render.fonts import DEFAULT, find_font
from sheetgm.render.views import director_view, player_view, public_view


def rows(img: Image.Image, up: bool) -> bytes:
    """The rows as the PNG's IDAT holds them before deflating: each with its filter byte."""
    width, height = img.size
    if up:
        above = Image.new("RGB", img.size)
        above.paste(img.crop((0, 0, width, height - 1)), (0, 1))
        data, tag = png.pixels(ImageChops.subtract_modulo(img, above)), b"\x02"
    else:
        data, tag = png.pixels(img), b"\x00"
    stride = width * 3
    return b"".join(tag + data[i:i + stride] for i in range(0, len(data), stride))


def timed(make: Callable[[], bytes]) -> tuple[float, int]:
    times, out = [], b""
    for _ in range(10):
        start = time.perf_counter()
        out = make()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, len(out)


def main() -> None:
    print(f"{'map':9} {'view':8} {'px':>3} {'font':4} | {'deflater':8} {'up ms':>6} {'up bytes':>9} "
          f"{'none ms':>7} {'none bytes':>10} {'size':>5}")
    totals: dict[str, list[float]] = {}
    for name in ("standard", "large4x"):
        board = ready_map(name)
        roster = [SeatSpec(f"S{i}", "survivor") for i in range(1, 9)] + [SeatSpec("H1", "hunter"),
                                                                         SeatSpec("H2", "hunter")]
        state = new_game(board, roster, seed=7)
        for view_name, view in (("director", director_view(state)), ("player", player_view(state, 1, ())),
                                ("public", public_view(state))):
            for scale in (24, 32, 48):
                for font in (DEFAULT, find_font()):
                    img = draw.draw_image(board, view, scale, "zh", font)
                    for deflater, squeeze in (("isal", lambda b: png.compress(b, 1)),
                                              ("zlib", lambda b: zlib.compress(b, 1))):
                        up = timed(lambda: squeeze(rows(img, True)))  # noqa: B023 (used at once)
                        none = timed(lambda: squeeze(rows(img, False)))  # noqa: B023
                        totals.setdefault(deflater, []).extend([none[0] / up[0], none[1] / up[1]])
                        print(f"{name:9} {view_name:8} {scale:3} {'cjk' if font.cjk else 'dflt':4} | {deflater:8} "
                              f"{up[0]:6.2f} {up[1]:9d} {none[0]:7.2f} {none[1]:10d} {none[1] / up[1]:5.2f}")
    for deflater, ratios in totals.items():
        times, sizes = ratios[0::2], ratios[1::2]
        print(f"{deflater}: unfiltered against Up, time {min(times):.2f}-{max(times):.2f}x "
              f"(median {statistics.median(times):.2f}x), size {min(sizes):.2f}-{max(sizes):.2f}x "
              f"(median {statistics.median(sizes):.2f}x)")


if __name__ == "__main__":
    main()
