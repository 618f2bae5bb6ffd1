"""What a scheduled command imports in a process of its own (issue 14): once the game's config has been validated
on this machine, `check` parses no TOML, validates nothing with pydantic, loads no OpenSSL (hashlib, hmac) and
imports neither Typer nor publishing's code; `resolve` needs publishing, and still no TOML, pydantic or Typer."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from cli_games import cli_game
from svc_helpers import write_order

SCRIPT = """
import atexit, sys
WATCHED = ("typer", "pydantic", "tomllib", "hashlib", "hmac", "secrets", "sheetgm.service.publish")
atexit.register(lambda: print("loaded:", *[m for m in WATCHED if m in sys.modules], file=sys.stderr))
from sheetgm.cli.main import main
sys.argv[0] = "sheetgm"
main()
"""


def _loaded(folder: Path, cache: Path, *args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", SCRIPT, *args, "--game", str(folder)], capture_output=True, text=True,
                          env={"SHEETGM_LANG": "en", "PATH": "", "SHEETGM_CACHE_DIR": str(cache)}, timeout=120)
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stderr.splitlines() if line.startswith("loaded:"))
    return line.split()[1:]


def test_a_check_and_a_resolve_import_only_what_they_use(tmp_path: Path) -> None:
    with cli_game("xlsx", tmp_path / "g") as g:
        write_order(g.open(), 1, "搜索")
        first = _loaded(g.folder, tmp_path / "cache", "check")
        assert {"tomllib", "pydantic"} <= set(first)  # the config validated, once on this machine
        assert _loaded(g.folder, tmp_path / "cache", "check") == []
        assert _loaded(g.folder, tmp_path / "cache", "resolve", "--dry-run") == ["sheetgm.service.publish"]
        assert _loaded(g.folder, tmp_path / "cache", "resolve") == ["sheetgm.service.publish"]  # locking too
