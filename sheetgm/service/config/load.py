"""The game folder's ``game.toml``: what a game is, validated by pydantic (config_model.py).

    name = "spring-cup"
    map = "standard"            # a shipped map, or a path to a .map file (relative to the folder)
    seed = 20240501
    lang = "zh"                 # the director's language for messages
    backend = "xlsx"            # or "google", or "webdav" (with a [webdav] table)
    timezone = "Asia/Shanghai"
    max_nights = 12
    director_email = "gm@example.com"       # google only
    service_account = "bot@proj.iam.gserviceaccount.com"
    map_url = "https://example.com/spring-cup/maps/"   # optional: publish --map links it + N3-hunter.png
    [options]                   # engine options (crack_target, key_drop, ...)
    [schedule]                  # recurring deadlines, local times in `timezone` (deadlines.py)
    survivors = "21:00"; hunters = "23:00"; every = "day"; from_night = 1; start = "2024-05-01"
    [webdav]                    # webdav only: the game's root folder; the password is SHEETGM_WEBDAV_PASSWORD
    url = "https://dav.jianguoyun.com/dav/sheetgm/spring-cup/"; user = "gm@example.com"
    if_match = true; requests = 600; minutes = 30; timeout = 60   # (the defaults: Nutstore's free plan)
    [deadlines]                 # stage key -> ISO time: overrides the schedule for that stage
    "N1-survivor" = "2024-05-01T21:00:00+08:00"
    [[roster]]
    alias = "小明"; lang = "zh"; email = "..."; camp = "survivor" (optional: drawn with the role when left out);
    role = "doctor" (optional); passage = "B2-E5" (optional: the Master Assassin's secret passage)

Every command reads and validates the config: a plainly valid one without pydantic (config/quick.py, whose
answer is the models'), any other by the models (config/model.py), which word every refusal. Nothing validated is
kept between commands (a kept entry could stand in for a file it does not match; issue 26).
"""

from __future__ import annotations

import json
import re
from datetime import date, datetime
from pathlib import Path
from typing import Any

from sheetgm.core.texts import has, render
from sheetgm.core.values import Value, asdict, field, record
from sheetgm.service.config.file import find_config, read_config_bytes
from sheetgm.service.config.quick import plain_valid
from sheetgm.service.config.rules import pydantic_message
from sheetgm.service.errors import ConfigError

_EVERY = re.compile(r"^(?:day|([1-7]) ?days?)$")


# The records are keyword-only, in the models' field order (a test holds them to the models), so that their
# order is game.toml's order when saved.


@record(frozen=True, kw_only=True)
class SeatConfig(Value):
    """One ``[[roster]]`` block as validated (config_model.SeatModel)."""

    alias: str
    camp: str | None = None  # None: dealt with the role (R-SETUP-2)
    lang: str = "zh"
    email: str | None = None
    role: str | None = None
    passage: str | None = None  # the Master Assassin's passage ends, e.g. "B2-E5" (R-ROLE-ASSASSIN)


@record(frozen=True, kw_only=True)
class ScheduleConfig(Value):
    """Recurring deadlines as validated (config_model.ScheduleModel; deadlines.py reads them)."""

    survivors: str | None = None
    hunters: str | None = None
    every: str = "day"
    from_night: int = 1
    start: date

    @property
    def days(self) -> int:
        m = _EVERY.match(self.every)
        return int(m.group(1)) if m and m.group(1) else 1


@record(frozen=True, kw_only=True)
class WebDavConfig(Value):
    """``[webdav]`` as validated (config_model.WebDavModel); the password is never here."""

    url: str
    user: str
    if_match: bool = True
    requests: int = 600
    minutes: int = 30
    timeout: int = 60


@record(frozen=True, kw_only=True)
class GameConfig(Value):
    """``game.toml`` as validated (config_model.GameModel)."""

    name: str
    map: str = "standard"
    seed: int
    lang: str = "zh"
    backend: str = "xlsx"
    timezone: str = "Asia/Shanghai"
    max_nights: int = 12
    director_email: str | None = None
    service_account: str | None = None
    map_url: str | None = None  # where the maps/ pictures are put online: `publish --map` links map_url + N3-hunter.png
    options: dict[str, Any] = field(default_factory=dict)
    role_pool: list[str] | None = None
    schedule: ScheduleConfig | None = None
    deadlines: dict[str, datetime] = field(default_factory=dict)
    webdav: WebDavConfig | None = None
    roster: list[SeatConfig]


def from_plain(data: dict[str, Any]) -> GameConfig:
    """The records from a validated config in JSON form (the models' ``model_dump(mode="json")``)."""
    schedule, webdav = data.get("schedule"), data.get("webdav")
    return GameConfig(
        **{k: v for k, v in data.items() if k not in ("roster", "schedule", "deadlines", "webdav")},
        webdav=None if webdav is None else WebDavConfig(**webdav),
        roster=[SeatConfig(**seat) for seat in data["roster"]],
        schedule=None if schedule is None else ScheduleConfig(
            **{**schedule, "start": date.fromisoformat(schedule["start"])}),
        deadlines={k: datetime.fromisoformat(v) for k, v in (data.get("deadlines") or {}).items()},
    )


