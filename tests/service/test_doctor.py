"""`sheetgm doctor` through the command line on the Google fake and on local files: each line passed or failed
with its fix, exit 0/1, --json; `--live` on a scratch spreadsheet, its shapes compared, its recording redacted
and replayable; a fake made to answer differently is caught."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from cli_games import service_account_key
from fakes import errors as fake_errors
from fakes.google import FakeGoogle
from fakes.replay import Interaction, Replayer
from typer.testing import CliRunner, Result

from sheetgm.backends.google.auth import ENV_B64
from sheetgm.backends.google.idmap import JsonIdMap
from sheetgm.backends.google.recording import kind_of
from sheetgm.backends.google.shapes import EXPECTED, merge, shape
from sheetgm.backends.port import SetValues
from sheetgm.cli.app import app
from sheetgm.service.game import IDS_FILE, open_game
from sheetgm.service.ledger.journal import lock_range

SA = "gm-bot@game-123.iam.gserviceaccount.com"
OTHER_SA = "other-bot@game-9.iam.gserviceaccount.com"
DIRECTOR = "gm@example.com"
PLAYERS = ["ann@example.com", "bo@example.com", "hu@example.com"]
DRAFT = f"""name = "cup"
seed = 3
lang = "en"
director_email = "{DIRECTOR}"
service_account = "{SA}"
[[roster]]
alias = "Ann"
camp = "survivor"
email = "{PLAYERS[0]}"
[[roster]]
alias = "Bo"
camp = "survivor"
email = "{PLAYERS[1]}"
[[roster]]
alias = "Hu"
camp = "hunter"
email = "{PLAYERS[2]}"
"""


class Director:
    """A director's machine: a game folder, a cached OAuth login, the service-account key in the environment."""

    def __init__(self, root: Path, fake: FakeGoogle) -> None:
        self.fake, self.folder, self.home = fake, root / "cup", root / "home"
        self.folder.mkdir()
        (self.folder / "game.toml").write_text(DRAFT, "utf-8")
        self.login = self.home / ".config" / "sheetgm" / "authorized_user.json"
        self.login.parent.mkdir(parents=True)
        self.login.write_text(json.dumps({"type": "authorized_user", "client_id": "desktop.apps.googleusercontent.com",
                                          "client_secret": "not-a-secret", "refresh_token": "rt-director"}))
        fake.login("rt-director", DIRECTOR)
        self.secrets = root / "client_secret.json"
        self.secrets.write_text("{}")
        self.env = {"HOME": str(self.home), ENV_B64: service_account_key(SA)}

    def run(self, *args: str, env: dict[str, str] | None = None) -> Result:
        return CliRunner().invoke(app, [*args, "--game", str(self.folder)], env={**self.env, **(env or {})})

    def doctor(self, *args: str, env: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
        result = self.run("doctor", "--json", *args, env=env)
        return result.exit_code, json.loads(result.stdout)

    def ids(self) -> dict[str, str]:
        return dict(json.loads((self.folder / IDS_FILE).read_text()))


@pytest.fixture
def director(tmp_path: Path) -> Iterator[Director]:
    with FakeGoogle(account="nobody@example.com") as fake:
        d = Director(tmp_path, fake)
        made = d.run("new", "--google", "--client-secrets", str(d.secrets))
        assert made.exit_code == 0, made.output
        yield d


def lines(rep: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in rep["checks"]}


def test_a_healthy_google_game_passes_every_line(director: Director) -> None:
    code, rep = director.doctor()
    got = lines(rep)
    assert code == 0 and rep["ok"] is True, rep
    assert list(got) == ["config", "credentials", "token", "login", "sheets_api", "drive_api", "workbooks", "sharing",
                         "lock", "quota"]
    assert SA in got["credentials"]["detail"] and ENV_B64 in got["credentials"]["detail"]
    assert "all 5" in got["workbooks"]["detail"] and got["lock"]["detail"] == "Lock: free."
    assert "N1-survivor" not in got["quota"]["detail"] and "4 reads" in got["quota"]["detail"]  # 2 survivors + 2
    text = director.run("doctor")
    assert text.exit_code == 0 and text.stdout.splitlines()[-1] == "Everything checked passed."
    assert all(line.startswith(("✓", "!", "sheetgm doctor", "Everything")) for line in text.stdout.splitlines())


def test_the_wrong_key_or_none_fails_with_what_to_do(director: Director) -> None:
    code, rep = director.doctor(env={ENV_B64: service_account_key(OTHER_SA)})
    wrong = lines(rep)["credentials"]
    assert code == 1 and not wrong["ok"] and OTHER_SA in wrong["detail"] and SA in wrong["fix"]
    code, rep = director.doctor(env={ENV_B64: "not base64!"})
    bad = lines(rep)["credentials"]
    assert code == 1 and not bad["ok"] and "base64 -i key.json" in bad["fix"] and "base64 -w0" in bad["fix"]
    assert "login" in lines(rep)  # the director's login is still looked at


def test_a_workbook_not_shared_with_the_service_account_is_named(director: Director) -> None:
    sid = director.ids()["player-2"]
    director.fake.drive.grants[sid] = [g for g in director.fake.drive.grants[sid] if g.email != SA]
    code, rep = director.doctor()
    got = lines(rep)["workbooks"]
    assert code == 1 and not got["ok"] and "Seat 2 · Bo" in got["detail"] and "sheetgm share" in got["fix"]
    assert "player-1" not in got["detail"]


def test_a_sharing_the_game_must_not_have_fails(director: Director) -> None:
    director.fake.grant(director.ids()["director"], PLAYERS[0], "reader")
    code, rep = director.doctor()
    got = lines(rep)["sharing"]
    assert code == 1 and not got["ok"] and "Ann" in got["detail"] and "sheetgm audit" in got["fix"]


def test_a_held_lock_is_named_with_unlock(director: Director) -> None:
    gw = director.fake.gateway(ids=JsonIdMap(director.folder / IDS_FILE), meta_home="director", acting_as=DIRECTOR)
    game = open_game(director.folder, gw)
    now = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())
    gw.write("director", [SetValues(lock_range(game.lang), (("t0k3n", "someone@laptop", now),))])
    code, rep = director.doctor()
    got = lines(rep)["lock"]
    assert code == 1 and "someone@laptop" in got["detail"] and "sheetgm unlock" in got["fix"]


