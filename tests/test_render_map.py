"""`sheetgm map`: sizes, colours of known tiles, edges, and that public and player views hide what they must."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from sheetgm.cli.app import app
from sheetgm.core.board import Board, Tile, edge_key, parse_tile
from sheetgm.core.events import Event
from sheetgm.core.setup import SeatSpec, new_game
from sheetgm.core.state import Passage, State
from sheetgm.notation.mapfile import ready_map
from sheetgm.render import draw as drawing
from sheetgm.render import fonts
from sheetgm.render.fonts import DEFAULT, find_font
from sheetgm.render.views import MapView, director_view, player_view, public_view
from sheetgm.service.demo import demo
from sheetgm.service.game import open_game
from sheetgm.service.mapview import game_map

S = 48
ROSTER = [SeatSpec(f"S{i}", "survivor") for i in range(1, 9)] + [SeatSpec("H1", "hunter"), SeatSpec("H2", "hunter")]


def hex_rgb(colour: str) -> tuple[int, int, int]:
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


def t(name: str) -> Tile:
    tile = parse_tile(name)
    assert tile is not None
    return tile


@pytest.fixture(scope="module")
def board() -> Board:
    return ready_map("standard")


@pytest.fixture
def state(board: Board) -> State:
    st = new_game(board, ROSTER, seed=7)
    st.players[1].pos = t("A1")
    return st


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def draw(board: Board, view: MapView, lang: str = "zh") -> Image.Image:
    return pixels(drawing.draw_map(board, view, S, lang, font=DEFAULT))


def centre(tile: Tile) -> tuple[int, int]:
    return (S // 2 + tile[0] * S + S // 2, S // 2 + tile[1] * S + S // 2)


def colours_in(img: Image.Image, tile: Tile) -> set[tuple[int, int, int]]:
    x, y = S // 2 + tile[0] * S, S // 2 + tile[1] * S
    found = img.crop((x + 2, y + 2, x + S - 2, y + S - 2)).getcolors(S * S) or []
    return {colour for _, colour in found}  # type: ignore[misc]


# -- sizes ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("scale", [24, 48, 64])
def test_size_is_the_board_times_the_scale_plus_margins_and_legend(board: Board, state: State, scale: int) -> None:
    for view in (public_view(state), director_view(state), player_view(state, 1)):
        img = pixels(drawing.draw_map(board, view, scale, font=DEFAULT))
        margin = scale // 2
        assert img.size == (board.width * scale + 2 * margin + drawing.LEGEND_TILES * scale,
                            board.height * scale + 2 * margin)
        geo = drawing.geometry(board, view, scale)
        assert (geo.width, geo.height) == img.size


def test_a_small_map_grows_to_hold_its_legend() -> None:
    teach = ready_map("teach")
    st = new_game(teach, [SeatSpec("A", "survivor"), SeatSpec("B", "survivor"), SeatSpec("H", "hunter")], seed=1)
    img = pixels(drawing.draw_map(teach, director_view(st), S, font=DEFAULT))
    assert img.width == teach.width * S + 2 * (S // 2) + drawing.LEGEND_TILES * S
    assert img.height > teach.height * S + 2 * (S // 2)


def test_the_png_is_a_png_and_is_deterministic(board: Board, state: State) -> None:
    a = drawing.draw_map(board, public_view(state), S)
    assert a[:8] == b"\x89PNG\r\n\x1a\n"
    assert drawing.draw_map(board, public_view(state), S) == a


# -- colours of known tiles -------------------------------------------------------------------------------------


def test_tile_colours(board: Board, state: State) -> None:
    img = draw(board, public_view(state))
    expect = {"C2": "generator", "J1": "gate", "A10": "gate", "B2": "dark", "A6": "flat", "E1": "chest",
              "G9": "generator"}
    for name, kind in expect.items():
        assert img.getpixel(centre(t(name))) == hex_rgb(drawing.COLOURS[kind]), name
    assert img.getpixel(centre(t("E5"))) == hex_rgb(drawing.PLAIN)


def test_a_dark_generator_keeps_its_colour_inside_a_dark_frame(board: Board, state: State) -> None:
    g9 = t("G9")
    assert g9 in board.dark and g9 in board.generators
    img = draw(board, public_view(state))
    x, y = S // 2 + g9[0] * S, S // 2 + g9[1] * S
    assert img.getpixel((x + 3, y + S // 2)) == hex_rgb(drawing.COLOURS["dark"])
    assert img.getpixel(centre(g9)) == hex_rgb(drawing.COLOURS["generator"])


# -- edges --------------------------------------------------------------------------------------------------------


def edge_mid(a: Tile, b: Tile) -> tuple[int, int]:
    a, b = edge_key(a, b)
    x, y = S // 2 + b[0] * S, S // 2 + b[1] * S
    return (x, y + S // 2) if a[1] == b[1] else (x + S // 2, y)


def test_walls_obstacles_and_boards_on_their_edges(board: Board, state: State) -> None:
    wall = sorted(board.walls)[0]
    obstacle = sorted(board.obstacles)[0]
    open_edge = edge_key(t("E5"), t("F5"))
    assert open_edge not in board.walls and open_edge not in board.obstacles
    before = draw(board, public_view(state))
    assert before.getpixel(edge_mid(*wall)) == hex_rgb(drawing.WALL)
    assert before.getpixel(edge_mid(*obstacle)) == hex_rgb(drawing.OBSTACLE)
    assert before.getpixel(edge_mid(*open_edge)) != hex_rgb(drawing.BOARD)
    state.boards.add(open_edge)
    after = draw(board, public_view(state))
    assert after.getpixel(edge_mid(*open_edge)) == hex_rgb(drawing.BOARD)


def test_the_border_is_a_wall(board: Board, state: State) -> None:
    img = draw(board, public_view(state))
    m = S // 2
    assert img.getpixel((m, m + S * 3 + S // 2)) == hex_rgb(drawing.WALL)
    assert img.getpixel((m + S * 4 + S // 2, m + board.height * S)) == hex_rgb(drawing.WALL)


def test_traps_and_passages_are_public(board: Board, state: State) -> None:
    state.traps[t("E5")] = 9
    img = draw(board, public_view(state))
    assert hex_rgb(drawing.TRAP) in colours_in(img, t("E5"))
    assert hex_rgb(drawing.PASSAGE) in colours_in(img, t("A5"))  # the map's passage A5-J6
    assert hex_rgb(drawing.PASSAGE) in colours_in(img, t("J6"))


# -- what each view shows -------------------------------------------------------------------------------------------


def test_the_public_view_does_not_change_when_hidden_things_move(board: Board, state: State) -> None:
    a = draw(board, public_view(state))
    state.players[1].pos = t("J10")
    state.players[9].pos = t("E5")
    state.noise = [t("C3"), t("D4")]
    chest = sorted(state.chests)[0]
    state.chests[chest] = None
    state.lying[t("E6")] = ["map"]
    state.keys_on[t("E7")] = 2
    state.passages.append(Passage(ends=edge_key(t("B9"), t("H2")), owner=9))
    assert draw(board, public_view(state)).tobytes() == a.tobytes()


def test_the_director_view_shows_a_survivor_where_it_stands(board: Board, state: State) -> None:
    survivor = state.players[1]
    on_a1 = draw(board, director_view(state))
    colour = hex_rgb(drawing.player_colour(director_view(state).pieces[0]))
    assert colour in colours_in(on_a1, t("A1"))
    survivor.pos = t("J10")
    on_j10 = draw(board, director_view(state))
    assert colour not in colours_in(on_j10, t("A1"))
    assert colour in colours_in(on_j10, t("J10"))


def test_a_players_view_shows_only_what_they_know(board: Board, state: State) -> None:
    seen_by_s2 = draw(board, player_view(state, 2))
    seen_by_s1 = draw(board, player_view(state, 1))
    state.players[1].pos = t("J10")
    state.players[9].pos = t("E5")
    assert draw(board, player_view(state, 2)).tobytes() == seen_by_s2.tobytes()
    assert draw(board, player_view(state, 1)).tobytes() != seen_by_s1.tobytes()
    view = player_view(state, 1)
    assert [(p.alias, p.you) for p in view.pieces] == [("S1", True)]
    assert hex_rgb(drawing.YOU) in colours_in(draw(board, view), t("J10"))


def test_a_survivor_sees_the_contents_of_their_own_tile_only(board: Board, state: State) -> None:
    chest = sorted(state.chests)[0]
    other = sorted(state.chests)[1]
    state.players[1].pos = chest
    state.lying[chest] = ["map"]
    state.keys_on[chest] = 1
    state.lying[other] = ["wings"]
    view = player_view(state, 1)
    assert view.chests == ((chest, state.chests[chest]),)
    assert view.lying == ((chest, ("map",)),)
    assert view.keys == ((chest, 1),)
    assert director_view(state).lying == tuple(sorted([(chest, ("map",)), (other, ("wings",))]))


def test_a_hunter_sees_the_noise_of_his_last_briefing(board: Board, state: State) -> None:
    hunter = state.players[9]
    events = [
        Event("brief_noise", 1, "survivor", {"tiles": ["C3"], "jammed": False}, to=(9,), actor=9),
        Event("brief_noise", 2, "survivor", {"tiles": ["E5", "F8"], "jammed": False}, to=(9,), actor=9),
        Event("brief_noise", 2, "survivor", {"tiles": ["A8"], "jammed": False}, to=(10,), actor=10),
    ]
    view = player_view(state, hunter.seat, events)
    assert view.noise == frozenset({t("E5"), t("F8")}) and view.noise_night == 2
    img = draw(board, view)
    assert hex_rgb(drawing.NOISE) in colours_in(img, t("E5"))
    assert hex_rgb(drawing.NOISE) not in colours_in(img, t("C3"))
    assert hex_rgb(drawing.NOISE) not in colours_in(img, t("A8"))
    assert player_view(state, 1, events).noise == frozenset()  # a survivor is told no briefing


def test_hidden_passages_are_the_directors_and_their_owners(board: Board, state: State) -> None:
    state.passages.append(Passage(ends=edge_key(t("B9"), t("H2")), owner=9))
    assert edge_key(t("B9"), t("H2")) in director_view(state).hidden_passages
    assert edge_key(t("B9"), t("H2")) in player_view(state, 9).passages
    assert edge_key(t("B9"), t("H2")) not in public_view(state).passages
    assert edge_key(t("B9"), t("H2")) not in player_view(state, 10).passages
    assert hex_rgb(drawing.HIDDEN) in colours_in(draw(board, director_view(state)), t("B9"))
    state.passages[-1].discovered = True  # found by survivor 1: hers and the director's, never public (RUL-36)
    state.passages[-1].known_by.append(1)
    assert edge_key(t("B9"), t("H2")) not in public_view(state).passages
    assert edge_key(t("B9"), t("H2")) in player_view(state, 1).passages
    assert edge_key(t("B9"), t("H2")) not in player_view(state, 2).passages
    assert edge_key(t("B9"), t("H2")) in director_view(state).passages


def test_the_director_sees_last_nights_paths(board: Board, state: State) -> None:
    state.players[1].pos = t("C5")
    moves = [Event("moved", 1, "survivor", {"frm": "A5", "tile": "B5", "how": "move"}, to=(1,), actor=1),
             Event("moved", 1, "survivor", {"frm": "B5", "tile": "C5", "how": "move"}, to=(1,), actor=1)]
    view = director_view(state, moves)
    assert [(tr.alias, tr.tiles) for tr in view.trails] == [("S1", (t("A5"), t("B5"), t("C5")))]
    img = draw(board, view)
    colour = hex_rgb(drawing.player_colour(view.trails[0]))
    assert img.getpixel(centre(t("B5"))) == colour  # the line passes through the middle tile
    assert colour not in colours_in(draw(board, director_view(state)), t("B5"))


# -- fonts ----------------------------------------------------------------------------------------------------------


def test_without_a_cjk_font_labels_fall_back_to_english(board: Board, state: State) -> None:
    state.players[1].alias = "小明"
    zh = pixels(drawing.draw_map(board, director_view(state), S, "zh", font=DEFAULT))
    en = pixels(drawing.draw_map(board, director_view(state), S, "en", font=DEFAULT))
    assert zh.tobytes() == en.tobytes()


def test_the_found_font_draws_chinese_or_is_the_default(board: Board, state: State) -> None:
    font = find_font()
    png = drawing.draw_map(board, public_view(state), S, "zh", font=font)
    geo = drawing.geometry(board, public_view(state), S)
    assert pixels(png).size == (geo.width, geo.height)
    if font.cjk:
        en = drawing.draw_map(board, public_view(state), S, "en", font=font)
        assert en != png  # the labels really are Chinese


def test_no_font_on_the_machine_is_not_an_error(board: Board, state: State, monkeypatch: pytest.MonkeyPatch,
                                                 tmp_path: Path) -> None:
    junk = tmp_path / "broken.ttf"
    junk.write_bytes(b"not a font")
    monkeypatch.setattr(fonts, "_candidates", lambda: [str(junk), str(tmp_path / "missing.ttc")])
    fonts.find_font.cache_clear()
    try:
        assert fonts.find_font() == DEFAULT
        png = drawing.draw_map(board, director_view(state), S, "zh")
        assert pixels(png).size == (drawing.geometry(board, director_view(state), S).width,
                                    drawing.geometry(board, director_view(state), S).height)
    finally:
        fonts.find_font.cache_clear()


# -- the game and the command ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def game_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("mapgame") / "game"
    demo(folder, players=10, seed=3, lang="zh", max_nights=2)
    return folder


def test_game_map_reads_the_journal(game_dir: Path) -> None:
    game = open_game(game_dir)
    director = game_map(game, "director", stage="N2-hunter", scale=S)
    public = game_map(game, "public", stage="N2-hunter", scale=S)
    assert director.stage == public.stage == "N2-hunter"
    assert pixels(director.png).size == (director.width, director.height) == (
        game.board.width * S + 2 * (S // 2) + drawing.LEGEND_TILES * S, game.board.height * S + 2 * (S // 2))
    assert director.png != public.png
    from sheetgm.service.ledger.journal import read_director
    from sheetgm.service.mapview import build_view

    entries = read_director(game)[0]
    view = build_view(game, entries, "N2-hunter", "director", None)
    assert view.after == (2, "hunter")
    assert view.trails and all(tr.tiles for tr in view.trails)
    early = build_view(game, entries, "N1-survivor", "director", None)
    assert early.after == (1, "survivor")


def run(*args: str) -> object:
    return CliRunner().invoke(app, list(args))


def test_the_command_writes_a_png(game_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "m.png"
    res = run("map", "--game", str(game_dir), "--view", "player", "H1", "--stage", "N1-hunter", "--out", str(out),
              "--scale", "32", "--json")
    assert res.exit_code == 0, res.output  # type: ignore[attr-defined]
    data = json.loads(res.stdout)  # type: ignore[attr-defined]
    assert data["view"] == "player" and data["alias"] == "H1" and data["stage"] == "N1-hunter"
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert Image.open(out).size == (data["width"], data["height"])


@pytest.mark.parametrize("args, words", [
    (("--view", "player", "nobody"), "nobody"),
    (("--view", "player"), "--view player"),
    (("--view", "everyone"), "everyone"),
    (("--stage", "N9-hunter"), "N9-hunter"),
    (("--scale", "3"), "24"),
])
def test_the_command_says_what_is_wrong(game_dir: Path, tmp_path: Path, args: tuple[str, ...], words: str) -> None:
    res = run("map", "--game", str(game_dir), "--out", str(tmp_path / "x.png"), *args)
    assert res.exit_code == 1  # type: ignore[attr-defined]
    assert words in res.stderr  # type: ignore[attr-defined]
    assert not (tmp_path / "x.png").exists()
