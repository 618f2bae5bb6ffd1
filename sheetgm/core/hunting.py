"""Hunter main actions (R-ACT-ATTACK … R-ACT-HVAULT) and sensing (R-SENSE-2, R-SENSE-3)."""

from __future__ import annotations

from collections.abc import Iterable

from sheetgm.core.board import (
    DIRECTIONS,
    EDGE_BOARD,
    EDGE_OPEN,
    EDGE_WALL,
    Tile,
    adjacent,
    distance,
    edge_key,
    edge_name,
    tile_name,
)
from sheetgm.core.context import Budget, Ctx, Illegal
from sheetgm.core.moves import relocate
from sheetgm.core.state import Player
from sheetgm.core.survivor_actions import spend_ap


def sense(ctx: Ctx, hunter: Player, tiles: Iterable[Tile], how: str) -> None:
    """A 感知 effect: survivors on ``tiles`` are exposed to the hunter unless on a dark tile (R-SENSE-3)."""
    st = ctx.state
    wanted = set(tiles)
    found = [s for s in st.survivors(robots=True) if s.pos in wanted and s.pos not in st.board.dark]
    ctx.emit("sensed", to=(hunter.seat,), actor=hunter.seat, how=how,
             found=[{"alias": s.alias, "tile": tile_name(s.pos), "robot": s.is_robot} for s in found])


def around(ctx: Ctx, tile: Tile) -> list[Tile]:
    """四周一格: the four neighbours with open edges (R-SENSE-2), no board on them (``Ctx.sight`` spelt out: every
    briefing and every hunter bot's view asks)."""
    st = ctx.state
    kinds, boards = st.board.edge_kinds, st.boards
    return [n for n in st.board.neighbour_map.get(tile, ())
            if kinds.get((tile, n)) is EDGE_OPEN and not (boards and ((tile, n) if tile <= n else (n, tile)) in boards)]


def lines_of_sight(ctx: Ctx, tile: Tile) -> list[Tile]:
    """远眺: the four straight lines until a non-open edge or the border (R-ACT-GAZE)."""
    st = ctx.state
    kinds, boards = st.board.edge_kinds, st.boards  # (Ctx.sight spelt out; an edge off the map is no key)
    out: list[Tile] = []
    for dx, dy in DIRECTIONS.values():
        cur = tile
        while True:
            nxt = (cur[0] + dx, cur[1] + dy)
            if kinds.get((cur, nxt)) is not EDGE_OPEN or \
                    (boards and ((cur, nxt) if cur <= nxt else (nxt, cur)) in boards):
                break
            out.append(nxt)
            cur = nxt
    return out


def gaze(ctx: Ctx, p: Player, b: Budget) -> None:
    spend_ap(p, b)
    end_stealth(ctx, p)
    if not ctx.dry:
        sense(ctx, p, lines_of_sight(ctx, p.pos), "gaze")


def listen(ctx: Ctx, p: Player, b: Budget) -> None:
    spend_ap(p, b)
    end_stealth(ctx, p)
    if not ctx.dry:
        tiles = ctx.state.board.within(p.pos, 3)
        sense(ctx, p, tiles, "listen")


def end_stealth(ctx: Ctx, p: Player) -> None:
    """R-STATUS-STEALTH: removed after the hunter performs any main action."""
    if p.stealth:  # also in dry mode: the player knows their own Stealth
        p.stealth = False
        ctx.emit("stealth_lost", to=(p.seat,), actor=p.seat)


def block(ctx: Ctx, p: Player, b: Budget, a: Tile | None, to: Tile) -> None:
    st = ctx.state
    frm = p.pos if a is None else a
    if frm != p.pos and p.role != "ember":
        raise Illegal("err.rule.block_not_here", tile=tile_name(frm))
    if not (st.board.in_bounds(frm) and st.board.in_bounds(to) and adjacent(frm, to)):
        raise Illegal("err.rule.not_adjacent", frm=tile_name(frm), tile=tile_name(to))
    kind = ctx.edge(frm, to)
    if kind is EDGE_BOARD:
        raise Illegal("err.rule.board_exists", edge=edge_name(edge_key(frm, to)))
    if kind is not EDGE_OPEN:
        raise Illegal("err.rule.block_not_open", edge=edge_name(edge_key(frm, to)))
    if st.board.touches_flat(frm, to):
        raise Illegal("err.rule.block_flat", edge=edge_name(edge_key(frm, to)))
    spend_ap(p, b, 2)
    end_stealth(ctx, p)
    st.boards.add(edge_key(frm, to))
    ctx.emit("board_placed", public=True, actor=p.seat, edge=edge_name(edge_key(frm, to)))


