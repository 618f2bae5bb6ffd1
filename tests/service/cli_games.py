"""A game driven through the command line on a chosen backend: local .xlsx files, or "Google" (the fake).

On Google every command opens the game the way a fresh process does (a new GoogleGateway on the game's
workbooks.json), talking to one FakeGoogle for the whole test.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from svc_helpers import make_game, roster
from typer.testing import CliRunner, Result

from sheetgm.backends.fake_google import FakeGoogle
from sheetgm.backends.idmap import JsonIdMap
from sheetgm.backends.port import Gateway
from sheetgm.backends.xlsx import XlsxGateway
from sheetgm.cli import app
from sheetgm.service.game import IDS_FILE, WORKBOOK_DIR, Game, open_game

runner = CliRunner()


@dataclass
class CliGame:
    folder: Path
    backend: str
    fake: FakeGoogle | None

    def gateway(self) -> Gateway:
        if self.fake is not None:
            return self.fake.gateway(ids=JsonIdMap(self.folder / IDS_FILE))
        return XlsxGateway(self.folder / WORKBOOK_DIR)

    def open(self) -> Game:
        """The game as a new process sees it (a new gateway)."""
        return open_game(self.folder, self.gateway())

    def run(self, *args: str) -> Result:
        return runner.invoke(app, [*args, "--game", str(self.folder)])

    def sid(self, key: str) -> str:
        """The fake's spreadsheet id of a workbook key (Google only)."""
        return JsonIdMap(self.folder / IDS_FILE)[key]


@contextmanager
def cli_game(backend: str, folder: Path, monkeypatch: pytest.MonkeyPatch, **cfg: Any) -> Iterator[CliGame]:
    """A new game in ``folder`` (4 players unless ``roster`` is given) whose commands run on ``backend``."""
    if backend == "xlsx":
        make_game(folder, XlsxGateway(folder / WORKBOOK_DIR), backend="xlsx", **cfg)
        yield CliGame(folder, backend, None)
        return
    with FakeGoogle() as fake:
        game = CliGame(folder, backend, fake)
        cfg.setdefault("roster", roster(emails=True))
        make_game(folder, game.gateway(), backend="google", director_email="gm@example.com", **cfg)
        monkeypatch.setattr("sheetgm.service.game.make_gateway", lambda _cfg, _folder, *_a: game.gateway())
        yield game
