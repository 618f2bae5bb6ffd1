"""The route picture over a player's Current tab (``render/route.py``; RUL-61): drawn by every check that writes
the player's workbook, with the route of the order the check read; cleared when a stage is published, since the
order it showed is resolved (the next check draws the new one). Only a gateway that places pictures gets one:
Google keeps the cell map and its marks (``port.PlaceImage``)."""

from __future__ import annotations

from collections.abc import Iterable

from sheetgm.backends.port import Gateway, PlaceImage
from sheetgm.core.board import Board
from sheetgm.core.events import Event
from sheetgm.core.preview import Preview
from sheetgm.core.state import State
from sheetgm.sheets import layout, mapcells

NAME = "route"


def anchor(board: Board, lang: str) -> str:
    """The picture's top-left cell: right of the player's numbers beside the cell map, on the first row."""
    return layout.rng(layout.tab(lang, "current"), f"{layout.col(mapcells.side_col(board) + 3)}1")


def route_op(gateway: Gateway, state: State, seat: int, lang: str, seen: Preview | None,
             events: Iterable[Event] = ()) -> list[PlaceImage]:
    """The picture of ``seat``'s view with the route of ``seen`` (none for a gateway that places none)."""
    if not gateway.places_pictures:
        return []
    from sheetgm.render.route import route_png  # Pillow: only when a picture is drawn

    png, width, height = route_png(state, seat, seen, lang, events)
    return [PlaceImage(anchor(state.board, lang), png, width, height, NAME)]


def cleared(gateway: Gateway, board: Board, lang: str) -> list[PlaceImage]:
    """The picture removed (a stage published: the route it showed is of a resolved order)."""
    return [PlaceImage(anchor(board, lang), b"", 0, 0, NAME)] if gateway.places_pictures else []
