"""The order language: one player's order for one stage, as written in a sheet cell.

Grammar (zh and en keywords mix freely, case and full width do not matter)::

    order   := "" | nothing | step (SEP step)*       SEP := ; ； , ， 、 。 newline
    step    := ["robot:" | "机器人："] body
    body    := TILE+                                  a path: one Move per tile
             | KEYWORD arg*                           e.g. 移动 B2 B3, 救治 小明 倒地
             | ITEM arg?                              e.g. 左轮手枪 C4 (use the item)
             | ("skill"|"技能") SKILL arg*            e.g. 技能 门之钥 B3
             | ("item"|"道具"|"use"|"使用") ITEM arg?

Inside a step, words are separated by spaces, arrows (→ > ->) or colons. A
Chinese keyword may be glued to what follows (``移动B2B3``, ``搜索钥匙``,
``救治小明倒地``). A leading step number (``1.``, ``(2)``, ``第3步``) is ignored.
Tiles after 、 or a comma right after a move continue its path (``移动 F4，F3``
is one written step, RUL-60), and likewise a sprint's or a deduction's tile
list (``冲刺 B2，B3，B4``). Keywords may be written in
traditional characters (``移動``, ``攻擊``). The full word list is in
``vocab``; ``docs/order-language.md`` has many examples.

``parse_order`` raises the first ``OrderSyntaxError``; ``parse_order_all``
collects one error per bad step and keeps the good steps. Every error has
``step`` (1-based number of the written step), ``text`` (that step as
written) and, where it applies, ``word`` (the offending word) and
``expected`` (an id; ``expected_zh`` / ``expected_en`` carry its text).
An unknown word or a wrong argument also carries ``did_you_mean_zh`` /
``did_you_mean_en`` (near misses, ``hints``). Given the writer's ``camp``, the
hints are that camp's, and a step that starts with the other camp's word is
reported as such (``err.order.other_camp``) instead of being explained.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import partial
from typing import Any

from sheetgm.core.board import Tile, parse_tile
from sheetgm.core.errors import OrderSyntaxError
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
from sheetgm.core.texts import render
from sheetgm.core.values import record
from sheetgm.notation.hints import advice, camp_names, other_camp
from sheetgm.notation.order_format import TILE_ITEMS, format_order, format_step
from sheetgm.notation.vocab import (
    DIRECTION_WORDS,
    HEAL_MODE_WORDS,
    ITEM_WORDS,
    KEY_WORDS,
    NOTHING_WORDS,
    NUMBER_WORDS,
    POINT_WORDS,
    PREFIX_WORDS,
    REMOVE_WORDS,
    SKILL_WORDS,
    STEP_WORDS,
    TO_WORDS,
    normalize_word,
    plain_text,
    simplified,
)

__all__ = ["parse_order", "parse_order_all", "parse_order_numbered", "Parsed", "format_order", "format_step",
           "MAX_SPRINT_TILES"]

MAX_SPRINT_TILES = 4
DEDUCE_TILES = 4
NO_ARG_SKILLS = frozenset({"brew", "retrieve", "fury", "trace"})
ONE_TILE_SKILLS = frozenset({"magic", "gate", "appear"})
LIST_SKILLS = frozenset({"sprint", "deduce"})  # whose tile list may continue after 、 or a comma

_SEPS = frozenset(";,、。\n\r\u2028\u2029")  # between steps, as NFKC reads them
_LIST_SEPS = frozenset({",", "、"})  # (after NFKC, "，" is ","): tiles after them may continue a path or a list
_ARROW_RE = re.compile(r"->|=>|→|⇒|⟶|>|:")
_TILE_RUN_RE = re.compile(r"[A-Za-z]{1,2}[1-9][0-9]{0,2}")
_AMOUNT_RE = re.compile(r"^([0-9]+|[一二两三四五])(.*)$")
_NUMBER_RE = re.compile(r"[0-9]{1,4}")
# A step number players put in front of a step: "1.", "(2)", "第3步", "四、" (no step starts with a number).
_ENUM_RE = re.compile(r"^(?:\([0-9]{1,2}\)|第?(?:[0-9]{1,2}|[一二三四五六七八九十]{1,2})步?[.)]?)\s*")

# Chinese words that may be glued to what follows, longest first.
_GLUE_WORDS = sorted(
    (w for w in (*PREFIX_WORDS, *STEP_WORDS, *SKILL_WORDS, *ITEM_WORDS, *NOTHING_WORDS) if not w.isascii()),
    key=len,
    reverse=True,
)
_HEAD_PREFIX_KINDS = frozenset({"robot", "skill", "item", "use"})


class _Problem(Exception):
    """A syntax problem inside one step; the caller adds the step number and text."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def _expect(code: str, expected: str, **params: Any) -> _Problem:
    key = f"order.expect.{expected}"
    return _Problem(code, expected=expected, expected_zh=render("zh", key), expected_en=render("en", key), **params)


