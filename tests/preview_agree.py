"""The preview held to the resolver (issue 28): single-player orders generated on positions of bot games on every
ready map, each previewed and then resolved alone, written step by written step.

Only the order being previewed is resolved: no other player acts in its stage, so nothing another player does can
change its outcome. Where the preview is sure of a step (``StepPreview.sure``), the resolver must agree on the tile
the acting piece ends on, the MP and AP it has left, whether the step fails, and whether it does nothing (a move or a
skill that goes nowhere, a held move, a capped crack); a search that finds nothing for want of room must have been
warned of. From the first step the preview calls a "may" (what the player cannot know) nothing is compared. Used by
tests/test_preview_agrees.py (a sample) and benchmarks/preview_agree.py (10,000+ orders, figures by kind).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from sheetgm.bots import bot_order, random_order, scaled_options
from sheetgm.core.board import DIRECTIONS, Tile, distance
from sheetgm.core.check import Draft, candidates
from sheetgm.core.events import Event
from sheetgm.core.preview import WARN_NO_ROOM, WARN_ROOM_POTION, Preview, StepPreview, preview
from sheetgm.core.resolve import resolve_stage
from sheetgm.core.roles import ROBOT_SEAT_BASE, robot_alias
from sheetgm.core.setup import new_game
from sheetgm.core.state import HUNTER_STAGE, SURVIVOR_STAGE, Player, State
from sheetgm.core.steps import (
    HUNTER_ROLES,
    ITEMS,
    SKILLS,
    SURVIVOR_ROLES,
    Attack,
    Block,
    Crack,
    Cross,
    Dismantle,
    Drop,
    Escape,
    Force,
    Gaze,
    Give,
    Heal,
    Listen,
    Move,
    Order,
    Pray,
    RobotStep,
    Search,
    Skill,
    Step,
    UseItem,
    Vault,
)
from sheetgm.notation.mapfile import ready_map, ready_map_names
from sheetgm.sim.run import roster_of

MAPS = tuple(ready_map_names())


@dataclass
class Tally:
    """What a run compared: orders, written steps compared and left as "may", and the disagreements by kind."""

    orders: int = 0
    steps: int = 0  # written steps compared (the preview sure of them)
    unsure: int = 0  # written steps the preview called a "may" (from there on nothing is compared)
    agreed: int = 0  # orders on which every compared step agrees
    failed: int = 0  # compared steps that fail (both say so)
    wasted: int = 0  # compared steps that run and do nothing (both say so)
    no_room: int = 0  # searches that found nothing for want of room, warned
    blind_waste: int = 0  # searches that found nothing for a reason the player cannot know (a chest's contents)
    stunned: int = 0  # orders of a stunned hunter: he does not act (compared all the same: nothing runs)
    disagreements: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for k in ("orders", "steps", "unsure", "agreed", "failed", "wasted", "no_room", "blind_waste", "stunned"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.disagreements.update(other.disagreements)
        self.examples += other.examples[: max(0, 20 - len(self.examples))]


# --- positions -----------------------------------------------------------------------------------------------


def positions(map_name: str, seed: int, nights: int = 4) -> Iterator[State]:
    """The states before each stage of a bot game on a ready map."""
    rng = random.Random(f"preview-agree/{map_name}/{seed}")
    board = ready_map(map_name)
    roster = roster_of(board, seed)
    st = new_game(board, roster, seed, options=scaled_options(roster))
    while not st.over() and st.night <= nights:
        yield st
        seats = [q.seat for q in (st.hunters() if st.stage == HUNTER_STAGE else st.survivors())]
        orders = {s: bot_order(st, s, rng) if rng.random() < 0.7 else random_order(st, s, rng) for s in seats}
        st, _ = resolve_stage(st, orders, seed)


def vary(state: State, seat: int, rng: random.Random) -> State:
    """A copy with the actor's own known state varied (role, bag, Downed, Fear, Stealth) and public things near
    her (traps, boards, powered gates), so that the orders meet every case."""
    st = state.copy()
    p = st.players[seat]
    if rng.random() < 0.5:
        p.role = rng.choice((*SURVIVOR_ROLES, "mechanic", "mechanic") if p.is_survivor else HUNTER_ROLES)
    if p.is_survivor:
        if rng.random() < 0.5:
            p.items = [rng.choice(ITEMS) for _ in range(rng.choice((1, 1, 2, 3)))]
            while p.items and not _fits(p.role, p.items):
                p.items.pop()
        if rng.random() < 0.15:
            p.downed = True
        p.fear = rng.choice((0, 0, 1, 2))
        robot = st.players.get(ROBOT_SEAT_BASE + seat)
        if p.role == "mechanic" and (robot is None or not robot.in_play) and rng.random() < 0.6:
            where = rng.choice([t for t in st.board.tiles() if distance(t, p.pos) <= 2])
            st.players[ROBOT_SEAT_BASE + seat] = Player(
                seat=ROBOT_SEAT_BASE + seat, alias=robot_alias(p), camp="survivor", role=None, pos=where, hp=1,
                flags={"robot_of": seat}, lang=p.lang)
    else:
        p.stealth = rng.random() < 0.4
    near = [t for t in st.board.tiles() if distance(t, p.pos) <= 2]
    hunters = [h.seat for h in st.hunters()]
    if hunters and rng.random() < 0.3:
        for t in rng.sample(near, min(2, len(near))):
            if t != p.pos and t not in st.board.gates:
                st.traps[t] = hunters[0]
    if rng.random() < 0.3:
        for t in rng.sample(near, min(3, len(near))):
            for n in st.board.neighbours(t):
                if rng.random() < 0.3 and not st.board.touches_flat(t, n) and st.board.edge(t, n).name == "open":
                    st.boards.add((t, n) if t <= n else (n, t))
    if rng.random() < 0.1:
        st.gates_powered = True
    return st


def _fits(role: str | None, items: list[str]) -> bool:
    from sheetgm.core.context import Ctx
    from sheetgm.core.state import Player

    return Ctx.fits(Player(seat=0, alias="x", camp="survivor", role=role, pos=(0, 0)), items)


# --- orders --------------------------------------------------------------------------------------------------


def _toward(here: Tile, d: str) -> Tile:
    dx, dy = DIRECTIONS[d]
    return (here[0] + dx, here[1] + dy)


def any_step(st: State, p_pos: Tile, seat: int, rng: random.Random) -> list[Step]:
    """One written step (a path is several moves): what a player may write from ``p_pos``, legal or not."""
    p = st.players[seat]
    near = [t for t in st.board.tiles() if distance(t, p_pos) <= 2] or [p_pos]
    d = rng.choice("NESW")
    n = _toward(p_pos, d)
    kind = rng.randrange(14)
    if kind <= 3:  # a path of one to three tiles
        out: list[Step] = []
        here = p_pos
        for _ in range(rng.choice((1, 1, 2, 3))):
            here = _toward(here, rng.choice("NESW") if rng.random() < 0.5 else d)
            out.append(Move(here))
        return out
    if kind == 4:
        return [rng.choice([Cross(n), Vault(n), Force(n) if p.is_hunter else Vault(n)])]
    if kind == 5:
        mine = [s for s, (role, _, _) in SKILLS.items() if role == p.role] or list(SKILLS)
        skill = rng.choice(mine)
        if skill == "sprint":
            here, path = p_pos, []
            for _ in range(rng.randint(1, 4)):
                here = _toward(here, d if rng.random() < 0.7 else rng.choice("NESW"))
                path.append(here)
            return [Skill("sprint", tuple(path))]
        if skill == "dash":
            return [Skill("dash", direction=d)]
        if skill == "hand":
            return [Skill("hand", amount=rng.choice((1, 2)), what=rng.choice(("mp", "ap")))]
        if skill == "deduce":
            c, r = p_pos
            return [Skill("deduce", ((c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1)))]
        if skill in ("retrieve", "brew", "fury", "trace"):
            return [Skill(skill)]
        tiles = tuple(rng.choice([*near, p_pos]) for _ in range(2 if skill == "infiltrate" else 1))
        return [Skill(skill, tiles)]
    if kind == 6:
        return [Search(rng.choice([None, None, "key", rng.choice(ITEMS)]))]
    if kind == 7:
        return [Crack()] if p.is_survivor else [rng.choice([Gaze(), Listen()])]
    if kind == 8:
        item = rng.choice(p.items) if p.items and rng.random() < 0.8 else rng.choice(ITEMS)
        if rng.random() < 0.2:
            return [Drop(item)]
        return [UseItem(item, rng.choice([None, rng.choice(near), p_pos]), rng.choice([None, None, p.alias]))]
    if kind == 9:
        alias = rng.choice([p.alias, p.alias, *(q.alias for q in st.players.values() if not q.is_robot)])
        return [Heal(alias, rng.choice([None, "downed", "fear"]))]
    if kind == 10:
        if p.is_hunter:
            return [rng.choice([Attack(), Attack(direction=d), Attack(at=n), Block(n)])]
        return [rng.choice([Escape(), Dismantle(None), Dismantle(n)])]
    if p.role == "mechanic" and (kind == 11 or rng.random() < 0.2):
        robot = st.players.get(ROBOT_SEAT_BASE + seat)
        at = robot.pos if robot is not None else p_pos
        r = _toward(at, d)
        return [RobotStep(x) for x in rng.choice([[Move(r)], [Move(r), Move(_toward(r, d))], [Search()], [Crack()],
                                                  [Vault(r)], [Cross(r)], [Dismantle(r)]])]
    cands = candidates(st, p)
    return [rng.choice(cands)] if cands else [Crack()]


def any_order(st: State, seat: int, rng: random.Random) -> Order:
    """One to five written steps, each from where the order so far leaves the piece (played in dry mode)."""
    steps: list[Step] = []
    written: list[int] = []
    with Draft.on(st, seat) as draft:
        for n in range(1, rng.randint(1, 5) + 1):
            for step in any_step(st, draft.p.pos, seat, rng):
                draft.play(step)
                steps.append(step)
                written.append(n)
    texts = tuple(f"#{n}" for n in range(1, (written[-1] if written else 0) + 1))
    p = st.players[seat]
    day: tuple[Give | Pray, ...] = ()
    if p.is_survivor and rng.random() < 0.2:
        here = [q.alias for q in st.at(p.pos, "survivor") if q.seat != seat and not q.is_robot]
        alias = rng.choice(here or [q.alias for q in st.players.values() if not q.is_robot])
        item = rng.choice(p.items) if p.items and rng.random() < 0.7 else rng.choice((*ITEMS, "key"))
        day = (rng.choice([Give(alias, item), Give(alias, item), Pray(rng.choice(ITEMS))]),)
    return Order(tuple(steps), day, tuple(written), texts)


# --- the comparison ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class After:
    """What the resolver leaves after a prefix of the order: her piece, her robot, their points, the failure."""

    own: Tile
    robot: Tile | None
    points: dict[int, tuple[int, int]]
    failed: int | None
    events: tuple[Event, ...]


def resolved(st: State, seat: int, order: Order, upto: int, seed: int) -> After:
    """The order cut after written step ``upto``, resolved as the only order of its stage."""
    n = sum(1 for w in order.written if w <= upto)
    cut = Order(order.steps[:n], order.day, order.written[:n], order.texts[:upto])
    end, events = resolve_stage(st, {seat: cut}, seed)
    robot = end.players.get(ROBOT_SEAT_BASE + seat)
    points = {int(e.actor): (int(e.params["mp"]), int(e.params["ap"]))
              for e in events if e.kind == "points_left" and e.actor is not None}
    failed = next((int(e.params["step"]) for e in events if e.kind == "step_failed" and e.actor == seat), None)
    mine = tuple(e for e in events if e.actor in (seat, ROBOT_SEAT_BASE + seat))
    return After(end.players[seat].pos, robot.pos if robot is not None and robot.in_play else None, points, failed,
                 mine)


def _new(before: After, after: After, kind: str) -> list[Event]:
    seen = Counter((e.kind, repr(e.params)) for e in before.events)
    out = []
    for e in after.events:
        key = (e.kind, repr(e.params))
        if seen[key]:
            seen[key] -= 1
        elif e.kind == kind:
            out.append(e)
    return out


def _did_nothing(steps: list[Step], s: StepPreview, before: After, after: After) -> bool | None:
    """Whether the resolver ran the step to no effect: a move that left its piece where it was, a capped crack,
    a search that found nothing (None: a step of another kind, not judged)."""
    if after.failed == s.number:
        return False
    if all(_moving(x) for x in steps):
        return not any(e.params["frm"] != e.params["tile"] for e in _new(before, after, "moved"))
    if all(isinstance(x, Crack) for x in steps):
        return bool(_new(before, after, "crack_capped"))
    if all(isinstance(x, Search) for x in steps):
        return bool(_new(before, after, "found_nothing"))
    return None


def _moving(step: Step) -> bool:
    return isinstance(step, (Move, Cross, Vault, Force)) or (
        isinstance(step, Skill) and step.skill in ("sprint", "dash", "gate", "appear")) or (
        isinstance(step, UseItem) and step.item in ("wings", "doorkey"))


def compare(st: State, seat: int, order: Order, seed: int) -> Tally:
    """Preview one order and resolve it written step by written step; every disagreement, by kind."""
    out = Tally(orders=1)
    pv = preview(st, seat, order)
    if st.players[seat].is_hunter and st.stage == SURVIVOR_STAGE:  # written ahead: after a survivor stage of no order
        st, _ = resolve_stage(st, {}, seed)
    if st.players[seat].is_hunter and st.players[seat].stunned:
        out.stunned = 1  # he does not act: every step of the preview says it never runs
    p = st.players[seat]
    before = After(p.pos, None, {}, None, ())
    robot0 = st.players.get(ROBOT_SEAT_BASE + seat)
    if robot0 is not None and robot0.in_play:
        before = After(p.pos, robot0.pos, {}, None, ())
    bad: list[str] = []
    for s in pv.steps:
        if not s.sure:
            out.unsure += len(pv.steps) - pv.steps.index(s)
            break
        out.steps += 1
        after = before if before.failed is not None else resolved(st, seat, order, s.number, seed)
        bad += _step_disagreements(pv, order, s, before, after, out)
        before = after
    if pv.steps and all(s.sure for s in pv.steps) and not pv.steps[-1].robot and before.own != pv.steps[-1].tile \
            and pv.steps[-1].cancelled_by is None and not bad:
        bad.append("end tile")
    out.disagreements.update(b.split(":")[0] for b in bad)
    if not bad:
        out.agreed = 1
    else:
        out.examples.append(f"{p.alias} ({p.role}) at {p.pos} {order.steps} day {order.day}: {bad}")
    for s in pv.steps:
        if not s.sure:
            break
        out.failed += s.fails
        out.wasted += s.wasted
    return out


def _step_disagreements(pv: Preview, order: Order, s: StepPreview, before: After, after: After, tally: Tally
                        ) -> list[str]:
    seat = pv.seat
    piece = ROBOT_SEAT_BASE + seat if s.robot else seat
    bad: list[str] = []
    tile = after.robot if s.robot else after.own
    if tile != s.tile and not (s.robot and tile is None):  # (a robot step with no robot out fails)
        bad.append(f"tile: step {s.number} preview {s.tile} resolver {tile}")
    if piece in after.points:
        mp, ap = after.points[piece]
        if not (mp == s.mp or (pv.more_mp and not s.robot and mp == s.mp + 1)):
            bad.append(f"mp: step {s.number} preview {s.mp} resolver {mp}")
        if ap != s.ap:
            bad.append(f"ap: step {s.number} preview {s.ap} resolver {ap}")
    fails = after.failed == s.number
    if s.cancelled_by is None and fails != s.fails:
        bad.append(f"failed: step {s.number} preview {s.fails} resolver {fails}")
    if s.cancelled_by is None and not fails:
        nothing = _did_nothing(_inner(order, s.number), s, before, after)
        if s.wasted and not nothing:
            bad.append(f"wasted: step {s.number} the preview says it does nothing, the resolver ran it")
        search = all(isinstance(x, Search) for x in _inner(order, s.number))
        if nothing and not s.wasted and not search:
            bad.append(f"unwarned: step {s.number} did nothing at resolution, the preview said nothing")
        if nothing and search:
            pv_room = {w.code for w in s.warnings} & {WARN_NO_ROOM, WARN_ROOM_POTION}
            if pv_room:
                tally.no_room += 1
            else:
                tally.blind_waste += 1
        if _new(before, after, "no_room") and not {w.code for w in s.warnings} & {WARN_NO_ROOM, WARN_ROOM_POTION} \
                and not _searched_before(order, s.number):
            bad.append(f"no_room: step {s.number} found no room at resolution, the preview did not warn")
    return bad


def _inner(order: Order, number: int) -> list[Step]:
    """The night steps of written step ``number`` (a robot's step as the robot takes it)."""
    return [st.step if isinstance(st, RobotStep) else st
            for st, w in zip(order.steps, order.written, strict=True) if w == number]


def _searched_before(order: Order, number: int) -> bool:
    """An earlier search of the order may have filled her bag (what it finds she cannot know)."""
    return any(isinstance(st, Search) for n in range(1, number) for st in _inner(order, n))


def run(map_name: str, seeds: range, per_actor: int, nights: int = 4, actors: int = 4) -> Tally:
    """Orders generated on the positions of bot games on one map: up to ``actors`` in-play pieces whose stage is
    due in each position (and in a survivor stage one hunter, who may write his order ahead), ``per_actor`` orders
    each."""
    total = Tally()
    for seed in seeds:
        rng = random.Random(f"preview-orders/{map_name}/{seed}")
        for st in positions(map_name, seed, nights):
            camp = "hunter" if st.stage == HUNTER_STAGE else "survivor"
            assert st.stage in (HUNTER_STAGE, SURVIVOR_STAGE)
            due = [p for p in st.players.values() if p.in_play and not p.is_robot and p.camp == camp]
            ahead = [p for p in st.hunters() if camp == "survivor"]  # a hunter may write his order in the day
            for p in rng.sample(due, min(actors, len(due))) + rng.sample(ahead, min(1, len(ahead))):
                for _ in range(per_actor):
                    varied = vary(st, p.seat, rng)
                    order = any_order(varied, p.seat, rng)
                    total.add(compare(varied, p.seat, order, seed))
    return total
