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


# -- answers as Google gives them (each one held to gspread's recordings by test_replay.py) -----------


def batch(sid: str, *reqs: dict[str, object]) -> requests.Response:
    return requests.post(f"{SHEETS}/{sid}:batchUpdate", json={"requests": list(reqs)})


def test_a_protection_keeps_the_caller_among_its_editors_and_the_reply_leaves_out_defaults(fake: FakeGoogle) -> None:
    sid = fake.add_spreadsheet("t", ["Orders"])
    rng = {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 2, "startColumnIndex": 0, "endColumnIndex": 2}
    add = {"protectedRange": {"range": rng, "description": None, "warningOnly": False,
                              "editors": {"users": [], "groups": []}}}
    reply = batch(sid, {"addProtectedRange": add}).json()["replies"][0]["addProtectedRange"]["protectedRange"]
    assert reply == {"protectedRangeId": reply["protectedRangeId"], "requestingUserCanEdit": True, "editors": {},
                     "range": {k: v for k, v in rng.items() if k != "sheetId"}}
    listed = requests.get(f"{SHEETS}/{sid}").json()["sheets"][0]["protectedRanges"]
    assert listed[0]["editors"] == {"users": ["director@example.com"]} and "description" not in listed[0]
    warn = {"protectedRange": {"range": rng, "warningOnly": True}}
    assert batch(sid, {"addProtectedRange": warn}).status_code == 200
    listed = requests.get(f"{SHEETS}/{sid}").json()["sheets"][0]["protectedRanges"]
    assert listed[1]["warningOnly"] is True and listed[1]["editors"] == {"users": ["director@example.com"]}


def test_a_spreadsheet_has_googles_properties(fake: FakeGoogle) -> None:
    made = requests.post(SHEETS, json={"properties": {"title": "g", "locale": "zh_CN", "timeZone": "Asia/Shanghai"}})
    props = made.json()["properties"]
    assert (props["locale"], props["timeZone"], props["autoRecalc"]) == ("zh_CN", "Asia/Shanghai", "ON_CHANGE")
    assert props["defaultFormat"]["textFormat"]["fontFamily"] == "arial,sans,sans-serif"
    assert made.json()["sheets"][0]["properties"]["gridProperties"] == {"rowCount": 1000, "columnCount": 26}
    plain = requests.get(f"{SHEETS}/{fake.add_spreadsheet('t', ['A'])}").json()["properties"]
    assert (plain["locale"], plain["timeZone"]) == ("en_US", "Etc/GMT")
    sid = made.json()["spreadsheetId"]
    change = {"properties": {"timeZone": "America/New_York", "title": "h"}, "fields": "timeZone,title"}
    assert batch(sid, {"updateSpreadsheetProperties": change}).status_code == 200
    assert (fake.books[sid].time_zone, fake.books[sid].title) == ("America/New_York", "h")


def test_a_new_tab_gets_its_title_size_and_hidden_flag(fake: FakeGoogle) -> None:
    sid = fake.add_spreadsheet("t", ["Orders"])
    props = {"title": "Secret", "hidden": True, "gridProperties": {"rowCount": 3, "columnCount": 2}}
    reply = batch(sid, {"addSheet": {"properties": props}}).json()["replies"][0]["addSheet"]["properties"]
    assert reply["gridProperties"] == {"rowCount": 3, "columnCount": 2} and reply["hidden"] is True
    assert reply["index"] == 1 and fake.books[sid].sheet("Secret").grid_rows == 3
    assert batch(sid, {"addSheet": {"properties": {"title": "secret"}}}).status_code == 400  # names ignore case


def test_a_rename_and_hiding_are_applied_and_the_last_visible_tab_stays(fake: FakeGoogle) -> None:
    sid = fake.add_spreadsheet("t", ["Orders", "Log"])
    rename = {"properties": {"sheetId": 0, "title": "Orders (mine)"}, "fields": "title"}
    assert batch(sid, {"updateSheetProperties": rename}).status_code == 200
    hide = {"properties": {"sheetId": 1, "hidden": True}, "fields": "hidden"}
    assert batch(sid, {"updateSheetProperties": hide}).status_code == 200
    tabs = [s["properties"] for s in requests.get(f"{SHEETS}/{sid}").json()["sheets"]]
    assert [(t["title"], t.get("hidden", False)) for t in tabs] == [("Orders (mine)", False), ("Log", True)]
    last = batch(sid, {"updateSheetProperties": {"properties": {"sheetId": 0, "hidden": True}, "fields": "hidden"}})
    assert last.status_code == 400 and "hide all the sheets" in last.json()["error"]["message"]
    assert batch(sid, {"deleteSheet": {"sheetId": 0}}).status_code == 400  # the only visible one
    assert not fake.books[sid].hidden(fake.books[sid].sheets[0])


