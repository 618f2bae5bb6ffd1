"""The survivor bot: crack generators, rescue Downed friends, run for the gates.

Every step comes from ``legal_steps`` for the order written so far, so the
order is legal when checked. The bot mostly uses what its player knows: its
own piece, the public progress, the gates, and what lies on its tile.

Where it cheats (what real players would learn only by talking in the day):
- survivors share their positions, so they split the generators between them,
  the nearest healthy friend comes to heal a Downed one (who crawls towards a
  friend), and they know how many can still crack tonight (the final push);
- it reads ``state.chests`` to know whether a chest on its way is still full
  (players learn that only by standing on it or from friends);
- the Revolver is fired at a tile within 1 where a hunter actually stands.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from sheetgm.bots.paths import SCALE, cost, cost_field, points
from sheetgm.core.board import Tile, distance
from sheetgm.core.check import budget_of, legal_steps
from sheetgm.core.context import Ctx
from sheetgm.core.state import Player, State
from sheetgm.core.steps import (
    Crack,
    Cross,
    Escape,
    Heal,
    Move,
    Order,
    Search,
    Skill,
    Step,
    UseItem,
    Vault,
)

MAX_STEPS = 12
HEAL_REACH = 6  # a healthy friend farther than this does not come to heal (Manhattan)
CRACK = "crack"
ESCAPE = "escape"
RESCUE = "rescue"
WAIT = "wait"
SILENT = ("magician", "gardener")


@dataclass
class Draft:
    """The order being written and what the bot expects from it."""

    p: Player
    pos: Tile
    mp: int
    ap: int
    items: list[str]
    steps: list[Step] = field(default_factory=list)

    def add(self, step: Step, landing: Tile | None = None, mp: int = 0, ap: int = 0) -> None:
        self.steps.append(step)
        if landing is not None:
            self.pos = landing
        self.mp -= mp
        self.ap -= ap


def generator_plan(state: State) -> dict[int, Tile]:
    """Split the healthy survivors over the generators (cheat: shared positions).

    Seat by seat, each takes the generator minimising distance plus a charge
    for the points already planned there (a generator takes 4 a night)."""
    cap = int(state.opt("generator_cap"))
    load: dict[Tile, int] = {g: 0 for g in state.board.generators}
    plan: dict[int, Tile] = {}
    gens = sorted(state.board.generators, key=lambda t: (t[1], t[0]))
    for s in state.survivors():
        if s.downed:
            continue
        gain = 2 if s.role == "mechanic" else 1

        def score(g: Tile, s: Player = s, gain: int = gain) -> int:
            over = 100 if load[g] + gain > cap else 0
            return distance(s.pos, g) + 3 * load[g] + over

        best = min(gens, key=score)
        load[best] += gain
        plan[s.seat] = best
    return plan


def rescuer_of(state: State, downed: Player) -> Player | None:
    """The nearest healthy survivor within reach comes to heal (cheat: shared positions)."""
    healthy = [s for s in state.survivors() if not s.downed and s.seat != downed.seat]
    near = [s for s in healthy if distance(s.pos, downed.pos) <= HEAL_REACH]
    if not near:
        return None
    return min(near, key=lambda s: (distance(s.pos, downed.pos), s.seat))


def crawl_to(state: State, p: Player) -> Tile:
    """Where a Downed survivor crawls tonight, off the tile where it was attacked.

    It waits for a rescuer who acts before it (seat order: the heal comes
    first, then the crawl); otherwise it crawls towards the nearest friend."""
    rescuer = rescuer_of(state, p)
    if rescuer is not None and rescuer.seat > p.seat:
        return p.pos
    friends = [s.pos for s in state.survivors() if not s.downed and s.seat != p.seat and s.pos != p.pos]
    if not friends:
        return p.pos
    fld = cost_field(state, p, friends)
    moves = [s.to for s in legal_steps(state, p.seat) if isinstance(s, Move)]
    return min(moves, key=lambda t: (cost(fld, t), t)) if moves else p.pos


def goal_of(state: State, p: Player) -> tuple[str, list[Tile]]:
    """What the survivor works towards tonight and the tiles where it is done."""
    if p.downed:
        return WAIT, [crawl_to(state, p)]
    if state.gates_powered or p.keys >= int(state.opt("keys_to_escape")):
        return ESCAPE, sorted(state.board.gates)
    mine = [d for d in state.survivors() if d.downed and rescuer_of(state, d) is p]
    if mine:
        return RESCUE, [min(mine, key=lambda d: distance(d.pos, p.pos)).pos]
    if state.progress >= int(state.opt("crack_target")):
        return ESCAPE, sorted(state.board.gates)
    return CRACK, [generator_plan(state)[p.seat]]


def _room(state: State, p: Player, items: list[str], item: str) -> bool:
    probe = Player(seat=p.seat, alias=p.alias, camp=p.camp, role=p.role, items=list(items))
    return Ctx(state, random.Random(0), "survivor", dry=True).has_room(probe, item)


def _worth_searching(state: State, d: Draft) -> bool:
    here = d.pos
    if state.keys_on.get(here):
        return True
    things = list(state.lying.get(here, []))
    if here in state.board.chests and state.chests.get(here):
        things.append(state.chests[here] or "")
    return any(_room(state, d.p, d.items, t) for t in things if t)


def _main_action(state: State, d: Draft, purpose: str, targets: list[Tile], legal: list[Step],
                 reach: int) -> Step | None:
    """The main action to take now, if any (reach: cost still to go to the goal)."""
    p = d.p
    if Escape() in legal and purpose == ESCAPE and d.pos in state.board.gates:
        return Escape()
    for friend in state.at(d.pos, "survivor"):
        if friend.downed and friend.seat != p.seat:
            heal = Heal(friend.alias)
            if heal in legal:
                return heal
    for h in state.hunters():
        if "revolver" in d.items and distance(h.pos, d.pos) <= 1 and UseItem("revolver", h.pos) in legal:
            return UseItem("revolver", h.pos)
    if purpose == CRACK and d.pos in targets and Crack() in legal:
        return Crack()
    if Search() in legal and _worth_searching(state, d) and (d.pos not in targets or purpose == WAIT):
        if reach > d.mp or purpose in (WAIT, ESCAPE):
            return Search()
    return None


def _landing(step: Step) -> Tile | None:
    if isinstance(step, (Move, Cross, Vault)):
        return step.to
    if isinstance(step, UseItem) and step.item in ("doorkey", "wings"):
        return step.target
    if isinstance(step, Skill) and step.skill in ("gate", "sprint") and step.tiles:
        return step.tiles[-1]
    return None


def _step_price(state: State, d: Draft, step: Step) -> tuple[int, int, int]:
    """(mp, ap, preference penalty) of a movement step, as the bot plans it."""
    if isinstance(step, Move):
        flat = state.board.same_flat_region(d.pos, step.to)
        return (0 if flat else 1), 0, 0
    if isinstance(step, Cross):
        return 3, 0, 1
    if isinstance(step, Vault):
        return (1, 0, 0) if d.p.role == "mercenary" else (0, 1, 2)
    if isinstance(step, Skill) and step.skill == "sprint":
        return 3, 0, 0
    if isinstance(step, UseItem) and step.item == "wings":
        return 0, 1, 3
    return 0, 0, 2  # Door Key item or the Priestess's skill: limited uses


def _movement(state: State, d: Draft, fld: dict[Tile, int], legal: list[Step], purpose: str,
              rng: random.Random) -> tuple[Step, Tile, int, int] | None:
    here = cost(fld, d.pos)
    if here == 0:
        return None
    options: list[tuple[int, int, Step, Tile, int, int]] = []
    for step in legal:
        landing = _landing(step)
        if landing is None:
            continue
        mp, ap, penalty = _step_price(state, d, step)
        gain = here - cost(fld, landing)
        if gain <= 0:
            continue
        if ap and (purpose != ESCAPE or points(fld, d.pos) <= d.mp + 1):
            continue  # keep the action point for the goal
        if isinstance(step, Skill) and step.skill == "sprint" and gain <= min(d.mp * SCALE, here):
            continue  # a sprint must beat walking
        if penalty >= 2 and gain < 2 * SCALE and any(isinstance(s, Move) for s in legal):
            continue  # limited teleports only where they beat the walk
        options.append((-gain, penalty, step, landing, mp, ap))
    if not options:
        return None
    best = min((o[0], o[1]) for o in options)
    picks = [o for o in options if (o[0], o[1]) == best]
    _, _, step, landing, mp, ap = picks[rng.randrange(len(picks))]
    return step, landing, mp, ap


def _step_off(state: State, d: Draft, fld: dict[Tile, int], legal: list[Step],
              rng: random.Random) -> Move | None:
    """After a noisy action, one step off the marked tile (hunters follow noise), staying near the
    goal and off tiles where friends stand (one attack hits everybody on a tile)."""
    moves = [s for s in legal if isinstance(s, Move) and s.to not in state.traps]
    if not moves:
        return None
    crowded = {s.pos for s in state.survivors() if s.seat != d.p.seat}
    return min(moves, key=lambda s: (s.to in crowded, cost(fld, s.to), rng.random()))


def final_push(state: State) -> bool:
    """The gates will likely be powered tonight: the healthy survivors can crack what is missing."""
    need = int(state.opt("crack_target")) - state.progress
    return 0 < need <= sum(2 if s.role == "mechanic" else 1 for s in state.survivors() if not s.downed)


def _extra(state: State, d: Draft, purpose: str, legal: list[Step], reached: bool) -> Step | None:
    """Free or leftover actions once the bot cannot move on usefully."""
    p = d.p
    if p.downed and "adrenaline" in d.items and UseItem("adrenaline") in legal:
        return UseItem("adrenaline")
    if not reached and "stimulant" in d.items and d.mp == 0 and UseItem("stimulant") in legal:
        return UseItem("stimulant")
    if d.ap >= 1:
        if p.fear >= 2 and not p.downed and Heal(p.alias) in legal:
            return Heal(p.alias)  # clears her own Fear before the third one makes her scream
        if p.role == "doctor" and Skill("brew") in legal and _room(state, p, d.items, "stimulant"):
            return Skill("brew")
    if "map" in d.items and purpose == ESCAPE and UseItem("map") in legal:
        return UseItem("map")
    return None


def survivor_order(state: State, seat: int, rng: random.Random) -> Order:
    p = state.players[seat]
    budget = budget_of(state, seat)
    d = Draft(p=p, pos=p.pos, mp=budget.mp, ap=budget.ap, items=list(p.items))
    purpose, targets = goal_of(state, p)
    fld = cost_field(state, p, targets)
    noisy = stepped_off = False
    for _ in range(MAX_STEPS):
        legal = legal_steps(state, seat, after=d.steps)
        if not legal:
            break
        reach = points(fld, d.pos)
        if d.ap >= 1:
            main = _main_action(state, d, purpose, targets, legal, reach)
            if main is not None:
                if isinstance(main, Crack) and "jammer" in d.items and UseItem("jammer") in legal:
                    d.items.remove("jammer")
                    d.add(UseItem("jammer"))
                    continue
                if isinstance(main, UseItem):
                    d.items.remove(main.item)
                d.add(main, ap=1)
                if isinstance(main, Escape):
                    break
                noisy = isinstance(main, (Crack, Heal)) or (isinstance(main, Search) and p.role not in SILENT)
                continue
        if noisy and not stepped_off:
            stepped_off = True
            if final_push(state) and purpose == CRACK:
                fld = cost_field(state, p, sorted(state.board.gates))  # the reveal comes: run for the gates
                purpose, targets = ESCAPE, sorted(state.board.gates)
                noisy = stepped_off = False
                continue
            off = _step_off(state, d, fld, legal, rng)
            if off is not None:
                d.add(off, off.to, mp=0 if state.board.same_flat_region(d.pos, off.to) else 1)
                continue
        moved = None if stepped_off else _movement(state, d, fld, legal, purpose, rng)
        if moved is not None:
            step, landing, mp, ap = moved
            if isinstance(step, UseItem):
                d.items.remove(step.item)
            d.add(step, landing, mp=mp, ap=ap)
            continue
        extra = _extra(state, d, purpose, legal, reach == 0)
        if extra is None:
            break
        if isinstance(extra, UseItem):
            d.items.remove(extra.item)
            if extra.item == "stimulant":
                d.mp += 1
        d.add(extra, ap=1 if isinstance(extra, (Heal, Skill)) else 0)
    return Order(tuple(d.steps))
