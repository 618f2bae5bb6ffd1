"""What a scheduled command imports in a process of its own (issue 14): once the game's config has been validated
on this machine, `check` parses no TOML, validates nothing with pydantic, loads no OpenSSL (hashlib, hmac) and
imports neither Typer nor publishing's code; `resolve` needs publishing, and still no TOML, pydantic or Typer."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_games import cli_game
from script_runner import run_script
from svc_helpers import write_order

from sheetgm.service import check as check_service

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


def test_a_command_runs_with_its_imports_set_aside_from_the_collector_and_puts_them_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While the command runs, what the process made before it is frozen (not scanned by each collection);
    after it, nothing stays frozen: a process that runs many commands (a test's) leaks nothing."""
    seen: list[int] = []
    real = check_service.check

    def watched(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.get_freeze_count())
        return real(*args, **kwargs)

    monkeypatch.setattr(check_service, "check", watched)
    with cli_game("xlsx", tmp_path / "g") as g:
        write_order(g.open(), 1, "搜索")
        assert gc.get_freeze_count() == 0
        done = run_script(["check", "--game", str(g.folder)], env={"SHEETGM_LANG": "en"})
        assert done.exit_code == 0, done.output
        refused = run_script(["check", "--game", str(tmp_path / "none")], env={"SHEETGM_LANG": "en"})
        assert refused.exit_code == 1
    assert len(seen) == 1 and seen[0] > 10_000
    assert gc.get_freeze_count() == 0
