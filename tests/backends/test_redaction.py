"""Issue 29.4: the redacted recording of `doctor --live` keeps only what is known to be safe (an allow-list of
keys and value shapes, backends/google/redact.py): values planted wherever a person's data can hide (keys,
query strings URL-encoded, error messages, cell values, links, numbers) are all removed, and what the tests
replay (Google's keys, enums, shapes, sheetgm's own strings) is kept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sheetgm.backends.google.apikeys import API_KEYS
from sheetgm.backends.google.recording import Recorder
from sheetgm.backends.google.redact import Redactor
from sheetgm.service.doctor.live import known_strings

DOCS = Path(__file__).resolve().parents[1] / "fakes" / "discovery_docs"
DIRECTOR, BOT = "gm@forum.example", "gm-bot@game-123.iam.gserviceaccount.com"
SHEET_ID = "1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"

# what is planted -> the pieces of it that must not survive anywhere in the recording
PLANTED: dict[str, list[str]] = {
    "an address URL-encoded in a query string": ["heidi.wu", "heidi"],
    "an address in an unknown query parameter": ["ivan.petrov", "ivan"],
    "an access token in an error message": ["a0ARrdaMkQz7", "ARrdaMkQz7"],
    "an access token under its own key": ["ya29.c0AfH6SM"],
    "a refresh token in a note": ["0gLq3xYzAbCdEf", "0gLq3xYz"],
    "a private key under an unknown key": ["MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"],
    "a private key in a description": ["AoIBAQC7ZzKq"],
    "an IPv4 address in a message": ["203.0.113.42"],
    "an IPv6 address in a message": ["2001:db8:85a3::8a2e:370:7334", "8a2e"],
    "a person's name in an error message": ["Xiaoming", "Wang Xiaoming"],
    "a project number under another key": ["123456789012"],
    "a project number in a consumer path": ["987654321098"],
    "a project number as a number": ["555566667777"],
    "a phone number in a cell": ["138 0013 8000", "0013"],
    "a Chinese name in a cell": ["张三丰"],
    "a name as a key": ["Dave Smith", "Dave"],
    "an address as a key": ["carol.jones", "carol"],
    "a client secret under an unknown key": ["GOCSPX-abcdefghijklmnop", "abcdefghijklmnop"],
    "an API key in a link's query": ["AIzaSyDabcdefghijklmnop"],
    "a JWT in an error description": ["eyJhbGciOiJSUzI1NiJ9", "eyJzdWIiOiIxMjM0In0"],
    "a person's link off Google": ["evil.example.net", "erin"],
    "a photo link": ["ACg8ocKpqrs"],
    "a name in a file name": ["Frank"],
    "an address as a tab name": ["grace.ho", "grace"],
    "a spreadsheet id in a link inside a message": [SHEET_ID],
    "an address in a display name without its address": ["judy.k"],
    "a street address in a note": ["Amphitheatre"],
}


def planted_entries() -> list[dict[str, Any]]:
    sheet = f"https://sheets.googleapis.com/v4/spreadsheets/{SHEET_ID}"
    query = quote("'heidi.wu@example.org' in writers")
    return [
        {"method": "GET", "status": 200, "content_type": "application/json; charset=UTF-8", "body": None,
         "uri": f"https://www.googleapis.com/drive/v3/files?q={query}&fields=files(id,name)"
                f"&user={quote('ivan.petrov@corp.example')}",
         "answer": {"files": [{"kind": "drive#file", "id": SHEET_ID, "name": "Frank orders",
                               "mimeType": "application/vnd.google-apps.spreadsheet", "version": "42",
                               "modifiedTime": "2024-05-01T12:00:00.000Z"}]}},
        {"method": "POST", "status": 200, "content_type": "application/json; charset=UTF-8",
         "uri": f"{sheet}:batchUpdate",
         "body": {"requests": [{"updateCells": {"rows": [{"values": [
             {"userEnteredValue": {"stringValue": "Stage"}},
             {"userEnteredValue": {"stringValue": "call me on +86 138 0013 8000"}},
             {"userEnteredValue": {"stringValue": "张三丰"}}]}], "fields": "userEnteredValue"}},
             {"updateCells": {"rows": [{"values": [{"note": "refresh 1//0gLq3xYzAbCdEf, at 1600 Amphitheatre "
                                                             "Parkway"}]}]}}],
             "pem": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n",
             "installed": {"client_secret_value": "GOCSPX-abcdefghijklmnop", "Dave Smith": 1,
                           "carol.jones@example.net": "x"}},
         "answer": {"spreadsheetId": SHEET_ID, "replies": [{}],
                    "protectedRanges": [{"description": "-----BEGIN PRIVATE KEY-----\nAoIBAQC7ZzKq\n"
                                                        "-----END PRIVATE KEY-----"}],
                    "quota_project_id": "123456789012", "projectNumber": 555566667777,
                    "range": "'grace.ho@example.com'!A1:B2"}},
        {"method": "GET", "status": 403, "content_type": "application/json; charset=UTF-8", "body": None,
         "uri": f"{sheet}?key=AIzaSyDabcdefghijklmnop&includeGridData=false",
         "answer": {"error": {"code": 403, "status": "PERMISSION_DENIED",
                              "message": "The user Wang Xiaoming does not have permission (request from 203.0.113.42 "
                                         "and 2001:db8:85a3::8a2e:370:7334, Authorization: Bearer "
                                         f"ya29.a0ARrdaMkQz7-long). See https://docs.google.com/spreadsheets/d/"
                                         f"{SHEET_ID}/edit or https://evil.example.net/u/erin?id=1",
                              "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                                           "reason": "SERVICE_DISABLED", "domain": "googleapis.com",
                                           "metadata": {"consumer": "projects/987654321098",
                                                        "service": "sheets.googleapis.com"}}]}}},
        {"method": "POST", "status": 400, "content_type": "application/json", "body": None,
         "uri": "https://oauth2.googleapis.com/token",
         "answer": {"error": "invalid_grant", "access_token": "ya29.c0AfH6SM",
                    "error_description": "Invalid JWT eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2ln"}},
        {"method": "GET", "status": 200, "content_type": "application/json; charset=UTF-8", "body": None,
         "uri": f"https://www.googleapis.com/drive/v3/files/{SHEET_ID}/permissions",
         "answer": {"permissions": [{"kind": "drive#permission", "id": "09876543210987654321", "type": "user",
                                     "role": "writer", "emailAddress": DIRECTOR, "displayName": "Gee Em"},
                                    {"kind": "drive#permission", "id": "1234", "type": "user", "role": "reader",
                                     "displayName": "judy.k@example.com",
                                     "photoLink": "https://lh3.googleusercontent.com/a/ACg8ocKpqrs=s64"}]}},
    ]


def redacted() -> tuple[list[dict[str, Any]], str]:
    rec = Recorder()
    rec.raw = planted_entries()
    rec.steps = ["x"] * len(rec.raw)
    rec.made = {SHEET_ID}
    out = rec.redacted(Redactor(DIRECTOR, BOT, known_strings((BOT, DIRECTOR))))
    return out, json.dumps(out, ensure_ascii=False)


def test_every_planted_value_is_removed() -> None:
    _out, text = redacted()
    assert len(PLANTED) >= 19
    survived = {what: [bit for bit in bits if bit in text] for what, bits in PLANTED.items()}
    assert {what: bits for what, bits in survived.items() if bits} == {}, text


def test_what_the_tests_replay_is_kept() -> None:
    out, text = redacted()
    listing, write, error, oauth, perms = out
    assert listing["answer"]["files"][0]["id"] == "redacted-spreadsheet-0001"
    assert listing["answer"]["files"][0]["mimeType"] == "application/vnd.google-apps.spreadsheet"
    assert listing["answer"]["files"][0]["version"] == "42"
    assert "fields=files%28id%2Cname%29" in listing["uri"] and "user=" not in listing["uri"]
    assert "person-1%40example.com" in listing["uri"]  # the address in the query, as a placeholder
    assert write["uri"].endswith("/v4/spreadsheets/redacted-spreadsheet-0001:batchUpdate")
    cells = write["body"]["requests"][0]["updateCells"]["rows"][0]["values"]
    assert cells[0]["userEnteredValue"]["stringValue"] == "Stage"  # sheetgm's own
    assert write["body"]["requests"][0]["updateCells"]["fields"] == "userEnteredValue"
    assert error["answer"]["error"]["status"] == "PERMISSION_DENIED" and error["answer"]["error"]["code"] == 403
    assert "does not have permission" in error["answer"]["error"]["message"]
    assert error["answer"]["error"]["details"][0]["reason"] == "SERVICE_DISABLED"
    assert error["answer"]["error"]["details"][0]["metadata"]["consumer"] == "projects/PROJECT"
    assert oauth["answer"]["error"] == "invalid_grant" and oauth["answer"]["access_token"] == "REDACTED"
    assert perms["answer"]["permissions"][0]["emailAddress"] == "director@example.com"
    assert perms["answer"]["permissions"][0]["displayName"] == "director"
    assert perms["answer"]["permissions"][0]["id"] == "redacted-permission-0001"
    assert "redacted-key-1" in text  # a key that is not Google's is replaced, its place kept


def test_the_key_allow_list_is_google_s_schemas() -> None:
    """apikeys.API_KEYS is every property name of the Sheets and Drive discovery documents (generated)."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("properties"), dict):
                found.update(node["properties"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    for name in ("sheets.v4.json", "drive.v3.json"):
        walk(json.loads((DOCS / name).read_text("utf-8")).get("schemas", {}))
    assert API_KEYS == frozenset(found), sorted(found ^ API_KEYS)