def to_plain(cfg: GameConfig) -> dict[str, Any]:
    """The config in JSON form, in game.toml's order (the records' fields), None values left out (as saved)."""
    out: dict[str, Any] = {}
    for key, value in asdict(cfg).items():
        if key == "roster":
            value = [{k: v for k, v in seat.items() if v is not None} for seat in value]
        elif key == "schedule" and value is not None:
            value = {k: v.isoformat() if k == "start" else v for k, v in value.items() if v is not None}
        elif key == "deadlines":
            value = {k: when.isoformat() for k, when in value.items()}
        if value is not None:
            out[key] = value
    return out


class InvalidConfigError(ConfigError):
    """game.toml read but refused: every refusal, told in the language the message is asked in (the console's)."""

    def __init__(self, path: str, errors: list[Any], data: dict[str, Any]) -> None:
        self.errors, self.data = errors, data
        super().__init__(path=path, detail="")

    def message(self, lang: str = "zh") -> str:
        lines = [f"{field_path(e['loc'], self.data, lang)}: {pydantic_message(e, lang)}" for e in self.errors]
        return render(lang, self.code, path=self.params["path"], detail="; ".join(lines))


_AT = r"\(at line (\d+), column (\d+)\)|line (\d+) column (\d+)"  # (compiled when a file does not parse)


def load_config(path: Path) -> GameConfig:
    """The game's config file, read and validated (``parse_config``)."""
    file = find_config(path)
    try:
        data = read_config_bytes(file)[1]
    except UnicodeDecodeError:
        raise ConfigError("err.cfg.encoding", path=str(file)) from None
    except OSError as exc:
        raise ConfigError(path=str(file), detail=exc.strerror or type(exc).__name__) from None
    except ValueError as exc:  # TOML or JSON syntax: where, and the parser's own words
        m = re.search(_AT, str(exc))
        line, col = (m.group(1) or m.group(3), m.group(2) or m.group(4)) if m else ("?", "?")
        raise ConfigError("err.cfg.syntax", path=str(file), line=line, col=col,
                          detail=re.sub(_AT, "", str(exc)).strip(" :")) from None
    return parse_config(data, str(file))


def parse_config(data: dict[str, Any], where: str = "game.toml") -> GameConfig:
    """The config ``data`` (as read from game.toml) validated: plainly valid (config/quick.py), else by the
    models, which refuse it with every reason (InvalidConfigError) or accept it."""
    plain = plain_valid(data)
    if plain is None:
        plain = validated(data, where)
    return from_plain(plain)


def validated(data: dict[str, Any], where: str = "game.toml") -> dict[str, Any]:
    """What the models make of ``data``, in JSON form; InvalidConfigError if they refuse it."""
    from pydantic import ValidationError

    from sheetgm.service.config.model import GameModel

    try:
        plain: dict[str, Any] = GameModel.model_validate(data).model_dump(mode="json")
    except ValidationError as exc:
        given = data if isinstance(data, dict) else {}  # a game.json may hold a list: the error says so
        raise InvalidConfigError(where, exc.errors(), given) from None
    return plain


def with_backend(cfg: GameConfig, backend: str) -> GameConfig:
    """The config on another backend, validated again (a Google game needs every email)."""
    return parse_config({**to_plain(cfg), "backend": backend})


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


def save_config(cfg: GameConfig, folder: Path, source: Path | None = None) -> Path:
    """``folder/game.toml`` saying ``cfg``. The director's own file is kept as written, comments and order of keys
    included: the folder's game.toml (else ``source``, a TOML file given to `sheetgm new`) has only the keys whose
    values differ from ``cfg`` changed in place (``--google``: the backend), and is not written at all when
    nothing differs. Without either, the config is written out plainly."""
    folder.mkdir(parents=True, exist_ok=True)
    file = folder / "game.toml"
    base = file if file.is_file() else source
    if base is None or base.suffix != ".toml" or not base.is_file():
        file.write_text(to_toml(to_plain(cfg)), "utf-8")
        return file
    import tomlkit  # only when a game is created: every other command reads its config without it

    text = base.read_text("utf-8")
    doc = tomlkit.parse(text)
    want = to_plain(cfg)
    have = _plain_of(doc.unwrap())
    for key, value in want.items():
        if have.get(key) != value:
            doc[key] = value
    for key in [k for k in have if k not in want]:  # a key the config no longer has (None: left out)
        del doc[key]
    out = tomlkit.dumps(doc)
    if base != file or out != text:
        file.write_text(out, "utf-8")
    return file


def _plain_of(data: dict[str, Any]) -> dict[str, Any]:
    """What game.toml says, in ``to_plain``'s form where it validates (dates as ISO text), else as read."""
    try:
        return to_plain(parse_config(data))
    except ConfigError:
        return data


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
