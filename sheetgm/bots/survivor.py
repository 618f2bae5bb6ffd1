"""The survivor bot: crack generators, loot chests, rescue Downed friends, keep away from known hunters,
run for the gates.

The order is written on one dry ``Draft`` of the state: every step is kept
only if the checker accepts it there, so the order is legal when checked.
The bot mostly uses what its player knows: its own piece, the public
progress, boards and traps, the gates, what lies on its tile, and what its
camp was told (``Intel``: where hunters were seen, the Map).

Where it cheats (what real players would learn only by talking in the day):
- survivors share their positions, so they split the generators between them,
  the nearest healthy friend comes to heal a Downed one (who crawls towards a
  friend), and they know how many can still crack tonight (the final push);
- it reads ``state.chests`` to know whether a chest near its way is still full
  (players learn that only by standing on it or from friends);
- the Revolver is fired at a tile within 1 where a hunter actually stands.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from sheetgm.bots.intel import Intel
from sheetgm.bots.paths import SCALE, UNREACHABLE, Fields, cost, memo_of, per_map, points
from sheetgm.bots.walks import SurvivorWalk, survivor_extras, survivor_step, survivor_walks
from sheetgm.core.board import EDGE_OPEN, Board, Tile, distance
from sheetgm.core.check import Draft
from sheetgm.core.context import Ctx
from sheetgm.core.state import Player, State
from sheetgm.core.steps import (
    Crack,
    DayStep,
    Escape,
    Heal,
    Move,
    Order,
    Pray,
    Search,
    Skill,
    Step,
    UseItem,
)
from sheetgm.core.values import record

MAX_STEPS = 12
HEAL_REACH = 6  # a healthy friend farther than this does not come to heal (Manhattan)
LOOT_REACH = 2  # a full chest this many movement points away is worth the detour while empty-handed
DANGER = 2  # tiles this close to a known hunter are avoided
CRACK = "crack"
ESCAPE = "escape"
RESCUE = "rescue"
LOOT = "loot"
WAIT = "wait"
SILENT = ("magician", "gardener")
_CRACK, _SEARCH, _ESCAPE = Crack(), Search(), Escape()  # steps are frozen values: made once
_ADRENALINE, _STIMULANT, _MAP = UseItem("adrenaline"), UseItem("stimulant"), UseItem("map")


_gen_tables: dict[int, tuple[Board, tuple[list[Tile], dict[Tile, tuple[int, ...]]]]] = {}


def _generators(board: Board) -> tuple[list[Tile], dict[Tile, tuple[int, ...]]]:
    """The map's generators by row, and per tile (when first asked) its distances to them (once per map)."""
    return per_map(_gen_tables, board, lambda: (sorted(board.generators, key=lambda t: (t[1], t[0])), {}))


def generator_plan(state: State, danger: Sequence[Tile] = (),
                   survivors: Sequence[Player] | None = None) -> dict[int, Tile]:
    """Split the healthy survivors over the generators (cheat: shared positions; ``survivors``: the state's in
    play, when known).

    Seat by seat, each takes the generator minimising distance plus a charge
    for the points already planned there (a generator takes 4 a night) and
    for a hunter known near it; a tie goes to the first generator."""
    cap = int(state.opt("generator_cap"))
    gens, distances = _generators(state.board)
    load = [0] * len(gens)
    plan: dict[int, Tile] = {}
    risky = _risky_tiles(state.board, tuple(danger)) if danger else frozenset()
    risk = [6 if g in risky else 0 for g in gens]  # (a hunter known within DANGER)
    # The charge of each generator for a survivor who cracks 1 point a night or 2 (the Mechanic), kept as loads grow.
    charge1 = risk[:] if cap >= 1 else [r + 100 for r in risk]
    charge2 = risk[:] if cap >= 2 else [r + 100 for r in risk]
    indices = range(len(gens))
    for s in (survivors if survivors is not None else state.survivors()):
        if s.downed:
            continue
        mechanic = s.role == "mechanic"
        far = distances.get(s.pos)
        if far is None:
            x, y = s.pos
            far = distances[s.pos] = tuple(abs(x - g[0]) + abs(y - g[1]) for g in gens)
        charge = charge2 if mechanic else charge1
        best, least = 0, far[0] + charge[0]
        for i in indices:  # the first generator of least score, as min() would pick (8 x 6 a stage)
            score = far[i] + charge[i]
            if score < least:
                best, least = i, score
        load[best] += 2 if mechanic else 1
        base = 3 * load[best] + risk[best]
        charge1[best] = base + (100 if load[best] + 1 > cap else 0)
        charge2[best] = base + (100 if load[best] + 2 > cap else 0)
        plan[s.seat] = gens[best]
    return plan


