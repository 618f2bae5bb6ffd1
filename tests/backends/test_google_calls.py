"""The Google adapter's call budget, retry policy and failure behaviour, through the fake."""

from __future__ import annotations

import copy

import pytest
from fakes.google import FakeClock, FakeGoogle

from sheetgm.backends.errors import (
    AccessError,
    BackendError,
    MissingWorkbookError,
    NetworkError,
    QuotaError,
    RangeError,
)
from sheetgm.backends.google import translate
from sheetgm.backends.google.gateway import GoogleGateway
from sheetgm.backends.port import AddTab, Protect, SetBackground, SetBorders, SetNote, SetValidation, SetValues

STAGE = [
    SetValues("Results!A2", [["第1天夜晚", "你听见了心跳"]]),
    SetBackground("Results!A2:B2", "#fff2cc"),
    SetBorders("Results!A2:B2", "outer", "thin"),
    SetValidation("Orders!C2:C40", ("是", "否")),
    SetNote("Results!A2", "stage 1"),
    Protect("Results", ("director@example.com",), "results"),
    AddTab("History"),
    SetValues("History!A1", [["1"]]),
]


def seeded(fake: FakeGoogle, clock: FakeClock, attempts: int = 5) -> tuple[GoogleGateway, str]:
    sid = fake.add_spreadsheet("player 1", ["Orders", "Results"])
    return fake.gateway({"player-1": sid}, attempts=attempts, clock=clock), sid


def test_a_first_read_is_one_get_with_the_metadata_later_ones_one_batch_get(fake: FakeGoogle, clock: FakeClock) -> None:
    gw, sid = seeded(fake, clock)
    gw.read("player-1", ["Orders!A1:F40", "Results!A:B", "Orders!H1"])
    assert [c.kind for c in fake.log] == ["meta"]
    assert fake.log[0].params["fields"] == [translate.READ_FIELDS] and "ranges" not in fake.log[0].params
    gw.read("player-1", ["Orders!A1:F40", "Results!A:B", "Orders!H1"])
    assert [c.kind for c in fake.log] == ["meta", "values_get"]
    assert fake.log[1].params["ranges"] == ["Orders!A1:F40", "Results!A:B", "Orders!H1"]


def test_a_fresh_process_reading_then_writing_a_workbook_makes_two_calls(fake: FakeGoogle, clock: FakeClock) -> None:
    gw, sid = seeded(fake, clock)
    gw.write("player-1", [*STAGE, Protect("Orders!A2:F2", ("director@example.com",), "freeze 1")])
    fresh = fake.gateway({"player-1": sid}, clock=clock)  # a scheduled run: nothing cached
    fake.log.clear()
    got = fresh.read("player-1", ["Results!A2:B2"])  # only one tab read; the write reaches others
    fresh.write("player-1", [*STAGE, Protect("Orders!A2:F2", ("director@example.com",), "freeze 1"),
                             SetValues("History!A2", [["2"]])])
    assert got == {"Results!A2:B2": [["第1天夜晚", "你听见了心跳"]]}
    assert [c.kind for c in fake.log] == ["meta", "batch_update"]
    assert sorted(p.description for p in fresh.protections("player-1")) == ["freeze 1", "results"]  # replaced
    assert fresh.tabs("player-1") == ["Orders", "Results", "History"]  # AddTab saw the tab was there
    assert fresh.read("player-1", ["History!A1:A2"]) == {"History!A1:A2": [["1"], ["2"]]}


READS = ["Orders!A1:F10", "Orders!D1:F10", "Orders!A1:B2", "Orders!A2:C4", "'Orders'!B2", "Orders", "Orders!B:B",
         "Orders!3:4", "Orders!A1:F10", "Results!A1"]


