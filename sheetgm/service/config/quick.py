"""A game.toml that is plainly valid, accepted without pydantic (issue 26).

Building the pydantic models (config/model.py) costs ~60 ms of CPU, most of a ``check``'s own work, and a kept
validated config (what sheetgm did before) could let a forged entry pass an invalid file. So every command
validates its config, in one of two ways: ``plain_valid`` accepts a config whose every value has exactly the type
TOML gives it and passes the same rule functions the models call (config/rules.py), and returns what the models
would (``GameModel.model_validate(data).model_dump(mode="json")``); anything else, a refusal above all, it leaves
to the models (None), which decide and word the error. It never accepts what the models refuse:
tests/service/test_config_quick.py holds the two to each other on every config the tests know and on mutations
of them.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from typing import Any

from sheetgm.service.config.rules import (
    Refusal,
    camp_counts,
    check_alias,
    check_email,
    check_name,
    check_options,
    check_timezone,
    check_year,
    same_aliases,
)

_HHMM = re.compile(r"^([01]?[0-9]|2[0-3]):([0-5][0-9])$")
_EVERY = re.compile(r"^(?:day|([1-7]) ?days?)$")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_MOMENT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?:Z|[+-]\d{2}:\d{2})")

GAME_KEYS = ("name", "map", "seed", "lang", "backend", "timezone", "max_nights", "director_email",
             "service_account", "map_url", "options", "role_pool", "schedule", "deadlines", "webdav", "roster")
SEAT_KEYS = ("alias", "camp", "lang", "email", "role", "passage")
SCHEDULE_KEYS = ("survivors", "hunters", "every", "from_night", "start")


class _Unsure(Exception):
    """Not plainly valid: the models decide."""


class _Seat:
    def __init__(self, camp: str | None, role: str | None) -> None:
        self.camp, self.role = camp, role


class _Roster:
    def __init__(self, roster: list[_Seat], options: dict[str, Any]) -> None:
        self.roster, self.options = roster, options


def plain_valid(data: Any) -> dict[str, Any] | None:
    """The validated form of ``data`` (as the models dump it) when it is plainly valid; None: ask the models."""
    try:
        return _game(data)
    except (_Unsure, Refusal):
        return None


def _text(v: Any) -> str:
    if type(v) is not str:
        raise _Unsure
    return v


def _int(v: Any, low: int, high: int) -> int:
    if type(v) is not int or not low <= v <= high:
        raise _Unsure
    return v


def _among(v: Any, choices: tuple[str, ...]) -> str:
    if type(v) is not str or v not in choices:
        raise _Unsure
    return v


def _keys(d: Any, allowed: tuple[str, ...], required: tuple[str, ...] = ()) -> dict[str, Any]:
    if type(d) is not dict or not set(d) <= set(allowed) or not set(required) <= set(d):
        raise _Unsure
    return d


def _plain(v: Any) -> bool:
    """An option's value as the models dump it unchanged (checked further by check_options)."""
    return type(v) in (str, int, bool)


def _game(data: Any) -> dict[str, Any]:
    from sheetgm.core.steps import HUNTER_ROLES, SURVIVOR_ROLES

    d = _keys(data, GAME_KEYS, ("name", "seed", "roster"))
    name = _text(d["name"])
    if not name:
        raise _Unsure
    options = d.get("options", {})
    if type(options) is not dict or not all(type(k) is str and _plain(v) for k, v in options.items()):
        raise _Unsure
    pool = d.get("role_pool")
    if pool is not None and (type(pool) is not list or any(_among(r, SURVIVOR_ROLES + HUNTER_ROLES) != r
                                                             for r in pool)):
        raise _Unsure
    if d.get("webdav") is not None:
        raise _Unsure  # a WebDAV game's table: the models check its address and that it holds no password
    url = d.get("map_url")
    if url is not None and not _text(url).startswith(("https://", "http://")):
        raise _Unsure
    out: dict[str, Any] = {
        "name": check_name(name),
        "map": _text(d.get("map", "standard")),
        "seed": _int(d["seed"], -(2**63), 2**63 - 1),
        "lang": _among(d.get("lang", "zh"), ("zh", "en")),
        "backend": _among(d.get("backend", "xlsx"), ("xlsx", "google")),
        "timezone": check_timezone(_text(d.get("timezone", "Asia/Shanghai"))),
        "max_nights": _int(d.get("max_nights", 12), 1, 99),
        "director_email": _email(d, "director_email"),
        "service_account": _email(d, "service_account"),
        "map_url": url,
        "options": dict(check_options(dict(options))),
        "role_pool": None if pool is None else list(pool),
        "schedule": None if "schedule" not in d else _schedule(d["schedule"]),
        "deadlines": _deadlines(d.get("deadlines", {})),
        "roster": _roster(d["roster"]),
        "webdav": None,
    }
    seats = out["roster"]
    if same_aliases([s["alias"] for s in seats]):
        raise _Unsure
    survivors, hunters = camp_counts(_Roster([_Seat(s["camp"], s["role"]) for s in seats], out["options"]))
    if survivors < 1 or hunters < 1:
        raise _Unsure
    if out["backend"] == "google" and (any(not s["email"] for s in seats) or not out["director_email"]
                                       or not out["service_account"]):
        raise _Unsure
    return out


