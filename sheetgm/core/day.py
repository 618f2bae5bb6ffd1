"""The day orders (R-PHASE-1): gifts between survivors on one tile, and the Lucky Guy's prayer.

"在此阶段同地块求生者可以无限制交换物品": the day's gifts settle as the players wrote them, so an item
received can be given on or used that night (RUL-29). They settle in rounds: in each round every
survivor, in the stage's priority order, makes her next gift if she holds its item and the receiver
can hold it (keys need no room). A gift that cannot settle yet waits, and her later gifts with it.
When a round settles nothing, the gifts that wait on one another in a ring (a swap: each gives what
the next waits for room for) are made at one moment if each then holds what she can; else the first
waiting gift in priority order fails (its item stays with its giver) and the rounds go on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sheetgm.core import survivor_actions as actions
from sheetgm.core.context import Ctx, Illegal
from sheetgm.core.state import Player
from sheetgm.core.steps import Give, Order
from sheetgm.core.values import Value, record


@record(frozen=True, eq=False)
class Gift(Value):
    """An item or the key handed from one survivor to another by day."""

    giver: Player
    receiver: Player
    item: str  # an item id or "key"
    step: int  # the step's number as the giver wrote it (RUL-60)
    text: str  # the step as she wrote it ("" for an order not read from text)


def day_orders(ctx: Ctx, orders: Mapping[int, Order], seats: Sequence[int]) -> None:
    """Prayers and the checks of each gift (who to, on her tile), then the gifts in rounds (``settle``)."""
    st = ctx.state
    queues: list[list[Gift]] = []
    for seat in seats:
        order = orders.get(seat)
        p = st.players[seat]
        if order is None or not p.in_play:
            continue
        mine: list[Gift] = []
        for i, step in enumerate(order.day, 1):
            n = order.day_label(i)
            text = order.texts[n - 1] if 0 < n <= len(order.texts) else ""
            try:
                receiver = actions.day_step(ctx, p, step)  # a prayer takes effect; a gift is checked
            except Illegal as exc:
                day_failed(ctx, p, n, text, exc)
                continue
            if isinstance(step, Give) and receiver is not None:
                mine.append(Gift(p, receiver, step.item, n, text))
        if mine:
            queues.append(mine)
    settle(ctx, queues)


def day_failed(ctx: Ctx, p: Player, step: int, text: str, exc: Illegal) -> None:
    """A day step that fails, numbered and quoted as written (RUL-60, RUL-63)."""
    quote: dict[str, Any] = {"text": text} if text else {}
    ctx.emit("day_failed", to=(p.seat,), actor=p.seat, step=step, code=exc.code, params=exc.params, **quote)


def settle(ctx: Ctx, queues: list[list[Gift]]) -> None:
    """Each survivor's gifts (one queue each, in priority order, her gifts as written) made in rounds
    (RUL-29); every gift ends made or failed."""
    while any(queues):
        made = False
        for q in queues:
            if q and _ready(ctx, q[0]):
                _make(ctx, [q.pop(0)])
                made = True
        if made:
            continue
        heads = [q[0] for q in queues if q]
        ring = _ring(ctx, heads)
        if ring:
            for q in queues:
                if q and q[0] in ring:
                    q.pop(0)
            _make(ctx, ring)
            continue
        first = heads[0]
        next(q for q in queues if q and q[0] is first).pop(0)
        _fail(ctx, first)


def _holds(g: Gift) -> bool:
    return g.giver.keys > 0 if g.item == "key" else g.item in g.giver.items


def _ready(ctx: Ctx, g: Gift) -> bool:
    """Whether the gift can be made now on its own: she holds it, and the receiver can hold it."""
    return _holds(g) and (g.item == "key" or ctx.fits(g.receiver, [*g.receiver.items, g.item]))


def _ring(ctx: Ctx, heads: list[Gift]) -> list[Gift]:
    """The first ring of waiting gifts (each receiver's own next gift goes to the next, the last to the
    first giver) that can be made at one moment: each giver holds her item and each ends with what she
    can hold. [] when there is none."""
    by_giver = {g.giver.seat: g for g in heads}
    for start in heads:
        ring = [start]
        while ring[-1].receiver.seat in by_giver and ring[-1].receiver.seat != start.giver.seat:
            nxt = by_giver[ring[-1].receiver.seat]
            if nxt in ring:
                break
            ring.append(nxt)
        if ring[-1].receiver.seat != start.giver.seat or not all(_holds(g) for g in ring):
            continue
        if all(ctx.fits(g.giver, _ends_with(g.giver, ring)) for g in ring):
            return ring
    return []


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


def _make(ctx: Ctx, gifts: list[Gift]) -> None:
    """The gifts made at one moment: every item leaves its giver, then reaches its receiver."""
    for g in gifts:
        if g.item == "key":
            g.giver.keys -= 1
        else:
            g.giver.items.remove(g.item)
    for g in gifts:
        if g.item == "key":
            g.receiver.keys += 1
        else:
            g.receiver.items.append(g.item)
        ctx.emit("gift", to=(g.giver.seat, g.receiver.seat), actor=g.giver.seat, alias=g.receiver.alias,
                 giver=g.giver.alias, item=g.item)


def _fail(ctx: Ctx, g: Gift) -> None:
    """A gift that can never be made: she does not hold it (a day step that failed), or the receiver has no
    room for it (the item stays with her)."""
    if not _holds(g):
        day_failed(ctx, g.giver, g.step, g.text, Illegal("err.rule.no_keys") if g.item == "key"
                   else Illegal("err.rule.not_holding", item=g.item))
        return
    ctx.emit("gift_failed", to=(g.giver.seat, g.receiver.seat), actor=g.giver.seat, alias=g.receiver.alias,
             giver=g.giver.alias, item=g.item)