def test_the_first_read_answers_like_batch_get(fake: FakeGoogle, clock: FakeClock) -> None:
    gw, sid = seeded(fake, clock)
    gw.write("player-1", [SetValues("Orders!B2", [["x", "", ""], ["", "", ""], ["", "y", ""]]),
                          SetBackground("Orders!A1:H12", "#fff2cc"), SetNote("Orders!G9", "n")])
    first = fake.gateway({"player-1": sid}, clock=clock).read("player-1", READS)
    assert fake.log[-1].kind == "meta"
    assert gw.read("player-1", READS) == first and fake.log[-1].kind == "values_get"
    assert first["Orders!A1:F10"] == [[], ["", "x"], [], ["", "", "y"]] and first["Orders!B:B"] == [[], ["x"]]
    assert first["Orders!3:4"] == [[], ["", "", "y"]] and first["Results!A1"] == []
    with pytest.raises(RangeError) as err:
        fake.gateway({"player-1": sid}, clock=clock).read("player-1", ["Orders!A1", "Nope!A1:B2"])
    assert "Nope" in err.value.message("en")


def test_a_write_is_one_batch_update_after_one_metadata_read_per_run(fake: FakeGoogle, clock: FakeClock) -> None:
    gw, sid = seeded(fake, clock)
    gw.write("player-1", STAGE)
    assert [c.kind for c in fake.log] == ["meta", "batch_update"]
    kinds = [next(iter(r)) for r in fake.log[-1].body["requests"]]
    assert {"updateCells", "repeatCell", "updateBorders", "setDataValidation", "addProtectedRange", "addSheet"} <= set(
        kinds
    )
    gw.write("player-1", STAGE)  # a repeat replaces the protection by its description, no new metadata read
    gw.read("player-1", ["Orders!A1:F40"])
    assert [c.kind for c in fake.log] == ["meta", "batch_update", "batch_update", "values_get"]
    assert [p.description for p in gw.protections("player-1")] == ["results"]


def test_a_stage_over_many_workbooks_costs_one_read_and_one_write_each(fake: FakeGoogle, clock: FakeClock) -> None:
    ids = {f"player-{i}": fake.add_spreadsheet(f"p{i}", ["Orders", "Results"]) for i in range(10)}
    gw = fake.gateway(ids, clock=clock)
    for key in ids:
        gw.write(key, [SetValues("Orders!A1", [["header"]])])  # warms the tab-id cache once per workbook
    fake.log.clear()
    for key in ids:
        gw.read(key, ["Orders!A2:F2"])
        gw.write(key, STAGE)
    assert fake.count("values_get") == 10 and fake.count("batch_update") == 10 and fake.count() == 20


def test_create_is_one_call_with_all_tabs(fake: FakeGoogle, clock: FakeClock) -> None:
    gw = fake.gateway(clock=clock)
    gw.create("public", "公开", ["Log", "Map", "Progress"])
    assert [c.kind for c in fake.log] == ["create"]
    assert gw.tabs("public") == ["Log", "Map", "Progress"] and fake.count() == 1
    gw.write("public", [SetValues("Map!A1", [["x"]])])
    assert fake.count("meta") == 0


def test_writing_beyond_the_grid_grows_it_first(fake: FakeGoogle, clock: FakeClock) -> None:
    gw, sid = seeded(fake, clock)
    gw.write("player-1", [SetValues("Orders!AB1200", [["far"]])])
    assert gw.read("player-1", ["Orders!AB1200"]) == {"Orders!AB1200": [["far"]]}
    kinds = [next(iter(r)) for r in fake.calls("batch_update")[0].body["requests"]]
    assert kinds == ["appendDimension", "appendDimension", "updateCells"]


def test_retries_429_then_503_then_succeeds(fake: FakeGoogle, clock: FakeClock) -> None:
    gw, sid = seeded(fake, clock)
    fake.fail_on(1, 429)
    fake.fail_on(2, 503)
    assert gw.read("player-1", ["Orders!A1"]) == {"Orders!A1": []}
    assert [c.fault for c in fake.log] == [429, 503, None]
    assert gw.http.policy.waits == [1.5, 2.5]  # 2**n + jitter (0.5 here)
    assert clock.slept == [1.5, 2.5]


