"""A stateful fake of the Sheets and Drive APIs on ``responses``, for tests and benchmarks.

Every request is matched to a method of Google's own discovery documents and checked against
them (`discovery`): a request Google would reject is answered 400 in Google's words, and an
answer of the fake that Google would never give raises `ConformanceError`. Spreadsheets live in
memory (`book.Spreadsheet`, a `model.Book` with what Google keeps beside the cells); the fake
answers ``spreadsheets.get`` (grid data, ``ranges``, a ``fields`` mask), ``:batchUpdate``
(`sheets`, `tabs`), the values API (`values`: get, batchGet, update, batchUpdate, append, clear,
batchClear), ``spreadsheets.create``, Drive ``files.create``/``files.delete`` and the Drive
permissions (`drive`). Its answers are held to Google's recorded ones by `replay`
(docs/google-fidelity.md says what no recording covers yet).

Callers have identities: the OAuth token endpoint is answered (a service account's signed
assertion names it, a refresh token names the director's login) and each access token maps back
to its account; a request with no token (anonymous credentials) acts as ``FakeGoogle.account``.
What a caller may do follows the file's Drive grants, as on Google: no grant, Sheets answers 403
and Drive 404; a service account may not create files (403, no reason) unless listed in
``with_storage`` (one made before 2025, like the account that recorded `replay`'s traffic).
Protected ranges are in force (`protected`): a caller who is neither the owner nor an editor of a
protection cannot change its cells outside the unprotected ranges (400).

Every call is logged; faults can be injected on the Nth call (an HTTP status in the API's own
error shape, a named 403, an HTML 502 from the front end, a timeout, a lost reply).

    with FakeGoogle() as fake:
        gw = fake.gateway()            # a GoogleGateway on a FakeClock: never sleeps
        gw.create("public", "Game 1", ["Log"])
        assert fake.count("batch_update") == 0
"""

from __future__ import annotations

import base64
import copy
import itertools
import json
import re
import threading
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlparse

import requests
import responses
from google.auth.credentials import AnonymousCredentials, Credentials

from fakes import errors as fake_errors
from fakes import masks as fake_masks
from fakes import protected
from fakes import sheets as fake_sheets
from fakes import tabs as fake_tabs
from fakes import values as fake_values
from fakes.book import Spreadsheet, as_spreadsheet
from fakes.discovery import Discovery, Method
from fakes.drive import Drive
from fakes.quota import Quota
from sheetgm.backends import port
from sheetgm.backends.errors import CellTooLongError
from sheetgm.backends.google.gateway import GoogleGateway
from sheetgm.backends.google.ratelimit import RateLimiter
from sheetgm.backends.google.retry import RetryPolicy

SHEETS = "https://sheets.googleapis.com/v4/spreadsheets"
DRIVE = "https://www.googleapis.com/drive/v3/files"
TOKEN = "https://oauth2.googleapis.com/token"
KINDS = {  # discovery method id -> the short name the log uses
    "sheets.spreadsheets.get": "meta", "sheets.spreadsheets.values.batchGet": "values_get",
    "sheets.spreadsheets.values.batchUpdate": "values_update", "sheets.spreadsheets.batchUpdate": "batch_update",
    "sheets.spreadsheets.create": "create", "drive.files.create": "drive_create", "drive.files.delete": "drive_delete",
    "sheets.spreadsheets.values.get": "get_range", "sheets.spreadsheets.values.update": "put_range",
    "sheets.spreadsheets.values.append": "append", "sheets.spreadsheets.values.clear": "clear_range",
    "sheets.spreadsheets.values.batchClear": "clear_ranges",
    "drive.permissions.list": "perm_list", "drive.permissions.create": "perm_create",
    "drive.permissions.update": "perm_update", "drive.permissions.delete": "perm_delete",
    "drive.files.list": "file_list",
}
SERVICE_ACCOUNT = re.compile(r"@[a-z0-9-]+\.iam\.gserviceaccount\.com$")
FAULTS = {*fake_errors.NAMED, "timeout", "connection", "lost_reply"}
TOO_LONG = (f"Your input contains more than the maximum of {port.GOOGLE_CELL_LIMIT} characters "
            "in a single cell.")  # the API's own words
