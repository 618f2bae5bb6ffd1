"""Whole games through the command line on real WebDAV servers: WsgiDAV in every run, rclone and Apache httpd with
mod_dav where installed (skipped with the reason printed elsewhere).
The director's commands run as a fresh process would (``run_script``: the fast path, then Typer), the password
in the environment only; the players type into their workbooks through WebDAV clients of their own."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import dav_servers
import pytest
from script_runner import run_script
from svc_helpers import write_order
from typer.testing import Result

from sheetgm.backends.webdav.client import DavClient
from sheetgm.backends.webdav.gateway import WebDavGateway
from sheetgm.service.config.load import load_config
from sheetgm.service.game import Game, open_game, workbook_names

ENV = {"SHEETGM_WEBDAV_PASSWORD": dav_servers.PASSWORD, "SHEETGM_LANG": "en"}


def draft(url: str, if_match: bool = True) -> str:
    return f"""name = "cup"
seed = 3
lang = "en"
backend = "webdav"
[options]
crack_target = 6
[schedule]
survivors = "21:00"
hunters = "23:00"
start = "2024-01-01"
[webdav]
url = "{url}"
user = "{dav_servers.USER}"
if_match = {"true" if if_match else "false"}
[[roster]]
alias = "Ann"
camp = "survivor"
[[roster]]
alias = "Bo"
camp = "survivor"
lang = "en"
[[roster]]
alias = "Hu"
camp = "hunter"
"""


class Director:
    def __init__(self, folder: Path, url: str, if_match: bool = True) -> None:
        self.folder, self.url = folder, url
        folder.mkdir(parents=True)
        (folder / "game.toml").write_text(draft(url, if_match), "utf-8")

    def run(self, *args: str, env: dict[str, str | None] | None = None) -> Result:
        return run_script([*args, "--game", str(self.folder)], env={**ENV, **(env or {})})

    def ok(self, *args: str) -> Result:
        done = self.run(*args)
        assert done.exit_code == 0, done.output
        return done

    def json(self, *args: str) -> Any:
        return json.loads(self.ok(*args, "--json").stdout)

    def player(self) -> Game:
        """A player's program on the shared folder: another client, another gateway."""
        cfg = load_config(self.folder)
        gw = WebDavGateway(DavClient(self.url, dav_servers.USER, dav_servers.PASSWORD), workbook_names(cfg))
        return open_game(self.folder, gateway=gw)


@pytest.fixture(params=["wsgidav", "rclone", "apache"])
def director(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Director]:
    if request.param == "wsgidav":
        with dav_servers.wsgidav(tmp_path / "server") as server:
            yield Director(tmp_path / "cup", server.url)
        return
    if request.param == "apache":
        missing = dav_servers.apache_missing()
        if missing:
            print(f"skipped: {missing}")
            pytest.skip(missing)
        with dav_servers.apache(tmp_path / "server") as server:
            yield Director(tmp_path / "cup", server.url)  # mod_dav honours If-Match
        return
    missing = dav_servers.rclone_missing()
    if missing:
        print(f"skipped: {missing}")
        pytest.skip(missing)
    with dav_servers.rclone(tmp_path / "server") as server:
        yield Director(tmp_path / "cup", server.url, if_match=False)  # rclone ignores If-Match (doctor says so)


def test_a_whole_game_through_the_cli(director: Director, tmp_path: Path) -> None:
    made = director.json("new")
    assert set(made["workbooks"]) == {"director", "public", "player-1", "player-2", "player-3"}
    server = tmp_path / "server"
    assert (server / "01-Ann" / "01-Ann.xlsx").is_file() and (server / "cup-director" / "cup-director.xlsx").is_file()
    assert director.json("status")["due"] == "N1-survivor"
    got = director.json("check")  # (past its deadline, who has no order is "without_order", none "missing")
    assert (got["missing"] or got["without_order"]) == ["Ann", "Bo"]
    write_order(director.player(), 1, "search")
    write_order(director.player(), 2, "crack")
    director.ok("check")
    assert "N1-survivor" in director.ok("resolve", "--stage", "N1-survivor").stdout
    assert "Night 1, survivor stage" in director.ok("publish", "N1-survivor", "--format", "plain").stdout
    assert director.json("status")["due"] == "N1-hunter"
    assert "N1-hunter" in director.ok("resolve", "--stage", "N1-hunter").stdout
    assert director.json("verify")["ok"] is True
    assert "cron: '7 21 * * *'" in director.ok("schedule").stdout  # the workflow's lines, as for a Google game


def test_no_password_is_said_and_none_is_printed(director: Director) -> None:
    done = director.run("status", env={"SHEETGM_WEBDAV_PASSWORD": None})
    assert done.exit_code != 0 and "SHEETGM_WEBDAV_PASSWORD" in done.output
    done = director.run("status", env={"SHEETGM_WEBDAV_PASSWORD": "wrong-password-123"})
    assert done.exit_code != 0 and "did not accept user 'director'" in done.output
    assert "wrong-password-123" not in done.output