def test_an_api_not_enabled_is_named_with_its_activation_link(director: Director) -> None:
    link = "https://console.developers.google.com/apis/api/sheets.googleapis.com/overview?project=123456"
    message = (f"Google Sheets API has not been used in project 123456 before or it is disabled. Enable it by "
               f"visiting {link} then retry.")
    details = [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "SERVICE_DISABLED",
                "domain": "googleapis.com", "metadata": {"service": "sheets.googleapis.com", "activationUrl": link}}]

    def disabled(*args: Any, **kwargs: Any) -> Any:
        raise fake_errors.sheets_error(403, message, details)

    director.fake._handlers["meta"] = disabled
    code, rep = director.doctor()
    got = lines(rep)["sheets_api"]
    assert code == 1 and not got["ok"] and link in got["fix"]
    assert "workbooks" not in lines(rep)  # nothing further can be asked


def test_a_lapsed_director_login_says_seven_days(director: Director) -> None:
    answer = director.fake._token_answer

    def lapsed(request: requests.PreparedRequest) -> Any:
        if "refresh_token" in str(request.body):
            return 400, {"Content-Type": "application/json"}, json.dumps(
                {"error": "invalid_grant", "error_description": "Token has been expired or revoked."})
        return answer(request)

    director.fake._token_answer = lapsed  # type: ignore[method-assign]
    code, rep = director.doctor()
    got = lines(rep)["login"]
    assert code == 1 and not got["ok"] and "Publish" in got["fix"] and str(director.login) in got["fix"]


def test_an_old_login_is_a_warning(director: Director) -> None:
    old = time.time() - 6.5 * 86400
    os.utime(director.login, (old, old))
    code, rep = director.doctor()
    got = lines(rep)["login"]
    assert code == 0 and got["ok"] and got["warn"] and "7 days" in got["detail"]


def test_a_local_game_checks_its_files_and_lock(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "game.toml").write_text(DRAFT.replace('lang = "en"', 'lang = "zh"'), "utf-8")
    runner = CliRunner()
    assert runner.invoke(app, ["new", "--game", str(folder)]).exit_code == 0
    result = runner.invoke(app, ["doctor", "--game", str(folder)])
    assert result.exit_code == 0 and "所有检查都通过了" in result.stdout
    next((folder / "workbooks").glob("*Bo*")).unlink()
    result = runner.invoke(app, ["doctor", "--game", str(folder), "--json"])
    got = lines(json.loads(result.stdout))["workbooks"]
    assert result.exit_code == 1 and "Bo" in got["detail"] and got["fix"]


def test_a_broken_config_is_the_first_and_only_line(tmp_path: Path) -> None:
    (tmp_path / "game.toml").write_text('name = "x"\nseed = "not a number"\n', "utf-8")
    result = CliRunner().invoke(app, ["doctor", "--game", str(tmp_path), "--json"], env={"SHEETGM_LANG": "en"})
    rep = json.loads(result.stdout)
    assert result.exit_code == 1 and [c["name"] for c in rep["checks"]] == ["config"]
    assert "game.toml" in rep["checks"][0]["detail"] and rep["checks"][0]["fix"]


# -- --live ---------------------------------------------------------------------------------------------------------

