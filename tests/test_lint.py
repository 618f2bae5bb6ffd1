"""The code stays clean under ruff (the engine) and mypy --strict (the whole package, configured in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is not installed (pip install -e '.[test]')")
def test_ruff_clean_on_core() -> None:
    res = subprocess.run(["ruff", "check", "sheetgm/core", "sheetgm/notation"], cwd=ROOT, capture_output=True,
                         text=True)
    assert res.returncode == 0, res.stdout + res.stderr


def test_mypy_strict_clean_on_the_whole_package() -> None:
    pytest.importorskip("mypy")
    res = subprocess.run([sys.executable, "-m", "mypy", "sheetgm"], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
