"""What an order will do, step by step, as far as its player can know it (RUL-61, RUL-62).

The checker (``check.review_order``) plays the order in dry mode on what the player knows; the preview
watches it: after each step, the tile the piece stands on, the MP and AP left, what the player knows is
on that tile, the step's problems and notes (what depends on what she cannot know), and a warning before
a step that will most likely be wasted. Steps are grouped as the player wrote them (``Order.label``): a
path of three tiles is one written step.

What the player knows of a tile is the public map (generators, chests, gates, passages on the map, traps,
RUL-1), the passages she knows (RUL-36), and what her last report told her of the tile she stands on
(whether its chest still holds something, ``observe``): never what the state holds beyond that. So the
preview is the same whatever another player holds, where they stand and what the other chests hold.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from sheetgm.core.board import Tile, tile_name
from sheetgm.core.check import Problem, Review, review_order
from sheetgm.core.context import Budget, Ctx
from sheetgm.core.passages import known_passages
from sheetgm.core.roles import robot_of
from sheetgm.core.state import Player, State
from sheetgm.core.steps import Crack, Cross, Force, Move, Order, Pray, RobotStep, Search, Step, Vault
from sheetgm.core.texts import render

HELD = "err.rule.held"  # a trapped survivor's move: it does nothing and the order goes on (RUL-31)
WARN_NO_CHEST = "preview.warn.no_chest"
WARN_EMPTIED = "preview.warn.emptied"
WARN_SEARCHED = "preview.warn.searched"
WARN_POWERED = "preview.warn.powered"
WARN_TRAP = "preview.warn.trap"
WARNINGS = (WARN_NO_CHEST, WARN_EMPTIED, WARN_SEARCHED, WARN_POWERED, WARN_TRAP)
# What a tile may hold as the player knows it (texts ``preview.here.<key>``), in the order they are named.
HERE = ("generator", "chest_full", "chest_empty", "chest", "gate", "passage", "trap")


@dataclass(frozen=True)
class StepPreview:
    """One written step: what it leaves, as far as the player can know."""

    number: int  # the step's number as written (what the player calls "step 3")
    text: str  # the step as written ("" for an order not read from text)
    path: tuple[Tile, ...]  # the tiles the acting piece enters, in order
    tile: Tile  # where the acting piece stands after it
    robot: bool  # the acting piece is the Mechanic's robot
    mp: int  # points the acting piece has left after it
    ap: int
    here: tuple[str, ...]  # what she knows is on ``tile`` (keys of HERE)
    problems: tuple[Problem, ...] = ()
    notes: tuple[Problem, ...] = ()  # what the step depends on that she cannot know (RUL-18, RUL-39)
    warnings: tuple[Problem, ...] = ()  # the step will most likely be wasted
    cancelled_by: int | None = None  # an earlier written step that fails first: at resolution this one never runs


@dataclass(frozen=True)
class Preview:
    """Where an order would take its player and what it would cost, as far as they can know."""

    seat: int
    start: Tile
    mp: int  # the points her action starts with
    ap: int
    steps: tuple[StepPreview, ...] = ()
    general: tuple[Problem, ...] = ()  # problems and notes of no night step (day steps, a stunned hunter)
    review: Review = field(default_factory=Review, compare=False)  # the checker's own answer it was built on

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
        under its step; else only the warnings, as the problems and notes are listed before it)."""
        out = [render(lang, "preview.start", tile=tile_name(self.start), mp=self.mp, ap=self.ap)]
        for s in self.steps:
            out.append(step_line(lang, s))
            if s.cancelled_by is not None:
                out.append(render(lang, "preview.cancelled", first=s.cancelled_by))
            extra = [*s.problems, *s.notes] if full else []
            for x in [*extra, *s.warnings]:
                mark = "preview.mark.problem" if x in s.problems else (
                    "preview.mark.note" if x in s.notes else "preview.mark.warning")
                out.append(render(lang, mark, text=x.message(lang) if x.step is None else _reason(x, lang)))
        return out


