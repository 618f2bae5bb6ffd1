"""Checking an order before the deadline (R-ORDER-4) and the legal next steps.

Both run the player's steps in *dry* mode (``draft.py``) on the state as her stage will start it:
the same rule functions as the resolver, minus the checks that would need what the player cannot
know (where other players are, what chests hold, who is injured). Where the answer depends on hidden
state, or on what another player's order of the same stage may do, the checker is optimistic: it
never rejects an order that could turn out legal (RUL-18, RUL-39), and notes the step instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sheetgm.core.act import budget_for, do_step
from sheetgm.core.context import Budget, Ctx, Illegal
from sheetgm.core.draft import Draft, assume_arrival, candidates, legal_steps
from sheetgm.core.observe import display_params
from sheetgm.core.others import brought
from sheetgm.core.state import Player, State
from sheetgm.core.steps import Give, Order, Step
from sheetgm.core.survivor_actions import day_step
from sheetgm.core.texts import render
from sheetgm.core.unknowns import CHAIN, STUNNED, Unknowns
from sheetgm.core.values import Value, field, record, replace

__all__ = ["Problem", "Review", "check_order", "review_order", "check_as_written", "review_as_written", "as_written",
           "budget_of", "Draft", "legal_steps", "candidates",
           "assume_arrival"]


@record(frozen=True)
class Problem(Value):
    """A problem of an order (or, in ``Review.notes``, a step that depends on what the night brings)."""

    code: str
    params: dict[str, Any]
    step: int | None = None  # 1-based night step (a day step with ``day``); None: general. ``as_written`` renumbers
    day: bool = False

    def message(self, lang: str = "zh") -> str:
        reason = render(lang, self.code, **display_params(lang, self.params))
        if self.step is None:
            return reason
        key = "check.day_step" if self.day else "check.step"
        return render(lang, key, step=self.step, reason=reason)


@record
class Review:
    """What the checker says of one order: its problems, and notes on steps whose outcome the player
    cannot know yet (what a Search finds, where the chain claw leaves the Bane, what another player's
    order brings). An order with notes and no problems is complete (RUL-18)."""

    problems: list[Problem] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)


def check_order(state: State, seat: int, order: Order, others: Mapping[int, Order] | None = None) -> list[Problem]:
    """Every problem of one order against what its player knows, in step order."""
    return review_order(state, seat, order, others).problems


def review_as_written(state: State, seat: int, order: Order, others: Mapping[int, Order] | None = None) -> Review:
    """``review_order`` numbered as the player wrote the order (``as_written``)."""
    return as_written(order, review_order(state, seat, order, others))


def check_as_written(state: State, seat: int, order: Order, others: Mapping[int, Order] | None = None
                     ) -> list[Problem]:
    """``check_order`` numbered as the player wrote the order (``as_written``)."""
    return review_as_written(state, seat, order, others).problems


def as_written(order: Order, review: Review) -> Review:
    """A review with every step numbered as the player wrote the order (RUL-60): a path of three tiles is one
    step, a day gift is the step it was written as. A problem or note repeated for the tiles of one path is
    said once for its step (``移动 C4，C5，B5`` with no MP left: 第 1 步：移动力不足, once)."""
    def number(xs: list[Problem]) -> list[Problem]:
        out: list[Problem] = []
        seen: set[tuple[int | None, str, str]] = set()
        for x in xs:
            if x.step is not None:
                x = replace(x, step=order.day_label(x.step) if x.day else order.label(x.step)[0], day=False)
            key = (x.step, x.code, repr(sorted(x.params.items())))
            if key not in seen:
                seen.add(key)
                out.append(x)
        return out

    return Review(number(review.problems), number(review.notes))


# Called with 0 before the first night step, then with each night step's number (1-based) once it is judged.
Watch = Callable[[int, Ctx, Player, Budget], None]


def review_order(state: State, seat: int, order: Order, others: Mapping[int, Order] | None = None,
                 watch: Watch | None = None) -> Review:
    """Problems and notes of one order: the same rule functions as the resolver, in dry mode.

    ``others``: the other players' orders of the same stage (seat -> order), of which only what RUL-39
    lets her know is used (``others.py``). ``watch`` sees the draft after each step (the preview, ``preview.py``).
    The state is played on in place and given back unchanged."""
    p0 = state.players.get(seat)
    if p0 is None:
        return Review([Problem("err.rule.no_such_seat", {"seat": seat})])
    if not p0.in_play:
        return Review([Problem("err.rule.out_of_play", {"alias": p0.alias})] if (order.steps or order.day) else [])
    unknown = Unknowns(brought=brought(state, p0, others or {}))
    with Draft.on(state, seat) as draft:
        return _review(draft, order, unknown, watch)


def _review(draft: Draft, order: Order, unknown: Unknowns, watch: Watch | None = None) -> Review:
    ctx, p = draft.ctx, draft.p
    out = Review()
    for i, d in enumerate(order.day, 1):
        try:
            day_step(ctx, p, d)
            depends = unknown.give_away(ctx, p, d.item) if isinstance(d, Give) else None
        except Illegal as exc:
            out.problems.append(Problem(exc.code, exc.params, i, day=True))
            continue
        if isinstance(d, Give) and depends is not None:  # an item that must reach her first (RUL-29)
            note, own = depends
            code, params = ("err.rule.no_keys", {}) if d.item == "key" else ("err.rule.not_holding", {"item": d.item})
            out.notes.append(Problem(note, {**own, "code": code, "params": params}, i, day=True))
    unknown.night_items = list(p.items)
    if p.is_hunter and p.stunned and order.steps:
        out.notes.append(Problem(STUNNED, {}))
    b = budget_for(ctx, p)
    if watch is not None:
        watch(0, ctx, p, b)
    for i, step in enumerate(order.steps, 1):
        _judge(ctx, p, b, i, step, unknown, out)
        if watch is not None:
            watch(i, ctx, p, b)
    return out


def _judge(ctx: Ctx, p: Player, b: Budget, i: int, step: Step, unknown: Unknowns, out: Review) -> None:
    """One night step played in dry mode: a problem, a note, or nothing."""
    if unknown.chain and not any(n.code == CHAIN for n in out.notes):
        out.notes.append(Problem(CHAIN, {}, i))  # from here on, where the Bane stands is unknown
    before = dict(b.__dict__)
    try:
        do_step(ctx, p, b, step)
        unknown.after(ctx, p, step)
        return
    except Illegal as exc:
        failed = dict(b.__dict__)
        first = exc
    why = unknown.explain(ctx, p, b, step, first)
    if why is None:
        out.problems.append(Problem(first.code, first.params, i))
        assume_arrival(p, step)
        return
    note, params, retry = why
    if note != CHAIN:
        out.notes.append(Problem(note, {**params, "code": first.code, "params": first.params}, i))
    if not retry:
        assume_arrival(p, step)
        return
    _give_back(b, before, failed)
    try:
        do_step(ctx, p, b, step)  # once more, with what the night may bring
        unknown.after(ctx, p, step)
    except Illegal as again:
        out.problems.append(Problem(again.code, again.params, i))
        assume_arrival(p, step)


def _give_back(b: Budget, before: dict[str, Any], failed: dict[str, Any]) -> None:
    """Before a step is tried again: what its failed try took is given back (at resolution a failed step
    ends the order, so the engine does not always undo it); what was granted since stays."""
    for k, was in before.items():
        setattr(b, k, was + getattr(b, k) - failed[k] if type(was) is int else was)


def budget_of(state: State, seat: int) -> Budget:
    """The MP/AP the player would start their action with now."""
    with Draft.on(state, seat) as draft:
        return draft.budget