@pytest.mark.parametrize("fault", [408, 500, 502, "rate_limit_403", "timeout", "connection"])
def test_transient_faults_are_retried(fake: FakeGoogle, clock: FakeClock, fault: object) -> None:
    gw, sid = seeded(fake, clock)
    fake.fail_on(1, fault)  # type: ignore[arg-type]
    gw.write("player-1", [SetValues("Orders!A1", [["ok"]])])
    assert gw.read("player-1", ["Orders!A1"]) == {"Orders!A1": [["ok"]]}
    assert fake.log[0].fault == fault and len(fake.log) == 4


def test_retries_are_bounded_and_the_wait_is_capped(fake: FakeGoogle, clock: FakeClock) -> None:
    gw, sid = seeded(fake, clock, attempts=9)
    fake.fail_on(1, 429, times=100)
    with pytest.raises(NetworkError) as err:
        gw.read("player-1", ["Orders!A1"])
    assert fake.count() == 9
    assert gw.http.policy.waits == [1.5, 2.5, 4.5, 8.5, 16.5, 32.5, 64, 64]
    text = err.value.message("en")
    assert "player-1" in text and "9 attempts" in text and "429" in text


def test_a_plain_403_fails_at_once_saying_what_to_do(fake: FakeGoogle, clock: FakeClock) -> None:
    gw, sid = seeded(fake, clock)
    gw.account = "bot@game.iam.gserviceaccount.com"
    fake.fail_on(1, "forbidden")
    with pytest.raises(AccessError) as err:
        gw.read("player-1", ["Orders!A1"])
    assert fake.count() == 1 and clock.slept == []
    assert "bot@game.iam.gserviceaccount.com" in err.value.message("en") and "share" in err.value.message("en")
    assert "bot@game.iam.gserviceaccount.com" in err.value.message("zh")


def test_storage_quota_fails_at_once_pointing_to_the_user_login(fake: FakeGoogle, clock: FakeClock) -> None:
    gw = fake.gateway(clock=clock)
    fake.fail_on(1, "storage_quota")
    with pytest.raises(QuotaError) as err:
        gw.create("director", "导演", ["Config"])
    assert fake.count() == 1 and clock.slept == []
    assert "sheetgm new" in err.value.message("en") and "sheetgm new" in err.value.message("zh")
    assert not gw.exists("director")


def test_a_missing_spreadsheet_is_reported_by_key(fake: FakeGoogle, clock: FakeClock) -> None:
    gw = fake.gateway({"public": "gone"}, clock=clock)
    with pytest.raises(MissingWorkbookError) as err:
        gw.read("public", ["Log!A1"])
    assert "public" in err.value.message("en")
    assert gw.exists("public") is False


def test_the_fake_applies_a_batch_atomically(fake: FakeGoogle, clock: FakeClock) -> None:
    gw, sid = seeded(fake, clock)
    gw.write("player-1", [SetValues("Orders!A1", [["before"]])])
    before = copy.deepcopy(fake.books[sid])
    gw._meta["player-1"].tabs["Ghost"] = type(gw._meta["player-1"].tabs["Orders"])(999, 10, 10)
    with pytest.raises(BackendError) as err:
        gw.write("player-1", [SetValues("Orders!A1", [["after"]]), SetValues("Ghost!A1", [["x"]])])
    assert "999" in err.value.message("en")
    assert fake.books[sid] == before
    gw.write("player-1", [SetValues("Orders!A1", [["after"]])])  # the stale cache was dropped
    assert gw.read("player-1", ["Orders!A1"]) == {"Orders!A1": [["after"]]}


def run_stage(gw: GoogleGateway) -> None:
    gw.write("player-1", STAGE)
    gw.share("player-1", "p1@example.com", "writer")
    gw.write("player-1", [Protect("Orders!A2:F2", ("director@example.com",), "freeze 1")])


