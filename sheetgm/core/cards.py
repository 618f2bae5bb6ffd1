"""Penalty cards (R-CARD) and the director's declared camp loss (R-END-6)."""

from __future__ import annotations

from sheetgm.core.context import Ctx
from sheetgm.core.ending import check_end, settle_results
from sheetgm.core.errors import StateError
from sheetgm.core.events import Event
from sheetgm.core.resolve import stage_rng
from sheetgm.core.state import IN_PLAY, RED_CARDED, Card, State

COLOURS = ("blue", "yellow", "red")
LURKING_MIN_POSTS = 5


def give_card(state: State, seat: int, colour: str, reason: str, source: str = "director",
              declare_loss: bool = False) -> tuple[State, list[Event]]:
    """Give a card; merge 3 blue → 1 yellow and 3 yellow → 1 red (R-CARD-2); a red card
    sends the player off (R-CARD-3) and may end the game (R-END-6)."""
    if colour not in COLOURS:
        raise StateError("err.state.bad_colour", colour=colour)
    if seat not in state.players or state.players[seat].is_robot:
        raise StateError("err.state.no_seat", seat=seat)
    if not reason.strip():
        raise StateError("err.state.no_reason")
    st = state.copy()
    ctx = Ctx(st, stage_rng(0, st.night, f"cards/{len(st.cards)}"), "cards")
    p = st.players[seat]
    st.cards.append(Card(seat=seat, colour=colour, reason=reason, night=st.night, source=source))
    ctx.emit("card", public=True, actor=seat, alias=p.alias, colour=colour, reason=reason)
    for low, high in (("blue", "yellow"), ("yellow", "red")):
        live = [c for c in st.cards if c.seat == seat and c.colour == low and not c.merged]
        if len(live) >= 3:
            for c in live[:3]:
                c.merged = True
            st.cards.append(Card(seat=seat, colour=high, reason="merge", night=st.night, source="merge"))
            ctx.emit("card_merged", public=True, actor=seat, alias=p.alias, low=low, colour=high)
    reds = [c for c in st.cards if c.seat == seat and c.colour == "red"]
    if reds and p.status == IN_PLAY:
        p.status = RED_CARDED
        p.downed = False
        p.escaping = False
        ctx.emit("red_card_out", public=True, actor=seat, alias=p.alias)
        if p.is_survivor:
            ctx.drop_all(p)
            # "每有一名求生者被淘汰，就会散落一枚钥匙": a survivor sent off is one (R-END-2, RUL-32).
            if st.opt("red_card_counts_as_elimination") and st.night >= int(st.opt("key_first_night")):
                ctx.scatter_key(p.pos)
    if declare_loss and colour == "red" and st.winner is None:
        st.winner = "hunters" if p.is_survivor else "survivors"
        st.end_reason = "red_cards"
        ctx.emit("camp_loss", public=True, actor=seat, camp=p.camp)
        ctx.emit("game_over", public=True, winner=st.winner, reason="red_cards")
        settle_results(ctx)
    check_end(ctx)
    if st.winner is not None:
        st.stage = "over"
    return st, ctx.events


def lurking_proposals(state: State, posts: dict[int, int], voted: dict[int, bool],
                      accelerated: bool = False) -> list[tuple[int, str]]:
    """R-CARD-4: fewer than 5 posts on a non-accelerated day, or no vote, is a fixed yellow.

    Returns (seat, reason) proposals for players in play, one per offence; the director decides."""
    if accelerated:
        return []
    out = []
    for p in state.survivors() + state.hunters():
        n = posts.get(p.seat, 0)
        # Each is a fixed yellow of its own (以下行为均固定判罚一张“黄牌”): both on one day are two (RUL-33).
        if n < LURKING_MIN_POSTS:
            out.append((p.seat, f"lurking: {n} posts"))
        if not voted.get(p.seat, False):
            out.append((p.seat, "lurking: no vote"))
    return sorted(out)
