"""Movement (R-ORDER-2, R-MAP-5..7, hunters' movement rules of R-ACT).

Each function checks everything first and raises ``Illegal`` before it
changes anything. Dry (checker) mode moves the piece on the checker's copy
the same way: boards, traps and positions are public, and events and noise
are not recorded in dry mode.
"""

from __future__ import annotations

from sheetgm.core.board import (
    EDGE_BOARD,
    EDGE_OBSTACLE,
    EDGE_OPEN,
    EDGE_WALL,
    Edge,
    Tile,
    adjacent,
    edge_key,
    edge_name,
    tile_name,
)
from sheetgm.core.context import Budget, Ctx, Held, Illegal, known_passage
from sheetgm.core.state import HUNTER, Player


def leave_check(p: Player, b: Budget) -> None:
    """A trapped survivor cannot leave her tile; one who used Escape cannot move (RUL-11)."""
    if p.flags.get("held"):
        raise Held(tile_name(p.pos))
    if b.escaped:
        raise Illegal("err.rule.escaping")


def step_cost(ctx: Ctx, p: Player, to: Tile) -> tuple[int, Edge | None]:
    """MP cost and edge kind of a plain move step from p's tile to ``to``; raises Illegal."""
    # Every step of every order comes here, in the checker and the resolver: the board's tables are read
    # directly (in_bounds, adjacent, Ctx.edge and same_flat_region spelt out).
    st = ctx.state
    board = st.board
    here = p.pos
    x, y = to
    if not (0 <= x < board.width and 0 <= y < board.height):
        raise Illegal("err.rule.off_map", tile=tile_name(to))
    if to == here:
        raise Illegal("err.rule.same_tile", tile=tile_name(to))
    if abs(x - here[0]) + abs(y - here[1]) != 1:
        if known_passage(st, p, here, to):
            return 1, None
        raise Illegal("err.rule.not_adjacent", frm=tile_name(here), tile=tile_name(to))
    kind = board.edge_kinds.get((here, to), EDGE_WALL)
    if kind is EDGE_OPEN:
        boards = st.boards
        if boards and ((here, to) if here <= to else (to, here)) in boards:
            if not p.is_hunter:
                raise Illegal("err.rule.board", frm=tile_name(here), tile=tile_name(to))
            return 1, EDGE_BOARD
        region = board.flat_region.get(here)
        return (0 if region is not None and region == board.flat_region.get(to) else 1), kind
    if kind is EDGE_WALL:
        raise Illegal("err.rule.wall", frm=tile_name(here), tile=tile_name(to))
    raise Illegal("err.rule.obstacle", frm=tile_name(here), tile=tile_name(to))


def move(ctx: Ctx, p: Player, b: Budget, to: Tile, *, paid_by_ap: bool = False) -> None:
    """A move step; ``paid_by_ap`` is the hunter's Force (强行[1])."""
    if (p.flags and p.flags.get("held")) or b.escaped:
        leave_check(p, b)  # (raises)
    cost, kind = step_cost(ctx, p, to)
    if paid_by_ap:
        if b.ap < 1:
            raise Illegal("err.rule.no_ap", need=1, have=b.ap)
    elif b.mp < cost:
        raise Illegal("err.rule.no_mp", need=cost, have=b.mp)
    if paid_by_ap:
        b.ap -= 1
    else:
        b.mp -= cost
    frm = p.pos
    if kind is EDGE_BOARD:
        ctx.state.boards.discard(edge_key(frm, to))
        ctx.emit("board_broken", public=True, actor=p.seat, edge=edge_name(edge_key(frm, to)))
    relocate(ctx, p, to, how="force" if paid_by_ap else "move")


