"""One player's action: the budget, and each step dispatched to its rule.

``run_order`` is the resolver's (the first illegal step ends the order,
R-ORDER-5); the checker plays ``do_step`` in dry mode itself, collecting
every problem from what the player knows (R-ORDER-4).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sheetgm.core import hunting, items, moves, roles
from sheetgm.core import survivor_actions as actions
from sheetgm.core.board import DIRECTIONS, tile_name
from sheetgm.core.context import (
    HUNTER_AP,
    HUNTER_MP,
    SURVIVOR_AP,
    SURVIVOR_MP,
    Budget,
    Ctx,
    Held,
    Illegal,
    downed_mp,
)
from sheetgm.core.state import HUNTER, HUNTER_STAGE, Player
from sheetgm.core.steps import (
    SURVIVOR,
    Attack,
    Force,
    Move,
    Order,
    RobotStep,
    Skill,
    Step,
    UseItem,
    Vault,
)


def budget_for(ctx: Ctx, p: Player) -> Budget:
    """MP/AP when p's own action starts (R-PHASE-4, R-STATUS-DOWNED, role modifiers)."""
    st = ctx.state
    flags = p.flags
    if flags and "robot_of" in flags:  # (Player.is_robot and is_hunter spelt out: every order and draft asks)
        return Budget(1, 0)
    if p.camp == HUNTER:
        mp, ap = HUNTER_MP, HUNTER_AP
        if p.role == "werewolf" and not ctx.dry and any(s.injured for s in st.survivors()):
            mp += 1  # Bloodlust (the checker cannot know who is injured: it notes the step that needs it)
        if flags and flags.get("no_mp_night") == st.night:
            mp = 0  # the silver dagger's curse on the Werewolf
        return Budget(mp, ap)
    robot_mp = 1 if p.role == "mechanic" else 0  # the robot's own MP 1 a night (R-ROLE-MECHANIC)
    if p.downed:
        return Budget(downed_mp(p), 0, robot_mp=robot_mp)
    return Budget(SURVIVOR_MP, SURVIVOR_AP) if not robot_mp else Budget(SURVIVOR_MP, SURVIVOR_AP, robot_mp=robot_mp)


def normalise(p: Player, step: Step) -> Step:
    """The Priestess's 门之钥 is her skill when she holds no Door Key item (R-ROLE-PRIESTESS)."""
    if isinstance(step, UseItem) and step.item == "doorkey" and p.role == "priestess" and "doorkey" not in p.items:
        return Skill("gate", tiles=(step.target,) if step.target else ())
    return step


def do_step(ctx: Ctx, p: Player, b: Budget, step: Step) -> None:
    """One step by p, through the rule of its kind; raises Illegal (nothing changed) where it cannot be played."""
    if isinstance(step, UseItem):
        step = normalise(p, step)
    camp = p.camp
    if (camp == HUNTER) != (ctx.stage == HUNTER_STAGE):
        raise Illegal("err.rule.not_your_stage")
    kind = step.kind
    if kind.camp is not None and kind.camp != camp:
        raise Illegal("err.rule.survivor_only" if kind.camp == SURVIVOR else "err.rule.hunter_only")
    _RULES[kind.name](ctx, p, b, step)


def _robot(ctx: Ctx, p: Player, b: Budget, step: RobotStep) -> None:
    robot = roles.robot_of(ctx, p)
    if p.role != "mechanic" or robot is None or not robot.in_play:
        raise Illegal("err.rule.no_robot")
    rb = Budget(mp=b.robot_mp, ap=b.robot_ap)
    if step.step.kind.name in ("robot", "skill", "escape"):
        raise Illegal("err.rule.robot_cannot")  # no role, so no skill; not a player, so no escape (RUL-22)
    do_step(ctx, robot, rb, step.step)
    b.robot_mp, b.robot_ap = rb.mp, rb.ap


def _vault(ctx: Ctx, p: Player, b: Budget, step: Vault) -> None:
    moves.cross(ctx, p, b, step.to, by_vault=True)
    if p.is_hunter:
        hunting.end_stealth(ctx, p)


