"""Fixtures for every test: the shared quota log of the Google adapter kept in the test's own folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from checkout import checkout_changes, checkout_files

from sheetgm.backends.google.ratelimit import QUOTA_ENV
from sheetgm.core.cachedir import CACHE_ENV


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """A command opened through ``make_gateway`` paces itself with a log under the user's cache folder: keep it
    out of the real one, and let the tests' fake calls go at full speed (the pacing has its own tests)."""
    monkeypatch.setenv(CACHE_ENV, str(Path(tmp_path_factory.mktemp("cache"))))
    monkeypatch.setenv(QUOTA_ENV, "1000000")


_BEFORE = pytest.StashKey[dict[str, tuple[int, int]]]()  # the checkout before the run (checkout.py)
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