def rescuer_of(state: State, downed: Player, survivors: Sequence[Player] | None = None) -> Player | None:
    """The nearest healthy survivor within reach comes to heal (cheat: shared positions; ``survivors``: the
    state's in play, when known)."""
    healthy = [s for s in (survivors if survivors is not None else state.survivors())
               if not s.downed and s.seat != downed.seat]
    near = [s for s in healthy if distance(s.pos, downed.pos) <= HEAL_REACH]
    if not near:
        return None
    return min(near, key=lambda s: (distance(s.pos, downed.pos), s.seat))


def crawl_to(state: State, p: Player, draft: Draft | None = None, team: Team | None = None) -> Tile:
    """Where a Downed survivor crawls tonight, off the tile where it was attacked (``team``: the stage's, whose
    rescuers are those ``rescuer_of`` names).

    It waits for a rescuer who acts before it (seat order: the heal comes
    first, then the crawl); otherwise it crawls one tile towards the nearest
    friend (as the crow flies: a path field for one step is not worth it)."""
    if team is not None:
        rescuer_seat = team.rescuers.get(p.seat)
    else:
        rescuer = rescuer_of(state, p)
        rescuer_seat = rescuer.seat if rescuer is not None else None
    if rescuer_seat is not None and rescuer_seat > p.seat:
        return p.pos
    friends = [s.pos for s in state.survivors() if not s.downed and s.seat != p.seat and s.pos != p.pos]
    if not friends:
        return p.pos
    draft = draft if draft is not None else Draft(state, p.seat)
    # The legal move nearest a friend: the first legal of the moves by nearness (a Downed survivor's try is dear).
    moves = sorted(state.board.neighbour_map[p.pos], key=lambda t: (min(distance(t, f) for f in friends), t))
    return next((t for t in moves if draft.legal(Move(t))), p.pos)


def _full_chests(state: State) -> list[Tile]:
    return sorted((t for t in state.board.chests if state.chests.get(t)), key=lambda t: (t[1], t[0]))


@record
class Team:
    """What the survivors agree on in the day, once per stage: where hunters were seen, who cracks where,
    who rescues whom, which chests are still full, whether tonight is the final push."""

    danger: list[Tile]
    plan: dict[int, Tile]
    rescuers: dict[int, int]  # Downed survivor's seat -> the seat of the friend who comes to heal her
    full_chests: tuple[Tile, ...]
    final_push: bool
    fields: Fields  # the stage's cost fields (the state does not change while the survivors write)
    downed_at: frozenset[Tile]  # where a Downed survivor piece lies
    places: tuple[tuple[int, Tile], ...]  # (seat, tile) of every survivor in play, not robots
    rescue: dict[int, Tile]  # rescuer's seat -> where the nearest Downed friend she comes to heal lies
    keys_to_escape: int  # the option, read once
    cracked: bool  # the crack target is reached
    passage_ends: frozenset[Tile]  # the tiles where a passage ends (found or not)
    risky: frozenset[Tile]  # the tiles within DANGER of a hunter known at ``danger``


def team_of(state: State, intel: Intel | None, fields: Fields | None = None) -> Team:
    danger = intel.recent(state.night) if intel is not None else []
    survivors = state.survivors()
    rescuers = {}
    for d in survivors:
        rescuer = rescuer_of(state, d, survivors) if d.downed else None
        if rescuer is not None:
            rescuers[d.seat] = rescuer.seat
    rescue: dict[int, Tile] = {}
    for r in set(rescuers.values()):
        at = state.players[r].pos
        mine = [state.players[d] for d, by in rescuers.items() if by == r]
        rescue[r] = min(mine, key=lambda d: (distance(d.pos, at), d.seat)).pos
    return Team(danger, generator_plan(state, danger, survivors), rescuers, tuple(_full_chests(state)),
                final_push(state, survivors),
                fields if fields is not None else Fields(state),
                frozenset(s.pos for s in state.survivors(robots=True) if s.downed),
                tuple((s.seat, s.pos) for s in survivors), rescue, int(state.opt("keys_to_escape")),
                state.progress >= int(state.opt("crack_target")),
                frozenset(t for pa in state.passages for t in pa.ends), _risky_tiles(state.board, tuple(danger)))


