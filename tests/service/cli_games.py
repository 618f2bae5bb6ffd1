"""A game driven through the command line on a chosen backend: local .xlsx files, or "Google" (the fake).

Every command opens the game the way a fresh process does, through ``service.game.make_gateway``: on xlsx
the files named in the game's folder, on Google the ids of spreadsheets.json as the service account, whose
key is in the environment (signed and exchanged at the fake's token endpoint), talking to one FakeGoogle for
the whole test. The game is created as the director (who owns the files and shares them with the service
account), and the test's own arrangements and reads act as the director too.
"""

from __future__ import annotations

import base64
import functools
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from fakes.google import FakeGoogle
from script_runner import run_script
from svc_helpers import make_game, roster
from typer.testing import Result

from sheetgm.backends.google.auth import ENV_B64
from sheetgm.backends.google.idmap import JsonIdMap
from sheetgm.backends.port import Gateway
from sheetgm.backends.xlsx.gateway import XlsxGateway
from sheetgm.service.config.load import load_config
from sheetgm.service.game import DIRECTOR, IDS_FILE, Game, make_gateway, open_game

DIRECTOR_EMAIL = "gm@example.com"
SERVICE_ACCOUNT = "sheetgm-bot@game-1.iam.gserviceaccount.com"


@functools.cache
def service_account_key(email: str = SERVICE_ACCOUNT) -> str:
    """A service account's key as the scheduled job holds it: base64 of its JSON (made once per run)."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    project = email.split("@")[1].split(".")[0]
    info = {"type": "service_account", "project_id": project, "private_key_id": "k1" * 20, "private_key": pem,
            "client_email": email, "client_id": "1", "token_uri": "https://oauth2.googleapis.com/token"}
    return base64.b64encode(json.dumps(info).encode()).decode()


@dataclass
class CliGame:
    folder: Path
    backend: str
    fake: FakeGoogle | None

    def gateway(self) -> Gateway:
        """A new gateway on the game's workbooks, for the test's own reads and arrangements (as the director)."""
        if self.fake is not None:
            return self.fake.gateway(ids=JsonIdMap(self.folder / IDS_FILE), meta_home=DIRECTOR)
        return make_gateway(load_config(self.folder), self.folder)

    def open(self) -> Game:
        """The game as a new process sees it (a new gateway)."""
        return open_game(self.folder, self.gateway())

    def open_as_runs(self) -> Game:
        """The game as the commands see it: on Google as the service account, not the director."""
        if self.fake is None:
            return self.open()
        gw = self.fake.gateway(ids=JsonIdMap(self.folder / IDS_FILE), acting_as=SERVICE_ACCOUNT, meta_home=DIRECTOR)
        return open_game(self.folder, gw)

    def run(self, *args: str) -> Result:
        env = {ENV_B64: service_account_key()} if self.fake is not None else {}
        return run_script([*args, "--game", str(self.folder)], env=env)

    def file(self, key: str) -> Path:
        """The local file of a workbook (xlsx only): named by the player's alias, found as a new process does."""
        gw = self.gateway()
        assert isinstance(gw, XlsxGateway)
        return gw.path(key)

    def sid(self, key: str) -> str:
        """The fake's spreadsheet id of a workbook key (Google only)."""
        return JsonIdMap(self.folder / IDS_FILE)[key]


@contextmanager
def cli_game(backend: str, folder: Path, **cfg: Any) -> Iterator[CliGame]:
    """A new game in ``folder`` (4 players unless ``roster`` is given) whose commands run on ``backend``."""
    if backend == "xlsx":
        make_game(folder, None, backend="xlsx", **cfg)  # the gateway the config names (files named by alias)
        yield CliGame(folder, backend, None)
        return
    with FakeGoogle(account=DIRECTOR_EMAIL) as fake:  # a call without a login acts as the director
        game = CliGame(folder, backend, fake)
        cfg.setdefault("roster", roster(emails=True))
        make_game(folder, game.gateway(), backend="google", director_email=DIRECTOR_EMAIL,
                  service_account=SERVICE_ACCOUNT, **cfg)
        yield game