def _email(d: dict[str, Any], key: str) -> str | None:
    return check_email(_text(d[key])) if key in d else None


def _schedule(v: Any) -> dict[str, Any]:
    d = _keys(v, SCHEDULE_KEYS, ("start",))
    times = {}
    for key in ("survivors", "hunters"):
        t = _text(d[key]).strip() if key in d else None
        if t is not None and not _HHMM.match(t):
            raise _Unsure
        times[key] = t
    if times["survivors"] is None and times["hunters"] is None:
        raise _Unsure
    every = _text(d.get("every", "day")).strip().lower()
    if not _EVERY.match(every):
        raise _Unsure
    start = d["start"]
    if type(start) is str and _DATE.fullmatch(start):
        start = date.fromisoformat(start)
    if type(start) is not date:
        raise _Unsure
    check_year(start, "schedule.start")
    return {**times, "every": every, "from_night": _int(d.get("from_night", 1), 1, 99), "start": start.isoformat()}


def _deadlines(v: Any) -> dict[str, str]:
    from sheetgm.core.errors import SheetgmError
    from sheetgm.sheets.stages import parse_key

    if type(v) is not dict:
        raise _Unsure
    out = {}
    for key, when in v.items():
        if type(when) is str and _MOMENT.fullmatch(when):
            when = datetime.fromisoformat(when)
        if type(key) is not str or type(when) is not datetime or when.tzinfo is None:
            raise _Unsure
        offset = when.utcoffset()
        if offset is None or offset.seconds % 60 or offset.microseconds:
            raise _Unsure
        try:
            parse_key(key)
        except SheetgmError:
            raise _Unsure from None
        check_year(when.date(), f"deadlines.{key}")
        text = when.isoformat()
        out[key] = text[:-6] + "Z" if offset == UTC.utcoffset(None) and text.endswith("+00:00") else text
    return out


def _roster(v: Any) -> list[dict[str, Any]]:
    from sheetgm.core.steps import HUNTER_ROLES, SURVIVOR_ROLES
    from sheetgm.notation.order_format import valid_alias

    if type(v) is not list or len(v) < 2:
        raise _Unsure
    seats = []
    for seat in v:
        d = _keys(seat, SEAT_KEYS, ("alias",))
        alias = _text(d["alias"])
        if not alias or check_alias(alias) != alias or not valid_alias(alias):
            raise _Unsure
        camp = _among(d["camp"], ("survivor", "hunter")) if "camp" in d else None
        role = _text(d["role"]) if "role" in d else None
        roles = {"survivor": SURVIVOR_ROLES, "hunter": HUNTER_ROLES}.get(camp or "", SURVIVOR_ROLES + HUNTER_ROLES)
        if role is not None and role not in roles:
            raise _Unsure
        seats.append({"alias": alias, "camp": camp, "lang": _among(d.get("lang", "zh"), ("zh", "en")),
                      "email": _email(d, "email"), "role": role,
                      "passage": _text(d["passage"]) if "passage" in d else None})
    return seats
