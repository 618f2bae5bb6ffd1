"""Survivor main actions (R-ACT-SEARCH … R-ACT-ESCAPE), drops and gifts."""

from __future__ import annotations

from sheetgm.core.board import EDGE_BOARD, Tile, adjacent, edge_key, edge_name, tile_name
from sheetgm.core.context import Budget, Ctx, Illegal
from sheetgm.core.state import Player
from sheetgm.core.steps import ITEMS, DayStep, Give


def need_ap(p: Player, b: Budget, n: int = 1) -> None:
    if p.downed and p.is_survivor and b.ap < n:
        raise Illegal("err.rule.downed_no_ap")
    if b.ap < n:
        raise Illegal("err.rule.no_ap", need=n, have=b.ap)


def spend_ap(p: Player, b: Budget, n: int = 1) -> None:
    need_ap(p, b, n)
    b.ap -= n


def search(ctx: Ctx, p: Player, b: Budget, what: str | None) -> None:
    st = ctx.state
    if what is not None and what != "key" and what not in ITEMS:
        raise Illegal("err.rule.unknown_item", item=what)
    spend_ap(p, b)
    here = p.pos
    passage = st.passage_at(here)
    if ctx.dry:
        if passage is not None and passage.owner is None:
            passage.learn(p)  # a map passage is on the public map: the search surely finds it
        return
    if passage is not None and not passage.known_to(p):
        # R-MAP-7: searching the end of a passage she does not know discovers it instead of picking
        # anything up; she alone learns where it leads (RUL-36).
        passage.learn(p)
        a, c = passage.ends
        ctx.emit("passage_found", to=(p.seat,), actor=p.seat, a=tile_name(a), b=tile_name(c))
        return
    silent = p.role in ("magician", "gardener")
    prayed = p.flags.get("pray")
    # The Lucky Guy's prayer (R-ROLE-LUCKY): a chest search yields the prayed item from another chest.
    if prayed and here in st.board.chests and what in (None, prayed):
        origin = next((t for t in sorted(st.chests, key=lambda t: (t[1], t[0]))
                       if t != here and st.chests.get(t) == prayed), None)
        if origin is not None and ctx.has_room(p, prayed):
            st.chests[origin] = None
            p.items.append(prayed)
            p.flags.pop("pray", None)
            ctx.emit("found_item", to=(p.seat,), actor=p.seat, item=prayed, source="prayer")
            ctx.emit("prayer_answered", actor=p.seat, frm=tile_name(origin), item=prayed)
            if not silent:
                ctx.noise(here, "search", p.seat)
            return
    chest_item = st.chests.get(here) if here in st.board.chests else None
    lying = st.lying.get(here, [])
    keys = st.keys_on.get(here, 0)
    candidates: list[tuple[str, str]] = []
    if chest_item and what in (None, chest_item):
        candidates.append(("chest", chest_item))
    for item in lying:
        if what in (None, item):
            candidates.append(("lying", item))
    if keys and what in (None, "key"):
        candidates.append(("key", "key"))
    for source, item in candidates:
        if source == "key":
            st.keys_on[here] = keys - 1
            if not st.keys_on[here]:
                del st.keys_on[here]
            p.keys += 1
            ctx.emit("found_key", to=(p.seat,), actor=p.seat, keys=p.keys)
            return
        if not ctx.has_room(p, item):
            ctx.emit("no_room", to=(p.seat,), actor=p.seat, item=item)
            continue
        p.items.append(item)
        if source == "chest":
            st.chests[here] = None
            ctx.emit("found_item", to=(p.seat,), actor=p.seat, item=item, source="chest")
            if not silent:
                ctx.noise(here, "search", p.seat)
        else:
            lying.remove(item)
            if not lying:
                st.lying.pop(here, None)
            ctx.emit("found_item", to=(p.seat,), actor=p.seat, item=item, source="ground")
        return
    ctx.emit("found_nothing", to=(p.seat,), actor=p.seat)


def crack(ctx: Ctx, p: Player, b: Budget) -> None:
    st = ctx.state
    if p.pos not in st.board.generators:
        raise Illegal("err.rule.no_generator", tile=tile_name(p.pos))
    spend_ap(p, b)
    if ctx.dry:
        return
    cap = int(st.opt("generator_cap"))
    done = st.cracked_tonight.get(p.pos, 0)
    gain = min(2 if p.role == "mechanic" and not p.is_robot else 1, cap - done)
    if gain <= 0:
        ctx.emit("crack_capped", to=(p.seat,), actor=p.seat, tile=tile_name(p.pos), cap=cap)
        return
    st.cracked_tonight[p.pos] = done + gain
    st.progress += gain
    ctx.emit("cracked", to=(p.seat,), actor=p.seat, tile=tile_name(p.pos), gain=gain, total=st.progress)
    ctx.noise(p.pos, "crack", p.seat)


