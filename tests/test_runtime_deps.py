"""The command line runs on the runtime dependencies alone: the test extras (check-jsonschema brings Click,
for one) must not be what makes `sheetgm` work on a director's machine."""

from __future__ import annotations

import subprocess
import sys

# Packages that only the test extras install; importing any of them from sheetgm would break `pip install .`.
TEST_ONLY = ("click", "pytest", "responses", "hypothesis", "check_jsonschema", "openpyxl", "python_calamine", "wsgidav",
             "cheroot")

SCRIPT = f"""
import sys
for name in {TEST_ONLY!r}:
    sys.modules[name] = None  # an import of it now fails, as on a machine without the test extras
sys.argv = ["sheetgm"] + sys.argv[1:]
from sheetgm.cli.main import main
main()
"""


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", SCRIPT, *args], capture_output=True, text=True,
                          env={"SHEETGM_LANG": "en", "PATH": ""}, timeout=120)


def test_help_runs_without_the_test_extras() -> None:
    done = _run("--help")
    assert done.returncode == 0, done.stderr
    assert "Usage" in done.stdout and "resolve" in done.stdout


def test_a_command_runs_without_the_test_extras(tmp_path) -> None:  # type: ignore[no-untyped-def]
    done = _run("case", "run", str(tmp_path / "missing.toml"))
    assert done.returncode == 1 and "Traceback" not in done.stderr and "ModuleNotFoundError" not in done.stderr
