"""What the other orders of the stage bring one player, as far as she may know it (RUL-39).

The checker plays an order alone, on the state as the stage starts (R-ORDER-4). Other players'
orders of the same stage can make a step legal that is not legal alone: a gift to her in the day, a
heal or Adrenaline that gets her up before her action, a board taken down before her move. The
checker may use of them only what is addressed to her by name (a gift, a heal: they are made to her
and she is told of them), and only what she can see of it: a gift from a survivor on her tile as the
day starts (RUL-3 tells her who stands there), not whether the giver still holds the item; a heal
naming her, not where the healer stands or whether she will act first. What is not addressed to her
(a board another survivor dismantles) is never read from the orders: a board on her way is noted
whenever someone else could take it down, whatever they wrote. So her problems and notes are the same
whatever the others hold, where they stand and whatever else they wrote.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sheetgm.core.roles import robot_alias
from sheetgm.core.state import SURVIVOR_STAGE, Player, State, alias_key
from sheetgm.core.steps import Give, Heal, Order, RobotStep, Step, UseItem


@dataclass
class Brought:
    """What the other orders address to one player; the checker uses each up once (``unknowns``)."""

    gifts: list[tuple[str, str]] = field(default_factory=list)  # (giver's alias, item) given to her in the day
    keys: list[str] = field(default_factory=list)  # the giver's alias for each key given to her
    healers: list[str] = field(default_factory=list)  # aliases whose order gets her up (she is Downed)
    survivors_about: bool = False  # another survivor in play may take a board down before her move
    hunters_about: bool = False  # someone else may break or take down a board before his Block
    taken: list[tuple[str, str]] = field(default_factory=list)  # the gifts the checker has used


def brought(state: State, p: Player, others: Mapping[int, Order]) -> Brought:
    """What ``others`` (seat -> order, the same stage's) address to ``p``, read as RUL-39 allows."""
    out = Brought()
    rest = [q for q in state.players.values() if q.in_play and not q.is_robot and q.seat != p.seat]
    out.survivors_about = any(q.is_survivor for q in rest)
    out.hunters_about = any(q.is_hunter for q in rest) or (state.stage == SURVIVOR_STAGE and out.survivors_about)
    if not p.is_survivor or p.is_robot:
        return out
    me = p.alias.casefold()
    for seat, order in sorted(others.items()):
        q = state.players.get(seat)
        if q is None or q.seat == p.seat or not q.in_play or not q.is_survivor or q.is_robot:
            continue
        if q.pos == p.pos:  # gifts pass between survivors on one tile as the day starts (R-PHASE-1)
            for d in order.day:
                if isinstance(d, Give) and alias_key(d.to) == me:
                    if d.item == "key":
                        out.keys.append(q.alias)
                    else:
                        out.gifts.append((q.alias, d.item))
        if p.downed:
            out.healers += [robot_alias(q) if isinstance(s, RobotStep) else q.alias
                            for s in order.steps if _gets_up(me, s)][:1]
    return out


def _gets_up(me: str, step: Step) -> bool:
    """Whether the step (or a robot's) would remove Downed from the player whose alias key is ``me``: a heal
    naming her, or Adrenaline on her."""
    if isinstance(step, RobotStep):
        step = step.step
    if isinstance(step, Heal):
        return step.mode in (None, "downed") and alias_key(step.target) == me
    return isinstance(step, UseItem) and step.item == "adrenaline" and step.whom is not None \
        and alias_key(step.whom) == me
