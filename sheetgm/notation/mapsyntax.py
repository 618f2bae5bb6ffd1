"""Reading the map file format (docs/map-format.md) into a Board.

This module knows the grammar only: lines, keys, the drawn grid and the
sections after it. Rules that need the whole board (a gate, enough
generators, reachability, start zones) live in ``mapcheck``; to point at a
line and column they use the ``Source`` this module returns beside the Board.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sheetgm.core.board import Board, EdgeKey, Tile, col_name, edge_key, parse_tile, tile_name
from sheetgm.core.errors import MapError
from sheetgm.notation.vocab import parse_item

Pos = tuple[int, int]  # (line, col), both 1-based

MAX_WIDTH = 26 + 26 * 26  # A..ZZ
MAX_HEIGHT = 999
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

ROW_EDGES = {"|": "obstacle", "#": "wall"}
COL_EDGES = {"-": "obstacle", "=": "wall"}
FEATURES = {"G": "generator", "C": "chest", "X": "gate", "D": "dark", "F": "flat", "S": "survivor", "H": "hunter"}

_COUNT_RE = re.compile(r"^(.*?)\s*(?:[x×*]\s*([0-9]+))?$", re.IGNORECASE)
_INT_RE = re.compile(r"^[0-9]{1,4}$")


@dataclass
class Source:
    """Where things were written, for error positions."""

    grid: Pos = (1, 1)
    tiles: dict[Tile, Pos] = field(default_factory=dict)
    keys: dict[str, Pos] = field(default_factory=dict)
    chests: dict[Tile, Pos] = field(default_factory=dict)
    end: Pos = (1, 1)


@dataclass
class _Row:
    line: int
    tokens: list[tuple[str, int]]  # (token, 0-based start)
    edges: list[str | None]  # between token i and i+1


@dataclass
class _Parsed:
    name: str | None = None
    title: str = ""
    items: tuple[str, ...] = ()
    meta: list[tuple[str, str]] = field(default_factory=list)
    rows: list[_Row] = field(default_factory=list)
    edge_lines: list[tuple[int, int, list[tuple[int, str]]]] = field(default_factory=list)  # (after row, line, glyphs)
    chest_lines: list[tuple[str, str, int, int, int]] = field(default_factory=list)  # (tile, item, line, tcol, icol)
    edge_sections: list[tuple[str, str, int, int, int]] = field(default_factory=list)
    header: tuple[int, list[tuple[str, int]]] | None = None


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
            i = _read_grid(lines, i, p)
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
        item = resolve_item(word) if word else None
        if item is None:
            item = resolve_item(entry)  # an item name that itself ends like "x2"
            count = None
        if item is None:
            raise MapError("err.map.unknown_item", line=lineno, col=col, item=(word or entry)[:20])
        out.extend([item] * (int(count) if count else 1))
    return out


def resolve_item(word: str) -> str | None:
    """Item id for an item name as players write it (zh or en, any case)."""
    return parse_item(word)


def _read_grid(lines: list[str], i: int, p: _Parsed) -> int:
    """Read grid lines from index i; return the index of the first line after the grid."""
    while i < len(lines):
        raw = lines[i]
        lineno = i + 1
        stripped = raw.strip()
        if ":" in raw:
            break
        i += 1
        if not stripped or stripped.startswith("#"):
            continue
        if "\t" in raw:
            raise MapError("err.map.tab", line=lineno, col=raw.index("\t") + 1)
        if set(stripped) <= {"-", "=", " "}:
            _edge_line(raw, lineno, p)
        elif not p.rows and p.header is None and _is_header(stripped):
            p.header = (lineno, [(t, s) for t, s in _split_tokens(raw)])
        else:
            _row_line(raw, lineno, p)
    if p.edge_lines and p.edge_lines[-1][0] == len(p.rows):
        ln, glyphs = p.edge_lines[-1][1], p.edge_lines[-1][2]
        raise MapError("err.map.edge_at_border", line=ln, col=glyphs[0][0] + 1)
    return i


def _is_header(stripped: str) -> bool:
    tokens = stripped.split()
    return tokens[0].upper() == "A" and all(t.isascii() and t.isalpha() for t in tokens)


def _split_tokens(raw: str) -> list[tuple[str, int]]:
    return [(m.group(0), m.start()) for m in re.finditer(r"\S+", raw)]


def _edge_line(raw: str, lineno: int, p: _Parsed) -> None:
    glyphs = [(j, ch) for j, ch in enumerate(raw) if ch in COL_EDGES]
    if not p.rows:
        raise MapError("err.map.edge_at_border", line=lineno, col=glyphs[0][0] + 1)
    if p.edge_lines and p.edge_lines[-1][0] == len(p.rows):
        raise MapError("err.map.edge_twice", line=lineno, col=glyphs[0][0] + 1)
    p.edge_lines.append((len(p.rows), lineno, glyphs))


def _row_line(raw: str, lineno: int, p: _Parsed) -> None:
    items: list[tuple[str, int]] = []
    j = 0
    while j < len(raw):
        ch = raw[j]
        if ch.isspace():
            j += 1
        elif ch in ROW_EDGES:
            items.append((ch, j))
            j += 1
        else:
            k = j
            while k < len(raw) and not raw[k].isspace() and raw[k] not in ROW_EDGES:
                k += 1
            items.append((raw[j:k], j))
            j = k
    if items and items[0][0].isdigit():
        num, col = items.pop(0)
        expected = len(p.rows) + 1
        if not _INT_RE.match(num) or int(num) != expected:
            raise MapError("err.map.row_number", line=lineno, col=col + 1, got=num[:8], expected=expected)
        if not items:
            raise MapError("err.map.empty_row", line=lineno, col=col + 1)
    tokens: list[tuple[str, int]] = []
    edges: list[str | None] = []
    pending: str | None = None
    prev = ""
    for text, col in items:
        if text in ROW_EDGES:
            if prev != "tile":
                code = "err.map.edge_twice" if prev == "edge" else "err.map.edge_at_border"
                raise MapError(code, line=lineno, col=col + 1)
            pending = ROW_EDGES[text]
            prev = "edge"
        else:
            if prev:
                edges.append(pending)
            pending = None
            tokens.append((text, col))
            prev = "tile"
    if prev == "edge":
        raise MapError("err.map.edge_at_border", line=lineno, col=items[-1][1] + 1)
    if p.rows and len(tokens) != len(p.rows[0].tokens):
        want = len(p.rows[0].tokens)
        col = tokens[want][1] + 1 if len(tokens) > want else len(raw.rstrip()) + 1
        raise MapError("err.map.ragged", line=lineno, col=col, got=len(tokens), expected=want)
    if len(p.rows) >= MAX_HEIGHT or len(tokens) > MAX_WIDTH:
        raise MapError("err.map.too_large", line=lineno, col=1, max_width=MAX_WIDTH, max_height=MAX_HEIGHT)
    p.rows.append(_Row(lineno, tokens, edges))


def _token_features(token: str, line: int, col: int) -> tuple[set[str], list[tuple[int, int]]]:
    """Features of a tile token and its passage ids with their 1-based columns."""
    if token == ".":
        return set(), []
    feats: set[str] = set()
    passages: list[tuple[int, int]] = []
    j = 0
    while j < len(token):
        ch = token[j]
        up = ch.upper()
        here = col + j
        if not ch.isascii():
            raise MapError("err.map.unknown_glyph", line=line, col=here, glyph=ch)
        if ch == ".":
            raise MapError("err.map.dot_mixed", line=line, col=here)
        if up == "P":
            k = j + 1
            while k < len(token) and token[k].isdigit():
                k += 1
            digits = token[j + 1:k]
            if not digits or len(digits) > 3 or not digits.isascii() or int(digits) == 0:
                raise MapError("err.map.passage_id", line=line, col=here, text=token[j:k][:8])
            if any(pid == int(digits) for pid, _ in passages):
                raise MapError("err.map.duplicate_feature", line=line, col=here, glyph=token[j:k])
            passages.append((int(digits), here))
            j = k
            continue
        if up not in FEATURES:
            raise MapError("err.map.unknown_glyph", line=line, col=here, glyph=ch)
        if FEATURES[up] in feats:
            raise MapError("err.map.duplicate_feature", line=line, col=here, glyph=ch)
        feats.add(FEATURES[up])
        j += 1
    return feats, passages


def _build(p: _Parsed, src: Source, name: str | None) -> Board:
    if not p.rows:
        raise MapError("err.map.empty_grid", line=src.grid[0], col=src.grid[1])
    width, height = len(p.rows[0].tokens), len(p.rows)
    if p.header is not None:
        hline, htokens = p.header
        for c, (text, col) in enumerate(htokens):
            if c >= width or text.upper() != col_name(c):
                want = col_name(c) if c < width else "-"
                raise MapError("err.map.header", line=hline, col=col + 1, got=text[:4], expected=want)
        if len(htokens) != width:
            raise MapError("err.map.header_width", line=hline, col=1, got=len(htokens), expected=width)
    feats: dict[str, set[Tile]] = {f: set() for f in FEATURES.values()}
    ends: dict[int, list[tuple[Tile, Pos]]] = {}
    obstacles: set[EdgeKey] = set()
    walls: set[EdgeKey] = set()
    for r, row in enumerate(p.rows):
        for c, (token, start) in enumerate(row.tokens):
            tile = (c, r)
            src.tiles[tile] = (row.line, start + 1)
            fs, pids = _token_features(token, row.line, start + 1)
            for f in fs:
                feats[f].add(tile)
            for pid, pcol in pids:
                ends.setdefault(pid, []).append((tile, (row.line, pcol)))
                if len(ends[pid]) > 2:
                    raise MapError("err.map.passage_overused", line=row.line, col=pcol, id=pid)
        for c, kind in enumerate(row.edges):
            if kind is not None:
                (obstacles if kind == "obstacle" else walls).add(edge_key((c, r), (c + 1, r)))
    for after, line, glyphs in p.edge_lines:
        above, below = p.rows[after - 1], p.rows[after]
        chosen: dict[int, str] = {}
        for start, end, ch in _runs(glyphs):
            cols = _columns_touched(above, start, end) or _columns_touched(below, start, end)
            if not cols:
                raise MapError("err.map.edge_not_under_tile", line=line, col=start + 1)
            for c in cols:
                if chosen.setdefault(c, ch) != ch:
                    raise MapError("err.map.edge_mixed", line=line, col=start + 1, tile=tile_name((c, after - 1)))
        for c, ch in chosen.items():
            key = edge_key((c, after - 1), (c, after))
            (obstacles if COL_EDGES[ch] == "obstacle" else walls).add(key)
    for pid, found in sorted(ends.items()):
        if len(found) == 1:
            (tile, (line, col)) = found[0]
            raise MapError("err.map.passage_unpaired", line=line, col=col, id=pid, tile=tile_name(tile))
    passages = tuple(edge_key(found[0][0], found[1][0]) for _, found in sorted(ends.items()))
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
        item = resolve_item(item_word)
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
        passages=passages,
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


def _runs(glyphs: list[tuple[int, str]]) -> list[tuple[int, int, str]]:
    """Glyph positions → runs ``(start, end, glyph)`` of one glyph written side by side."""
    runs: list[tuple[int, int, str]] = []
    for j, ch in glyphs:
        if runs and runs[-1][1] == j and runs[-1][2] == ch:
            runs[-1] = (runs[-1][0], j + 1, ch)
        else:
            runs.append((j, j + 1, ch))
    return runs


def _columns_touched(row: _Row, start: int, end: int) -> list[int]:
    """Columns of the row whose token shares a character position with ``[start, end)``."""
    return [c for c, (token, s) in enumerate(row.tokens) if s < end and start < s + len(token)]


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
