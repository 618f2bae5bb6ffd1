"""The Google adapter sends only the values that change, and lists the workbooks' versions in one call."""

from __future__ import annotations

import pytest
from fakes.google import FakeGoogle

from sheetgm.backends.errors import BackendError
from sheetgm.backends.port import AddTab, ClearRange, SetBold, SetValues


def writes(fake: FakeGoogle) -> int:
    return fake.count("batch_update")


def test_a_write_of_what_is_already_there_costs_no_call() -> None:
    with FakeGoogle() as fake:
        gw = fake.gateway()
        gw.create("a", "A", ["T", "U"])
        gw.write("a", [SetValues("T!A1:B2", (("x", "y"), ("z", "")))])
        fresh = fake.gateway(ids=gw.ids)  # a new process: knows nothing until it reads
        fresh.write("a", [SetValues("T!A1", (("x",),))])
        assert writes(fake) == 2
        assert fresh.read("a", ["T!A1:B2"]) == {"T!A1:B2": [["x", "y"], ["z"]]}
        n = writes(fake)
        fresh.write("a", [SetValues("T!A1:B2", (("x", "y"), ("z", "")))])
        fresh.write("a", [SetValues("T!B2", (("",),))])  # empty, as read
        assert writes(fake) == n
        fresh.write("a", [SetValues("T!A1:B2", (("x", "y"), ("z", "w")))])  # one cell differs: the op is sent
        assert writes(fake) == n + 1 and fake.calls("batch_update")[-1].body["requests"][0]["updateCells"]
        # a bounded range empties what its rows leave out: not the same as what is there
        fresh.write("a", [SetValues("T!A1:B2", (("x", "y"),))])
        assert fresh.read("a", ["T!A1:B2"]) == {"T!A1:B2": [["x", "y"]]}


def test_formats_are_always_sent_and_a_clear_before_a_write_is_honoured() -> None:
    with FakeGoogle() as fake:
        gw = fake.gateway()
        gw.create("a", "A", ["T"])
        gw.write("a", [SetValues("T!A1", (("x",),))])
        n = writes(fake)
        gw.write("a", [SetValues("T!A1", (("x",),)), SetBold("T!A1")])
        assert writes(fake) == n + 1
        assert [next(iter(r)) for r in fake.calls("batch_update")[-1].body["requests"]] == ["repeatCell"]
        gw.write("a", [ClearRange("T!A1:A"), SetValues("T!A1", (("x",),))])  # the value comes back after the clear
        assert gw.read("a", ["T!A1"]) == {"T!A1": [["x"]]}


def test_what_is_known_is_forgotten_when_a_write_fails() -> None:
    with FakeGoogle() as fake:
        gw = fake.gateway(attempts=1)
        gw.create("a", "A", ["T"])
        gw.write("a", [SetValues("T!A1", (("x",),))])
        fake.fail_on(len(fake.log) + 1, 500)
        with pytest.raises(BackendError):
            gw.write("a", [SetValues("T!A1", (("y",),))])
        n = writes(fake)
        gw.write("a", [SetValues("T!A1", (("x",),))])  # the failed write may have landed: it is sent
        assert writes(fake) == n + 1


