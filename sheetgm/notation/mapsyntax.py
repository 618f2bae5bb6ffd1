"""Reading the map file format (docs/map-format.md) into a Board.

This module knows the grammar only: lines, keys, the drawn grid and the
sections after it. Rules that need the whole board (a gate, enough
generators, reachability, start zones) live in ``mapcheck``; to point at a
line and column they use the ``Source`` this module returns beside the Board.
"""

from __future__ import annotations

import re

from sheetgm.core.board import Board, EdgeKey, Tile, edge_key, parse_tile, tile_name
from sheetgm.core.errors import MapError
from sheetgm.core.values import field, record
from sheetgm.notation import mapgrid
from sheetgm.notation.mapgrid import Pos
from sheetgm.notation.vocab import parse_item

MAX_COUNT = 99

# Full-width ASCII (what a Chinese input method types) read as ASCII, one char for one char,
# so that columns stay where the director sees them.
_FULLWIDTH = {i: i - 0xFEE0 for i in range(0xFF01, 0xFF5F)}
_FULLWIDTH[0x3000] = 0x20

# Keys of the header; values are the canonical key. Meta keys are kept in Board.meta.
KEY_ALIASES: dict[str, str] = {
    "name": "name", "名称": "name",
    "title": "title", "标题": "title",
    "items": "items", "道具": "items", "道具池": "items",
    "map": "map", "grid": "map", "网格": "map",
    "chest": "chest", "宝物箱": "chest",
    "edge": "edge", "边": "edge",
    "author": "author", "作者": "author",
    "note": "note", "说明": "note",
    "players": "players", "人数": "players",
    "survivors": "survivors", "求生者": "survivors",
    "hunters": "hunters", "杀手": "hunters", "监管者": "hunters",
    "crack_target": "crack_target",
    "generator_cap": "generator_cap",
}
META_KEYS = ("author", "note", "players", "survivors", "hunters", "crack_target", "generator_cap")
FREE_TEXT_KEYS = frozenset({"name", "title", "author", "note"})
INT_KEYS = frozenset({"players", "survivors", "hunters", "crack_target", "generator_cap"})
POSITIVE_KEYS = frozenset({"crack_target", "generator_cap"})
ARG_KEYS = frozenset({"chest", "edge"})

EDGE_WORDS: dict[str, str] = {
    "obstacle": "obstacle", "障碍": "obstacle", "障碍物": "obstacle", "-": "obstacle", "|": "obstacle",
    "wall": "wall", "high wall": "wall", "高墙": "wall", "墙": "wall", "=": "wall", "#": "wall",
}

_INT_RE = re.compile(r"^[0-9]{1,4}$")
_COUNT_RE = re.compile(r"^(.*?)\s*(?:[x×*]\s*([0-9]+))?$", re.IGNORECASE)


@record
class Source:
    """Where things were written, for error positions."""

    grid: Pos = (1, 1)
    tiles: dict[Tile, Pos] = field(default_factory=dict)
    keys: dict[str, Pos] = field(default_factory=dict)
    chests: dict[Tile, Pos] = field(default_factory=dict)
    end: Pos = (1, 1)


@record
class _Parsed:
    """What a map file's header and legend say, before the grid is checked."""

    name: str | None = None
    title: str = ""
    items: tuple[str, ...] = ()
    meta: list[tuple[str, str]] = field(default_factory=list)
    grid: mapgrid.Grid = field(default_factory=mapgrid.Grid)
    chest_lines: list[tuple[str, str, int, int, int]] = field(default_factory=list)  # (tile, item, line, tcol, icol)
    edge_sections: list[tuple[str, str, int, int, int]] = field(default_factory=list)


