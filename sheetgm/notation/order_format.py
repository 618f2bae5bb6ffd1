"""Canonical text of orders, in Chinese or English.

``parse_order(format_order(o, lang)) == o`` for every order whose aliases
are writable (``valid_alias``) and whose steps have the fields their kind
uses. Consecutive moves are merged into one path (``移动 B2 B3 C3``); day
steps come first. A step that cannot be written raises ``ValueError``.
"""

from __future__ import annotations

import re
import unicodedata

from sheetgm.core.board import Tile, tile_name
from sheetgm.core.steps import (
    Attack,
    Block,
    Crack,
    Cross,
    DayStep,
    Dismantle,
    Drop,
    Escape,
    Force,
    Gaze,
    Give,
    Heal,
    Listen,
    Move,
    Order,
    Pray,
    RobotStep,
    Search,
    Skill,
    Step,
    UseItem,
    Vault,
)
from sheetgm.notation.vocab import DIRECTION_NAMES, ITEM_NAMES, SKILL_NAMES, item_name

TILE_ITEMS = frozenset({"revolver", "wings", "bottle", "doorkey"})
MAX_COL = 26 + 26 * 26  # A..ZZ
MAX_ROW = 999

# kind -> (zh, en): the keyword each step is written with.
WORDS: dict[str, tuple[str, str]] = {
    "move": ("移动", "move"), "cross": ("越过", "cross"), "search": ("搜索", "search"), "crack": ("破解", "crack"),
    "vault": ("翻越", "vault"), "heal": ("救治", "heal"), "dismantle": ("拆除", "dismantle"),
    "escape": ("逃生", "escape"), "attack": ("攻击", "attack"), "block": ("封堵", "block"), "gaze": ("远眺", "gaze"),
    "listen": ("聆听", "listen"), "force": ("强行", "force"), "use": ("使用", "use"), "drop": ("丢弃", "drop"),
    "give": ("给予", "give"), "pray": ("祈祷", "pray"), "robot": ("机器人：", "robot: "), "trap": ("陷阱", "trap"),
    "remove": ("取消", "remove"), "nothing": ("无", "none"),
    "downed": ("倒地", "downed"), "fear": ("恐惧", "fear"), "mp": ("移动力", "mp"), "ap": ("行动力", "ap"),
}
# English skill keywords are the ids; the Priestess's gate is written "技能 门之钥" in Chinese.
SKILL_WORDS_ZH = {skill: zh for skill, (zh, _en) in SKILL_NAMES.items()} | {"gate": "技能 门之钥"}
ITEM_WORDS_EN = {item: item for item in ITEM_NAMES}
DIRECTION_WORDS: dict[str, tuple[str, str]] = {d: (DIRECTION_NAMES[d][0], d) for d in ("N", "E", "S", "W")}

_FORBIDDEN = re.compile(r"[\s;,、。:>→⇒⟶]|->|=>")
_SEPARATOR = {"zh": "；", "en": "; "}


def valid_alias(alias: str) -> bool:
    """Whether an alias can be written in an order and read back unchanged."""
    return bool(alias) and unicodedata.normalize("NFKC", alias) == alias and not _FORBIDDEN.search(alias)


def format_order(order: Order, lang: str = "zh") -> str:
    """Canonical text of a whole order; the empty order is 无 / none."""
    parts = [format_step(s, lang) for s in order.day]
    pending: list[Tile] = []
    robot_pending: list[Tile] = []

    def flush() -> None:
        if pending:
            parts.append(_join(_w("move", lang), *map(_tile, pending)))
            pending.clear()
        if robot_pending:
            parts.append(_w("robot", lang) + _join(_w("move", lang), *map(_tile, robot_pending)))
            robot_pending.clear()

    for step in order.steps:
        if isinstance(step, Move):
            if robot_pending:
                flush()
            pending.append(step.to)
        elif isinstance(step, RobotStep) and isinstance(step.step, Move):
            if pending:
                flush()
            robot_pending.append(step.step.to)
        else:
            flush()
            parts.append(format_step(step, lang))
    flush()
    return _SEPARATOR.get(lang, "; ").join(parts) if parts else _w("nothing", lang)


