"""The map file format: grammar, validation errors with their positions, round trip, fuzzing (R-MAP-1, R-MAP-8)."""

from __future__ import annotations

import random
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetgm.core.board import Board, Edge, Tile, col_name, edge_key, parse_tile
from sheetgm.core.errors import MapError
from sheetgm.core.steps import ITEMS
from sheetgm.core.texts import has
from sheetgm.notation.mapfile import dump_map, load_map, load_map_file, ready_map

SMALL = """\
name: small
title: 小地图
items: 地图 x2, revolver

map:
    A    B    C    D    E
 1  S    S  | .    .    G
    -              =
 2  S    Gd   .  # C    .
 3  .    .    P1   .    .
 4  Cf   f    .    .    .
 5  P1   .    X    .    H

chest D2: 左轮手枪
"""


def T(name: str) -> Tile:
    tile = parse_tile(name)
    assert tile is not None
    return tile


def errors_of(text: str, **kw: object) -> MapError:
    with pytest.raises(MapError) as info:
        load_map(text, **kw)  # type: ignore[arg-type]
    return info.value


# -- reading ---------------------------------------------------------------------------------------


def test_small_map_reads_every_feature() -> None:
    # covers: R-MAP-1, R-MAP-2, R-MAP-4
    b = load_map(SMALL, options={"survivors": 3, "hunters": 1})
    assert (b.name, b.title, b.width, b.height) == ("small", "小地图", 5, 5)
    assert b.generators == {T("E1"), T("B2")}
    assert b.chests == {T("D2"), T("A4")}
    assert b.gates == {T("C5")}
    assert b.dark == {T("B2")}
    assert b.flat == {T("A4"), T("B4")}
    assert b.passages == (edge_key(T("C3"), T("A5")),)
    assert b.survivor_starts == (T("A1"), T("B1"), T("A2"))
    assert b.hunter_starts == (T("E5"),)
    assert b.edge(T("B1"), T("C1")) is Edge.OBSTACLE
    assert b.edge(T("A1"), T("A2")) is Edge.OBSTACLE
    assert b.edge(T("D1"), T("D2")) is Edge.WALL
    assert b.edge(T("C2"), T("D2")) is Edge.WALL
    assert b.edge(T("A3"), T("B3")) is Edge.OPEN
    assert b.chest_items == ((T("D2"), "revolver"),)
    assert b.item_pool == ("map", "map", "revolver")


def test_header_and_row_numbers_are_optional_and_alignment_is_free() -> None:
    text = "name: t\nmap:\nG  G|X\n-\n. .   .\n  ==\n.   . .\n"
    b = load_map(text)
    assert (b.width, b.height) == (3, 3)
    assert b.edge(T("B1"), T("C1")) is Edge.OBSTACLE
    assert b.edge(T("A1"), T("A2")) is Edge.OBSTACLE
    assert b.edge(T("C1"), T("C2")) is Edge.OPEN
    # "==" at columns 3-4 touches token "." of B2 (column 3): the edge below B2; a gap char in a run is fine
    assert b.edge(T("B2"), T("B3")) is Edge.WALL
    assert b.edge(T("A2"), T("A3")) is Edge.OPEN


def test_full_width_glyphs_and_chinese_keys() -> None:
    # A Chinese input method types full-width ｜ ＃ ： and ideographic spaces; they read as ASCII.
    text = "名称：全角\n标题：地图（一）\n道具池：地图×2、门之钥\nmap:\nG　｜　G　＃　X\n．　．　．\n"
    b = load_map(text)
    assert b.name == "全角"
    assert b.title == "地图（一）"  # free text keeps its full-width characters
    assert b.item_pool == ("map", "map", "doorkey")
    assert b.edge(T("A1"), T("B1")) is Edge.OBSTACLE
    assert b.edge(T("B1"), T("C1")) is Edge.WALL


def test_edge_section_and_wide_maps() -> None:
    row = " ".join(["G", "X"] + ["."] * 28)
    text = f"name: wide\nmap:\n{row}\n{row}\n\nedge AA1-AB1, AD1-AD2: obstacle\nedge B1-B2: 高墙\n"
    b = load_map(text)
    assert b.width == 30
    assert b.edge(T("AA1"), T("AB1")) is Edge.OBSTACLE
    assert b.edge(T("AD1"), T("AD2")) is Edge.OBSTACLE
    assert b.edge(T("B1"), T("B2")) is Edge.WALL
    header = " ".join(col_name(c) for c in range(28))
    assert load_map(f"map:\n{header}\n{row[:-4]}\n{row[:-4]}\n").width == 28
    with pytest.raises(MapError):
        load_map(f"map:\n{header} AC\n{row[:-4]}\n{row[:-4]}\n")