def test_one_listing_gives_every_version_and_pages_only_while_one_is_missing() -> None:
    with FakeGoogle() as fake:
        gw = fake.gateway()
        for key in ("a", "b", "c"):
            gw.create(key, key.upper(), ["T"])
        fake.add_spreadsheet("someone else's", ["T"], owner="other@example.com")  # not visible: not listed
        start = len(fake.log)
        found = gw.revisions(["a", "b", "c", "not-made"])
        assert sorted(found) == ["a", "b", "c"] and fake.count("file_list") == 1
        assert fake.log[start].params["fields"] == ["nextPageToken,files(id,version,modifiedTime)"]
        before = found["b"]
        gw.write("b", [SetValues("T!A1", (("x",),))])
        after = gw.revisions(["a", "b"])
        assert after["b"] != before and after["a"] == found["a"]
        # a small page: the next one is asked only while a wanted file is missing
        import sheetgm.backends.google.gateway as gateway_module

        fake_page = fake._file_list

        def tiny(who, params, body):  # type: ignore[no-untyped-def]
            return fake_page(who=who, params={**params, "pageSize": ["1"]}, body=body)

        fake._handlers["file_list"] = tiny
        start = len(fake.log)
        assert sorted(gw.revisions(["b"])) == ["b"] and len(fake.log) - start == 1  # changed last: listed first
        start = len(fake.log)
        assert sorted(gw.revisions(["a", "b", "c"])) == ["a", "b", "c"] and len(fake.log) - start == 3
        assert gateway_module.LISTING_FIELDS.startswith("nextPageToken")


def test_the_fake_lets_only_the_owner_delete_a_file() -> None:
    with FakeGoogle(account="gm@example.com") as fake:
        owner = fake.gateway()
        owner.create("a", "A", ["T"])
        owner.share("a", "bot@p.iam.gserviceaccount.com", "writer")
        bot = fake.gateway(ids=owner.ids, acting_as="bot@p.iam.gserviceaccount.com")
        url = f"https://www.googleapis.com/drive/v3/files/{owner.ids['a']}"
        assert bot.http.session.delete(url).status_code == 403
        assert owner.http.session.delete(url).status_code == 204
        assert not owner.exists("a")


def sent_cells(fake: FakeGoogle) -> list[tuple[int, int]]:
    """The top left cells (row, column) of the ranges the last batchUpdate wrote values to."""
    return [(r["updateCells"]["range"]["startRowIndex"], r["updateCells"]["range"]["startColumnIndex"])
            for r in fake.calls("batch_update")[-1].body["requests"] if "updateCells" in r]


def test_of_several_value_writes_only_those_that_change_a_cell_are_sent() -> None:
    with FakeGoogle() as fake:
        gw = fake.gateway()
        gw.create("a", "A", ["T"])
        gw.write("a", [SetValues("T!A1", (("x",),)), SetValues("T!B1", (("y",),)), SetValues("T!C1", (("z",),))])
        n = writes(fake)
        gw.write("a", [SetValues("T!A1", (("x",),)), SetValues("T!B1", (("new",),)), SetValues("T!C1", (("z",),))])
        assert writes(fake) == n + 1
        assert sent_cells(fake) == [(0, 1)]  # B1 alone
        assert gw.read("a", ["T!A1:C1"]) == {"T!A1:C1": [["x", "new", "z"]]}


def test_a_hand_edit_made_after_the_read_is_kept_until_the_next_run_writes_it() -> None:
    """known.py: the comparison is with what this run read; a cell edited by hand since keeps its edit when the
    run's write would not change what it read, and the next run, which reads the edit, writes the cell again."""
    with FakeGoogle() as fake:
        gw = fake.gateway()
        gw.create("a", "A", ["T"])
        gw.write("a", [SetValues("T!A1:B1", (("x", "y"),))])
        hand = fake.gateway(ids=gw.ids)  # the director typing in the browser: another client
        hand.write("a", [SetValues("T!A1", (("by hand",),))])
        n = writes(fake)
        gw.write("a", [SetValues("T!A1:B1", (("x", "y"),))])  # what this run read: nothing sent
        assert writes(fake) == n
        assert hand.read("a", ["T!A1:B1"]) == {"T!A1:B1": [["by hand", "y"]]}
        gw.write("a", [SetValues("T!A1:B1", (("x", "changed"),))])  # a value that changes: the op is sent whole
        assert hand.read("a", ["T!A1:B1"]) == {"T!A1:B1": [["x", "changed"]]}
        hand.write("a", [SetValues("T!A1", (("by hand",),))])
        nxt = fake.gateway(ids=gw.ids)  # the next run reads the edit, and writes the cell again
        assert nxt.read("a", ["T!A1"]) == {"T!A1": [["by hand"]]}
        nxt.write("a", [SetValues("T!A1:B1", (("x", "changed"),))])
        assert hand.read("a", ["T!A1:B1"]) == {"T!A1:B1": [["x", "changed"]]}


