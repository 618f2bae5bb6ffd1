"""The Google adapter sends only the values that change, and lists the workbooks' versions in one call."""

from __future__ import annotations

import pytest
from fakes.google import FakeGoogle

from sheetgm.backends.errors import BackendError
from sheetgm.backends.port import ClearRange, SetBold, SetValues


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