Answer = tuple[int, dict[str, str], Any]


def _text(body: object) -> str:
    return body.decode("utf-8") if isinstance(body, bytes) else body if isinstance(body, str) else ""


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


class ActingAs(Credentials):
    """Credentials that present a fixed identity to the fake (for tests that need one without keys)."""

    def __init__(self, email: str) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.token = f"as:{email}"
        self.service_account_email = email

    def refresh(self, request: Any) -> None:
        return None


@dataclass(frozen=True)
class Call:
    number: int  # 1-based, over all calls including failed ones
    kind: str  # meta, values_get, values_update, batch_update, create, drive_create, perm_list, ..., token
    method: str
    url: str
    params: dict[str, list[str]]
    body: Any
    fault: str | int | None = None
    who: str = ""  # the account the call acted as


class FakeGoogle:
    def __init__(self, account: str = "director@example.com", locale: str = "en_US",
                 time_zone: str = "Etc/GMT") -> None:
        self.account = account
        self.books: dict[str, Spreadsheet] = {}
        self.drive = Drive()
        self.log: list[Call] = []
        self.faults: dict[int, str | int] = {}
        self.logins: dict[str, str] = {}  # refresh token -> the account it logs in as
        self.with_storage: set[str] = set()  # service accounts that still have Drive storage (made before 2025)
        self.locale, self.time_zone = locale, time_zone  # of the accounts' new files
        self.tokens: dict[str, str] = {}  # access token -> account
        self.discovery = Discovery()
        self.quota: Quota | None = None  # Google's per-minute Sheets quotas, when enforce_quota is called
        self.versions: dict[str, int] = {}  # Drive's version of each spreadsheet: one more at each change
        self.listed_as_of: dict[str, int] | None = None  # lag_listing(): the versions the listing still shows
        self.modified_by: dict[str, str] = {}  # who changed each spreadsheet last
        self.modified_by_as_of: dict[str, str] = {}  # lag_listing(): who the listing still says
        self.touched: dict[str, int] = {}  # when each spreadsheet last changed (a counter)
        self._lock = threading.RLock()  # two threads (a check and a resolve) may call at once
        self._ids = itertools.count(1)
        self.mock = responses.RequestsMock(assert_all_requests_are_fired=False)
        for verb in ("GET", "POST", "PATCH", "PUT", "DELETE"):
            for host in (r"https://sheets\.googleapis\.com/", r"https://www\.googleapis\.com/"):
                self.mock.add_callback(verb, re.compile(host + ".*"), callback=self._callback)
        self.mock.add_callback("POST", re.compile(re.escape(TOKEN) + r"(\?.*)?$"), callback=self._token)
        self._handlers: dict[str, Callable[..., tuple[int, Any]]] = {
            "meta": self._meta, "values_get": self._values_get, "values_update": self._values_update,
            "batch_update": self._batch_update, "create": self._create, "drive_create": self._drive_create,
            "perm_list": self._perm_list, "perm_create": self._perm_create, "perm_update": self._perm_update,
            "perm_delete": self._perm_delete, "drive_delete": self._drive_delete, "get_range": self._get_range,
            "put_range": self._put_range, "append": self._append, "clear_range": self._clear_range,
            "clear_ranges": self._clear_ranges, "file_list": self._file_list,
        }

    def __enter__(self) -> FakeGoogle:
        self.mock.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.mock.stop()
        self.mock.reset()

    # -- test helpers -----------------------------------------------------

    def gateway(
        self, ids: MutableMapping[str, str] | None = None, attempts: int = 5, clock: FakeClock | None = None,
        account: str | None = None, acting_as: str | None = None, meta_home: str | None = None,
    ) -> GoogleGateway:
        """A GoogleGateway talking to this fake and a fake clock (``gateway.clock``); retry jitter is
        fixed at 0.5 s so waits are predictable. It calls anonymously (as ``self.account``), or as
        ``acting_as``; ``meta_home`` is the key of the workbook that keeps the others' metadata."""
        clock = clock or FakeClock()
        creds = ActingAs(acting_as) if acting_as else AnonymousCredentials()  # type: ignore[no-untyped-call]
        gw = GoogleGateway(
            creds, {} if ids is None else ids, account=account or acting_as,
            retry=RetryPolicy(attempts=attempts, sleep=clock.sleep, jitter=lambda: 0.5),
            limiter=RateLimiter(clock=clock.time, sleep=clock.sleep), meta_home=meta_home,
        )
        gw.clock = clock  # type: ignore[attr-defined]
        return gw

    def add_spreadsheet(self, title: str, tabs: list[str], sid: str | None = None, owner: str | None = None) -> str:
        """Put a spreadsheet in the fake directly (no call logged), owned by ``owner``; return its id."""
        sid = sid or self._new_id()
        book = Spreadsheet(title)
        for i, name in enumerate(tabs):
            book.add_sheet(name, i)
        self.books[sid] = book
        self.drive.grant(sid, "user", "owner", owner or self.account)
        self.touched[sid] = next(self._ids)
        return sid

    def grant(self, sid: str, who: str, role: str, type: str = "user", discoverable: bool = False) -> None:
        """Share a file directly (no call logged): any type and role Drive has."""
        self.drive.grant(sid, type, role, who, discoverable)

    def login(self, refresh_token: str, account: str) -> None:
        """An OAuth login (the director's): the refresh token stands for ``account``."""
        self.logins[refresh_token] = account

    def fail_on(self, call_number: int, fault: str | int, times: int = 1) -> None:
        """Make calls ``call_number`` .. ``call_number + times - 1`` fail with an HTTP status (in the
        API's own error shape), "timeout", "connection", a named one ("forbidden", "rate_limit_403",
        "sharing_rate_limit", "storage_quota", "html_502": a page from Google's front end), or
        "lost_reply" (the call is applied, then the client times out waiting for the answer)."""
        if isinstance(fault, str) and fault not in FAULTS:
            raise ValueError(f"unknown fault {fault!r}")
        for n in range(call_number, call_number + times):
            self.faults[n] = fault

    def enforce_quota(self, reads: int = 60, writes: int = 60, window: float = 60.0,
                      clock: Callable[[], float] | None = None) -> Quota:
        """From now on answer Sheets requests past ``reads``/``writes`` per ``window`` seconds per user with
        Google's 429 (a refused request is not counted); ``clock`` defaults to the gateways' FakeClock time."""
        self.quota = Quota(reads, writes, window, clock or (lambda: 0.0))
        return self.quota

    def refused(self) -> int:
        """Requests answered 429 for the quota."""
        return sum(1 for c in self.log if c.fault == "quota")

    def answers(self, method_id: str) -> bool:
        """Whether the fake answers a discovery method (``sheets.spreadsheets.get``, ...)."""
        return KINDS.get(method_id, method_id) in self._handlers

    def calls(self, kind: str | None = None) -> list[Call]:
        return [c for c in self.log if kind is None or c.kind == kind]

    def count(self, kind: str | None = None) -> int:
        return len(self.calls(kind))

    # -- plumbing ---------------------------------------------------------

    def _new_id(self) -> str:
        return f"1Fake{next(self._ids):04d}xSheetgm"

    def _callback(self, request: requests.PreparedRequest) -> Answer:
        with self._lock:
            return self._answer_request(request)

    def _answer_request(self, request: requests.PreparedRequest) -> Answer:
        url, verb = str(request.url), (request.method or "").upper()
        raw = _text(request.body)
        number = len(self.log) + 1
        fault = self.faults.pop(number, None)
        params = parse_qs(urlparse(url).query, keep_blank_values=True)
        found = self.discovery.match(verb, url)
        kind = KINDS.get(found[0].id, found[0].id) if found else "unknown"
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw
        who = self._who(str(request.headers.get("Authorization", "")))
        if (fault is None and found is not None and found[0].api == "sheets" and who is not None
                and self.quota is not None and not self.quota.admit(who, "read" if verb == "GET" else "write")):
            fault = "quota"
        self.log.append(Call(number, kind, verb, url, params, body, fault, who or ""))
        if found is None:
            drive = "www.googleapis.com" in url
            return self._answer(None, fake_errors.drive_error(404, "notFound", "Not Found") if drive
                                else fake_errors.sheets_error(404, "Method not found."))
        method, path = found
        handler = self._handlers.get(kind)
        if handler is None:
            raise NotImplementedError(f"the fake does not answer {method.id}")
        try:
            if who is None:
                raise fake_errors.sheets_error(401) if method.api == "sheets" else \
                    fake_errors.drive_error(401, location="Authorization",
                                                                                         location_type="header")
            if isinstance(body, str):
                raise fake_errors.bad("Invalid JSON payload received. Unexpected token.", "")
            self.discovery.check_request(method, path, params, body)
            if fault == "quota":
                raise fake_errors.sheets_quota("read" if verb == "GET" else "write")
            if fault is not None and fault not in ("lost_reply", "timeout", "connection"):
                raise fake_errors.fault(fault, drive=method.api == "drive")
            if fault in ("timeout", "connection"):
                return self._network(str(fault))
            status, doc = handler(*path.values(), who=who, params=params, body=body)
        except fake_errors.ApiFault as err:
            return self._answer(method, err)
        changed = path.get("spreadsheetId") or path.get("fileId")
        if verb != "GET" and changed in self.books:
            self._changed(changed, who)
        self.discovery.check_response(method, status, doc)
        if fault == "lost_reply":
            return self._network("timeout")
        return status, {"Content-Type": "application/json; charset=UTF-8"}, "" if doc is None else json.dumps(doc)

    def _answer(self, method: Method | None, err: fake_errors.ApiFault) -> Answer:
        if method is not None:
            self.discovery.check_response(method, err.status, err.body)
        text = err.body if isinstance(err.body, str) else json.dumps(err.body)
        return err.status, {"Content-Type": err.content_type}, text

    @staticmethod
    def _network(fault: str) -> Answer:
        if fault == "timeout":
            return 0, {}, requests.exceptions.ReadTimeout("fake: read timed out")
        return 0, {}, requests.exceptions.ConnectionError("fake: connection reset")

    def _who(self, header: str) -> str | None:
        """The account a call acts as: its token's, ``self.account`` with no token, None for a bad token."""
        if not header:
            return self.account
        token = header.removeprefix("Bearer ").strip()
        if token.startswith("as:"):
            return token[3:]
        return self.tokens.get(token)

    def _token(self, request: requests.PreparedRequest) -> Answer:
        with self._lock:
            return self._token_answer(request)

    def _token_answer(self, request: requests.PreparedRequest) -> Answer:
        """The OAuth token endpoint: a service account's signed assertion, or a refresh token."""
        raw = _text(request.body)
        form = {k: v[0] for k, v in parse_qs(raw).items()}
        number = len(self.log) + 1
        fault = self.faults.pop(number, None)
        self.log.append(Call(number, "token", "POST", TOKEN, {}, None, fault))  # never log the assertion
        if fault is not None:
            return 400, {"Content-Type": "application/json"}, json.dumps({"error": "temporarily_unavailable"})
        who: str | None
        if "assertion" in form:
            try:
                payload = form["assertion"].split(".")[1]
                who = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["iss"]
            except (IndexError, ValueError, KeyError):
                who = None
        else:
            who = self.logins.get(form.get("refresh_token", ""), self.account if "refresh_token" in form else None)
        if who is None:
            body = {"error": "invalid_grant", "error_description": "Invalid grant: account not found"}
            return 400, {"Content-Type": "application/json"}, json.dumps(body)
        token = f"ya29.fake-{next(self._ids)}"
        self.tokens[token] = who
        return 200, {"Content-Type": "application/json"}, json.dumps(
            {"access_token": token, "expires_in": 3599, "token_type": "Bearer"})

    # -- Sheets -----------------------------------------------------------

    def _book(self, sid: str, who: str, write: bool = False) -> Spreadsheet:
        if sid not in self.books:
            raise fake_errors.sheets_error(404)
        if not self.drive.may(sid, who, "writer" if write else "reader"):
            raise fake_errors.sheets_error(403)
        self.books[sid] = as_spreadsheet(self.books[sid])
        return self.books[sid]

    def _meta(self, sid: str, who: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        """``spreadsheets.get``: ``ranges`` (repeated) keep the tabs they touch; a ``fields`` mask
        selects the answer, grid data included if it asks (``includeGridData`` is then ignored)."""
        book = self._book(sid, who)
        fields = params.get("fields", [""])[0]
        grid = bool(fields) or params.get("includeGridData", ["false"])[0].lower() == "true"
        doc = fake_sheets.document(book, sid, grid, params.get("ranges", []), who)
        return 200, fake_masks.select(doc, fields) if fields else doc

    def _values_get(self, sid: str, who: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        book = self._book(sid, who)
        ranges = [fake_values.value_range(book, text, params) for text in params.get("ranges", [])]
        return 200, {"spreadsheetId": sid, "valueRanges": ranges}

    def _get_range(self, sid: str, rng: str, who: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        return 200, fake_values.value_range(self._book(sid, who), rng, params)

    def _draft(self, sid: str, who: str) -> Spreadsheet:
        """A copy of a spreadsheet to write: kept only if the whole call succeeds (writes are atomic)."""
        return copy.deepcopy(self._book(sid, who, write=True))

    def _put_range(self, sid: str, rng: str, who: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        draft = self._draft(sid, who)
        named, asked = (fake_values.locate(draft, text) for text in (body.get("range") or rng, rng))
        if (named[0].sheet_id, named[1]) != (asked[0].sheet_id, asked[1]):
            raise fake_errors.bad(f"Requested writing within range [{rng}], but the request body has range "
                                  f"[{body['range']}]")
        out = fake_values.write(draft, rng, body, params, sid)
        self.books[sid] = draft
        return 200, out

    def _append(self, sid: str, rng: str, who: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        draft = self._draft(sid, who)
        out = fake_values.append(draft, rng, body, params, sid)
        self.books[sid] = draft
        return 200, out

    def _clear_range(self, sid: str, rng: str, who: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        draft = self._draft(sid, who)
        cleared = fake_values.clear(draft, rng)
        self.books[sid] = draft
        return 200, {"spreadsheetId": sid, "clearedRange": cleared}

    def _clear_ranges(self, sid: str, who: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        draft = self._draft(sid, who)
        cleared = [fake_values.clear(draft, text) for text in body.get("ranges", [])]
        self.books[sid] = draft
        return 200, {"spreadsheetId": sid, "clearedRanges": cleared}

    def _values_update(self, sid: str, who: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        draft = self._draft(sid, who)
        for item in body.get("data", []):  # a protected cell among them: nothing is written
            sheet, rng = fake_values.locate(draft, str(item.get("range", "")))
            refused = protected.guard_values(draft, fake_values.clamp(sheet, rng), who,
                                             self.drive.may(sid, who, "owner"))
            if refused is not None:
                raise refused
        out = fake_values.write_many(draft, body, sid)
        self.books[sid] = draft
        return 200, out

    def _batch_update(self, sid: str, who: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        draft = self._draft(sid, who)  # all or nothing, like the API
        if not body.get("requests"):
            raise fake_errors.bad("Must specify at least one request.")
        replies = []
        owner = self.drive.may(sid, who, "owner")
        for i, req in enumerate(body["requests"]):
            protected.guard(draft, req, who, owner)  # in Google's own words, not "Invalid requests[i]"
            try:
                replies.append(fake_sheets.apply(draft, req, who))
            except fake_errors.ApiFault as err:
                raise fake_errors.bad(f"Invalid requests[{i}].{next(iter(req), '')}: {err}") from None
            except CellTooLongError:
                raise fake_errors.bad(f"Invalid requests[{i}].updateCells: {TOO_LONG}") from None
            except Exception as err:  # a request the fake's model cannot apply
                raise fake_errors.bad(f"Invalid requests[{i}]: {type(err).__name__}: {err}") from None
        self.books[sid] = draft
        return 200, {"spreadsheetId": sid, "replies": replies}

    def _create(self, who: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        """``spreadsheets.create``: the tabs asked for (or ``Sheet1``), in the caller's locale unless the
        request names one (no recording shows this call: see docs/google-fidelity.md)."""
        if SERVICE_ACCOUNT.search(who) and who not in self.with_storage:
            raise fake_errors.sheets_error(403)  # a service account may no longer create files: a bare 403
        props = body.get("properties", {})
        book = Spreadsheet(props.get("title") or "Untitled spreadsheet", locale=props.get("locale") or self.locale,
                           time_zone=props.get("timeZone") or self.time_zone)
        for sheet in body.get("sheets") or [{"properties": {"title": "Sheet1", "sheetId": 0}}]:
            props = sheet.get("properties", {})
            if not book.sheets and "sheetId" not in props:
                props = {**props, "sheetId": 0}
            fake_tabs.add_sheet(book, {"properties": props})
        sid = self._new_id()
        self.books[sid] = book
        self.drive.grant(sid, "user", "owner", who)
        self._changed(sid, who)
        return 200, fake_sheets.document(book, sid, grid=False, who=who)

    # -- Drive ------------------------------------------------------------

    def _drive_create(self, who: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        if SERVICE_ACCOUNT.search(who) and who not in self.with_storage:
            raise fake_errors.drive_error(403, "storageQuotaExceeded",
                                          "The user's Drive storage quota has been exceeded.", "usageLimits")
        sid = self.add_spreadsheet(body.get("name", "Untitled"), ["Sheet1"], owner=who)
        self.books[sid].locale, self.books[sid].time_zone = self.locale, self.time_zone
        return 200, {"kind": "drive#file", "id": sid, "name": body.get("name"), "mimeType": body.get("mimeType")}

    def _drive_delete(self, sid: str, who: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        """``files.delete``: only the owner may (others see a 404 if they cannot see it, else a 403)."""
        if sid not in self.books or self.drive.role(sid, who) is None:
            raise fake_errors.drive_not_found(sid)
        if self.drive.owner(sid) != who:
            raise fake_errors.drive_error(403, "insufficientFilePermissions")
        del self.books[sid]
        self.drive.grants.pop(sid, None)
        return 204, None

    def _perm_list(self, sid: str, who: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        doc = self.drive.listing(sid, who, sid in self.books)
        fields = params.get("fields", [""])[0]
        return 200, fake_masks.select(doc, fields) if fields else doc

    def _perm_create(self, sid: str, who: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        return 200, self.drive.create(sid, who, sid in self.books, body, params)

    def _perm_update(self, sid: str, pid: str, who: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        return 200, self.drive.update(sid, pid, who, sid in self.books, body)

    def _perm_delete(self, sid: str, pid: str, who: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        self.drive.delete(sid, pid, who, sid in self.books)
        return 204, None

    # -- Drive files: the listing of versions ------------------------------

    def _changed(self, sid: str, who: str = "") -> None:
        self.versions[sid] = self.versions.get(sid, 1) + 1
        self.modified_by[sid] = who  # Drive's lastModifyingUser
        self.touched[sid] = next(self._ids)  # Drive lists the file changed last first

    def edited_in_browser(self, sid: str, who: str) -> None:
        """Say that ``who`` changed the spreadsheet by hand (a test that changed ``books`` directly): Drive's
        version moves and its ``lastModifyingUser`` is ``who``, as after an edit in the browser."""
        self._changed(sid, who)

    def lag_listing(self, lagging: bool = True) -> None:
        """Drive's listing lags the edits (reported publicly: by minutes): from now until called with False,
        ``files.list`` shows every spreadsheet's version and time as they are now, whatever changes after."""
        self.listed_as_of = dict(self.versions) if lagging else None
        self.modified_by_as_of = dict(self.modified_by) if lagging else {}

    def _file_doc(self, sid: str, who: str = "") -> dict[str, Any]:
        n = self.versions.get(sid, 1)
        last = self.modified_by.get(sid, "")
        if self.listed_as_of is not None:
            n = self.listed_as_of.get(sid, n)
            last = self.modified_by_as_of.get(sid, last)
        when = f"2024-05-01T{n // 3600 % 24:02d}:{n // 60 % 60:02d}:{n % 60:02d}.000Z"  # moves with each change
        return {"kind": "drive#file", "id": sid, "name": self.books[sid].title,
                "mimeType": "application/vnd.google-apps.spreadsheet", "version": str(n),
                "createdTime": "2024-05-01T00:00:00.000Z", "modifiedTime": when,
                "lastModifyingUser": {"kind": "drive#user", "displayName": last.split("@")[0] or "-",
                                      "me": bool(last) and last == who, "emailAddress": last or "-"}}

    def _file_list(self, who: str, params: dict[str, list[str]], body: Any) -> tuple[int, Any]:
        """``files.list``: the spreadsheets the caller can open, newest change first. ``q`` may join with ``and``
        the clauses sheetgm and gspread send (the mime type, ``trashed = false``, ``name = '...'``, quoted either
        way); ``pageSize`` at a time (default 100, at most 1000); ``fields`` applied."""
        wanted: list[Callable[[str], bool]] = []
        for clause in [c.strip() for c in params.get("q", [""])[0].split(" and ") if c.strip()]:
            found = re.fullmatch(r"""(mimeType|name)\s*=\s*(['"])(.*)\2|trashed\s*=\s*false""", clause)
            if found is None:
                raise fake_errors.drive_error(400, "invalid", "Invalid Value", location="q")
            field, value = found.group(1), found.group(3)
            if field == "name":
                wanted.append(lambda sid, value=value: self.books[sid].title == value)
            elif field == "mimeType":
                wanted.append(lambda sid, value=value: value == "application/vnd.google-apps.spreadsheet")
        size = int(params.get("pageSize", ["100"])[0])
        start = int(params.get("pageToken", ["0"])[0] or 0)
        visible = [sid for sid in sorted(self.books, key=lambda s: -self.touched.get(s, 0))
                   if self.drive.role(sid, who) is not None and all(w(sid) for w in wanted)]
        page = visible[start:start + min(max(size, 1), 1000)]
        doc: dict[str, Any] = {"kind": "drive#fileList", "incompleteSearch": False,
                               "files": [self._file_doc(sid, who) for sid in page]}
        if start + len(page) < len(visible):
            doc["nextPageToken"] = str(start + len(page))
        fields = params.get("fields", [""])[0]
        if not fields:  # Drive's default answer leaves the version and times out
            doc["files"] = [{k: f[k] for k in ("kind", "id", "name", "mimeType")} for f in doc["files"]]
            return 200, doc
        return 200, fake_masks.select(doc, fields)