def goal_of(state: State, p: Player, team: Team, draft: Draft | None = None) -> tuple[str, list[Tile]]:
    """What the survivor works towards tonight and the tiles where it is done (``draft``: the order's; ``p``: a
    player of ``state``, the team's state)."""
    if p.downed:
        return WAIT, [crawl_to(state, p, draft, team)]
    if state.gates_powered or p.keys >= team.keys_to_escape:
        return ESCAPE, sorted(state.board.gates)
    mine = team.rescue.get(p.seat)
    if mine is not None:
        return RESCUE, [mine]
    if team.cracked:
        return ESCAPE, sorted(state.board.gates)
    chests = team.full_chests if not p.items else ()
    if chests and not team.final_push:
        fld = team.fields(p, chests)
        if points(fld, p.pos) <= LOOT_REACH:
            return LOOT, [min(chests, key=lambda t: (distance(t, p.pos), t[1], t[0]))]
    return CRACK, [team.plan[p.seat]]


def final_push(state: State, survivors: Sequence[Player] | None = None) -> bool:
    """The gates will likely be powered tonight: the healthy survivors can crack what is missing (``survivors``:
    the state's in play, when known)."""
    need = int(state.opt("crack_target")) - state.progress
    return 0 < need <= sum(2 if s.role == "mechanic" else 1
                           for s in (survivors if survivors is not None else state.survivors()) if not s.downed)


_Closer = tuple[Tile, int, int, int, str, object, int, Step]  # a SurvivorWalk, its landing's field value, its step


def _closer_of(fld: dict[Tile, int], pos: Tile, walks: Sequence[SurvivorWalk]) -> list[_Closer]:
    """The options of ``walks`` that bring her closer on ``fld`` than ``pos``, with their landings' values and steps."""
    here = fld.get(pos, UNREACHABLE)
    return [(*w, left, survivor_step(w[4], w[0], w[5]))
            for w in walks if here - (left := fld.get(w[0], UNREACHABLE)) > 0]


def _walks_closer(board: Board, fld: dict[Tile, int], memo: dict[object, object], pos: Tile,
                  mercenary: bool) -> tuple[list[_Closer], bool]:
    """The map's walks from ``pos`` that bring her closer on ``fld`` (``_closer_of``), and whether one of the map's
    walks from there is a plain walk over an open edge (``survivor_walks``): worked out once per tile and kept in
    the field's memo (``paths.memo_of``)."""
    key = ("survivor", pos, mercenary)
    known: tuple[list[_Closer], bool] | None = memo.get(key)  # type: ignore[assignment]
    if known is None:
        walks, has_walk = survivor_walks(board, pos, mercenary)
        known = memo[key] = (_closer_of(fld, pos, walks), has_walk)
    return known


_risky_cache: dict[int, tuple[Board, dict[tuple[Tile, ...], frozenset[Tile]]]] = {}


def _risky_tiles(board: Board, danger: tuple[Tile, ...]) -> frozenset[Tile]:
    """The tiles within DANGER of the hunters known at ``danger`` (the survivors of a stage share them)."""
    known = per_map(_risky_cache, board, dict)
    tiles = known.get(danger)
    if tiles is None:
        if len(known) > 4096:
            known.clear()
        tiles = known[danger] = frozenset(n for h in danger for n in board.within(h, DANGER))
    return tiles


_FAR_MOVERS = ("athlete", "priestess")  # roles with movement options beyond the map's walks (``survivor_extras``)


