"""The shape of a case-book file, checked strictly on load.

A schema node is a Python type (or tuple of types), ``Any`` for free-form
values, a ``dict`` of key → node (a table with known keys), ``Table(req=...)``
to mark required keys, ``ListOf(node)`` or ``MapOf(node)`` (a table whose
keys are free, e.g. aliases or tile names). Unknown keys are errors: a typo
in a case must fail loudly, naming the file, the case and the key.
"""

from __future__ import annotations

from typing import Any

from sheetgm.core.errors import CaseError
from sheetgm.core.values import Value, record

FREE = object()  # any TOML value


@record(frozen=True)
class Table(Value):
    keys: dict[str, Any]
    required: tuple[str, ...] = ()


@record(frozen=True)
class ListOf(Value):
    item: Any


@record(frozen=True)
class MapOf(Value):
    value: Any


STR_LIST = ListOf(str)
TILE_LIST = ListOf(str)

PLAYER_FIELDS: dict[str, Any] = {
    "role": str, "hp": int, "downed": bool, "fear": int, "stealth": bool, "items": STR_LIST, "keys": int,
    "status": str, "uses": MapOf(int), "flags": MapOf(FREE), "lang": str, "escaping": bool, "stunned": bool,
}

PLAYER = Table({"alias": str, "camp": str, "at": str, "seat": int, **PLAYER_FIELDS}, ("alias", "camp", "at"))

PASSAGE = Table({"ends": str, "owner": str, "discovered": bool, "known_by": STR_LIST}, ("ends",))

CARD = Table({"alias": str, "colour": str, "reason": str, "night": int, "merged": bool}, ("alias", "colour"))

SETUP = Table({
    "night": int, "stage": str, "progress": int, "gates_powered": bool, "odb_left": int, "odb_reveal": bool,
    "players": ListOf(PLAYER), "chests": MapOf(str), "lying": MapOf(STR_LIST), "keys_on": MapOf(int),
    "boards": STR_LIST, "traps": MapOf(str), "passages": ListOf(PASSAGE), "noise": TILE_LIST,
    "cracked_tonight": MapOf(int), "jammed": bool, "cards": ListOf(CARD),
})

EVENT = Table({"kind": str, "params": MapOf(FREE), "public": bool, "to": STR_LIST, "actor": str, "count": int},
              ("kind",))

# An event that must not occur: every key given must fit for the event to count as occurring.
NO_EVENT = Table({"kind": str, "params": MapOf(FREE), "public": bool, "to": STR_LIST, "actor": str}, ("kind",))

PROBLEM = Table({"code": str, "step": int, "params": MapOf(FREE)}, ("code",))

PLAYER_EXPECT = Table({
    "at": str, "camp": str, "injured": bool, "in_play": bool, "result": str, "mp": int, "ap": int, **PLAYER_FIELDS,
})

EXPECT = Table({
    "players": MapOf(PLAYER_EXPECT),
    "progress": int, "gates_powered": bool, "odb_left": int, "odb_reveal": bool, "stage": str, "night": int,
    "winner": str, "end_reason": str, "jammed": bool,
    "noise": TILE_LIST, "noise_has": TILE_LIST, "noise_not": TILE_LIST,
    "chests": MapOf(str), "lying": MapOf(STR_LIST), "keys_on": MapOf(int), "keys_total": int,
    "boards": STR_LIST, "traps": MapOf(str),
    "passages": MapOf(Table({"discovered": bool, "owner": str, "known_by": STR_LIST})),
    "eliminated": STR_LIST, "escaped": STR_LIST, "cards": MapOf(STR_LIST),
    "events": ListOf((str, EVENT)), "no_events": ListOf((str, NO_EVENT)),
    "reports": MapOf(STR_LIST), "not_reports": MapOf(STR_LIST),
    "public_log": STR_LIST, "not_public_log": STR_LIST,
    "director_log": STR_LIST, "not_director_log": STR_LIST,
    "problems": MapOf(ListOf((str, PROBLEM))), "notes": MapOf(ListOf((str, PROBLEM))),
    "roles": STR_LIST, "camps": MapOf(int), "hunter_distance_at_least": int, "options": MapOf(FREE),
})

