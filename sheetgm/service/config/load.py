"""The game folder's ``game.toml``: what a game is, validated by pydantic (config_model.py).

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

Every command reads the config, and importing pydantic and building the models costs about as much as the
interpreter's start (issue 14). So what the models accept is kept as plain frozen records, and the validated
form of a config is kept in the user's cache folder under a hash of the file's bytes and of the code that
validates it: a config already validated on this machine is read back without pydantic, and any change to the
file or to sheetgm is validated again. Refusals are never kept. A game's config file is also kept under a hash of
its bytes (configfile.kept_for_bytes), so that a command reads it back without parsing TOML either.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

import sheetgm
from sheetgm.core.cachedir import cache_dir, keep_json
from sheetgm.core.digests import blake2b
from sheetgm.core.texts import has, render
from sheetgm.service.config.file import CODE, find_config, kept_for_bytes, kept_validated, read_config_bytes
from sheetgm.service.config.rules import pydantic_message
from sheetgm.service.errors import ConfigError

_EVERY = re.compile(r"^(?:day|([1-7]) ?days?)$")


# The records are keyword-only, in the models' field order (a test holds them to the models), so that their
# order is game.toml's order when saved.


@dataclass(frozen=True, kw_only=True)
class SeatConfig:
    """One ``[[roster]]`` block as validated (config_model.SeatModel)."""

    alias: str
    camp: str | None = None  # None: dealt with the role (R-SETUP-2)
    lang: str = "zh"
    email: str | None = None
    role: str | None = None
    passage: str | None = None  # the Master Assassin's passage ends, e.g. "B2-E5" (R-ROLE-ASSASSIN)


@dataclass(frozen=True, kw_only=True)
class ScheduleConfig:
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


@dataclass(frozen=True, kw_only=True)
class GameConfig:
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
    roster: list[SeatConfig]


def from_plain(data: dict[str, Any]) -> GameConfig:
    """The records from a validated config in JSON form (the models' ``model_dump(mode="json")``)."""
    schedule = data.get("schedule")
    return GameConfig(
        **{k: v for k, v in data.items() if k not in ("roster", "schedule", "deadlines")},
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
    """The game's config file validated: read back as kept when this machine validated the very same bytes (no
    TOML parsed), else parsed and validated (``parse_config``), then kept under a hash of its bytes too."""
    file = find_config(path)
    plain = kept_validated(file)
    if plain is not None:
        try:
            return from_plain(plain)
        except (TypeError, KeyError, ValueError, AttributeError):
            pass  # a kept file that is not one: parsed and validated again, and kept anew
    try:
        raw, data = read_config_bytes(file)
    except UnicodeDecodeError:
        raise ConfigError("err.cfg.encoding", path=str(file)) from None
    except OSError as exc:
        raise ConfigError(path=str(file), detail=exc.strerror or type(exc).__name__) from None
    except ValueError as exc:  # TOML or JSON syntax: where, and the parser's own words
        m = re.search(_AT, str(exc))
        line, col = (m.group(1) or m.group(3), m.group(2) or m.group(4)) if m else ("?", "?")
        raise ConfigError("err.cfg.syntax", path=str(file), line=line, col=col,
                          detail=re.sub(_AT, "", str(exc)).strip(" :")) from None
    cfg, plain = _validated(data, str(file))
    by_bytes = kept_for_bytes(file, raw)
    if by_bytes is not None:
        _keep(by_bytes, plain)
    return cfg


def parse_config(data: dict[str, Any], where: str = "game.toml") -> GameConfig:
    """The config ``data`` (as read from game.toml) validated: from the cache when this machine has validated
    the same data with the same code, else by the models (and then kept)."""
    return _validated(data, where)[0]


def _validated(data: dict[str, Any], where: str) -> tuple[GameConfig, dict[str, Any]]:
    """``parse_config``, with the validated form in JSON (as kept)."""
    kept = _kept_file(data)
    if kept is not None:
        try:
            plain = json.loads(kept.read_text("utf-8"))
            return from_plain(plain), plain
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            pass  # none kept yet, or a kept file that is not one: validate
    from pydantic import ValidationError

    from sheetgm.service.config.model import GameModel

    try:
        plain = GameModel.model_validate(data).model_dump(mode="json")
    except ValidationError as exc:
        given = data if isinstance(data, dict) else {}  # a game.json may hold a list: the error says so
        raise InvalidConfigError(where, exc.errors(), given) from None
    cfg = from_plain(plain)
    if kept is not None:
        _keep(kept, plain)
    return cfg, plain


_CODE = CODE  # the modules whose code decides what validation accepts (relative to the sheetgm package)


def _kept_file(data: Any) -> Path | None:
    """Where the validated form of ``data`` is kept: named by a hash of the data and of the validating code
    (the bytes of the modules in _CODE, sheetgm's version); None for data that has no JSON form."""
    try:
        text = json.dumps(data, sort_keys=True, default=_iso, ensure_ascii=False)
    except (TypeError, ValueError):
        return None
    digest = blake2b(text.encode("utf-8"), digest_size=16)
    digest.update(sheetgm.__version__.encode())
    package = Path(__file__).parents[2]
    try:
        for name in _CODE:
            digest.update((package / name).read_bytes())
    except OSError:
        return None
    return cache_dir() / "configs" / f"{digest.hexdigest()}.json"


def _iso(value: Any) -> str:
    """A TOML date, time or date-time in the hashed form, its type named (a string that looks alike is not it)."""
    if hasattr(value, "isoformat"):
        return f"{type(value).__name__}:{value.isoformat()}"
    raise TypeError(type(value).__name__)


KEEP_DAYS = 30  # a kept config not written for this long is removed when another is kept


def _keep(file: Path, plain: dict[str, Any]) -> None:
    """Keep the validated form, and remove the kept configs not written for KEEP_DAYS."""
    if keep_json(file, plain):
        old = time.time() - KEEP_DAYS * 86400
        try:
            for other in file.parent.glob("*.json"):
                if other.stat().st_mtime < old:
                    other.unlink(missing_ok=True)
        except OSError:  # another process removed one first
            pass


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
