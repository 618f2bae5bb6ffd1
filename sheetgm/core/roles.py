"""Role skills (R-ROLE-*): the active skills, their costs and uses.

Passive effects live where the rule they change lives (capacity in
``context.has_room``, silent searches in ``actions.search``, the Gardener
and the dagger in ``hunting.land_attack``, budgets in ``act.budget_for``,
briefing extras in ``brief``).
"""

from __future__ import annotations

from sheetgm.core import passages
from sheetgm.core.board import DIRECTIONS, EDGE_OPEN, Tile, adjacent, compass, distance, tile_name
from sheetgm.core.context import Budget, Ctx, Illegal
from sheetgm.core.hunting import end_stealth
from sheetgm.core.moves import leave_check, relocate, spring_trap, step_cost, teleport_check
from sheetgm.core.state import IN_PLAY, Player
from sheetgm.core.steps import SKILLS, Skill
from sheetgm.core.survivor_actions import spend_ap

SKILL_USES = {"magic": 2, "gate": 2}
MAX_TRAPS = 7
ROBOT_SEAT_BASE = 100


def uses_left(p: Player, skill: str) -> int:
    return int(p.uses.get(skill, SKILL_USES.get(skill, 0)))


def skills_of(p: Player) -> list[tuple[str, str, int, int | None]]:
    """The role's active skills: (skill, tag, cost, uses left or None when unlimited), for the player's sheet."""
    return [
        (skill, tag, cost, uses_left(p, skill) if skill in SKILL_USES else None)
        for skill, (role, tag, cost) in SKILLS.items()
        if role == p.role
    ]


def use_skill(ctx: Ctx, p: Player, b: Budget, step: Skill) -> None:
    rule = SKILLS.get(step.skill)
    if rule is None:
        raise Illegal("err.rule.unknown_skill", skill=step.skill)
    role, _tag, _cost = rule
    if p.role != role:
        raise Illegal("err.rule.not_your_skill", skill=step.skill)
    if step.skill in SKILL_USES and uses_left(p, step.skill) < 1:
        raise Illegal("err.rule.skill_used_up", skill=step.skill)
    handler = _HANDLERS[step.skill]
    handler(ctx, p, b, step)
    if step.skill in SKILL_USES:
        p.uses[step.skill] = uses_left(p, step.skill) - 1
    if not ctx.dry:
        ctx.emit("skill_used", to=(p.seat,), actor=p.seat, skill=step.skill)


def _pay_mp(b: Budget, n: int) -> None:
    if b.mp < n:
        raise Illegal("err.rule.no_mp", need=n, have=b.mp)
    b.mp -= n


def _one_tile(step: Skill) -> Tile:
    if len(step.tiles) != 1:
        raise Illegal("err.rule.skill_args", skill=step.skill, need=1)
    return step.tiles[0]


def _sprint(ctx: Ctx, p: Player, b: Budget, step: Skill) -> None:
    if not 1 <= len(step.tiles) <= 4:
        raise Illegal("err.rule.skill_args", skill="sprint", need=4)
    leave_check(p, b)
    start = p.pos
    _pay_mp(b, 3)
    here = p.pos
    for t in step.tiles:
        saved = p.pos
        p.pos = here
        try:
            step_cost(ctx, p, t)
        finally:
            p.pos = saved
        here = t
    ctx.noise(start, "sprint", p.seat)
    for t in step.tiles:
        if p.flags.get("held"):
            break
        relocate(ctx, p, t, how="sprint")


def _brew(ctx: Ctx, p: Player, b: Budget, step: Skill) -> None:
    spend_ap(p, b)
    if not ctx.dry:
        p.flags["brew"] = True


def _magic(ctx: Ctx, p: Player, b: Budget, step: Skill) -> None:
    t = _one_tile(step)
    if not ctx.state.board.in_bounds(t):
        raise Illegal("err.rule.off_map", tile=tile_name(t))
    if not ctx.dry:
        ctx.noise(t, "magic", p.seat)


def _gate(ctx: Ctx, p: Player, b: Budget, step: Skill) -> None:
    t = _one_tile(step)
    teleport_check(ctx, p, b, t, 1)
    relocate(ctx, p, t, how="gate_skill")


def robot_of(ctx: Ctx, p: Player) -> Player | None:
    return ctx.state.players.get(ROBOT_SEAT_BASE + p.seat)


