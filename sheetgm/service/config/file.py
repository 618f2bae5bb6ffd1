"""Finding and reading a game's config file, without validating it (``config.py`` validates).

Kept apart from ``config.py`` so that what only needs the director's language (the command line's help and
error messages) does not import pydantic. A file is parsed once per process: its parsed data is kept with its
bytes and parsed again only when they change (reading a small file costs far less than parsing it; a
modification time can miss a quick rewrite). Callers must not change the data they are given.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import sheetgm
from sheetgm.core.cachedir import cache_dir
from sheetgm.core.digests import blake2b
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
        import tomllib  # ~3 ms: only for a config not validated on this machine yet (kept_for_bytes)

        data = tomllib.loads(text)
    _parsed[key] = (raw, data)
    return raw, data


# The modules whose code decides what validation accepts (relative to the sheetgm package): a kept validated
# config is named by a hash of their bytes too (config.py).
CODE = (
    "service/config/load.py", "service/config/model.py", "service/config/rules.py", "core/state.py", "core/steps.py",
    "notation/order_format.py", "notation/vocab.py", "sheets/stages.py",
)


def code_bytes() -> bytes | None:
    """sheetgm's version and the bytes of the modules in CODE; None if one cannot be read."""
    package = Path(__file__).parents[2]
    try:
        return b"\0".join([sheetgm.__version__.encode(), *((package / name).read_bytes() for name in CODE)])
    except OSError:
        return None


def kept_for_bytes(file: Path, raw: bytes) -> Path | None:
    """Where config.py keeps the validated form of a config file whose bytes are ``raw`` (beside the form it keeps
    under a hash of the parsed data): named by a hash of the bytes, of how they are parsed (TOML or JSON, by this
    Python, by this module's code) and of the validating code. A command reads it back without parsing TOML
    (whose import alone costs ~3 ms). None if the code cannot be read."""
    code = code_bytes()
    try:
        reader = Path(__file__).read_bytes()
    except OSError:
        return None
    if code is None:
        return None
    how = b"json" if file.suffix == ".json" else b"toml"
    digest = blake2b(b"%s\0%s\0" % (how, sys.implementation.cache_tag.encode()), digest_size=16)
    digest.update(b"%d\0" % len(raw))
    digest.update(raw)
    digest.update(code)
    digest.update(reader)
    return cache_dir() / "configs" / "files" / f"{digest.hexdigest()}.json"


def kept_validated(file: Path) -> dict[str, Any] | None:
    """The validated form of ``file`` as kept when its very bytes were validated on this machine; None if they
    were not (or the file does not read: the caller reads it and says why)."""
    try:
        where = kept_for_bytes(file, file.absolute().read_bytes())
        plain = json.loads(where.read_text("utf-8")) if where is not None else None
    except (OSError, ValueError):
        return None
    return plain if isinstance(plain, dict) else None


def declared_lang(path: Path) -> str | None:
    """The ``lang`` a config file declares, read without validating the rest; None without one."""
    try:
        file = find_config(path)
        plain = kept_validated(file)  # validated: its lang is the one the file declares
        data = plain if plain is not None else read_config(file)
    except (SheetgmError, OSError, UnicodeDecodeError, ValueError):
        return None
    lang = data.get("lang", "zh") if isinstance(data, dict) else None
    return lang if lang in LANGS else None


def env_lang() -> str | None:
    """The console's language the director chose with SHEETGM_LANG, if any (zh or en)."""
    lang = os.environ.get(LANG_ENV, "").strip().lower()
    return lang if lang in LANGS else None
