"""Every command that opens a game, run through the CLI on the Google fake, the way a director runs them.

Nothing but the credential sources is arranged: ``new`` and ``share`` log in as the director (a cached
OAuth login under $HOME whose refresh token the fake's token endpoint answers), every other command
as the service account (its key, base64, in SHEETGM_SERVICE_ACCOUNT_B64, signed and exchanged at the
fake's token endpoint). So a wrong import, a renamed module or a second factory cannot pass here.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_games import service_account_key
from fakes.google import FakeGoogle
from svc_helpers import write_order
from typer.testing import CliRunner, Result

from sheetgm.backends.a1 import parse_range
from sheetgm.backends.google.auth import ENV_B64
from sheetgm.backends.google.idmap import JsonIdMap
from sheetgm.cli.app import app
from sheetgm.service.game import IDS_FILE, open_game

SA = "gm-bot@game-123.iam.gserviceaccount.com"
DIRECTOR = "gm@example.com"
PLAYERS = ["ann@example.com", "bo@example.com", "hu@example.com"]
DRAFT = f"""name = "cup"
seed = 3
lang = "en"
director_email = "{DIRECTOR}"
service_account = "{SA}"
[options]
crack_target = 6
[[roster]]
alias = "Ann"
camp = "survivor"
email = "{PLAYERS[0]}"
[[roster]]
alias = "Bo"
camp = "survivor"
lang = "en"
email = "{PLAYERS[1]}"
[[roster]]
alias = "Hu"
camp = "hunter"
email = "{PLAYERS[2]}"
"""


@pytest.fixture(scope="module")
def key_b64() -> str:
    return service_account_key(SA)


class Director:
    """A director's machine: a game folder, a cached OAuth login, the service-account key in the environment."""

    def __init__(self, root: Path, fake: FakeGoogle, key_b64: str) -> None:
        self.fake, self.folder, self.home = fake, root / "cup", root / "home"
        self.folder.mkdir()
        (self.folder / "game.toml").write_text(DRAFT, "utf-8")
        login = self.home / ".config" / "sheetgm" / "authorized_user.json"
        login.parent.mkdir(parents=True)
        login.write_text(json.dumps({"type": "authorized_user", "client_id": "desktop.apps.googleusercontent.com",
                                     "client_secret": "not-a-secret", "refresh_token": "rt-director"}))
        fake.login("rt-director", DIRECTOR)
        self.secrets = root / "client_secret.json"
        self.secrets.write_text("{}")
        self.env = {"HOME": str(self.home), ENV_B64: key_b64}

    def run(self, *args: str) -> Result:
        return CliRunner().invoke(app, [*args, "--game", str(self.folder)], env=self.env)

    def as_director(self, *args: str) -> Result:
        return self.run(*args, "--client-secrets", str(self.secrets))

    def ids(self) -> dict[str, str]:
        return dict(json.loads((self.folder / IDS_FILE).read_text()))

    def player_writes(self, seat: int, order: str) -> None:
        """The player types an order into their own spreadsheet (as themselves)."""
        gw = self.fake.gateway(ids=JsonIdMap(self.folder / IDS_FILE), acting_as=PLAYERS[seat - 1])
        write_order(open_game(self.folder, gateway=gw), seat, order)


@pytest.fixture
def fake() -> Iterator[FakeGoogle]:
    with FakeGoogle(account="nobody@example.com") as f:  # no call goes through without a real login
        yield f


@pytest.fixture
def director(tmp_path: Path, fake: FakeGoogle, key_b64: str) -> Director:
    return Director(tmp_path, fake, key_b64)


def ok(result: Result) -> Result:
    assert result.exit_code == 0, result.output
    return result


def as_json(result: Result) -> Any:
    return json.loads(ok(result).stdout)


