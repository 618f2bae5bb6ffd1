"""The retry policy's edges (backends/google/retry.py): what a Google error says, the defaults, what is logged.

test_retry_and_pacing.py covers the policy's shape (what is retried, the waits); these pin down each edge a
changed comparison or default would move.
"""

from __future__ import annotations

import json
import logging

import pytest
import requests
from fakes.google import FakeClock
from gspread.exceptions import APIError

from sheetgm.backends.google.retry import RetryPolicy, is_transient, reasons, status_of


def answer(status: int, body: object, headers: dict[str, str] | None = None) -> APIError:
    resp = requests.Response()
    resp.status_code = status
    resp._content = (body if isinstance(body, str) else json.dumps(body)).encode()
    resp.headers.update(headers or {})
    return APIError(resp)


def failing(err: BaseException, times: int) -> tuple[list[int], object]:
    calls: list[int] = []

    def fn() -> str:
        calls.append(1)
        if len(calls) <= times:
            raise err
        return "ok"

    return calls, fn


def test_reasons_come_from_errors_and_details_and_ignore_what_is_not_a_reason() -> None:
    err = answer(403, {"error": {"code": 403, "errors": [{"reason": "a"}, {"domain": "x"}, "text", {"reason": 7}],
                                 "details": [{"reason": "b"}, None]}})
    assert reasons(err) == {"a", "b"}
    assert reasons(answer(403, {"error": {"code": 403, "errors": None, "details": None}})) == set()


def test_reasons_of_an_error_whose_body_is_not_an_object() -> None:
    err = answer(403, {"error": {"code": 403}})
    err.error = "Forbidden"  # type: ignore[assignment]  # what gspread keeps when the body is not a JSON object
    assert reasons(err) == set()
    assert not is_transient(err)


def test_the_status_is_the_codes_when_positive_else_the_responses() -> None:
    err = answer(503, {"error": {"code": 429, "message": "m"}})
    assert status_of(err) == 429  # the body's code counts when gspread could read one
    zero = answer(503, {"error": {"code": 0, "message": "m"}})
    assert status_of(zero) == 503
    one = answer(503, {"error": {"code": 1, "message": "m"}})
    assert status_of(one) == 1
    gone = answer(503, {"error": {"code": -1, "message": "m"}})
    gone.response = None  # type: ignore[assignment]
    assert status_of(gone) == 0 and not is_transient(gone)


@pytest.mark.parametrize(("code", "transient"), [
    (407, False), (408, True), (409, False), (428, False), (429, True), (430, False),
    (499, False), (500, True), (599, True), (402, False), (404, False),
])
def test_which_statuses_are_retried(code: int, transient: bool) -> None:
    assert is_transient(answer(code, {"error": {"code": code, "message": "m"}})) is transient


@pytest.mark.parametrize(("found", "transient"), [
    (["sharingRateLimitExceeded"], True), (["RATE_LIMIT_EXCEEDED"], True),
    (["userRateLimitExceeded", "storageQuotaExceeded"], False),  # waiting cannot free storage
    (["dailyLimitExceeded"], False),
])
def test_a_403_is_retried_only_for_a_rate_limit(found: list[str], transient: bool) -> None:
    err = answer(403, {"error": {"code": 403, "errors": [{"reason": r} for r in found]}})
    assert is_transient(err) is transient


def test_the_defaults_make_six_attempts_with_waits_capped_at_64_seconds() -> None:
    clock = FakeClock()
    policy = RetryPolicy(sleep=clock.sleep, jitter=lambda: 0.5)
    calls, fn = failing(answer(503, {"error": {"code": 503, "message": "m"}}), 99)
    with pytest.raises(APIError):
        policy.call(fn)  # type: ignore[arg-type]
    assert len(calls) == 6 and policy.last_attempts == 6
    assert clock.slept == [1.5, 2.5, 4.5, 8.5, 16.5] == policy.waits
    capped = RetryPolicy(attempts=9, sleep=clock.sleep, jitter=lambda: 0.5)
    with pytest.raises(APIError):
        capped.call(failing(answer(503, {"error": {"code": 503, "message": "m"}}), 99)[1])  # type: ignore[arg-type]
    assert capped.waits == [1.5, 2.5, 4.5, 8.5, 16.5, 32.5, 64.0, 64.0]


@pytest.mark.parametrize(("header", "waits"), [
    ("5", [5.0]), (" 7 ", [7.0]), ("0", [1.0]), ("Wed, 21 Oct 2025 07:28:00 GMT", [1.0]), ("1.5", [1.0]), ("", [1.0]),
])
def test_retry_after_in_seconds_lengthens_the_wait_and_anything_else_is_ignored(header: str, waits: list[float]
                                                                                 ) -> None:
    clock = FakeClock()
    policy = RetryPolicy(sleep=clock.sleep, jitter=lambda: 0.0)
    calls, fn = failing(answer(429, {"error": {"code": 429, "message": "m"}}, {"Retry-After": header}), 1)
    assert policy.call(fn) == "ok"  # type: ignore[arg-type]
    assert clock.slept == waits and policy.waits == waits and policy.last_attempts == 2


def test_a_network_error_waits_without_retry_after() -> None:
    clock = FakeClock()
    policy = RetryPolicy(sleep=clock.sleep, jitter=lambda: 0.25)
    calls, fn = failing(requests.exceptions.ConnectionError(), 2)
    assert policy.call(fn) == "ok"  # type: ignore[arg-type]
    assert clock.slept == [1.25, 2.25] and len(calls) == 3


def test_a_success_at_once_counts_one_attempt_and_no_wait() -> None:
    clock = FakeClock()
    policy = RetryPolicy(sleep=clock.sleep)
    policy.last_attempts = 9
    assert policy.call(lambda x, y=0: x + y, 2, y=3) == 5
    assert policy.last_attempts == 1 and policy.waits == [] and clock.slept == []


def test_each_retry_is_logged_with_its_status_attempt_and_wait(caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()
    policy = RetryPolicy(sleep=clock.sleep, jitter=lambda: 0.0)
    caplog.set_level(logging.WARNING, logger="sheetgm.backends.google.retry")
    policy.call(failing(answer(502, {"error": {"code": 502, "message": "m"}}), 1)[1])  # type: ignore[arg-type]
    policy.call(failing(requests.exceptions.ReadTimeout(), 1)[1])  # type: ignore[arg-type]
    assert [r.getMessage() for r in caplog.records] == [
        "Google API call failed (HTTP 502), attempt 1; retrying in 1.0 s",
        "Google API call failed (ReadTimeout), attempt 1; retrying in 1.0 s",
    ]
    assert all(r.levelno == logging.WARNING and r.name == "sheetgm.backends.google.retry" for r in caplog.records)


def test_an_error_without_a_response_is_retried_on_its_code_alone() -> None:
    err = answer(503, {"error": {"code": 503, "message": "m"}})
    err.response = None  # type: ignore[assignment]  # no headers to read a Retry-After from
    clock = FakeClock()
    policy = RetryPolicy(sleep=clock.sleep, jitter=lambda: 0.0)
    calls, fn = failing(err, 1)
    assert policy.call(fn) == "ok"  # type: ignore[arg-type]
    assert clock.slept == [1.0] and len(calls) == 2
