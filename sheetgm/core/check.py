"""Checking an order before the deadline (R-ORDER-4) and the legal next steps.

Both run the player's steps in *dry* mode on a private copy of the state:
the same rule functions as the resolver, minus the checks that would need
what the player cannot know (where other players are, what chests hold,
who is injured). Where the answer depends on hidden state the checker is
optimistic: it never rejects an order that could turn out legal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sheetgm.core.act import budget_for, do_step
from sheetgm.core.board import Edge, Tile
from sheetgm.core.context import Budget, Ctx, Illegal
from sheetgm.core.items import ITEM_RULES
from sheetgm.core.observe import display_params
from sheetgm.core.resolve import start_night
from sheetgm.core.roles import ROBOT_SEAT_BASE
from sheetgm.core.state import HUNTER_STAGE, SURVIVOR_STAGE, Player, State
from sheetgm.core.steps import (
    SKILLS,
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
    Search,
    Skill,
    Step,
    UseItem,
    Vault,
)
from sheetgm.core.survivor_actions import day_step
from sheetgm.core.texts import render
from sheetgm.core.unknowns import CHAIN, Unknowns


@dataclass(frozen=True)
class Problem:
    """A problem of an order (or, in ``Review.notes``, a step that depends on what the night brings)."""

    code: str
    params: dict[str, Any]
    step: int | None = None  # 1-based night step; None for day steps and general problems
    day: bool = False

    def message(self, lang: str = "zh") -> str:
        reason = render(lang, self.code, **display_params(lang, self.params))
        if self.step is None:
            return reason
        key = "check.day_step" if self.day else "check.step"
        return render(lang, key, step=self.step, reason=reason)


@dataclass
class Review:
    """What the checker says of one order: its problems, and notes on steps whose outcome the player
    cannot know yet (what a Search finds, where the chain claw leaves the Bane). An order with notes
    and no problems is complete (RUL-18)."""

    problems: list[Problem] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)


class _NoDraws(random.Random):
    """The random source of every dry context: the checker never draws (were it to, its answers would
    depend on what was checked before), so one instance serves them all and seeding it is not paid per call."""

    def random(self) -> float:
        raise RuntimeError("a dry (checker) context drew a random number")

    def getrandbits(self, k: int) -> int:
        raise RuntimeError("a dry (checker) context drew a random number")


_NO_DRAWS = _NoDraws(0)


def _dry(state: State, p: Player) -> tuple[State, Ctx, Player]:
    """The checker's private copy, as it will stand when p's stage starts (the night's resets applied)."""
    st = state.copy()
    stage = HUNTER_STAGE if p.is_hunter else SURVIVOR_STAGE
    ctx = Ctx(st, _NO_DRAWS, stage, dry=True)
    if not (state.stage == HUNTER_STAGE and p.is_hunter):
        start_night(ctx)
    return st, ctx, st.players[p.seat]


def check_order(state: State, seat: int, order: Order) -> list[Problem]:
    """Every problem of one order against what its player knows, in step order."""
    return review_order(state, seat, order).problems


def review_order(state: State, seat: int, order: Order) -> Review:
    """Problems and notes of one order: the same rule functions as the resolver, in dry mode."""
    p0 = state.players.get(seat)
    if p0 is None:
        return Review([Problem("err.rule.no_such_seat", {"seat": seat})])
    if not p0.in_play:
        return Review([Problem("err.rule.out_of_play", {"alias": p0.alias})] if (order.steps or order.day) else [])
    st, ctx, p = _dry(state, p0)
    out = Review()
    unknown = Unknowns()
    for i, d in enumerate(order.day, 1):
        try:
            day_step(ctx, p, d)
            if isinstance(d, Give) and d.item != "key":
                unknown.gifts.append(d.item)
        except Illegal as exc:
            out.problems.append(Problem(exc.code, exc.params, i, day=True))
    if p.is_hunter and p.stunned and order.steps:
        out.notes.append(Problem("check.note.stunned", {}))
    b = budget_for(ctx, p)
    for i, step in enumerate(order.steps, 1):
        if unknown.chain and not any(n.code == CHAIN for n in out.notes):
            out.notes.append(Problem(CHAIN, {}, i))  # from here on, where the Bane stands is unknown
        try:
            do_step(ctx, p, b, step)
            unknown.after(ctx, p, step)
        except Illegal as exc:
            why = unknown.explain(ctx, p, b, step, exc)
            if why is None:
                out.problems.append(Problem(exc.code, exc.params, i))
                assume_arrival(p, step)
                continue
            note, retry = why
            if note != CHAIN:
                out.notes.append(Problem(note, {"code": exc.code, "params": exc.params}, i))
            if not retry:
                assume_arrival(p, step)
                continue
            try:
                do_step(ctx, p, b, step)  # once more, with what the night may bring
                unknown.after(ctx, p, step)
            except Illegal as again:
                out.problems.append(Problem(again.code, again.params, i))
                assume_arrival(p, step)
    return out


def assume_arrival(p: Player, step: Step) -> None:
    """After a failed move the checker goes on from its target, to avoid a cascade of follow-up problems
    (not when a trap holds her: she stays, RUL-31)."""
    target = getattr(step, "to", None)
    if isinstance(step, (Move, Cross, Vault, Force)) and target is not None and not p.flags.get("held"):
        p.pos = target


class Draft:
    """One player's order being written: its steps played in dry mode on one private copy of the state.

    ``play`` adds a step as the checker would (an illegal move still lands, so
    that the next steps are judged from there); ``legal`` tests one step
    without keeping it; ``add`` keeps it only if it is legal; ``legal_steps``
    tests every candidate. Each try saves and restores what a dry step may
    change (the player, the Mechanic's robot, boards, traps, passages found and by whom)
    instead of copying the state. The bots write a whole order on one Draft."""

    def __init__(self, state: State, seat: int, shared: State | None = None) -> None:
        """``shared``: ``Draft.shared_copy(state)``, that the drafts of the players due in this stage
        take turns on, each calling ``release`` when done; None: the draft makes its own copy."""
        if shared is None:
            self.state, self.ctx, self.p = _dry(state, state.players[seat])
        else:
            self.p = shared.players[seat]
            self.state = shared
            self.ctx = Ctx(shared, _NO_DRAWS, HUNTER_STAGE if self.p.is_hunter else SURVIVOR_STAGE, dry=True)
        self.budget = budget_for(self.ctx, self.p)
        self.steps: list[Step] = []
        self._robot_seat = ROBOT_SEAT_BASE + seat
        self._found = self._save() if shared is not None else None

    @staticmethod
    def shared_copy(state: State) -> State:
        """A dry copy for the drafts of the players due in this stage: as ``_dry`` makes it for each
        (the night's resets applied, except for hunters in the hunter stage)."""
        st = state.copy()
        if state.stage != HUNTER_STAGE:
            start_night(Ctx(st, _NO_DRAWS, SURVIVOR_STAGE, dry=True))
        return st

    def _save(self) -> _Saved:
        st = self.state
        robot = st.players.get(self._robot_seat)
        return (self.p.copy(), robot.copy() if robot is not None else None, set(st.boards), dict(st.traps),
                [(pa, pa.discovered, list(pa.known_by)) for pa in st.passages])

    def _restore(self, saved: _Saved) -> None:
        st, (player, robot_was, boards, traps, passages) = self.state, saved
        _undo(self.p, player)
        robot = st.players.get(self._robot_seat)
        if robot_was is not None and robot is not None:
            _undo(robot, robot_was)
        elif robot is not None:
            del st.players[self._robot_seat]
        if st.boards != boards:
            st.boards = boards
        if st.traps != traps:
            st.traps = traps
        if len(st.passages) != len(passages) or any(pa.discovered != found or pa.known_by != known
                                                    for pa, found, known in passages):
            st.passages = [pa for pa, _, _ in passages]
            for pa, found, known in passages:
                pa.discovered, pa.known_by = found, list(known)

    def release(self) -> None:
        """Give a shared copy back as the draft found it (its steps are still in ``steps``)."""
        if self._found is not None:
            self._restore(self._found)
            self._found = None

    def play(self, step: Step) -> bool:
        """Add a step; False when it is illegal here (it is kept all the same, as in ``legal_steps(after=...)``)."""
        self.steps.append(step)
        try:
            do_step(self.ctx, self.p, self.budget, step)
            return True
        except Illegal:
            assume_arrival(self.p, step)
            return False

    def legal(self, step: Step) -> bool:
        """Whether the step may come next; nothing of it is kept."""
        return self._attempt(step, keep=False)

    def add(self, step: Step) -> bool:
        """Add the step if it may come next (True); otherwise leave the draft as it was (False)."""
        return self._attempt(step, keep=True)

    def _attempt(self, step: Step, keep: bool) -> bool:
        saved, budget = self._save(), dict(self.budget.__dict__)
        ok = False
        try:
            do_step(self.ctx, self.p, self.budget, step)
            ok = True
        except Illegal:
            pass
        finally:
            if not (ok and keep):
                self._restore(saved)
                self.budget.__dict__.update(budget)
        if ok and keep:
            self.steps.append(step)
        return ok

    def legal_steps(self) -> list[Step]:
        return [c for c in candidates(self.state, self.p) if self.legal(c)]


# What a tried step may change: the player, the robot, boards, traps, which passages are found and by whom.
_Saved = tuple[Player, Player | None, set[tuple[Tile, Tile]], dict[Tile, int], list[tuple[Any, bool, list[int]]]]


def _undo(p: Player, saved: Player) -> None:
    if p.pos != saved.pos:
        p.pos = saved.pos  # through Player.__setattr__: the state's index follows
    p.__dict__.update(saved.__dict__)


def legal_steps(state: State, seat: int, after: Sequence[Step] = ()) -> list[Step]:
    """The single steps that may follow ``after`` (the order so far): for the
    checker, the sheet dropdowns and the bots."""
    p0 = state.players.get(seat)
    if p0 is None or not p0.in_play or state.over():
        return []
    draft = Draft(state, seat)
    for step in after:
        draft.play(step)
    return draft.legal_steps()


def _near(st: State, tile: Tile, reach: int) -> list[Tile]:
    return list(st.board.within(tile, reach))


def candidates(st: State, p: Player) -> list[Step]:
    """Every step worth testing from p's position (legality is tested by the caller)."""
    here = p.pos
    nbrs = st.board.neighbours(here)
    out: list[Step] = [Move(n) for n in nbrs]
    partner = st.passage_at(here)
    if partner is not None:
        other = partner.ends[1] if partner.ends[0] == here else partner.ends[0]
        out.append(Move(other))
    obstacles = [n for n in nbrs if st.board.edge(here, n) is Edge.OBSTACLE]
    out += [Cross(n) for n in obstacles] + [Vault(n) for n in obstacles]
    if p.is_survivor:
        out += [Search(), Crack(), Escape(), Dismantle(None)]
        out += [Dismantle(n) for n in nbrs]
        out += [Heal(s.alias) for s in st.at(here, "survivor") if not s.is_robot]
        for item in sorted(set(p.items)):
            out.append(Drop(item))
            rule = ITEM_RULES.get(item)
            if rule is None:
                continue
            reach = rule[1]
            if reach is None:
                out.append(UseItem(item))
            else:
                out += [UseItem(item, t) for t in _near(st, here, reach)]
    else:
        plain: list[Step] = [Attack(), Gaze(), Listen()]
        out += plain + [Block(n) for n in nbrs] + [Force(n) for n in nbrs]
        if p.role == "bane":
            out += [Attack(direction=d) for d in "NESW"]
        if p.role == "ripper":
            out += [Attack(at=t) for t in _near(st, here, 1) if t != here]
    out += _skill_candidates(st, p)
    seen: set[Step] = set()
    unique = []
    for s in out:
        if s not in seen:
            seen.add(s)
            unique.append(s)
    return unique


def _skill_candidates(st: State, p: Player) -> list[Step]:
    here = p.pos
    out: list[Step] = []
    for skill, (role, _tag, _cost) in SKILLS.items():
        if role != p.role:
            continue
        if skill in ("magic",):
            out += [Skill(skill, (t,)) for t in _near(st, here, 2)]
        elif skill == "gate":
            out += [Skill(skill, (t,)) for t in _near(st, here, 1) if t != here]
        elif skill == "appear":
            out += [Skill(skill, (t,)) for t in _near(st, here, 2) if t != here]
        elif skill == "trap":
            out += [Skill(skill, (t,)) for t in _near(st, here, 2)]
        elif skill == "dash":
            out += [Skill(skill, direction=d) for d in "NESW"]
        elif skill == "hand":
            out += [Skill(skill, amount=1, what="mp"), Skill(skill, amount=1, what="ap")]
        elif skill == "sprint":
            out += _sprint_paths(st, p)
        elif skill == "deduce":
            c, r = here
            out += [Skill(skill, ((c + dc, r + dr), (c + dc + 1, r + dr), (c + dc, r + dr + 1),
                                  (c + dc + 1, r + dr + 1))) for dc in (-1, 0) for dr in (-1, 0)]
        else:
            out.append(Skill(skill))
    return out


def _sprint_paths(st: State, p: Player) -> list[Step]:
    """Straight sprints of 4 tiles (a bot's choice; players may write any path)."""
    out: list[Step] = []
    for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        path = tuple((p.pos[0] + dx * k, p.pos[1] + dy * k) for k in range(1, 5))
        out.append(Skill("sprint", path))
    return out


def budget_of(state: State, seat: int) -> Budget:
    """The MP/AP the player would start their action with now."""
    st, ctx, p = _dry(state, state.players[seat])
    return budget_for(ctx, p)
