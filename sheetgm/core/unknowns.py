"""What the checker cannot know yet, and the later steps that depend on it (RUL-18, RUL-27).

A dry Search finds nothing the checker can see: a chest's item, a lying item or a secret passage
are hidden. So when a later step of the same order fails for want of exactly such a thing (an item
to use or drop, a passage from the searched tile), the checker does not call it a problem: it
notes "depends on what the search finds", lets the search find that thing on its private copy and
goes on. Likewise an item given away in the day (the receiver may have no room, and then it stays),
where the Bane stands after his chain claw (it depends on whether it catches a survivor) and the
Werewolf's Bloodlust MP (it depends on whether a survivor is Injured).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sheetgm.core.board import Tile, adjacent, edge_key
from sheetgm.core.context import Budget, Ctx, Illegal
from sheetgm.core.roles import robot_of
from sheetgm.core.state import Passage, Player
from sheetgm.core.steps import Attack, Move, RobotStep, Search, Step

# Failures that depend on where the piece stands (or on the points a step there would have cost).
WHERE = frozenset(f"err.rule.{c}" for c in (
    "not_adjacent", "same_tile", "wall", "obstacle", "board", "off_map", "no_obstacle", "block_not_open",
    "board_exists", "block_flat", "block_not_here", "too_far", "chain_wall", "trap_exists", "no_mp",
))

SEARCH = "check.note.search"
GIFT = "check.note.gift"
CHAIN = "check.note.chain"
BLOODLUST = "check.note.bloodlust"


@dataclass
class Unknowns:
    searches: list[tuple[int, Tile, str | None]] = field(default_factory=list)  # (piece, tile, what) not yet used
    gifts: list[str] = field(default_factory=list)  # items given away in the day: the receiver may have no room
    chain: bool = False  # after the chain claw, where the Bane stands is unknown
    bloodlust: bool = False  # the Werewolf's +1 MP has been granted

    def after(self, ctx: Ctx, p: Player, step: Step) -> None:
        """Record what a step that passed leaves unknown."""
        piece, inner = _piece(ctx, p, step)
        if isinstance(inner, Search):
            self.searches.append((piece.seat, piece.pos, inner.what))
        elif isinstance(inner, Attack) and inner.direction is not None and piece.role == "bane":
            self.chain = True

    def explain(self, ctx: Ctx, p: Player, b: Budget, step: Step, exc: Illegal) -> tuple[str, bool] | None:
        """(note, retry) when the failure may not happen at resolution, after granting on the checker's
        copy what the night may bring; None when it is a problem."""
        if self.chain and exc.code in WHERE:
            return CHAIN, False
        piece, inner = _piece(ctx, p, step)
        code = exc.code
        if code == "err.rule.not_holding" and piece is p and str(exc.params["item"]) in self.gifts:
            self.gifts.remove(str(exc.params["item"]))
            p.items.append(str(exc.params["item"]))
            return GIFT, True
        if code == "err.rule.not_holding" and piece is p and self._take(p.seat, (None, str(exc.params["item"]))):
            p.items.append(str(exc.params["item"]))
            return SEARCH, True
        if code == "err.rule.not_adjacent" and isinstance(inner, Move) and self._passage(ctx, piece, inner.to):
            return SEARCH, True
        if (code == "err.rule.no_mp" and piece is p and p.role == "werewolf" and not self.bloodlust
                and p.flags.get("no_mp_night") != ctx.state.night):
            self.bloodlust = True
            b.mp += 1
            return BLOODLUST, True
        return None

    def _take(self, seat: int, finds: tuple[str | None, ...]) -> bool:
        """Use up one of the piece's searches that may find one of ``finds``."""
        mine = [s for s in self.searches if s[0] == seat and s[2] in finds]
        if mine:
            self.searches.remove(mine[0])
        return bool(mine)

    def _passage(self, ctx: Ctx, piece: Player, to: Tile) -> bool:
        """A passage the search may discover from the searched tile, unless either end is a known passage's.

        Hidden passages count for nothing here, so that the answer never tells whether one exists."""
        st = ctx.state
        here = piece.pos
        if (not st.board.in_bounds(to) or adjacent(here, to) or _known_end(ctx, piece, here)
                or _known_end(ctx, piece, to)):
            return False
        mine = [s for s in self.searches if s[0] == piece.seat and s[1] == here]
        if not mine:
            return False
        self.searches.remove(mine[0])
        found = st.passage_between(here, to)
        if found is None:
            found = Passage(ends=edge_key(here, to))
            st.passages.append(found)
        found.learn(piece)
        return True


def _known_end(ctx: Ctx, piece: Player, t: Tile) -> bool:
    """An end of a passage on the public map or one the piece knows (RUL-36)."""
    return any(t in pa.ends and (pa.owner is None or pa.known_to(piece)) for pa in ctx.state.passages)


def _piece(ctx: Ctx, p: Player, step: Step) -> tuple[Player, Step]:
    """The piece that takes the step (the Mechanic's robot for a robot step) and the step itself."""
    if isinstance(step, RobotStep):
        robot = robot_of(ctx, p)
        return (robot if robot is not None else p), step.step
    return p, step
