"""Typed order steps (R-ORDER). The order language (``sheetgm.notation.orders``)
parses text into these and formats them back.

Canonical ids (English, lower case) name items, skills and roles; the
Chinese and English spellings players write live in the notation layer.
"""

from __future__ import annotations

from typing import ClassVar, Union

from sheetgm.core.board import Tile
from sheetgm.core.values import Value, field, record

ITEMS = ("map", "revolver", "wings", "stimulant", "adrenaline", "bottle", "doorkey", "jammer", "dagger")
POTIONS = ("stimulant", "adrenaline")

SURVIVOR_ROLES = ("lucky", "athlete", "doctor", "magician", "priestess", "mercenary", "gardener", "lawyer", "mechanic")
HUNTER_ROLES = ("ember", "clown", "bane", "ripper", "assassin", "werewolf")
# The default role pool is every role: the seed's starred (*) roles are in it too (R-SETUP-2).

# skill id -> (role, tag, cost). tag: instant | execute | move | forced
SKILLS: dict[str, tuple[str, str, int]] = {
    "sprint": ("athlete", "move", 3),
    "brew": ("doctor", "execute", 1),
    "magic": ("magician", "instant", 0),
    "gate": ("priestess", "instant", 0),  # 门之钥 the skill (the item is "doorkey")
    "deploy": ("mechanic", "instant", 0),
    "retrieve": ("mechanic", "instant", 0),
    "hand": ("mechanic", "instant", 0),
    "fury": ("ember", "move", 1),
    "dash": ("clown", "execute", 1),
    "trap": ("bane", "execute", 1),
    "appear": ("ripper", "move", 3),
    "deduce": ("assassin", "execute", 1),
    "trace": ("assassin", "execute", 1),
    "infiltrate": ("assassin", "forced", 0),  # 潜入者: her secret passage, named on night 1 (R-ROLE-ASSASSIN)
}


SURVIVOR, HUNTER = "survivor", "hunter"


@record(frozen=True)
class Kind(Value):
    """What every layer dispatches on: each step class carries its kind (``Move.kind``), and ``name`` keys
    the one table per layer (the resolver's rules in act.py, the parser's readers in notation/orders.py,
    the formatter's writers in notation/order_format.py); ``STEP_TYPES`` lists them all."""

    name: str  # the step's keyword id, as in notation.vocab.STEP_WORDS: "move", "use", "robot"...
    camp: str | None = None  # the only camp that may take it (None: either)
    day: bool = False  # a day order (R-PHASE-1)


@record(frozen=True)
class Move(Value):
    """One step to an adjacent tile (or through a passage); a written path is several Moves."""

    kind: ClassVar[Kind] = Kind("move")
    to: Tile


@record(frozen=True)
class Cross(Value):
    """Forced crossing of an obstacle edge (survivor 3 MP + noise; hunter 2 MP)."""

    kind: ClassVar[Kind] = Kind("cross")
    to: Tile


@record(frozen=True)
class Search(Value):
    """Search the tile for an item, the key, or whatever is there."""

    kind: ClassVar[Kind] = Kind("search", SURVIVOR)
    what: str | None = None  # an item id, "key", or None for "whatever is there"


@record(frozen=True)
class Crack(Value):
    """Work on the generator of the tile."""

    kind: ClassVar[Kind] = Kind("crack", SURVIVOR)


@record(frozen=True)
class Vault(Value):
    """Survivor 翻越 or hunter 翻越[1]: cross an obstacle edge for 1 AP."""

    kind: ClassVar[Kind] = Kind("vault")
    to: Tile


@record(frozen=True)
class Heal(Value):
    """Heal a survivor on the same tile."""

    kind: ClassVar[Kind] = Kind("heal", SURVIVOR)
    target: str  # alias
    mode: str | None = None  # "downed" | "fear" | None: downed if downed, else fear


@record(frozen=True)
class Dismantle(Value):
    """Dismantle the trap here, or the board on the edge towards ``to``."""

    kind: ClassVar[Kind] = Kind("dismantle", SURVIVOR)
    to: Tile | None = None  # the board on the edge towards this tile; None: the trap here


@record(frozen=True)
class Escape(Value):
    """Leave through an open gate."""

    kind: ClassVar[Kind] = Kind("escape", SURVIVOR)


@record(frozen=True)
class Attack(Value):
    """Attack the survivors within reach."""

    kind: ClassVar[Kind] = Kind("attack", HUNTER)
    direction: str | None = None  # Bane's chain claw: N/E/S/W
    at: Tile | None = None  # Ripper's mist blade target


