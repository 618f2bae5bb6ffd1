"""Our retry policy for Google API calls (instead of gspread's BackOffHTTPClient,
which retries a permanent 429 forever and also retries storage-quota 403s).

Retried: HTTP 408, 429, 5xx (also when the front end answers a page that is
not JSON: gspread then reports code -1, so the HTTP status is what counts), a
Drive 403 whose reason is a rate limit (``userRateLimitExceeded``,
``sharingRateLimitExceeded``, ...), and network timeouts / connection errors. Never retried: a plain 403 (no access)
and a 403 ``storageQuotaExceeded``: waiting cannot fix them. The wait before
retry n (0-based) is ``min(2**n + jitter, cap)`` seconds, longer if the server
sent Retry-After, and the number of attempts is bounded.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import Any, TypeVar

import requests
from gspread.exceptions import APIError
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt

from sheetgm.core.values import field, record

log = logging.getLogger(__name__)
T = TypeVar("T")

RATE_LIMIT_REASONS = frozenset({"userRateLimitExceeded", "rateLimitExceeded", "sharingRateLimitExceeded",
                                "RATE_LIMIT_EXCEEDED"})
STORAGE_QUOTA_REASON = "storageQuotaExceeded"


def reasons(err: APIError) -> set[str]:
    """The ``reason`` fields of a Google error (Drive puts them in ``errors``, Sheets in ``details``)."""
    body = err.error if isinstance(err.error, dict) else {}
    found = set()
    for item in list(body.get("errors") or []) + list(body.get("details") or []):
        if isinstance(item, dict) and isinstance(item.get("reason"), str):
            found.add(item["reason"])
    return found


def status_of(err: APIError) -> int:
    """The HTTP status of an API error. gspread reads it from the JSON body and says -1 when the body
    is not JSON (an HTML 502 page from Google's front end): then the response's own status counts."""
    if isinstance(err.code, int) and err.code > 0:
        return err.code
    response = getattr(err, "response", None)
    return int(getattr(response, "status_code", 0) or 0)


def is_transient(exc: BaseException) -> bool:
    if isinstance(exc, requests.exceptions.Timeout | requests.exceptions.ConnectionError):
        return True
    if isinstance(exc, APIError):
        code = status_of(exc)
        if code in (408, 429) or code >= 500:
            return True
        if code == 403:
            found = reasons(exc)
            return bool(found & RATE_LIMIT_REASONS) and STORAGE_QUOTA_REASON not in found
    return False


def _retry_after(exc: BaseException | None) -> float:
    if isinstance(exc, APIError):
        value = exc.response.headers.get("Retry-After", "") if exc.response is not None else ""
        if value.strip().isdigit():
            return float(value)
    return 0.0


@record
class RetryPolicy:
    attempts: int = 6
    cap: float = 64.0
    sleep: Callable[[float], None] = time.sleep
    jitter: Callable[[], float] = random.random
    waits: list[float] = field(default_factory=list)  # every wait taken, for tests and logs
    last_attempts: int = 0  # attempts made by the last call

    def wait_for(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        base = min(2 ** (state.attempt_number - 1) + self.jitter(), self.cap)
        return float(min(max(base, _retry_after(exc)), self.cap))

    def call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        retrying = Retrying(
            stop=stop_after_attempt(self.attempts),
            wait=self.wait_for,
            retry=retry_if_exception(is_transient),
            sleep=self.sleep,
            reraise=True,
            before_sleep=self._before_sleep,
        )
        try:
            return retrying(fn, *args, **kwargs)
        finally:
            self.last_attempts = int(retrying.statistics.get("attempt_number", 1))


    def _before_sleep(self, state: RetryCallState) -> None:
        wait = state.next_action.sleep if state.next_action else 0.0
        self.waits.append(wait)
        exc = state.outcome.exception() if state.outcome else None
        what = f"HTTP {status_of(exc)}" if isinstance(exc, APIError) else type(exc).__name__
        log.warning("Google API call failed (%s), attempt %d; retrying in %.1f s", what, state.attempt_number, wait)
