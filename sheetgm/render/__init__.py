"""The map drawn as a PNG: view models (views), the pure drawing (draw), fonts, and `sheetgm map` (game_map)."""

from sheetgm.render.draw import DEFAULT_SCALE, draw_map, geometry
from sheetgm.render.views import MapView, director_view, player_view, public_view

__all__ = ["DEFAULT_SCALE", "MapView", "director_view", "draw_map", "geometry", "player_view", "public_view"]
