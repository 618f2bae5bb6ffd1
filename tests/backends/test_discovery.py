"""The fake's conformance check against Google's discovery documents can fail, and fails as Google does."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
import requests
from fakes import errors as fake_errors
from fakes.discovery import DISCOVERY_DIR, ConformanceError, Discovery
from fakes.google import DRIVE, SHEETS, FakeClock, FakeGoogle

from sheetgm.backends.errors import BackendError, CreateDeniedError, NetworkError, NotSharedError
from sheetgm.backends.port import SetValues

SA = "bot@game-1.iam.gserviceaccount.com"
CELL = {"range": {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 1}, "fields": "userEnteredValue",
        "rows": [{"values": [{"userEnteredValue": {"stringValue": "x"}}]}]}


def test_the_documents_are_the_ones_the_readme_names() -> None:
    readme = (DISCOVERY_DIR / "README.md").read_text()
    for name in ("sheets.v4.json", "drive.v3.json"):
        digest = hashlib.sha256((DISCOVERY_DIR / name).read_bytes()).hexdigest()
        assert digest in readme, name


def batch(fake: FakeGoogle, sid: str, *requests_: Any) -> requests.Response:
    return requests.post(f"{SHEETS}/{sid}:batchUpdate", json={"requests": list(requests_)})


def violation(r: requests.Response) -> tuple[str, str]:
    err = r.json()["error"]
    assert r.status_code == 400 and err["status"] == "INVALID_ARGUMENT" and err["code"] == 400
    details = err.get("details", [])
    assert all(d["@type"].startswith("type.googleapis.com/google.rpc.") for d in details)
    fields = [v.get("field", "") for d in details for v in d.get("fieldViolations", [])]
    return err["message"], fields[0] if fields else ""


@pytest.mark.parametrize(("body", "message", "field"), [
    ({"updateCells": {**CELL, "rowz": []}}, 'Unknown name "rowz" at \'requests[0].update_cells\'',
     "requests[0].update_cells"),
    ({"updateCells": {**CELL, "range": {"sheetId": "zero"}}}, "Invalid value at 'requests[0].update_cells.range",
     "requests[0].update_cells.range.sheet_id"),
    ({"updateCells": {**CELL, "range": {"sheetId": 2**31}}}, "(TYPE_INT32)", "requests[0].update_cells.range.sheet_id"),
    ({"updateBorders": {"range": {"sheetId": 0}, "top": {"style": "THICKK"}}}, '"THICKK"',
     "requests[0].update_borders.top.style"),
    ({"updateCells": {**CELL, "fields": "userEnteredValu"}}, "'userEnteredValu' names no field of CellData",
     "requests[0].update_cells.fields"),
    ({"repeatCell": {"range": {"sheetId": 0}, "cell": {}, "fields": "userEnteredFormat.backgroundColour"}},
     "names no field of CellData", "requests[0].repeat_cell.fields"),
    ({"updateCells": CELL, "repeatCell": {"range": {"sheetId": 0}, "fields": "note"}},
     "oneof field 'kind' is already set. Cannot overwrite with 'repeat_cell'", "requests[0]"),
    ({"updateCells": {**CELL, "rows": [{"values": [{"userEnteredValue": {"stringValue": "x", "numberValue": 1}}]}]}},
     "oneof field 'value' is already set", "requests[0].update_cells.rows[0].values[0].user_entered_value"),
    ({"addSheet": {"properties": {"title": "T", "gridProperties": {"frozenRowCount": True}}}},
     "(TYPE_INT32), true", "requests[0].add_sheet.properties.grid_properties.frozen_row_count"),
    ({"setDataValidation": {"range": {"sheetId": 0}, "rule": {"condition": {"type": "ONE_OF_LIZT"}}}},
     '"ONE_OF_LIZT"', "requests[0].set_data_validation.rule.condition.type"),
    ({"addProtectedRange": {"protectedRange": {"range": {"sheetId": 0}, "editors": {"users": "a@x.com"}}}},
     "expected a list", "requests[0].add_protected_range.protected_range.editors.users"),
    ({"deleteTab": {"sheetId": 0}}, 'Unknown name "deleteTab" at \'requests[0]\'', "requests[0]"),
])
def test_broken_batch_bodies_are_rejected_like_google_does(fake: FakeGoogle, body: Any, message: str,
                                                           field: str) -> None:
    sid = fake.add_spreadsheet("t", ["Orders"])
    before = json.dumps(fake.books[sid].sheets, default=str)
    got_message, got_field = violation(batch(fake, sid, body))
    assert message in got_message and got_field == field
    assert json.dumps(fake.books[sid].sheets, default=str) == before  # nothing applied


def test_the_same_bodies_pass_when_right(fake: FakeGoogle) -> None:
    sid = fake.add_spreadsheet("t", ["Orders"])
    r = batch(fake, sid, {"updateCells": CELL},
              {"repeatCell": {"range": {"sheetId": 0}, "cell": {"userEnteredFormat": {"backgroundColor": {"red": 1}}},
                              "fields": "userEnteredFormat.backgroundColor"}},
              {"updateBorders": {"range": {"sheetId": 0}, "top": {"style": "SOLID_THICK"}}})
    assert r.status_code == 200, r.text


@pytest.mark.parametrize(("url", "params", "message"), [
    ("/values:batchGet", {"ranges": "Orders!A1", "valueRenderOption": "PRETTY"}, "value_render_option"),
    ("/values:batchGet", {"ranges": "Orders!A1", "colour": "red"}, 'Unknown name "colour"'),
    ("", {"includeGridData": "yes"}, "include_grid_data"),
    ("", {"fields": "sheets(properties(titel))"}, "Invalid field selection titel"),
    ("", {"fields": "sheets(properties"}, "Invalid field selection"),
])
def test_bad_query_parameters_are_rejected(fake: FakeGoogle, url: str, params: dict[str, str], message: str) -> None:
    sid = fake.add_spreadsheet("t", ["Orders"])
    r = requests.get(f"{SHEETS}/{sid}{url}", params=params)
    assert message in violation(r)[0]


def test_top_level_and_value_errors(fake: FakeGoogle) -> None:
    sid = fake.add_spreadsheet("t", ["Orders"])
    r = requests.post(f"{SHEETS}/{sid}:batchUpdate", json={"requests": [], "includeSpreadsheetInResponse": "yes"})
    assert "Invalid value at 'include_spreadsheet_in_response'" in violation(r)[0]
    r = requests.post(f"{SHEETS}/{sid}:batchUpdate", json={"requestz": []})
    assert violation(r)[0] == 'Invalid JSON payload received. Unknown name "requestz": Cannot find field.'
    assert "at least one request" in violation(requests.post(f"{SHEETS}/{sid}:batchUpdate", json={}))[0]
    assert "No request set" in violation(batch(fake, sid, {}))[0]
    r = requests.post(f"{SHEETS}/{sid}/values:batchUpdate", json={"data": [{"range": "Orders!A1", "values": [["x"]]}]})
    assert "'valueInputOption' is required" in violation(r)[0]
    assert requests.put(f"{SHEETS}/{sid}:batchUpdate", json={"requests": []}).status_code == 404  # wrong verb


def test_drive_errors_carry_reasons_and_ignore_unknown_body_fields(fake: FakeGoogle) -> None:
    sid = fake.add_spreadsheet("t", ["Orders"])
    url = f"{DRIVE}/{sid}/permissions"
    r = requests.post(url, json={"role": "reader", "emailAddress": "a@x.com"})
    err = r.json()["error"]
    assert r.status_code == 400 and "status" not in err
    assert err["errors"] == [{"message": "The permission type field is required.", "domain": "global",
                              "reason": "required", "location": "permission.type", "locationType": "other"}]
    r = requests.post(url, params={"sendNotificationEmail": "maybe"}, json={"type": "user", "role": "reader"})
    assert r.status_code == 400 and r.json()["error"]["errors"][0]["reason"] == "invalidParameter"
    r = requests.post(url, json={"type": "user", "role": "reader", "emailAddress": "a@x.com", "withLink": False})
    assert r.status_code == 200  # Drive v3 ignores v2's withLink (gspread still sends it)
    missing = requests.get(f"{DRIVE}/nope/permissions").json()["error"]
    assert missing["code"] == 404 and missing["errors"][0]["reason"] == "notFound"


def test_an_answer_google_would_never_give_is_a_conformance_error(fake: FakeGoogle,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    sid = fake.add_spreadsheet("t", ["Orders"])
    from fakes import values as fake_values

    real = fake_values.value_range
    monkeypatch.setattr(fake_values, "value_range", lambda *a: {**real(*a), "colour": "red"})
    with pytest.raises(ConformanceError, match="colour"):
        requests.get(f"{SHEETS}/{sid}/values:batchGet", params={"ranges": "Orders!A1"})
    monkeypatch.setattr(fake_values, "value_range", lambda *a: {**real(*a), "majorDimension": "UP"})
    with pytest.raises(ConformanceError, match="UP"):
        requests.get(f"{SHEETS}/{sid}/values:batchGet", params={"ranges": "Orders!A1"})
    monkeypatch.setattr(fake_values, "value_range", real)
    monkeypatch.setitem(fake_errors.NAMED, "forbidden",
                        (lambda: fake_errors.ApiFault(403, {"error": {"code": 403, "message": "no"}}),
                                                lambda: fake_errors.drive_error(403)))
    fake.fail_on(fake.count() + 1, "forbidden")
    with pytest.raises(ConformanceError, match="not a Sheets error"):
        requests.get(f"{SHEETS}/{sid}")


def test_every_method_the_fake_answers_is_in_the_documents() -> None:
    from fakes.google import KINDS

    ids = {m.id for api in Discovery().apis.values() for m in api.methods}
    assert set(KINDS) <= ids


# -- the gateway against Google's real error answers ------------------------------------------------


def test_a_502_page_from_the_front_end_is_retried(fake: FakeGoogle, clock: FakeClock) -> None:
    sid = fake.add_spreadsheet("t", ["Orders"])
    gw = fake.gateway({"p": sid}, clock=clock)
    fake.fail_on(1, "html_502", times=2)
    assert gw.read("p", ["Orders!A1"]) == {"Orders!A1": []}
    assert [c.fault for c in fake.log] == ["html_502", "html_502", None]
    fake.fail_on(fake.count() + 1, "html_502", times=5)
    with pytest.raises(NetworkError) as err:
        gw.read("p", ["Orders!A1"])
    assert "HTTP 502" in err.value.message("en") and "<html" not in err.value.message("en")


def test_a_sharing_rate_limit_is_retried(fake: FakeGoogle, clock: FakeClock) -> None:
    sid = fake.add_spreadsheet("t", ["Orders"])
    gw = fake.gateway({"p": sid}, clock=clock)
    fake.fail_on(2, "sharing_rate_limit")
    gw.share("p", "a@example.com", "writer")
    assert [c.kind for c in fake.log] == ["perm_list", "perm_create", "perm_create"]
    assert fake.drive.role(sid, "a@example.com") == "writer"


def test_a_service_account_cannot_create_a_file(fake: FakeGoogle, clock: FakeClock) -> None:
    gw = fake.gateway(clock=clock, acting_as=SA)
    with pytest.raises(CreateDeniedError) as err:
        gw.create("director", "导演", ["Config"])
    assert fake.calls("create")[0].who == SA and fake.count() == 1  # not retried
    body = json.loads(json.dumps(fake.log[0].body))
    assert body["properties"]["title"] == "导演"
    text = err.value.message("en")
    assert SA in text and "your own Google login" in text and "--google" in err.value.message("zh")


def test_drive_hides_a_file_not_shared_and_sheets_refuses_it(fake: FakeGoogle, clock: FakeClock) -> None:
    sid = fake.add_spreadsheet("t", ["Orders"])
    gw = fake.gateway({"p": sid}, clock=clock, acting_as=SA)
    with pytest.raises(NotSharedError) as err:
        gw.permissions("p")
    assert f"not shared with {SA}" in err.value.message("en") and sid in err.value.message("en")
    with pytest.raises(BackendError) as denied:
        gw.read("p", ["Orders!A1"])
    assert type(denied.value).__name__ == "AccessError"
    fake.grant(sid, SA, "writer")
    gw.write("p", [SetValues("Orders!A1", [["ok"]])])
    assert gw.read("p", ["Orders!A1"]) == {"Orders!A1": [["ok"]]}


def test_a_reader_cannot_write_or_share(fake: FakeGoogle, clock: FakeClock) -> None:
    sid = fake.add_spreadsheet("t", ["Orders"])
    fake.grant(sid, "p@example.com", "reader")
    gw = fake.gateway({"p": sid}, clock=clock, acting_as="p@example.com")
    assert gw.read("p", ["Orders!A1"]) == {"Orders!A1": []}
    with pytest.raises(BackendError):
        gw.write("p", [SetValues("Orders!A1", [["x"]])])
    r = fake.log[-1]
    assert r.kind == "batch_update"
    with pytest.raises(BackendError):
        gw.share("p", "q@example.com", "reader")
    assert fake.drive.role(sid, "q@example.com") is None


def test_the_discovery_folder_is_required(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="tests/fakes/discovery_docs"):
        Discovery(tmp_path)