def parse(text: str, name: str | None = None) -> tuple[Board, Source]:
    """Read map text; raise MapError on anything that is not the grammar."""
    originals = [ln.rstrip("\r") for ln in text.lstrip("\ufeff").split("\n")]
    lines = [ln.translate(_FULLWIDTH) for ln in originals]
    p = _Parsed()
    src = Source(end=(len(lines), 1))
    seen: dict[str, int] = {}
    i = 0
    while i < len(lines):
        raw = lines[i]
        lineno = i + 1
        i += 1
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if ":" not in raw:
            raise MapError("err.map.bad_line", line=lineno, col=_indent(raw) + 1, text=stripped[:40])
        head, value = raw.split(":", 1)
        words = head.split()
        if not words:
            raise MapError("err.map.bad_line", line=lineno, col=_indent(raw) + 1, text=stripped[:40])
        key = KEY_ALIASES.get(words[0].lower())
        kcol = _indent(raw) + 1
        if key is None:
            raise MapError("err.map.unknown_key", line=lineno, col=kcol, key=words[0], known=", ".join(_KNOWN))
        arg = head[head.index(words[0]) + len(words[0]):]
        acol = len(head) - len(arg) + 1
        if arg.strip() and key not in ARG_KEYS:
            raise MapError("err.map.bad_line", line=lineno, col=acol + _indent(arg), text=stripped[:40])
        full_key = key + " " + " ".join(arg.split()).upper() if key in ARG_KEYS else key
        if full_key in seen:
            raise MapError("err.map.duplicate_key", line=lineno, col=kcol, key=full_key, first=seen[full_key])
        seen[full_key] = lineno
        src.keys[full_key] = (lineno, kcol)
        vcol = len(head) + 2  # 1-based col of the char after ':'
        if key == "map":
            if value.strip():
                raise MapError("err.map.grid_value", line=lineno, col=vcol + _indent(value))
            src.grid = (lineno, kcol)
            i = mapgrid.read_grid(lines, i, p.grid)
            continue
        free_text = originals[lineno - 1][len(head) + 1:]
        _read_key(p, key, arg, acol, value, free_text, vcol, lineno)
    if "map" not in seen:
        raise MapError("err.map.no_grid", line=src.end[0], col=1)
    return _build(p, src, name)


_KNOWN = ("name", "title", "items", "map", "chest", "edge") + META_KEYS


def _indent(s: str) -> int:
    return len(s) - len(s.lstrip())


def _read_key(p: _Parsed, key: str, arg: str, acol: int, value: str, free_text: str, vcol: int, lineno: int) -> None:
    """One header or section line; ``free_text`` is the value as written (full-width kept) for names and notes."""
    val = value.strip()
    col = vcol + _indent(value)
    if key in FREE_TEXT_KEYS:
        val = free_text.strip()
    if key == "name":
        if not val:
            raise MapError("err.map.empty_value", line=lineno, col=col, key=key)
        p.name = val
    elif key == "title":
        p.title = val
    elif key == "items":
        p.items = tuple(_read_items(value, vcol, lineno))
    elif key in ("chest", "edge"):
        if not arg.strip():
            raise MapError("err.map.missing_tile", line=lineno, col=acol, key=key)
        if not val:
            raise MapError("err.map.empty_value", line=lineno, col=col, key=key)
        target = (arg.strip(), val, lineno, acol + _indent(arg), col)
        (p.chest_lines if key == "chest" else p.edge_sections).append(target)
    else:
        if key in INT_KEYS:
            if not _INT_RE.match(val) or (key in POSITIVE_KEYS and int(val) == 0):
                raise MapError("err.map.bad_number", line=lineno, col=col, key=key, value=val[:20])
            val = str(int(val))
        p.meta.append((key, val))


def _read_items(value: str, vcol: int, lineno: int) -> list[str]:
    out: list[str] = []
    offset = 0
    for part in re.split(r"[,、;；]", value):
        col = vcol + offset + _indent(part)
        offset += len(part) + 1
        entry = part.strip()
        if not entry:
            continue
        m = _COUNT_RE.match(entry)
        word, count = (m.group(1), m.group(2)) if m else (entry, None)
        if count is not None and (len(count) > 2 or not 1 <= int(count) <= MAX_COUNT):
            raise MapError("err.map.bad_count", line=lineno, col=col, text=entry[:20])
        item = parse_item(word) if word else None
        if item is None:
            item = parse_item(entry)  # an item name that itself ends like "x2"
            count = None
        if item is None:
            raise MapError("err.map.unknown_item", line=lineno, col=col, item=(word or entry)[:20])
        out.extend([item] * (int(count) if count else 1))
    return out