@record
class _Segment:
    """One numbered step of an order's text, split into words."""

    number: int
    text: str
    tokens: list[str]
    glued: bool


class _Nothing:
    """The whole step says "do nothing" (无 / pass)."""


# --- public API ----------------------------------------------------------------


def parse_order(text: str, camp: str | None = None) -> Order:
    """Parse one order strictly: the first syntax problem raises ``OrderSyntaxError``."""
    order, errors = parse_order_all(text, camp)
    if errors:
        raise errors[0]
    return order


def parse_order_all(text: str, camp: str | None = None) -> tuple[Order, list[OrderSyntaxError]]:
    """Parse every step that can be read; return the order and one error per bad step.

    ``camp`` (the writer's, when known) only shapes the hints: the examples and the near-miss
    words an error offers are that camp's."""
    parsed = parse_order_numbered(text, camp)
    return parsed.order, parsed.errors


@record
class Parsed:
    """An order read leniently, with the written step each of its steps comes from (a path of three
    tiles is one written step and three moves), so that every message can number steps as written."""

    order: Order
    errors: list[OrderSyntaxError]
    written: tuple[int, ...]  # for each night step of ``order``
    written_day: tuple[int, ...]  # for each day step
    texts: tuple[str, ...] = ()  # the text of each written step, as written (``texts[n - 1]`` for step n)


def parse_order_numbered(text: str, camp: str | None = None) -> Parsed:
    """``parse_order_all`` with the written step number of every step read."""
    steps: list[Step] = []
    day: list[DayStep] = []
    written: list[int] = []
    written_day: list[int] = []
    errors: list[OrderSyntaxError] = []
    segments = _segments(text)
    nothing: _Segment | None = None
    for seg in segments:
        try:
            parsed = _parse_segment(seg.tokens, seg.glued)
        except _Problem as exc:
            theirs = other_camp(seg.tokens[0], camp)
            if theirs is not None:  # a hunter is not told how to write a survivor's action, nor the other way
                code, params = "err.order.other_camp", {"word": seg.tokens[0], **camp_names(theirs)}
            else:
                code, params = exc.code, exc.params | advice(exc.code, exc.params, camp)
            errors.append(OrderSyntaxError(code, step=seg.number, text=seg.text, **params))
            continue
        if isinstance(parsed, _Nothing):
            nothing = seg
            continue
        for s in parsed:
            if isinstance(s, (Give, Pray)):
                day.append(s)
                written_day.append(seg.number)
            else:
                steps.append(s)
                written.append(seg.number)
    if nothing is not None and len(segments) > 1:
        errors.append(OrderSyntaxError("err.order.nothing_mixed", step=nothing.number, text=nothing.text))
        errors.sort(key=lambda e: e.params["step"])
    texts = tuple(seg.text for seg in segments)
    order = Order(tuple(steps), tuple(day), tuple(written), texts, tuple(written_day))
    return Parsed(order, errors, tuple(written), tuple(written_day), texts)


# --- splitting -----------------------------------------------------------------


def _segments(text: str) -> list[_Segment]:
    """Split a cell into written steps; tiles after 、 or a comma extend a path, a sprint or a deduction.

    Each step keeps its text as the player wrote it (``，`` stays ``，``), to be quoted back (RUL-63)."""
    out: list[_Segment] = []
    starts: list[int] = []  # where each step's text starts in ``text``
    sep = ""
    for start, end, after in _pieces(text):
        part = text[start:end]
        plain = plain_text(part).strip()
        chunk = _ENUM_RE.sub("", plain, count=1).strip()
        this_sep, sep = sep, after
        if not chunk:
            continue
        tokens, glued = _split_head(_ARROW_RE.sub(" ", chunk).split())
        if not tokens:  # only arrows or colons
            continue
        lo, hi = _span(text, start, end, numbered=chunk != plain)
        if this_sep in _LIST_SEPS and out and _extends_list(out[-1].tokens, tokens):
            prev = out[-1]
            prev.tokens.extend(tokens)
            prev.text = text[starts[-1]:hi]
            continue
        out.append(_Segment(len(out) + 1, text[lo:hi], tokens, glued))
        starts.append(lo)
    return out


