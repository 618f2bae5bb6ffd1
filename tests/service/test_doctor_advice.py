"""Issue 29.4: `doctor`'s advice is right for each failure it names, in zh and in en, through the CLI.

A damaged login file (the advice was a login that then failed and blamed client_secret.json), a Google game
with no workbooks yet (three ✗ lines for one cause, a ✓ over 0 workbooks, `new` "in a new folder"), a
deleted key (a raw Python tuple), a token service out of reach (a Python class name), and no English
inside the Chinese lines but names, commands and Google's own words quoted as Google's.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from fakes.google import FakeGoogle
from test_doctor import DRAFT, Director

from sheetgm.backends.google.auth import saved_login_problem, user_credentials
from sheetgm.core.cachedir import CACHE_ENV

LANGS = ("zh", "en")
# What may stay in ASCII inside a Chinese line: product and API names, file names, commands and their words
NAMES = {"sheetgm", "doctor", "share", "new", "google", "client", "secrets", "client_secret", "json", "JSON",
         "Google", "Drive", "Sheets", "API", "IAM", "OAuth", "Cloud", "SHEETGM_SERVICE_ACCOUNT_B64", "service_account",
         "spreadsheets", "game", "toml", "Auth", "Platform", "live", "xlsx", "cup", "UTF", "base64", "macOS", "Linux",
         "SHEETGM_SERVICE_ACCOUNT_JSON"}


def foreign_words(text: str, *paths: Path) -> set[str]:
    """The ASCII words of a Chinese line that are not names, commands, paths, addresses or quoted words."""
    for path in sorted(paths, key=lambda p: -len(str(p))):
        text = text.replace(str(path), " ")
    text = re.sub(r"“[^”]*”|`[^`]*`|\S+@\S+|--[\w-]+|https?://\S+|(?<![\w.])/[^\s（）()，。；：“”]+", " ", text)
    return {w for w in re.findall(r"[A-Za-z][A-Za-z_0-9]+", text) if w not in NAMES}


@pytest.fixture
def made(tmp_path: Path) -> Iterator[Director]:
    with FakeGoogle(account="nobody@example.com") as fake:
        d = Director(tmp_path, fake)
        assert d.run("new", "--google", "--client-secrets", str(d.secrets)).exit_code == 0
        yield d


def doctor(d: Director, lang: str) -> tuple[int, list[dict[str, Any]], str]:
    """Exit code, the lines (JSON) and the text, in ``lang``."""
    env = {"SHEETGM_LANG": lang}
    as_json = d.run("doctor", "--json", env=env)
    text = d.run("doctor", env=env)
    assert as_json.exit_code == text.exit_code
    return as_json.exit_code, json.loads(as_json.stdout)["checks"], text.stdout


def failed(checks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [c for c in checks if not c["ok"]]


def no_foreign_words(d: Director, lang: str, text: str) -> None:
    if lang == "zh":
        for line in text.splitlines():
            assert not foreign_words(line, d.folder, d.home, d.login, Path(os.environ[CACHE_ENV])), line


# -- a damaged login file

@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("damage", ["{not json", '{"type": "authorized_user"}', "\x00\xff"])
def test_a_damaged_login_file_is_named_with_delete_it_then_log_in(made: Director, lang: str, damage: str) -> None:
    made.login.write_text(damage, "utf-8")
    code, checks, text = doctor(made, lang)
    bad = failed(checks)
    assert code == 1 and [c["name"] for c in bad] == ["login"]
    assert str(made.login) in bad[0]["detail"] and ("已损坏" if lang == "zh" else "damaged") in bad[0]["detail"]
    assert str(made.login) in bad[0]["fix"] and ("删除" if lang == "zh" else "Delete") in bad[0]["fix"]
    assert "Error" not in bad[0]["detail"]  # never a Python class name
    no_foreign_words(made, lang, text)


@pytest.mark.parametrize("lang", LANGS)
def test_the_login_the_advice_names_blames_the_login_file_not_the_client_file(made: Director, lang: str) -> None:
    """Before, `share` with a damaged login failed "Google credentials from client_secret.json are unusable"."""
    made.login.write_text("{not json", "utf-8")
    got = made.run("share", "--client-secrets", str(made.secrets), env={"SHEETGM_LANG": lang})
    assert got.exit_code == 1
    assert str(made.login) in got.output and ("删除" if lang == "zh" else "delete it") in got.output
    assert f"from {made.secrets}" not in got.output and f"来自 {made.secrets}" not in got.output
    assert saved_login_problem(made.login) == "login_not_json"
    made.login.unlink()  # as the advice says: then a login can start (it would open a browser)
    assert saved_login_problem(made.login) == ""


def test_a_damaged_login_never_reaches_gspread(tmp_path: Path) -> None:
    login = tmp_path / "authorized_user.json"
    login.write_text('{"refresh_token": ""}', "utf-8")
    with pytest.raises(Exception) as caught:
        user_credentials(tmp_path / "client_secret.json", login)
    assert "login_incomplete" == caught.value.params["problem"]  # type: ignore[attr-defined]


# -- a Google game with no workbooks yet

@pytest.mark.parametrize("lang", LANGS)
def test_a_google_game_with_no_workbooks_yet_is_one_line_with_new_in_this_folder(tmp_path: Path, lang: str) -> None:
    with FakeGoogle(account="nobody@example.com") as fake:
        d = Director(tmp_path, fake)
        (d.folder / "game.toml").write_text(DRAFT.replace("seed = 3", 'seed = 3\nbackend = "google"'), "utf-8")
        code, checks, text = doctor(d, lang)
    bad = failed(checks)
    assert code == 1 and [c["name"] for c in bad] == ["workbooks"], bad
    assert f"sheetgm new --google --game {d.folder}" in bad[0]["fix"]
    assert "new folder" not in bad[0]["fix"] and "新文件夹" not in bad[0]["fix"]
    names = [c["name"] for c in checks]
    assert "sharing" not in names and "lock" not in names and "quota" not in names, "no line over 0 workbooks"
    no_foreign_words(d, lang, text)


@pytest.mark.parametrize("lang", LANGS)
def test_a_local_game_with_no_workbooks_yet_is_one_line_with_new(tmp_path: Path, lang: str) -> None:
    from typer.testing import CliRunner

    from sheetgm.cli.app import app

    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "game.toml").write_text(DRAFT, "utf-8")
    got = CliRunner().invoke(app, ["doctor", "--json", "--game", str(folder)], env={"SHEETGM_LANG": lang})
    checks = json.loads(got.stdout)["checks"]
    bad = failed(checks)
    assert got.exit_code == 1 and [c["name"] for c in bad] == ["workbooks"], bad
    assert f"sheetgm new --game {folder}" in bad[0]["fix"] and "lock" not in [c["name"] for c in checks]


# -- the service account's key

def refuse_keys(d: Director, description: str) -> None:
    answer = d.fake._token_answer

    def refused(request: requests.PreparedRequest) -> Any:
        if "assertion" in str(request.body):
            return 400, {"Content-Type": "application/json"}, json.dumps(
                {"error": "invalid_grant", "error_description": description})
        return answer(request)

    d.fake._token_answer = refused  # type: ignore[method-assign]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("description", "meaning", "fix"), [
    ("Invalid JWT Signature.", {"zh": "密钥已被删除或停用", "en": "the key was deleted or disabled"},
     {"zh": "添加密钥", "en": "Add key"}),
    ("Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and "
     "exp values in the JWT claim.", {"zh": "时钟不准", "en": "clock is off"}, {"zh": "时钟校准", "en": "clock right"}),
    ("Invalid grant: account not found", {"zh": "服务账号不存在", "en": "does not exist"},
     {"zh": "新建一个", "en": "make one"}),
])
def test_a_refused_key_says_what_google_means_never_a_python_tuple(made: Director, lang: str, description: str,
                                                                   meaning: dict[str, str],
                                                                   fix: dict[str, str]) -> None:
    refuse_keys(made, description)
    code, checks, text = doctor(made, lang)
    bad = failed(checks)
    assert code == 1 and [c["name"] for c in bad] == ["token"]
    assert meaning[lang] in bad[0]["detail"] and fix[lang] in bad[0]["fix"]
    assert "('" not in bad[0]["detail"] and "{'" not in bad[0]["detail"], bad[0]["detail"]
    assert description.rstrip(".") in bad[0]["detail"]  # Google's words, quoted as Google's
    no_foreign_words(made, lang, text)


@pytest.mark.parametrize("lang", LANGS)
def test_a_token_service_out_of_reach_is_told_in_words(made: Director, lang: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import google.auth.transport.requests as transport

    def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise requests.exceptions.ConnectionError("Max retries exceeded with url: /token")

    monkeypatch.setattr(transport.requests.Session, "request", unreachable)
    code, checks, text = doctor(made, lang)
    token = next(c for c in checks if c["name"] == "token")
    assert code == 1 and not token["ok"]
    assert ("连接不上" if lang == "zh" else "no connection") in token["detail"]
    assert "Error" not in token["detail"]
    no_foreign_words(made, lang, text)


@pytest.mark.parametrize("lang", LANGS)
def test_a_key_that_is_not_base64_is_told_in_the_directors_language(made: Director, lang: str) -> None:
    from sheetgm.backends.google.auth import ENV_B64

    got = made.run("doctor", env={"SHEETGM_LANG": lang, ENV_B64: "not base64!"})
    code, text = got.exit_code, got.stdout
    assert code == 1 and ("不是 UTF-8 文本的有效 base64" if lang == "zh" else "not valid base64") in text
    no_foreign_words(made, lang, text)


def test_a_healthy_game_s_chinese_lines_hold_no_english(made: Director) -> None:
    code, _checks, text = doctor(made, "zh")
    assert code == 0
    no_foreign_words(made, "zh", text)


def test_the_foreign_word_finder_finds_english() -> None:
    assert foreign_words("✗ 导演登录：x 不是保存的登录（JSONDecodeError）。") == {"JSONDecodeError"}
    assert foreign_words("Google 拒绝了这个密钥：('invalid_grant: Invalid JWT Signature.', {})") >= {"Invalid", "JWT"}
    assert foreign_words("→ 运行 sheetgm share --client-secrets client_secret.json。") == set()
    assert foreign_words("密钥已被删除（Google 的原话：“invalid_grant: Invalid JWT Signature.”）") == set()