def _plan(board: Board, fld: dict[Tile, int], memo: dict[object, object], pos: Tile, mercenary: bool, mp: int,
          ap: int, escape: bool, risky: frozenset[Tile] | None) -> tuple[Step, ...]:
    """A survivor's walk from ``pos`` down ``fld`` with ``mp`` and ``ap``, each step as ``SurvivorBot.movement``
    chooses it (the option gaining most, then the least penalty; a tie goes to the first option), made of the map's
    walks alone: the steps until the goal or the budget stops her."""
    steps: list[Step] = []
    while len(steps) < MAX_STEPS:
        here = fld.get(pos, UNREACHABLE)
        if here == 0:
            break
        closer, has_walk = _walks_closer(board, fld, memo, pos, mercenary)
        reach = here // SCALE
        wary = risky is not None and pos not in risky
        best: tuple[int, int] | None = None
        chosen: _Closer | None = None
        for option in closer:
            landing, wmp, wap, penalty, _, _, left, _ = option
            gain = here - left
            if wmp > mp or wap > ap:
                continue
            if wap and (not escape or reach <= mp + 1):
                continue  # keep the action point for the goal
            if penalty >= 2 and gain < 2 * SCALE and has_walk:
                continue  # (a vault only where it beats the walk)
            if wary and left > 0 and risky is not None and landing in risky:
                penalty += 2  # keep away from a hunter we know of, unless the goal is there
            if best is None or (-gain, penalty) < best:
                best, chosen = (-gain, penalty), option
        if chosen is None:
            break
        steps.append(chosen[7])
        mp, ap, pos = mp - chosen[1], ap - chosen[2], chosen[0]
    return tuple(steps)