def _pieces(text: str) -> list[tuple[int, int, str]]:
    """The cell cut at its separators: the start and end of each part in ``text`` and the separator after it
    (as NFKC reads it: ``，`` is ``,``; "" after the last part)."""
    out: list[tuple[int, int, str]] = []
    start = 0
    for i, c in enumerate(text):
        sep = c if c.isascii() else unicodedata.normalize("NFKC", c)
        if sep in _SEPS:
            out.append((start, i, sep))
            start = i + 1
    out.append((start, len(text), ""))
    return out


def _span(text: str, start: int, end: int, numbered: bool) -> tuple[int, int]:
    """Where a step's own text lies in ``text[start:end]``: without the spaces around it, nor the step number
    the player put in front of it (when it is written in plain digits or Chinese numerals)."""
    part = text[start:end]
    lo = start + len(part) - len(part.lstrip())
    hi = start + len(part.rstrip())
    if numbered:
        m = _ENUM_RE.match(text[lo:hi])
        if m is not None and m.end() < hi - lo:
            lo += m.end()
    return lo, hi


def _split_head(tokens: list[str]) -> tuple[list[str], bool]:
    """Unglue Chinese keywords at the start of a step: 机器人移动B2 → 机器人 移动 B2."""
    out: list[str] = []
    rest = list(tokens)
    glued = False
    while rest:
        word = normalize_word(rest[0])
        kind = PREFIX_WORDS.get(word) or STEP_WORDS.get(word)
        if kind is not None:
            out.append(rest.pop(0))
            if kind in _HEAD_PREFIX_KINDS:
                continue
            break
        if word in SKILL_WORDS or word in ITEM_WORDS or word in NOTHING_WORDS or parse_tile(rest[0]):
            break
        folded = simplified(rest[0])
        glue = next((w for w in _GLUE_WORDS if folded.startswith(w) and len(folded) > len(w)), None)
        if glue is None:
            break
        glued = True
        out.append(rest[0][: len(glue)])
        rest[0] = rest[0][len(glue):]
        if (PREFIX_WORDS.get(glue) or STEP_WORDS.get(glue)) not in _HEAD_PREFIX_KINDS:
            break
    return out + rest, glued


def _head_skill(tokens: list[str]) -> str | None:
    for tok in tokens:
        word = normalize_word(tok)
        if PREFIX_WORDS.get(word) in _HEAD_PREFIX_KINDS or STEP_WORDS.get(word) == "use":
            continue
        return SKILL_WORDS.get(word)
    return None


def _extends_list(prev: list[str], tokens: list[str]) -> bool:
    """Tiles alone after 、 or a comma continue a path (``move F4, F3`` is one written step of two moves), and
    likewise the tile list of a skill that moves along a path or names tiles in a row: a sprint (冲刺<移动>:
    移动时可移动四个地块, ``冲刺 C1，D1，E1，E2``) or a deduction (RUL-60)."""
    if not tokens or not all(_is_tile_run(t) for t in tokens):
        return False
    return _is_path(prev) or _head_skill(prev) in LIST_SKILLS


def _is_path(tokens: list[str]) -> bool:
    """A written move: tiles alone, or the move keyword and tiles (``移动 B2 B3``, ``move to B2``), the robot's
    too (``robot: move B2``: the tiles after it are the robot's path)."""
    if len(tokens) > 1 and PREFIX_WORDS.get(normalize_word(tokens[0])) == "robot":
        tokens = tokens[1:]
    if _is_tile_run(tokens[0]):
        return all(_is_tile_run(t) for t in tokens)
    rest = [t for t in tokens[1:] if normalize_word(t) not in TO_WORDS]
    return STEP_WORDS.get(normalize_word(tokens[0])) == "move" and bool(rest) and all(_is_tile_run(t) for t in rest)


def _is_tile_run(token: str) -> bool:
    return re.fullmatch(f"(?:{_TILE_RUN_RE.pattern})+", token) is not None


# --- steps ---------------------------------------------------------------------


def _parse_segment(tokens: list[str], glued: bool) -> list[Step | DayStep] | _Nothing:
    if PREFIX_WORDS.get(normalize_word(tokens[0])) == "robot":
        return _READERS["robot"](tokens[0], tokens[1:], glued)
    return _parse_body(tokens, glued)


