"""The hunters' briefing before the hunter stage (R-SENSE-5, R-ODB-3, Clown and Werewolf extras)."""

from __future__ import annotations

from sheetgm.core.board import distance, tile_name
from sheetgm.core.context import JAMMER_REACH as JAMMER_REACH  # re-exported for the bots
from sheetgm.core.context import Ctx
from sheetgm.core.hunting import around
from sheetgm.core.state import Player


def brief_all(ctx: Ctx) -> None:
    st = ctx.state
    for h in st.hunters():
        brief(ctx, h)
    st.odb_reveal = False


def _entry(s: Player) -> dict[str, object]:
    return {"alias": s.alias, "tile": tile_name(s.pos), "robot": s.is_robot}


def brief(ctx: Ctx, h: Player) -> None:
    st = ctx.state
    survivors = st.survivors(robots=True)
    noise = list(st.noise)
    if st.jammed:
        noise = [t for t in noise if distance(t, h.pos) <= JAMMER_REACH]
    ctx.emit("brief_noise", to=(h.seat,), actor=h.seat, tiles=sorted(tile_name(t) for t in noise),
             jammed=st.jammed)
    downed = [s for s in survivors if s.downed and distance(s.pos, h.pos) <= 3]
    ctx.emit("brief_downed", to=(h.seat,), actor=h.seat, found=[_entry(s) for s in downed])
    near = set(around(ctx, h.pos)) | {h.pos}
    sensed = [s for s in survivors if s.pos in near and s.pos not in st.board.dark]
    ctx.emit("brief_sensed", to=(h.seat,), actor=h.seat, found=[_entry(s) for s in sensed])
    if h.role == "clown":
        afraid = [s for s in survivors if s.fear >= 1 and s.pos not in st.board.dark]
        ctx.emit("brief_resonance", to=(h.seat,), actor=h.seat, found=[_entry(s) for s in afraid])
    if h.role == "werewolf":
        # Sense works on the markers he learns: a Jammer limits both (ruling).
        if noise:
            exposed = [s for s in survivors if s.pos in noise and s.pos not in st.board.dark]
        else:
            exposed = [s for s in survivors if distance(s.pos, h.pos) <= 1 and s.pos not in st.board.dark]
        ctx.emit("brief_wolfsense", to=(h.seat,), actor=h.seat, noisy=bool(noise),
                 found=[_entry(s) for s in exposed])
    if st.odb_reveal:
        ctx.emit("brief_reveal", to=(h.seat,), actor=h.seat, found=[_entry(s) for s in survivors])
    if h.stunned:
        ctx.emit("brief_stunned", to=(h.seat,), actor=h.seat)