def test_name_argument_wins_and_default_name() -> None:
    assert load_map("name: a\nmap:\nG G X\n", name="b").name == "b"
    assert load_map("map:\nG G X\n").name == "map"


def test_load_map_file_names_board_after_file(tmp_path) -> None:
    path = tmp_path / "arena.map"
    path.write_text("map:\nG G X\n", encoding="utf-8")
    assert load_map_file(path).name == "arena"
    bad = tmp_path / "bad.map"
    bad.write_bytes(b"map:\nG G \xff\n")
    with pytest.raises(MapError) as info:
        load_map_file(bad)
    assert (info.value.code, info.value.params["line"], info.value.params["col"]) == ("err.map.encoding", 2, 5)


def test_options_win_over_header() -> None:
    # covers: R-MAP-8 (options-aware generator check)
    text = "crack_target: 12\nmap:\nG X\n"
    assert load_map(text).generators == {T("A1")}  # 1 generator x 4 x 3 nights = 12
    assert errors_of(text, options={"crack_target": 16}).code == "err.map.few_generators"
    assert load_map(text, options={"generator_cap": 6, "crack_target": 18}).width == 2


def test_check_false_keeps_grammar_only() -> None:
    b = load_map("map:\n. .\n", check=False)
    assert b.gates == frozenset()
    with pytest.raises(MapError):
        load_map("map:\n. ?\n", check=False)


# -- every error, with its line and column ----------------------------------------------------------

