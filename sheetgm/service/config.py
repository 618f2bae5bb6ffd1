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
from sheetgm.core.texts import has, render
from sheetgm.notation.order_format import valid_alias
from sheetgm.service.config_rules import (
    Refusal,
    check_alias,
    check_email,
    check_name,
    check_options,
    check_timezone,
    check_year,
    pydantic_message,
    same_aliases,
)
from sheetgm.service.configfile import find_config, read_config
from sheetgm.service.errors import ConfigError
from sheetgm.sheets.stages import parse_key


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
        check_alias(v)  # first: an invisible character is named before anything else
        if not valid_alias(v):
            raise Refusal("err.cfg.alias.words", alias=v)
        return v

    @field_validator("email")
    @classmethod
    def _email(cls, v: str | None) -> str | None:
        return check_email(v)

    @model_validator(mode="after")
    def _role(self) -> SeatConfig:
        roles = {"survivor": SURVIVOR_ROLES, "hunter": HUNTER_ROLES}.get(self.camp or "", SURVIVOR_ROLES + HUNTER_ROLES)
        if self.role is not None and self.role not in roles:
            raise Refusal("err.cfg.role", role=self.role, camp=self.camp or "-", roles=", ".join(roles))
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
    from_night: int = Field(default=1, ge=1, le=99, strict=True)
    start: date

    @field_validator("survivors", "hunters")
    @classmethod
    def _time(cls, v: str | None) -> str | None:
        if v is not None and not _HHMM.match(v.strip()):
            raise Refusal("err.cfg.hhmm", value=v)
        return v.strip() if v is not None else None

    @field_validator("every")
    @classmethod
    def _every(cls, v: str) -> str:
        if not _EVERY.match(v.strip().lower()):
            raise Refusal("err.cfg.every", value=v)
        return v.strip().lower()

    @field_validator("start")
    @classmethod
    def _start(cls, v: date) -> date:
        check_year(v, "schedule.start")
        return v

    @model_validator(mode="after")
    def _some(self) -> ScheduleConfig:
        if self.survivors is None and self.hunters is None:
            raise Refusal("err.cfg.schedule_empty")
        return self

    @property
    def days(self) -> int:
        m = _EVERY.match(self.every)
        return int(m.group(1)) if m and m.group(1) else 1


class GameConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1)
    map: str = "standard"
    seed: int = Field(strict=True)
    lang: Literal["zh", "en"] = "zh"
    backend: Literal["xlsx", "google"] = "xlsx"
    timezone: str = "Asia/Shanghai"
    max_nights: int = Field(default=12, ge=1, le=99, strict=True)
    director_email: str | None = None
    service_account: str | None = None
    map_url: str | None = None  # where the maps/ pictures are put online: `publish --map` links map_url + N3-hunter.png
    options: dict[str, Any] = Field(default_factory=dict)
    role_pool: list[str] | None = None
    schedule: ScheduleConfig | None = None
    deadlines: dict[str, datetime] = Field(default_factory=dict)
    roster: list[SeatConfig] = Field(min_length=2)

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return check_name(v)

    @field_validator("timezone")
    @classmethod
    def _timezone(cls, v: str) -> str:
        return check_timezone(v)

    @field_validator("director_email", "service_account")
    @classmethod
    def _emails(cls, v: str | None) -> str | None:
        return check_email(v)

    @field_validator("map_url")
    @classmethod
    def _url(cls, v: str | None) -> str | None:
        if v is not None and not v.startswith(("https://", "http://")):
            raise Refusal("err.cfg.url", value=v)
        return v

    @field_validator("options")
    @classmethod
    def _options(cls, v: dict[str, Any]) -> dict[str, Any]:
        return check_options(v)

    @field_validator("role_pool")
    @classmethod
    def _pool(cls, v: list[str] | None) -> list[str] | None:
        unknown = [r for r in v or [] if r not in SURVIVOR_ROLES + HUNTER_ROLES]
        if unknown:
            raise Refusal("err.cfg.pool", roles=", ".join(unknown), known=", ".join(SURVIVOR_ROLES + HUNTER_ROLES))
        return v

    @field_validator("deadlines")
    @classmethod
    def _deadlines(cls, v: dict[str, datetime]) -> dict[str, datetime]:
        for key, when in v.items():
            try:
                parse_key(key)
            except SheetgmError:
                raise Refusal("err.cfg.deadline_key", key=key) from None
            if when.tzinfo is None:
                raise Refusal("err.cfg.deadline_tz", key=key, value=when.isoformat())
            check_year(when.date(), f"deadlines.{key}")
        return v

    @model_validator(mode="after")
    def _roster(self) -> GameConfig:
        same = same_aliases([s.alias for s in self.roster])
        if same:
            raise Refusal("err.cfg.alias.same", first=same[0][0], second=same[0][1])
        survivors, hunters = camp_counts(self)
        if survivors < 1 or hunters < 1:
            raise Refusal("err.cfg.camps", survivors=survivors, hunters=hunters)
        if self.backend == "google":
            missing = [s.alias for s in self.roster if not s.email]
            if missing or not self.director_email:
                raise Refusal("err.cfg.google_emails", who=", ".join(missing) or "director_email")
            if not self.service_account:
                raise Refusal("err.cfg.no_service_account")
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


class InvalidConfigError(ConfigError):
    """game.toml read but refused: every refusal, told in the language the message is asked in (the console's)."""

    def __init__(self, path: str, errors: list[Any], data: dict[str, Any]) -> None:
        self.errors, self.data = errors, data
        super().__init__(path=path, detail="")

    def message(self, lang: str = "zh") -> str:
        lines = [f"{field_path(e['loc'], self.data, lang)}: {pydantic_message(e, lang)}" for e in self.errors]
        return render(lang, self.code, path=self.params["path"], detail="; ".join(lines))


_AT = re.compile(r"\(at line (\d+), column (\d+)\)|line (\d+) column (\d+)")


def load_config(path: Path) -> GameConfig:
    file = find_config(path)
    try:
        data = read_config(file)
    except UnicodeDecodeError:
        raise ConfigError("err.cfg.encoding", path=str(file)) from None
    except OSError as exc:
        raise ConfigError(path=str(file), detail=exc.strerror or type(exc).__name__) from None
    except ValueError as exc:  # TOML or JSON syntax: where, and the parser's own words
        m = _AT.search(str(exc))
        line, col = (m.group(1) or m.group(3), m.group(2) or m.group(4)) if m else ("?", "?")
        raise ConfigError("err.cfg.syntax", path=str(file), line=line, col=col,
                          detail=_AT.sub("", str(exc)).strip(" :")) from None
    return parse_config(data, str(file))


def parse_config(data: dict[str, Any], where: str = "game.toml") -> GameConfig:
    try:
        return GameConfig.model_validate(data)
    except ValidationError as exc:
        given = data if isinstance(data, dict) else {}  # a game.json may hold a list: the error says so
        raise InvalidConfigError(where, exc.errors(), given) from None


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