def _parse_body(tokens: list[str], glued: bool) -> list[Step | DayStep] | _Nothing:
    first, args = tokens[0], tokens[1:]
    word = normalize_word(first)
    if _is_tile_run(first):
        return [Move(t) for t in _tiles(tokens)]
    prefix = PREFIX_WORDS.get(word)
    if prefix in ("skill", "item"):  # 技能 门之钥 B3, 道具 地图
        return _READERS["skill" if prefix == "skill" else "use"](first, args, glued)
    kind = STEP_WORDS.get(word)
    if kind == "use":
        return _read_use(first, args, glued, skills=True)
    if word in NOTHING_WORDS:
        _no_args(args)
        return _Nothing()
    if word in ITEM_WORDS:
        return [_use(ITEM_WORDS[word], args)]
    if word in SKILL_WORDS:
        return [_skill(SKILL_WORDS[word], args, glued)]
    if kind is None:
        raise _Problem("err.order.unknown_word", word=first)
    return _READERS[kind](first, args, glued)


# --- one reader per kind: (the keyword as written, the words after it, whether they were glued to it) ------


def _read_robot(first: str, args: list[str], glued: bool) -> list[Step | DayStep]:
    if not args:
        raise _expect("err.order.missing_arg", "step", word=first)
    if PREFIX_WORDS.get(normalize_word(args[0])) == "robot":
        raise _Problem("err.order.robot_nested", word=args[0])
    inner = _parse_body(args, glued)
    if isinstance(inner, _Nothing) or any(s.kind.day for s in inner):
        raise _Problem("err.order.robot_day", word=args[0])
    return [RobotStep(s) for s in inner if not isinstance(s, (Give, Pray))]


def _read_skill(first: str, args: list[str], glued: bool) -> list[Step | DayStep]:
    if not args:
        raise _expect("err.order.missing_arg", "skill", word=first)
    skill = "gate" if ITEM_WORDS.get(normalize_word(args[0])) == "doorkey" else SKILL_WORDS.get(
        normalize_word(args[0]))
    if skill is None:
        raise _expect("err.order.bad_arg", "skill", word=args[0])
    return [_skill(skill, args[1:], glued)]


def _read_use(first: str, args: list[str], glued: bool, skills: bool = False) -> list[Step | DayStep]:
    """道具 ITEM (an item only) or 使用 ITEM|SKILL (``skills``)."""
    if not args:
        raise _expect("err.order.missing_arg", "item", word=first)
    item = ITEM_WORDS.get(normalize_word(args[0]))
    if item is not None:
        return [_use(item, args[1:])]
    skill = SKILL_WORDS.get(normalize_word(args[0]))
    if skills and skill is not None:
        return [_skill(skill, args[1:], glued)]
    raise _expect("err.order.bad_arg", "item", word=args[0])


def _read_move(first: str, args: list[str], glued: bool) -> list[Step | DayStep]:
    if args and normalize_word(args[0]) in TO_WORDS:  # move to B2
        args = args[1:]
    if not args:
        raise _expect("err.order.missing_arg", "tile")
    return [Move(t) for t in _tiles(args)]


def _read_force(first: str, args: list[str], glued: bool) -> list[Step | DayStep]:
    if args and STEP_WORDS.get(normalize_word(args[0])) == "cross":  # 强行 越过 C4
        return _read_to(first, args[1:], glued, "cross")
    return _read_to(first, args, glued, "force")


_ONE_TILE: dict[str, Callable[[Tile], Step]] = {"cross": Cross, "vault": Vault, "force": Force}
_BARE: dict[str, Callable[[], Step]] = {"crack": Crack, "escape": Escape, "gaze": Gaze, "listen": Listen}


def _read_to(first: str, args: list[str], glued: bool, kind: str) -> list[Step | DayStep]:
    """A step of one tile: cross, vault, force."""
    return [_ONE_TILE[kind](_one_tile(args))]


def _read_bare(first: str, args: list[str], glued: bool, kind: str) -> list[Step | DayStep]:
    """A step with no argument: crack, escape, gaze, listen."""
    _no_args(args)
    return [_BARE[kind]()]


def _read_search(first: str, args: list[str], glued: bool) -> list[Step | DayStep]:
    if not args:
        return [Search()]
    _no_args(args[1:])
    return [Search(_item_or_key(args[0]))]


def _read_dismantle(first: str, args: list[str], glued: bool) -> list[Step | DayStep]:
    if not args:
        raise _expect("err.order.missing_arg", "tile_or_trap")
    _no_args(args[1:])
    if normalize_word(args[0]) in ("trap", "陷阱"):
        return [Dismantle(None)]
    board = parse_tile(args[0])
    if board is None:
        raise _expect("err.order.bad_tile", "tile_or_trap", word=args[0])
    return [Dismantle(board)]


