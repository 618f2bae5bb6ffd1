"""A small WebDAV client over ``requests``: the five methods sheetgm needs, each paced, timed out and retried.

Why plain ``requests`` (already installed with gspread and google-auth) rather than webdav4 or webdavclient3:
sheetgm needs exactly GET (with If-None-Match), PUT (with If-Match / If-None-Match), MKCOL, PROPFIND (depth 0
and 1: ETag, modified time, size) and DELETE, and must see every status itself (412 is the player's newer save,
401 after success is Nutstore's throttling, a redirect to another host must not carry the password). Both
libraries hide those answers behind their own exceptions and add a dependency each (webdav4 pulls httpx);
this module is ~270 lines and adds none. Measured against a local WsgiDAV (benchmarks/bench_webdav.py): one
keep-alive session, a player's 16 kB workbook read in 1-2.5 ms and written with If-Match in 2-7 ms, far below
any Internet round trip: the client's own cost does not matter, the number of requests does.

Every request: waits for the account's pacing (``pacing``; a budget shared by the processes of this machine,
as for Google), has a (connect, read) timeout, and is retried with backoff (tenacity) on 429, 502-504, a 503
or a 401 that says ``BlockedTemporarily`` (Nutstore's throttling) or that follows an accepted request (a burst),
a timeout or a dropped connection. Redirects are followed on the same host only. The password is sent as HTTP
Basic auth and never appears in a message: URLs are shown without user information.
"""

from __future__ import annotations

import logging
import random
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import quote, unquote, urljoin, urlsplit, urlunsplit

import requests
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt

from sheetgm.backends.errors import BackendError, CredentialsError, MissingWorkbookError, NetworkError
from sheetgm.backends.google.ratelimit import RateLimiter
from sheetgm.core.values import Value, field, record

log = logging.getLogger(__name__)
PASSWORD_ENV = "SHEETGM_WEBDAV_PASSWORD"
TIMEOUT = (10.0, 60.0)  # seconds: to connect, and between bytes of the answer
_DAV = "{DAV:}"


class DavError(BackendError):
    """The server refused a request (params: method, url, status, detail)."""

    code = "err.backend.webdav.refused"


class DavCredentialsError(CredentialsError):
    """The user and password were not accepted (params: url, user); never carries the password."""

    code = "err.backend.webdav.credentials"


class DavNoPasswordError(CredentialsError):
    """SHEETGM_WEBDAV_PASSWORD is not set (params: user)."""

    code = "err.backend.webdav.no_password"


class DavRedirectError(DavError):
    """The server sent us to another host (params: url, location)."""

    code = "err.backend.webdav.redirect"


class DavAnswerError(DavError):
    """An answer sheetgm cannot use: a 207 without the properties asked, a body that is not XML (params:
    method, url, detail)."""

    code = "err.backend.webdav.bad_answer"


class DavUnavailableError(NetworkError):
    """The server stayed unreachable or busy after every retry (params: method, url, attempts, detail)."""

    code = "err.backend.webdav.unavailable"


class PreconditionFailed(Exception):
    """412: the resource is not the version named in If-Match (or exists, for If-None-Match: *)."""


@record(frozen=True)
class Entry(Value):
    """One resource as PROPFIND lists it."""

    path: str  # relative to the client's root, "/"-separated, folders ending with "/"
    etag: str
    modified: float | None  # seconds since the epoch
    size: int
    folder: bool


class _Transient(Exception):
    def __init__(self, what: str, retry_after: float = 0.0) -> None:
        super().__init__(what)
        self.what = what
        self.retry_after = retry_after