def final_state(fake: FakeGoogle, sid: str) -> object:
    book = fake.books[sid]
    return copy.deepcopy((book.sheets, [(p.range, p.editors, p.description) for p in book.protected],
                          fake.drive.grants.get(sid)))


def test_killing_a_stage_at_every_call_leaves_a_state_a_rerun_completes(clock: FakeClock) -> None:
    with FakeGoogle() as fake:
        gw, sid = seeded(fake, clock)
        run_stage(gw)
        calls, expected = fake.count(), final_state(fake, sid)
    assert calls == 5  # meta, batch_update, perm_list, perm_create, batch_update
    for n in range(1, calls + 1):
        with FakeGoogle() as fake:
            gw, sid = seeded(fake, clock, attempts=1)
            fake.fail_on(n, 500)
            with pytest.raises(BackendError):
                run_stage(gw)
            assert fake.log[n - 1].fault == 500 and fake.count() == n  # nothing ran after the failure
            run_stage(gw)  # the rerun, same process
            assert final_state(fake, sid) == expected, f"killed at call {n}"
            fresh = fake.gateway({"player-1": sid}, clock=clock)  # and a rerun in a new process
            run_stage(fresh)
            assert final_state(fake, sid) == expected, f"killed at call {n}, new process"


def test_a_single_transient_fault_at_any_call_is_absorbed(clock: FakeClock) -> None:
    for n in range(1, 6):
        with FakeGoogle() as fake:
            gw, sid = seeded(fake, clock, attempts=3)
            fake.fail_on(n, "timeout" if n % 2 else 503)
            run_stage(gw)
            assert fake.count() == 6 and fake.log[n - 1].fault is not None


def test_share_uses_drive_one_call_at_a_time(fake: FakeGoogle, clock: FakeClock) -> None:
    gw, sid = seeded(fake, clock)
    gw.share("player-1", "p1@example.com", "writer")
    gw.share("player-1", "p1@example.com", "writer")  # already so: only the list
    assert [c.kind for c in fake.log] == ["perm_list", "perm_create", "perm_list"]
    body = fake.calls("perm_create")[0]
    assert body.body["emailAddress"] == "p1@example.com" and body.params["sendNotificationEmail"] == ["false"]
    assert "withLink" not in body.body  # a v2 field gspread still sends


def test_reads_and_writes_are_paced_under_the_quota(fake: FakeGoogle, clock: FakeClock) -> None:
    gw, sid = seeded(fake, clock)
    stamps = []
    for _ in range(120):
        gw.read("player-1", ["Orders!A1"])
        stamps.append(clock.now)
    assert max(sum(1 for t in stamps if s <= t < s + 60) for s in stamps) <= 55
    assert clock.now - 1000.0 >= 120  # 120 reads at 55 a minute need two waits of a window


def test_a_write_whose_reply_was_lost_is_rebuilt_not_duplicated(fake: FakeGoogle, clock: FakeClock) -> None:
    gw, sid = seeded(fake, clock)
    gw.write("player-1", STAGE)
    fake.fail_on(fake.count() + 1, "lost_reply")  # applied, but the client sees a timeout and retries
    gw.write("player-1", STAGE)
    kinds = [c.kind for c in fake.log]
    assert kinds == ["meta", "batch_update", "batch_update", "batch_update", "meta", "batch_update"]
    assert len(fake.books[sid].protected) == 1
    assert [p.description for p in gw.protections("player-1")] == ["results"]
    assert gw.tabs("player-1") == ["Orders", "Results", "History"]


def test_a_bad_request_is_not_retried(fake: FakeGoogle, clock: FakeClock) -> None:
    gw, sid = seeded(fake, clock)
    gw.write("player-1", [SetValues("Orders!A1", [["x"]])])
    fake.books[sid].protected.clear()
    fake.log.clear()
    gw._meta["player-1"].protected[4242] = "stale"
    with pytest.raises(BackendError) as err:
        gw.write("player-1", [Protect("Orders", ("d@x.com",), "stale")])
    assert fake.count() == 1 and "400" in err.value.message("en")