def named(ctx: Ctx, alias: str) -> Player:
    """The player a heal, a gift or Adrenaline names; an alias nobody has is a problem anyone can see."""
    t = ctx.state.by_alias(alias)
    if t is None or t.is_robot:
        raise Illegal("err.rule.no_such_survivor", alias=alias)
    return t


def beside(ctx: Ctx, p: Player, t: Player, *, known: bool = False) -> None:
    """``t`` must be a survivor in play on p's tile. One message covers a hunter and an absent
    survivor, so that a failed step never tells a survivor whose alias is a hunter's. Tonight's
    positions are hidden from the checker (RUL-18) unless ``known`` (the day's gifts use the
    positions of the last report, RUL-3)."""
    if ctx.dry and not known:
        return
    if not t.is_survivor or not t.in_play or t.pos != p.pos:
        raise Illegal("err.rule.target_not_here", alias=t.alias)


def heal(ctx: Ctx, p: Player, b: Budget, alias: str, mode: str | None) -> None:
    t = named(ctx, alias)
    if t.seat == p.seat and (mode == "downed" or (mode is None and p.downed)):
        raise Illegal("err.rule.heal_self_downed")
    need_ap(p, b)  # what the healer knows comes first; where the target is, last
    beside(ctx, p, t)
    if mode is None:
        mode = "downed" if t.downed else "fear"
    if mode == "downed" and not ctx.dry and not t.downed:
        raise Illegal("err.rule.not_downed", alias=t.alias)
    spend_ap(p, b)
    if ctx.dry:
        return
    if mode == "downed":
        t.downed = False
        ctx.emit("healed", to=(p.seat, t.seat), actor=p.seat, alias=t.alias, healer=p.alias, mode="downed")
        ctx.noise(p.pos, "heal", p.seat)
    else:
        t.fear = 0
        ctx.emit("healed", to=(p.seat, t.seat), actor=p.seat, alias=t.alias, healer=p.alias, mode="fear")


def dismantle(ctx: Ctx, p: Player, b: Budget, to: Tile | None) -> None:
    st = ctx.state
    if to is None:
        if p.pos not in st.traps:
            raise Illegal("err.rule.no_trap", tile=tile_name(p.pos))
    else:
        if not adjacent(p.pos, to) or ctx.edge(p.pos, to) is not EDGE_BOARD:
            raise Illegal("err.rule.no_board", frm=tile_name(p.pos), tile=tile_name(to))
    spend_ap(p, b)
    if to is None:
        del st.traps[p.pos]
        ctx.emit("trap_removed", public=True, actor=p.seat, tile=tile_name(p.pos))
    else:
        st.boards.discard(edge_key(p.pos, to))
        ctx.emit("board_removed", public=True, actor=p.seat, edge=edge_name(edge_key(p.pos, to)))
    ctx.noise(p.pos, "dismantle", p.seat)


def escape(ctx: Ctx, p: Player, b: Budget) -> None:
    st = ctx.state
    if p.is_robot:
        raise Illegal("err.rule.robot_cannot")
    if p.pos not in st.board.gates:
        raise Illegal("err.rule.not_gate", tile=tile_name(p.pos))
    if not st.gates_powered and p.keys < int(st.opt("keys_to_escape")):
        raise Illegal("err.rule.gates_closed", keys=p.keys, need=int(st.opt("keys_to_escape")))
    spend_ap(p, b)
    b.escaped = True
    if ctx.dry:
        return
    p.escaping = True
    ctx.emit("escaping", to=(p.seat,), actor=p.seat, tile=tile_name(p.pos))


def drop(ctx: Ctx, p: Player, item: str) -> None:
    if item not in p.items:
        raise Illegal("err.rule.not_holding", item=item)
    p.items.remove(item)
    if ctx.dry:
        return
    ctx.state.lying.setdefault(p.pos, []).append(item)
    ctx.emit("dropped", to=(p.seat,), actor=p.seat, item=item, tile=tile_name(p.pos))


def day_step(ctx: Ctx, p: Player, step: DayStep) -> Player | None:
    """One day order (R-PHASE-1): the Lucky Guy's prayer (R-ROLE-LUCKY) takes effect; a gift is checked
    and its receiver returned (the gifts are made in rounds, ``day.settle``)."""
    if p.is_hunter:
        raise Illegal("err.rule.survivor_only")
    if isinstance(step, Give):
        return give(ctx, p, step.to, step.item)
    if p.role != "lucky":
        raise Illegal("err.rule.not_your_skill", skill="pray")
    p.flags["pray"] = step.item
    ctx.emit("prayed", to=(p.seat,), actor=p.seat, item=step.item)
    return None


def give(ctx: Ctx, p: Player, alias: str, item: str) -> Player:
    """Check a day gift (R-PHASE-1): to another survivor on the same tile. Returns the receiver. Whether she
    holds the item is settled when the gift is made, as what she receives that day may be given on
    (``day.settle``, RUL-29; the checker follows her hands itself, ``check.py``)."""
    t = named(ctx, alias)
    if t.seat == p.seat:
        raise Illegal("err.rule.give_self")
    beside(ctx, p, t, known=True)
    return t