def test_a_whole_game_through_the_cli_on_google(director: Director, fake: FakeGoogle) -> None:
    made = as_json(director.as_director("new", "--google", "--json"))
    ids = director.ids()
    assert set(ids) == {"director", "public", "player-1", "player-2", "player-3"}
    assert made["workbooks"]["public"] == f"https://docs.google.com/spreadsheets/d/{ids['public']}"
    assert {fake.drive.owner(sid) for sid in ids.values()} == {DIRECTOR}  # created with the director's login
    assert all(c.who == DIRECTOR for c in fake.log if c.kind != "token")

    first = len(fake.log)
    assert as_json(director.run("status", "--json"))["due"] == "N1-survivor"
    assert {c.who for c in fake.log[first:] if c.kind != "token"} == {SA}  # the scheduled runs' account
    checked = as_json(director.run("check", "--json"))
    assert checked["missing"] == ["Ann", "Bo"]
    director.player_writes(1, "search")
    director.player_writes(2, "crack")
    assert "N1-survivor" in ok(director.run("resolve", "--stage", "N1-survivor")).stdout
    assert "Night 1, survivor stage" in ok(director.run("publish", "N1-survivor", "--format", "plain")).stdout
    assert ok(director.run("map", "--out", str(director.folder / "map.png"))).exit_code == 0
    assert (director.folder / "map.png").stat().st_size > 0
    ok(director.run("override", "Ann", "hp", "1", "--reason", "ruling"))
    ok(director.run("card", "give", "Bo", "blue", "--reason", "late"))
    assert len(as_json(director.run("card", "list", "--json"))) == 1
    ok(director.run("card", "lurking", "--day", "1", "--posts", "Ann=3", "--posts", "Bo=2", "--posts", "Hu=1"))
    ok(director.run("rollback", "N1-survivor", "--reason", "replay"))
    assert as_json(director.run("verify", "--json"))["ok"] is True
    audit = ok(director.run("audit"))
    assert "Audit passed" in audit.stdout
    grants = fake.count("perm_create")
    shared = as_json(director.as_director("share", "--json"))
    assert shared["missing"] == [] and len(shared["shared"]) == 1 + (1 + 3) + 3 * 2  # director, public, players
    assert fake.count("perm_create") == grants  # all in place already: only the lists were read


def test_new_needs_the_directors_login_and_runs_need_the_service_account(director: Director) -> None:
    no_secrets = director.run("new", "--google")
    assert no_secrets.exit_code == 1 and "--client-secrets" in no_secrets.stderr
    director.env.pop(ENV_B64)
    ok(director.as_director("new", "--google"))
    director.env["SHEETGM_SERVICE_ACCOUNT_JSON"] = ""
    import google.auth

    def nothing(scopes: list[str]) -> None:
        from google.auth.exceptions import DefaultCredentialsError

        raise DefaultCredentialsError("none")

    saved = google.auth.default
    google.auth.default = nothing  # type: ignore[assignment]
    try:
        missing = director.run("status")
    finally:
        google.auth.default = saved
    assert missing.exit_code == 1 and ENV_B64 in missing.stderr and "Traceback" not in missing.output


def test_a_google_game_without_a_service_account_says_why(director: Director) -> None:
    text = DRAFT.replace(f'service_account = "{SA}"\n', "")
    (director.folder / "game.toml").write_text(text, "utf-8")
    result = director.as_director("new", "--google")
    assert result.exit_code == 1
    assert "service_account" in result.stderr and "scheduled runs" in result.stderr


def test_a_key_for_another_account_is_named(director: Director, key_b64: str) -> None:
    ok(director.as_director("new", "--google"))
    text = (director.folder / "game.toml").read_text("utf-8").replace(SA, "other@game-123.iam.gserviceaccount.com")
    (director.folder / "game.toml").write_text(text, "utf-8")
    result = director.run("status")
    assert result.exit_code == 1 and SA in result.stderr and "other@game-123" in result.stderr


def test_a_half_shared_new_is_finished_by_share(director: Director, fake: FakeGoogle) -> None:
    fake.drive.no_account.add(PLAYERS[1])  # Bo's address has no Google account (yet)
    cut = director.as_director("new", "--google")
    assert cut.exit_code == 1
    assert "Bo" in cut.stderr and PLAYERS[1] in cut.stderr and "sheetgm share" in cut.stderr
    assert set(director.ids()) == {"director", "public", "player-1", "player-2", "player-3"}
    again = director.as_director("new", "--google")
    assert again.exit_code == 1 and "already exists" in again.stderr  # new never makes a second set
    audit = director.run("audit")
    assert audit.exit_code == 1 and "Bo" in audit.stdout
    fake.drive.no_account.discard(PLAYERS[1])  # Bo made an account
    ok(director.as_director("share"))
    assert "Audit passed" in ok(director.run("audit")).stdout
    grants = fake.drive.grants[director.ids()["player-2"]]
    assert sorted((g.email, g.role) for g in grants) == [(PLAYERS[1], "writer"), (SA, "writer"), (DIRECTOR, "owner")]


def test_a_file_not_shared_with_the_service_account_is_named_as_such(director: Director, fake: FakeGoogle) -> None:
    ok(director.as_director("new", "--google"))
    sid = director.ids()["public"]
    grants = fake.drive.grants[sid]
    grants[:] = [g for g in grants if g.email != SA]
    result = director.run("audit")
    assert result.exit_code == 1
    assert f"is not shared with {SA}" in result.stdout and sid in result.stdout


