"""The Google adapter: gspread's plain HTTPClient with a timeout, our retry
policy and rate limiter around every HTTP attempt, and the fewest calls:

- ``read``: the first of a workbook in a process is one ``spreadsheets.get``
  with every tab's values and the metadata (tab ids, grid sizes, protections)
  that its writes need, cached; later ones are one ``values:batchGet``
  (a smaller answer). So a workbook read then written costs two calls.
  (``ranges=`` on that get would drop the tabs it does not touch, whose ids a
  write needs, so the whole workbook's values come back.)
- ``write``: one ``spreadsheets:batchUpdate`` carrying values, formats,
  validation and protection, atomically; the tab ids come from the cache, or
  from one metadata read if the workbook was not read yet (refreshed after a
  failure);
- ``create``: one ``spreadsheets.create`` with all tabs (needs a user's OAuth
  login: service accounts have no Drive storage);
- ``share``: one permissions list, then one create or update (with v3's own fields: gspread's
  ``insert_permission`` also sends v2's ``withLink``);
- ``revisions``: one Drive ``files.list`` (every spreadsheet the account can open, with its version
  and modification time; more pages only while a wanted one is missing), so that ``check`` reads only
  the workbooks that changed.

A write sends only the values that change (`known`): one whose every value is already there costs no
call. Only Sheets calls are paced (`ratelimit`): by default with the log shared by every sheetgm
process acting as the same account on this machine.
"""

from __future__ import annotations

import json
from collections.abc import Callable, MutableMapping, Sequence
from typing import Any, TypeVar

import gspread
import requests
from google.auth.credentials import Credentials
from gspread.exceptions import APIError
from gspread.http_client import HTTPClient
from gspread.urls import DRIVE_FILES_API_V3_URL, SPREADSHEET_DRIVE_URL, SPREADSHEETS_API_V4_BASE_URL

from sheetgm.backends import port
from sheetgm.backends.a1 import normalize, parse_range
from sheetgm.backends.errors import (
    AccessError,
    BackendError,
    CellTooLongError,
    CreateDeniedError,
    MissingTabError,
    MissingWorkbookError,
    NetworkError,
    NotSharedError,
    OpError,
    ProtectedRangeError,
    QuotaError,
    RangeError,
    ShareRejectedError,
    WorkbookExistsError,
    name_workbook,
)
from sheetgm.backends.google import translate
from sheetgm.backends.google.known import Known
from sheetgm.backends.google.meta import META_TAB, MetaCache
from sheetgm.backends.google.ratelimit import RateLimiter, shared_limiter
from sheetgm.backends.google.retry import STORAGE_QUOTA_REASON, RetryPolicy, is_transient, reasons, status_of

T = TypeVar("T")
MAX_PAYLOAD = 2_000_000  # bytes; the API's recommended ceiling for one request
SPREADSHEET_MIME = "application/vnd.google-apps.spreadsheet"
LISTING_FIELDS = "nextPageToken,files(id,version,modifiedTime)"
WRITER_FIELDS = "nextPageToken,files(id,lastModifyingUser(me))"
Observer = Callable[[str, str, dict[str, Any], "requests.Response | None", "BaseException | None"], None]


class GatedHTTPClient(HTTPClient):
    """gspread's HTTPClient with every Sheets attempt paced by a RateLimiter, every attempt retried by a
    RetryPolicy, and each answer shown to an ``observer`` if one is set (`sheetgm doctor --live` records)."""

    policy: RetryPolicy = RetryPolicy()
    limiter: RateLimiter | None = None
    observer: Observer | None = None

    def request(self, method: str, endpoint: str, *args: Any, **kwargs: Any) -> requests.Response:
        kind = "read" if method.lower() == "get" else "write"
        paced = endpoint.startswith(SPREADSHEETS_API_V4_BASE_URL)  # Drive has its own, far larger quota

        def once() -> requests.Response:
            if self.limiter is not None and paced:
                self.limiter.acquire(kind)
            try:
                response = HTTPClient.request(self, method, endpoint, *args, **kwargs)
            except APIError as exc:
                if self.observer is not None:
                    self.observer(method, endpoint, kwargs, exc.response, exc)
                raise
            except requests.exceptions.RequestException as exc:
                if self.observer is not None:
                    self.observer(method, endpoint, kwargs, None, exc)
                raise
            if self.observer is not None:
                self.observer(method, endpoint, kwargs, response, None)
            return response

        return self.policy.call(once)


