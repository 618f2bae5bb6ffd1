"""What the checker cannot know yet, and the later steps that depend on it (RUL-18, RUL-27, RUL-39).

A dry Search finds nothing the checker can see: a chest's item, a lying item or a secret passage
are hidden. So when a later step of the same order fails for want of exactly such a thing (an item
to use or drop, a passage from the searched tile), the checker does not call it a problem: it
notes "depends on what the search finds", lets the search find that thing on its private copy and
goes on. Likewise an item given away in the day (the receiver may have no room, and then it stays),
where the Bane stands after his chain claw (it depends on whether it catches a survivor) and the
Werewolf's Bloodlust MP (it depends on whether a survivor is Injured).

Other players' orders of the same stage (RUL-39): what they address to this player (a gift to her,
a heal or Adrenaline that gets her up) is used, each at most once and only where she could hold it (a
gift to her may be given on in the day, RUL-29);
a board another player may take down (or break) before her step is noted whatever they wrote. Each
thing granted excuses one failure of its own kind: a note never covers a failure it cannot explain.
"""

from __future__ import annotations

from sheetgm.core.board import Tile, adjacent, edge_key, parse_tile
from sheetgm.core.context import Budget, Ctx, Illegal, lift_downed_limits
from sheetgm.core.others import Brought
from sheetgm.core.roles import robot_of
from sheetgm.core.state import Passage, Player
from sheetgm.core.steps import Attack, Block, Move, RobotStep, Search, Step
from sheetgm.core.values import field, record

# Failures that depend on where the piece stands (or on the points a step there would have cost).
WHERE = frozenset(f"err.rule.{c}" for c in (
    "not_adjacent", "same_tile", "wall", "obstacle", "board", "off_map", "no_obstacle", "block_not_open",
    "board_exists", "block_flat", "block_not_here", "too_far", "chain_wall", "trap_exists", "no_mp",
))
# Failures for want of the points or the status a heal before her action would give back (RUL-6).
DOWNED = frozenset(f"err.rule.{c}" for c in ("no_mp", "no_ap", "downed_no_ap", "heal_self_downed"))

SEARCH = "check.note.search"
GIFT = "check.note.gift"
CHAIN = "check.note.chain"
BLOODLUST = "check.note.bloodlust"
GIFT_IN = "check.note.gift_in"
HEAL = "check.note.heal"
BOARD = "check.note.board"
BOARD_BROKEN = "check.note.board_broken"
STUNNED = "check.note.stunned"  # the whole order: a stunned hunter does not act (check.py)
NOTES = (SEARCH, GIFT, CHAIN, BLOODLUST, GIFT_IN, HEAL, BOARD, BOARD_BROKEN, STUNNED)
Explained = tuple[str, dict[str, str], bool]  # (the note, its own parameters, whether to try the step again)


