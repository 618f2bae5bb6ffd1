"""Finding and reading a game's config file, without validating it (config/load.py validates).

Kept apart from load.py so that what only needs the director's language (the command line's help and
error messages) does not import pydantic. A file is parsed once per process: its parsed data is kept with its
bytes and parsed again only when they change (reading a small file costs far less than parsing it; a
modification time can miss a quick rewrite). Callers must not change the data they are given.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from sheetgm.core.errors import SheetgmError
from sheetgm.core.texts import LANGS
from sheetgm.service.errors import NoConfigError

CONFIG_NAMES = ("game.toml", "game.json")
LANG_ENV = "SHEETGM_LANG"  # the language of the director's console, whatever the game's

_parsed: dict[Path, tuple[bytes, Any]] = {}


def find_config(path: Path) -> Path:
    """``path`` is a game folder or its config file."""
    if path.is_file():
        return path
    for name in CONFIG_NAMES:
        if (path / name).is_file():
            return path / name
    raise NoConfigError(path=str(path))


def read_config(file: Path) -> Any:
    """The parsed TOML (or JSON) of ``file``; OSError, UnicodeDecodeError or ValueError if it does not read."""
    return read_config_bytes(file)[1]


def read_config_bytes(file: Path) -> tuple[bytes, Any]:
    """``read_config``, with the bytes it parsed."""
    key = file.absolute()
    raw = key.read_bytes()
    kept = _parsed.get(key)
    if kept is not None and kept[0] == raw:
        return kept
    text = raw.decode("utf-8-sig")  # a byte-order mark (Windows Notepad) is not part of the text
    if file.suffix == ".json":
        data = json.loads(text)
    else:
        import tomllib

        data = tomllib.loads(text)
    _parsed[key] = (raw, data)
    return raw, data


def declared_lang(path: Path) -> str | None:
    """The ``lang`` a config file declares, read without validating the rest; None without one."""
    try:
        data = read_config(find_config(path))
    except (SheetgmError, OSError, UnicodeDecodeError, ValueError):
        return None
    lang = data.get("lang", "zh") if isinstance(data, dict) else None
    return lang if lang in LANGS else None


def env_lang() -> str | None:
    """The console's language the director chose with SHEETGM_LANG, if any (zh or en)."""
    lang = os.environ.get(LANG_ENV, "").strip().lower()
    return lang if lang in LANGS else None
