"""End of the night (R-PHASE-2 step 6) and the victory conditions (R-END)."""

from __future__ import annotations

from sheetgm.core.context import Ctx
from sheetgm.core.state import DRAW, ESCAPED, LOST, RED_CARDED, WON, Player, State


def end_of_night(ctx: Ctx) -> None:
    st = ctx.state
    # Downed survivors lose 1 HP (R-STATUS-DOWNED, R-HP).
    for p in st.survivors(robots=True):
        if p.downed:
            p.hp -= 1
            ctx.emit("bleed", to=(p.seat,) if not p.is_robot else (p.flags["robot_of"],), actor=p.seat, hp=p.hp)
            if p.hp <= 0:
                ctx.eliminate(p, "bleed")
    # Escapes complete (R-END-1); a survivor Downed now stays.
    special = False
    for p in st.survivors():
        if p.escaping and not p.downed:
            p.status = ESCAPED
            p.escaping = False
            p.result = WON  # 逃生：……即可脱离游戏，获得胜利 (RUL-35)
            st.escaped.append(p.seat)
            with_keys = p.keys >= int(st.opt("keys_to_escape"))
            ctx.emit("escaped", public=True, actor=p.seat, alias=p.alias, keys=with_keys)
            if with_keys:
                special = True
        elif p.escaping:
            p.escaping = False
            ctx.emit("escape_failed", to=(p.seat,), actor=p.seat)
    # The Doctor's brew (R-ROLE-DOCTOR): lost if no room.
    for p in st.survivors():
        if p.flags.pop("brew", None):
            if ctx.has_room(p, "stimulant"):
                p.items.append("stimulant")
                ctx.emit("brewed", to=(p.seat,), actor=p.seat)
            else:
                ctx.emit("brew_lost", to=(p.seat,), actor=p.seat)
    # The Ripper's mist walk (R-ROLE-RIPPER): a night without attack ends with Stealth.
    for h in st.hunters():
        if h.role == "ripper" and not h.flags.pop("attacked_tonight", False) and not h.stealth:
            h.stealth = True
            ctx.emit("stealth_gained", to=(h.seat,), actor=h.seat)
        h.flags.pop("attacked_tonight", None)
    if st.odb_left > 0:
        st.odb_left -= 1
    check_end(ctx, special=special)
    ctx.emit("night_end", public=True, progress=st.progress, target=int(st.opt("crack_target")),
             escaped=len(st.escaped),
             eliminated=len(st.eliminated))


def eliminated_count(st: State) -> int:
    n = len([s for s in st.eliminated if not st.players[s].is_robot])
    if st.opt("red_card_counts_as_elimination"):
        n += len([p for p in st.survivors(in_play=False) if p.status == RED_CARDED])
    return n


def red_cards(st: State, camp: str) -> int:
    return len([c for c in st.cards if c.colour == "red" and st.players[c.seat].camp == camp])


def check_end(ctx: Ctx, special: bool = False) -> None:
    """Ruling 12: red-card loss, then the keys victory, the survivors', the hunters', the draw."""
    st = ctx.state
    if st.winner is not None:
        return
    result: tuple[str, str] | None = None
    if red_cards(st, "survivor") >= 2:
        result = ("hunters", "red_cards")
    elif red_cards(st, "hunter") >= 2:
        result = ("survivors", "red_cards")
    elif special:
        result = ("survivors", "keys")
    elif st.gates_powered and len(st.escaped) >= int(st.opt("survivors_to_win")):
        result = ("survivors", "escapes")
    elif eliminated_count(st) >= int(st.opt("eliminations_to_win")):
        result = ("hunters", "eliminations")
    elif not st.survivors():
        result = ("draw", "nobody_left")
    if result is not None:
        st.winner, st.end_reason = result
        ctx.emit("game_over", public=True, winner=result[0], reason=result[1])
        settle_results(ctx)


def settle_results(ctx: Ctx) -> None:
    """RUL-35: each player's own result once the game is decided (or undecided again by the director).
    An escaped survivor has won whatever follows; a player sent off by a red card has lost; everyone
    else shares the camp's result. The whole list is public at the end."""
    st = ctx.state
    players = [p for _, p in sorted(st.players.items()) if not p.is_robot]
    for p in players:
        if p.status == ESCAPED:
            p.result = WON
        else:
            p.result = _result(st.winner, p) if st.winner is not None else None
    if st.winner is not None:
        ctx.emit("results", public=True, results=[
            {"alias": p.alias, "camp": p.camp, "role": p.role or "", "result": p.result} for p in players])


def _result(winner: str, p: Player) -> str:
    if p.status == RED_CARDED:
        return LOST
    if winner == "draw":
        return DRAW
    return WON if winner == f"{p.camp}s" else LOST
