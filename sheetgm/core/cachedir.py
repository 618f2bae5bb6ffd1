"""sheetgm's cache folder on this machine (the Google quota's shared memory, the parsed templates)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

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
