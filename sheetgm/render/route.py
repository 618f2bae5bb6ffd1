"""A player's route picture: their own map view (only what they know, ``views.player_view``) with the dashed,
numbered route of the order now in their row, as the check previews it (RUL-61). ``check`` places it over the
player's Current tab; ``sheetgm map --view player X --preview`` draws the same view for the director."""

from __future__ import annotations

from collections.abc import Iterable

from sheetgm.core.board import Tile
from sheetgm.core.events import Event
from sheetgm.core.preview import Preview
from sheetgm.core.state import State
from sheetgm.render.draw import draw_map, geometry
from sheetgm.render.views import MapView, player_view, with_plan

SCALE = 32  # pixels a tile: the standard map's picture is ~500 x 350 pixels, ~35 kB, beside the cell map


def planned(view: MapView, seen: Preview | None) -> MapView:
    """``view`` with the path of the previewed order and the step numbers on its tiles (the robot's steps are
    not her own path)."""
    if seen is None:
        return view
    steps: dict[Tile, list[int]] = {}
    for s in seen.steps:
        for t in s.path if not s.robot else ():
            if s.number not in steps.setdefault(t, []):
                steps[t].append(s.number)
    return with_plan(view, seen.path(), steps)


def route_png(state: State, seat: int, seen: Preview | None, lang: str, events: Iterable[Event] = (),
              scale: int = SCALE) -> tuple[bytes, int, int]:
    """The picture (PNG, width and height in pixels) of ``seat``'s view with the route of ``seen``."""
    view = planned(player_view(state, seat, events), seen)
    geo = geometry(state.board, view, scale)
    return draw_map(state.board, view, scale, lang), geo.width, geo.height