def robot_alias(owner: Player) -> str:
    """The robot's alias: what happens to it is told as "the robot" (observe), never by its owner's alias."""
    return f"{owner.alias}#robot"


def _deploy(ctx: Ctx, p: Player, b: Budget, step: Skill) -> None:
    """机器人可以随时被放置在场上: on any tile of the map (her own when none is named)."""
    if len(step.tiles) > 1:
        raise Illegal("err.rule.skill_args", skill="deploy", need=1)
    where = step.tiles[0] if step.tiles else p.pos
    if not ctx.state.board.in_bounds(where):
        raise Illegal("err.rule.off_map", tile=tile_name(where))
    r = robot_of(ctx, p)
    if r is not None and r.in_play:
        raise Illegal("err.rule.robot_out")
    if r is not None and r.status == "eliminated":
        raise Illegal("err.rule.robot_destroyed")
    # Also in dry mode (on the checker's copy), so that later robot steps of the order check.
    if r is None:
        r = Player(seat=ROBOT_SEAT_BASE + p.seat, alias=robot_alias(p), camp="survivor", role=None,
                   pos=where, hp=1, flags={"robot_of": p.seat}, lang=p.lang)
        ctx.state.players[r.seat] = r
    r.status = IN_PLAY
    r.pos = where
    ctx.emit("robot_deployed", to=(p.seat,), actor=p.seat, tile=tile_name(where))
    spring_trap(ctx, r)  # placed on a trap, it has entered it (RUL-22); traps are public: also on the checker's copy


def _retrieve(ctx: Ctx, p: Player, b: Budget, step: Skill) -> None:
    r = robot_of(ctx, p)
    if r is None or not r.in_play:
        raise Illegal("err.rule.no_robot")
    if r.pos != p.pos:
        raise Illegal("err.rule.robot_not_here", tile=tile_name(r.pos))
    r.status = "stored"
    ctx.emit("robot_retrieved", to=(p.seat,), actor=p.seat)


def _hand(ctx: Ctx, p: Player, b: Budget, step: Skill) -> None:
    r = robot_of(ctx, p)
    if r is None or not r.in_play:
        raise Illegal("err.rule.no_robot")
    n = step.amount or 1
    if step.what == "ap":
        if b.ap < n:
            raise Illegal("err.rule.no_ap", need=n, have=b.ap)
        b.ap -= n
        b.robot_ap += n
    else:
        _pay_mp(b, n)
        b.robot_mp += n


def _fury(ctx: Ctx, p: Player, b: Budget, step: Skill) -> None:
    if b.fury_used:
        raise Illegal("err.rule.once_a_night", skill="fury")
    _pay_mp(b, 1)
    b.fury_used = True
    b.ap += 1


def _dash(ctx: Ctx, p: Player, b: Budget, step: Skill) -> None:
    d = step.direction
    if d not in DIRECTIONS:
        raise Illegal("err.rule.bad_direction", direction=d or "")
    dx, dy = DIRECTIONS[d]
    path: list[Tile] = []
    cur = p.pos
    while True:
        nxt = (cur[0] + dx, cur[1] + dy)
        if not ctx.state.board.in_bounds(nxt) or ctx.edge(cur, nxt) is not EDGE_OPEN:
            break
        path.append(nxt)
        cur = nxt
    spend_ap(p, b)
    if len(path) > 5:
        b.ap = max(0, b.ap - 1)
    end_stealth(ctx, p)
    for t in path:
        relocate(ctx, p, t, how="dash")
        for s in ctx.state.at(t, "survivor"):
            ctx.add_fear(s, "dash")


def _trap(ctx: Ctx, p: Player, b: Budget, step: Skill) -> None:
    st = ctx.state
    if not 1 <= len(step.tiles) <= 2:
        raise Illegal("err.rule.skill_args", skill="trap", need=1)
    t = step.tiles[0]
    if not st.board.in_bounds(t):
        raise Illegal("err.rule.off_map", tile=tile_name(t))
    if t in st.traps:
        raise Illegal("err.rule.trap_exists", tile=tile_name(t))
    mine = [x for x, owner in st.traps.items() if owner == p.seat]
    old = step.tiles[1] if len(step.tiles) == 2 else None
    if len(mine) >= MAX_TRAPS:
        if old is None:
            raise Illegal("err.rule.too_many_traps", most=MAX_TRAPS)
        if old not in mine:
            raise Illegal("err.rule.no_trap", tile=tile_name(old))
    spend_ap(p, b)
    end_stealth(ctx, p)
    if old is not None and old in st.traps and len(mine) >= MAX_TRAPS:
        del st.traps[old]
        ctx.emit("trap_removed", public=True, actor=p.seat, tile=tile_name(old))
    st.traps[t] = p.seat
    ctx.emit("trap_placed", public=True, actor=p.seat, tile=tile_name(t))