class SurvivorBot:
    """Writes one survivor's order for the stage that is due."""

    def __init__(self, state: State, seat: int, rng: random.Random, team: Team, shared: State | None) -> None:
        self.state, self.rng, self.team = state, rng, team
        self.p = state.players[seat]
        self.draft = Draft(state, seat, shared)
        self.danger = team.danger  # (copied before the Map adds to it: extra)
        self._risky: frozenset[Tile] | None = team.risky  # the tiles within DANGER of a known hunter (None: to ask)
        self.purpose, self.targets = goal_of(state, self.p, team, self.draft)
        self.fld = team.fields(self.p, self.targets)
        self.noisy = self.stepped_off = False
        self.turns = MAX_STEPS  # the turns of ``write``: a main action, a step, an extra each
        self._has_walk = True  # (set by _closer for the tile it prices)
        self._memo: tuple[dict[Tile, int], dict[object, object]] | None = None  # the field's (paths.memo_of)
        self._far_mover = self.p.role in _FAR_MOVERS

    # -- what the draft says ---------------------------------------------------------
    @property
    def pos(self) -> Tile:
        return self.draft.p.pos

    @property
    def items(self) -> list[str]:
        return self.draft.p.items

    def risky(self, t: Tile) -> bool:
        return t in (self._risky if self._risky is not None else self.risky_tiles())

    def risky_tiles(self) -> frozenset[Tile]:
        """The tiles within DANGER of a hunter she knows of (worked out when first asked)."""
        if self._risky is None:
            self._risky = _risky_tiles(self.state.board, tuple(self.danger))
        return self._risky

    def write(self) -> Order:
        budget = self.draft.budget  # (the draft's one Budget, changed in place)
        while self.turns > 0:
            self.turns -= 1
            if budget.ap >= 1:
                main = self.main_action()
                if main is not None:
                    if main is _ESCAPE:  # (the one Escape main_action tries)
                        break
                    continue
            if self.noisy and not self.stepped_off:
                self.stepped_off = True
                if self.final_dash() or self.step_off():
                    continue
            if not self.stepped_off and self.walk():
                continue
            if not self.extra():
                break
        self.draft.release()
        return Order(tuple(self.draft.steps), self.day_orders())

    # -- main actions ----------------------------------------------------------------
    def main_action(self) -> Step | None:
        state, d, p, purpose, targets = self.state, self.draft, self.p, self.purpose, self.targets
        here = d.p.pos
        items = d.p.items
        tries: list[Step] = []
        if purpose == ESCAPE and here in state.board.gates:
            tries.append(_ESCAPE)
        if here in self.team.downed_at:
            tries += [Heal(f.alias) for f in state.at(here, "survivor") if f.downed and f.seat != p.seat]
        if items and "revolver" in items:
            tries += [UseItem("revolver", h.pos) for h in state.hunters() if distance(h.pos, here) <= 1]
        if purpose == CRACK and here in targets:
            if "jammer" in items and d.legal(_CRACK):
                d.add(UseItem("jammer"))  # tonight no hunter hears the crack from afar
            tries.append(_CRACK)
        if (here not in targets or purpose in (WAIT, LOOT)) \
                and (self.fld.get(here, UNREACHABLE) // SCALE > d.budget.mp or purpose in (WAIT, ESCAPE, LOOT)) \
                and self.worth_searching():  # (the cheap tests first: it changes nothing)
            tries.append(_SEARCH)
        if not tries:
            return None
        for step in tries:
            if d.add(step):
                self.noisy = isinstance(step, (Crack, Heal)) or (isinstance(step, Search) and p.role not in SILENT)
                if isinstance(step, Search) and self.purpose == LOOT:
                    self.retarget(CRACK, [self.team.plan[p.seat]])
                return step
        return None

    def worth_searching(self) -> bool:
        state, here = self.state, self.draft.p.pos
        if state.keys_on.get(here):
            return True
        lying = state.lying.get(here)
        chest = state.chests.get(here) if here in state.board.chests else None
        if not (lying or chest):
            return False  # (most tiles: nothing to weigh)
        things = [*(lying or ()), *([chest] if chest else [])]
        return any(Ctx.fits(self.p, [*self.items, t]) for t in things if t)

    def retarget(self, purpose: str, targets: list[Tile]) -> None:
        self.purpose, self.targets = purpose, targets
        self.fld = self.team.fields(self.p, targets)

    # -- after a noisy action ------------------------------------------------------------
    def final_dash(self) -> bool:
        """The gates are about to be powered (the Open-Door reveal comes): run for them."""
        if not (self.team.final_push and self.purpose == CRACK):
            return False
        self.retarget(ESCAPE, sorted(self.state.board.gates))
        self.noisy = self.stepped_off = False
        return True

    def step_off(self) -> bool:
        """One step off the marked tile (hunters follow noise), near the goal, off friends' tiles
        (one attack hits everybody on a tile) and away from known hunters; a Magician leaves a decoy."""
        state, here, team = self.state, self.draft.p.pos, self.team
        if self.p.role == "magician":  # not on a friend's tile; where hunters stand she does not know
            friends = {q.pos for q in state.survivors(robots=True)}  # (``state.at(t, SURVIVOR)`` for every t)
            decoys = [t for t in state.board.within(here, 2) if distance(t, here) == 2 and t not in friends]
            if decoys:
                self.draft.add(Skill("magic", (decoys[self.rng.randrange(len(decoys))],)))
        seat = self.p.seat
        crowded = {t for s, t in team.places if s != seat}
        traps = state.traps
        fld, draw = self.fld, self.rng.random
        risky = self._risky if self._risky is not None else self.risky_tiles()
        # Sorted by (on a friend's tile, near a known hunter, the field, a draw): a draw per move, in the map's order.
        moves = sorted([(t in crowded, t in risky, fld.get(t, UNREACHABLE), draw(), i, t)
                        for i, t in enumerate(state.board.neighbour_map[here]) if t not in traps])
        # A Move over a wall, an obstacle or a board is never legal (moves.step_cost): not tried (each refusal is
        # an exception), the draws made as before.
        kinds, boards, add = state.board.edge_kinds, state.boards, self.draft.add
        for *_, t in moves:
            if kinds.get((here, t)) is EDGE_OPEN and not (boards and ((here, t) if here <= t else (t, here)) in boards):
                if add(survivor_step("move", t, None)):
                    return True
        return False

    # -- movement ----------------------------------------------------------------------
    def movement_options(self) -> Sequence[SurvivorWalk]:
        """Every movement step from here as (landing, mp, ap, preference penalty, kind, argument), as the
        bot prices it; the steps themselves are made only for the landings worth trying."""
        return self._movement_options()[0]

    def _movement_options(self) -> tuple[Sequence[SurvivorWalk], bool]:
        """The options and whether one of the map's options from here is a plain walk."""
        state, p, here = self.state, self.p, self.pos
        items = self.items
        walks, has_walk = survivor_walks(state.board, here, p.role == "mercenary")
        athlete, wings, doorkey = p.role == "athlete", "wings" in items, "doorkey" in items or p.role == "priestess"
        later = survivor_extras(state.board, here, athlete, wings, doorkey) if athlete or wings or doorkey else ()
        passage = state.passage_at(here)
        if passage is not None and passage.known_to(p):  # only the passages she found herself (RUL-36)
            landing = passage.ends[1] if passage.ends[0] == here else passage.ends[0]
            return [*walks, (landing, 1, 0, 0, "move", None), *later], has_walk
        return (walks if not later else [*walks, *later]), has_walk

    def _closer(self, fld: dict[Tile, int], pos: Tile, p: Player) -> list[_Closer]:
        """The movement options from ``pos`` that bring her closer on ``fld``, in the options' order, each with its
        landing's field value: the map's walks from a tile are the same for every survivor who meets the same field
        there (kept per field while the field is kept), what she carries and the passage she knows added after."""
        mercenary = p.role == "mercenary"
        items = p.items
        athlete = p.role == "athlete"
        wings = bool(items) and "wings" in items
        doorkey = (bool(items) and "doorkey" in items) or p.role == "priestess"
        passage = self.state.passage_at(pos) if self.state.passages else None
        if passage is not None and not passage.known_to(p):  # only the passages she found herself (RUL-36)
            passage = None
        memo = self._memo
        if memo is None or memo[0] is not fld:
            memo = self._memo = (fld, memo_of(fld))
        known = _walks_closer(self.state.board, fld, memo[1], pos, mercenary)
        self._has_walk = known[1]
        if passage is None and not (athlete or wings or doorkey):
            return known[0]
        out = list(known[0])
        if passage is not None:
            landing = passage.ends[1] if passage.ends[0] == pos else passage.ends[0]
            out += _closer_of(fld, pos, ((landing, 1, 0, 0, "move", None),))
        if athlete or wings or doorkey:
            more = ("extras", pos, athlete, wings, doorkey)
            extras: list[_Closer] | None = memo[1].get(more)  # type: ignore[assignment]
            if extras is None:
                extras = memo[1][more] = _closer_of(fld, pos, survivor_extras(self.state.board, pos, athlete, wings,
                                                                              doorkey))
            out += extras
        return out

    def walk(self) -> bool:
        """Towards the goal: the walk planned from here on the field (``_plan``: kept with the field), its steps
        added while the rules take them and nothing on her new tile asks for the main action; where she carries
        what moves her otherwise or knows a passage here, ``movement`` (which tries the other options) step by step
        while she is quiet; where the plan's first step is refused, one step of ``movement``."""
        d = self.draft
        p = d.p
        if self._moves_otherwise(p):
            if not self.movement():
                return False
            # The turns that follow, played here as ``write`` plays them: where she is quiet ``main_action`` finds
            # nothing (and she has made no noise: ``write`` walks only then), so each is one more ``movement``; one
            # that finds no step ends the walk as a refused walk does (``write`` goes on to ``extra``).
            while self.turns > 0 and self.quiet() and self._moves_otherwise(p):
                self.turns -= 1
                if not self.movement():
                    return False
            return True
        fld, b = self.fld, d.budget
        risky = (self._risky if self._risky is not None else self.risky_tiles()) if self.danger else None
        mercenary = p.role == "mercenary"
        memo = self._memo
        if memo is None or memo[0] is not fld:
            memo = self._memo = (fld, memo_of(fld))
        escape = self.purpose == ESCAPE
        key = ("walk", p.pos, mercenary, b.mp, b.ap, escape, risky)
        plan: tuple[Step, ...] | None = memo[1].get(key)  # type: ignore[assignment]
        if plan is None:
            plan = memo[1][key] = _plan(self.state.board, fld, memo[1], p.pos, mercenary, b.mp, b.ap, escape, risky)
        if not plan:
            return False  # (no option she may take: ``movement`` would find none either)
        if not d.add(plan[0]):
            return self.movement()
        for step in plan[1:]:
            if self.turns <= 0 or not self.quiet() or not d.add(step):
                break
            self.turns -= 1
        return True

    def _moves_otherwise(self, p: Player) -> bool:
        """She walks by ``movement``: her role, what she carries or a passage here (``state.passage_at``) moves her
        otherwise."""
        items = p.items
        return self._far_mover or bool(items and ("wings" in items or "doorkey" in items)) or \
            p.pos in self.team.passage_ends

    def quiet(self) -> bool:
        """Nothing on her tile for ``main_action`` to try (a cautious test: it would find no step)."""
        d = self.draft
        if d.budget.ap < 1:
            return True
        here, state = d.p.pos, self.state
        items = d.p.items
        return not (here in self.targets or here in self.team.downed_at or (items and "revolver" in items)
                    or state.keys_on.get(here) or state.lying.get(here)
                    or (here in state.board.chests and state.chests.get(here)))

    def movement(self) -> bool:
        fld, d = self.fld, self.draft
        p = d.p
        pos = p.pos
        here = fld.get(pos, UNREACHABLE)
        if here == 0:
            return False
        reach = here // SCALE
        mp_left, ap_left = d.budget.mp, d.budget.ap
        wary = bool(self.danger) and not self.risky(pos)
        escape = self.purpose == ESCAPE
        draw = self.rng.random
        options: list[tuple[int, int, float, int, Step]] = []
        for landing, mp, ap, penalty, kind, _, left, step in self._closer(fld, pos, p):
            gain = here - left
            if mp > mp_left or ap > ap_left:
                continue
            if ap and (not escape or reach <= mp_left + 1):
                continue  # keep the action point for the goal
            if kind == "sprint" and gain <= min(mp_left * SCALE, here):
                continue  # a sprint must beat walking
            if penalty >= 2 and gain < 2 * SCALE and self._has_walk:
                continue  # limited teleports only where they beat the walk
            if wary and left > 0 and self.risky(landing):
                penalty += 2  # keep away from a hunter we know of, unless the goal is there
            # Sorted by (gain, penalty, a draw); the option's place breaks a tie of the three, as a stable sort.
            options.append((-gain, penalty, draw(), len(options), step))
        if len(options) > 1:
            options.sort()
        for option in options:
            if d.add(option[4]):
                return True
        return False

    # -- free and leftover actions ----------------------------------------------------------
    def extra(self) -> bool:
        d, p, items = self.draft, self.p, self.items
        if not items and d.budget.ap < 1:
            return False  # (every extra step needs an item or the action point)
        tries: list[Step] = []
        if d.p.downed and "adrenaline" in items:
            tries.append(_ADRENALINE)
        if cost(self.fld, self.pos) > 0 and "stimulant" in items and d.budget.mp == 0:
            tries.append(_STIMULANT)
        if d.budget.ap >= 1:
            if p.fear >= 2 and not d.p.downed:
                tries.append(Heal(p.alias))  # clears her own Fear before the third one makes her scream
            if p.role == "doctor" and Ctx.fits(p, [*items, "stimulant"]):
                tries.append(Skill("brew"))
        if "map" in items and (self.purpose == ESCAPE or p.fear >= 1):
            tries.append(_MAP)
        for step in tries:
            if d.add(step):
                if step is _MAP:
                    self.danger = [*self.danger, *(h.pos for h in self.state.hunters() if not h.stealth)]  # the Map
                    self._risky = None
                return True
        return False

    def day_orders(self) -> tuple[DayStep, ...]:
        """The Lucky Guy prays for the Map or a dagger when he goes looting (R-ROLE-LUCKY)."""
        if self.p.role == "lucky" and self.purpose in (LOOT, CRACK) and not self.p.items:
            return (Pray("dagger" if self.state.night % 2 else "map"),)
        return ()


def survivor_order(state: State, seat: int, rng: random.Random, intel: Intel | None = None,
                   team: Team | None = None, shared: State | None = None) -> Order:
    """``team``: ``team_of(state, intel)``, shared by the survivors of one stage (made here when None);
    ``shared``: a dry copy of the state the stage's drafts take turns on (see ``Draft``)."""
    return SurvivorBot(state, seat, rng, team if team is not None else team_of(state, intel), shared).write()
