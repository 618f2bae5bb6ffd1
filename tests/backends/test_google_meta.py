"""The other workbooks' tab and protection ids, kept in a hidden tab of the director workbook: a fresh
process writes a workbook it has not read without reading its metadata first, and a stale entry
never loses or doubles a write."""

from __future__ import annotations

from fakes.google import FakeClock, FakeGoogle

from sheetgm.backends.google.gateway import GoogleGateway
from sheetgm.backends.google.meta import META_TAB
from sheetgm.backends.port import AddTab, Protect, SetValues, Unprotect

GM = ("gm@example.com",)


def setup(fake: FakeGoogle, clock: FakeClock) -> dict[str, str]:
    gw = fake.gateway(clock=clock, meta_home="director")
    gw.create("player-1", "p1", ["Orders", "Results"])
    gw.write("player-1", [SetValues("Orders!A1", [["stage"]]), Protect("Results", GM, "results")])
    gw.create("director", "gm", ["Journal"])
    gw.write("director", [SetValues("Journal!A1", [["key"]])])  # carries the hidden tab
    assert META_TAB in [s.name for s in fake.books[gw.ids["director"]].sheets]
    assert gw.tabs("director") == ["Journal"] and [t.name for t in gw.view("director").tabs] == ["Journal"]
    return dict(gw.ids)


def fresh(fake: FakeGoogle, ids: dict[str, str], clock: FakeClock) -> GoogleGateway:
    gw = fake.gateway(dict(ids), clock=clock, meta_home="director")
    gw.read("director", ["Journal!A1:A"])  # a run reads the director workbook first
    fake.log.clear()
    return gw


def test_a_fresh_process_writes_without_reading_tab_ids(fake: FakeGoogle, clock: FakeClock) -> None:
    ids = setup(fake, clock)
    gw = fresh(fake, ids, clock)
    gw.write("player-1", [SetValues("Results!A2", [["night 1"]]), SetValues("Orders!A40", [["x"]])])
    assert [c.kind for c in fake.log] == ["batch_update"]
    assert gw.read("player-1", ["Results!A2", "Orders!A40"]) == {"Results!A2": [["night 1"]], "Orders!A40": [["x"]]}


def test_protections_the_tab_knows_are_replaced_without_a_read(fake: FakeGoogle, clock: FakeClock) -> None:
    ids = setup(fake, clock)
    gw = fresh(fake, ids, clock)
    gw.write("player-1", [Protect("Results", GM, "results")])
    assert [c.kind for c in fake.log] == ["batch_update"]
    assert [p.description for p in fake.books[ids["player-1"]].protected] == ["results"]


def test_a_protection_the_tab_does_not_know_is_looked_up_first(fake: FakeGoogle, clock: FakeClock) -> None:
    """A run that died before saving the tab may have made it: the ids are read, nothing is doubled."""
    ids = setup(fake, clock)
    died = fake.gateway(dict(ids), clock=clock, meta_home="director")
    died.write("player-1", [Protect("Orders!A2:G2", GM, "frozen:N1")])  # then the process dies
    gw = fresh(fake, ids, clock)
    gw.write("player-1", [Protect("Orders!A2:G2", GM, "frozen:N1")])
    assert [c.kind for c in fake.log] == ["meta", "batch_update"]
    gw.write("player-1", [Unprotect("frozen:N1")])
    assert sorted(p.description for p in fake.books[ids["player-1"]].protected) == ["results"]


def test_a_stale_entry_is_found_by_the_api_and_the_write_rebuilt_once(fake: FakeGoogle, clock: FakeClock) -> None:
    ids = setup(fake, clock)
    other = fake.gateway(dict(ids), clock=clock)  # another run, without the tab: replaces the protection
    other.write("player-1", [Protect("Results", GM, "results"), AddTab("History")])
    gw = fresh(fake, ids, clock)
    gw.write("player-1", [Protect("Results", GM, "results"), SetValues("History!A1", [["h"]])])
    kinds = [(c.kind, c.fault) for c in fake.log]
    assert [k for k, _ in kinds] == ["meta", "batch_update"]  # History unknown to the tab: read first
    fake.log.clear()
    again = fake.gateway(dict(ids), clock=clock)
    again.write("player-1", [Protect("Results", GM, "results")])  # the id the tab holds goes stale again
    gw2 = fresh(fake, ids, clock)
    gw2.write("player-1", [Protect("Results", GM, "results")])
    assert [c.kind for c in fake.log] == ["batch_update", "meta", "batch_update"]  # 400, fresh ids, rebuilt
    assert [p.description for p in fake.books[ids["player-1"]].protected] == ["results"]
    assert gw2.read("player-1", ["History!A1"]) == {"History!A1": [["h"]]}


def test_the_tab_is_brought_up_to_date_by_the_next_director_write(fake: FakeGoogle, clock: FakeClock) -> None:
    ids = setup(fake, clock)
    gw = fresh(fake, ids, clock)
    gw.write("player-1", [Protect("Orders!A2:G2", GM, "frozen:N1")])
    gw.write("director", [SetValues("Journal!A2", [["N1"]])])
    assert [c.kind for c in fake.log] == ["meta", "batch_update", "batch_update"]
    later = fresh(fake, ids, clock)
    later.write("player-1", [Unprotect("frozen:N1")])  # known now: no read
    assert [c.kind for c in fake.log] == ["batch_update"]
    assert [p.description for p in fake.books[ids["player-1"]].protected] == ["results"]
