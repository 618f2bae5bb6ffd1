"""The retry policy's classification and bounds, and the rate limiter's window."""

from __future__ import annotations

import json

import pytest
import requests
from fakes.errors import HTML_502
from fakes.google import FakeClock
from gspread.exceptions import APIError
from hypothesis import given
from hypothesis import strategies as st

from sheetgm.backends.google.ratelimit import RateLimiter
from sheetgm.backends.google.retry import RetryPolicy, is_transient, reasons, status_of


def api_error(code: int, reason: str | None = None, headers: dict[str, str] | None = None) -> APIError:
    body: dict[str, object] = {"code": code, "message": "m"}
    if reason:
        body["errors"] = [{"domain": "usageLimits", "reason": reason}]
    resp = requests.Response()
    resp.status_code = code
    resp._content = json.dumps({"error": body}).encode()
    resp.headers.update(headers or {})
    return APIError(resp)


@pytest.mark.parametrize(
    ("exc", "transient"),
    [
        (api_error(408), True), (api_error(429), True), (api_error(500), True), (api_error(503), True),
        (api_error(403, "userRateLimitExceeded"), True), (api_error(403, "rateLimitExceeded"), True),
        (api_error(403), False), (api_error(403, "storageQuotaExceeded"), False),
        (api_error(403, "insufficientFilePermissions"), False), (api_error(400), False), (api_error(404), False),
        (requests.exceptions.ReadTimeout(), True), (requests.exceptions.ConnectionError(), True),
        (ValueError("bug"), False),
    ],
)
def test_what_is_retried(exc: BaseException, transient: bool) -> None:
    assert is_transient(exc) is transient


def test_a_permanent_error_is_raised_after_one_attempt() -> None:
    clock = FakeClock()
    policy = RetryPolicy(attempts=5, sleep=clock.sleep)
    calls = []

    def fail() -> None:
        calls.append(1)
        raise api_error(403, "storageQuotaExceeded")

    with pytest.raises(APIError):
        policy.call(fail)
    assert len(calls) == 1 and clock.slept == [] and policy.last_attempts == 1


def test_retry_after_is_honoured_up_to_the_cap() -> None:
    clock = FakeClock()
    policy = RetryPolicy(attempts=3, sleep=clock.sleep, jitter=lambda: 0.0)
    errors = [api_error(429, headers={"Retry-After": "30"}), api_error(429, headers={"Retry-After": "999"})]

    def flaky() -> str:
        if errors:
            raise errors.pop(0)
        return "ok"

    assert policy.call(flaky) == "ok"
    assert clock.slept == [30.0, 64.0] and policy.last_attempts == 3


# -- real failure bodies ------------------------------------------------------------------------------

# Sheets v4 past a per-user quota names the reason only in ``details`` (an ErrorInfo), never in
# ``errors`` as Drive does; this is the shape Google answers (e.g. Sage-Bionetworks/data_curator#110).
SHEETS_RATE_LIMIT = {
    "message": "Quota exceeded for quota metric 'Write requests' and limit 'Write requests per minute per user' "
               "of service 'sheets.googleapis.com' for consumer 'project_number:269908437164'.",
    "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "RATE_LIMIT_EXCEEDED",
                 "domain": "googleapis.com",
                 "metadata": {"consumer": "projects/269908437164", "quota_limit": "WriteRequestsPerMinutePerUser",
                              "quota_metric": "sheets.googleapis.com/write_requests",
                              "service": "sheets.googleapis.com"}}],
}


def google_answer(status: int, body: str, content_type: str = "application/json; charset=UTF-8") -> APIError:
    resp = requests.Response()
    resp.status_code = status
    resp._content = body.encode()
    resp.headers["Content-Type"] = content_type
    return APIError(resp)


def sheets_rate_limit(status: int, details: bool = True) -> APIError:
    canonical = {429: "RESOURCE_EXHAUSTED", 403: "PERMISSION_DENIED"}[status]
    error = {"code": status, "message": SHEETS_RATE_LIMIT["message"], "status": canonical}
    if details:
        error["details"] = SHEETS_RATE_LIMIT["details"]
    return google_answer(status, json.dumps({"error": error}))


def retried(err: APIError, failures: int = 2) -> tuple[str, FakeClock, RetryPolicy]:
    clock = FakeClock()
    policy = RetryPolicy(attempts=5, sleep=clock.sleep, jitter=lambda: 0.0)
    left = [err] * failures

    def flaky() -> str:
        if left:
            raise left.pop()
        return "ok"

    return policy.call(flaky), clock, policy


def test_an_html_502_page_from_googles_front_end_is_retried() -> None:
    err = google_answer(502, HTML_502, "text/html; charset=UTF-8")
    assert err.code == -1 and status_of(err) == 502  # gspread cannot read the page; the HTTP status counts
    assert is_transient(err)
    result, clock, policy = retried(err)
    assert result == "ok" and clock.slept == [1.0, 2.0] and policy.last_attempts == 3


@pytest.mark.parametrize("status", [429, 403])
def test_a_rate_limit_named_only_in_the_error_details_is_retried(status: int) -> None:
    err = sheets_rate_limit(status)
    assert reasons(err) == {"RATE_LIMIT_EXCEEDED"}
    assert is_transient(err)
    result, clock, policy = retried(err)
    assert result == "ok" and policy.last_attempts == 3


def test_a_403_without_a_rate_limit_reason_is_not_retried() -> None:
    err = sheets_rate_limit(403, details=False)
    assert reasons(err) == set() and not is_transient(err)
    with pytest.raises(APIError):
        retried(err)


@given(st.integers(min_value=1, max_value=12), st.floats(min_value=0, max_value=1))
def test_waits_grow_and_stay_bounded(attempts: int, jitter: float) -> None:
    clock = FakeClock()
    policy = RetryPolicy(attempts=attempts, sleep=clock.sleep, jitter=lambda: jitter)
    with pytest.raises(APIError):
        policy.call(lambda: (_ for _ in ()).throw(api_error(503)))
    assert len(clock.slept) == attempts - 1
    assert all(w <= 64 for w in clock.slept)
    assert clock.slept == [min(2**n + jitter, 64) for n in range(attempts - 1)]


@given(st.lists(st.sampled_from(["read", "write"]), max_size=300), st.integers(min_value=1, max_value=60))
def test_no_window_holds_more_than_the_limit(kinds: list[str], limit: int) -> None:
    clock = FakeClock()
    limiter = RateLimiter(reads=limit, writes=limit, clock=clock.time, sleep=clock.sleep)
    stamps: dict[str, list[float]] = {"read": [], "write": []}
    for kind in kinds:
        limiter.acquire(kind)
        stamps[kind].append(clock.now)
    for times in stamps.values():
        for start in times:
            assert sum(1 for t in times if start <= t < start + 60) <= limit


def test_reads_do_not_wait_for_writes() -> None:
    clock = FakeClock()
    limiter = RateLimiter(reads=2, writes=2, clock=clock.time, sleep=clock.sleep)
    for _ in range(2):
        limiter.acquire("write")
    limiter.acquire("read")
    limiter.acquire("read")
    assert clock.slept == [] and limiter.count("read") == 2
    limiter.acquire("write")
    assert clock.slept == [60.0] and limiter.waited == 60.0


def test_limits_must_be_positive() -> None:
    with pytest.raises(ValueError):
        RateLimiter(reads=0)
