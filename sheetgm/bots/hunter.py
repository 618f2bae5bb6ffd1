"""The hunter bot: go where survivors were sensed or heard, attack there, and spend what is left on
sensing, boards and the role's skills.

The order is written on one dry ``Draft`` of the state (every step is kept
only if the checker accepts it). The bot acts on its briefing (R-SENSE-5),
which ``hunter_view`` rebuilds from the state with the briefing's own rules:
noise markers (limited by a Jammer), Downed survivors within 3, survivors
sensed one tile around, the Clown's resonance, the Werewolf's sense, and the
Open-Door reveal; then on what its camp learned the night before (``Intel``:
sensing, discoveries, attacks, the Assassin's deduction and trace). With
nothing to follow it patrols a generator (or a gate once they are powered),
chosen from the night and its seat.

Skills: the Bane's chain reaches a survivor up to 2 tiles away in a line and
his traps guard generators and gates; the Ripper's mist blade strikes the
next tile from Stealth and his appearance jumps to a noise; the Clown dashes
when walking is too slow; the Ember's fury buys an action point; the
Assassin traces and deduces (at the nearest generators) when he knows
nothing; leftover action points gaze or listen (for tomorrow) or block.

It does not cheat: boards and traps are public, and it uses only the
passages it knows. (The Werewolf's Bloodlust MP goes unused: the checker
cannot know who is Injured, so it accepts no step that needs it, and the bot
writes only what it accepts.)
"""

from __future__ import annotations

import random
from functools import lru_cache

from sheetgm.bots.intel import Intel
from sheetgm.bots.paths import SCALE, UNREACHABLE, Fields, cost, memo_of, per_map, points
from sheetgm.bots.walks import HunterWalk, hunter_step, hunter_walks
from sheetgm.core.board import DIRECTIONS, EDGE_OPEN, EDGE_WALL, Board, Tile, distance
from sheetgm.core.brief import JAMMER_REACH
from sheetgm.core.check import Draft
from sheetgm.core.context import Ctx
from sheetgm.core.hunting import around
from sheetgm.core.state import Player, State
from sheetgm.core.steps import Attack, Block, Gaze, Listen, Order, Skill, Step
from sheetgm.core.values import Value, record

MAX_STEPS = 12
BLOCK_CHANCE = 0.25
TRAP_CHANCE = 0.5
_ATTACK, _GAZE, _LISTEN = Attack(), Gaze(), Listen()  # steps are frozen values: made once
LONG_SIGHT = 10  # tiles seen along the four lines above which a hunter gazes rather than listens


@record(frozen=True)
class View(Value):
    """What the hunter's briefing tells him: tiles with a survivor seen, and noise."""

    seen: dict[Tile, int]  # tile -> priority (2: a Downed survivor, 1: a survivor)
    noise: list[Tile]


_NO_DRAW = random.Random(0)  # a dry context never draws from its random source


def hunter_view(state: State, h: Player) -> View:
    pos, role = h.pos, h.role
    survivors = state.survivors(robots=True)
    dark = state.board.dark
    noise = list(state.noise)
    if state.jammed:
        noise = [t for t in noise if distance(t, pos) <= JAMMER_REACH]
    # Each tile marked at the highest level that marks it (2: a Downed survivor, 1: a survivor), in the order
    # the briefing's parts mark them (it breaks ties of the target).
    near = around(Ctx(state, _NO_DRAW, "hunter", dry=True), pos)
    seen: dict[Tile, int] = {}
    for s in survivors:
        if (s.pos == pos or s.pos in near) and s.pos not in dark:
            seen[s.pos] = 1
    for s in survivors:
        if s.downed and distance(s.pos, pos) <= 3:
            seen[s.pos] = 2
    more: list[Tile] = []
    if role == "clown":
        more += [s.pos for s in survivors if s.fear >= 1 and s.pos not in dark]
    elif role == "werewolf":
        if noise:
            more += [s.pos for s in survivors if s.pos in noise and s.pos not in dark]
        else:
            more += [s.pos for s in survivors if distance(s.pos, pos) <= 1 and s.pos not in dark]
    if state.gates_powered and state.odb_left == int(state.opt("odb_stages")):
        more += [s.pos for s in survivors]  # the Open-Door reveal (R-ODB-3), this night only
    for t in more:
        seen.setdefault(t, 1)
    return View(seen=seen, noise=noise)