ERRORS = [
    # (code, text, line, col)
    ("err.map.bad_line", "name: x\nhello\nmap:\nG G X\n", 2, 1),
    ("err.map.unknown_key", "name: x\n  colour: red\nmap:\nG G X\n", 2, 3),
    ("err.map.duplicate_key", "name: x\nname: y\nmap:\nG G X\n", 2, 1),
    ("err.map.duplicate_key", "map:\nG G CX\nchest D1: map\nchest d1: dagger\n", 4, 1),
    ("err.map.duplicate_key", "map:\nG G X\nmap:\n", 3, 1),
    ("err.map.empty_value", "name:\nmap:\nG G X\n", 1, 6),
    ("err.map.bad_number", "survivors: many\nmap:\nG G X\n", 1, 12),
    ("err.map.bad_number", "generator_cap: 0\nmap:\nG G X\n", 1, 16),
    ("err.map.bad_count", "items: map x0\nmap:\nG G X\n", 1, 8),
    ("err.map.unknown_item", "items: map, sword\nmap:\nG G X\n", 1, 13),
    ("err.map.unknown_item", "map:\nG G CX\n\nchest C1: 宝剑\n", 4, 11),
    ("err.map.grid_value", "map: 5x5\nG G X\n", 1, 6),
    ("err.map.no_grid", "name: x\ntitle: y\n", 3, 1),
    ("err.map.empty_grid", "name: x\nmap:\n\nchest A1: map\n", 2, 1),
    ("err.map.tab", "map:\nG\tG X\n", 2, 2),
    ("err.map.unknown_glyph", "map:\nG G X\n. Q .\n", 3, 3),
    ("err.map.unknown_glyph", "map:\nG G X\n. Gz .\n", 3, 4),
    ("err.map.dot_mixed", "map:\nG G X\n. G. .\n", 3, 4),
    ("err.map.duplicate_feature", "map:\nG GdG X\n", 2, 5),
    ("err.map.passage_id", "map:\nG GP X\n", 2, 4),
    ("err.map.row_number", "map:\n1 G G X\n3 . . .\n", 3, 1),
    ("err.map.empty_row", "map:\n1 G G X\n2\n", 3, 1),
    ("err.map.header", "map:\n  A B D\n  G G X\n", 2, 7),
    ("err.map.header_width", "map:\n  A B\n  G G X\n", 2, 1),
    ("err.map.ragged", "map:\nG G X\n. . . .\n", 3, 7),
    ("err.map.ragged", "map:\nG G X\n. .\n", 3, 4),
    ("err.map.edge_at_border", "map:\n| G G X\n", 2, 1),
    ("err.map.edge_at_border", "map:\nG G X #\n", 2, 7),
    ("err.map.edge_at_border", "map:\n  -\nG G X\n", 2, 3),
    ("err.map.edge_at_border", "map:\nG G X\n    =\n", 3, 5),
    ("err.map.edge_twice", "map:\nG | | G X\n", 2, 5),
    ("err.map.edge_twice", "map:\nG G X\n-\n-\n. . .\n", 4, 1),
    ("err.map.edge_not_under_tile", "map:\nG   G X\n  -\n.   . .\n", 3, 3),
    ("err.map.edge_mixed", "map:\nGd  G X\n-=-\n. . .\n", 3, 2),
    ("err.map.edge_mixed", "map:\nGd G X\n-=\n.  . .\n", 3, 2),
    ("err.map.passage_unpaired", "map:\nG G X\n. P7 .\n", 3, 3),
    ("err.map.passage_overused", "map:\nGP1 GP1 X\nP1 . .\n", 3, 1),
    ("err.map.bad_tile", "map:\nG G CX\n\nchest 9Z: map\n", 4, 7),
    ("err.map.out_of_bounds", "map:\nG G CX\n\nchest D9: map\n", 4, 7),
    ("err.map.bad_edge_name", "map:\nG G X\n. . .\n\nedge A1A2: wall\n", 5, 6),
    ("err.map.not_adjacent", "map:\nG G X\n. . .\n\nedge A1-C1: wall\n", 5, 6),
    ("err.map.edge_kind", "map:\nG G X\n. . .\n\nedge A1-B1: door\n", 5, 13),
    ("err.map.edge_conflict", "map:\nG | G X\n. . .\n\nedge A1-B1: wall\n", 5, 6),
    ("err.map.missing_tile", "map:\nG G X\n\nchest: map\n", 4, 6),
    # whole-board rules (R-MAP-8, R-SETUP-3)
    ("err.map.chest_missing", "map:\nG G X\n\nchest C1: map\n", 4, 7),
    ("err.map.passage_stacked", "map:\nGP1P2 G X\nP1 P2 .\n", 2, 1),
    ("err.map.no_gate", "name: x\nmap:\nG G .\n", 2, 1),
    ("err.map.few_generators", "name: x\n\nmap:\nG . X\n", 3, 1),
    ("err.map.unreachable", "map:\nG G X\n=====\n. . .\n", 4, 1),
    ("err.map.unreachable", "map:\nG G # X\n. . # .\n", 2, 7),
    ("err.map.survivor_zone_small", "map:\nG G X . . . .\nS S . . . . H\n", 3, 1),
    ("err.map.hunter_zone_small", "survivors: 1\nmap:\nG G X . . . .\nS . . . . . H\n", 4, 13),
    ("err.map.hunter_too_close", "survivors: 1\nhunters: 1\nmap:\nG G X . . . .\nS . . H . . .\n", 5, 7),
]


@pytest.mark.parametrize(("code", "text", "line", "col"), ERRORS, ids=[f"{e[0]}-{i}" for i, e in enumerate(ERRORS)])
def test_error_names_line_and_column(code: str, text: str, line: int, col: int) -> None:
    # covers: R-MAP-8
    err = errors_of(text)
    assert err.code == code, err.message("en")
    assert (err.params["line"], err.params["col"]) == (line, col), err.message("en")
    for lang in ("zh", "en"):
        assert has(lang, code)
        msg = err.message(lang)
        assert str(line) in msg and str(col) in msg and "{" not in msg


def test_hunter_too_close_says_which_tiles() -> None:
    # covers: R-SETUP-3
    err = errors_of("survivors: 1\nhunters: 1\nmap:\nG G X . . . .\nS . . H . . .\n")
    assert (err.params["hunter"], err.params["survivor"], err.params["distance"]) == ("D2", "A2", 3)
    assert "D2" in err.message("zh") and "A2" in err.message("zh")


def test_generator_error_is_options_aware() -> None:
    err = errors_of("map:\nG G X\n", options={"crack_target": 30})
    assert (err.params["count"], err.params["need"]) == (2, 3)


def test_unreachable_reports_the_smaller_part() -> None:
    err = errors_of("map:\nG G X\n=====\n. . .\n")
    assert err.code == "err.map.unreachable"
    assert (err.params["tile"], err.params["count"]) == ("A2", 3)