def format_step(step: Step | DayStep, lang: str = "zh") -> str:
    """Canonical text of one step (a Move is one tile: ``移动 B2``)."""

    def w(kind: str) -> str:
        return _w(kind, lang)

    if isinstance(step, RobotStep):
        if isinstance(step.step, RobotStep):
            raise ValueError("a robot step cannot hold another robot step")
        return w("robot") + format_step(step.step, lang)
    if isinstance(step, (Move, Cross, Vault, Force)):
        kind = {Move: "move", Cross: "cross", Vault: "vault", Force: "force"}[type(step)]
        return _join(w(kind), _tile(step.to))
    if isinstance(step, (Crack, Escape, Gaze, Listen)):
        return w({Crack: "crack", Escape: "escape", Gaze: "gaze", Listen: "listen"}[type(step)])
    if isinstance(step, Search):
        return _join(w("search"), _item_or_key(step.what, lang) if step.what else "")
    if isinstance(step, Heal):
        if step.mode not in (None, "downed", "fear"):
            raise ValueError(f"unknown heal mode {step.mode!r}")
        return _join(w("heal"), _alias(step.target), w(step.mode) if step.mode else "")
    if isinstance(step, Dismantle):
        return _join(w("dismantle"), _tile(step.to) if step.to is not None else w("trap"))
    if isinstance(step, Attack):
        return _join(w("attack"), _direction(step.direction, lang) if step.direction else "",
                     _tile(step.at) if step.at is not None else "")
    if isinstance(step, Block):
        return _join(w("block"), _tile(step.b) if step.a is None else f"{_tile(step.a)}-{_tile(step.b)}")
    if isinstance(step, UseItem):
        return _use(step, lang)
    if isinstance(step, Drop):
        return _join(w("drop"), _item(step.item, lang))
    if isinstance(step, Skill):
        return _skill(step, lang)
    if isinstance(step, Give):
        return _join(w("give"), _alias(step.to), _item_or_key(step.item, lang))
    if isinstance(step, Pray):
        return _join(w("pray"), _item(step.item, lang))
    raise ValueError(f"not an order step: {step!r}")


def _use(step: UseItem, lang: str) -> str:
    item = _item(step.item, lang)
    if step.item in TILE_ITEMS:
        if step.target is None or step.whom is not None:
            raise ValueError(f"{step.item} takes exactly one target tile: {step!r}")
        return _join(_w("use", lang), item, _tile(step.target))
    if step.target is not None or (step.whom is not None and step.item != "adrenaline"):
        raise ValueError(f"{step.item} takes no target: {step!r}")
    return _join(_w("use", lang), item, _alias(step.whom) if step.whom is not None else "")


def _skill(step: Skill, lang: str) -> str:
    s = step.skill
    if s not in SKILL_NAMES:
        raise ValueError(f"unknown skill {s!r}")
    word = SKILL_WORDS_ZH[s] if lang == "zh" else s
    tiles = [_tile(t) for t in step.tiles]
    shape = {
        "sprint": 1 <= len(tiles) <= 4, "deduce": len(tiles) == 4, "trap": 1 <= len(tiles) <= 2,
        "magic": len(tiles) == 1, "gate": len(tiles) == 1, "appear": len(tiles) == 1,
        "deploy": len(tiles) <= 1, "infiltrate": len(tiles) == 2,
    }.get(s, not tiles)
    fields_ok = (step.direction is not None) == (s == "dash") and (
        (step.amount is not None and step.what in ("mp", "ap") and step.amount >= 1) if s == "hand"
        else step.amount is None and step.what is None)
    if not (shape and fields_ok):
        raise ValueError(f"skill step has the wrong fields for {s}: {step!r}")
    if s == "dash":
        return _join(word, _direction(step.direction, lang))
    if s == "hand":
        return _join(word, str(step.amount), _w(step.what or "", lang))
    if s == "trap" and len(tiles) == 2:
        return _join(word, tiles[0], _w("remove", lang), tiles[1])
    return _join(word, *tiles)


def _w(kind: str, lang: str) -> str:
    zh, en = WORDS[kind]
    return en if lang == "en" else zh


def _join(*words: str) -> str:
    return " ".join(w for w in words if w)


def _tile(tile: Tile) -> str:
    col, row = tile
    if not (0 <= col < MAX_COL and 0 <= row < MAX_ROW):
        raise ValueError(f"tile out of the nameable range: {tile!r}")
    return tile_name(tile)


def _alias(alias: str) -> str:
    if not valid_alias(alias):
        raise ValueError(f"alias cannot be written in an order: {alias!r}")
    return alias


def _item(item: str, lang: str) -> str:
    if item not in ITEM_NAMES:
        raise ValueError(f"unknown item {item!r}")
    return ITEM_WORDS_EN[item] if lang == "en" else item_name(item, "zh")


def _item_or_key(what: str, lang: str) -> str:
    return ("key" if lang == "en" else "钥匙") if what == "key" else _item(what, lang)


def _direction(direction: str | None, lang: str) -> str:
    if direction not in DIRECTION_WORDS:
        raise ValueError(f"not a direction: {direction!r}")
    zh, en = DIRECTION_WORDS[direction]
    return en if lang == "en" else zh
