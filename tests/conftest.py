"""Fixtures for every test: the shared quota log of the Google adapter kept in the test's own folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sheetgm.backends.google.ratelimit import QUOTA_ENV
from sheetgm.core.cachedir import CACHE_ENV


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """A command opened through ``make_gateway`` paces itself with a log under the user's cache folder: keep it
    out of the real one, and let the tests' fake calls go at full speed (the pacing has its own tests)."""
    monkeypatch.setenv(CACHE_ENV, str(Path(tmp_path_factory.mktemp("cache"))))
    monkeypatch.setenv(QUOTA_ENV, "1000000")


_BEFORE = pytest.StashKey[dict[str, tuple[int, int]]]()
# The checkout as it was before the run: the suite writes only into temporary folders (tmp_path), never here.
CHECKOUT = Path(__file__).resolve().parents[1]
SKIPPED = frozenset({".git", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis", "build",
                     "dist", "games"})


def checkout_files(root: Path = CHECKOUT) -> dict[str, tuple[int, int]]:
    """Every file of the checkout with its size and modification time, without the folders git ignores anyway
    (caches, virtual environments): the same with or without git."""
    out: dict[str, tuple[int, int]] = {}
    stack = [root]
    while stack:
        here = stack.pop()
        try:
            entries = list(os.scandir(here))
        except OSError:
            continue
        for e in entries:
            if e.is_dir(follow_symlinks=False):
                if e.name not in SKIPPED and not e.name.startswith((".venv", "demo-game", "sheetgm-demo")) \
                        and not e.name.endswith(".egg-info"):
                    stack.append(Path(e.path))
            elif e.is_file(follow_symlinks=False):
                st = e.stat(follow_symlinks=False)
                out[str(Path(e.path).relative_to(root))] = (st.st_size, st.st_mtime_ns)
    return out


def checkout_changes(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> list[str]:
    """What a run left in the checkout: files new, changed or gone, each named."""
    return sorted([f"new: {p}" for p in after.keys() - before.keys()]
                  + [f"changed: {p}" for p in after.keys() & before.keys() if after[p] != before[p]]
                  + [f"gone: {p}" for p in before.keys() - after.keys()])


def pytest_sessionstart(session: pytest.Session) -> None:
    session.config.stash[_BEFORE] = checkout_files()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fails the run if it left files in the checkout (a test or a tool it ran wrote outside tmp_path)."""
    before = session.config.stash.get(_BEFORE, None)
    if before is None or os.environ.get("SHEETGM_ALLOW_CHECKOUT_WRITES"):
        return
    changed = checkout_changes(before, checkout_files())
    if changed:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        lines = ["", "the test run wrote into the checkout (tests must write only into tmp_path):", *changed[:20]]
        if reporter is not None:
            reporter.write_line("\n".join(lines), red=True)
        else:
            print("\n".join(lines))
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
