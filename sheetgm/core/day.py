"""The day orders (R-PHASE-1): gifts between survivors on one tile, and the Lucky Guy's prayer.

"同地块求生者可以无限制交换物品": gifts between the same two survivors are
made at one moment (a swap of two held items works even when each can hold
only one). The pairs settle one after another, in the priority order of
their first gift (RUL-29).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sheetgm.core import survivor_actions as actions
from sheetgm.core.context import Ctx, Illegal
from sheetgm.core.state import Player
from sheetgm.core.steps import Give, Order


@dataclass(frozen=True, eq=False)
class Gift:
    """An item or the key handed from one survivor to another by day."""

    giver: Player
    receiver: Player
    item: str  # an item id or "key"
    step: int  # 1-based day step of the giver's order


def day_orders(ctx: Ctx, orders: Mapping[int, Order], seats: Sequence[int]) -> None:
    """Prayers and the checks of each gift in priority order, then the gifts, pair by pair."""
    st = ctx.state
    gifts: list[Gift] = []
    for seat in seats:
        order = orders.get(seat)
        p = st.players[seat]
        if order is None or not p.in_play:
            continue
        for i, step in enumerate(order.day, 1):
            try:
                receiver = actions.day_step(ctx, p, step)  # a prayer takes effect; a gift is checked
            except Illegal as exc:
                day_failed(ctx, p, i, exc)
                continue
            if isinstance(step, Give) and receiver is not None:
                gifts.append(Gift(p, receiver, step.item, i))
    pairs: dict[frozenset[int], list[Gift]] = {}
    for g in gifts:
        pairs.setdefault(frozenset((g.giver.seat, g.receiver.seat)), []).append(g)
    for pair in pairs.values():
        settle_pair(ctx, pair)


def day_failed(ctx: Ctx, p: Player, step: int, exc: Illegal) -> None:
    ctx.emit("day_failed", to=(p.seat,), actor=p.seat, step=step, code=exc.code, params=exc.params)


def settle_pair(ctx: Ctx, gifts: list[Gift]) -> None:
    """The gifts between two survivors at one moment. Each gives only what she holds now; if one of
    them could not hold what she would end with, the gifts to her fail, the last written first,
    until both can (an item whose gift fails stays with its giver). Keys need no room."""
    held = {g.giver.seat: Counter(g.giver.items) for g in gifts}
    keys = {g.giver.seat: g.giver.keys for g in gifts}
    active: list[Gift] = []
    for g in gifts:
        if g.item == "key":
            ok = keys[g.giver.seat] > 0
            keys[g.giver.seat] -= 1
        else:
            ok = held[g.giver.seat][g.item] > 0
            held[g.giver.seat][g.item] -= 1
        if ok:
            active.append(g)
        else:
            day_failed(ctx, g.giver, g.step, Illegal("err.rule.no_keys") if g.item == "key"
                       else Illegal("err.rule.not_holding", item=g.item))
    by_seat = {g.giver.seat: g.giver for g in gifts} | {g.receiver.seat: g.receiver for g in gifts}
    people = [by_seat[s] for s in sorted(by_seat)]
    failed: list[Gift] = []
    while True:
        over = [p for p in people if not ctx.fits(p, _ends_with(p, active))]
        if not over:
            break
        last = [g for g in active if g.receiver is over[0] and g.item != "key"][-1]
        active.remove(last)
        failed.append(last)
    for g in gifts:
        if g in failed:
            ctx.emit("gift_failed", to=(g.giver.seat, g.receiver.seat), actor=g.giver.seat, alias=g.receiver.alias,
                     giver=g.giver.alias, item=g.item)
        elif g in active:
            _hand_over(g)
            ctx.emit("gift", to=(g.giver.seat, g.receiver.seat), actor=g.giver.seat, alias=g.receiver.alias,
                     giver=g.giver.alias, item=g.item)


def _ends_with(p: Player, gifts: list[Gift]) -> list[str]:
    """The items p would hold after ``gifts``."""
    items = list(p.items)
    for g in gifts:
        if g.item == "key":
            continue
        if g.giver is p:
            items.remove(g.item)
        if g.receiver is p:
            items.append(g.item)
    return items


def _hand_over(g: Gift) -> None:
    if g.item == "key":
        g.giver.keys -= 1
        g.receiver.keys += 1
    else:
        g.giver.items.remove(g.item)
        g.receiver.items.append(g.item)
