"""sheetgm's cache folder on this machine (the Google quota's shared memory, the parsed templates)."""

from __future__ import annotations

import json
import marshal
import os
import sys
from pathlib import Path
from typing import Any

CACHE_ENV = "SHEETGM_CACHE_DIR"


def cache_dir(env: dict[str, str] | None = None) -> Path:
    """sheetgm's cache folder: ``SHEETGM_CACHE_DIR``, else the platform's user cache folder."""
    env = dict(os.environ) if env is None else env
    if env.get(CACHE_ENV, "").strip():
        return Path(env[CACHE_ENV].strip())
    home = Path(env.get("HOME") or Path.home())
    if sys.platform == "win32":
        return Path(env.get("LOCALAPPDATA") or home / "AppData" / "Local") / "sheetgm" / "Cache"
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "sheetgm"
    return Path(env.get("XDG_CACHE_HOME") or home / ".cache") / "sheetgm"


def keep_json(file: Path, data: object) -> bool:
    """Write ``data`` as JSON to ``file`` in the cache, whole then renamed into place (a reader never sees half
    of it); False when the cache cannot be written (a read-only home, no home at all): the caller goes on."""
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        part = file.with_name(f"{file.name}.{os.getpid()}.part")
        part.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
        os.replace(part, file)
        return True
    except (OSError, RuntimeError):
        return False


def keep_marshal(file: Path, data: Any) -> bool:
    """Write ``data`` with ``marshal`` to ``file`` in the cache, whole then renamed into place; False when it
    cannot be written (the caller goes on without it)."""
    try:
        return keep_bytes(file, marshal.dumps(data))
    except ValueError:
        return False


def keep_bytes(file: Path, data: bytes) -> bool:
    """Write ``data`` to ``file`` in the cache, whole then renamed into place; False when it cannot be written."""
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        part = file.with_name(f"{file.name}.{os.getpid()}.part")
        part.write_bytes(data)
        os.replace(part, file)
        return True
    except (OSError, RuntimeError, ValueError):
        return False