def test_passage_joins_otherwise_cut_off_parts() -> None:
    # covers: R-MAP-7 (passages connect their ends for reachability)
    b = load_map("map:\nGP1 G X\n=====\nP1  . .\n")
    assert b.passages == (edge_key(T("A1"), T("A2")),)


def test_ready_map_name_unknown() -> None:
    with pytest.raises(MapError) as info:
        ready_map("../standard")
    assert info.value.code == "err.map.unknown_ready_map"
    assert "standard" in info.value.message("en")


# -- round trip ------------------------------------------------------------------------------------

FREE = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"), max_size=12).map(str.strip)


def _row_major(tiles: set[Tile] | frozenset[Tile]) -> tuple[Tile, ...]:
    return tuple(sorted(tiles, key=lambda t: (t[1], t[0])))


def _all_edges(w: int, h: int) -> list[tuple[Tile, Tile]]:
    out = []
    for r in range(h):
        for c in range(w):
            if c + 1 < w:
                out.append(((c, r), (c + 1, r)))
            if r + 1 < h:
                out.append(((c, r), (c, r + 1)))
    return out


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """Any Board the grammar can express (no whole-board rules)."""
    w = draw(st.integers(1, 30))
    h = draw(st.integers(1, 7))
    tiles = [(c, r) for r in range(h) for c in range(w)]
    sub = st.frozensets(st.sampled_from(tiles), max_size=len(tiles))
    edges = _all_edges(w, h)
    obstacles = draw(st.frozensets(st.sampled_from(edges), max_size=len(edges))) if edges else frozenset()
    walls = (draw(st.frozensets(st.sampled_from(edges), max_size=len(edges))) if edges else frozenset()) - obstacles
    ends = draw(st.lists(st.sampled_from(tiles), unique=True, max_size=min(8, len(tiles))))
    passages = tuple(edge_key(ends[i], ends[i + 1]) for i in range(0, len(ends) - 1, 2))
    chests = draw(sub)
    stocked = draw(st.lists(st.sampled_from(sorted(chests)), unique=True)) if chests else []
    meta_keys = draw(st.lists(st.sampled_from(["author", "note", "players", "survivors", "crack_target"]), unique=True))
    meta = tuple(
        (k, str(draw(st.integers(1 if k == "crack_target" else 0, 9999))) if k in ("players", "survivors",
                                                                                   "crack_target") else draw(FREE))
        for k in meta_keys
    )
    return Board(
        name=draw(FREE.filter(bool)),
        width=w,
        height=h,
        obstacles=obstacles,
        walls=walls,
        generators=draw(sub),
        chests=chests,
        gates=draw(sub),
        dark=draw(sub),
        flat=draw(sub),
        passages=passages,
        survivor_starts=_row_major(draw(sub)),
        hunter_starts=_row_major(draw(sub)),
        chest_items=tuple((t, draw(st.sampled_from(ITEMS))) for t in stocked),
        item_pool=tuple(draw(st.lists(st.sampled_from(ITEMS), max_size=12))),
        title=draw(FREE),
        meta=meta,
    )


def _connected_without(board_walls: set, w: int, h: int) -> bool:
    seen = {(0, 0)}
    stack = [(0, 0)]
    while stack:
        c, r = stack.pop()
        for n in ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)):
            if 0 <= n[0] < w and 0 <= n[1] < h and n not in seen and edge_key((c, r), n) not in board_walls:
                seen.add(n)
                stack.append(n)
    return len(seen) == w * h


