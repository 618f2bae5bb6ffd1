"""The map as a PNG: a pure function of the board and a view model.

Layout: a margin of half a tile around the grid carries the column letters
and row numbers; the legend is a panel ``LEGEND_TILES`` tiles wide on the
right. Inside a tile: its name and feature glyph on the top strip, known
contents below them, pieces across the middle, passage and trap marks on the
bottom strip; the centre of an empty tile shows its colour alone.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from sheetgm.core.board import Board, EdgeKey, Tile, col_name, tile_name
from sheetgm.core.observe import name
from sheetgm.core.texts import render
from sheetgm.core.values import Value, record
from sheetgm.render import kept
from sheetgm.render.fonts import FontChoice, FontLike, find_font
from sheetgm.render.png import encode_rgb
from sheetgm.render.views import FULL, PLAYER, MapView, Piece, Trail

LEGEND_TILES = 5
MIN_SCALE, MAX_SCALE, DEFAULT_SCALE = 24, 256, 64
LINE = 0.42  # legend line height, in tiles

BACKGROUND = "#ffffff"
PLAIN = "#ffffff"
COLOURS = {  # tile fills, the same as the sheets' map (sheets/mapcells.py)
    "gate": "#b6d7a8",
    "generator": "#ffe599",
    "chest": "#f9cb9c",
    "flat": "#cfe2f3",
    "dark": "#b7b7b7",
}
GRID = "#9e9e9e"
TEXT = "#212121"
FAINT = "#616161"
WALL = "#1a1a1a"
OBSTACLE = "#c0504d"
BOARD = "#8b4513"
TRAP = "#d50000"
PASSAGE = "#7030a0"
HIDDEN = "#e91e63"
NOISE = "#ff6f00"
YOU = "#ffc400"
PLAN = "#0d47a1"  # the path of the player's own order (the preview)
PALETTE = ("#1565c0", "#2e7d32", "#6a1b9a", "#00838f", "#ef6c00", "#4e342e", "#283593", "#558b2f",
           "#ad1457", "#00695c", "#5d4037", "#37474f")
HUNTER_PALETTE = ("#b71c1c", "#e65100", "#880e4f", "#3e2723")
ASCII_STANDINS = str.maketrans({"×": "x", "→": "->", "—": "-", "–": "-"})  # for a font without them


@record(frozen=True)
class Geometry(Value):
    scale: int
    margin: int
    width: int
    height: int

    def origin(self, t: Tile) -> tuple[int, int]:
        return self.margin + t[0] * self.scale, self.margin + t[1] * self.scale

    def centre(self, t: Tile) -> tuple[float, float]:
        x, y = self.origin(t)
        return x + self.scale / 2, y + self.scale / 2


def legend_lines(view: MapView) -> list[tuple[str, str]]:
    """(kind, key) rows of the legend: text lines then swatches, the same for every state of a view kind."""
    rows = [("title", ""), ("stage", ""), ("view", ""), ("progress", ""), ("gates", ""), ("tally", "")]
    if view.progress.winner:
        rows.append(("winner", ""))
    if view.noise_night is not None and view.kind == PLAYER:
        rows.append(("noise_of", ""))
    rows.append(("gap", ""))
    keys = ["generator", "chest", "gate", "dark", "flat", "wall", "obstacle", "board", "trap", "passage"]
    if view.kind in FULL:
        keys += ["hidden_passage"]
    if view.kind in FULL or view.noise_night is not None:
        keys += ["noise"]
    keys += ["survivor", "hunter"]
    if view.kind == PLAYER:
        keys += ["you"]
    if view.plan_steps:
        keys += ["plan"]
    if view.kind in FULL:
        keys += ["path"]
    return rows + [("key", k) for k in keys]


def geometry(board: Board, view: MapView, scale: int = DEFAULT_SCALE) -> Geometry:
    margin = scale // 2
    grid_h = 2 * margin + board.height * scale
    legend_h = margin + math.ceil(len(legend_lines(view)) * LINE * scale) + margin
    return Geometry(scale, margin, 2 * margin + (board.width + LEGEND_TILES) * scale, max(grid_h, legend_h))


def tile_kind(board: Board, t: Tile) -> str | None:
    for kind, tiles in (("gate", board.gates), ("generator", board.generators), ("chest", board.chests),
                        ("flat", board.flat), ("dark", board.dark)):
        if t in tiles:
            return kind
    return None


def player_colour(p: Piece | Trail) -> str:
    palette = HUNTER_PALETTE if p.camp == "hunter" else PALETTE
    return palette[(p.seat - 1) % len(palette)]


_BLANK = (int(BACKGROUND[1:3], 16), int(BACKGROUND[3:5], 16), int(BACKGROUND[5:7], 16))
# The legend's key lines as drawn on a blank map, by board, geometry, language, font, keys and top (None: they
# reach outside their box, so they are drawn on each map).
_FITS: dict[tuple[FontChoice, int, str, float, float], float] = {}  # the size a legend line is drawn in, by its room
_KEYS: dict[tuple[Board, Geometry, str, FontChoice, tuple[str, ...], float], Image.Image | None] = {}


class _Canvas:
    """An image of the board's size and what is drawn the same on every map of that board: the ground."""

    def __init__(self, board: Board, geo: Geometry, lang: str, font: FontChoice, img: Image.Image) -> None:
        self.board, self.geo, self.font = board, geo, font
        self.lang = lang if font.cjk else "en"
        self.img = img
        self.d = ImageDraw.Draw(self.img)
        self.s = geo.scale

    def f(self, tiles: float) -> FontLike:
        return self.font.get(round(tiles * self.s))

    def label(self, text: str) -> str:
        """Text that the font can draw: without a CJK font, ASCII and the middle dot (Pillow's own font has
        them), a few signs spelt in ASCII, "?" for anything else."""
        if self.font.cjk or text.isascii():
            return text
        return "".join(c if c.isascii() or c == "·" else "?" for c in text.translate(ASCII_STANDINS))

    def text(self, xy: tuple[float, float], text: str, size: float, fill: str = TEXT, anchor: str = "la") -> None:
        self.d.text(xy, self.label(text), font=self.f(size), fill=fill, anchor=anchor)

    def fit(self, xy: tuple[float, float], text: str, size: float, fill: str, room: float) -> None:
        """A legend line, in a smaller font when it would run past the image's right edge."""
        text = self.label(text)
        key = (self.font, self.s, text, size, room)
        fitted = _FITS.get(key)
        if fitted is None:
            fitted = size
            while fitted > 0.13 and self.d.textlength(text, font=self.f(fitted)) > room:
                fitted -= 0.01
            if len(_FITS) >= 1024:
                _FITS.clear()
            _FITS[key] = fitted
        self.d.text(xy, text, font=self.f(fitted), fill=fill, anchor="lm")

    # -- the grid ------------------------------------------------------------------
    def tiles(self) -> None:
        s, band = self.s, max(2, self.s // 8)
        for t in self.board.tiles():
            x, y = self.geo.origin(t)
            kind = tile_kind(self.board, t)
            self.d.rectangle((x, y, x + s - 1, y + s - 1), fill=COLOURS.get(kind or "", PLAIN))
            if t in self.board.dark and kind != "dark":
                for i in range(band):  # a dark frame around a feature's colour
                    self.d.rectangle((x + i, y + i, x + s - 1 - i, y + s - 1 - i), outline=COLOURS["dark"])
        for c in range(self.board.width + 1):
            x = self.geo.margin + c * s
            self.d.line((x, self.geo.margin, x, self.geo.margin + self.board.height * s), fill=GRID, width=1)
        for r in range(self.board.height + 1):
            y = self.geo.margin + r * s
            self.d.line((self.geo.margin, y, self.geo.margin + self.board.width * s, y), fill=GRID, width=1)
        for t in self.board.tiles():
            x, y = self.geo.origin(t)
            self.text((x + s * 0.06, y + s * 0.04), tile_name(t), 0.16, FAINT)
            kind = tile_kind(self.board, t)
            if kind in ("generator", "chest", "gate"):
                self.text((x + s * 0.94, y + s * 0.03), render(self.lang, f"render.glyph.{kind}"), 0.2, TEXT, "ra")

    def margins(self) -> None:
        m, s = self.geo.margin, self.s
        bottom = m + self.board.height * s
        right = m + self.board.width * s
        for c in range(self.board.width):
            x = m + c * s + s / 2
            self.text((x, m / 2), col_name(c), 0.28, TEXT, "mm")
            self.text((x, bottom + m / 2), col_name(c), 0.28, TEXT, "mm")
        for r in range(self.board.height):
            y = m + r * s + s / 2
            self.text((m / 2, y), str(r + 1), 0.28, TEXT, "mm")
            self.text((right + m / 2, y), str(r + 1), 0.28, TEXT, "mm")

    def edge_line(self, key: EdgeKey) -> tuple[tuple[float, float], tuple[float, float]]:
        """The segment between the two tiles of ``key``."""
        (a, b), s = key, self.s
        x, y = self.geo.origin(b)
        if a[1] == b[1]:  # a is west of b: the west side of b
            return (x, y), (x, y + s)
        return (x, y), (x + s, y)  # a is north of b

    def edges(self) -> None:
        """Obstacles and walls (the stage's boards are drawn over them: `boards`)."""
        s = self.s
        for key in sorted(self.board.obstacles):
            (x1, y1), (x2, y2) = self.edge_line(key)
            self.d.line((x1, y1, x2, y2), fill=OBSTACLE, width=max(2, s // 14))
            for i in range(1, 6):  # hatching: short slanted ticks across the edge
                f, h = i / 6, s * 0.07
                px, py = x1 + (x2 - x1) * f, y1 + (y2 - y1) * f
                self.d.line((px - h, py - h, px + h, py + h), fill=OBSTACLE, width=max(1, s // 28))
        wall_w = max(3, s // 9)
        for key in sorted(self.board.walls):
            (x1, y1), (x2, y2) = self.edge_line(key)
            self.d.line((x1, y1, x2, y2), fill=WALL, width=wall_w)
        m = self.geo.margin
        self.d.rectangle((m - wall_w // 2, m - wall_w // 2, m + self.board.width * s + wall_w // 2,
                          m + self.board.height * s + wall_w // 2), outline=WALL, width=wall_w)


class _Painter(_Canvas):
    """One map: the ground of its board (drawn once per process), then what the view shows."""

    def __init__(self, board: Board, view: MapView, geo: Geometry, lang: str, font: FontChoice,
                 img: Image.Image | None = None) -> None:
        super().__init__(board, geo, lang, font, _ground(board, geo, lang, font).copy() if img is None else img)
        self.view = view

    def alias(self, p: Piece | Trail) -> str:
        return p.alias if self.font.cjk or p.alias.isascii() else f"#{p.seat}"

    def viewer(self) -> str:
        mine = [p for p in self.view.pieces if p.you]
        if mine:
            return self.alias(mine[0])
        return self.label(self.view.viewer)

    def boards(self) -> None:
        s = self.s
        bar = max(3, s // 7)
        for key in sorted(self.view.boards):
            (x1, y1), (x2, y2) = self.edge_line(key)
            inset = s * 0.12
            if x1 == x2:
                box = (x1 - bar / 2, y1 + inset, x1 + bar / 2, y2 - inset)
            else:
                box = (x1 + inset, y1 - bar / 2, x2 - inset, y1 + bar / 2)
            self.d.rectangle(box, fill=BOARD, outline="#3e2000")

    # -- marks in the tiles --------------------------------------------------------
    def passages(self) -> None:
        s = self.s
        pairs = [(k, PASSAGE) for k in self.view.passages] + [(k, HIDDEN) for k in self.view.hidden_passages]
        for n, (key, colour) in enumerate(pairs, 1):
            for t in key:
                x, y = self.geo.origin(t)
                cx, cy, r = x + s * 0.24, y + s * 0.8, s * 0.12
                self.d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=max(2, s // 24))
                self.text((cx, cy), str(n), 0.15, colour, "mm")

    def traps(self) -> None:
        s, w = self.s, max(2, self.s // 20)
        for t in sorted(self.view.traps):
            x, y = self.geo.origin(t)
            x0, y0, x1, y1 = x + s * 0.72, y + s * 0.74, x + s * 0.92, y + s * 0.94
            self.d.line((x0, y0, x1, y1), fill=TRAP, width=w)
            self.d.line((x0, y1, x1, y0), fill=TRAP, width=w)

    def noise(self) -> None:
        s = self.s
        for t in sorted(self.view.noise):
            cx, cy = self.geo.centre(t)
            for r in (0.36, 0.28):
                self.d.ellipse((cx - s * r, cy - s * r, cx + s * r, cy + s * r), outline=NOISE, width=max(2, s // 28))

    def contents(self) -> None:
        notes: dict[Tile, list[str]] = {}
        for t, item in self.view.chests:
            notes.setdefault(t, []).append(name(self.lang, "item", item) if item else render(self.lang, "render.empty"))
        for t, items in self.view.lying:
            notes.setdefault(t, []).extend(name(self.lang, "item", i) for i in items)
        for t, n in self.view.keys:
            notes.setdefault(t, []).append(render(self.lang, "render.keys", n=n))
        sep = render(self.lang, "word.sep")
        for t, lines in sorted(notes.items()):
            x, y = self.geo.origin(t)
            self.text((x + self.s * 0.06, y + self.s * 0.22), sep.join(lines), 0.14, "#004d40")

    def trails(self) -> None:
        s, trails = self.s, self.view.trails
        for i, tr in enumerate(trails):
            off = (i - (len(trails) - 1) / 2) * s * 0.05
            pts = [(cx + off, cy + off) for cx, cy in (self.geo.centre(t) for t in tr.tiles)]
            colour, w = player_colour(tr), max(2, s // 22)
            self.d.line(pts, fill=colour, width=w, joint="curve")
            r = w * 1.2
            self.d.ellipse((pts[0][0] - r, pts[0][1] - r, pts[0][0] + r, pts[0][1] + r), fill=colour)
            self._arrow(pts[-2], pts[-1], colour, s * 0.16)

    def plan(self) -> None:
        """The path of the player's order (the preview): a dashed line with an arrow, each step's number on the
        tiles it enters, in the corner that the contents and pieces leave free."""
        s, v = self.s, self.view
        w = max(2, s // 16)
        pts = [self.geo.centre(t) for t in v.plan]
        for a, b in zip(pts, pts[1:], strict=False):
            self._dashes(a, b, w)
        if len(pts) > 1:
            self._arrow(pts[-2], pts[-1], PLAN, s * 0.2)
        for t, label in v.plan_steps:
            x, y = self.geo.origin(t)
            r = s * 0.15
            cx, cy = x + s - r - s * 0.04, y + r + s * 0.04
            self.d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=PLAN)
            self.text((cx, cy), label, 0.2 if len(label) < 3 else 0.13, "#ffffff", anchor="mm")

    def _dashes(self, a: tuple[float, float], b: tuple[float, float], w: int) -> None:
        n = 6
        for i in range(0, n, 2):
            p0 = (a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n)
            p1 = (a[0] + (b[0] - a[0]) * (i + 1) / n, a[1] + (b[1] - a[1]) * (i + 1) / n)
            self.d.line((p0, p1), fill=PLAN, width=w)

    def _arrow(self, a: tuple[float, float], b: tuple[float, float], colour: str, size: float) -> None:
        ang = math.atan2(b[1] - a[1], b[0] - a[0])
        tip = (b[0] - math.cos(ang) * self.s * 0.18, b[1] - math.sin(ang) * self.s * 0.18)  # stop short of the piece
        left = (tip[0] - size * math.cos(ang - 0.45), tip[1] - size * math.sin(ang - 0.45))
        right = (tip[0] - size * math.cos(ang + 0.45), tip[1] - size * math.sin(ang + 0.45))
        self.d.polygon([tip, left, right], fill=colour)

    def pieces(self) -> None:
        by_tile: dict[Tile, list[Piece]] = {}
        for p in self.view.pieces:
            by_tile.setdefault(p.tile, []).append(p)
        s = self.s
        for t, group in sorted(by_tile.items()):
            x, y = self.geo.origin(t)
            cols = min(len(group), 4)
            rows = math.ceil(len(group) / cols)
            slot_w, band = s / cols, s * 0.42 / rows
            r = min(s * 0.11, slot_w * 0.3, band * 0.32)
            for i, p in enumerate(sorted(group, key=lambda q: (q.camp != "hunter", q.seat))):
                cx = x + slot_w * (i % cols + 0.5)
                cy = y + s * 0.36 + band * (i // cols) + r
                self.piece(p, cx, cy, r)
                self.text((cx, cy + r + 1), self.alias(p), min(0.14, band / s * 0.45), TEXT, "ma")

    def piece(self, p: Piece, cx: float, cy: float, r: float, colour: str | None = None) -> None:
        colour = colour or player_colour(p)
        box = (cx - r, cy - r, cx + r, cy + r)
        fill = BACKGROUND if p.downed else colour
        w = max(2, int(r // 3))
        if p.you:
            g = r + w + 1
            self.d.ellipse((cx - g, cy - g, cx + g, cy + g), fill=YOU)
        if p.camp == "hunter":
            self.d.rectangle(box, fill=fill, outline=colour, width=w)
        elif p.robot:
            self.d.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=fill, outline=colour)
        else:
            self.d.ellipse(box, fill=fill, outline=colour, width=w)

    # -- the legend ----------------------------------------------------------------
    def legend(self) -> None:
        s, v, lang = self.s, self.view, self.lang
        x0 = self.geo.margin * 2 + self.board.width * s
        room = self.geo.width - x0 - s * 0.1
        y = float(self.geo.margin)
        step = LINE * s
        pr = v.progress
        title = self.board.title if lang == "zh" and self.board.title else self.board.name
        texts = {
            "title": render(lang, "render.title", map=title),
            "stage": render(lang, "render.after", night=v.after[0], stage=name(lang, "word", v.after[1]))
            if v.after else render(lang, "render.stage_line", night=v.night, stage=name(lang, "word", v.stage)),
            "view": render(lang, f"render.view.{v.kind}", alias=self.viewer()),
            "progress": render(lang, "render.progress", progress=pr.progress, target=pr.target),
            "gates": render(lang, "render.gates_on" if pr.gates_powered else "render.gates_off"),
            "tally": render(lang, "render.tally", escaped=pr.escaped, eliminated=pr.eliminated),
            "winner": render(lang, "render.winner", camp=name(lang, "word", pr.winner)),  # hunters, survivors, draw
            "noise_of": render(lang, "render.noise_of", night=v.noise_night),
        }
        lines = legend_lines(v)
        keys = tuple(key for kind, key in lines if kind == "key")
        for kind, _key in lines[:len(lines) - len(keys)]:
            if kind != "gap":
                bold = kind in ("title", "view")
                self.fit((x0, y + step / 2), texts[kind], 0.26 if bold else 0.23, TEXT if bold else FAINT, room)
            y += step
        self.keys(keys, x0, y, step, room)

    def keys(self, keys: tuple[str, ...], x0: int, y: float, step: float, room: float) -> None:
        """The legend's swatches and their names from ``y`` down: the same on every map of a view kind, so
        drawn once per process on a blank picture and pasted, where that is provably the same picture (what
        they cover is blank here, and all they draw lies within it); drawn here otherwise."""
        box = (x0, math.floor(y), self.geo.width, self.geo.height)
        made = _KEYS.get((self.board, self.geo, self.lang, self.font, keys, y), False)
        if made is False:
            made = self._keys_apart(keys, x0, y, step, room, box)
        if made is not None and self.img.crop(box).getcolors(1) == [((box[2] - box[0]) * (box[3] - box[1]), _BLANK)]:
            self.img.paste(made, box[:2])
        else:
            self.keys_drawn(keys, x0, y, step, room)

    def keys_drawn(self, keys: tuple[str, ...], x0: int, y: float, step: float, room: float) -> None:
        for key in keys:
            self.swatch(key, x0, y, step)
            self.fit((x0 + self.s * 0.75, y + step / 2), render(self.lang, f"render.key.{key}"), 0.24, TEXT,
                     room - self.s * 0.75)
            y += step

    def _keys_apart(self, keys: tuple[str, ...], x0: int, y: float, step: float, room: float,
                    box: tuple[int, int, int, int]) -> Image.Image | None:
        """The key lines drawn on a blank map (the same coordinates: no rounding can differ), cut to ``box``;
        None where any of it falls outside the box. Kept between commands (``render/kept.py``) when inside."""
        parts = ("keys", kept.board_key(self.board), self.geo, self.lang, self.font.index,
                 kept.font_key(self.font.path), keys, y, step, room,
                 tuple(render(self.lang, f"render.key.{key}") for key in keys))
        name = kept.name_of(parts)
        made = kept.load(name, (box[2] - box[0], box[3] - box[1]))
        if made is None:
            made = self._keys_blank(keys, x0, y, step, room, box)
            if made is not None:
                kept.keep(name, made)
        if len(_KEYS) >= 64:
            _KEYS.clear()
        _KEYS[(self.board, self.geo, self.lang, self.font, keys, y)] = made
        return made

    def _keys_blank(self, keys: tuple[str, ...], x0: int, y: float, step: float, room: float,
                    box: tuple[int, int, int, int]) -> Image.Image | None:
        blank = _Painter(self.board, self.view, self.geo, self.lang, self.font,
                         Image.new("RGB", (self.geo.width, self.geo.height), BACKGROUND))
        blank.keys_drawn(keys, x0, y, step, room)
        drawn = ImageChops.difference(blank.img, Image.new("RGB", blank.img.size, BACKGROUND)).getbbox()
        inside = drawn is None or (drawn[0] >= box[0] and drawn[1] >= box[1])
        return blank.img.crop(box) if inside else None

    def swatch(self, key: str, x: float, y: float, step: float) -> None:
        s = self.s
        box = (x, y + step * 0.15, x + s * 0.6, y + step * 0.85)
        cx, cy, r = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, step * 0.3
        if key in COLOURS:
            self.d.rectangle(box, fill=COLOURS[key], outline=GRID)
        elif key == "wall":
            self.d.line((box[0], cy, box[2], cy), fill=WALL, width=max(3, s // 9))
        elif key == "obstacle":
            self.d.line((box[0], cy, box[2], cy), fill=OBSTACLE, width=max(2, s // 14))
        elif key == "board":
            self.d.rectangle((box[0] + 2, cy - s // 14, box[2] - 2, cy + s // 14), fill=BOARD)
        elif key == "trap":
            self.d.line((cx - r, cy - r, cx + r, cy + r), fill=TRAP, width=max(2, s // 20))
            self.d.line((cx - r, cy + r, cx + r, cy - r), fill=TRAP, width=max(2, s // 20))
        elif key in ("passage", "hidden_passage"):
            colour = PASSAGE if key == "passage" else HIDDEN
            self.d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=max(2, s // 24))
        elif key == "noise":
            self.d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=NOISE, width=max(2, s // 28))
        elif key == "plan":
            self._dashes((box[0], cy), (box[2], cy), max(2, s // 16))
            self.d.ellipse((box[2] - r, cy - r, box[2] + r, cy + r), fill=PLAN)
        elif key == "path":
            self.d.line((box[0], cy, box[2] - r, cy), fill=PALETTE[0], width=max(2, s // 22))
            self._arrow((box[0], cy), (box[2] + self.s * 0.18, cy), PALETTE[0], s * 0.16)
        else:
            camp = "hunter" if key == "hunter" else "survivor"
            self.piece(Piece(1, "", camp, (0, 0), you=key == "you"), cx, cy, r * 0.9, "#757575")

    def paint(self) -> Image.Image:
        self.boards()
        self.passages()
        self.traps()
        self.noise()
        self.contents()
        self.trails()
        self.plan()
        self.pieces()
        self.legend()
        return self.img

    def png(self) -> bytes:
        """Deflate level 1 (ISA-L's where installed: a tenth of zlib's level 1, itself half of level 6, for files
        about 7 % larger each step); rows left unfiltered rather than Pillow's adaptive choice (``render/png.py``)."""
        return encode_rgb(self.paint(), 1)


@lru_cache(maxsize=4)
def _ground(board: Board, geo: Geometry, lang: str, font: FontChoice) -> Image.Image:
    """The tiles with their names and marks, the margins' letters and numbers, the obstacles and walls: the
    same on every map of ``board`` at this size, so drawn once (a third of a map's drawing) and kept between
    commands (``render/kept.py``); each map draws on a copy, in the same order as if it drew them itself."""
    shown = lang if font.cjk else "en"
    parts = ("ground", kept.board_key(board), geo, shown, font.index, kept.font_key(font.path),
             tuple(render(shown, f"render.glyph.{kind}") for kind in ("generator", "chest", "gate")))

    def draw() -> Image.Image:
        ground = _Canvas(board, geo, lang, font, Image.new("RGB", (geo.width, geo.height), BACKGROUND))
        ground.tiles()
        ground.margins()
        ground.edges()
        return ground.img

    return kept.picture(parts, (geo.width, geo.height), draw)


def draw_map(board: Board, view: MapView, scale: int = DEFAULT_SCALE, lang: str = "zh",
             font: FontChoice | None = None) -> bytes:
    """The PNG of ``view`` on ``board``; ``scale`` pixels per tile. Labels in ``lang``, English when no CJK
    font is found (``font`` overrides the search: ``fonts.DEFAULT`` draws with Pillow's own font)."""
    geo = geometry(board, view, scale)
    return _Painter(board, view, geo, lang, font if font is not None else find_font()).png()


def draw_image(board: Board, view: MapView, scale: int = DEFAULT_SCALE, lang: str = "zh",
               font: FontChoice | None = None) -> Image.Image:
    """The picture of ``draw_map`` before it is encoded (for the recap, which makes other files of it)."""
    geo = geometry(board, view, scale)
    return _Painter(board, view, geo, lang, font if font is not None else find_font()).paint()


def sample(png: bytes, points: Sequence[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """RGB of the PNG at each point (for tests and checks)."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    return [img.getpixel(p) for p in points]  # type: ignore[misc]
