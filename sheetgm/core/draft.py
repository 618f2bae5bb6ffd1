"""One player's order played in dry mode, step by step, without copying the state for each order.

A dry step runs the resolver's own rule (``act.do_step``) with ``Ctx.dry``: it
changes only what the player can see change (her piece, her robot, boards,
traps, the passages she finds), and a ``Draft`` saves exactly that before a
try it will not keep and puts it back after; a step that is illegal raises
before it changes anything but the budget, so a try that keeps a legal step
saves only the budget (``add``). The checker (``check.review_order``), the legal
next steps (sheet dropdowns, bots) and ``budget_of`` all work this way:
``Draft.on(state, seat)`` plays on the caller's state itself and leaves it as
it found it, so checking a stage of N orders costs N orders, not N copies of
a state of N players.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sheetgm.core.act import budget_for, do_step
from sheetgm.core.board import EDGE_OBSTACLE, EDGE_OPEN, Tile
from sheetgm.core.context import Ctx, Illegal
from sheetgm.core.items import ITEM_RULES
from sheetgm.core.resolve import night_reset, start_night
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
    Heal,
    Listen,
    Move,
    Search,
    Skill,
    Step,
    UseItem,
    Vault,
)


class _NoDraws(random.Random):
    """The random source of every dry context: the checker never draws (were it to, its answers would
    depend on what was checked before), so one instance serves them all and seeding it is not paid per call."""

    def random(self) -> float:
        raise RuntimeError("a dry (checker) context drew a random number")

    def getrandbits(self, k: int) -> int:
        raise RuntimeError("a dry (checker) context drew a random number")


NO_DRAWS = _NoDraws(0)


def stage_of(p: Player) -> str:
    return HUNTER_STAGE if p.is_hunter else SURVIVOR_STAGE


def _private_copy(state: State, p: Player) -> tuple[State, Ctx, Player]:
    """A copy of the state as it will stand when p's stage starts (the night's resets applied)."""
    st = state.copy()
    ctx = Ctx(st, NO_DRAWS, stage_of(p), dry=True)
    if not (state.stage == HUNTER_STAGE and p.is_hunter):
        start_night(ctx)
    return st, ctx, st.players[p.seat]


_last_dry: list[Ctx] = []  # the dry context of the last shared copy's drafts (one Ctx for a stage's drafts)


def _dry_ctx(shared: State, stage: str) -> Ctx:
    """A dry context on a shared copy, the same one for every draft of the stage on it: a dry context keeps
    nothing of a step (``Ctx.emit`` and ``tell`` return at once, ``NO_DRAWS`` draws nothing)."""
    if _last_dry:
        ctx = _last_dry[0]
        if ctx.state is shared and ctx.stage == stage:
            return ctx
    ctx = Ctx(shared, NO_DRAWS, stage, dry=True)
    _last_dry[:] = [ctx]
    return ctx


def assume_arrival(p: Player, step: Step) -> None:
    """After a failed move the checker goes on from its target, to avoid a cascade of follow-up problems
    (not when a trap holds her: she stays, RUL-31)."""
    if isinstance(step, (Move, Cross, Vault, Force)) and not p.flags.get("held"):
        p.pos = step.to


# What a tried step may change: the player, the robot, boards, traps, which passages are found and by whom.
_Saved = tuple[Player, Player | None, set[tuple[Tile, Tile]], dict[Tile, int], list[tuple[Any, bool, list[int]]]]


class Draft:
    """One player's order being written: its steps played in dry mode on one private copy of the state.

    ``play`` adds a step as the checker would (an illegal move still lands, so
    that the next steps are judged from there); ``legal`` tests one step
    without keeping it; ``add`` keeps it only if it is legal; ``legal_steps``
    tests every candidate. ``legal`` saves and restores what a dry step may
    change (the player, the Mechanic's robot, boards, traps, passages found and by whom)
    instead of copying the state; ``add`` saves only the budget. The bots write a whole order on one Draft."""

    def __init__(self, state: State, seat: int, shared: State | None = None) -> None:
        """``shared``: ``Draft.shared_copy(state)``, that the drafts of the players due in this stage
        take turns on, each calling ``release`` when done; None: the draft makes its own copy."""
        if shared is None:
            self.state, self.ctx, self.p = _private_copy(state, state.players[seat])
        else:
            self.p = shared.players[seat]
            self.state = shared
            self.ctx = _dry_ctx(shared, stage_of(self.p))
        self.budget = budget_for(self.ctx, self.p)
        self.steps: list[Step] = []
        self._robot_seat = ROBOT_SEAT_BASE + seat
        self._found = self._save() if shared is not None else None

    @classmethod
    @contextmanager
    def on(cls, state: State, seat: int) -> Iterator[Draft]:
        """A draft on ``state`` itself, as the player's stage will start it (the night's resets applied to her
        piece and her robot, the only pieces a dry step reads them from), given back as it was on leaving."""
        draft = cls.__new__(cls)
        draft.state, draft.p, draft.steps = state, state.players[seat], []
        draft._robot_seat = ROBOT_SEAT_BASE + seat
        draft._found = draft._save()
        draft.ctx = Ctx(state, NO_DRAWS, stage_of(draft.p), dry=True)
        try:
            if not (state.stage == HUNTER_STAGE and draft.p.is_hunter):
                night_reset(draft.p)
                robot = state.players.get(draft._robot_seat)
                if robot is not None:
                    night_reset(robot)
            draft.budget = budget_for(draft.ctx, draft.p)
            yield draft
        finally:
            draft.release()

    @staticmethod
    def shared_copy(state: State) -> State:
        """A dry copy for the drafts of the players due in this stage: as ``_private_copy`` makes it for each
        (the night's resets applied, except for hunters in the hunter stage)."""
        st = state.copy()
        if state.stage != HUNTER_STAGE:
            start_night(Ctx(st, NO_DRAWS, SURVIVOR_STAGE, dry=True))
        return st

    def _save(self) -> _Saved:
        st = self.state
        robot = st.players.get(self._robot_seat)
        passages = st.passages
        return (self.p.copy(), robot.copy() if robot is not None else None, set(st.boards), dict(st.traps),
                [(pa, pa.discovered, pa.known_by[:]) for pa in passages] if passages else [])

    def _restore(self, saved: _Saved) -> None:
        st, (player, robot_was, boards, traps, passages) = self.state, saved
        _undo(self.p, player)
        players = st.players
        robot = players.get(self._robot_seat)
        if robot is not None:
            if robot_was is not None:
                _undo(robot, robot_was)
            else:
                del players[self._robot_seat]
        if st.boards != boards:
            st.boards = boards
        if st.traps != traps:
            st.traps = traps
        now = st.passages
        if passages or now:
            changed = len(now) != len(passages)
            if not changed:  # (a loop, not any() over a generator: every order's release pays this)
                for pa, found, known in passages:
                    if pa.discovered != found or pa.known_by != known:
                        changed = True
                        break
            if changed:
                st.passages = [pa for pa, _, _ in passages]
                for pa, found, known in passages:
                    pa.discovered, pa.known_by = found, list(known)

    def release(self) -> None:
        """Give a shared copy (or the state of ``on``) back as the draft found it (its steps are still in
        ``steps``)."""
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
        if type(step) is Move:
            p, b = self.p, self.budget
            here, mp = p.pos, b.mp
            fast = self._plain_move(step.to)  # (changes only her tile and her MP: both put back)
            if fast is not None:
                if fast:
                    p.pos, b.mp = here, mp
                return fast
        saved, budget = self._save(), dict(self.budget.__dict__)
        try:
            do_step(self.ctx, self.p, self.budget, step)
            return True
        except Illegal:
            return False
        finally:
            self._restore(saved)
            self.budget.__dict__.update(budget)

    def add(self, step: Step) -> bool:
        """Add the step if it may come next (True); otherwise leave the draft as it was (False).

        Nothing is saved but the budget: a step that raises ``Illegal`` has changed nothing else (``do_step``'s
        contract, which the checker's ``_judge`` relies on too; tests/test_check_in_place.py holds every rule
        to it), and a legal one is kept."""
        budget = self.budget
        if type(step) is Move:
            fast = self._plain_move(step.to)
            if fast is not None:
                if fast:
                    self.steps.append(step)
                return fast
        was = dict(budget.__dict__)
        try:
            do_step(self.ctx, self.p, budget, step)
        except Illegal:
            budget.__dict__.update(was)
            return False
        self.steps.append(step)
        return True

    def legal_steps(self) -> list[Step]:
        return [c for c in candidates(self.state, self.p) if self.legal(c)]

    def _plain_move(self, to: Tile) -> bool | None:
        """``moves.move`` in dry mode for the commonest step of all, a Move over an open edge without a board to
        a tile without a trap, played here without the rule's calls: True (played), False (too few MP: nothing
        changed); None for every other case, which ``do_step`` plays (tests/test_bots.py compares the games)."""
        p, b, st = self.p, self.budget, self.state
        here = p.pos
        if b.escaped or (p.flags and p.flags.get("held")) or abs(to[0] - here[0]) + abs(to[1] - here[1]) != 1:
            return None
        board = st.board
        if board.edge_kinds.get((here, to)) is not EDGE_OPEN or to in st.traps or \
                (st.boards and ((here, to) if here <= to else (to, here)) in st.boards):
            return None  # (an edge out of the map is no key of edge_kinds)
        region = board.flat_region.get(here)
        cost = 0 if region is not None and region == board.flat_region.get(to) else 1
        if b.mp < cost:
            return False
        b.mp -= cost
        p.pos = to  # dry: no event; a hunter discovers nobody in dry mode (moves.discover)
        return True


def _undo(p: Player, saved: Player) -> None:
    if p.pos != saved.pos:
        p.pos = saved.pos  # through Player.pos's setter: the state's index follows
    p.__dict__.update(saved.__dict__)


def legal_steps(state: State, seat: int, after: Sequence[Step] = ()) -> list[Step]:
    """The single steps that may follow ``after`` (the order so far): for the
    checker, the sheet dropdowns and the bots."""
    p0 = state.players.get(seat)
    if p0 is None or not p0.in_play or state.over():
        return []
    with Draft.on(state, seat) as draft:
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
    obstacles = [n for n in nbrs if st.board.edge(here, n) is EDGE_OBSTACLE]
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