def test_field_masks_take_slashes_and_brackets(fake: FakeGoogle) -> None:
    sid = fake.add_spreadsheet("t", ["Orders"])
    grow = {"properties": {"sheetId": 0, "gridProperties": {"rowCount": 4, "columnCount": 3}},
            "fields": "gridProperties/rowCount,gridProperties/columnCount"}
    assert batch(sid, {"updateSheetProperties": grow}).status_code == 200
    paint = {"range": {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 1},
             "fields": "userEnteredFormat(backgroundColor,textFormat)",
             "cell": {"userEnteredFormat": {"backgroundColor": {"red": 1}, "textFormat": {"bold": True}}}}
    assert batch(sid, {"repeatCell": paint}).status_code == 200
    sheet = fake.books[sid].sheets[0]
    assert (sheet.grid_rows, sheet.grid_cols) == (4, 3)
    assert sheet.cell(0, 2).background == "#ff0000" and sheet.cell(0, 2).bold
    typo = {**paint, "fields": "userEnteredFormat(backgroundColour)"}
    assert batch(sid, {"repeatCell": typo}).status_code == 400


@pytest.mark.parametrize(("asked", "named"), [
    ("Orders", "Orders!A1:Z1000"), ("Orders!A1:C", "Orders!A1:C1000"), ("Orders!A2:2", "Orders!A2:Z2"),
    ("Orders!D4:A1", "Orders!A1:D4"), ("Orders!B3", "Orders!B3"), ("A1:B2", "Orders!A1:B2"),
    ("'D3'!A1", "'D3'!A1"), ("'🌵 tab'", "'🌵 tab'!A1:Z1000"),
])
def test_a_read_names_the_range_cut_to_the_grid(fake: FakeGoogle, asked: str, named: str) -> None:
    sid = fake.add_spreadsheet("t", ["Orders", "D3", "🌵 tab"])
    got = requests.get(f"{SHEETS}/{sid}/values:batchGet", params={"ranges": [asked]}).json()["valueRanges"][0]
    assert got["range"] == named


def test_reads_follow_the_render_options_and_the_major_dimension(fake: FakeGoogle) -> None:
    sid = fake.add_spreadsheet("t", ["Orders"])
    rows = [["=4/2", "2020-01-01", "string", 53], ["=3/2", 0.12, "'0042", ""]]
    put = requests.put(f"{SHEETS}/{sid}/values/Orders!A1:D2", params={"valueInputOption": "USER_ENTERED"},
                       json={"values": rows})
    assert put.json()["updatedCells"] == 8

    def read(**params: str) -> object:
        return requests.get(f"{SHEETS}/{sid}/values/Orders", params=params).json()["values"]

    assert read() == [["2", "2020-01-01", "string", "53"], ["1.5", "0.12", "0042"]]
    assert read(valueRenderOption="UNFORMATTED_VALUE") == [[2, 43831, "string", 53], [1.5, 0.12, "0042"]]
    assert read(valueRenderOption="FORMULA") == [["=4/2", 43831, "string", 53], ["=3/2", 0.12, "0042"]]
    assert read(valueRenderOption="UNFORMATTED_VALUE", dateTimeRenderOption="FORMATTED_STRING")[0][1] == "2020-01-01"
    assert read(majorDimension="COLUMNS") == [["2", "1.5"], ["2020-01-01", "0.12"], ["string", "0042"], ["53"]]


def test_values_batch_update_answers_its_counts_and_each_range(fake: FakeGoogle) -> None:
    sid = fake.add_spreadsheet("t", ["Orders"])
    body = {"valueInputOption": "RAW", "data": [{"range": "Orders!A1:D1", "values": [["a", "b", "", "d"]]},
                                                  {"range": "Orders!A4:D4", "values": [["e", None, "g", "h"]]}]}
    got = requests.post(f"{SHEETS}/{sid}/values:batchUpdate", json=body).json()
    assert (got["totalUpdatedRows"], got["totalUpdatedColumns"], got["totalUpdatedCells"],
            got["totalUpdatedSheets"]) == (2, 4, 7, 1)
    assert [r["updatedRange"] for r in got["responses"]] == ["Orders!A1:D1", "Orders!A4:D4"]
    assert got["responses"][1]["updatedCells"] == 3  # a null leaves its cell as it was