@record
class Unknowns:
    """What an order depends on that its player cannot know yet (searches, gifts...)."""

    searches: list[tuple[int, Tile, str | None]] = field(default_factory=list)  # (piece, tile, what) not yet used
    gifts: list[str] = field(default_factory=list)  # items given away in the day: the receiver may have no room
    chain: bool = False  # after the chain claw, where the Bane stands is unknown
    bloodlust: bool = False  # the Werewolf's +1 MP has been granted
    brought: Brought = field(default_factory=Brought)  # what the other orders address to her (not yet used)
    night_items: list[str] = field(default_factory=list)  # what she holds as the night starts (her gifts gone)

    def after(self, ctx: Ctx, p: Player, step: Step) -> None:
        """Record what a step that passed leaves unknown."""
        piece, inner = _piece(ctx, p, step)
        if isinstance(inner, Search):
            self.searches.append((piece.seat, piece.pos, inner.what))
        elif isinstance(inner, Attack) and inner.direction is not None and piece.role == "bane":
            self.chain = True

    def give_away(self, ctx: Ctx, p: Player, item: str) -> tuple[str, dict[str, str]] | None:
        """One of her day gifts on the checker's copy of her hands, as written (RUL-29): what she holds leaves
        them (the receiver may have no room: ``gifts``). Else the note it depends on: an item she gave away
        earlier may come back (its receiver had no room) and be given again; a gift to her of that item may
        pass on through her hands if she has room for it then. Else the gift is a problem."""
        if item == "key":  # keys need no room: one given away never comes back
            if p.keys > 0:
                p.keys -= 1
                return None
            if self.brought.keys:
                return GIFT_IN, {"alias": self.brought.keys.pop(0)}
            raise Illegal("err.rule.no_keys")
        if item in p.items:
            p.items.remove(item)
            self.gifts.append(item)
            return None
        if item in self.gifts:
            return GIFT, {}
        offered = [g for g in self.brought.gifts if g[1] == item]
        if offered and ctx.fits(p, [*p.items, item]):
            self.brought.gifts.remove(offered[0])
            self.gifts.append(item)
            return GIFT_IN, {"alias": offered[0][0]}
        raise Illegal("err.rule.not_holding", item=item)

    def explain(self, ctx: Ctx, p: Player, b: Budget, step: Step, exc: Illegal) -> Explained | None:
        """(note, its own parameters, retry) when the failure may not happen at resolution, after granting on
        the checker's copy what the night may bring; None when it is a problem."""
        if self.chain and exc.code in WHERE:
            return CHAIN, {}, False
        piece, inner = _piece(ctx, p, step)
        code = exc.code
        mine = piece is p
        item = str(exc.params.get("item", ""))
        if code == "err.rule.not_holding" and mine and item in self.gifts:
            self.gifts.remove(item)
            p.items.append(item)
            return GIFT, {}, True
        giver = self._received(ctx, p, item) if code == "err.rule.not_holding" and mine else None
        if giver is not None:
            return GIFT_IN, {"alias": giver}, True
        if code == "err.rule.gates_closed" and mine and self.brought.keys:
            giver = self.brought.keys[0]
            p.keys += len(self.brought.keys)
            self.brought.keys.clear()
            return GIFT_IN, {"alias": giver}, True
        if code == "err.rule.not_holding" and mine and self._take(p.seat, (None, item)):
            p.items.append(item)
            return SEARCH, {}, True
        if code == "err.rule.not_adjacent" and isinstance(inner, Move) and self._passage(ctx, piece, inner.to):
            return SEARCH, {}, True
        if code in DOWNED and mine and p.downed and self.brought.healers:
            healer = self.brought.healers[0]
            self.brought.healers.clear()  # one heal gets her up; a second one changes nothing
            p.downed = False
            lift_downed_limits(p, b)
            return HEAL, {"alias": healer}, True
        if code == "err.rule.board" and self.brought.survivors_about:
            return self._board_gone(ctx, exc, BOARD)
        if code == "err.rule.board_exists" and isinstance(inner, Block) and self.brought.hunters_about:
            return self._board_gone(ctx, exc, BOARD_BROKEN, edge_key(inner.a or piece.pos, inner.b))
        if (code == "err.rule.no_mp" and mine and p.role == "werewolf" and not self.bloodlust
                and p.flags.get("no_mp_night") != ctx.state.night):
            self.bloodlust = True
            b.mp += 1
            return BLOODLUST, {}, True
        return None

    def _received(self, ctx: Ctx, p: Player, item: str) -> str | None:
        """Use up a gift of ``item`` to her that she has room for as the night starts (RUL-29): its giver."""
        offered = [g for g in self.brought.gifts if g[1] == item]
        if not offered or not ctx.fits(p, [*self.night_items, item]):
            return None
        self.brought.gifts.remove(offered[0])
        self.night_items.append(item)
        p.items.append(item)
        return offered[0][0]

    def _board_gone(self, ctx: Ctx, exc: Illegal, note: str, edge: tuple[Tile, Tile] | None = None
                    ) -> Explained | None:
        """The board the step meets may be gone by then: taken down on the checker's copy."""
        if edge is None:
            a, c = parse_tile(str(exc.params.get("frm", ""))), parse_tile(str(exc.params.get("tile", "")))
            if a is None or c is None:
                return None
            edge = edge_key(a, c)
        if edge not in ctx.state.boards:
            return None
        ctx.state.boards.discard(edge)
        return note, {}, True

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
