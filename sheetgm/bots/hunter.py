"""The hunter bot: go where survivors were sensed or heard, and attack there.

Every step comes from ``legal_steps`` for the order written so far. The bot
acts on its briefing (R-SENSE-5), which ``hunter_view`` rebuilds from the
state with the briefing's own rules: noise markers (limited by a Jammer),
Downed survivors within 3, survivors sensed one tile around, the Clown's
resonance, the Werewolf's sense, and the Open-Door reveal. It does not
remember earlier nights; with nothing to follow it patrols a generator (or a
gate once they are powered), chosen from the night and its seat.

Where it cheats: only the Werewolf's Bloodlust: the bot knows whether any
survivor is Injured (the checker assumes he is, a player learns it from his
own attacks). Boards and traps are public anyway; it uses only the passages it knows.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from sheetgm.bots.paths import cost, cost_field, points
from sheetgm.core.board import Tile, distance
from sheetgm.core.brief import JAMMER_REACH
from sheetgm.core.check import budget_of, legal_steps
from sheetgm.core.context import Ctx
from sheetgm.core.hunting import around
from sheetgm.core.state import Player, State
from sheetgm.core.steps import Attack, Block, Cross, Force, Move, Order, Skill, Step, Vault

MAX_STEPS = 12
BLOCK_CHANCE = 0.25
TRAP_CHANCE = 0.5


@dataclass(frozen=True)
class View:
    """What the hunter's briefing tells him: tiles with a survivor seen, and noise."""

    seen: dict[Tile, int]  # tile -> priority (2: a Downed survivor, 1: a survivor)
    noise: list[Tile]


def hunter_view(state: State, h: Player) -> View:
    ctx = Ctx(state, random.Random(0), "hunter", dry=True)
    survivors = state.survivors(robots=True)
    dark = state.board.dark
    noise = list(state.noise)
    if state.jammed:
        noise = [t for t in noise if distance(t, h.pos) <= JAMMER_REACH]
    seen: dict[Tile, int] = {}

    def mark(tiles: list[Tile], level: int) -> None:
        for t in tiles:
            seen[t] = max(seen.get(t, 0), level)

    near = set(around(ctx, h.pos)) | {h.pos}
    mark([s.pos for s in survivors if s.pos in near and s.pos not in dark], 1)
    mark([s.pos for s in survivors if s.downed and distance(s.pos, h.pos) <= 3], 2)
    if h.role == "clown":
        mark([s.pos for s in survivors if s.fear >= 1 and s.pos not in dark], 1)
    if h.role == "werewolf":
        if noise:
            mark([s.pos for s in survivors if s.pos in noise and s.pos not in dark], 1)
        else:
            mark([s.pos for s in survivors if distance(s.pos, h.pos) <= 1 and s.pos not in dark], 1)
    if state.gates_powered and state.odb_left == int(state.opt("odb_stages")):
        mark([s.pos for s in survivors], 1)  # the Open-Door reveal (R-ODB-3), this night only
    return View(seen=seen, noise=noise)


def _patrol(state: State, h: Player) -> Tile:
    pool = sorted(state.board.gates if state.gates_powered else state.board.generators, key=lambda t: (t[1], t[0]))
    pick = random.Random(f"patrol/{h.seat}/{state.night // 2}")
    return pool[pick.randrange(len(pool))]


def pick_target(state: State, h: Player, view: View, reach: int, rng: random.Random) -> tuple[Tile, bool]:
    """The tile to go to and whether a survivor is likely there (worth an attack)."""
    fld = cost_field(state, h, [h.pos])
    known = [t for t in view.seen if points(fld, t) <= reach]
    if known:
        best = min(known, key=lambda t: (-view.seen[t], cost(fld, t), rng.random()))
        return best, True
    if view.seen:
        return min(view.seen, key=lambda t: (cost(fld, t), t)), True
    if view.noise:
        return min(view.noise, key=lambda t: (cost(fld, t), rng.random())), True
    return _patrol(state, h), False


def _landing(step: Step) -> Tile | None:
    if isinstance(step, (Move, Cross, Vault, Force)):
        return step.to
    return None


def _mp(state: State, pos: Tile, step: Step) -> int:
    if isinstance(step, Cross):
        return 2
    assert isinstance(step, Move)
    return 0 if state.board.same_flat_region(pos, step.to) else 1


def hunter_order(state: State, seat: int, rng: random.Random) -> Order:
    h = state.players[seat]
    budget = budget_of(state, seat)
    mp, ap = budget.mp, budget.ap
    if h.role == "werewolf" and not any(s.injured for s in state.survivors()):
        mp -= 1  # the checker grants Bloodlust optimistically; he knows whether his prey bleeds
    target, likely = pick_target(state, h, hunter_view(state, h), mp + ap - 1, rng)
    fld = cost_field(state, h, [target])
    steps: list[Step] = []
    pos = h.pos
    attacked = False
    for _ in range(MAX_STEPS):
        legal = legal_steps(state, seat, after=steps)
        if not legal:
            break
        if pos == target and likely and not attacked and Attack() in legal:
            steps.append(Attack())
            attacked, ap = True, ap - 1
            continue
        here = cost(fld, pos)
        options: list[tuple[int, int, Step]] = []
        for step in legal:
            landing = _landing(step)
            if landing is None or cost(fld, landing) >= here:
                continue
            uses_ap = isinstance(step, (Force, Vault))
            if uses_ap and (ap < 2 or not likely or attacked):
                continue  # keep the last action point for the attack
            if not uses_ap and _mp(state, pos, step) > mp:
                continue
            options.append((cost(fld, landing), 1 if uses_ap else 0, step))
        if options:
            best = min((o[0], o[1]) for o in options)
            picks = [o[2] for o in options if (o[0], o[1]) == best]
            step = picks[rng.randrange(len(picks))]
            landing = _landing(step)
            assert landing is not None
            if isinstance(step, (Force, Vault)):
                ap -= 1
            else:
                mp -= _mp(state, pos, step)
            pos = landing
            steps.append(step)
            continue
        extra = _leftover(state, h, legal, ap, attacked, rng)
        if extra is None:
            break
        steps.append(extra)
        ap -= 2 if isinstance(extra, Block) else 1
    return Order(tuple(steps))


def _leftover(state: State, h: Player, legal: list[Step], ap: int, attacked: bool,
              rng: random.Random) -> Step | None:
    """Action points the chase did not need: a trap or a board, sometimes."""
    if h.role == "bane" and ap >= 1 and rng.random() < TRAP_CHANCE:
        traps = [s for s in legal if isinstance(s, Skill) and s.skill == "trap"
                 and s.tiles[0] in state.board.generators | state.board.gates]
        if traps:
            return traps[rng.randrange(len(traps))]
    if ap >= 2 and rng.random() < BLOCK_CHANCE:
        blocks = [s for s in legal if isinstance(s, Block)]
        if blocks:
            return blocks[rng.randrange(len(blocks))]
    return None
