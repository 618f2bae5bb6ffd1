"""One player's action: the budget, and each step dispatched to its rule.

``run_order`` is the resolver's (the first illegal step ends the order,
R-ORDER-5); the checker plays ``do_step`` in dry mode itself, collecting
every problem from what the player knows (R-ORDER-4).
"""

from __future__ import annotations

from collections.abc import Sequence

from sheetgm.core import hunting, items, moves, roles
from sheetgm.core import survivor_actions as actions
from sheetgm.core.board import DIRECTIONS
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
from sheetgm.core.state import HUNTER_STAGE, Player
from sheetgm.core.steps import (
    Attack,
    Block,
    Crack,
    Cross,
    Dismantle,
    Drop,
    Escape,
    Force,
    Gaze,
    Heal,
    Listen,
    Move,
    RobotStep,
    Search,
    Skill,
    Step,
    UseItem,
    Vault,
)


def budget_for(ctx: Ctx, p: Player) -> Budget:
    """MP/AP when p's own action starts (R-PHASE-4, R-STATUS-DOWNED, role modifiers)."""
    st = ctx.state
    if p.is_robot:
        return Budget(mp=1, ap=0)
    if p.is_hunter:
        mp, ap = HUNTER_MP, HUNTER_AP
        if p.role == "werewolf" and not ctx.dry and any(s.injured for s in st.survivors()):
            mp += 1  # Bloodlust (the checker cannot know who is injured: it notes the step that needs it)
        if p.flags.get("no_mp_night") == st.night:
            mp = 0  # the silver dagger's curse on the Werewolf
        return Budget(mp=mp, ap=ap)
    robot_mp = 1 if p.role == "mechanic" else 0  # the robot's own MP 1 a night (R-ROLE-MECHANIC)
    if p.downed:
        return Budget(mp=downed_mp(p), ap=0, robot_mp=robot_mp)
    return Budget(mp=SURVIVOR_MP, ap=SURVIVOR_AP, robot_mp=robot_mp)


def normalise(p: Player, step: Step) -> Step:
    """The Priestess's 门之钥 is her skill when she holds no Door Key item (R-ROLE-PRIESTESS)."""
    if isinstance(step, UseItem) and step.item == "doorkey" and p.role == "priestess" and "doorkey" not in p.items:
        return Skill("gate", tiles=(step.target,) if step.target else ())
    return step


def do_step(ctx: Ctx, p: Player, b: Budget, step: Step) -> None:
    step = normalise(p, step)
    hunter_stage = ctx.stage == HUNTER_STAGE
    if p.is_hunter != hunter_stage:
        raise Illegal("err.rule.not_your_stage")
    if isinstance(step, RobotStep):
        robot = roles.robot_of(ctx, p)
        if p.role != "mechanic" or robot is None or not robot.in_play:
            raise Illegal("err.rule.no_robot")
        rb = Budget(mp=b.robot_mp, ap=b.robot_ap)
        if isinstance(step.step, (RobotStep, Skill, Escape)):
            raise Illegal("err.rule.robot_cannot")  # no role, so no skill; not a player, so no escape (RUL-22)
        do_step(ctx, robot, rb, step.step)
        b.robot_mp, b.robot_ap = rb.mp, rb.ap
        return
    if isinstance(step, Move):
        moves.move(ctx, p, b, step.to)
    elif isinstance(step, Cross):
        moves.cross(ctx, p, b, step.to, by_vault=False)
    elif isinstance(step, Vault):
        moves.cross(ctx, p, b, step.to, by_vault=True)
        if p.is_hunter:
            hunting.end_stealth(ctx, p)
    elif isinstance(step, UseItem):
        if p.is_hunter:
            raise Illegal("err.rule.survivor_only")
        items.use_item(ctx, p, b, step.item, step.target, step.whom)
    elif isinstance(step, Drop):
        if p.is_hunter:
            raise Illegal("err.rule.survivor_only")
        actions.drop(ctx, p, step.item)
    elif isinstance(step, Skill):
        roles.use_skill(ctx, p, b, step)
    elif p.is_survivor:
        _survivor_main(ctx, p, b, step)
    else:
        _hunter_main(ctx, p, b, step)


def _survivor_main(ctx: Ctx, p: Player, b: Budget, step: Step) -> None:
    if isinstance(step, Search):
        actions.search(ctx, p, b, step.what)
    elif isinstance(step, Crack):
        actions.crack(ctx, p, b)
    elif isinstance(step, Heal):
        actions.heal(ctx, p, b, step.target, step.mode)
    elif isinstance(step, Dismantle):
        actions.dismantle(ctx, p, b, step.to)
    elif isinstance(step, Escape):
        actions.escape(ctx, p, b)
    else:
        raise Illegal("err.rule.hunter_only")


def _hunter_main(ctx: Ctx, p: Player, b: Budget, step: Step) -> None:
    if isinstance(step, Attack):
        if step.direction is not None and step.direction in DIRECTIONS and p.role == "bane":
            hunting.chain_check(ctx, p, step.direction)
        hunting.attack(ctx, p, b, step.direction, step.at)
    elif isinstance(step, Block):
        hunting.block(ctx, p, b, step.a, step.b)
    elif isinstance(step, Gaze):
        hunting.gaze(ctx, p, b)
    elif isinstance(step, Listen):
        hunting.listen(ctx, p, b)
    elif isinstance(step, Force):
        moves.move(ctx, p, b, step.to, paid_by_ap=True)
        hunting.end_stealth(ctx, p)
    else:
        raise Illegal("err.rule.survivor_only")


def run_order(ctx: Ctx, p: Player, steps: Sequence[Step]) -> None:
    """Play p's steps in order; the first illegal step ends the order and is reported (R-ORDER-5).
    (The checker plays them itself, collecting every problem: ``check.review_order``.)"""
    b = budget_for(ctx, p)
    if p.is_hunter:
        moves.discover(ctx, p)  # ruling 10: the tile where his action starts
    for i, step in enumerate(steps, 1):
        try:
            do_step(ctx, p, b, step)
        except Held:
            continue  # "停止移动": a trapped survivor's later moves do nothing; her order goes on (RUL-31)
        except Illegal as exc:
            ctx.emit("step_failed", to=(p.seat,), actor=p.seat, step=i, code=exc.code, params=exc.params)
            break
    # For the director's log (and the case book): the points each piece has left after the action.
    ctx.emit("points_left", actor=p.seat, mp=b.mp, ap=b.ap)
    robot = roles.robot_of(ctx, p) if p.role == "mechanic" else None
    if robot is not None and robot.in_play:
        ctx.emit("points_left", actor=robot.seat, mp=b.robot_mp, ap=b.robot_ap)
