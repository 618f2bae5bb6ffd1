"""Director overrides (R-DIR-1): change any state value, with a reason, as an event."""

from __future__ import annotations

from typing import Any

from sheetgm.core.board import parse_tile, tile_name
from sheetgm.core.context import Ctx
from sheetgm.core.ending import check_end, settle_results
from sheetgm.core.errors import StateError
from sheetgm.core.events import Event
from sheetgm.core.resolve import stage_rng
from sheetgm.core.state import ESCAPED, IN_PLAY, MAX_HP, State
from sheetgm.core.steps import ITEMS

PLAYER_FIELDS = ("hp", "downed", "fear", "stealth", "pos", "items", "keys", "status")
GAME_FIELDS = ("progress", "gates_powered", "odb_left", "winner")


def _coerce(field: str, value: Any, state: State) -> Any:
    text = str(value).strip()
    if field in ("hp", "fear", "keys", "progress", "odb_left"):
        try:
            n = int(text)
        except ValueError:
            raise StateError("err.state.bad_value", field=field, value=text) from None
        if n < 0 or (field == "hp" and n > MAX_HP):
            raise StateError("err.state.bad_value", field=field, value=text)
        return n
    if field in ("downed", "stealth", "gates_powered"):
        if text.lower() in ("true", "yes", "1", "是"):
            return True
        if text.lower() in ("false", "no", "0", "否"):
            return False
        raise StateError("err.state.bad_value", field=field, value=text)
    if field == "pos":
        t = parse_tile(text)
        if t is None or not state.board.in_bounds(t):
            raise StateError("err.state.bad_tile", tile=text)
        return t
    if field == "items":
        items = [i.strip() for i in text.split(",") if i.strip()] if isinstance(value, str) else list(value)
        bad = [i for i in items if i not in ITEMS]
        if bad:
            raise StateError("err.state.bad_value", field=field, value=",".join(bad))
        return items
    if field == "status":
        if text not in (IN_PLAY, ESCAPED, "eliminated", "red_carded"):
            raise StateError("err.state.bad_value", field=field, value=text)
        return text
    if field == "winner":
        if text not in ("survivors", "hunters", "draw", "none"):
            raise StateError("err.state.bad_value", field=field, value=text)
        return None if text == "none" else text
    raise StateError("err.state.bad_field", field=field)


def _show(v: Any) -> Any:
    """A JSON-friendly value; the observers put it into words."""
    if isinstance(v, tuple) and len(v) == 2 and all(isinstance(x, int) for x in v):
        return tile_name(v)
    if isinstance(v, list):
        return list(v)
    return v


def apply_override(state: State, target: int | None, field: str, value: Any, reason: str) -> tuple[State, list[Event]]:
    """Set one value. ``target`` is a seat, or None for a game-wide value."""
    if not reason.strip():
        raise StateError("err.state.no_reason")
    st = state.copy()
    ctx = Ctx(st, stage_rng(0, st.night, "override"), "override")
    if target is None:
        if field not in GAME_FIELDS:
            raise StateError("err.state.bad_field", field=field)
        obj: Any = st
        who = ""
    else:
        if target not in st.players:
            raise StateError("err.state.no_seat", seat=target)
        if field not in PLAYER_FIELDS:
            raise StateError("err.state.bad_field", field=field)
        obj = st.players[target]
        who = obj.alias
    new = _coerce(field, value, st)
    old = getattr(obj, field)
    setattr(obj, field, new)
    if target is not None and field == "status":
        seat = target
        for lst, status in ((st.eliminated, "eliminated"), (st.escaped, ESCAPED)):
            if new == status and seat not in lst:
                lst.append(seat)
            if new != status and seat in lst:
                lst.remove(seat)
    ctx.emit("override", public=True, actor=target, target=who, field=field, old=_show(old), new=_show(new),
             reason=reason)
    if field == "winner":
        st.end_reason = "director_override" if new else None
        st.stage = "over" if new else st.stage
        settle_results(ctx)
    else:
        check_end(ctx)
        if st.winner is not None:
            st.stage = "over"
    return st, ctx.events
