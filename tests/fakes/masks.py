"""Field masks as Google takes them: a ``fields`` selection of an answer (partial response) and the
FieldMask of an update request (``a.b``, ``a/b``, ``a(b,c)``, ``*``), parsed once, used both ways."""

from __future__ import annotations

import re
from typing import Any

from fakes.errors import bad

_FIELD = re.compile(r"[A-Za-z_*][A-Za-z0-9_]*(?:[./][A-Za-z_][A-Za-z0-9_]*)*")
Mask = dict[str, "Mask | None"]  # field -> its selected sub-fields (None: all of it)


def select(doc: Any, fields: str) -> Any:
    """A partial response, like the API's ``fields`` parameter (``a(b,c.d),e/f``)."""
    try:
        return _pick(doc, parse_mask(fields))
    except ValueError:
        raise bad(f"Invalid field selection {fields}", "fields") from None


def parse_mask(fields: str) -> Mask:
    """``fields`` as a tree of selections; ValueError if it is not one."""
    return _mask(fields.replace(" ", ""), 0, nested=False)[0]


def _mask(text: str, i: int, nested: bool) -> tuple[Mask, int]:
    mask: Mask = {}
    while True:
        m = _FIELD.match(text, i)
        if m is None:
            raise ValueError(text)
        i = m.end()
        sub: Mask | None = None
        if text[i : i + 1] == "(":
            sub, i = _mask(text, i + 1, nested=True)
            if text[i : i + 1] != ")":
                raise ValueError(text)
            i += 1
        _put(mask, re.split(r"[./]", m.group()), sub)
        if text[i : i + 1] == ",":
            i += 1
            continue
        if i == len(text) and not nested or text[i : i + 1] == ")" and nested:
            return mask, i
        raise ValueError(text)


def _put(mask: Mask, path: list[str], sub: Mask | None) -> None:
    """Add a selection; a whole field selected wins over some of its sub-fields."""
    name, rest = path[0], path[1:]
    if name in mask and mask[name] is None:
        return
    if rest:
        child = mask.setdefault(name, {})
        if child is not None:
            _put(child, rest, sub)
    else:
        mask[name] = None if sub is None else {**(mask.get(name) or {}), **sub}


def _pick(value: Any, mask: Mask | None) -> Any:
    if mask is None or "*" in mask:
        return value
    if isinstance(value, list):
        return [_pick(v, mask) for v in value]
    if isinstance(value, dict):
        return {k: _pick(v, mask[k]) for k, v in value.items() if k in mask}
    return value


def paths(fields: str) -> list[list[str]]:
    """The field paths a mask names (``a(b,c),d/e`` -> a.b, a.c, d.e); a 400 if it is not a mask."""
    try:
        tree = parse_mask(fields)
    except ValueError:
        raise bad(f"Invalid field mask: {fields}") from None
    out: list[list[str]] = []

    def walk(node: Mask, at: list[str]) -> None:
        for name, sub in node.items():
            if sub is None:
                out.append([*at, name])
            else:
                walk(sub, [*at, name])

    walk(tree, [])
    return out
