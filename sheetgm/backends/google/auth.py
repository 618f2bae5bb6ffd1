"""Google credentials, never printed or logged.

The scheduled job uses a service account: its key JSON from a file path,
from ``SHEETGM_SERVICE_ACCOUNT_JSON`` (the JSON itself or a path), or
base64-encoded in ``SHEETGM_SERVICE_ACCOUNT_B64`` (the form to store in a
GitHub secret, since structured secrets can escape log redaction); failing
those, ``google.auth.default()`` (e.g. workload identity federation). The
director creates and shares files with their own OAuth login
(`user_credentials`), because service accounts cannot own files.

Errors say which source failed and why, never what it contained: not the key, not a base64
or BOM-prefixed copy of it, not a value that was taken for a path.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import google.auth
import gspread
from google.auth.credentials import Credentials
from google.auth.exceptions import DefaultCredentialsError
from google.oauth2 import service_account

from sheetgm.backends.errors import CredentialsError

ENV_JSON = "SHEETGM_SERVICE_ACCOUNT_JSON"
ENV_B64 = "SHEETGM_SERVICE_ACCOUNT_B64"
SCOPES: tuple[str, ...] = tuple(gspread.auth.DEFAULT_SCOPES)


def _parse(text: str, source: str) -> dict[str, Any]:
    try:
        info = json.loads(text.lstrip("\ufeff"))
    except ValueError:
        raise CredentialsError(source=source, problem="not_json") from None
    if not isinstance(info, dict):
        raise CredentialsError(source=source, problem="not_object")
    if info.get("type") != "service_account":
        raise CredentialsError(source=source, problem="not_key")
    return info


def _read_file(path: Path, source: str, named: bool = True) -> dict[str, Any]:
    """The key in a file; ``named=False`` when the path came from a variable that may hold the key
    itself (base64 or JSON mistaken for a path): then the message never repeats the value."""
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        if named:
            raise CredentialsError(source=source, problem="unreadable", path=str(path), error=_os_reason(exc)) from None
        raise CredentialsError(source=source, problem="neither", error=_os_reason(exc)) from None  # never the value
    return _parse(text, source)


def service_account_info(
    path: Path | str | None = None, env: Mapping[str, str] | None = None
) -> tuple[dict[str, Any], str] | None:
    """The service-account key and the name of its source, or None if no source is set."""
    env = os.environ if env is None else env
    if path is not None:
        return _read_file(Path(path), str(path)), str(path)
    raw = env.get(ENV_JSON, "").strip().lstrip("\ufeff").strip()
    if raw:
        if raw.startswith("{"):
            return _parse(raw, ENV_JSON), ENV_JSON
        return _read_file(Path(raw), ENV_JSON, named=False), ENV_JSON
    encoded = "".join(env.get(ENV_B64, "").split()).lstrip("\ufeff")  # wrapped lines too (base64 without -w0)
    if encoded:
        try:
            text = base64.b64decode(encoded, validate=True).decode("utf-8-sig")
        except (binascii.Error, ValueError):
            raise CredentialsError(source=ENV_B64, problem="not_base64") from None
        return _parse(text, ENV_B64), ENV_B64
    return None


def load_credentials(
    path: Path | str | None = None, env: Mapping[str, str] | None = None, scopes: Sequence[str] = SCOPES
) -> Credentials:
    """Service-account credentials from the first source set, else google.auth.default()."""
    found = service_account_info(path, env)
    if found is not None:
        info, source = found
        try:
            creds: Credentials = service_account.Credentials.from_service_account_info(  # type: ignore[no-untyped-call]
                info, scopes=list(scopes)
            )
            return creds
        except (ValueError, KeyError, TypeError):
            raise CredentialsError(source=source, problem="incomplete") from None
    try:
        found_creds, _project = google.auth.default(scopes=list(scopes))
    except DefaultCredentialsError:
        raise CredentialsError(
            source="google.auth.default()",
            problem="none", b64=ENV_B64, json=ENV_JSON,
        ) from None
    return found_creds


def account_email(creds: Credentials) -> str | None:
    """The email a credential acts as, when it is a service account."""
    email = getattr(creds, "service_account_email", None)
    return email if isinstance(email, str) and "@" in email else None


def saved_login_problem(token_file: Path | str) -> str:
    """Why the saved login ``token_file`` cannot be used as one ("" if it can, or if there is none): a text key
    under ``err.backend.cred`` (``login_not_json``, ``login_incomplete``, ``login_unreadable``)."""
    path = Path(token_file)
    if not path.is_file():
        return ""
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError):
        return "login_unreadable"
    except ValueError:
        return "login_not_json"
    fields = ("refresh_token", "client_id", "client_secret")
    if not isinstance(data, dict) or not all(isinstance(data.get(k), str) and data.get(k) for k in fields):
        return "login_incomplete"
    return ""


def user_credentials(client_secrets: Path | str, token_file: Path | str, scopes: Sequence[str] = SCOPES) -> Credentials:
    """The director's own OAuth login (a Desktop-app client), cached in ``token_file``; opens a browser once.
    A damaged saved login is named as such (not the client file, which is not read while a login is saved)."""
    damaged = saved_login_problem(token_file)
    if damaged:
        raise CredentialsError(source=str(token_file), problem=damaged, path=str(token_file))
    try:
        client = gspread.oauth(
            scopes=list(scopes), credentials_filename=str(client_secrets), authorized_user_filename=str(token_file)
        )
    except (OSError, ValueError) as exc:
        raise CredentialsError(source=str(client_secrets), problem="oauth", error=_os_reason(exc)) from None
    return client.http_client.auth


def _os_reason(exc: BaseException) -> str:
    """The system's words for a file that cannot be read (its errno text), else the error's kind."""
    return getattr(exc, "strerror", None) or type(exc).__name__