def _protection(fake: FakeGoogle, sid: str, description: str) -> Any:
    return next(p for p in fake.books[sid].protected if p.description == description)


def test_audit_catches_every_mis_share(director: Director, fake: FakeGoogle) -> None:
    """Twenty distinct ways a game's files can be shared or protected wrongly, all at once: each is named."""
    ok(director.as_director("new", "--google"))
    assert "Audit passed" in ok(director.run("audit")).stdout
    ids = director.ids()
    p1, p2, p3, pub, gm = (ids[k] for k in ("player-1", "player-2", "player-3", "public", "director"))
    spy = "spy@example.org"
    seeded = [  # (what is done, workbook, words the failure must contain)
        (lambda: fake.grant(p1, "", "reader", "anyone"), "player-1", "anyone with the link (role reader)"),
        (lambda: fake.grant(gm, "", "reader", "anyone", discoverable=True), "director", "findable by search"),
        (lambda: fake.grant(p2, "example.com", "reader", "domain"), "player-2", "domain example.com"),
        (lambda: fake.grant(gm, "players@googlegroups.com", "reader", "group"), "director", "group players@"),
        (lambda: fake.grant(gm, PLAYERS[2], "reader"), "director", "Hu can open Director's workbook"),
        (lambda: fake.grant(gm, spy, "commenter"), "director", f"{spy} can open the director workbook (role comm"),
        (lambda: fake.grant(p1, PLAYERS[1], "reader"), "player-1", "Bo can open Seat 1 · Ann"),
        (lambda: fake.grant(p3, spy, "reader"), "player-3", "neither its player Hu"),
        (lambda: fake.grant(pub, PLAYERS[0], "writer"), "public", "Ann has role writer on the public"),
        (lambda: fake.grant(pub, "", "writer", "anyone"), "public", "Anyone with the link can edit"),
        (lambda: fake.grant(pub, "example.com", "writer", "domain"), "public", "example.com (role writer): only"),
        (lambda: fake.grant(p2, PLAYERS[1], "owner"), "player-2", "Bo owns their own workbook"),
        (lambda: fake.books[p1].protected.remove(_protection(fake, p1, "sheetgm:results")), "player-1",
         "tab '结果' is not protected"),
        (lambda: setattr(_protection(fake, p2, "sheetgm:results"), "warning_only", True), "player-2",
         "sheetgm:results (Results) only shows a warning"),
        (lambda: fake.books[p3].protected.remove(_protection(fake, p3, "sheetgm:orders")), "player-3",
         "tab '指令' is not protected"),
        (lambda: setattr(_protection(fake, p1, "sheetgm:orders"), "unprotected",
                         (*_protection(fake, p1, "sheetgm:orders").unprotected, parse_range("'指令'!A:A"))), "player-1",
         "leaves '指令'!A:A open to anyone"),
        (lambda: setattr(_protection(fake, p2, "sheetgm:current"), "editors", (DIRECTOR,)), "player-2",
         f"{SA} is not among the editors of sheetgm:current"),
        (lambda: setattr(_protection(fake, p3, "sheetgm:help"), "editors", (DIRECTOR, SA, PLAYERS[2])),
         "player-3", "Hu is an editor of the protection sheetgm:help"),
        (lambda: fake.books[pub].protected.remove(_protection(fake, pub, "sheetgm:public:log")), "public",
         "tab 'Log' is not protected"),
        (lambda: setattr(_protection(fake, p2, "sheetgm:orders"), "range", parse_range("Orders!A1:G5")), "player-2",
         "sheetgm:orders covers Orders!A1:G5, not Orders"),
    ]
    for do, _key, _words in seeded:
        do()
    result = director.run("audit", "--json")
    assert result.exit_code == 1
    books = {b["key"]: b["failures"] for b in json.loads(result.stdout)["workbooks"]}
    caught = [(key, words) for _do, key, words in seeded if any(words in f for f in books[key])]
    assert caught == [(key, words) for _do, key, words in seeded]
    assert sum(len(f) for f in books.values()) == len(seeded) == 20  # each once, nothing else
    text = director.run("audit")
    assert text.exit_code == 1 and sum(line.startswith("  ✗") for line in text.stdout.splitlines()) == 20


def test_share_has_help() -> None:
    result = CliRunner().invoke(app, ["share", "--help"], env={"SHEETGM_LANG": "en", "COLUMNS": "200"})
    assert result.exit_code == 0 and "--client-secrets" in result.output and "safe to repeat" in result.output
    zh = CliRunner().invoke(app, ["share", "--help"], env={"SHEETGM_LANG": "zh", "COLUMNS": "200"})
    assert zh.exit_code == 0 and "可重复运行" in zh.output
