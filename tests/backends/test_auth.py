"""Credentials: every source, precise errors, and never a secret in logs, output or messages."""

from __future__ import annotations

import base64
import json
import logging
from pathlib import Path

import google.auth
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from fakes.google import FakeGoogle
from google.auth.exceptions import DefaultCredentialsError

from sheetgm.backends.errors import CredentialsError
from sheetgm.backends.google import auth
from sheetgm.backends.google.gateway import GoogleGateway
from sheetgm.backends.port import SetValues
from sheetgm.service.config.load import parse_config
from sheetgm.service.game import IDS_FILE, make_gateway

EMAIL = "gm-bot@game-123.iam.gserviceaccount.com"


@pytest.fixture(scope="module")
def key_info() -> dict[str, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    return {
        "type": "service_account",
        "project_id": "game-123",
        "private_key_id": "0123456789abcdef0123456789abcdef01234567",
        "private_key": pem,
        "client_email": EMAIL,
        "client_id": "123456789",
        "token_uri": "https://oauth2.googleapis.com/token",
    }


def secrets_of(info: dict[str, str]) -> list[str]:
    text = json.dumps(info)
    body = info["private_key"].splitlines()[1]
    return [body, info["private_key_id"], base64.b64encode(text.encode()).decode()[40:80]]


def test_from_a_file(tmp_path: Path, key_info: dict[str, str]) -> None:
    path = tmp_path / "sa.json"
    path.write_text(json.dumps(key_info))
    creds = auth.load_credentials(path, env={})
    assert auth.account_email(creds) == EMAIL


def test_from_the_json_env_var_as_text_or_path(tmp_path: Path, key_info: dict[str, str]) -> None:
    assert auth.account_email(auth.load_credentials(env={auth.ENV_JSON: json.dumps(key_info)})) == EMAIL
    path = tmp_path / "sa.json"
    path.write_text(json.dumps(key_info))
    assert auth.account_email(auth.load_credentials(env={auth.ENV_JSON: str(path)})) == EMAIL


def test_from_the_base64_env_var(key_info: dict[str, str]) -> None:
    encoded = base64.b64encode(json.dumps(key_info).encode()).decode()
    assert auth.account_email(auth.load_credentials(env={auth.ENV_B64: encoded})) == EMAIL


def test_the_json_var_wins_over_base64(key_info: dict[str, str]) -> None:
    found = auth.service_account_info(env={auth.ENV_JSON: json.dumps(key_info), auth.ENV_B64: "!!!"})
    assert found is not None and found[1] == auth.ENV_JSON


def test_falls_back_to_google_auth_default(monkeypatch: pytest.MonkeyPatch) -> None:
    sentinel = object()
    monkeypatch.setattr(google.auth, "default", lambda scopes: (sentinel, "proj"))
    assert auth.load_credentials(env={}) is sentinel


def test_no_credentials_anywhere_says_what_to_set(monkeypatch: pytest.MonkeyPatch) -> None:
    def nothing(scopes: list[str]) -> None:
        raise DefaultCredentialsError("none")

    monkeypatch.setattr(google.auth, "default", nothing)
    with pytest.raises(CredentialsError) as err:
        auth.load_credentials(env={})
    assert auth.ENV_B64 in err.value.message("en") and auth.ENV_B64 in err.value.message("zh")


@pytest.mark.parametrize(
    ("env_var", "mangle", "problem"),
    [
        (auth.ENV_B64, lambda t: base64.b64encode(t.encode()).decode()[:-7] + "*", "base64"),
        (auth.ENV_B64, lambda t: base64.b64encode(t[:-1].encode()).decode(), "JSON"),
        (auth.ENV_JSON, lambda t: t[:-1], "JSON"),
        (auth.ENV_JSON, lambda t: t.replace('"service_account"', '"authorized_user"'), "service-account"),
        (auth.ENV_JSON, lambda t: t.replace("PRIVATE KEY-----\\n", "PRIVATE KEY-----\\nxx"), "private key"),
    ],
)
def test_bad_keys_are_named_never_quoted(key_info: dict[str, str], env_var: str, mangle, problem: str) -> None:  # noqa: ANN001
    with pytest.raises(CredentialsError) as err:
        auth.load_credentials(env={env_var: mangle(json.dumps(key_info))})
    text = err.value.message("en") + err.value.message("zh") + repr(err.value) + str(err.value.__cause__)
    assert env_var in text and problem in text
    assert err.value.__cause__ is None and (err.value.__context__ is None or err.value.__suppress_context__)
    for secret in secrets_of(key_info):
        assert secret not in text


def test_a_run_never_logs_or_prints_the_key(
    tmp_path: Path, key_info: dict[str, str], caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    caplog.set_level(logging.DEBUG)
    encoded = base64.b64encode(json.dumps(key_info).encode()).decode()
    with FakeGoogle() as fake:
        sid = fake.add_spreadsheet("p", ["Orders"])
        fake.grant(sid, EMAIL, "writer")
        (tmp_path / IDS_FILE).write_text(json.dumps({"player-1": sid}))
        cfg = parse_config({"name": "g", "seed": 1, "backend": "google", "director_email": "gm@example.com",
                            "service_account": EMAIL, "roster": [
                                {"alias": "A", "camp": "survivor", "email": "a@example.com"},
                                {"alias": "B", "camp": "hunter", "email": "b@example.com"}]})
        gw = make_gateway(cfg, tmp_path, env={auth.ENV_B64: encoded})
        assert isinstance(gw, GoogleGateway)
        gw.http.policy.sleep = lambda s: None
        fake.fail_on(fake.count() + 2, 503)  # a retry logs a warning
        gw.write("player-1", [SetValues("Orders!A1", [["hi"]])])
        assert gw.read("player-1", ["Orders!A1"]) == {"Orders!A1": [["hi"]]}
        assert gw.account == EMAIL and fake.count("token") == 1
        logged = json.dumps([c.body for c in fake.log]) + json.dumps([c.url for c in fake.log])
    out = capsys.readouterr()
    seen = caplog.text + out.out + out.err + repr(gw) + repr(gw.client.http_client.auth) + logged
    assert "retrying" in caplog.text
    for secret in [*secrets_of(key_info), encoded[:60]]:
        assert secret not in seen


def test_user_login_goes_through_gspread_oauth(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls = {}

    class Client:
        class http_client:  # noqa: N801
            auth = "user-creds"

    def oauth(**kw: object) -> Client:
        calls.update(kw)
        return Client()

    monkeypatch.setattr(auth.gspread, "oauth", oauth)
    assert auth.user_credentials(tmp_path / "client.json", tmp_path / "token.json") == "user-creds"
    assert calls["credentials_filename"] == str(tmp_path / "client.json")
    assert calls["authorized_user_filename"] == str(tmp_path / "token.json")


@pytest.mark.parametrize(
    ("env_var", "dress"),
    [
        (auth.ENV_JSON, lambda t: base64.b64encode(t.encode()).decode()),  # base64 in the JSON variable: not a path
        (auth.ENV_JSON, lambda t: "\ufeff" + base64.b64encode(t.encode()).decode()),
        (auth.ENV_JSON, lambda t: "\ufeff" + t[:-1]),  # BOM-prefixed, broken JSON
        (auth.ENV_B64, lambda t: t),  # the JSON itself in the base64 variable
        (auth.ENV_B64, lambda t: "\ufeff" + base64.b64encode(t[:-1].encode()).decode()),
        (auth.ENV_B64, lambda t: base64.b64encode(("\ufeff" + t[:-1]).encode()).decode()),
    ],
)
def test_a_key_in_the_wrong_form_is_never_quoted(key_info: dict[str, str], env_var: str, dress) -> None:  # noqa: ANN001
    value = dress(json.dumps(key_info))
    with pytest.raises(CredentialsError) as err:
        auth.load_credentials(env={env_var: value})
    text = err.value.message("en") + err.value.message("zh") + repr(err.value) + str(err.value.params)
    assert env_var in text
    stripped = value.lstrip("\ufeff")
    for secret in [*secrets_of(key_info), stripped[:40], stripped[-40:], stripped[100:140]]:
        assert secret not in text


@pytest.mark.parametrize("dress", [lambda t: "\ufeff" + t, lambda t: " \ufeff" + t + "\n"])
def test_a_bom_prefixed_key_works(key_info: dict[str, str], dress) -> None:  # noqa: ANN001
    text = dress(json.dumps(key_info))
    assert auth.account_email(auth.load_credentials(env={auth.ENV_JSON: text})) == EMAIL
    encoded = "\ufeff" + base64.b64encode(("\ufeff" + json.dumps(key_info)).encode()).decode()
    assert auth.account_email(auth.load_credentials(env={auth.ENV_B64: encoded})) == EMAIL


def test_a_wrapped_base64_key_works(key_info: dict[str, str]) -> None:
    """GNU base64 without -w0 wraps at 76 columns, Windows' certutil at 64 with CRLF: the lines are one key."""
    flat = base64.b64encode(json.dumps(key_info).encode()).decode()
    for width, eol in ((76, "\n"), (64, "\r\n")):
        wrapped = eol.join(flat[i:i + width] for i in range(0, len(flat), width)) + eol
        assert auth.account_email(auth.load_credentials(env={auth.ENV_B64: wrapped})) == EMAIL
