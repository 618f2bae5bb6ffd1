"""One Sheets budget per account on a machine: the pacing log shared by every process (a file under an OS lock),
held to Google's per-minute quotas as the fake enforces them; the fake's quota answer; Drive calls not paced."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest
from fakes.google import FakeClock, FakeGoogle
from fakes.virtualclock import VirtualClock
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetgm.backends.errors import NetworkError
from sheetgm.backends.google.ratelimit import RateLimiter, SharedRateLimiter, budget_file, quota_per_minute
from sheetgm.backends.port import SetValues

ACCOUNT = "gm-bot@game-1.iam.gserviceaccount.com"


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.sampled_from(["read", "write"])), max_size=120))
def test_two_limiters_on_one_log_never_exceed_the_window_together(calls: list[tuple[int, str]]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        clock = FakeClock()
        path = Path(tmp) / "quota.json"
        both = [SharedRateLimiter(path, 5, 5, clock=clock.time, sleep=clock.sleep) for _ in range(2)]
        stamps: dict[str, list[float]] = {"read": [], "write": []}
        for who, kind in calls:
            both[who].acquire(kind)
            stamps[kind].append(clock.now)
        for times in stamps.values():
            for start in times:
                assert sum(1 for t in times if start <= t < start + 60) <= 5


def test_the_log_names_no_address_and_survives_damage(tmp_path: Path) -> None:
    path = budget_file(ACCOUNT, tmp_path)
    assert "gserviceaccount" not in path.name and "@" not in path.name
    assert budget_file(ACCOUNT.upper(), tmp_path) == path  # one account, one log
    path.write_text("{not json")
    clock = FakeClock()
    limiter = SharedRateLimiter(path, 2, 2, clock=clock.time, sleep=clock.sleep)
    for _ in range(3):
        limiter.acquire("read")
    assert clock.slept == [60.0] and json.loads(path.read_text())["read"]


def test_an_unusable_log_falls_back_to_pacing_this_process(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    clock = FakeClock()
    limiter = SharedRateLimiter(blocker / "quota.json", 2, 2, clock=clock.time, sleep=clock.sleep)  # not a folder
    for _ in range(3):
        limiter.acquire("write")
    assert clock.slept == [60.0] and "pacing this process alone" in caplog.text


def test_a_raised_quota_is_read_from_the_environment() -> None:
    assert quota_per_minute({}) == 60
    assert quota_per_minute({"SHEETGM_QUOTA": "300"}) == 300
    assert quota_per_minute({"SHEETGM_QUOTA": "lots"}) == 60


def test_the_fake_answers_googles_429_past_the_quota_and_does_not_count_it() -> None:
    clock = FakeClock()
    with FakeGoogle() as fake:
        gw = fake.gateway(clock=clock)
        gw.create("a", "A", ["T"])
        fake.enforce_quota(reads=2, writes=60, clock=clock.time)
        gw.http.limiter = RateLimiter(reads=1000, writes=1000, clock=clock.time, sleep=clock.sleep)  # no pacing
        gw.http.policy.attempts = 1
        gw.read("a", ["T!A1"])
        gw.read("a", ["T!A1"])
        start = len(fake.log)
        with pytest.raises(NetworkError) as err:
            gw.read("a", ["T!A1"])
        assert "429" in str(err.value.message("en"))
        assert fake.log[start].fault == "quota"
        body = json.loads(_last_body(fake))
        assert body["error"]["status"] == "RESOURCE_EXHAUSTED"
        assert body["error"]["details"][0]["reason"] == "RATE_LIMIT_EXCEEDED"
        assert body["error"]["details"][0]["metadata"]["quota_limit"] == "ReadRequestsPerMinutePerUser"
        assert fake.refused() == 1
        gw.write("a", [SetValues("T!A1", (("x",),))])  # writes have their own count
        clock.sleep(60)
        assert gw.read("a", ["T!A1"]) == {"T!A1": [["x"]]}  # a new minute: admitted (the refusal did not count)


def _last_body(fake: FakeGoogle) -> str:
    return str(fake.mock.calls[-1].response.text)


def test_drive_calls_are_not_paced_by_the_sheets_budget() -> None:
    clock = FakeClock()
    with FakeGoogle() as fake:
        gw = fake.gateway(clock=clock)
        gw.create("a", "A", ["T"])
        gw.http.limiter = RateLimiter(reads=1, writes=1, clock=clock.time, sleep=clock.sleep)
        for _ in range(5):
            gw.revisions(["a"])
            gw.permissions("a")
        assert clock.slept == []


def night_of_calls(fake: FakeGoogle, clock: VirtualClock, sid: str, limiter: RateLimiter, n: int,
                   failed: list[str]) -> None:
    """A process (a thread here, with its own gateway) making ``n`` reads and ``n`` writes as fast as it can."""
    clock.join()
    try:
        gw = fake.gateway(ids={"a": sid})
        gw.http.limiter = limiter
        gw.http.policy.sleep = clock.sleep
        for i in range(n):
            gw.read("a", ["T!A1"])
            gw.write("a", [SetValues("T!A1", ((f"{id(gw)}-{i}",),))])
    except NetworkError as exc:  # retries ran out: the run stops
        failed.append(exc.message("en"))
    finally:
        clock.leave()


@pytest.mark.parametrize("shared", [False, True])
def test_two_processes_of_one_account_draw_no_429_with_the_shared_log(tmp_path: Path, shared: bool) -> None:
    clock = VirtualClock()
    with FakeGoogle() as fake:
        sid = fake.add_spreadsheet("A", ["T"])
        fake.enforce_quota(clock=clock.time)

        def limiter() -> RateLimiter:
            if shared:
                return SharedRateLimiter(tmp_path / "quota.json", clock=clock.time, sleep=clock.sleep)
            return RateLimiter(clock=clock.time, sleep=clock.sleep)

        failed: list[str] = []
        threads = [threading.Thread(target=night_of_calls, args=(fake, clock, sid, limiter(), 80, failed))
                   for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        done = [c for c in fake.log if c.fault is None and c.kind in ("values_get", "batch_update", "meta")]
        if shared:
            assert fake.refused() == 0 and failed == [] and len(done) == 2 * 80 * 2
            assert clock.now - 1000.0 >= 120  # 160 reads at 55 a minute take over two minutes
        else:
            assert fake.refused() > 0  # two budgets of 55 against one quota of 60: 429s, even failed runs


def _huge(path: Path) -> None:
    with open(path, "wb") as f:
        f.truncate(1 << 30)  # 1 GB, sparse: read whole it would cost a gigabyte of memory


@pytest.mark.parametrize("damage", [
    lambda p: p.write_bytes(b"[" * 200_000),  # nested: no RecursionError
    lambda p: p.write_bytes(b'{"read": [[[[1]]]], "write": "x"}'),  # another shape
    lambda p: p.write_bytes(b'{"read": ' + b"1," * 10 + b"}"),  # cut
    _huge,
])
def test_a_damaged_log_is_started_anew(damage: Any, tmp_path: Path) -> None:
    path = budget_file(ACCOUNT, tmp_path)
    damage(path)
    clock = FakeClock()
    limiter = SharedRateLimiter(path, 2, 2, clock=clock.time, sleep=clock.sleep)
    for _ in range(3):
        limiter.acquire("read")
    assert clock.slept == [60.0] and limiter.shared and json.loads(path.read_text())["read"] == [clock.now]


@pytest.mark.parametrize("kind", ["symlink", "fifo"])
def test_a_link_or_a_fifo_in_place_of_the_log_is_never_opened(kind: str, tmp_path: Path,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    """A link is not followed (its target is neither read nor overwritten) and a FIFO is not waited on: this
    process paces itself alone, with a warning."""
    path = budget_file(ACCOUNT, tmp_path)
    victim = tmp_path / "victim"
    victim.write_text("the director's own file")
    if kind == "symlink":
        path.symlink_to(victim)
    else:
        os.mkfifo(path)
    clock = FakeClock()
    limiter = SharedRateLimiter(path, 2, 2, clock=clock.time, sleep=clock.sleep)
    for _ in range(3):
        limiter.acquire("read")
    assert clock.slept == [60.0] and not limiter.shared and "pacing this process alone" in caplog.text
    assert victim.read_text() == "the director's own file"


def test_a_cache_folder_open_to_others_is_not_used_for_the_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sheetgm.backends.google.ratelimit import shared_limiter
    from sheetgm.core import cachedir

    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)
    monkeypatch.setenv(cachedir.CACHE_ENV, str(shared))
    cachedir.forget()
    try:
        limiter = shared_limiter(ACCOUNT)
        assert type(limiter) is RateLimiter and list(shared.iterdir()) == []
        assert cachedir.refusal() == (shared, "open")
        monkeypatch.setenv(cachedir.CACHE_ENV, str(tmp_path / "mine"))
        assert isinstance(shared_limiter(ACCOUNT), SharedRateLimiter)
        assert (tmp_path / "mine").stat().st_mode & 0o777 == 0o700  # made owner-only
    finally:
        cachedir.forget()
