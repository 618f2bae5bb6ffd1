"""Canonical text of orders, in Chinese or English.

``parse_order(format_order(o, lang)) == o`` for every order whose aliases
are writable (``valid_alias``) and whose steps have the fields their kind
uses. Consecutive moves are merged into one path (``移动 B2 B3 C3``); day
steps come first. A step that cannot be written raises ``ValueError``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Any

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
    Kind,
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
    kind = getattr(step, "kind", None)
    writer = _WRITERS.get(kind.name) if isinstance(kind, Kind) else None
    if writer is None:
        raise ValueError(f"not an order step: {step!r}")
    return writer(step, lang)


def _robot(step: RobotStep, lang: str) -> str:
    if step.step.kind.name == "robot":
        raise ValueError("a robot step cannot hold another robot step")
    return _w("robot", lang) + format_step(step.step, lang)


def _to(step: Move | Cross | Vault | Force, lang: str) -> str:
    return _join(_w(step.kind.name, lang), _tile(step.to))


def _bare(step: Crack | Escape | Gaze | Listen, lang: str) -> str:
    return _w(step.kind.name, lang)


def _search(step: Search, lang: str) -> str:
    return _join(_w("search", lang), _item_or_key(step.what, lang) if step.what else "")


def _heal(step: Heal, lang: str) -> str:
    if step.mode not in (None, "downed", "fear"):
        raise ValueError(f"unknown heal mode {step.mode!r}")
    return _join(_w("heal", lang), _alias(step.target), _w(step.mode, lang) if step.mode else "")


def _dismantle(step: Dismantle, lang: str) -> str:
    return _join(_w("dismantle", lang), _tile(step.to) if step.to is not None else _w("trap", lang))


def _attack(step: Attack, lang: str) -> str:
    return _join(_w("attack", lang), _direction(step.direction, lang) if step.direction else "",
                 _tile(step.at) if step.at is not None else "")


def _block(step: Block, lang: str) -> str:
    return _join(_w("block", lang), _tile(step.b) if step.a is None else f"{_tile(step.a)}-{_tile(step.b)}")


def _drop(step: Drop, lang: str) -> str:
    return _join(_w("drop", lang), _item(step.item, lang))


def _give(step: Give, lang: str) -> str:
    return _join(_w("give", lang), _alias(step.to), _item_or_key(step.item, lang))


def _pray(step: Pray, lang: str) -> str:
    return _join(_w("pray", lang), _item(step.item, lang))


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


# The formatter's table: every kind (steps.STEP_TYPES) to its writer.
_WRITERS: dict[str, Callable[[Any, str], str]] = {
    "move": _to, "cross": _to, "vault": _to, "force": _to, "crack": _bare, "escape": _bare, "gaze": _bare,
    "listen": _bare, "search": _search, "heal": _heal, "dismantle": _dismantle, "attack": _attack, "block": _block,
    "use": _use, "drop": _drop, "skill": _skill, "robot": _robot, "give": _give, "pray": _pray,
}
WRITER_KINDS = frozenset(_WRITERS)  # for tests/test_step_kinds.py


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
