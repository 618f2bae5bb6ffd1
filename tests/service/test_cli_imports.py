"""What a scheduled command imports in a process of its own (issue 14): `check` reads its game.toml (tomllib) and
validates a plainly valid one without pydantic (issue 26: every time, nothing validated is kept), loads no OpenSSL
(hashlib, hmac) and imports neither Typer, getpass nor publishing's code; `resolve` needs publishing, still no
pydantic or Typer."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import pytest
from cli_games import cli_game
from script_runner import run_script
from svc_helpers import write_order

from sheetgm.cli.common import _user
from sheetgm.cli.main import COLLECT_EVERY, main

SCRIPT = """
import atexit, sys
WATCHED = ("typer", "pydantic", "tomllib", "hashlib", "hmac", "secrets", "getpass", "sheetgm.service.publish")
atexit.register(lambda: print("loaded:", *[m for m in WATCHED if m in sys.modules], file=sys.stderr))
from sheetgm.cli.main import COLLECT_EVERY, main
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
        for _ in range(2):  # the first with an empty cache folder, the second with what the first kept
            assert _loaded(g.folder, tmp_path / "cache", "check") == ["tomllib"]
        assert _loaded(g.folder, tmp_path / "cache", "resolve", "--dry-run") == ["tomllib", "sheetgm.service.publish"]
        assert _loaded(g.folder, tmp_path / "cache", "resolve") == ["tomllib", "sheetgm.service.publish"]  # locking


def test_the_script_leaves_its_objects_to_the_shutdown_and_a_caller_s_command_line_does_not(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run as the script (its own command line), a scheduled command collects garbage less often and freezes what
    it holds before the interpreter shuts down (its last collection then scans nothing); called with a command line
    (a test, a caller), the caller's collector is left as it was."""
    with cli_game("xlsx", tmp_path / "g") as g:
        write_order(g.open(), 1, "搜索")
        assert gc.get_freeze_count() == 0
        thresholds = gc.get_threshold()
        assert run_script(["check", "--game", str(g.folder)], env={"SHEETGM_LANG": "en"}).exit_code == 0
        assert gc.get_freeze_count() == 0 and gc.get_threshold() == thresholds
        monkeypatch.setattr(sys, "argv", ["sheetgm", "status", "--game", str(g.folder)])
        monkeypatch.setenv("SHEETGM_LANG", "en")
        try:
            main()
            assert gc.get_freeze_count() > 10_000 and gc.get_threshold() == COLLECT_EVERY
        finally:
            gc.unfreeze()
            gc.set_threshold(*thresholds)


def test_a_script_s_check_writes_every_workbook_in_full(tmp_path: Path) -> None:
    """The script's process, ending without its last collection, leaves every workbook whole and readable."""
    with cli_game("xlsx", tmp_path / "g") as g:
        write_order(g.open(), 1, "搜索")
        done = subprocess.run([sys.executable, "-c", SCRIPT, "check", "--game", str(g.folder)], capture_output=True,
                              text=True, env={"SHEETGM_LANG": "en", "PATH": "", "SHEETGM_CACHE_DIR": str(tmp_path)},
                              timeout=120)
        assert done.returncode == 0, done.stderr
        again = run_script(["check", "--game", str(g.folder), "--json"], env={"SHEETGM_LANG": "en"})
        assert again.exit_code == 0, again.output
        assert '"ok"' in again.stdout


@pytest.mark.parametrize("env", [{}, {"USERNAME": "u4"}, {"LNAME": "u3", "USERNAME": "u4"},
                                 {"USER": "u2", "LNAME": "u3"}, {"LOGNAME": "u1", "USER": "u2"}, {"LOGNAME": ""}])
def test_the_lock_holder_s_user_is_the_one_getpass_names(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    import getpass

    for name in ("LOGNAME", "USER", "LNAME", "USERNAME"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert _user() == getpass.getuser()
    assert _user() == (next((v for v in env.values() if v), None) or getpass.getuser())
