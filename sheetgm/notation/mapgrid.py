"""The drawn grid of a map file: tile tokens, edge glyphs between tiles and between rows.

``read_grid`` collects the grid lines as written; ``draw`` turns them into
tiles, features, passages and edges, checking the glyphs and their places.
"""

from __future__ import annotations

import re

from sheetgm.core.board import EdgeKey, Tile, col_name, edge_key, tile_name
from sheetgm.core.errors import MapError
from sheetgm.core.values import field, record

Pos = tuple[int, int]  # (line, col), both 1-based

MAX_WIDTH = 26 + 26 * 26  # A..ZZ
MAX_HEIGHT = 999

ROW_EDGES = {"|": "obstacle", "#": "wall"}
COL_EDGES = {"-": "obstacle", "=": "wall"}
FEATURES = {"G": "generator", "C": "chest", "X": "gate", "D": "dark", "F": "flat", "S": "survivor", "H": "hunter"}

_INT_RE = re.compile(r"^[0-9]{1,4}$")


@record
class Row:
    """One line of a map's grid: its tokens with their columns and the edges between them."""

    line: int
    tokens: list[tuple[str, int]]  # (token, 0-based start)
    edges: list[str | None]  # between token i and i+1


@record
class Grid:
    """Grid lines as written."""

    rows: list[Row] = field(default_factory=list)
    edge_lines: list[tuple[int, int, list[tuple[int, str]]]] = field(default_factory=list)  # (after row, line, glyphs)
    header: tuple[int, list[tuple[str, int]]] | None = None


@record
class Drawn:
    """What the grid shows."""

    width: int
    height: int
    features: dict[str, set[Tile]]
    passages: tuple[EdgeKey, ...]
    obstacles: set[EdgeKey]
    walls: set[EdgeKey]
    tiles: dict[Tile, Pos]


def read_grid(lines: list[str], i: int, p: Grid) -> int:
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


def _edge_line(raw: str, lineno: int, p: Grid) -> None:
    glyphs = [(j, ch) for j, ch in enumerate(raw) if ch in COL_EDGES]
    if not p.rows:
        raise MapError("err.map.edge_at_border", line=lineno, col=glyphs[0][0] + 1)
    if p.edge_lines and p.edge_lines[-1][0] == len(p.rows):
        raise MapError("err.map.edge_twice", line=lineno, col=glyphs[0][0] + 1)
    p.edge_lines.append((len(p.rows), lineno, glyphs))


def _row_line(raw: str, lineno: int, p: Grid) -> None:
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
    p.rows.append(Row(lineno, tokens, edges))


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


def draw(p: Grid, grid_pos: Pos) -> Drawn:
    if not p.rows:
        raise MapError("err.map.empty_grid", line=grid_pos[0], col=grid_pos[1])
    width, height = len(p.rows[0].tokens), len(p.rows)
    _check_header(p, width)
    out = Drawn(width, height, {f: set() for f in FEATURES.values()}, (), set(), set(), {})
    ends: dict[int, list[tuple[Tile, Pos]]] = {}
    for r, row in enumerate(p.rows):
        for c, (token, start) in enumerate(row.tokens):
            tile = (c, r)
            out.tiles[tile] = (row.line, start + 1)
            fs, pids = _token_features(token, row.line, start + 1)
            for f in fs:
                out.features[f].add(tile)
            for pid, pcol in pids:
                ends.setdefault(pid, []).append((tile, (row.line, pcol)))
                if len(ends[pid]) > 2:
                    raise MapError("err.map.passage_overused", line=row.line, col=pcol, id=pid)
        for c, kind in enumerate(row.edges):
            if kind is not None:
                (out.obstacles if kind == "obstacle" else out.walls).add(edge_key((c, r), (c + 1, r)))
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
            (out.obstacles if COL_EDGES[ch] == "obstacle" else out.walls).add(key)
    for pid, found in sorted(ends.items()):
        if len(found) == 1:
            (tile, (line, col)) = found[0]
            raise MapError("err.map.passage_unpaired", line=line, col=col, id=pid, tile=tile_name(tile))
    out.passages = tuple(edge_key(found[0][0], found[1][0]) for _, found in sorted(ends.items()))
    return out


def _check_header(p: Grid, width: int) -> None:
    if p.header is None:
        return
    hline, htokens = p.header
    for c, (text, col) in enumerate(htokens):
        if c >= width or text.upper() != col_name(c):
            want = col_name(c) if c < width else "-"
            raise MapError("err.map.header", line=hline, col=col + 1, got=text[:4], expected=want)
    if len(htokens) != width:
        raise MapError("err.map.header_width", line=hline, col=1, got=len(htokens), expected=width)


def _runs(glyphs: list[tuple[int, str]]) -> list[tuple[int, int, str]]:
    """Glyph positions → runs ``(start, end, glyph)`` of one glyph written side by side."""
    runs: list[tuple[int, int, str]] = []
    for j, ch in glyphs:
        if runs and runs[-1][1] == j and runs[-1][2] == ch:
            runs[-1] = (runs[-1][0], j + 1, ch)
        else:
            runs.append((j, j + 1, ch))
    return runs


def _columns_touched(row: Row, start: int, end: int) -> list[int]:
    """Columns of the row whose token shares a character position with ``[start, end)``."""
    return [c for c, (token, s) in enumerate(row.tokens) if s < end and start < s + len(token)]
