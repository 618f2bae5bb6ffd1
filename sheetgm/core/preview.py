"""What an order will do, step by step, as far as its player can know it (RUL-61, RUL-62).

The checker (``check.review_order``) plays the order in dry mode on what the player knows; the preview
watches it: after each step, the tile the piece stands on, the MP and AP left, what the player knows is
on that tile, the step's problems and notes (what depends on what she cannot know), and a warning before
a step that will most likely be wasted. Steps are grouped as the player wrote them (``Order.label``): a
path of three tiles is one written step.

The preview holds to what the resolver will do (issue 28; tests/test_preview_agrees.py): a step that fails
leaves the piece where the failure found it, with the points the failure leaves, and nothing after it runs; a step
that runs and surely does nothing (a move or a skill that goes nowhere, a held move) is marked and warned of; and
from the first step whose tile, points or success hang on what the player cannot know (a note, a heal, the chain
claw...) it says "may" (``StepPreview.sure``) instead of guessing.

What the player knows of a tile is the public map (generators, chests, gates, passages on the map, traps,
RUL-1), the passages she knows (RUL-36), and what her last report told her of the tile she stands on
(whether its chest still holds something, ``observe``): never what the state holds beyond that. So the
preview is the same whatever another player holds, where they stand and what the other chests hold.
"""

from __future__ import annotations

from collections.abc import Mapping