def test_a_value_written_back_after_the_cell_was_emptied_is_sent() -> None:
    with FakeGoogle() as fake:
        gw = fake.gateway()
        gw.create("a", "A", ["T"])
        gw.write("a", [SetValues("T!A1", (("x",),))])
        gw.write("a", [SetValues("T!A1", (("",),))])
        gw.write("a", [SetValues("T!A1", (("x",),))])
        assert fake.gateway(ids=gw.ids).read("a", ["T!A1"]) == {"T!A1": [["x"]]}


def test_a_bounded_write_whose_left_out_cells_are_already_empty_costs_no_call() -> None:
    with FakeGoogle() as fake:
        gw = fake.gateway()
        gw.create("a", "A", ["T"])
        gw.write("a", [SetValues("T!A1:B3", (("x", "y"),))])  # rows 2-3 empty, as the range says
        n = writes(fake)
        gw.write("a", [SetValues("T!A1:B3", (("x", "y"),))])
        assert writes(fake) == n
        fresh = fake.gateway(ids=gw.ids)  # what it knows is what it read, not what it wrote
        assert fresh.read("a", ["T!A1:B3"]) == {"T!A1:B3": [["x", "y"]]}
        fresh.write("a", [SetValues("T!A1:B3", (("x", "y"),))])
        assert writes(fake) == n


def test_a_range_read_forgets_nothing_outside_it() -> None:
    """What a read of one range learns replaces what was known inside it only: emptying a cell just below it,
    just right of it, or on another tab is still sent."""
    with FakeGoogle() as fake:
        gw = fake.gateway()
        gw.create("a", "A", ["T", "U"])
        gw.write("a", [SetValues("T!A1:C3", (("a1", "b1", "c1"), ("a2", "b2", "c2"), ("a3", "b3", "c3")))])
        assert gw.read("a", ["T!A1:B1", "T!C2:C3", "U!A1:C3"]) == {"T!A1:B1": [["a1", "b1"]],
                                                                   "T!C2:C3": [["c2"], ["c3"]], "U!A1:C3": []}
        gw.write("a", [SetValues("T!A2", (("",),))])  # the row below A1:B1
        gw.write("a", [SetValues("T!C1", (("",),))])  # the column right of A1:B1 (and above C2:C3)
        gw.write("a", [SetValues("T!B3", (("",),))])  # left of C2:C3, on the rows U!A1:C3 covers
        assert fake.gateway(ids=gw.ids).read("a", ["T!A1:C3"]) == {
            "T!A1:C3": [["a1", "b1"], ["", "b2", "c2"], ["a3", "", "c3"]]}


def test_cells_never_read_are_written_whatever_is_known_beside_them() -> None:
    """A tab added in this run is unknown except the ranges read since: emptying a cell outside them is sent,
    though an empty value is what a known empty cell would hold."""
    with FakeGoogle() as fake:
        gw = fake.gateway()
        gw.create("a", "A", ["T"])
        gw.write("a", [AddTab("U")])
        assert gw.read("a", ["U!A1:B1"]) == {"U!A1:B1": []}
        hand = fake.gateway(ids=gw.ids)
        hand.write("a", [SetValues("U!A2", (("z",),)), SetValues("U!C1", (("w",),))])
        gw.write("a", [SetValues("U!A2", (("",),))])  # the row below what was read
        gw.write("a", [SetValues("U!C1", (("",),))])  # the column right of it
        assert hand.read("a", ["U!A1:C2"]) == {"U!A1:C2": []}
