"""The fake held to Google's recorded answers (gspread's cassettes, replayed by `fakes.replay`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import replay
from fakes.book import Spreadsheet

RECORDINGS = replay.RECORDINGS.parent
# What the replay reaches (endpoint: recorded, identical). A fix raises a floor here; a change that
# makes the fake answer less like Google lowers a count and fails.
FLOOR = {
    "sheets.spreadsheets.get": (698, 675),
    "sheets.spreadsheets.batchUpdate": (233, 191),
    "sheets.spreadsheets.values.get": (263, 245),
    "sheets.spreadsheets.values.batchGet": (4, 4),
    "sheets.spreadsheets.values.batchUpdate": (2, 2),
    "sheets.spreadsheets.values.update": (137, 135),
    "sheets.spreadsheets.values.clear": (143, 143),
    "sheets.spreadsheets.values.append": (26, 26),
    "sheets.spreadsheets.values.batchClear": (2, 2),
    "drive.files.create": (220, 220),
    "drive.files.delete": (218, 218),
}
NOT_ANSWERED = {"drive.files.get": 165, "drive.files.list": 11, "drive.files.export": 2, "drive.files.copy": 2,
                "drive.comments.list": 2, "other": 2}


@pytest.fixture(scope="module")
def outcomes() -> list[replay.Outcome]:
    return replay.replay()


def test_the_recordings_are_the_ones_the_readme_names() -> None:
    readme = (RECORDINGS / "README.md").read_text("utf-8")
    assert "5e2b628da598151a5a4122d3cf7ba2704041643c" in readme and "MIT" in readme
    license_text = (RECORDINGS / "LICENSE.gspread.txt").read_text("utf-8")
    assert "Permission is hereby granted, free of charge" in license_text and "Anton Burnashev" in license_text
    found = list(replay.cassettes())
    assert len(found) == 124 and sum(len(i) for _, i in found) == 2130
    size = sum(p.stat().st_size for p in replay.RECORDINGS.glob("*.jsonl"))
    assert size < 3_000_000  # a few MB at most


def test_every_endpoint_the_fake_answers_reaches_its_floor(outcomes: list[replay.Outcome]) -> None:
    table = replay.table(outcomes)
    for endpoint, (recorded, identical) in FLOOR.items():
        got_recorded, answered, got_identical = table[endpoint]
        assert (got_recorded, answered) == (recorded, recorded), endpoint
        assert got_identical >= identical, f"{endpoint}: {got_identical} identical, was {identical}"
    assert {e: r for e, (r, a, _) in table.items() if a == 0} == NOT_ANSWERED


def test_the_calls_sheetgm_makes_answer_exactly_as_recorded(outcomes: list[replay.Outcome]) -> None:
    """values:batchGet, values:batchUpdate and the protections: every recorded answer, identical."""
    table = replay.table(outcomes)
    assert table["sheets.spreadsheets.values.batchGet"][2] == 4
    assert table["sheets.spreadsheets.values.batchUpdate"][2] == 2
    protecting = [o for o in outcomes if "protected_range" in o.cassette and o.answered]
    assert protecting and all(o.identical for o in protecting), [o.why for o in protecting if not o.identical]


def test_the_replay_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake that answered one field otherwise is caught, and the difference is named."""
    real = Spreadsheet.properties

    def wrong(self: Spreadsheet) -> dict[str, object]:
        return {**real(self), "locale": "zh_CN"}

    monkeypatch.setattr(Spreadsheet, "properties", wrong)
    name, interactions = next((n, i) for n, i in replay.cassettes() if n == "WorksheetTest.test_acell")
    found = [o for o in replay.Replayer(name, interactions).run() if o.endpoint == "sheets.spreadsheets.get"]
    assert found and not any(o.identical for o in found)
    assert found[0].why == '.properties.locale: recorded "en_US", fake "zh_CN"'


def test_ids_google_picks_must_stay_consistent() -> None:
    ids = replay.Ids()
    ids.learn({"sheetId": 901015854, "title": "a"}, {"sheetId": 7, "title": "a"})
    assert ids.fake_body({"deleteSheet": {"sheetId": 901015854}}) == {"deleteSheet": {"sheetId": 7}}
    assert ids.recorded({"sheetId": 7}) == {"sheetId": 901015854}
    assert replay.difference({"sheetId": 901015854}, ids.recorded({"sheetId": 8})) != ""


def test_an_error_answer_is_compared_by_its_shape() -> None:
    recorded = {"error": {"code": 404, "message": "Requested entity was not found.", "status": "NOT_FOUND"}}
    same = {"error": {"code": 404, "message": "other words", "status": "NOT_FOUND"}}
    other = {"error": {"code": 404, "message": "x", "status": "PERMISSION_DENIED"}}
    assert replay.difference(replay.error_shape(404, recorded), replay.error_shape(404, same)) == ""
    assert replay.difference(replay.error_shape(404, recorded), replay.error_shape(404, other)) != ""


def test_the_vendor_script_reproduces_a_cassette(tmp_path: Path) -> None:
    """The trimmed files are what ``vendor.py`` makes of gspread's cassettes (one rebuilt here)."""
    import json

    from fakes.recordings import vendor

    line = {"request": {"method": "GET", "uri": "https://sheets.googleapis.com/v4/spreadsheets/x", "body": None,
                        "headers": {"authorization": ["secret"]}},
            "response": {"status": {"code": 200, "message": "OK"},
                         "headers": {"Content-Type": ["application/json; charset=UTF-8"], "Date": ["today"]},
                         "body": {"string": '{\n  "spreadsheetId": "x"\n}\n'}}}
    cassette = tmp_path / "T.test.json"
    cassette.write_text(json.dumps({"version": 1, "interactions": [line]}))
    out = vendor.convert(cassette)
    assert out == [{"method": "GET", "uri": line["request"]["uri"], "body": None, "status": 200,
                    "content_type": "application/json; charset=UTF-8", "answer": {"spreadsheetId": "x"}}]
    assert "secret" not in json.dumps(out)
