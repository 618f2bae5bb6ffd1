"""JSON read from a cell a person can edit (the director workbook's journal, archive and lock), bounded.

A cell holds at most 32,767 characters, yet nested brackets there reach the interpreter's recursion limit
(``[[[[…`` makes ``json.loads`` raise RecursionError), and what parses may be nested deeper than any record
sheetgm writes, for code that walks it to trip over later. ``loads`` refuses both with a ValueError, as it
does any other text that is not JSON, so a damaged cell is named like any other damage; ``inflate`` bounds what
a compressed value may grow to.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

MAX_DEPTH = 32  # sheetgm's own records nest a few levels (a state: players, their items, ...)
MAX_INFLATED = 64 * 1024 * 1024  # characters a compressed journal value may grow to (a state is well below 1 MB)


def loads(text: str, max_chars: int | None = None, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads`` of ``text``, refused (ValueError) if longer than ``max_chars`` or nested deeper than
    ``max_depth``."""
    if max_chars is not None and len(text) > max_chars:
        raise ValueError(f"{len(text)} characters, more than the {max_chars} such a value takes")
    try:
        data = json.loads(text)
    except RecursionError:
        raise ValueError(f"nested deeper than {max_depth} levels") from None
    if depth(data, max_depth) > max_depth:
        raise ValueError(f"nested deeper than {max_depth} levels")
    return data


def depth(data: Any, stop: int = MAX_DEPTH) -> int:
    """How deep lists and objects nest in ``data`` (a scalar: 0), counted without recursion and no further
    than one past ``stop``."""
    deepest = 0
    todo: list[tuple[Any, int]] = [(data, 0)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if not isinstance(item, list):
            continue
        level += 1
        deepest = max(deepest, level)
        if deepest > stop:
            return deepest
        todo.extend((x, level) for x in item if isinstance(x, (list, dict)))
    return deepest


def inflate(raw: bytes, limit: int = MAX_INFLATED) -> bytes:
    """zlib-decompressed ``raw``, refused (ValueError) past ``limit`` bytes or if the stream is cut short."""
    engine = zlib.decompressobj()
    out = engine.decompress(raw, limit + 1)
    if len(out) > limit:
        raise ValueError(f"a compressed value grows past {limit} bytes")
    if not engine.eof:
        raise ValueError("a compressed value is cut short")
    return out
