"""Items (R-ITEM-*): what each does when used. An item is spent when used."""

from __future__ import annotations

from sheetgm.core.board import Tile, distance, tile_name
from sheetgm.core.context import Budget, Ctx, Illegal, lift_downed_limits
from sheetgm.core.moves import relocate, teleport_check
from sheetgm.core.state import Player
from sheetgm.core.survivor_actions import beside, named, spend_ap

# item -> (AP cost, reach of its tile target or None when it takes no tile)
ITEM_RULES: dict[str, tuple[int, int | None]] = {
    "map": (0, None),
    "revolver": (1, 1),
    "wings": (1, 3),
    "stimulant": (0, None),
    "adrenaline": (0, None),
    "bottle": (0, 1),
    "doorkey": (0, 1),
    "jammer": (0, None),
}


def use_item(ctx: Ctx, p: Player, b: Budget, item: str, target: Tile | None, whom: str | None) -> None:
    st = ctx.state
    if item == "dagger":
        raise Illegal("err.rule.item_passive", item=item)
    if item not in ITEM_RULES:
        raise Illegal("err.rule.unknown_item", item=item)
    if item not in p.items:
        raise Illegal("err.rule.not_holding", item=item)
    ap, reach = ITEM_RULES[item]
    if reach is not None:
        if target is None:
            if item in ("revolver", "bottle"):
                target = p.pos
            else:
                raise Illegal("err.rule.needs_tile", item=item)
        if item in ("wings", "doorkey"):
            teleport_check(ctx, p, b, target, reach)
        elif not st.board.in_bounds(target) or distance(p.pos, target) > reach:
            raise Illegal("err.rule.too_far", tile=tile_name(target), reach=reach)
    victim = None
    if item == "adrenaline":
        victim = p if whom is None else named(ctx, whom)
        beside(ctx, p, victim)
        if not ctx.dry and not victim.downed:  # the checker knows only the user's own status
            raise Illegal("err.rule.not_downed", alias=victim.alias)
    if ap:
        spend_ap(p, b, ap)
    p.items.remove(item)
    if item == "stimulant":
        b.mp += 1
    if victim is p and p.downed:
        # "在移除状态前，移动力为1，行动力为0": the Downed limits end with the status (RUL-6).
        lift_downed_limits(p, b)
    if ctx.dry:  # the checker: the user's own piece moves or gets up (no other piece is the checker's to change)
        if item in ("wings", "doorkey") and target is not None:
            relocate(ctx, p, target, how=item)
        elif victim is p:
            p.downed = False
        return
    st.spent.append(item)
    ctx.emit("item_used", to=(p.seat,), actor=p.seat, item=item, tile=tile_name(target) if target else "")
    if item == "map":
        hunters = [h for h in st.hunters() if not h.stealth]
        ctx.emit("map_view", to=(p.seat,), actor=p.seat,
                 hunters=[{"alias": h.alias, "tile": tile_name(h.pos)} for h in hunters],
                 survivors=[{"alias": s.alias, "tile": tile_name(s.pos)} for s in st.survivors(robots=True)
                            if s.seat != p.seat])
    elif item == "revolver":
        assert target is not None
        ctx.noise(target, "revolver", p.seat)
        for h in st.at(target, "hunter"):
            h.stunned = True
            ctx.emit("stunned", to=(h.seat,), actor=h.seat, tile=tile_name(target))
    elif item in ("wings", "doorkey"):
        assert target is not None
        relocate(ctx, p, target, how=item)
        if item == "wings":
            ctx.noise(target, "wings", p.seat)
    elif item == "adrenaline":
        assert victim is not None
        victim.downed = False
        ctx.emit("revived", to=(p.seat, victim.seat), actor=p.seat, alias=victim.alias, healer=p.alias)
    elif item == "bottle":
        assert target is not None
        ctx.noise(target, "bottle", p.seat)
    elif item == "jammer":
        st.jammed = True