def plain_move(ctx: Ctx, p: Player, b: Budget, to: Tile) -> bool:
    """``move`` for the resolver's commonest step, a Move to a neighbour over an open edge without a board, the MP
    for it at hand: played here with ``relocate``'s effects but without the rule's calls (True). False, with nothing
    changed, for every other case, which ``move`` plays (tests/test_engine_plain_move.py holds the two together)."""
    if b.escaped or (p.flags and p.flags.get("held")):
        return False
    here = p.pos
    if abs(to[0] - here[0]) + abs(to[1] - here[1]) != 1:
        return False
    st = ctx.state
    board = st.board
    if board.edge_kinds.get((here, to)) is not EDGE_OPEN or \
            (st.boards and ((here, to) if here <= to else (to, here)) in st.boards):
        return False  # (an edge off the map is no key of edge_kinds)
    region = board.flat_region.get(here)
    cost = 0 if region is not None and region == board.flat_region.get(to) else 1
    if b.mp < cost:
        return False
    b.mp -= cost
    p.pos = to
    if not ctx.dry:
        ctx.tell("moved", p, {"frm": tile_name(here), "tile": tile_name(to), "how": "move"})
    if p.camp == HUNTER:
        discover(ctx, p)
    elif to in st.traps:
        spring_trap(ctx, p)
    return True


def cross(ctx: Ctx, p: Player, b: Budget, to: Tile, *, by_vault: bool) -> None:
    """Crossing an obstacle edge: forced (MP) or by the Vault action (R-ACT-VAULT, R-ACT-HVAULT)."""
    leave_check(p, b)
    st = ctx.state
    if not st.board.in_bounds(to):
        raise Illegal("err.rule.off_map", tile=tile_name(to))
    if not adjacent(p.pos, to):
        raise Illegal("err.rule.not_adjacent", frm=tile_name(p.pos), tile=tile_name(to))
    if ctx.edge(p.pos, to) is not EDGE_OBSTACLE:
        raise Illegal("err.rule.no_obstacle", frm=tile_name(p.pos), tile=tile_name(to))
    mp = ap = 0
    if by_vault:
        if p.role == "mercenary" and p.is_survivor:
            mp = 1  # Mercenary: vault costs 1 MP instead of 1 AP
        else:
            ap = 1
    else:
        mp = 2 if p.is_hunter else 3
    if b.mp < mp:
        raise Illegal("err.rule.no_mp", need=mp, have=b.mp)
    if b.ap < ap:
        raise Illegal("err.rule.no_ap", need=ap, have=b.ap)
    b.mp -= mp
    b.ap -= ap
    relocate(ctx, p, to, how="vault" if by_vault else "cross")
    if p.is_survivor:
        ctx.noise(to, "vault" if by_vault else "cross", p.seat)


def teleport_check(ctx: Ctx, p: Player, b: Budget, to: Tile, reach: int) -> None:
    """Checks for effects that put a piece on any tile within ``reach`` (edges ignored)."""
    from sheetgm.core.board import distance

    leave_check(p, b)
    if not ctx.state.board.in_bounds(to):
        raise Illegal("err.rule.off_map", tile=tile_name(to))
    if distance(p.pos, to) > reach:
        raise Illegal("err.rule.too_far", tile=tile_name(to), reach=reach)


def relocate(ctx: Ctx, p: Player, to: Tile, how: str) -> None:
    """Put p on ``to`` and apply what entering a tile does: traps for survivors
    (R-ROLE-BANE), discovery for hunters (R-SENSE-1)."""
    frm = p.pos
    p.pos = to
    if not ctx.dry:
        ctx.tell("moved", p, {"frm": tile_name(frm), "tile": tile_name(to), "how": how})
    if p.camp == HUNTER:
        discover(ctx, p)
    elif frm != to and to in ctx.state.traps:
        spring_trap(ctx, p)


def spring_trap(ctx: Ctx, p: Player) -> None:
    """A survivor entering a trap's tile is held there for the night; the trap makes noise and vanishes."""
    st = ctx.state
    here = p.pos
    if p.is_survivor and here in st.traps:
        del st.traps[here]
        p.flags["held"] = True
        ctx.emit("trapped", to=(p.seat,), actor=p.seat, tile=tile_name(here))
        ctx.emit("trap_sprung", public=True, tile=tile_name(here))
        ctx.noise(here, "trap", p.seat)


def discover(ctx: Ctx, hunter: Player) -> None:
    """R-SENSE-1: every survivor on the hunter's tile is found (dark does not hide)."""
    if ctx.dry:
        return  # nothing but events, which a dry context does not keep
    for s in ctx.state.at(hunter.pos, "survivor"):
        ctx.emit("discovered", to=(hunter.seat,), actor=hunter.seat, alias=s.alias, tile=tile_name(s.pos),
                 robot=s.is_robot)