@st.composite
def valid_boards(draw: st.DrawFn) -> Board:
    """Boards that pass every whole-board rule, built so by construction."""
    w = draw(st.integers(2, 12))
    h = draw(st.integers(1, 8))
    tiles = [(c, r) for r in range(h) for c in range(w)]
    gens = draw(st.frozensets(st.sampled_from(tiles), min_size=2, max_size=len(tiles)))
    gates = draw(st.frozensets(st.sampled_from(tiles), min_size=1, max_size=3))
    walls: set = set()
    for e in draw(st.lists(st.sampled_from(_all_edges(w, h)), max_size=12)):
        if _connected_without(walls | {edge_key(*e)}, w, h):
            walls.add(edge_key(*e))
    survivors = draw(st.frozensets(st.sampled_from(tiles), max_size=6))
    far = [t for t in tiles if all(abs(t[0] - s[0]) + abs(t[1] - s[1]) > 3 for s in survivors)]
    hunters = draw(st.frozensets(st.sampled_from(far), max_size=3)) if far else frozenset()
    chests = draw(st.frozensets(st.sampled_from(tiles), max_size=6))
    ends = draw(st.lists(st.sampled_from(tiles), unique=True, max_size=min(4, len(tiles))))
    edges = _all_edges(w, h)
    obstacles = draw(st.frozensets(st.sampled_from(edges), max_size=10)) - walls
    return Board(
        name=draw(FREE.filter(bool)),
        width=w,
        height=h,
        obstacles=frozenset(obstacles),
        walls=frozenset(walls),
        generators=gens,
        chests=chests,
        gates=gates,
        dark=draw(st.frozensets(st.sampled_from(tiles))),
        flat=draw(st.frozensets(st.sampled_from(tiles))),
        passages=tuple(edge_key(ends[i], ends[i + 1]) for i in range(0, len(ends) - 1, 2)),
        survivor_starts=_row_major(survivors),
        hunter_starts=_row_major(hunters),
        chest_items=tuple((t, draw(st.sampled_from(ITEMS))) for t in sorted(chests)[:2]),
        item_pool=tuple(draw(st.lists(st.sampled_from(ITEMS), max_size=10))),
        title=draw(FREE),
        meta=(("survivors", str(len(survivors))), ("hunters", str(len(hunters)))),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_round_trip_any_board(board: Board) -> None:
    assert load_map(dump_map(board), check=False) == board


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_boards())
def test_round_trip_valid_board(board: Board) -> None:
    text = dump_map(board)
    assert load_map(text) == board
    assert dump_map(load_map(text)) == text


# -- fuzzing: a broken map raises MapError and nothing else ------------------------------------------

GLYPHS = list(".GCXdfSHP1 2|#-=:\n\t")
GLYPHS += ["map:\n", "chest ", "edge ", "items: ", "A1", "B2-C2", "x2", "，", "｜", "地图"]


def _load_or_maperror(text: str) -> None:
    try:
        board = load_map(text)
    except MapError as err:
        assert err.params["line"] >= 1 and err.params["col"] >= 1
        assert err.message("zh") and err.message("en")
    else:
        assert load_map(dump_map(board)) == board


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_fuzz_random_text(text: str) -> None:
    _load_or_maperror(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(GLYPHS), max_size=80).map("".join))
def test_fuzz_map_like_text(text: str) -> None:
    _load_or_maperror("name: f\nmap:\n" + text)


def _ready_text(name: str) -> str:
    return resources.files("sheet_templates").joinpath("maps", f"{name}.map").read_text("utf-8")


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["standard", "teach"]),
    st.lists(st.tuples(st.sampled_from(["del", "ins", "sub", "dupline", "delline", "swap"]), st.integers(0, 10**6),
                       st.sampled_from(GLYPHS)), min_size=1, max_size=4),
)
def test_fuzz_mutated_ready_maps(name: str, edits: list[tuple[str, int, str]]) -> None:
    text = _ready_text(name)
    for op, at, glyph in edits:
        if op in ("del", "ins", "sub"):
            i = at % (len(text) + 1)
            text = {"del": text[:i] + text[i + 1:], "ins": text[:i] + glyph + text[i:],
                    "sub": text[:i] + glyph + text[i + 1:]}[op]
        else:
            lines = text.split("\n")
            i, j = at % len(lines), (at // 7) % len(lines)
            if op == "dupline":
                lines.insert(i, lines[i])
            elif op == "delline":
                del lines[i]
            else:
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    _load_or_maperror(text)


def test_fuzz_seeded_mutations_hit_many_codes() -> None:
    """Deterministic sweep: many single-character mutations of the standard map, all MapError or a valid Board."""
    rng = random.Random(7)
    text = _ready_text("standard")
    codes = set()
    for _ in range(400):
        i = rng.randrange(len(text))
        mutated = text[:i] + rng.choice(GLYPHS) + text[i + 1:]
        try:
            load_map(mutated)
        except MapError as err:
            codes.add(err.code)
    assert len(codes) >= 5, codes


def test_docs_example_loads() -> None:
    """The example at the top of docs/map-format.md stays valid."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "map-format.md").read_text("utf-8")
    example = doc.split("```\n", 2)[1]
    b = load_map(example)
    assert (b.name, b.width, b.height) == ("small", 5, 5)
    assert b.edge(T("C4"), T("C5")) is Edge.OBSTACLE
    assert b.chest_items == ((T("D2"), "revolver"),)
