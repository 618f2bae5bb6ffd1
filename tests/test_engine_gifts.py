"""The day's gifts in rounds (RUL-29), over many random days: nothing is made or lost, nobody ends holding more
than she may, every gift is made or said to have failed, and the checker never calls a gift (or the use of an item
that night) a problem that the night then makes (RUL-18, RUL-39: whatever the priority). The case book's PHASE-10..16
and CHK-32..35 hold the rulings one by one."""

# covers: R-PHASE-1, RUL-29, RUL-39

from __future__ import annotations

from collections import Counter

from enginekit import game, of, order, survive
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetgm.core.check import review_order
from sheetgm.core.context import Ctx
from sheetgm.core.steps import Give, UseItem

ITEMS = ("map", "bottle", "jammer", "stimulant", "adrenaline")
ALIASES = ("Ann", "Bo", "Cat", "Dan")
HUNTER = ("Hal", "ripper", "F5")


@st.composite
def days(draw: st.DrawFn) -> tuple[list[tuple[str, str, list[str], int]], dict[int, list[Give]], list[int],
                                   dict[int, str | None]]:
    """Up to four survivors on one tile, their hands, their written gifts, a priority order, and an item each may
    use that night."""
    n = draw(st.integers(2, 4))
    people = []
    for alias in ALIASES[:n]:
        role = draw(st.sampled_from(["athlete", "lucky", "doctor"]))
        most = {"athlete": 1, "lucky": 3, "doctor": 2}[role]
        hand = draw(st.lists(st.sampled_from(ITEMS), max_size=most))
        if role == "doctor" and len([i for i in hand if i not in ("stimulant", "adrenaline")]) > 1:
            hand = hand[:1]
        people.append((alias, role, hand, draw(st.integers(0, 1))))
    gifts = {
        seat: draw(st.lists(st.builds(Give, st.sampled_from([a for a in ALIASES[:n] if a != alias]),
                                      st.sampled_from((*ITEMS, "key"))), max_size=3))
        for seat, (alias, *_rest) in enumerate(people, 1)
    }
    priority = draw(st.permutations(list(range(1, n + 1))))
    uses = {seat: draw(st.sampled_from((None, "map", "jammer", "stimulant"))) for seat in range(1, n + 1)}
    return people, gifts, priority, uses


@settings(max_examples=300, deadline=None)
@given(days())
def test_every_gift_is_made_or_failed_and_nothing_is_made_or_lost(day) -> None:
    people, gifts, priority, uses = day
    state = game(survivors=[(a, role, "C3", {"items": list(hand), "keys": keys}) for a, role, hand, keys in people],
                 hunters=[HUNTER])
    before = Counter(i for p in state.players.values() for i in p.items)
    keys = sum(p.keys for p in state.players.values())
    orders = {seat: order(*([UseItem(uses[seat])] if uses[seat] else []), day=g) for seat, g in gifts.items()
              if g or uses[seat]}
    after, events = survive(state, orders, priority=priority)
    survivors = [p for p in after.players.values() if p.is_survivor]
    night = {(e.actor, e.params["step"]) for e in of(events, "step_failed")}
    used = Counter(uses[s] for s in orders if uses[s] and (s, 1) not in night)  # an item used is gone
    assert Counter(i for p in survivors for i in p.items) + used == before
    assert sum(p.keys for p in survivors) == keys
    assert all(Ctx.fits(p, p.items) for p in survivors)
    said = len(of(events, "gift")) + len(of(events, "gift_failed")) + len(of(events, "day_failed"))
    assert said == sum(len(g) for g in gifts.values())
    failed = {(e.actor, e.params["step"]) for e in of(events, "day_failed")}
    for seat, o in orders.items():  # the checker is optimistic: a step it calls a problem fails at night
        others = {s: x for s, x in orders.items() if s != seat}
        for x in review_order(state, seat, o, others).problems:
            assert (seat, x.step) in (failed if x.day else night), (seat, x, failed, night)