def step_line(lang: str, s: StepPreview) -> str:
    here = render(lang, "word.sep").join(render(lang, f"preview.here.{k}") for k in s.here) \
        or render(lang, "preview.here.nothing")
    key = "preview.step_robot" if s.robot else "preview.step"
    return render(lang, key, step=s.number, text=s.text or "-", tile=tile_name(s.tile), mp=s.mp, ap=s.ap, here=here)


def _reason(x: Problem, lang: str) -> str:
    """A step's problem or note without its "Step n:" (the preview's line names the step)."""
    from sheetgm.core.observe import display_params

    return render(lang, x.code, **display_params(lang, x.params))


@dataclass
class _Seen:
    """What the watch records after each night step (index 0: before the first)."""

    tile: dict[int, Tile] = field(default_factory=dict)
    own: dict[int, Tile] = field(default_factory=dict)
    points: dict[int, tuple[int, int, int, int]] = field(default_factory=dict)
    here: dict[int, tuple[str, ...]] = field(default_factory=dict)
    held: dict[int, bool] = field(default_factory=dict)


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
        seen.tile[i], seen.own[i] = piece.pos, p.pos
        seen.points[i] = (b.mp, b.ap, b.robot_mp, b.robot_ap)
        seen.here[i] = _here(ctx, p, piece.pos, known_chest)
        seen.held[i] = bool(p.flags.get("held"))

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
    warned = _warnings(state, order, seen, known_chest, p0)
    return Preview(seat, start, mp, ap, _grouped(order, seen, at, noted, warned), tuple(general), review)


def _grouped(order: Order, seen: _Seen, at: dict[int, list[Problem]], noted: dict[int, list[Problem]],
             warned: dict[int, list[Problem]]) -> tuple[StepPreview, ...]:
    """Night steps grouped by the written step they come from."""
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
        path: list[Tile] = []
        for j in idx:
            if seen.tile[j] != (path[-1] if path else seen.tile[j - 1]):
                path.append(seen.tile[j])
        mp, ap, rmp, rap = seen.points[i]
        problems = _once([replace(x, step=number) for j in idx for x in at.get(j, [])])  # a path's failure once
        out.append(StepPreview(number, text, tuple(path), seen.tile[i], robot, rmp if robot else mp,
                               rap if robot else ap, seen.here[i], problems,
                               tuple(replace(x, step=number) for j in idx for x in noted.get(j, [])),
                               tuple(replace(x, step=number) for j in idx for x in warned.get(j, [])), failed))
        if failed is None and any(x.code != HELD for x in problems):
            failed = number
        i += 1
    return tuple(out)


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


def _warnings(state: State, order: Order, seen: _Seen, known_chest: Mapping[Tile, bool], p: Player
              ) -> dict[int, list[Problem]]:
    """Night step -> why it will most likely be wasted, from what the player knows only."""
    out: dict[int, list[Problem]] = {}
    searched: set[tuple[bool, Tile]] = set()
    prayed = any(isinstance(d, Pray) for d in order.day) or bool(p.flags.get("pray"))
    for i, step in enumerate(order.steps, 1):
        robot = isinstance(step, RobotStep)
        inner = step.step if isinstance(step, RobotStep) else step
        where = seen.tile[i]  # a search or a crack does not move the piece
        tile = tile_name(where)
        warn: list[Problem] = []
        if isinstance(inner, Search):
            if where not in state.board.chests:
                warn.append(Problem(WARN_NO_CHEST, {"tile": tile}, i))
            elif (robot, where) in searched:
                warn.append(Problem(WARN_SEARCHED, {"tile": tile}, i))
            elif not robot and known_chest.get(where) is False and not prayed:
                warn.append(Problem(WARN_EMPTIED, {"tile": tile}, i))
            searched.add((robot, where))
        elif isinstance(inner, Crack) and where in state.board.generators and state.gates_powered:
            warn.append(Problem(WARN_POWERED, {"tile": tile}, i))
        elif _is_move(step) and p.is_survivor and seen.own[i] in state.traps and not seen.held[i - 1]:
            warn.append(Problem(WARN_TRAP, {"tile": tile_name(seen.own[i])}, i))
        if warn:
            out[i] = warn
    return out