def attack(ctx: Ctx, p: Player, b: Budget, direction: str | None, at: Tile | None) -> None:
    st = ctx.state
    if b.attacked:
        raise Illegal("err.rule.attack_once")
    target = p.pos
    if at is not None and at != p.pos:
        if p.role != "ripper":
            raise Illegal("err.rule.attack_here_only", tile=tile_name(at))
        if not p.stealth:
            raise Illegal("err.rule.needs_stealth")
        if not st.board.in_bounds(at) or distance(at, p.pos) > 1:
            raise Illegal("err.rule.too_far", tile=tile_name(at), reach=1)
        target = at
    if direction is not None:
        if p.role != "bane":
            raise Illegal("err.rule.no_chain")
        if direction not in DIRECTIONS:
            raise Illegal("err.rule.bad_direction", direction=direction)
    spend_ap(p, b)
    b.attacked = True
    p.flags["attacked_tonight"] = True
    end_stealth(ctx, p)
    if ctx.dry:
        return
    ctx.emit("attack", to=(p.seat,), actor=p.seat, tile=tile_name(target))
    victims = st.at(target, "survivor")
    if direction is not None:
        victims = victims + chain_claw(ctx, p, direction)
    for v in victims:
        land_attack(ctx, p, v)


def land_attack(ctx: Ctx, hunter: Player, v: Player) -> None:
    """One attack on one survivor: dagger, Open-Door Battle, Downed, HP (R-STATUS-DOWNED, R-HP, R-ODB-2)."""
    st = ctx.state
    if not v.in_play:
        return
    if "dagger" in v.items:
        v.items.remove("dagger")
        st.spent.append("dagger")
        ctx.emit("dagger_parried", to=(v.seat,), actor=v.seat, role=hunter.role or "")
        ctx.emit("attack_parried", to=(hunter.seat,), actor=hunter.seat, alias=v.alias)
        if hunter.role == "werewolf":
            hunter.flags["no_mp_night"] = st.night + 1
        return
    ctx.emit("attacked", to=(v.seat,), actor=v.seat, role=hunter.role or "")
    if st.odb_left > 0:
        ctx.emit("attack_hit", to=(hunter.seat,), actor=hunter.seat, alias=v.alias, result="lethal")
        ctx.eliminate(v, "lethal")
        return
    if v.downed:
        ctx.emit("attack_hit", to=(hunter.seat,), actor=hunter.seat, alias=v.alias, result="eliminated")
        ctx.eliminate(v, "attack")
        return
    if v.role == "gardener" and not v.items:
        ctx.emit("gardener_unhurt", to=(v.seat,), actor=v.seat)
    else:
        v.hp -= 1
    v.downed = True
    ctx.emit("attack_hit", to=(hunter.seat,), actor=hunter.seat, alias=v.alias, result="downed")
    if v.hp <= 0:
        ctx.eliminate(v, "hp")


def chain_claw(ctx: Ctx, p: Player, direction: str) -> list[Player]:
    """Bane's chain (R-ROLE-BANE): pull the nearest survivors within 2 tiles, else drag the hunter up to 3."""
    dx, dy = DIRECTIONS[direction]
    st = ctx.state
    line: list[Tile] = []
    cur = p.pos
    for _ in range(2):
        nxt = (cur[0] + dx, cur[1] + dy)
        if not st.board.in_bounds(nxt) or st.board.edge(cur, nxt) is EDGE_WALL:
            break
        line.append(nxt)
        cur = nxt
    for t in line:
        caught = st.at(t, "survivor")
        if caught:
            for s in caught:
                relocate(ctx, s, p.pos, how="chain")
                ctx.emit("pulled", to=(s.seat, p.seat), actor=s.seat, alias=s.alias, frm=tile_name(t),
                         tile=tile_name(p.pos))
            return caught
    cur = p.pos
    for _ in range(3):
        nxt = (cur[0] + dx, cur[1] + dy)
        if not st.board.in_bounds(nxt) or st.board.edge(cur, nxt) is EDGE_WALL:
            break
        relocate(ctx, p, nxt, how="chain")
        cur = nxt
    return []


def chain_check(ctx: Ctx, p: Player, direction: str) -> None:
    """The named direction must have no high wall (or border) within its first 2 tiles."""
    dx, dy = DIRECTIONS[direction]
    cur = p.pos
    for _ in range(2):
        nxt = (cur[0] + dx, cur[1] + dy)
        if not ctx.state.board.in_bounds(nxt) or ctx.state.board.edge(cur, nxt) is EDGE_WALL:
            raise Illegal("err.rule.chain_wall", direction=direction)
        cur = nxt
