"""Small diagnoses for `sheetgm doctor`: can a credential get a token, is an API enabled for its project.

Each answers a plain verdict (a code and the detail that goes with it); the service layer words it in
the director's language. Nothing here retries for long: a doctor should answer in seconds.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import google.auth.transport.requests
import requests
from google.auth.credentials import Credentials
from google.auth.exceptions import GoogleAuthError, RefreshError, TransportError
from google.oauth2.credentials import Credentials as UserCredentials
from gspread.exceptions import APIError
from gspread.urls import DRIVE_FILES_API_V3_URL, SPREADSHEETS_API_V4_BASE_URL

from sheetgm.backends.google.auth import SCOPES, saved_login_problem
from sheetgm.backends.google.retry import reasons, status_of
from sheetgm.core.values import Value, record

ACTIVATION = re.compile(r"https://console\.(?:developers|cloud)\.google\.com/[^\s\"']+")
DISABLED_REASONS = {"SERVICE_DISABLED", "accessNotConfigured"}


@record(frozen=True)
class Verdict(Value):
    code: str  # ok | invalid_grant | network | disabled | denied | not_found | other
    detail: str = ""  # the activation link (disabled), Google's words (other), ...
    why: str = ""  # what the words mean, for the director's language: see token() and network_kind()


# Google's token endpoint, refusing a service account's key (invalid_grant): its words -> what they mean
GRANT_CAUSES = (("invalid jwt signature", "key_deleted"), ("account not found", "account_gone"),
                ("short-lived token", "clock"), ("iat", "clock"), ("exp", "clock"))


def token(creds: Credentials) -> Verdict:
    """Whether ``creds`` can get an access token now (one call to Google's token endpoint). Google's words
    as it wrote them (never the exception's tuple), and their meaning where known (``why``)."""
    try:
        creds.refresh(google.auth.transport.requests.Request())  # type: ignore[no-untyped-call]
    except RefreshError as exc:
        text = refusal_words(exc)
        if "invalid_grant" in text:
            low = text.casefold()
            why = next((cause for words, cause in GRANT_CAUSES if re.search(rf"\b{re.escape(words)}\b", low)), "")
            return Verdict("invalid_grant", text, why)
        return Verdict("other", text)
    except (TransportError, requests.exceptions.RequestException) as exc:
        return Verdict("network", type(exc).__name__, network_kind(exc))
    except GoogleAuthError as exc:
        return Verdict("other", refusal_words(exc))
    return Verdict("ok")


def refusal_words(exc: BaseException) -> str:
    """What Google said, from google-auth's error: its answer's ``error`` and ``error_description`` when it
    kept the answer (RefreshError's second argument), else its message; never the Python tuple."""
    args: tuple[Any, ...] = tuple(exc.args)
    answer = args[1] if len(args) > 1 and isinstance(args[1], dict) else None
    if answer is not None and answer.get("error"):
        words = str(answer["error"])
        if answer.get("error_description"):
            words += f": {answer['error_description']}"
        return _short(words)
    if args and isinstance(args[0], str):
        return _short(args[0])
    return _short(str(exc))


def network_kind(exc: BaseException) -> str:
    """A failed connection's kind, for the director's language: tls | proxy | timeout | connection | other."""
    kinds = ((requests.exceptions.SSLError, "tls"), (requests.exceptions.ProxyError, "proxy"),
             (requests.exceptions.Timeout, "timeout"), (requests.exceptions.ConnectionError, "connection"))
    seen: BaseException | None = exc
    for _ in range(4):  # google-auth wraps the requests error in a TransportError
        if seen is None:
            break
        for cls, kind in kinds:
            if isinstance(seen, cls):
                return kind
        seen = seen.__cause__ or seen.__context__ or next(
            (a for a in getattr(seen, "args", ()) if isinstance(a, BaseException)), None)
    return "other"


def saved_login(path: Path) -> UserCredentials | None:
    """The director's cached OAuth login (gspread's authorized-user JSON), None if there is none.
    ValueError if the file is not one (auth.saved_login_problem says why)."""
    if not path.is_file():
        return None
    if saved_login_problem(path):
        raise ValueError(saved_login_problem(path))
    creds: UserCredentials = UserCredentials.from_authorized_user_file(str(path), list(SCOPES))  # type: ignore[no-untyped-call]
    return creds


def api_error(exc: BaseException) -> Verdict:
    """What a failed call says about the API: disabled for the project (with its activation link), access
    denied, not found, a network fault, or something else (Google's words)."""
    if not isinstance(exc, APIError):
        return Verdict("network", type(exc).__name__, network_kind(exc))
    body: dict[str, Any] = exc.error if isinstance(exc.error, dict) else {}
    message = str(body.get("message", ""))
    links = ACTIVATION.findall(message) + [
        str(d.get("metadata", {}).get("activationUrl", "")) for d in body.get("details") or [] if isinstance(d, dict)]
    if reasons(exc) & DISABLED_REASONS or "has not been used in project" in message:
        return Verdict("disabled", next((u.rstrip(".,;") for u in links if u), ""))
    code = status_of(exc)
    if code in (401, 403):
        return Verdict("denied", message[:200])
    if code == 404:
        return Verdict("not_found", message[:200])
    return Verdict("other", f"HTTP {code}: {message[:200]}")


def sheets_probe_url(spreadsheet_id: str) -> str:
    return f"{SPREADSHEETS_API_V4_BASE_URL}/{spreadsheet_id}"


DRIVE_PROBE_URL = DRIVE_FILES_API_V3_URL


def _short(text: str) -> str:
    return " ".join(text.split())[:200]
