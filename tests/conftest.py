"""Fixtures for every test: the shared quota log of the Google adapter kept in the test's own folder."""

from __future__ import annotations

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