def shown(url: str) -> str:
    """A URL as it may be printed: no user information, no query."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


@record
class DavClient:
    root: str  # the game's folder, e.g. https://dav.jianguoyun.com/dav/sheetgm/spring-cup/
    user: str
    password: str
    pacing: RateLimiter | None = None
    timeout: tuple[float, float] = TIMEOUT
    attempts: int = 6
    cap: float = 64.0
    sleep: Callable[[float], None] = time.sleep
    jitter: Callable[[], float] = random.random
    calls: int = 0  # requests sent (retries included), bytes sent and received: the benchmarks count them
    sent: int = 0
    received: int = 0
    waits: list[float] = field(default_factory=list)
    session: requests.Session = field(default_factory=requests.Session)
    _accepted: bool = False  # a request was accepted: a 401 now is throttling, not a wrong password

    def __post_init__(self) -> None:
        if not self.root.endswith("/"):
            self.root += "/"
        self.session.auth = (self.user, self.password)
        self.session.headers["User-Agent"] = "sheetgm"

    def url(self, path: str) -> str:
        return urljoin(self.root, quote(path, safe="/"))

    # -- the methods ------------------------------------------------------

    def get(self, path: str, etag: str | None = None) -> tuple[bytes, str, float | None] | None:
        """The file's bytes, ETag and modified time; None if it is still ``etag`` (304). MissingWorkbookError
        (key: the path) if there is none."""
        headers = {"If-None-Match": etag} if etag else {}
        r = self._call("GET", path, headers=headers, ok=(200, 304, 404))
        if r.status_code == 304:
            return None
        if r.status_code == 404:
            raise MissingWorkbookError(key=path)
        return r.content, r.headers.get("ETag", ""), _modified(r.headers.get("Last-Modified"))

    def put(self, path: str, data: bytes, if_match: str | None = None, create: bool = False) -> str:
        """Write the file; with ``if_match`` only if it is still that version, with ``create`` only if there
        is none (PreconditionFailed otherwise). Returns the new ETag ("" if the server sent none)."""
        headers = {"Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}
        if if_match:
            headers["If-Match"] = if_match
        if create:
            headers["If-None-Match"] = "*"
        r = self._call("PUT", path, headers=headers, data=data, ok=(200, 201, 204, 412))
        if r.status_code == 412:
            raise PreconditionFailed(path)
        return r.headers.get("ETag", "")

    def mkcol(self, path: str) -> bool:
        """Make the folder; False if it was there already."""
        r = self._call("MKCOL", path.rstrip("/") + "/", ok=(201, 405))
        return r.status_code == 201

    def delete(self, path: str) -> None:
        self._call("DELETE", path, ok=(200, 204, 404))

    def propfind(self, path: str, depth: int = 1) -> list[Entry]:
        """The resource (depth 0) or a folder and what it holds (depth 1): ETag, modified time, size."""
        body = (b'<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/>'
                b"<d:getlastmodified/><d:getcontentlength/><d:resourcetype/></d:prop></d:propfind>")
        r = self._call("PROPFIND", path, headers={"Depth": str(depth), "Content-Type": "application/xml"},
                       data=body, ok=(207, 404))
        if r.status_code == 404:
            raise MissingWorkbookError(key=path)
        return self._entries(r)

    # -- the plumbing -----------------------------------------------------

    def _entries(self, r: requests.Response) -> list[Entry]:
        try:
            tree = ET.fromstring(r.content)
        except ET.ParseError as exc:
            raise DavAnswerError(method="PROPFIND", url=shown(r.url), detail=f"not XML: {exc}") from None
        base = urlsplit(self.root).path
        found = []
        for resp in tree.iter(f"{_DAV}response"):
            href = unquote(urlsplit((resp.findtext(f"{_DAV}href") or "").strip()).path)
            props: dict[str, ET.Element] = {}
            for stat in resp.iter(f"{_DAV}propstat"):
                if " 200 " in f"{stat.findtext(f'{_DAV}status') or ''} ":
                    for prop in stat.iter(f"{_DAV}prop"):
                        props.update({child.tag: child for child in prop})
            if f"{_DAV}resourcetype" not in props:
                raise DavAnswerError(method="PROPFIND", url=shown(r.url),
                                     detail=f"no resourcetype for {href or '?'} in the 207 answer")
            folder = props[f"{_DAV}resourcetype"].find(f"{_DAV}collection") is not None
            rel = href[len(base):] if href.startswith(base) else href.lstrip("/")
            size = _text(props, "getcontentlength")
            found.append(Entry(rel, _text(props, "getetag"), _modified(_text(props, "getlastmodified")),
                               int(size) if size.isdigit() else 0, folder))
        if not found:
            raise DavAnswerError(method="PROPFIND", url=shown(r.url), detail="a 207 answer that lists nothing")
        return found

    def _call(self, method: str, path: str, ok: tuple[int, ...], **kwargs: Any) -> requests.Response:
        url = self.url(path)
        retrying = Retrying(stop=stop_after_attempt(self.attempts), wait=self._wait, sleep=self.sleep,
                            retry=retry_if_exception(lambda e: isinstance(e, _Transient)), reraise=True,
                            before_sleep=self._before_sleep)
        try:
            return retrying(self._once, method, url, ok, **kwargs)
        except _Transient as exc:
            raise DavUnavailableError(method=method, url=shown(url), attempts=self.attempts, detail=exc.what,
                                      key=path) from None

    def _once(self, method: str, url: str, ok: tuple[int, ...], **kwargs: Any) -> requests.Response:
        for _hop in range(5):
            if self.pacing is not None:
                self.pacing.acquire("read")  # one budget for every request (Nutstore counts requests)
            self.calls += 1
            self.sent += len(kwargs.get("data") or b"")
            try:
                r = self.session.request(method, url, timeout=self.timeout, allow_redirects=False, **kwargs)
            except (requests.Timeout, requests.ConnectionError) as exc:
                raise _Transient(type(exc).__name__) from None
            self.received += len(r.content)
            if r.status_code in (301, 302, 303, 307, 308) and r.status_code not in ok:
                target = urljoin(url, r.headers.get("Location", ""))
                if urlsplit(target).netloc != urlsplit(url).netloc or urlsplit(target).scheme != urlsplit(url).scheme:
                    raise DavRedirectError(url=shown(url), location=shown(target), method=method, status=r.status_code)
                url = target
                continue
            return self._judge(method, url, r, ok)
        raise DavAnswerError(method=method, url=shown(url), detail="more than 5 redirects")

    def _judge(self, method: str, url: str, r: requests.Response, ok: tuple[int, ...]) -> requests.Response:
        status = r.status_code
        blocked = b"BlockedTemporarily" in r.content[:4096]
        if status in ok:
            self._accepted = True
            return r
        if status == 401 and not blocked and not self._accepted:
            raise DavCredentialsError(url=shown(self.root), user=self.user)
        if status in (429, 502, 503, 504, 408) or (status == 401 and (blocked or self._accepted)) or (
                status == 500 and blocked):
            wait = r.headers.get("Retry-After", "").strip()
            raise _Transient(f"HTTP {status}" + (" BlockedTemporarily" if blocked else ""),
                             float(wait) if wait.isdigit() else 0.0)
        if status >= 500:
            raise _Transient(f"HTTP {status}")
        raise DavError(method=method, url=shown(url), status=status, detail=_reason(r))

    def _wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        base = min(2 ** (state.attempt_number - 1) + self.jitter(), self.cap)
        after = exc.retry_after if isinstance(exc, _Transient) else 0.0
        return float(min(max(base, after), self.cap))

    def _before_sleep(self, state: RetryCallState) -> None:
        wait = state.next_action.sleep if state.next_action else 0.0
        self.waits.append(wait)
        exc = state.outcome.exception() if state.outcome else None
        log.warning("WebDAV request failed (%s), attempt %d; retrying in %.1f s",
                    exc.what if isinstance(exc, _Transient) else type(exc).__name__, state.attempt_number, wait)


def _text(props: dict[str, ET.Element], name: str) -> str:
    element = props.get(f"{_DAV}{name}")  # (an element without children is false: compared to None)
    return (element.text or "").strip() if element is not None else ""


def _reason(r: requests.Response) -> str:
    text = r.reason or ""
    return f": {text}" if text else ""


def _modified(text: str | None) -> float | None:
    if not text:
        return None
    try:
        return parsedate_to_datetime(text.strip()).timestamp()
    except (TypeError, ValueError, IndexError):
        return None
