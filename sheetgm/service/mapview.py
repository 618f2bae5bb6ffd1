"""`sheetgm map`: read the journal, build the asked view of a stage, draw it.

The state drawn is the one after the stage (the latest live stage by
default); the events read are those of the live journal rows up to it. The
director's paths are the ``moved`` events of that stage's night.
"""

from __future__ import annotations

from typing import Any

from sheetgm.core.events import Event
from sheetgm.core.state import State
from sheetgm.core.values import Value, record
from sheetgm.render.draw import DEFAULT_SCALE, MAX_SCALE, MIN_SCALE, draw_map, geometry
from sheetgm.render.fonts import find_font
from sheetgm.render.route import planned
from sheetgm.render.views import (
    PLAYER,
    PUBLIC,
    VIEWS,
    MapView,
    after,
    director_view,
    player_view,
    public_view,
)
from sheetgm.service.errors import ServiceError
from sheetgm.service.game import Game
from sheetgm.service.ledger.journal import SUPERSEDED, Entry, read_director
from sheetgm.sheets.stages import parse_key


@record(frozen=True)
class MapImage(Value):
    png: bytes
    stage: str
    view: str
    alias: str | None
    width: int
    height: int
    cjk_font: bool

    def to_dict(self, file: str | None = None) -> dict[str, Any]:
        return {"file": file, "stage": self.stage, "view": self.view, "alias": self.alias, "width": self.width,
                "height": self.height, "cjk_font": self.cjk_font, "bytes": len(self.png)}


def check_scale(scale: int) -> None:
    if not MIN_SCALE <= scale <= MAX_SCALE:
        raise ServiceError("err.render.bad_scale", low=MIN_SCALE, high=MAX_SCALE, scale=scale)


def pick(entries: list[Entry], stage: str | None) -> tuple[Entry, list[Entry]]:
    """The entry drawn and the live entries up to it (in stage order)."""
    live = [e for e in entries if e.status != SUPERSEDED]
    if not live:
        raise ServiceError("err.svc.no_journal")
    if stage is None:
        return live[-1], live
    key = stage.strip()
    for i, e in enumerate(live):
        if e.key == key:
            return e, live[: i + 1]
    raise ServiceError("err.render.no_stage", stage=key, known=", ".join(e.key for e in live))


def build_view(game: Game, entries: list[Entry], stage: str | None, view: str, alias: str | None) -> MapView:
    if view not in VIEWS:
        raise ServiceError("err.render.bad_view", view=view)
    entry, upto = pick(entries, stage)
    state = entry.state(game.board)
    night, kind = parse_key(entry.key)
    drawn = _view(state, upto, view, alias, night)
    return after(drawn, night, kind) if night else drawn


def _view(state: State, upto: list[Entry], view: str, alias: str | None, night: int) -> MapView:
    if view == PUBLIC:
        return public_view(state)
    if view == PLAYER:
        if not alias:
            raise ServiceError("err.render.no_alias")
        p = state.by_alias(alias)
        if p is None or p.is_robot:
            raise ServiceError("err.render.unknown_alias", alias=alias)
        events: list[Event] = [ev for e in upto for ev in e.events()]
        return player_view(state, p.seat, events)
    tonight = [ev for e in upto if parse_key(e.key)[0] == night for ev in e.events()]
    return director_view(state, tonight)


def game_map(game: Game, view: str = PUBLIC, alias: str | None = None, stage: str | None = None,
             scale: int = DEFAULT_SCALE, lang: str | None = None, plan: bool = False) -> MapImage:
    """The PNG of a stage's map in the asked view (one read of the director workbook). ``plan``: a player's view
    of the latest stage with the path of the order now in her row, as a check previews it (RUL-61; one more read,
    of her workbook)."""
    check_scale(scale)
    entries = read_director(game)[0]
    model = build_view(game, entries, stage, view, alias)
    if plan:
        model = _planned(game, entries, stage, view, model)
    png = draw_map(game.board, model, scale, lang or game.lang)
    geo = geometry(game.board, model, scale)
    key = pick(entries, stage)[0].key
    return MapImage(png, key, view, model.viewer or None, geo.width, geo.height, find_font().cjk)


def _planned(game: Game, entries: list[Entry], stage: str | None, view: str, model: MapView) -> MapView:
    """The player's view with the path of the order in her row for the stage now due (as ``check`` previews it:
    the others' orders left out, which changes the notes, never the path)."""
    from sheetgm.service.workbooks.sheetorders import read_player, review

    if view != PLAYER or stage is not None:
        raise ServiceError("err.render.plan_view")
    state = pick(entries, None)[0].state(game.board)
    p = state.by_alias(model.viewer)
    if p is None or not p.in_play or p.camp != state.stage or state.over():
        raise ServiceError("err.render.plan_not_due", alias=model.viewer)
    sheet = read_player(game, p.seat, state.night, state.stage)
    if sheet.trouble:
        raise ServiceError("err.render.plan_unreadable", alias=model.viewer, reason=sheet.trouble)
    seen = review(state, p.seat, sheet.text, game.seat_lang(p.seat)).preview if sheet.text else None
    return planned(model, seen)
