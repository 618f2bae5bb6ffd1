"""The fake itself behaves like the API where sheetgm depends on it."""

from __future__ import annotations

import gspread
import pytest
import requests
from fakes.google import SHEETS, FakeGoogle


def test_batch_get_trims_like_the_api(fake: FakeGoogle) -> None:
    sid = fake.add_spreadsheet("t", ["Orders"])
    requests.post(f"{SHEETS}/{sid}/values:batchUpdate", json={
        "valueInputOption": "RAW", "data": [{"range": "Orders!B2", "values": [["x", "", ""], ["", "", ""]]}]})
    got = requests.get(f"{SHEETS}/{sid}/values:batchGet", params={"ranges": ["Orders!A1:F9", "Orders!E1:F9"]}).json()
    assert got["valueRanges"][0]["values"] == [[], ["", "x"]]
    assert "values" not in got["valueRanges"][1]


def test_unknown_range_or_spreadsheet(fake: FakeGoogle) -> None:
    sid = fake.add_spreadsheet("t", ["Orders"])
    bad = requests.get(f"{SHEETS}/{sid}/values:batchGet", params={"ranges": ["Nope!A1"]})
    assert bad.status_code == 400 and "Unable to parse range" in bad.json()["error"]["message"]
    assert requests.get(f"{SHEETS}/missing").status_code == 404


def test_a_bad_request_in_a_batch_changes_nothing(fake: FakeGoogle) -> None:
    sid = fake.add_spreadsheet("t", ["Orders"])
    body = {"requests": [
        {"addSheet": {"properties": {"title": "New"}}},
        {"updateCells": {"range": {"sheetId": 0, "startRowIndex": 2000, "endRowIndex": 2001},
                         "fields": "userEnteredValue"}},
    ]}
    r = requests.post(f"{SHEETS}/{sid}:batchUpdate", json=body)
    assert r.status_code == 400 and "exceeds grid limits" in r.json()["error"]["message"]
    assert [s.name for s in fake.books[sid].sheets] == ["Orders"]


def test_protected_ranges_get_ids_and_warning_only_excludes_editors(fake: FakeGoogle) -> None:
    sid = fake.add_spreadsheet("t", ["Orders"])
    add = {"addProtectedRange": {"protectedRange": {"range": {"sheetId": 0}, "description": "d",
                                                    "editors": {"users": ["a@x.com"]}}}}
    reply = requests.post(f"{SHEETS}/{sid}:batchUpdate", json={"requests": [add]}).json()
    pid = reply["replies"][0]["addProtectedRange"]["protectedRange"]["protectedRangeId"]
    meta = requests.get(f"{SHEETS}/{sid}").json()
    assert meta["sheets"][0]["protectedRanges"][0]["protectedRangeId"] == pid
    add["addProtectedRange"]["protectedRange"]["warningOnly"] = True
    assert requests.post(f"{SHEETS}/{sid}:batchUpdate", json={"requests": [add]}).status_code == 400


def test_gspread_high_level_calls_work_too(fake: FakeGoogle) -> None:
    from google.auth.credentials import AnonymousCredentials

    client = gspread.Client(auth=AnonymousCredentials())
    sh = client.create("made by gspread")
    assert fake.books[sh.id].title == "made by gspread"
    sh.share("p@example.com", perm_type="user", role="writer", notify=False)
    assert {p["emailAddress"] for p in sh.list_permissions()} == {"director@example.com", "p@example.com"}
    sh.remove_permissions("p@example.com")
    assert [g.email for g in fake.drive.grants[sh.id]] == ["director@example.com"]


def test_the_log_and_faults(fake: FakeGoogle) -> None:
    sid = fake.add_spreadsheet("t", ["Orders"])
    fake.fail_on(2, 429)
    fake.fail_on(3, "timeout")
    assert requests.get(f"{SHEETS}/{sid}").status_code == 200
    assert requests.get(f"{SHEETS}/{sid}").status_code == 429
    with pytest.raises(requests.exceptions.ReadTimeout):
        requests.get(f"{SHEETS}/{sid}")
    found = [(c.number, c.kind, c.fault) for c in fake.log]
    assert found == [(1, "meta", None), (2, "meta", 429), (3, "meta", "timeout")]
    with pytest.raises(ValueError):
        fake.fail_on(9, "gremlins")


def _put(sid: str, rng: str, rows: list[list[str]]) -> None:
    body = {"valueInputOption": "RAW", "data": [{"range": rng, "values": rows}]}
    assert requests.post(f"{SHEETS}/{sid}/values:batchUpdate", json=body).status_code == 200


def test_get_with_ranges_keeps_the_tabs_touched_one_block_per_range(fake: FakeGoogle) -> None:
    sid = fake.add_spreadsheet("t", ["Orders", "Results", "Map"])
    _put(sid, "Orders!B2", [["x", "", ""], ["", "", ""], ["", "y", ""]])
    _put(sid, "Map!A1", [["m"]])
    params = {"ranges": ["Map!A1", "Orders!C3:F9", "Orders!A1:C2", "Orders!E20:F30"], "includeGridData": "true"}
    doc = requests.get(f"{SHEETS}/{sid}", params=params).json()
    assert [s["properties"]["title"] for s in doc["sheets"]] == ["Orders", "Map"]  # the tabs' order, not the asked
    assert [s["properties"]["index"] for s in doc["sheets"]] == [0, 2]
    blocks = doc["sheets"][0]["data"]
    assert [(b.get("startRow"), b.get("startColumn")) for b in blocks] == [(2, 2), (None, None), (19, 4)]
    assert [[c.get("formattedValue") for c in r.get("values", [])] for r in blocks[0]["rowData"]] == [[], ["y"]]
    assert [[c.get("formattedValue") for c in r.get("values", [])] for r in blocks[1]["rowData"]] == [[], [None, "x"]]
    assert "rowData" not in blocks[2] and len(blocks[2]["rowMetadata"]) == 11 and len(blocks[2]["columnMetadata"]) == 2
    bad = requests.get(f"{SHEETS}/{sid}", params={"ranges": ["Nope!A1"], "includeGridData": "true"})
    assert bad.status_code == 400 and "Unable to parse range: Nope!A1" in bad.json()["error"]["message"]


def test_get_with_a_field_mask_answers_only_those_fields(fake: FakeGoogle) -> None:
    sid = fake.add_spreadsheet("t", ["Orders", "Results"])
    _put(sid, "Results!A1", [["r"]])
    fields = "sheets(properties(sheetId,title),data(rowData(values(formattedValue))))"
    doc = requests.get(f"{SHEETS}/{sid}", params={"fields": fields, "includeGridData": "false"}).json()
    assert list(doc) == ["sheets"]
    assert doc["sheets"][1] == {"properties": {"sheetId": 1, "title": "Results"},
                                "data": [{"rowData": [{"values": [{"formattedValue": "r"}]}]}]}
    assert requests.get(f"{SHEETS}/{sid}", params={"fields": "sheets(properties"}).status_code == 400