from sheetgm.core.board import Tile, tile_name
from sheetgm.core.check import Problem, Review, review_order
from sheetgm.core.context import Budget, Ctx
from sheetgm.core.passages import known_passages
from sheetgm.core.roles import robot_of
from sheetgm.core.state import Player, State, alias_key
from sheetgm.core.steps import (
    ITEMS,
    Attack,
    Crack,
    Cross,
    Force,
    Heal,
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
from sheetgm.core.texts import render
from sheetgm.core.unknowns import STUNNED
from sheetgm.core.values import Value, field, record, replace

HELD = "err.rule.held"  # a trapped survivor's move: it does nothing and the order goes on (RUL-31)
WARN_NO_CHEST = "preview.warn.no_chest"
WARN_EMPTIED = "preview.warn.emptied"
WARN_SEARCHED = "preview.warn.searched"
WARN_POWERED = "preview.warn.powered"
WARN_TRAP = "preview.warn.trap"
WARN_NO_ROOM = "preview.warn.no_room"  # her bag is full: an item found stays where it is
WARN_ROOM_POTION = "preview.warn.room_potion"  # the Doctor's bag has room for a potion only
WARN_NOWHERE = "preview.warn.nowhere"  # a move or a skill that leaves the piece where it was, its cost paid
WARNINGS = (WARN_NO_CHEST, WARN_EMPTIED, WARN_SEARCHED, WARN_POWERED, WARN_TRAP, WARN_NO_ROOM, WARN_ROOM_POTION,
            WARN_NOWHERE)
# Steps that take their piece to one tile: one of these that leaves it where it was did nothing but cost (a sprint
# enters each of its tiles: one back to its start has gone somewhere).
_MOVING_SKILLS = frozenset({"dash", "gate", "appear"})
_MOVING_ITEMS = frozenset({"wings", "doorkey"})
# What a tile may hold as the player knows it (texts ``preview.here.<key>``), in the order they are named.
HERE = ("generator", "chest_full", "chest_empty", "chest", "gate", "passage", "trap")


@record(frozen=True)
class StepPreview(Value):
    """One written step: what it leaves, as far as the player can know."""

    number: int  # the step's number as written (what the player calls "step 3")
    text: str  # the step as written ("" for an order not read from text)
    path: tuple[Tile, ...]  # the tiles the acting piece enters, in order
    tile: Tile  # where the acting piece stands after it (after a failed step: where the failure leaves it)
    robot: bool  # the acting piece is the Mechanic's robot
    mp: int  # points the acting piece has left after it (after a failed step: what the failure leaves)
    ap: int
    here: tuple[str, ...]  # what she knows is on ``tile`` (keys of HERE)
    problems: tuple[Problem, ...] = ()
    notes: tuple[Problem, ...] = ()  # what the step depends on that she cannot know (RUL-18, RUL-39)
    warnings: tuple[Problem, ...] = ()  # the step will most likely be wasted
    cancelled_by: int | None = None  # an earlier written step that fails first: at resolution this one never runs
    # (0: none runs, the hunter is stunned)
    sure: bool = True  # False: what she cannot know may change its tile, points or success ("may")
    wasted: bool = False  # it runs and surely does nothing (a move or a skill that goes nowhere, a held move)

    @property
    def fails(self) -> bool:
        """It fails at resolution and ends the order (a held move does nothing and the order goes on)."""
        return self.cancelled_by is None and any(x.code != HELD for x in self.problems)


@record(frozen=True)
class Preview(Value):
    """Where an order would take its player and what it would cost, as far as they can know."""

    seat: int
    start: Tile
    mp: int  # the points her action starts with
    ap: int
    steps: tuple[StepPreview, ...] = ()
    general: tuple[Problem, ...] = ()  # problems and notes of no night step (day steps, a stunned hunter)
    review: Review = field(default_factory=Review, compare=False)  # the checker's own answer it was built on
    more_mp: bool = False  # the Werewolf's Bloodlust: 1 MP more if a survivor is Injured, which he cannot know

    def path(self) -> tuple[Tile, ...]:
        """Where her own piece goes: the start, then every tile it enters (the robot's steps left out)."""
        out = [self.start]
        for s in self.steps:
            for t in s.path if not s.robot else ():
                if t != out[-1]:
                    out.append(t)
        return tuple(out)

    def lines(self, lang: str, full: bool = True) -> list[str]:
        """The preview in words, one line a step (``full``: each problem, note and warning on its own line
        under its step; else only the warnings, as the problems and notes are listed before it: the step's
        own line still carries its mark, ✗ for a step that fails)."""
        mp = _mp(lang, self.mp, self.more_mp)
        out = [render(lang, "preview.start", tile=tile_name(self.start), mp=mp, ap=self.ap)]
        for s in self.steps:
            out.append(step_line(lang, s, self.more_mp))
            if s.cancelled_by:  # (0: a stunned hunter's, whose general note says why)
                out.append(render(lang, "preview.cancelled", first=s.cancelled_by))
            extra = [*s.problems, *s.notes] if full else []
            for x in [*extra, *s.warnings]:
                mark = "preview.mark.problem" if x in s.problems else (
                    "preview.mark.note" if x in s.notes else "preview.mark.warning")
                out.append(render(lang, mark, text=x.message(lang) if x.step is None else _reason(x, lang)))
        return out


def step_line(lang: str, s: StepPreview, more_mp: bool = False) -> str:
    """A step's line: its mark (✗ fails, ？ may, ⚠ does nothing, – never runs), the tile, the points left and
    what is there; where she cannot know them, the tile is a "may" and the points a "?"."""
    here = render(lang, "word.sep").join(render(lang, f"preview.here.{k}") for k in s.here) \
        or render(lang, "preview.here.nothing")
    key = "preview.step_robot" if s.robot else "preview.step"
    flag = "cancelled" if s.cancelled_by is not None else (
        "fails" if s.fails else ("may" if not s.sure else ("wasted" if s.wasted else "ok")))
    tile = tile_name(s.tile)
    mp: str = _mp(lang, s.mp, more_mp and not s.robot)
    ap = str(s.ap)
    if not s.sure:
        tile, mp, ap = render(lang, "preview.tile_may", tile=tile), render(lang, "preview.unknown"), \
            render(lang, "preview.unknown")
    return render(lang, key, flag=render(lang, f"preview.flag.{flag}"), step=s.number, text=s.text or "-",
                  tile=tile, mp=mp, ap=ap, here=here)


def _mp(lang: str, mp: int, more: bool) -> str:
    return render(lang, "preview.mp_more", mp=mp, more=mp + 1) if more else str(mp)


def _reason(x: Problem, lang: str) -> str:
    """A step's problem or note without its "Step n:" (the preview's line names the step)."""
    from sheetgm.core.observe import display_params

    return render(lang, x.code, **display_params(lang, x.params))


@record
class _Seen:
    """What the watch records after each night step (index 0: before the first)."""

    tile: dict[int, Tile] = field(default_factory=dict)  # the acting piece's
    own: dict[int, Tile] = field(default_factory=dict)
    robot: dict[int, Tile | None] = field(default_factory=dict)
    points: dict[int, tuple[int, int, int, int]] = field(default_factory=dict)
    here: dict[int, tuple[str, ...]] = field(default_factory=dict)
    held: dict[int, bool] = field(default_factory=dict)
    downed: dict[int, bool] = field(default_factory=dict)
    no_room: dict[int, tuple[str, ...]] = field(default_factory=dict)  # the items the acting piece has no room for
    around: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = field(default_factory=dict)  # here: hers, robot's


def preview(state: State, seat: int, order: Order, others: Mapping[int, Order] | None = None) -> Preview:
    """The order's preview for its player, on ``state`` as her stage will start it (given back unchanged)."""
    p0 = state.players.get(seat)
    if p0 is None:
        return Preview(seat, (0, 0), 0, 0, review=review_order(state, seat, order, others))
    start = p0.pos
    known_chest = {start: bool(state.chests.get(start))} if start in state.board.chests and p0.is_survivor else {}
    seen = _Seen()

    def watch(i: int, ctx: Ctx, p: Player, b: Budget) -> None:
        step = order.steps[i - 1] if i else None
        piece = _piece(ctx, p, step)
        robot = robot_of(ctx, p)
        seen.tile[i], seen.own[i] = piece.pos, p.pos
        seen.robot[i] = robot.pos if robot is not None and robot.in_play else None
        seen.points[i] = (b.mp, b.ap, b.robot_mp, b.robot_ap)
        seen.here[i] = _here(ctx, p, piece.pos, known_chest)
        seen.around[i] = (seen.here[i] if piece is p else _here(ctx, p, p.pos, known_chest),
                          seen.here[i] if piece is robot else
                          _here(ctx, p, robot.pos, known_chest) if seen.robot[i] is not None and robot else ())
        seen.held[i] = bool(p.flags.get("held"))
        seen.downed[i] = p.downed
        inner = step.step if isinstance(step, RobotStep) else step
        if isinstance(inner, Search):
            seen.no_room[i] = tuple(x for x in ITEMS if not ctx.fits(piece, [*piece.items, x]))

    review = review_order(state, seat, order, others, watch)
    if not seen.points:  # out of play, or no such seat: nothing was played
        return Preview(seat, start, 0, 0, general=tuple(review.problems + review.notes), review=review)
    mp, ap = seen.points[0][:2]
    at: dict[int, list[Problem]] = {}
    noted: dict[int, list[Problem]] = {}
    general = [x for x in (*review.problems, *review.notes) if x.step is None or x.day]
    for x in review.problems:
        if x.step is not None and not x.day:
            at.setdefault(x.step, []).append(x)
    for x in review.notes:  # a day gift given on may have a note (RUL-29): it is no night step's
        if x.step is not None and not x.day:
            noted.setdefault(x.step, []).append(x)
    for i, why in _hidden(order, seen, p0, at).items():
        noted.setdefault(i, []).append(why)
    warned, wasted = _warnings(state, order, seen, known_chest, p0, at)
    more = p0.role == "werewolf" and p0.flags.get("no_mp_night") != state.night
    steps = _grouped(order, seen, at, noted, warned, wasted)
    if any(x.code == STUNNED for x in general):  # he does not act tonight: no step runs (his general note says so)
        steps = tuple(replace(s, path=(), tile=start, mp=mp, ap=ap, here=seen.around[0][0], notes=(), warnings=(),
                              cancelled_by=0, sure=True, wasted=False) for s in steps)
    return Preview(seat, start, mp, ap, steps, tuple(general), review, more)


def _grouped(order: Order, seen: _Seen, at: dict[int, list[Problem]], noted: dict[int, list[Problem]],
             warned: dict[int, list[Problem]], wasted: set[int]) -> tuple[StepPreview, ...]:
    """Night steps grouped by the written step they come from. From the first step that fails on, nothing
    runs: that step leaves the piece where the failure found it, and so do the ones after it. From the first
    step with a note on (what she cannot know), tile, points and success are a "may", unless a step before
    it surely fails."""
    fail = next((i for i in sorted(at) if any(x.code != HELD for x in at[i])), None)
    unsure = min(noted, default=len(order.steps) + 1)
    out: list[StepPreview] = []
    failed: int | None = None
    i = 1
    while i <= len(order.steps):
        number, text = order.label(i)
        first = i
        while i + 1 <= len(order.steps) and order.label(i + 1)[0] == number:
            i += 1
        idx = range(first, i + 1)
        robot = isinstance(order.steps[i - 1], RobotStep)
        stop = i if fail is None or fail > i else fail - 1  # the last night step of the group that runs
        path: list[Tile] = []
        for j in range(first, stop + 1):
            if seen.tile[j] != (path[-1] if path else _before(seen, first, robot)):
                path.append(seen.tile[j])
        if fail is None or fail > i:
            tile, points, here = seen.tile[i], seen.points[i], seen.here[i]
        else:
            tile, points, here = _before(seen, fail, robot), seen.points[fail], seen.around[fail - 1][1 if robot else 0]
        mp, ap, rmp, rap = points
        problems = _once([replace(x, step=number) for j in idx for x in at.get(j, [])])  # a path's failure once
        sure = i < unsure or (fail is not None and fail < unsure and fail <= i)
        done = stop >= first and all(j in wasted for j in range(first, stop + 1)) and stop == i
        out.append(StepPreview(number, text, tuple(path), tile, robot, rmp if robot else mp,
                               rap if robot else ap, here,
                               problems, tuple(replace(x, step=number) for j in idx for x in noted.get(j, [])),
                               tuple(replace(x, step=number) for j in idx for x in warned.get(j, []))
                               if failed is None else (), failed,
                               sure, done and sure))
        if failed is None and any(x.code != HELD for x in problems):
            failed = number
        i += 1
    return tuple(out)


def _before(seen: _Seen, i: int, robot: bool) -> Tile:
    """Where the piece of night step ``i`` stands before it."""
    if robot:
        return seen.robot.get(i - 1) or seen.tile[i]
    return seen.own[i - 1]


def _once(xs: list[Problem]) -> tuple[Problem, ...]:
    seen: set[tuple[str, str]] = set()
    out = []
    for x in xs:
        key = (x.code, repr(sorted(x.params.items())))
        if key not in seen:
            seen.add(key)
            out.append(x)
    return tuple(out)


def _is_move(step: Step) -> bool:
    return isinstance(step, (Move, Cross, Vault, Force))


def _moves_piece(step: Step) -> bool:
    """A step meant to take its piece to another tile."""
    inner = step.step if isinstance(step, RobotStep) else step
    return _is_move(inner) or (isinstance(inner, Skill) and inner.skill in _MOVING_SKILLS) or \
        (isinstance(inner, UseItem) and inner.item in _MOVING_ITEMS)


def _piece(ctx: Ctx, p: Player, step: Step | None) -> Player:
    if isinstance(step, RobotStep):
        robot = robot_of(ctx, p)
        if robot is not None:
            return robot
    return p


def _here(ctx: Ctx, p: Player, t: Tile, known_chest: Mapping[Tile, bool]) -> tuple[str, ...]:
    """What the player knows is on tile ``t`` (public map, her passages, her last report's chest)."""
    st, board = ctx.state, ctx.state.board
    out: list[str] = []
    if t in board.generators:
        out.append("generator")
    if t in board.chests:
        out.append("chest" if t not in known_chest else ("chest_full" if known_chest[t] else "chest_empty"))
    if t in board.gates:
        out.append("gate")
    if any(t in pa.ends for pa in known_passages(st, p.seat)):
        out.append("passage")
    if t in st.traps:
        out.append("trap")
    return tuple(out)


MAY_HEAL = "preview.may.heal"
MAY_ADRENALINE = "preview.may.adrenaline"
MAY_ADRENALINE_SELF = "preview.may.adrenaline_self"  # on herself, not Downed: it fails unless she is downed first
MAY_NOISE = "preview.may.noise"
MAY_CHAIN = "preview.may.chain"


def _hidden(order: Order, seen: _Seen, p: Player, at: Mapping[int, list[Problem]]) -> dict[int, Problem]:
    """Night steps whose success or tile hangs on what she cannot know and the checker does not note: where
    another survivor stands and whether she is Downed (a heal, Adrenaline), tonight's noise markers (the
    Ripper's entrance), whom the chain claw catches (where the Bane ends). Not a step the checker finds a problem
    in: each of these rules checks what she knows first, so that it fails at resolution too."""
    out: dict[int, Problem] = {}
    me = alias_key(p.alias)
    for i, step in enumerate(order.steps, 1):
        inner = step.step if isinstance(step, RobotStep) else step
        if any(x.code != HELD for x in at.get(i, [])):
            continue
        if isinstance(inner, Heal) and (alias_key(inner.target) != me or isinstance(step, RobotStep)):
            out[i] = Problem(MAY_HEAL, {"alias": inner.target}, i)
        elif isinstance(inner, UseItem) and inner.item == "adrenaline":
            if (inner.whom is not None and alias_key(inner.whom) != me) or isinstance(step, RobotStep):
                out[i] = Problem(MAY_ADRENALINE, {"alias": inner.whom or p.alias}, i)
            elif not seen.downed.get(i - 1, False):  # (the checker passes it: use_item asks at resolution)
                out[i] = Problem(MAY_ADRENALINE_SELF, {}, i)
        elif isinstance(inner, Skill) and inner.skill == "appear" and len(inner.tiles) == 1:
            out[i] = Problem(MAY_NOISE, {"tile": tile_name(inner.tiles[0])}, i)
        elif isinstance(inner, Attack) and inner.direction is not None and p.role == "bane":
            out[i] = Problem(MAY_CHAIN, {}, i)
    return out


def _warnings(state: State, order: Order, seen: _Seen, known_chest: Mapping[Tile, bool], p: Player,
              at: Mapping[int, list[Problem]]) -> tuple[dict[int, list[Problem]], set[int]]:
    """Night step -> why it will most likely be wasted, from what the player knows only; and the night steps
    that surely do nothing when they run (a held move, a move or a skill that goes nowhere). (A crack past the
    generator's nightly cap needs two cracks of one order on one generator: one survivor has one AP.)"""
    out: dict[int, list[Problem]] = {}
    wasted: set[int] = set()
    searched: set[tuple[bool, Tile]] = set()
    prayed = any(isinstance(d, Pray) for d in order.day) or bool(p.flags.get("pray"))
    for i, step in enumerate(order.steps, 1):
        robot = isinstance(step, RobotStep)
        inner = step.step if isinstance(step, RobotStep) else step
        where = seen.tile[i]  # a search or a crack does not move the piece
        tile = tile_name(where)
        warn: list[Problem] = []
        problems = at.get(i, [])
        if any(x.code == HELD for x in problems):
            wasted.add(i)
        if isinstance(inner, Search):
            if where not in state.board.chests:
                warn.append(Problem(WARN_NO_CHEST, {"tile": tile}, i))
            elif (robot, where) in searched:
                warn.append(Problem(WARN_SEARCHED, {"tile": tile}, i))
            elif not robot and known_chest.get(where) is False and not prayed:
                warn.append(Problem(WARN_EMPTIED, {"tile": tile}, i))
            searched.add((robot, where))
            warn += _room(seen.no_room.get(i, ()), inner.what, i)
        elif isinstance(inner, Crack) and where in state.board.generators and state.gates_powered:
            warn.append(Problem(WARN_POWERED, {"tile": tile}, i))
        elif _moves_piece(step) and not problems and where == _before(seen, i, robot):
            warn.append(Problem(WARN_NOWHERE, {"tile": tile}, i))
            wasted.add(i)
        if not problems and _is_move(step) and p.is_survivor and seen.own[i] in state.traps \
                and not seen.held[i - 1]:
            warn.append(Problem(WARN_TRAP, {"tile": tile_name(seen.own[i])}, i))
        if warn:
            out[i] = warn
    return out, wasted


def _room(no_room: tuple[str, ...], what: str | None, i: int) -> list[Problem]:
    """A search whose find she has no room for: her bag is full (or, the Doctor's, full but for a potion)."""
    if not no_room or what == "key" or (what is not None and what not in no_room):
        return []
    if len(no_room) == len(ITEMS) or what is not None:
        return [Problem(WARN_NO_ROOM, {}, i)]
    return [Problem(WARN_ROOM_POTION, {"items": list(no_room)}, i)]
