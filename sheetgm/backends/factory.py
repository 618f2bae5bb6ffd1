"""Gateways for a game folder, as the CLI builds them.

- `local(folder)`: .xlsx files in the folder (no account needed);
- `google_service(folder)`: the scheduled job's service account (see `auth`);
- `google_user(folder, client_secrets, token_file)`: the director's own
  login, needed to create and share files.

Google gateways remember which spreadsheet holds which key in
``<folder>/workbooks.json``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from sheetgm.backends.auth import account_email, load_credentials, user_credentials
from sheetgm.backends.gsheets import GoogleGateway
from sheetgm.backends.idmap import JsonIdMap
from sheetgm.backends.xlsx import XlsxGateway

ID_FILE = "workbooks.json"


def local(folder: Path | str) -> XlsxGateway:
    return XlsxGateway(Path(folder))


def google_service(
    folder: Path | str, key_file: Path | str | None = None, env: Mapping[str, str] | None = None
) -> GoogleGateway:
    creds = load_credentials(key_file, env)
    return GoogleGateway(creds, JsonIdMap(Path(folder) / ID_FILE), account=account_email(creds))


def google_user(folder: Path | str, client_secrets: Path | str, token_file: Path | str) -> GoogleGateway:
    creds = user_credentials(client_secrets, token_file)
    return GoogleGateway(creds, JsonIdMap(Path(folder) / ID_FILE))