class GoogleGateway(port.Gateway):
    enforces_protections = True  # Sheets refuses a protected range's edit to anyone but its editors

    def __init__(
        self,
        credentials: Credentials,
        ids: MutableMapping[str, str],
        *,
        retry: RetryPolicy | None = None,
        limiter: RateLimiter | None = None,
        timeout: float = 60.0,
        account: str | None = None,
        meta_home: str | None = None,
    ) -> None:
        self.client = gspread.Client(auth=credentials, http_client=GatedHTTPClient)
        self.http: GatedHTTPClient = self.client.http_client  # type: ignore[assignment]
        self.http.policy = retry if retry is not None else RetryPolicy()
        self.client.set_timeout(timeout)
        self.ids = ids
        self.account = account or getattr(credentials, "service_account_email", None)
        self.http.limiter = limiter if limiter is not None else shared_limiter(self.account)
        self.known = Known()
        self._meta: dict[str, translate.Meta] = {}
        self._fresh: set[str] = set()  # workbooks whose metadata this process read (not from the cache)
        self.cache = MetaCache(meta_home) if meta_home else None

    def __repr__(self) -> str:
        return f"GoogleGateway(account={self.account!r}, workbooks={sorted(self.ids)!r})"

    # -- plumbing ---------------------------------------------------------

    def _id(self, key: str) -> str:
        try:
            return self.ids[key]
        except KeyError:
            raise MissingWorkbookError(key=key) from None

    def _call(self, key: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        try:
            return fn(*args, **kwargs)
        except (APIError, requests.exceptions.RequestException) as exc:
            raise self._translate(key, exc) from exc

    def _translate(self, key: str, exc: Exception) -> BackendError:
        attempts = self.http.policy.last_attempts
        if not isinstance(exc, APIError):
            return NetworkError(key=key, attempts=attempts, detail=type(exc).__name__)
        code = status_of(exc)
        if str(exc.error.get("status", "")).startswith("invalid JSON"):  # an HTML page from the front end
            message = "the answer was a page, not JSON"
        else:
            message = str(exc.error.get("message", ""))[:300]
        url = str(getattr(exc.response, "url", "") or "")
        account = self.account or "this account"
        if code == 403 and (STORAGE_QUOTA_REASON in reasons(exc) or "storage quota" in message.lower()):
            return QuotaError(key=key)
        if is_transient(exc):
            return NetworkError(key=key, attempts=attempts, detail=f"HTTP {code}: {message}")
        if code == 404 and url.startswith(DRIVE_FILES_API_V3_URL):
            # Drive hides files an account cannot see behind "File not found": not shared, or deleted.
            return NotSharedError(key=key, id=self.ids.get(key, "?"), account=account)
        if code in (401, 403):
            return AccessError(key=key, account=account)
        if code == 404:
            return MissingWorkbookError(key=key)
        if code == 400 and "unable to parse range" in message.lower():
            # our ranges are checked before they are sent: a range Google cannot parse names a tab
            # that was renamed or deleted by hand
            bad = message.split("Unable to parse range: ", 1)[-1].strip()
            try:
                tab = parse_range(bad).tab
            except RangeError:
                tab = bad
            return MissingTabError(range=bad, tab=tab, key=key)
        if code == 400 and "protected cell or object" in message:
            return ProtectedRangeError(key=key, account=account)
        if code == 400 and "characters in a single cell" in message:
            return CellTooLongError(range=key, length=f"> {port.GOOGLE_CELL_LIMIT}", limit=port.GOOGLE_CELL_LIMIT)
        return BackendError(key=key, status=code, detail=message)

    def _fetch(self, key: str, grid: bool = False) -> dict[str, Any]:
        params = {"includeGridData": "true" if grid else "false"}
        doc = dict(self._call(key, self.http.fetch_sheet_metadata, self._id(key), params=params))
        self._fresh_meta(key, doc)
        return doc

    def _fresh_meta(self, key: str, doc: dict[str, Any]) -> None:
        self._meta[key] = translate.Meta.parse(doc)
        self._fresh.add(key)

    def _meta_for(self, key: str, ops: Sequence[port.Op] = ()) -> translate.Meta:
        """A workbook's metadata: read in this process, else from the home workbook's hidden tab, else
        read now. Ops on a tab, or protecting or unprotecting a description, that the hidden tab does not
        know need it read: another run may have made them."""
        if key not in self._meta and self.cache is not None and (cached := self.cache.get(key)) is not None:
            self._meta[key] = cached
        meta = self._meta.get(key)
        if meta is None or (key not in self._fresh and _beyond(ops, meta)):
            self._fetch(key)
        return self._meta[key]

    # -- the port ---------------------------------------------------------

    def exists(self, key: str) -> bool:
        if key not in self.ids:
            return False
        try:
            self._fetch(key)
        except MissingWorkbookError:
            return False
        return True

    def create(self, key: str, title: str, tabs: Sequence[str]) -> None:
        port.check_tabs(tabs)
        if self.exists(key):
            raise WorkbookExistsError(key=key)
        sheets = [{"properties": {"title": t, "sheetId": i}} for i, t in enumerate(tabs)]
        body = {"properties": {"title": title}, "sheets": sheets}
        try:
            doc = self._call(key, self.http.request, "post", SPREADSHEETS_API_V4_BASE_URL, json=body).json()
        except QuotaError:
            raise
        except AccessError:  # a service account: Google answers a bare 403 now, no storage-quota reason
            raise CreateDeniedError(key=key, account=self.account or "this account") from None
        self.ids[key] = doc["spreadsheetId"]
        self._fresh_meta(key, doc)
        self.known.learn_tabs(key, {t: [] for t in tabs})  # a new workbook is empty

    def tabs(self, key: str) -> list[str]:
        return [t for t in self._meta_for(key).tabs if t != META_TAB]

    def read(self, key: str, ranges: Sequence[str]) -> dict[str, list[list[str]]]:
        canonical = [normalize(text) for text in ranges]
        if not ranges:
            return {}
        if key not in self._meta:  # one call brings the values and the metadata a later write needs
            params = {"includeGridData": "true", "fields": translate.READ_FIELDS}
            doc = dict(self._call(key, self.http.fetch_sheet_metadata, self._id(key), params=params))
            self._fresh_meta(key, doc)
            if self.cache is not None and key == self.cache.home:
                self.cache.take(doc)
            got = translate.read_values(doc, ranges, key)
            self.known.learn_tabs(key, {str(sh.get("properties", {}).get("title", "")): translate.grid_values(sh)
                                        for sh in doc.get("sheets", [])})
            return got
        params = {"valueRenderOption": "FORMATTED_VALUE", "majorDimension": "ROWS"}
        doc = self._call(key, self.http.values_batch_get, self._id(key), canonical, params=params)
        found = doc.get("valueRanges", [])
        if len(found) != len(ranges):
            raise BackendError(key=key, status=200, detail=f"asked {len(ranges)} ranges, got {len(found)}")
        out = {
            text: port.trim([[str(v) for v in row] for row in vr.get("values", [])])
            for text, vr in zip(ranges, found, strict=True)
        }
        for text, rows in out.items():
            self.known.learn(key, normalize(text), rows)
        return out

    def write(self, key: str, ops: Sequence[port.Op]) -> None:
        port.check_ops(ops, port.GOOGLE_CELL_LIMIT)
        ops = [op for op in ops if not isinstance(op, port.PlaceImage)]  # see port.PlaceImage: the cell map stays
        ops, after = self.known.prune(key, ops)
        if not ops:
            return
        fresh = key in self._fresh
        try:
            self._batch(key, list(ops))
            self.known.commit(key, after)
        except BackendError as err:
            self.known.forget(key)
            name_workbook(err, key)
            self._forget(key)  # the file may have changed under us: look again next time
            cause = err.__cause__
            if not (isinstance(cause, APIError) and status_of(cause) == 400
                    and (self.http.policy.last_attempts > 1 or not fresh)):
                raise
            # Metadata from the hidden tab may be stale, or an earlier attempt whose reply was lost may
            # have been applied (its protection ids or new tabs are now gone or present): rebuild the
            # batch from fresh metadata, once (a tab renamed by hand shows up here, named with its workbook).
            try:
                self._batch(key, list(ops))
            except BackendError as again:
                name_workbook(again, key)
                raise

    def _forget(self, key: str) -> None:
        self._meta.pop(key, None)
        self._fresh.discard(key)
        if self.cache is not None:
            self.cache.forget(key)

    def _batch(self, key: str, ops: list[port.Op]) -> None:
        draft = self._meta_for(key, ops).copy()
        requests_ = translate.build(ops, draft)
        if not requests_:
            return
        rows: dict[str, str] | None = None
        if self.cache is not None and key == self.cache.home:
            extra, rows = self.cache.requests(self._meta, draft)
            requests_ += extra
        body = {"requests": requests_}
        size = len(json.dumps(body, ensure_ascii=False).encode("utf-8"))
        if size > MAX_PAYLOAD:
            raise OpError(op="write", detail=f"{size} bytes in one request; split it below {MAX_PAYLOAD}")
        reply = self._call(key, self.http.batch_update, self._id(key), body)
        for req, rep in zip(requests_, reply.get("replies", []), strict=False):
            added = (rep or {}).get("addProtectedRange", {}).get("protectedRange")
            if added and "addProtectedRange" in req:
                draft.protected[added["protectedRangeId"]] = added.get("description", "")
        self._meta[key] = draft
        if self.cache is not None and rows is not None:
            self.cache.saved = rows

    def protections(self, key: str) -> list[port.Protection]:
        return translate.protections(self._fetch(key))

    def _permissions(self, key: str) -> list[dict[str, Any]]:
        return self._call(key, self.http.list_permissions, self._id(key))

    def permissions(self, key: str) -> list[port.Permission]:
        found = [
            port.Permission(str(p.get("emailAddress") or p.get("domain") or ""), str(p["role"]),
                            str(p.get("type", "user")), bool(p.get("allowFileDiscovery", False)))
            for p in self._permissions(key)
        ]
        return sorted(found, key=lambda p: (p.kind, p.email, p.role))

    def _user_permission(self, key: str, email: str) -> dict[str, Any] | None:
        for p in self._permissions(key):
            if p.get("type", "user") == "user" and str(p.get("emailAddress", "")).lower() == email.lower():
                return p
        return None

    def share(self, key: str, email: str, role: str) -> None:
        port.check_role(role)
        same = self._user_permission(key, email)
        if same is not None and same["role"] == role:
            return
        url = f"{DRIVE_FILES_API_V3_URL}/{self._id(key)}/permissions"
        try:
            if same is not None:
                params = {"supportsAllDrives": "true"}
                self._call(key, self.http.request, "patch", f"{url}/{same['id']}", json={"role": role}, params=params)
            else:
                params = {"sendNotificationEmail": "false", "supportsAllDrives": "true"}
                body = {"type": "user", "role": role, "emailAddress": email}
                self._call(key, self.http.request, "post", url, json=body, params=params)
        except BackendError as err:
            cause = err.__cause__
            if isinstance(cause, APIError) and "invalidSharingRequest" in reasons(cause):
                detail = str(cause.error.get("message", ""))[:300]
                raise ShareRejectedError(key=key, email=email, detail=detail) from cause
            raise

    def unshare(self, key: str, email: str) -> None:
        found = self._user_permission(key, email)
        if found is not None:
            self._call(key, self.http.remove_permission, self._id(key), str(found["id"]))

    def url(self, key: str) -> str | None:
        return SPREADSHEET_DRIVE_URL % self._id(key)

    def revisions(self, keys: Sequence[str]) -> dict[str, str]:
        """Each workbook's Drive version and modification time, from one ``files.list`` of the spreadsheets
        this account can open (a next page only while one asked for is missing). A workbook not found is
        left out: the caller reads it, and the read says what is wrong."""
        found = self._listed(keys, LISTING_FIELDS)
        return {k: f"{f.get('version', '')}@{f.get('modifiedTime', '')}" for k, f in found.items()}

    def written_by_us(self, keys: Sequence[str]) -> dict[str, bool]:
        """Whether each workbook's last change was this account's own (Drive's ``lastModifyingUser.me``), from
        one ``files.list``; a workbook not found is left out."""
        found = self._listed(keys, WRITER_FIELDS)
        return {k: bool((f.get("lastModifyingUser") or {}).get("me")) for k, f in found.items()}

    def _listed(self, keys: Sequence[str], fields: str) -> dict[str, dict[str, Any]]:
        wanted = {self.ids[k]: k for k in keys if k in self.ids}
        out: dict[str, dict[str, Any]] = {}
        token = ""
        while wanted.keys() - {self.ids[k] for k in out}:
            params = {"q": f"mimeType='{SPREADSHEET_MIME}' and trashed=false", "fields": fields,
                      "pageSize": "1000", "supportsAllDrives": "true", "includeItemsFromAllDrives": "true"}
            if token:
                params["pageToken"] = token
            doc = self._call("drive", self.http.request, "get", DRIVE_FILES_API_V3_URL, params=params).json()
            for f in doc.get("files", []):
                if f.get("id") in wanted:
                    out[wanted[f["id"]]] = f
            token = str(doc.get("nextPageToken") or "")
            if not token:
                break
        return out

    def view(self, key: str) -> port.WorkbookView:
        found = translate.view(self._fetch(key, grid=True))
        return port.WorkbookView(found.title, tuple(t for t in found.tabs if t.name != META_TAB))


def _beyond(ops: Sequence[port.Op], meta: translate.Meta) -> bool:
    """Whether ``ops`` reach a tab or a protection that ``meta`` does not know."""
    known = set(meta.protected.values())
    for op in ops:
        if isinstance(op, port.Protect | port.Unprotect) and op.description not in known:
            return True
        if not isinstance(op, port.AddTab) and any(r.tab not in meta.tabs for r in port.op_ranges(op)):
            return True
    return False