@record(frozen=True)
class Block(Value):
    """Board on the edge between ``a`` and ``b``; ``a`` None means the hunter's own tile."""

    kind: ClassVar[Kind] = Kind("block", HUNTER)
    b: Tile
    a: Tile | None = None


@record(frozen=True)
class Gaze(Value):
    """Sense survivors along the straight lines from the hunter's tile (R-ACT-GAZE)."""

    kind: ClassVar[Kind] = Kind("gaze", HUNTER)


@record(frozen=True)
class Listen(Value):
    """Sense survivors near the hunter's tile (R-ACT-LISTEN)."""

    kind: ClassVar[Kind] = Kind("listen", HUNTER)


@record(frozen=True)
class Force(Value):
    """The hunter's Force: one tile towards ``to`` for 1 AP."""

    kind: ClassVar[Kind] = Kind("force", HUNTER)
    to: Tile


@record(frozen=True)
class UseItem(Value):
    """Use an item carried, on a tile if it needs one."""

    kind: ClassVar[Kind] = Kind("use", SURVIVOR)
    item: str
    target: Tile | None = None  # revolver, wings, bottle, doorkey
    whom: str | None = None  # adrenaline: alias of the downed survivor (default self)


@record(frozen=True)
class Drop(Value):
    """Put down an item carried."""

    kind: ClassVar[Kind] = Kind("drop", SURVIVOR)
    item: str


@record(frozen=True)
class Skill(Value):
    """Use a role's skill, on tiles if it needs them."""

    kind: ClassVar[Kind] = Kind("skill")
    skill: str
    tiles: tuple[Tile, ...] = ()
    direction: str | None = None
    amount: int | None = None
    what: str | None = None  # e.g. "mp" / "ap" for the Mechanic handing points to her robot


@record(frozen=True)
class RobotStep(Value):
    """A Mechanic's step carried out by her robot (``robot: move C4``)."""

    kind: ClassVar[Kind] = Kind("robot")
    step: Step


Step = Union[
    Move, Cross, Search, Crack, Vault, Heal, Dismantle, Escape, Attack, Block, Gaze, Listen, Force,
    UseItem, Drop, Skill, RobotStep,
]


@record(frozen=True)
class Give(Value):
    """Day order: give an item (or "key") to a survivor on the same tile (R-PHASE-1)."""

    kind: ClassVar[Kind] = Kind("give", SURVIVOR, day=True)
    to: str
    item: str


@record(frozen=True)
class Pray(Value):
    """Lucky Guy's day order (R-ROLE-LUCKY)."""

    kind: ClassVar[Kind] = Kind("pray", SURVIVOR, day=True)
    item: str


DayStep = Union[Give, Pray]

# kind name -> step class: every kind once. Each layer's dispatch table has exactly these keys
# (tests/test_step_kinds.py): the resolver's and the formatter's the night kinds, the parser's all of them.
STEP_TYPES: dict[str, type[Step] | type[DayStep]] = {cls.kind.name: cls for cls in (
    Move, Cross, Search, Crack, Vault, Heal, Dismantle, Escape, Attack, Block, Gaze, Listen, Force, UseItem, Drop,
    Skill, RobotStep, Give, Pray)}
NIGHT_KINDS = frozenset(name for name, cls in STEP_TYPES.items() if not cls.kind.day)


@record(frozen=True)
class Order(Value):
    """One player's order for one stage: day steps then night steps.

    ``written``, ``written_day`` and ``texts`` (from the order language, not part of the order's identity): the
    written step each night (day) step comes from (a path of three tiles is one written step and three moves) and
    the text of each written step, so that the checker, the preview and the results number and quote a step as the
    player wrote it."""

    steps: tuple[Step, ...] = ()
    day: tuple[DayStep, ...] = field(default=())
    written: tuple[int, ...] = field(default=(), compare=False)
    texts: tuple[str, ...] = field(default=(), compare=False)
    written_day: tuple[int, ...] = field(default=(), compare=False, repr=False)  # the written step of each day step

    def day_label(self, i: int) -> int:
        """The written number of day step ``i`` (1-based); i for an order not read from text."""
        if len(self.written_day) != len(self.day) or not 0 < i <= len(self.day):
            return i
        return self.written_day[i - 1]

    def label(self, i: int) -> tuple[int, str]:
        """The written number and text of night step ``i`` (1-based); (i, "") for an order not read from text."""
        if len(self.written) != len(self.steps) or not 0 < i <= len(self.steps):
            return i, ""
        n = self.written[i - 1]
        return n, self.texts[n - 1] if 0 < n <= len(self.texts) else ""