def _read_drop(first: str, args: list[str], glued: bool) -> list[Step | DayStep]:
    if not args:
        raise _expect("err.order.missing_arg", "item")
    _no_args(args[1:])
    return [Drop(_item(args[0]))]


def _read_pray(first: str, args: list[str], glued: bool) -> list[Step | DayStep]:
    if not args:
        raise _expect("err.order.missing_arg", "item")
    _no_args(args[1:])
    return [Pray(_item(args[0]))]


Reader = Callable[[str, list[str], bool], list[Step | DayStep]]
# The parser's table: every kind (steps.STEP_TYPES) to its reader.
_READERS: dict[str, Reader] = {
    "move": _read_move, "force": _read_force, "search": _read_search, "dismantle": _read_dismantle,
    "drop": _read_drop, "pray": _read_pray, "robot": _read_robot, "skill": _read_skill, "use": _read_use,
    "heal": lambda first, args, glued: [_heal(args, glued)],
    "give": lambda first, args, glued: [_give(args, glued)],
    "attack": lambda first, args, glued: [_attack(args)],
    "block": lambda first, args, glued: [_block(args)],
    **{kind: partial(_read_to, kind=kind) for kind in ("cross", "vault")},
    **{kind: partial(_read_bare, kind=kind) for kind in ("crack", "escape", "gaze", "listen")},
}
READER_KINDS = frozenset(_READERS)  # for tests/test_step_kinds.py


def _skill(skill: str, args: list[str], glued: bool) -> Skill:
    if skill in NO_ARG_SKILLS:
        _no_args(args)
        return Skill(skill)
    if skill in ONE_TILE_SKILLS:
        return Skill(skill, tiles=(_one_tile(args),))
    if skill == "deploy":  # 放置机器人 [TILE]: anywhere on the map, her own tile when none is named
        return Skill("deploy", tiles=(_one_tile(args),) if args else ())
    if skill == "infiltrate":  # 潜入者 B2 E5 (or B2-E5): the Assassin's passage
        ends = _tiles([part for a in args for part in a.split("-") if part])
        if len(ends) != 2:
            raise _Problem("err.order.tile_count", count=len(ends), need="2")
        return Skill("infiltrate", tiles=tuple(ends))
    if skill == "sprint":
        tiles = _tiles(args) if args else ()
        if not tiles:
            raise _expect("err.order.missing_arg", "tiles")
        if len(tiles) > MAX_SPRINT_TILES:
            raise _Problem("err.order.tile_count", count=len(tiles), need=f"1-{MAX_SPRINT_TILES}")
        return Skill("sprint", tiles=tuple(tiles))
    if skill == "deduce":
        tiles = _tiles(args) if args else ()
        if len(tiles) != DEDUCE_TILES:
            raise _Problem("err.order.tile_count", count=len(tiles), need=str(DEDUCE_TILES))
        return Skill("deduce", tiles=tuple(tiles))
    if skill == "dash":
        if not args:
            raise _expect("err.order.missing_arg", "direction")
        _no_args(args[1:])
        return Skill("dash", direction=_direction(args[0]))
    if skill == "hand":
        return _hand(args)
    # trap: TILE [remove TILE]
    rest = [a for a in args if normalize_word(a) not in REMOVE_WORDS]
    if len(args) - len(rest) > 1 or (len(rest) != len(args) and len(rest) < 2):
        raise _expect("err.order.bad_arg", "tile", word=next(a for a in args if normalize_word(a) in REMOVE_WORDS))
    if not rest:
        raise _expect("err.order.missing_arg", "tile")
    if len(rest) > 2:
        raise _Problem("err.order.extra_arg", word=rest[2])
    return Skill("trap", tiles=tuple(_tile(a) for a in rest))


def _use(item: str, args: list[str]) -> UseItem:
    if item in TILE_ITEMS:
        return UseItem(item, target=_one_tile(args))
    if item == "adrenaline" and args:
        _no_args(args[1:])
        return UseItem(item, whom=args[0])
    _no_args(args)
    return UseItem(item)