def _build(p: _Parsed, src: Source, name: str | None) -> tuple[Board, Source]:
    g = mapgrid.draw(p.grid, src.grid)
    width, height, obstacles, walls, feats = g.width, g.height, g.obstacles, g.walls, g.features
    src.tiles = g.tiles
    for text, kind_word, line, tcol, kcol in p.edge_sections:
        kind = EDGE_WORDS.get(" ".join(kind_word.lower().split()))
        if kind is None:
            raise MapError("err.map.edge_kind", line=line, col=kcol, value=kind_word[:20])
        for key, col in _edge_names(text, line, tcol, width, height):
            drawn = "wall" if key in walls else "obstacle" if key in obstacles else None
            if drawn is not None and drawn != kind:
                raise MapError("err.map.edge_conflict", line=line, col=col, edge=_ename(key), drawn=drawn, given=kind)
            (obstacles if kind == "obstacle" else walls).add(key)
    chest_items: list[tuple[Tile, str]] = []
    for text, item_word, line, tcol, icol in p.chest_lines:
        tile = _tile(text, line, tcol, width, height)
        item = parse_item(item_word)
        if item is None:
            raise MapError("err.map.unknown_item", line=line, col=icol, item=item_word[:20])
        src.chests[tile] = (line, tcol)
        chest_items.append((tile, item))

    def order(tiles: set[Tile]) -> tuple[Tile, ...]:
        return tuple(sorted(tiles, key=lambda t: (t[1], t[0])))

    board = Board(
        name=name or p.name or "map",
        width=width,
        height=height,
        obstacles=frozenset(obstacles),
        walls=frozenset(walls),
        generators=frozenset(feats["generator"]),
        chests=frozenset(feats["chest"]),
        gates=frozenset(feats["gate"]),
        dark=frozenset(feats["dark"]),
        flat=frozenset(feats["flat"]),
        passages=g.passages,
        survivor_starts=order(feats["survivor"]),
        hunter_starts=order(feats["hunter"]),
        chest_items=tuple(chest_items),
        item_pool=p.items,
        title=p.title,
        meta=tuple(p.meta),
    )
    return board, src


def _ename(key: EdgeKey) -> str:
    return f"{tile_name(key[0])}-{tile_name(key[1])}"


def _tile(text: str, line: int, col: int, width: int, height: int) -> Tile:
    tile = parse_tile(text)
    if tile is None or not text.strip().isascii():
        raise MapError("err.map.bad_tile", line=line, col=col, text=text[:12])
    if not (0 <= tile[0] < width and 0 <= tile[1] < height):
        raise MapError("err.map.out_of_bounds", line=line, col=col, tile=text.strip().upper(),
                       last=tile_name((width - 1, height - 1)))
    return tile


def _edge_names(text: str, line: int, col: int, width: int, height: int) -> list[tuple[EdgeKey, int]]:
    """``B2-C2, C3-C4`` → edge keys with the column where each was written."""
    out: list[tuple[EdgeKey, int]] = []
    for m in re.finditer(r"[^,\s]+", text):
        part, pcol = m.group(0), col + m.start()
        if part.count("-") != 1:
            raise MapError("err.map.bad_edge_name", line=line, col=pcol, text=part[:16])
        left, right = part.split("-")
        a = _tile(left, line, pcol, width, height)
        b = _tile(right, line, pcol + len(left) + 1, width, height)
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            raise MapError("err.map.not_adjacent", line=line, col=pcol, a=tile_name(a), b=tile_name(b))
        out.append((edge_key(a, b), pcol))
    return out