DEAL = Table({
    "players": ListOf(Table({"alias": str, "camp": str, "role": str, "lang": str, "passage": str}, ("alias",))),
    "pool": STR_LIST,
}, ("players",))

DIRECTOR_ACT = Table({
    "card": str, "colour": str, "reason": str, "declare_loss": bool,
    "lurking": Table({"posts": MapOf(int), "voted": MapOf(bool), "accelerated": bool}),
    "override": str, "field": str, "value": FREE,
    "when": str,
})

NIGHT = Table({
    "survivor": MapOf(str), "hunter": MapOf(str), "priority": STR_LIST, "seed": int,
    "director": ListOf(DIRECTOR_ACT), "after_survivor": EXPECT, "expect": EXPECT, "replay": bool, "resolve": bool,
    "rollback": bool, "stop_after_survivor": bool,
})

CASE = Table({
    "id": str, "title": str, "covers": STR_LIST, "rule": str, "note": str,
    "map": str, "map_text": str, "seed": int, "options": MapOf(FREE),
    "setup": SETUP, "deal": DEAL, "night": ListOf(NIGHT), "expect": EXPECT,
    "error": str, "error_params": MapOf(FREE),
}, ("id", "title", "covers", "rule"))

FILE = Table({"section": str, "title": str, "maps": MapOf(str), "case": ListOf(CASE)}, ("section", "case"))


def _type_name(node: Any) -> str:
    if isinstance(node, tuple):
        return " or ".join(_type_name(n) for n in node)
    if isinstance(node, type):
        return {"str": "string", "int": "integer", "bool": "true/false"}.get(node.__name__, node.__name__)
    if isinstance(node, (Table, MapOf)):
        return "table"
    if isinstance(node, ListOf):
        return "array"
    return "value"


def validate(value: Any, node: Any, where: str, file: str, case: str) -> None:
    """Raise CaseError naming the file, the case and the dotted key that does not fit."""

    def fail(code: str, **params: Any) -> None:
        raise CaseError(code, file=file, case=case, key=where, **params)

    if node is FREE:
        return
    if isinstance(node, tuple):
        tables = [alt for alt in node if isinstance(alt, Table)]
        if isinstance(value, dict) and tables:  # report the table's own error, not "wrong type"
            validate(value, tables[0], where, file, case)
            return
        for alt in node:
            try:
                validate(value, alt, where, file, case)
                return
            except CaseError:
                continue
        fail("err.case.bad_type", expected=_type_name(node))
    if isinstance(node, type):
        # bool is an int in Python: keep them apart.
        if not isinstance(value, node) or (node is int and isinstance(value, bool)):
            fail("err.case.bad_type", expected=_type_name(node))
        return
    if isinstance(node, ListOf):
        if not isinstance(value, list):
            fail("err.case.bad_type", expected="array")
        for i, item in enumerate(value):
            validate(item, node.item, f"{where}[{i}]", file, case)
        return
    if isinstance(node, MapOf):
        if not isinstance(value, dict):
            fail("err.case.bad_type", expected="table")
        for k, v in value.items():
            validate(v, node.value, f"{where}.{k}" if where else k, file, case)
        return
    if isinstance(node, Table):
        if not isinstance(value, dict):
            fail("err.case.bad_type", expected="table")
        for k, v in value.items():
            sub = f"{where}.{k}" if where else k
            if k not in node.keys:
                raise CaseError("err.case.unknown_key", file=file, case=case, key=sub)
            validate(v, node.keys[k], sub, file, case)
        for k in node.required:
            if k not in value:
                raise CaseError("err.case.missing_key", file=file, case=case, key=f"{where}.{k}" if where else k)
        return
    raise TypeError(f"bad schema node {node!r}")
