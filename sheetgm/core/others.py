"""What the other orders of the stage bring one player, as far as she may know it (RUL-39).

The checker plays an order alone, on the state as the stage starts (R-ORDER-4). Other players'
orders of the same stage can make a step legal that is not legal alone: a gift to her in the day, a
heal or Adrenaline that gets her up before her action, a board taken down before her move. The
checker may use of them only what is addressed to her by name (a gift, a heal: they are made to her
and she is told of them), and only what she can see of it: a gift from a survivor on her tile as the
day starts (RUL-3 tells her who stands there), not whether the giver still holds the item; a heal
naming her, not where the healer stands or whether she will act first. A gift to her may be given on in
her own day orders (RUL-29): the checker follows her hands through them (``Unknowns.give_away``). What is
not addressed to her (a board another survivor dismantles) is never read from the orders: a board on her way is noted
whenever someone else could take it down, whatever they wrote. So her problems and notes are the same
whatever the others hold, where they stand and whatever else they wrote.
"""

from __future__ import annotations

from collections.abc import Mapping

from sheetgm.core.roles import robot_alias
from sheetgm.core.state import HUNTER, SURVIVOR, SURVIVOR_STAGE, Player, State, alias_key
from sheetgm.core.steps import Give, Heal, Order, RobotStep, Step, UseItem
from sheetgm.core.values import field, record


@record
class Brought:
    """What the other orders address to one player; the checker uses each up once (``unknowns``)."""

    gifts: list[tuple[str, str]] = field(default_factory=list)  # (giver's alias, item) given to her in the day
    keys: list[str] = field(default_factory=list)  # the giver's alias for each key given to her
    healers: list[str] = field(default_factory=list)  # aliases whose order gets her up (she is Downed)
    survivors_about: bool = False  # another survivor in play may take a board down before her move
    hunters_about: bool = False  # someone else may break or take down a board before his Block


def brought(state: State, p: Player, others: Mapping[int, Order]) -> Brought:
    """What ``others`` (seat -> order, the same stage's) address to ``p``, read as RUL-39 allows."""
    out = Brought()
    out.survivors_about = _someone_else(state, p, SURVIVOR)
    out.hunters_about = _someone_else(state, p, HUNTER) or (state.stage == SURVIVOR_STAGE and out.survivors_about)
    if not p.is_survivor or p.is_robot or not others:
        return out
    me = p.alias.casefold()
    for q in sorted(state.at(p.pos, "survivor"), key=lambda q: q.seat):  # gifts pass on one tile (R-PHASE-1)
        order = others.get(q.seat)
        if order is None or q.seat == p.seat or q.is_robot:
            continue
        for d in order.day:
            if isinstance(d, Give) and alias_key(d.to) == me:
                if d.item == "key":
                    out.keys.append(q.alias)
                else:
                    out.gifts.append((q.alias, d.item))
    if p.downed:
        for seat, order in sorted(others.items()):
            healer = state.players.get(seat)
            if healer is None or healer.seat == p.seat or not healer.in_play or not healer.is_survivor \
                    or healer.is_robot:
                continue
            out.healers += [robot_alias(healer) if isinstance(s, RobotStep) else healer.alias
                            for s in order.steps if _gets_up(me, s)][:1]
    return out


def _someone_else(state: State, p: Player, camp: str) -> bool:
    """Whether a player of ``camp`` other than p is in play (robots are their Mechanic's)."""
    return any(q.in_play and q.camp == camp and not q.is_robot and q.seat != p.seat for q in state.players.values())


def _gets_up(me: str, step: Step) -> bool:
    """Whether the step (or a robot's) would remove Downed from the player whose alias key is ``me``: a heal
    naming her, or Adrenaline on her."""
    if isinstance(step, RobotStep):
        step = step.step
    if isinstance(step, Heal):
        return step.mode in (None, "downed") and alias_key(step.target) == me
    return isinstance(step, UseItem) and step.item == "adrenaline" and step.whom is not None \
        and alias_key(step.whom) == me