def live(director: Director, tmp_path: Path) -> tuple[int, dict[str, Any], list[dict[str, Any]]]:
    path = tmp_path / "rec.jsonl"
    code, rep = director.doctor("--live", "--record", str(path))
    return code, rep, [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def kinds(recording: list[dict[str, Any]]) -> set[str]:
    return {kind_of(e["method"], e["uri"]) for e in recording}


def test_live_makes_every_call_compares_and_cleans_up(director: Director, tmp_path: Path) -> None:
    books = set(director.fake.books)
    code, rep, recording = live(director, tmp_path)
    got = lines(rep)
    assert code == 0, rep
    assert [n for n in got if n.startswith("live.")] == [f"live.{k}" for k in [
        "sheets.spreadsheets.create", "drive.permissions.list", "drive.permissions.create",
        "sheets.spreadsheets.get (metadata)", "sheets.spreadsheets.batchUpdate", "sheets.spreadsheets.get (field mask)",
        "sheets.spreadsheets.values.batchGet", "drive.files.list", "sheets.spreadsheets.get (grid data)",
        "delete", "recording"]]
    assert set(director.fake.books) == books  # the scratch file is gone
    assert kinds(recording) == set(EXPECTED)  # every kind of call the table knows, and no other
    write = next(e for e in recording if kind_of(e["method"], e["uri"]) == "sheets.spreadsheets.batchUpdate")
    requested = {next(iter(r)) for r in write["body"]["requests"]}
    assert {"addSheet", "addProtectedRange", "setDataValidation", "repeatCell", "updateBorders", "updateCells",
            "updateSheetProperties", "updateDimensionProperties"} <= requested


def test_the_recording_holds_no_address_token_or_id(director: Director, tmp_path: Path) -> None:
    _code, _rep, recording = live(director, tmp_path)
    text = json.dumps(recording, ensure_ascii=False)
    emails = set(re.findall(r"[\w.+-]+@[\w.-]+\.\w+", text))
    assert emails <= {"director@example.com", "service-account@example.iam.gserviceaccount.com"}, emails
    assert SA not in text and DIRECTOR not in text and "ya29" not in text and "Bearer" not in text
    assert "1Fake" not in text and "redacted-spreadsheet-0001" in text  # the fake's ids are normalised
    assert not re.search(r'"id": "\d{10,}"', text)  # permission ids (a person's) are normalised
    listing = next(e for e in recording if kind_of(e["method"], e["uri"]) == "drive.files.list")
    assert [f["id"] for f in listing["answer"]["files"]] == ["redacted-spreadsheet-0001"]  # not the game's files
    assert all(set(e) == {"method", "uri", "body", "status", "content_type", "answer"} for e in recording)


def fake_shapes(recording: list[dict[str, Any]]) -> dict[str, Any]:
    found: dict[str, list[Any]] = {}
    for e in recording:
        found.setdefault(kind_of(e["method"], e["uri"]), []).append(shape(e["answer"]))
    return {name: merge(s) for name, s in sorted(found.items())}


def test_the_shipped_shapes_are_the_fakes_answers(director: Director, tmp_path: Path) -> None:
    _code, _rep, recording = live(director, tmp_path)
    table = fake_shapes(recording)
    assert table == EXPECTED, ("the fake's answers and sheetgm/backends/google/shapes.py part: set EXPECTED to\n"
                               + json.dumps(table, indent=1, sort_keys=True))


def test_a_fake_made_to_answer_differently_is_caught(director: Director, tmp_path: Path) -> None:
    """A variant fake: protection ids left out of batchUpdate's replies, versions out of the Drive listing."""
    batch, listing = director.fake._batch_update, director.fake._file_list

    def no_protection_ids(*args: Any, **kwargs: Any) -> Any:
        status, doc = batch(*args, **kwargs)
        for reply in doc.get("replies", []):
            reply.get("addProtectedRange", {}).get("protectedRange", {}).pop("protectedRangeId", None)
        return status, doc

    def no_versions(*args: Any, **kwargs: Any) -> Any:
        status, doc = listing(*args, **kwargs)
        for f in doc.get("files", []):
            f.pop("version", None)
        return status, doc

    director.fake._handlers["batch_update"] = no_protection_ids
    director.fake._handlers["file_list"] = no_versions
    code, rep, _recording = live(director, tmp_path)
    got = lines(rep)
    assert code == 1
    batch, listed = got["live.sheets.spreadsheets.batchUpdate"], got["live.drive.files.list"]
    assert not got["live.write"]["ok"] and "KeyError" in got["live.write"]["detail"]  # the adapter could not take it
    assert not batch["ok"] and "replies[].addProtectedRange.protectedRange.protectedRangeId: missing" in batch["detail"]
    assert not listed["ok"] and "files[].version: missing" in listed["detail"]
    assert got["live.sheets.spreadsheets.get (field mask)"]["ok"] and got["live.delete"]["ok"]


def test_a_recording_replays_on_the_fakes_replayer(director: Director, tmp_path: Path) -> None:
    """tests/fakes/replay.py takes the recording as it takes gspread's: on a new fake every answer is identical but
    for the one thing that depends on who calls. The replayer acts as one account where the recording has two (the
    director's login creates and shares, the service account makes the game's calls), and a protection's editors
    include the caller."""
    _code, _rep, recording = live(director, tmp_path)
    outcomes = Replayer("doctor", [Interaction(**e) for e in recording], account="director@example.com").run()
    assert len(outcomes) == len(recording) and all(o.answered for o in outcomes)
    differ = [o.why for o in outcomes if not o.identical]
    assert all("editors.users" in why and "service-account@example.iam" in why for why in differ), differ
