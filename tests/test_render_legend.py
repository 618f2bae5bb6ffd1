"""The legend's key lines are drawn once per process and pasted: every map comes out pixel for pixel as if
each drew them itself (render/draw.py ``_Painter.keys``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PIL import Image

from sheetgm.core.setup import SeatSpec, new_game
from sheetgm.core.state import State
from sheetgm.notation.mapfile import ready_map
from sheetgm.render import draw as drawing
from sheetgm.render.fonts import DEFAULT, FontChoice, find_font
from sheetgm.render.views import MapView, director_view, player_view, public_view

ROSTER = [SeatSpec(f"S{i}", "survivor") for i in range(1, 9)] + [SeatSpec("H1", "hunter"), SeatSpec("H2", "hunter")]


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    drawing._KEYS.clear()
    yield
    drawing._KEYS.clear()


def _views(state: State) -> list[MapView]:
    hunter = max(state.players)  # (the roster lists the hunters last)
    return [public_view(state), director_view(state), player_view(state, 1), player_view(state, hunter)]


def _states() -> list[State]:
    plain = new_game(ready_map("standard"), ROSTER, seed=7)
    won = new_game(ready_map("standard"), ROSTER, seed=8)
    won.winner = "hunter"
    small = new_game(ready_map("teach"), [SeatSpec("A", "survivor"), SeatSpec("H", "hunter")], seed=1)
    return [plain, won, small]


def _each_drawn_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drawing._Painter, "keys", drawing._Painter.keys_drawn)


@pytest.mark.parametrize("font", [DEFAULT, None], ids=["pillow-font", "machine-font"])
@pytest.mark.parametrize("scale", [24, 64, 97])
def test_pasted_keys_make_the_same_picture(monkeypatch: pytest.MonkeyPatch, scale: int,
                                           font: FontChoice | None) -> None:
    face = font if font is not None else find_font()
    cases = [(st.board, view, lang) for st in _states() for view in _views(st) for lang in ("zh", "en")]
    pasted = [drawing.draw_image(b, v, scale, lang, face).tobytes() for b, v, lang in cases]
    again = [drawing.draw_image(b, v, scale, lang, face).tobytes() for b, v, lang in cases]  # all from the table
    assert drawing._KEYS and all(made is not None for made in drawing._KEYS.values())
    _each_drawn_apart(monkeypatch)
    apart = [drawing.draw_image(b, v, scale, lang, face).tobytes() for b, v, lang in cases]
    assert pasted == apart and again == apart


def test_the_keys_are_drawn_once_per_kind_of_view(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[int] = []
    keys_drawn = drawing._Painter.keys_drawn

    def counted(self: drawing._Painter, *args: object) -> None:
        drawn.append(id(self))
        keys_drawn(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(drawing._Painter, "keys_drawn", counted)
    first, second = _states()[0], new_game(ready_map("standard"), ROSTER, seed=9)
    drawing.draw_map(first.board, public_view(first), 48, "en", DEFAULT)
    drawing.draw_map(second.board, public_view(second), 48, "en", DEFAULT)
    drawing.draw_map(second.board, director_view(second), 48, "en", DEFAULT)
    assert len(drawn) == 2  # once on a blank map for the public view, once for the director's; never on a map


def test_keys_over_something_already_drawn_are_drawn_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    """A label that ran into the legend (a long alias on the last column): the keys cannot be pasted over it."""
    state = _states()[0]
    view = public_view(state)
    pieces = drawing._Painter.pieces

    def spilt(self: drawing._Painter) -> None:
        pieces(self)
        self.d.rectangle((self.geo.width - 30, self.geo.height - 12, self.geo.width - 20, self.geo.height - 4),
                         fill="#ff0000")

    monkeypatch.setattr(drawing._Painter, "pieces", spilt)
    over: Image.Image = drawing.draw_image(state.board, view, 48, "en", DEFAULT)
    assert over.getpixel((over.width - 25, over.height - 8)) == (255, 0, 0)
    _each_drawn_apart(monkeypatch)
    assert over.tobytes() == drawing.draw_image(state.board, view, 48, "en", DEFAULT).tobytes()


def test_keys_that_reach_above_their_box_are_never_pasted(monkeypatch: pytest.MonkeyPatch) -> None:
    keys_drawn = drawing._Painter.keys_drawn

    def taller(self: drawing._Painter, keys: tuple[str, ...], x0: int, y: float, step: float, room: float) -> None:
        keys_drawn(self, keys, x0, y, step, room)
        self.d.point((x0 + 3, int(y) - 2), fill="#0000ff")  # a line above the first key's

    monkeypatch.setattr(drawing._Painter, "keys_drawn", taller)
    state = _states()[0]
    on_map = drawing.draw_image(state.board, public_view(state), 48, "en", DEFAULT)
    assert list(drawing._KEYS.values()) == [None]
    _each_drawn_apart(monkeypatch)
    assert on_map.tobytes() == drawing.draw_image(state.board, public_view(state), 48, "en", DEFAULT).tobytes()