def _attack(ctx: Ctx, p: Player, b: Budget, step: Attack) -> None:
    if step.direction is not None and step.direction in DIRECTIONS and p.role == "bane":
        hunting.chain_check(ctx, p, step.direction)
    hunting.attack(ctx, p, b, step.direction, step.at)


def _force(ctx: Ctx, p: Player, b: Budget, step: Force) -> None:
    moves.move(ctx, p, b, step.to, paid_by_ap=True)
    hunting.end_stealth(ctx, p)


# The resolver's table: each night kind (steps.NIGHT_KINDS) to its rule; who may take it is checked before.
_RULES: dict[str, Callable[[Ctx, Player, Budget, Any], None]] = {
    "move": lambda ctx, p, b, step: moves.move(ctx, p, b, step.to),
    "cross": lambda ctx, p, b, step: moves.cross(ctx, p, b, step.to, by_vault=False),
    "vault": _vault,
    "use": lambda ctx, p, b, step: items.use_item(ctx, p, b, step.item, step.target, step.whom),
    "drop": lambda ctx, p, b, step: actions.drop(ctx, p, step.item),
    "skill": roles.use_skill,
    "robot": _robot,
    "search": lambda ctx, p, b, step: actions.search(ctx, p, b, step.what),
    "crack": lambda ctx, p, b, step: actions.crack(ctx, p, b),
    "heal": lambda ctx, p, b, step: actions.heal(ctx, p, b, step.target, step.mode),
    "dismantle": lambda ctx, p, b, step: actions.dismantle(ctx, p, b, step.to),
    "escape": lambda ctx, p, b, step: actions.escape(ctx, p, b),
    "attack": _attack,
    "block": lambda ctx, p, b, step: hunting.block(ctx, p, b, step.a, step.b),
    "gaze": lambda ctx, p, b, step: hunting.gaze(ctx, p, b),
    "listen": lambda ctx, p, b, step: hunting.listen(ctx, p, b),
    "force": _force,
}
RULE_KINDS = frozenset(_RULES)  # for tests/test_step_kinds.py


def run_order(ctx: Ctx, p: Player, order: Order | Sequence[Step]) -> None:
    """Play p's steps in order; the first illegal step ends the order and is reported (R-ORDER-5), numbered and
    quoted as the player wrote it (``Order.label``, RUL-63), naming the trap that held her before it, if one did.
    (The checker plays them itself, collecting every problem: ``check.review_order``.)"""
    steps = order.steps if isinstance(order, Order) else tuple(order)
    b = budget_for(ctx, p)
    if p.is_hunter:
        moves.discover(ctx, p)  # ruling 10: the tile where his action starts
    held: int | None = None
    own_stage = (p.camp == HUNTER) == (ctx.stage == HUNTER_STAGE)  # (else do_step refuses every step)
    for i, step in enumerate(steps, 1):
        if own_stage and type(step) is Move and moves.plain_move(ctx, p, b, step.to):
            continue
        try:
            do_step(ctx, p, b, step)
        except Held:
            if held is None:
                held = order.label(i)[0] if isinstance(order, Order) else i
            continue  # "停止移动": a trapped survivor's later moves do nothing; her order goes on (RUL-31)
        except Illegal as exc:
            n, text = order.label(i) if isinstance(order, Order) else (i, "")
            why: dict[str, Any] = {"text": text} if text else {}
            if held is not None and held != n:
                why |= {"held": held, "tile": tile_name(p.pos)}
            ctx.emit("step_failed", to=(p.seat,), actor=p.seat, step=n, code=exc.code, params=exc.params, **why)
            break
    # For the director's log (and the case book): the points each piece has left after the action.
    ctx.emit("points_left", actor=p.seat, mp=b.mp, ap=b.ap)
    robot = roles.robot_of(ctx, p) if p.role == "mechanic" else None
    if robot is not None and robot.in_play:
        ctx.emit("points_left", actor=robot.seat, mp=b.robot_mp, ap=b.robot_ap)