def _appear(ctx: Ctx, p: Player, b: Budget, step: Skill) -> None:
    t = _one_tile(step)
    if not p.stealth:
        raise Illegal("err.rule.needs_stealth")
    if not ctx.state.board.in_bounds(t) or distance(p.pos, t) > 2:
        raise Illegal("err.rule.too_far", tile=tile_name(t), reach=2)
    if b.mp < 3:
        raise Illegal("err.rule.no_mp", need=3, have=b.mp)
    if not ctx.dry and t not in ctx.state.noise:  # the checker cannot know tonight's markers (RUL-18)
        raise Illegal("err.rule.no_noise_there", tile=tile_name(t))
    _pay_mp(b, 3)
    p.stealth = False
    ctx.emit("stealth_lost", to=(p.seat,), actor=p.seat)
    relocate(ctx, p, t, how="appear")


def connected(tiles: tuple[Tile, ...]) -> bool:
    if not tiles:
        return False
    seen = {tiles[0]}
    stack = [tiles[0]]
    while stack:
        cur = stack.pop()
        for t in tiles:
            if t not in seen and adjacent(cur, t):
                seen.add(t)
                stack.append(t)
    return len(seen) == len(set(tiles))


def _deduce(ctx: Ctx, p: Player, b: Budget, step: Skill) -> None:
    tiles = step.tiles
    if len(set(tiles)) != 4 or not all(ctx.state.board.in_bounds(t) for t in tiles) or not connected(tiles):
        raise Illegal("err.rule.deduce_tiles")
    spend_ap(p, b)
    end_stealth(ctx, p)
    if ctx.dry:
        return
    found = [s for s in ctx.state.survivors(robots=True) if s.pos in tiles]
    ctx.emit("deduction", to=(p.seat,), actor=p.seat, tiles=[tile_name(t) for t in tiles], yes=bool(found))
    for s in found:
        ctx.add_fear(s, "deduction")


def _trace(ctx: Ctx, p: Player, b: Budget, step: Skill) -> None:
    spend_ap(p, b)
    end_stealth(ctx, p)
    if ctx.dry:
        return
    survivors = ctx.state.survivors(robots=True)
    if not survivors:
        ctx.emit("trace", to=(p.seat,), actor=p.seat, distance=-1, directions=[])
        return
    best = min(distance(p.pos, s.pos) for s in survivors)
    dirs = sorted({compass(p.pos, s.pos) or "here" for s in survivors if distance(p.pos, s.pos) == best})
    ctx.emit("trace", to=(p.seat,), actor=p.seat, distance=best, directions=dirs)


def _infiltrate(ctx: Ctx, p: Player, b: Budget, step: Skill) -> None:
    """潜入者: on night 1 she names her passage's two ends (R-ROLE-ASSASSIN (1), RUL-30)."""
    if len(step.tiles) != 2:
        raise Illegal("err.rule.skill_args", skill="infiltrate", need=2)
    if ctx.state.night != 1:
        raise Illegal("err.rule.passage_night1")
    if passages.own_passage(ctx, p) is not None:
        raise Illegal("err.rule.passage_laid")
    a, c = step.tiles
    fault = passages.passage_fault(ctx.state.board, passages.taken_ends(ctx.state.passages), a, c)
    if fault is not None:
        raise fault
    passages.lay(ctx, p, a, c, "by_order")  # also on the checker's copy: her later moves may use it


_HANDLERS = {
    "sprint": _sprint, "brew": _brew, "magic": _magic, "gate": _gate, "deploy": _deploy,
    "retrieve": _retrieve, "hand": _hand, "fury": _fury, "dash": _dash, "trap": _trap,
    "appear": _appear, "deduce": _deduce, "trace": _trace, "infiltrate": _infiltrate,
}
