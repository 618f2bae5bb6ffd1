"""The game folder's ``game.toml``: what a game is, validated by pydantic.

    name = "spring-cup"
    map = "standard"            # a shipped map, or a path to a .map file (relative to the folder)
    seed = 20240501
    lang = "zh"                 # the director's language for messages
    backend = "xlsx"            # or "google"
    timezone = "Asia/Shanghai"
    max_nights = 12
    director_email = "gm@example.com"       # google only
    service_account = "bot@proj.iam.gserviceaccount.com"
    map_url = "https://example.com/spring-cup/maps/"   # optional: publish --map links it + N3-hunter.png
    [options]                   # engine options (crack_target, key_drop, ...)
    [schedule]                  # recurring deadlines, local times in `timezone` (deadlines.py)
    survivors = "21:00"; hunters = "23:00"; every = "day"; from_night = 1; start = "2024-05-01"
    [deadlines]                 # stage key -> ISO time: overrides the schedule for that stage
    "N1-survivor" = "2024-05-01T21:00:00+08:00"
    [[roster]]
    alias = "小明"; lang = "zh"; email = "..."; camp = "survivor" (optional: drawn with the role when left out);
    role = "doctor" (optional); passage = "B2-E5" (optional: the Master Assassin's secret passage)
"""

from __future__ import annotations

import json
import re
from datetime import date, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from sheetgm.core.errors import SheetgmError
from sheetgm.core.state import DEFAULT_OPTIONS
from sheetgm.core.steps import HUNTER_ROLES, SURVIVOR_ROLES
from sheetgm.core.texts import LANGS, has, render
from sheetgm.notation.order_format import valid_alias
from sheetgm.service.configfile import find_config, read_config
from sheetgm.service.errors import ConfigError
from sheetgm.sheets.stages import parse_key

NO_SERVICE_ACCOUNT = ("a google game needs service_account: the email of the service account that the scheduled "
                      "runs act as (sheetgm new shares every file with it; without it no run could open them)")


class SeatConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    alias: str = Field(min_length=1)
    camp: Literal["survivor", "hunter"] | None = None  # None: dealt with the role (R-SETUP-2)
    lang: Literal["zh", "en"] = "zh"
    email: str | None = None
    role: str | None = None
    passage: str | None = None  # the Master Assassin's passage ends, e.g. "B2-E5" (R-ROLE-ASSASSIN)

    @field_validator("alias")
    @classmethod
    def _alias(cls, v: str) -> str:
        if not valid_alias(v):
            raise ValueError(f"alias '{v}' cannot be written in an order (no spaces or punctuation)")
        return v

    @model_validator(mode="after")
    def _role(self) -> SeatConfig:
        roles = {"survivor": SURVIVOR_ROLES, "hunter": HUNTER_ROLES}.get(self.camp or "", SURVIVOR_ROLES + HUNTER_ROLES)
        if self.role is not None and self.role not in roles:
            raise ValueError(f"role '{self.role}' is not a {self.camp or 'known'} role (one of {', '.join(roles)})")
        return self


_HHMM = re.compile(r"^([01]?[0-9]|2[0-3]):([0-5][0-9])$")
_EVERY = re.compile(r"^(?:day|([1-7]) ?days?)$")


class ScheduleConfig(BaseModel):
    """Recurring deadlines: the survivors' and the hunters' local time, every day (or every n days)
    from night ``from_night``, whose survivor deadline falls on ``start`` (see deadlines.py)."""

    model_config = ConfigDict(extra="forbid")

    survivors: str | None = None
    hunters: str | None = None
    every: str = "day"
    from_night: int = Field(default=1, ge=1, le=99)
    start: date

    @field_validator("survivors", "hunters")
    @classmethod
    def _time(cls, v: str | None) -> str | None:
        if v is not None and not _HHMM.match(v.strip()):
            raise ValueError(f"'{v}' is not a local time HH:MM, e.g. \"21:00\"")
        return v.strip() if v is not None else None

    @field_validator("every")
    @classmethod
    def _every(cls, v: str) -> str:
        if not _EVERY.match(v.strip().lower()):
            raise ValueError(f"every = '{v}': write \"day\" or \"2 days\" (1 to 7)")
        return v.strip().lower()

    @model_validator(mode="after")
    def _some(self) -> ScheduleConfig:
        if self.survivors is None and self.hunters is None:
            raise ValueError("a schedule needs survivors = \"HH:MM\", hunters = \"HH:MM\" or both")
        return self

    @property
    def days(self) -> int:
        m = _EVERY.match(self.every)
        return int(m.group(1)) if m and m.group(1) else 1


class GameConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1)
    map: str = "standard"
    seed: int
    lang: Literal["zh", "en"] = "zh"
    backend: Literal["xlsx", "google"] = "xlsx"
    timezone: str = "Asia/Shanghai"
    max_nights: int = Field(default=12, ge=1, le=99)
    director_email: str | None = None
    service_account: str | None = None
    map_url: str | None = None  # where the maps/ pictures are put online: `publish --map` links map_url + N3-hunter.png
    options: dict[str, Any] = Field(default_factory=dict)
    role_pool: list[str] | None = None
    schedule: ScheduleConfig | None = None
    deadlines: dict[str, datetime] = Field(default_factory=dict)
    roster: list[SeatConfig] = Field(min_length=2)

    @field_validator("options")
    @classmethod
    def _options(cls, v: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(v) - set(DEFAULT_OPTIONS) - {"assassin_passage"})
        if unknown:
            raise ValueError(f"unknown option(s) {', '.join(unknown)} (known: {', '.join(sorted(DEFAULT_OPTIONS))})")
        return v

    @field_validator("deadlines")
    @classmethod
    def _deadlines(cls, v: dict[str, datetime]) -> dict[str, datetime]:
        for key, when in v.items():
            try:
                parse_key(key)
            except SheetgmError as exc:
                raise ValueError(exc.message("en")) from None
            if when.tzinfo is None:
                raise ValueError(f"deadline of {key} needs a time zone offset, e.g. 2024-05-01T21:00:00+08:00")
        return v

    @model_validator(mode="after")
    def _roster(self) -> GameConfig:
        folded = [s.alias.casefold() for s in self.roster]
        dup = sorted({a for a in folded if folded.count(a) > 1})
        if dup:
            raise ValueError(f"aliases must be distinct: {', '.join(dup)} repeated")
        survivors, hunters = camp_counts(self)
        if survivors < 1 or hunters < 1:
            raise ValueError("the roster needs at least one survivor and one hunter")
        if self.backend == "google":
            missing = [s.alias for s in self.roster if not s.email]
            if missing or not self.director_email:
                who = ", ".join(missing) or "director_email"
                raise ValueError(f"a google game needs an email for every player and the director: {who}")
            if not self.service_account:
                raise ValueError(NO_SERVICE_ACCOUNT)
        return self


def camp_counts(cfg: GameConfig) -> tuple[int, int]:
    """Survivors and hunters the deal will make: fixed camps (a fixed role fixes its camp), and of
    the open seats as many hunters as the option ``hunters`` (R-SETUP-1, 2 by default) leaves."""
    camps = [s.camp or ("hunter" if s.role in HUNTER_ROLES else "survivor" if s.role else None) for s in cfg.roster]
    open_seats = camps.count(None)
    hunters = camps.count("hunter")
    if open_seats:
        hunters = max(hunters, min(int(cfg.options.get("hunters", DEFAULT_OPTIONS["hunters"])),
                                   hunters + open_seats))
    return len(camps) - hunters, hunters


def load_config(path: Path) -> GameConfig:
    file = find_config(path)
    try:
        data = read_config(file)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ConfigError(path=str(file), detail=str(exc)) from None
    return parse_config(data, str(file))


def parse_config(data: dict[str, Any], where: str = "game.toml") -> GameConfig:
    try:
        return GameConfig.model_validate(data)
    except ValidationError as exc:
        given = data if isinstance(data, dict) else {}  # a game.json may hold a list: the error says so
        lang = given.get("lang") if given.get("lang") in LANGS else "zh"
        lines = [f"{field_path(err['loc'], given, str(lang))}: {err['msg']}" for err in exc.errors()]
        raise ConfigError(path=where, detail="; ".join(lines)) from None


def with_backend(cfg: GameConfig, backend: str) -> GameConfig:
    """The config on another backend, validated again (a Google game needs every email)."""
    return parse_config({**cfg.model_dump(mode="json", exclude_none=True), "backend": backend})


def field_path(loc: tuple[int | str, ...], data: dict[str, Any], lang: str) -> str:
    """``roster.3.camp（第 3 名玩家 Ann 的阵营）``: list positions counted from 1, as a director counts the
    ``[[roster]]`` blocks, and what the field is in the director's language."""
    text = ".".join(str(p + 1) if isinstance(p, int) else str(p) for p in loc) or "(top)"
    if len(loc) >= 2 and loc[0] == "roster" and isinstance(loc[1], int):
        given = data.get("roster")
        seats: list[Any] = given if isinstance(given, list) else []
        seat = seats[loc[1]] if loc[1] < len(seats) and isinstance(seats[loc[1]], dict) else {}
        field = str(loc[2]) if len(loc) > 2 else ""
        what = render(lang, f"err.cfg.field.{field}") if has(lang, f"err.cfg.field.{field}") else field
        return text + render(lang, "err.cfg.player", n=loc[1] + 1, alias=seat.get("alias", "?"), field=what)
    top = str(loc[0]) if loc else ""
    if has(lang, f"err.cfg.field.{top}"):
        return text + render(lang, "err.cfg.top", field=render(lang, f"err.cfg.field.{top}"))
    return text


def save_config(cfg: GameConfig, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    file = folder / "game.toml"
    file.write_text(to_toml(cfg.model_dump(mode="json", exclude_none=True)), "utf-8")
    return file


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return json.dumps(str(v), ensure_ascii=False)


def to_toml(data: dict[str, Any]) -> str:
    """A TOML writer for the config's shape: scalars, lists, tables and one array of tables."""
    head, tables, arrays = [], [], []
    for key, v in data.items():
        if isinstance(v, dict):
            body = "".join(f"{json.dumps(k, ensure_ascii=False)} = {_value(x)}\n" for k, x in v.items())
            tables.append(f"\n[{key}]\n{body}")
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            for item in v:
                body = "".join(f"{k} = {_value(x)}\n" for k, x in item.items())
                arrays.append(f"\n[[{key}]]\n{body}")
        else:
            head.append(f"{key} = {_value(v)}\n")
    return "".join(head) + "".join(tables) + "".join(arrays)