_sights: dict[int, tuple[Board, dict[Tile, int]]] = {}


def _sight(board: Board, tile: Tile) -> int:
    """How many tiles a gaze from ``tile`` sees on the bare map (boards left out: a planning figure)."""
    sights = per_map(_sights, board, dict)
    seen = sights.get(tile)
    if seen is None:
        seen = 0
        for dx, dy in DIRECTIONS.values():
            cur = tile
            while board.edge(cur, (cur[0] + dx, cur[1] + dy)) is EDGE_OPEN:
                cur = (cur[0] + dx, cur[1] + dy)
                seen += 1
        sights[tile] = seen
    return seen


def _patrol(state: State, h: Player) -> Tile:
    pool = sorted(state.board.gates if state.gates_powered else state.board.generators, key=lambda t: (t[1], t[0]))
    return pool[_patrol_pick(h.seat, state.night // 2, len(pool))]


@lru_cache(maxsize=1024)
def _patrol_pick(seat: int, half_night: int, size: int) -> int:
    """Which of ``size`` patrol spots a hunter takes for two nights (seeding a generator by text is not cheap)."""
    return random.Random(f"patrol/{seat}/{half_night}").randrange(size)


def pick_target(state: State, h: Player, view: View, reach: int, rng: random.Random,
                memory: list[Tile] | None = None, fields: Fields | None = None) -> tuple[Tile, bool]:
    """The tile to go to and whether a survivor is likely there (worth an attack); ``fields``: the stage's
    cost fields (none: made for this call)."""
    if not (view.seen or view.noise or memory):
        return _patrol(state, h), False
    fld = (fields if fields is not None else Fields(state))(h, (h.pos,))
    known = [t for t in view.seen if points(fld, t) <= reach]
    if known:
        best = min(known, key=lambda t: (-view.seen[t], cost(fld, t), rng.random()))
        return best, True
    if view.seen:
        return min(view.seen, key=lambda t: (cost(fld, t), t)), True
    if view.noise:
        return min(view.noise, key=lambda t: (cost(fld, t), rng.random())), True
    if memory:
        return min(memory, key=lambda t: (cost(fld, t), t)), False
    return _patrol(state, h), False


def _dash_end(state: State, frm: Tile, d: str) -> tuple[Tile, int]:
    """Where the Clown's dash in direction d stops, and how many tiles it passes."""
    dx, dy = DIRECTIONS[d]
    cur, n = frm, 0
    while True:
        nxt = (cur[0] + dx, cur[1] + dy)
        if state.board.edge(cur, nxt) is not EDGE_OPEN or (min(cur, nxt), max(cur, nxt)) in state.boards:
            return cur, n
        cur, n = nxt, n + 1


_chains: dict[int, tuple[Board, dict[Tile, tuple[tuple[str, tuple[Tile, ...]], ...]]]] = {}


def _chain_lines(board: Board, frm: Tile) -> tuple[tuple[str, tuple[Tile, ...]], ...]:
    """The Bane's chain from ``frm``: per direction the first 2 tiles (none if a high wall or the border cuts it),
    worked out once per map and tile (walls and the border never change)."""
    lines = per_map(_chains, board, dict)
    known = lines.get(frm)
    if known is None:
        out = []
        for d in "NESW":
            dx, dy = DIRECTIONS[d]
            line: list[Tile] = []
            cur = frm
            for _ in range(2):
                nxt = (cur[0] + dx, cur[1] + dy)
                if board.edge(cur, nxt) is EDGE_WALL:
                    line = []
                    break
                line.append(nxt)
                cur = nxt
            out.append((d, tuple(line)))
        known = lines[frm] = tuple(out)
    return known


_Closer = tuple[Tile, bool, int, str, int, Step]  # landing, paid with an action point, MP, kind, field value, step


def _walks_closer(board: Board, fld: dict[Tile, int], memo: dict[object, object], pos: Tile,
                  here: int) -> list[_Closer]:
    """The map's walks from ``pos`` that bring him closer on ``fld`` (``here``: its value at ``pos``), in the walks'
    order, each with its landing's field value and its step: worked out once per tile and kept in the field's memo
    (``paths.memo_of``)."""
    key = ("hunter", pos)
    known: list[_Closer] | None = memo.get(key)  # type: ignore[assignment]
    if known is None:
        priced = [(*w, fld.get(w[0], UNREACHABLE)) for w in hunter_walks(board, pos)]
        known = [(*w, hunter_step(w[3], w[0])) for w in priced if w[4] < here]
        memo[key] = known
    return known


def _plan(board: Board, fld: dict[Tile, int], memo: dict[object, object], pos: Tile, mp: int, ap: int,
          chasing: bool) -> tuple[Step, ...]:
    """A hunter's walk from ``pos`` down ``fld`` with ``mp`` and ``ap``, each step as ``HunterBot.movement`` chooses
    it (the landing nearest the target, then one not paid with an action point; a tie goes to the first option),
    made of the map's walks alone (he keeps his last action point for the attack unless he is not chasing)."""
    steps: list[Step] = []
    while len(steps) < MAX_STEPS:
        here = fld.get(pos, UNREACHABLE)
        if here == 0:
            break
        known = _walks_closer(board, fld, memo, pos, here)
        spare_ap = ap >= 2 and chasing
        best: tuple[int, int] | None = None
        chosen: _Closer | None = None
        for option in known:
            uses_ap, wmp, left = option[1], option[2], option[4]
            if (uses_ap and not spare_ap) or wmp > mp:
                continue
            if best is None or (left, uses_ap) < best:
                best, chosen = (left, uses_ap), option
        if chosen is None:
            break
        steps.append(chosen[5])
        mp, ap, pos = mp - chosen[2], ap - (1 if chosen[1] else 0), chosen[0]
    return tuple(steps)


class HunterBot:
    """Writes one hunter's order for the hunter stage."""

    def __init__(self, state: State, seat: int, rng: random.Random, intel: Intel | None,
                 shared: State | None, fields: Fields | None = None) -> None:
        self.state, self.rng = state, rng
        fields = fields if fields is not None else Fields(state)
        self.h = state.players[seat]
        self.draft = Draft(state, seat, shared)
        self.view = hunter_view(state, self.h)
        memory = intel.recent(state.night) if intel is not None else []
        b = self.draft.budget
        self.target, self.likely = pick_target(state, self.h, self.view, b.mp + b.ap - 1, rng, memory, fields)
        self.fld = fields(self.h, (self.target,))
        self.memo = memo_of(self.fld)  # the walks kept with the field (``paths.memo_of``)
        self.attacked = False
        self.turns = MAX_STEPS  # the turns of ``write``: an attack, a step, what is left each

    @property
    def pos(self) -> Tile:
        return self.draft.p.pos

    @property
    def mp(self) -> int:
        return self.draft.budget.mp

    @property
    def ap(self) -> int:
        return self.draft.budget.ap

    def write(self) -> Order:
        while self.turns > 0:
            self.turns -= 1
            if not self.attacked and self.ap >= 1 and self.attack():
                continue
            if self.walk():
                continue
            if not self.leftover():
                break
        self.draft.release()
        return Order(tuple(self.draft.steps))

    # -- the attack -------------------------------------------------------------------------
    def attack(self) -> bool:
        h, here, d = self.draft.p, self.pos, self.draft
        seen = self.view.seen
        if not self.likely and not (h.role == "bane" and seen):
            return False  # (every attack below needs one of the two)
        tries: list[Step] = []
        if h.role == "ripper" and h.stealth and self.likely and distance(here, self.target) == 1:
            tries.append(Attack(at=self.target))  # the mist blade
        if h.role == "bane" and seen:
            for direction, line in _chain_lines(self.state.board, here):
                if any(t in seen for t in line) and (here == self.target or self.target in line):
                    tries.append(Attack(direction=direction))
        if here == self.target and self.likely:
            tries.append(_ATTACK)
        for step in tries:
            if d.add(step):
                self.attacked = True
                return True
        return False

    # -- the chase --------------------------------------------------------------------------
    def movement_options(self) -> list[HunterWalk]:
        """Every movement step from here as (landing, paid with an action point, mp, kind); the steps
        themselves are made only for the landings worth trying."""
        here, h = self.pos, self.draft.p
        out = list(hunter_walks(self.state.board, here))
        passage = self.state.passage_at(here)
        if passage is not None and passage.known_to(h):  # the map's, and an Assassin's own (RUL-1)
            out.append((passage.ends[1] if passage.ends[0] == here else passage.ends[0], False, 1, "move"))
        if h.role == "ripper" and h.stealth:
            out += [(t, False, 3, "appear") for t in self.view.noise if 0 < distance(t, here) <= 2]
        return out

    def _closer(self, fld: dict[Tile, int], here: int) -> list[_Closer]:
        """The movement options that bring him closer on ``fld`` (``here``: its value where he stands), in the options'
        order, each with its landing's field value and its step: the map's walks from a tile kept with the field
        (``paths.memo_of``), a passage he knows and the Ripper's appearances added after."""
        pos, h = self.draft.p.pos, self.draft.p
        memo = self.memo if fld is self.fld else memo_of(fld)
        known = _walks_closer(self.state.board, fld, memo, pos, here)
        passage = self.state.passage_at(pos) if self.state.passages else None
        if (passage is None or not passage.known_to(h)) and not (h.role == "ripper" and h.stealth):
            return known
        more = self.movement_options()[len(hunter_walks(self.state.board, pos)):]  # (rare)
        return known + [(*w, left, hunter_step(w[3], w[0])) for w in more
                        if (left := fld.get(w[0], UNREACHABLE)) < here]

    def walk(self) -> bool:
        """Towards the target: the walk planned from here on the field (``_plan``: kept with the field), its steps
        added while the rules take them and he has no attack to try where he stands; the Clown chasing, the Ripper
        in Stealth, the Bane, a passage he knows here, or the plan's first step refused: one step of ``movement``
        (which tries the other options)."""
        d = self.draft
        h, b = d.p, d.budget
        chasing = bool(self.likely) and not self.attacked
        if (chasing and h.role == "clown") or h.role in ("bane", "ripper") or \
                (self.state.passages and self.state.passage_at(h.pos) is not None):
            return self.movement()
        fld, memo = self.fld, self.memo
        key = ("walk", h.pos, b.mp, b.ap, chasing)
        plan: tuple[Step, ...] | None = memo.get(key)  # type: ignore[assignment]
        if plan is None:
            plan = memo[key] = _plan(self.state.board, fld, memo, h.pos, b.mp, b.ap, chasing)
        if not plan:
            return False  # (no option he may take: ``movement`` would find none either)
        if not d.add(plan[0]):
            return self.movement()
        for step in plan[1:]:
            if self.turns <= 0 or (chasing and d.budget.ap >= 1 and d.p.pos == self.target) or not d.add(step):
                break
            self.turns -= 1
        return True

    def movement(self) -> bool:
        fld, d = self.fld, self.draft
        b = d.budget
        here = fld.get(d.p.pos, UNREACHABLE)
        if here == 0:
            return False
        chasing = self.likely and not self.attacked
        clown = d.p.role == "clown" and chasing
        if clown and b.ap >= 2 and here // SCALE > b.mp:
            # Walking cannot get there tonight: a grand entrance that beats the whole walk.
            dashes = [o for o in self.dashes(here) if o[0] < here - b.mp * SCALE]
            if any(d.add(o[3]) for o in sorted(dashes, key=lambda o: o[:3])):
                return True
        spare_ap = b.ap >= 2 and chasing  # else keep the last one for the attack
        mp_left = b.mp
        draw = self.rng.random
        # Sorted by (field value, paid with an action point, a draw); the option's place breaks a tie of the three.
        options: list[tuple[int, int, float, int, Step]] = []
        for _, uses_ap, mp, _, left, step in self._closer(fld, here):
            if (uses_ap and not spare_ap) or mp > mp_left:
                continue
            options.append((left, 1 if uses_ap else 0, draw(), len(options), step))
        if not options and clown and b.ap >= 2:
            options = [(left, z, r, i, step) for i, (left, z, r, step) in enumerate(self.dashes(here))]
        options.sort()
        return any(d.add(o[4]) for o in options)

    def squares(self) -> list[tuple[Tile, ...]]:
        """2x2 squares at the generators nearest to the Assassin, for his deduction."""
        board = self.state.board
        out: list[tuple[Tile, ...]] = []
        for g in sorted(board.generators, key=lambda t: (distance(t, self.pos), t[1], t[0]))[:2]:
            c = min(g[0], board.width - 2)
            r = min(g[1], board.height - 2)
            out.append(((c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1)))
        return out

    def dashes(self, here: int) -> list[tuple[int, int, float, Step]]:
        """The Clown's grand entrance when walking cannot get closer tonight."""
        out: list[tuple[int, int, float, Step]] = []
        for direction in "NESW":
            end, passed = _dash_end(self.state, self.pos, direction)
            if passed and cost(self.fld, end) < here and passed <= 5:
                out.append((cost(self.fld, end), 0, self.rng.random(), Skill("dash", direction=direction)))
        return out

    # -- what is left -------------------------------------------------------------------------
    def leftover(self) -> bool:
        """Action points the chase did not need: a trap, sensing for tomorrow, a board."""
        state, h, d, rng = self.state, self.draft.p, self.draft, self.rng
        tries: list[Step] = []
        if h.role == "ember" and self.ap == 1 and self.mp >= 1 and not d.budget.fury_used and self.attacked:
            tries.append(Skill("fury"))  # a second action point: room for a board
        if self.ap >= 1 and (self.attacked or not self.likely or cost(self.fld, self.pos) > 0):
            if h.role == "bane" and rng.random() < TRAP_CHANCE:
                guard = state.board.generators | state.board.gates
                spots = [t for t in guard if distance(t, self.pos) <= 2 and t not in state.traps]
                tries += [Skill("trap", (t,)) for t in sorted(spots, key=lambda t: (rng.random(), t))]
            if h.role == "assassin" and not self.likely:
                tries.append(Skill("trace"))  # where the nearest survivor is, for tomorrow
                tries += [Skill("deduce", sq) for sq in self.squares()]  # is anybody cracking there?
            if self.ap >= 2 and rng.random() < BLOCK_CHANCE:
                here = self.pos
                tries += [Block(n) for n in state.board.neighbour_map[here] if state.board.edge(here, n) is EDGE_OPEN]
            if not (h.role == "ripper" and h.stealth) and not any(type(s) in _SENSING for s in d.steps):
                # Who is around, for tomorrow's chase: along the lines of sight where they are long, else within 3.
                long = _sight(state.board, self.pos) > LONG_SIGHT
                tries.append(_GAZE if long else _LISTEN)
        return any(d.add(step) for step in tries)


_SENSING = (Listen, Gaze)  # a hunter gazes or listens once a night (the bot's choice)


def hunter_order(state: State, seat: int, rng: random.Random, intel: Intel | None = None,
                 shared: State | None = None, fields: Fields | None = None) -> Order:
    """``shared``: a dry copy of the state the stage's drafts take turns on (see ``Draft``); ``fields``: the
    stage's cost fields (``paths.Fields(state)``, shared by its bots)."""
    return HunterBot(state, seat, rng, intel, shared, fields).write()
