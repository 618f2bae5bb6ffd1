"""A stateful fake of the Sheets and Drive APIs on ``responses``, for tests.

Spreadsheets live in memory (`model.Book`); the fake answers the metadata GET
(with or without grid data, ``ranges`` and a ``fields`` mask),
``values:batchGet``, ``values:batchUpdate``, ``:batchUpdate``,
``spreadsheets.create``, Drive ``files.create`` and Drive permissions (list,
create, update, delete). Every call is logged; faults can be injected on the
Nth call (429, 500, 503, 403 variants, timeout). It also answers the OAuth
token endpoint, so real service-account credentials work.

    with FakeGoogle() as fake:
        gw = fake.gateway()            # a GoogleGateway on a FakeClock: never sleeps
        gw.create("public", "Game 1", ["Log"])
        assert fake.count("batch_update") == 0

Importable by the tests of other layers.
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from collections.abc import MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlparse

import requests
import responses
from google.auth.credentials import AnonymousCredentials

from sheetgm.backends import fake_sheets as fs
from sheetgm.backends import model, port
from sheetgm.backends.errors import CellTooLongError, OpError
from sheetgm.backends.gsheets import GoogleGateway
from sheetgm.backends.ratelimit import RateLimiter
from sheetgm.backends.retry import RetryPolicy

SHEETS = "https://sheets.googleapis.com/v4/spreadsheets"
DRIVE = "https://www.googleapis.com/drive/v3/files"
TOKEN = "https://oauth2.googleapis.com/token"
_ID = r"([A-Za-z0-9_\-]+)"
_Q = r"(\?.*)?$"

TOO_LONG = (f"Your input contains more than the maximum of {port.GOOGLE_CELL_LIMIT} characters "
            "in a single cell.")  # the API's own words
FAULTS = {
    "rate_limit_403": (403, "User Rate Limit Exceeded", "userRateLimitExceeded"),
    "storage_quota": (403, "The user's Drive storage quota has been exceeded.", "storageQuotaExceeded"),
    "forbidden": (403, "The caller does not have permission", None),
}


class FakeClock:
    """Time for the retry policy and the rate limiter: ``sleep`` moves it forward instantly."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self.slept: list[float] = []

    def time(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


@dataclass(frozen=True)
class Call:
    number: int  # 1-based, over all calls including failed ones
    kind: str  # meta, values_get, values_update, batch_update, create, drive_create, perm_list, ...
    method: str
    url: str
    params: dict[str, list[str]]
    body: Any
    fault: str | int | None = None


class FakeGoogle:
    def __init__(self, account: str = "director@example.com") -> None:
        self.account = account
        self.books: dict[str, model.Book] = {}
        self.perm_ids: dict[str, dict[str, str]] = {}  # spreadsheet id -> email -> permission id
        self.log: list[Call] = []
        self.faults: dict[int, str | int] = {}
        self._ids = itertools.count(1)
        self.mock = responses.RequestsMock(assert_all_requests_are_fired=False)
        routes = [
            ("GET", rf"{SHEETS}/{_ID}/values:batchGet{_Q}", "values_get", self._values_get),
            ("POST", rf"{SHEETS}/{_ID}/values:batchUpdate{_Q}", "values_update", self._values_update),
            ("POST", rf"{SHEETS}/{_ID}:batchUpdate{_Q}", "batch_update", self._batch_update),
            ("GET", rf"{SHEETS}/{_ID}{_Q}", "meta", self._meta),
            ("POST", rf"{SHEETS}{_Q}", "create", self._create),
            ("POST", rf"{DRIVE}{_Q}", "drive_create", self._drive_create),
            ("GET", rf"{DRIVE}/{_ID}/permissions{_Q}", "perm_list", self._perm_list),
            ("POST", rf"{DRIVE}/{_ID}/permissions{_Q}", "perm_create", self._perm_create),
            ("PATCH", rf"{DRIVE}/{_ID}/permissions/{_ID}{_Q}", "perm_update", self._perm_update),
            ("DELETE", rf"{DRIVE}/{_ID}/permissions/{_ID}{_Q}", "perm_delete", self._perm_delete),
            ("POST", rf"{TOKEN}{_Q}", "token", self._token),
        ]
        for method, pattern, kind, handler in routes:
            regex = re.compile(pattern)
            self.mock.add_callback(method, regex, callback=self._wrap(kind, regex, handler))

    def __enter__(self) -> FakeGoogle:
        self.mock.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.mock.stop()
        self.mock.reset()

    # -- test helpers -----------------------------------------------------

    def gateway(
        self, ids: MutableMapping[str, str] | None = None, attempts: int = 5, clock: FakeClock | None = None,
        account: str | None = None,
    ) -> GoogleGateway:
        """A GoogleGateway talking to this fake, with anonymous credentials and a fake clock
        (``gateway.clock``); retry jitter is fixed at 0.5 s so waits are predictable."""
        clock = clock or FakeClock()
        gw = GoogleGateway(
            AnonymousCredentials(), {} if ids is None else ids, account=account,  # type: ignore[no-untyped-call]
            retry=RetryPolicy(attempts=attempts, sleep=clock.sleep, jitter=lambda: 0.5),
            limiter=RateLimiter(clock=clock.time, sleep=clock.sleep),
        )
        gw.clock = clock  # type: ignore[attr-defined]
        return gw

    def add_spreadsheet(self, title: str, tabs: list[str], sid: str | None = None) -> str:
        """Put a spreadsheet in the fake directly (no call logged); return its id."""
        sid = sid or f"sheet{next(self._ids):04d}"
        book = model.Book(title)
        for i, name in enumerate(tabs):
            book.add_sheet(name, i)
        self.books[sid] = book
        self._grant(sid, self.account, "owner")
        return sid

    def fail_on(self, call_number: int, fault: str | int, times: int = 1) -> None:
        """Make calls ``call_number`` .. ``call_number + times - 1`` fail with an HTTP status,
        "timeout", "connection", a named 403 ("forbidden", "rate_limit_403", "storage_quota"),
        or "lost_reply" (the call is applied, then the client times out waiting for the answer)."""
        if isinstance(fault, str) and fault not in {*FAULTS, "timeout", "connection", "lost_reply"}:
            raise ValueError(f"unknown fault {fault!r}")
        for n in range(call_number, call_number + times):
            self.faults[n] = fault

    def calls(self, kind: str | None = None) -> list[Call]:
        return [c for c in self.log if kind is None or c.kind == kind]

    def count(self, kind: str | None = None) -> int:
        return len(self.calls(kind))

    # -- plumbing ---------------------------------------------------------

    def _wrap(self, kind: str, regex: re.Pattern[str], handler: Any) -> Any:
        def callback(request: requests.PreparedRequest) -> tuple[int, dict[str, str], Any]:
            url = str(request.url)
            raw = request.body
            body = raw.decode("utf-8") if isinstance(raw, bytes) else raw if isinstance(raw, str) else None
            number = len(self.log) + 1
            fault = self.faults.pop(number, None)
            params = parse_qs(urlparse(url).query)
            if kind == "token":  # a form, not JSON; it holds a signed assertion: keep it out of the log
                body = None
            self.log.append(Call(number, kind, request.method or "", url, params,
                                 json.loads(body) if body else None, fault))
            if fault is not None and fault != "lost_reply":
                return self._fault(fault)
            match = regex.match(url)
            assert match is not None
            try:
                status, doc = handler(*[g for g in match.groups() if g and not g.startswith("?")],
                                      params=params, body=self.log[-1].body)
            except fs.ApiFault as err:
                return err.status, {"Content-Type": "application/json"}, json.dumps(err.body)
            if fault == "lost_reply":
                return self._fault("timeout")
            return status, {"Content-Type": "application/json"}, "" if doc is None else json.dumps(doc)

        return callback

    def _fault(self, fault: str | int) -> tuple[int, dict[str, str], Any]:
        if fault == "timeout":
            return 0, {}, requests.exceptions.ReadTimeout("fake: read timed out")
        if fault == "connection":
            return 0, {}, requests.exceptions.ConnectionError("fake: connection reset")
        status, message, reason = FAULTS[fault] if isinstance(fault, str) else (fault, f"fake fault {fault}", None)
        err = fs.ApiFault(status, message, reason)
        return status, {"Content-Type": "application/json"}, json.dumps(err.body)

    def _book(self, sid: str) -> model.Book:
        if sid not in self.books:
            raise fs.ApiFault(404, f"Requested entity was not found. ({sid})")
        return self.books[sid]

    def _grant(self, sid: str, email: str, role: str) -> dict[str, str]:
        self.books[sid].permissions[email] = role
        pid = self.perm_ids.setdefault(sid, {}).setdefault(email, f"perm{next(self._ids)}")
        return {"kind": "drive#permission", "id": pid, "type": "user", "emailAddress": email, "role": role}

    # -- Sheets -----------------------------------------------------------

    def _meta(self, sid: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        """``spreadsheets.get``: ``ranges`` (repeated) keep the tabs they touch; a ``fields`` mask
        selects the answer, grid data included if it asks (``includeGridData`` is then ignored)."""
        book = self._book(sid)
        fields = params.get("fields", [""])[0]
        grid = bool(fields) or params.get("includeGridData", ["false"])[0].lower() == "true"
        doc = fs.document(book, sid, grid, params.get("ranges", []))
        return 200, fs.select(doc, fields) if fields else doc

    def _values_get(self, sid: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        book = self._book(sid)
        ranges = [fs.value_range(book, text) for text in params.get("ranges", [])]
        return 200, {"spreadsheetId": sid, "valueRanges": ranges}

    def _values_update(self, sid: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        draft = copy.deepcopy(self._book(sid))
        cells = 0
        for item in body.get("data", []):
            try:
                op = port.SetValues(item["range"], tuple(tuple(str(v) for v in row) for row in item.get("values", [])))
                model.apply(draft, op)
            except CellTooLongError:
                raise fs.bad(TOO_LONG) from None
            except OpError as err:
                raise fs.bad(f"Unable to parse range: {item.get('range')} ({err})") from None
            except Exception as err:
                raise fs.bad(f"Unable to parse range: {item.get('range')}") from err
            cells += sum(len(r) for r in op.rows)
        self.books[sid] = draft
        return 200, {"spreadsheetId": sid, "totalUpdatedCells": cells}

    def _batch_update(self, sid: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        draft = copy.deepcopy(self._book(sid))  # all or nothing, like the API
        replies = []
        for i, req in enumerate(body.get("requests", [])):
            try:
                replies.append(fs.apply(draft, req))
            except fs.ApiFault as err:
                raise fs.bad(f"Invalid requests[{i}]: {err}") from None
            except CellTooLongError:
                raise fs.bad(f"Invalid requests[{i}].updateCells: {TOO_LONG}") from None
            except Exception as err:  # a malformed request body
                raise fs.bad(f"Invalid requests[{i}]: {type(err).__name__}: {err}") from None
        self.books[sid] = draft
        return 200, {"spreadsheetId": sid, "replies": replies}

    def _create(self, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        tabs = [s.get("properties", {}) for s in body.get("sheets", [])] or [{"title": "Sheet1", "sheetId": 0}]
        sid = f"sheet{next(self._ids):04d}"
        book = model.Book(body.get("properties", {}).get("title", "Untitled spreadsheet"))
        for i, props in enumerate(tabs):
            book.add_sheet(props.get("title", f"Sheet{i + 1}"), props.get("sheetId", i))
        self.books[sid] = book
        self._grant(sid, self.account, "owner")
        return 200, fs.document(book, sid, grid=False)

    def _token(self, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        """OAuth token exchange of service-account credentials."""
        return 200, {"access_token": "fake-access-token", "expires_in": 3600, "token_type": "Bearer"}

    # -- Drive ------------------------------------------------------------

    def _drive_create(self, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        sid = self.add_spreadsheet(body.get("name", "Untitled"), ["Sheet1"])
        return 200, {"kind": "drive#file", "id": sid, "name": body.get("name"), "mimeType": body.get("mimeType")}

    def _perm_list(self, sid: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        book = self._book(sid)
        return 200, {"permissions": [self._grant(sid, e, r) for e, r in sorted(book.permissions.items())]}

    def _perm_create(self, sid: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        self._book(sid)
        if body.get("type") != "user" or not body.get("emailAddress") or body.get("role") not in port.ROLES:
            raise fs.bad("The fake shares with users only, as reader, commenter or writer")
        return 200, self._grant(sid, body["emailAddress"], body["role"])

    def _perm_update(self, sid: str, pid: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        email = self._email_of(sid, pid)
        return 200, self._grant(sid, email, body["role"])

    def _perm_delete(self, sid: str, pid: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        email = self._email_of(sid, pid)
        del self.books[sid].permissions[email]
        del self.perm_ids[sid][email]
        return 204, None

    def _email_of(self, sid: str, pid: str) -> str:
        self._book(sid)
        for email, known in self.perm_ids.get(sid, {}).items():
            if known == pid and email in self.books[sid].permissions:
                return email
        raise fs.ApiFault(404, f"Permission not found: {pid}.", "notFound")