def _heal(args: list[str], glued: bool) -> Heal:
    if not args:
        raise _expect("err.order.missing_arg", "alias")
    if len(args) == 1 and glued:  # 救治小明倒地
        for mode_word, glued_mode in HEAL_MODE_WORDS.items():
            if not mode_word.isascii() and simplified(args[0]).endswith(mode_word) and len(args[0]) > len(mode_word):
                return Heal(args[0][: -len(mode_word)], glued_mode)
    if len(args) == 1:
        return Heal(args[0])
    _no_args(args[2:])
    mode = HEAL_MODE_WORDS.get(normalize_word(args[1]))
    if mode is None:
        raise _expect("err.order.bad_arg", "mode", word=args[1])
    return Heal(args[0], mode)


def _give(args: list[str], glued: bool) -> Give:
    if len(args) == 1 and glued:  # 给予小明地图
        for name in sorted((*ITEM_WORDS, *KEY_WORDS), key=len, reverse=True):
            if not name.isascii() and simplified(args[0]).endswith(name) and len(args[0]) > len(name):
                return Give(args[0][: -len(name)], _item_or_key(name))
    if not args:
        raise _expect("err.order.missing_arg", "alias")
    if len(args) == 1:
        raise _expect("err.order.missing_arg", "item_or_key")
    _no_args(args[2:])
    return Give(args[0], _item_or_key(args[1]))


def _attack(args: list[str]) -> Attack:
    direction: str | None = None
    at: Tile | None = None
    for a in args:
        d = DIRECTION_WORDS.get(normalize_word(a))
        t = parse_tile(a)
        if d is not None and direction is None:
            direction = d
        elif t is not None and at is None:
            at = t
        elif d is not None or t is not None:
            raise _Problem("err.order.extra_arg", word=a)
        else:
            raise _expect("err.order.bad_arg", "direction_or_tile", word=a)
    return Attack(direction, at)


def _block(args: list[str]) -> Block:
    parts = [p for a in args for p in a.split("-") if p] if args else []
    if not parts:
        raise _expect("err.order.missing_arg", "tile")
    if len(parts) > 2:
        raise _Problem("err.order.extra_arg", word=parts[2])
    tiles = [_tile(p) for p in parts]
    return Block(tiles[-1], tiles[0] if len(tiles) == 2 else None)


def _hand(args: list[str]) -> Skill:
    words = list(args)
    if len(words) == 1:  # 交付 1移动力 / hand 2mp
        m = _AMOUNT_RE.match(words[0])
        if m and m.group(2):
            words = [m.group(1), m.group(2)]
    amount: int | None = None
    what: str | None = None
    for w in words:
        n = normalize_word(w)
        if n in POINT_WORDS and what is None:
            what = POINT_WORDS[n]
        elif (_NUMBER_RE.fullmatch(n) or n in NUMBER_WORDS) and amount is None:
            amount = NUMBER_WORDS[n] if n in NUMBER_WORDS else int(n)
        else:
            raise _expect("err.order.bad_arg", "amount_points", word=w)
    if amount is None or what is None:
        raise _expect("err.order.missing_arg", "amount_points")
    if amount < 1:
        raise _expect("err.order.bad_arg", "amount_points", word=str(amount))
    return Skill("hand", amount=amount, what=what)


# --- arguments -----------------------------------------------------------------


def _tile(word: str) -> Tile:
    tile = parse_tile(word)
    if tile is None:
        raise _expect("err.order.bad_tile", "tile", word=word)
    return tile


def _tiles(words: list[str]) -> list[Tile]:
    """Tiles, each word one tile or a glued run like ``B2B3C3``."""
    out: list[Tile] = []
    for w in words:
        if _is_tile_run(w):
            out.extend(_tile(t) for t in _TILE_RUN_RE.findall(w))
        else:
            out.append(_tile(w))
    return out


def _one_tile(args: list[str]) -> Tile:
    if not args:
        raise _expect("err.order.missing_arg", "tile")
    _no_args(args[1:])
    return _tile(args[0])


def _no_args(args: list[str]) -> None:
    if args:
        raise _Problem("err.order.extra_arg", word=args[0])


def _item(word: str) -> str:
    item = ITEM_WORDS.get(normalize_word(word))
    if item is None:
        raise _expect("err.order.bad_arg", "item", word=word)
    return item


def _item_or_key(word: str) -> str:
    if normalize_word(word) in KEY_WORDS:
        return "key"
    item = ITEM_WORDS.get(normalize_word(word))
    if item is None:
        raise _expect("err.order.bad_arg", "item_or_key", word=word)
    return item


def _direction(word: str) -> str:
    d = DIRECTION_WORDS.get(normalize_word(word))
    if d is None:
        raise _expect("err.order.bad_arg", "direction", word=word)
    return d
