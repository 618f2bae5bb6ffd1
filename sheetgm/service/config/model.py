"""The pydantic models that validate ``game.toml`` (service/config/load.py turns what they accept into plain
records; they are imported only for a config that is not plainly valid, see config/quick.py)."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from sheetgm.core.errors import SheetgmError
from sheetgm.core.steps import HUNTER_ROLES, SURVIVOR_ROLES
from sheetgm.notation.order_format import valid_alias
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
from sheetgm.sheets.stages import parse_key


class SeatModel(BaseModel):
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
    def _role(self) -> SeatModel:
        roles = {"survivor": SURVIVOR_ROLES, "hunter": HUNTER_ROLES}.get(self.camp or "", SURVIVOR_ROLES + HUNTER_ROLES)
        if self.role is not None and self.role not in roles:
            raise Refusal("err.cfg.role", role=self.role, camp=self.camp or "-", roles=", ".join(roles))
        return self


_HHMM = re.compile(r"^([01]?[0-9]|2[0-3]):([0-5][0-9])$")
_EVERY = re.compile(r"^(?:day|([1-7]) ?days?)$")


class ScheduleModel(BaseModel):
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
    def _some(self) -> ScheduleModel:
        if self.survivors is None and self.hunters is None:
            raise Refusal("err.cfg.schedule_empty")
        return self

    @property
    def days(self) -> int:
        m = _EVERY.match(self.every)
        return int(m.group(1)) if m and m.group(1) else 1


class WebDavModel(BaseModel):
    """``[webdav]``: where a WebDAV game's folders are, as whom, and the account's request budget (Nutstore's
    free plan: 600 requests in 30 minutes). The password comes from SHEETGM_WEBDAV_PASSWORD, never from here."""

    model_config = ConfigDict(extra="forbid")

    url: str
    user: str = Field(min_length=1)
    if_match: bool = True  # false: the server ignores If-Match (doctor says so): sheetgm looks before each write
    requests: int = Field(default=600, ge=10, le=1_000_000, strict=True)
    minutes: int = Field(default=30, ge=1, le=1440, strict=True)
    timeout: int = Field(default=60, ge=5, le=600, strict=True)  # seconds a request may wait for an answer

    @model_validator(mode="before")
    @classmethod
    def _no_password(cls, data: Any) -> Any:
        if isinstance(data, dict) and any(k in data for k in ("password", "pass", "app_password")):
            raise Refusal("err.cfg.webdav_password")
        return data

    @field_validator("url")
    @classmethod
    def _url(cls, v: str) -> str:
        from urllib.parse import urlsplit

        parts = urlsplit(v.strip())
        if parts.scheme not in ("https", "http") or not parts.hostname or "@" in parts.netloc:
            raise Refusal("err.cfg.webdav_url", value=f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}{parts.path}")
        return v.strip() if v.strip().endswith("/") else v.strip() + "/"


class GameModel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1)
    map: str = "standard"
    seed: int = Field(strict=True)
    lang: Literal["zh", "en"] = "zh"
    backend: Literal["xlsx", "google", "webdav"] = "xlsx"
    timezone: str = "Asia/Shanghai"
    max_nights: int = Field(default=12, ge=1, le=99, strict=True)
    director_email: str | None = None
    service_account: str | None = None
    map_url: str | None = None  # where the maps/ pictures are put online: `publish --map` links map_url + N3-hunter.png
    options: dict[str, Any] = Field(default_factory=dict)
    role_pool: list[str] | None = None
    schedule: ScheduleModel | None = None
    deadlines: dict[str, datetime] = Field(default_factory=dict)
    webdav: WebDavModel | None = None
    roster: list[SeatModel] = Field(min_length=2)

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
    def _roster(self) -> GameModel:
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
        if self.backend == "webdav" and self.webdav is None:
            raise Refusal("err.cfg.webdav_table")
        return self
