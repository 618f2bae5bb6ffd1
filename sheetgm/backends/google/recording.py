"""A redacted recording of Google calls (`sheetgm doctor --live`), in the form the tests' replayer reads.

One JSON object a line (``.jsonl``), one per HTTP attempt, as ``tests/fakes/replay.py`` reads its
recordings: ``method``, ``uri``, ``body`` (the request's JSON), ``status``, ``content_type`` and
``answer`` (the answer's JSON, or its text). The OAuth token endpoint is never recorded, nor any
header (the Authorization header carries the token). Before it is written:

- every spreadsheet id becomes ``redacted-spreadsheet-0001``... and every Drive permission id (Drive
  derives them from the person's account) ``redacted-permission-0001``... (long enough to read as ids);
- every e-mail address becomes ``director@example.com``, ``service-account@example.iam.gserviceaccount.com``
  or ``person-1@example.com``...; a display name becomes the local part of that address; a photo link
  or a domain is replaced;
- tokens, keys and secrets (any field named like one) become ``REDACTED``; a project number in a message
  or a link becomes ``PROJECT``;
- a Drive listing keeps only the files the recording made (not the account's other files).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlencode, urlparse

import requests

EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
SHEET_URL = re.compile(r"/spreadsheets/(?!redacted-)([A-Za-z0-9_-]{10,})")
FILE_URL = re.compile(r"/files/(?!redacted-)([A-Za-z0-9_-]{10,})")
PERMISSION_URL = re.compile(r"/permissions/(?!redacted-)([A-Za-z0-9_-]+)")
PROJECT = re.compile(r"(project(?:s|_number)?[:/=]\s*)\d+|(project\s+)\d+", re.IGNORECASE)
SECRET_KEYS = ("token", "secret", "private_key", "password", "assertion", "key_id")
PLACEHOLDERS = ("@example.com", "@example.iam.gserviceaccount.com")


@dataclass
class Redactor:
    director: str = ""
    service_account: str = ""
    emails: dict[str, str] = field(default_factory=dict)
    ids: dict[str, str] = field(default_factory=dict)  # spreadsheet and permission ids -> placeholder

    def email(self, found: str) -> str:
        low = found.lower()
        if low not in self.emails:
            if self.director and low == self.director.lower():
                self.emails[low] = "director@example.com"
            elif self.service_account and low == self.service_account.lower():
                self.emails[low] = "service-account@example.iam.gserviceaccount.com"
            elif low.endswith(PLACEHOLDERS) and (low.startswith(("director@", "service-account@", "person-"))):
                self.emails[low] = low  # already a placeholder
            else:
                n = sum(1 for v in self.emails.values() if v.startswith("person-")) + 1
                self.emails[low] = f"person-{n}@example.com"
        return self.emails[low]

    def id(self, found: str, kind: str) -> str:
        if found not in self.ids:
            n = sum(1 for v in self.ids.values() if v.startswith(f"redacted-{kind}-")) + 1
            self.ids[found] = f"redacted-{kind}-{n:04d}"
        return self.ids[found]

    def learn(self, doc: Any) -> None:
        """Ids to hide wherever they show up later: a spreadsheet's, a permission's."""
        if isinstance(doc, dict):
            if isinstance(doc.get("spreadsheetId"), str):
                self.id(doc["spreadsheetId"], "spreadsheet")
            if doc.get("kind") == "drive#permission" and isinstance(doc.get("id"), str):
                self.id(doc["id"], "permission")
            for p in doc.get("permissions") or [] if isinstance(doc.get("permissions"), list) else []:
                if isinstance(p, dict) and isinstance(p.get("id"), str):
                    self.id(p["id"], "permission")  # a listing's permissions: their kind may be masked out
            for v in doc.values():
                self.learn(v)
        elif isinstance(doc, list):
            for v in doc:
                self.learn(v)

    def text(self, s: str) -> str:
        s = SHEET_URL.sub(lambda m: "/spreadsheets/" + self.id(m.group(1), "spreadsheet"), s)
        s = FILE_URL.sub(lambda m: "/files/" + self.id(m.group(1), "spreadsheet"), s)
        s = PERMISSION_URL.sub(lambda m: "/permissions/" + self.id(m.group(1), "permission"), s)
        for raw, placeholder in sorted(self.ids.items(), key=lambda kv: -len(kv[0])):
            if len(raw) >= 8:
                s = s.replace(raw, placeholder)
        s = EMAIL.sub(lambda m: self.email(m.group(0)), s)
        return PROJECT.sub(lambda m: (m.group(1) or m.group(2)) + "PROJECT", s)

    def doc(self, doc: Any, key: str = "") -> Any:
        if isinstance(doc, dict):
            out = {k: self.doc(v, k) for k, v in doc.items()}
            if isinstance(out.get("displayName"), str):  # a person's name: the local part of their placeholder
                out["displayName"] = str(out.get("emailAddress", "REDACTED@")).split("@")[0]
            return out
        if isinstance(doc, list):
            return [self.doc(v, key) for v in doc]
        if isinstance(doc, str):
            if any(word in key.lower() for word in SECRET_KEYS):
                return "REDACTED"
            if key == "photoLink":
                return "https://example.com/photo.png"
            if key == "domain":
                return "example.com"
            if key == "id" and doc in self.ids:
                return self.ids[doc]
            return self.text(doc)
        return doc


def _answer(response: requests.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return response.text or None


@dataclass
class Recorder:
    """The observer of a gateway's HTTP client: every attempt, and the step (``name``) it belongs to."""

    name: str = ""
    raw: list[dict[str, Any]] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)  # the step of each entry of ``raw``
    made: set[str] = field(default_factory=set)  # ids of the files the recording created

    def __call__(self, method: str, endpoint: str, kwargs: dict[str, Any], response: requests.Response | None,
                 exc: BaseException | None) -> None:
        if response is None:  # a network fault: nothing was answered
            return
        uri = str(response.request.url) if response.request is not None else endpoint
        if response.request is None and kwargs.get("params"):
            uri += "?" + urlencode(kwargs["params"], doseq=True)
        body = kwargs.get("json")
        if body is None and kwargs.get("data") is not None:
            try:
                body = json.loads(kwargs["data"])
            except (TypeError, ValueError):
                body = None
        answer = _answer(response)
        if method.upper() == "POST" and uri.startswith("https://sheets.googleapis.com") and isinstance(answer, dict) \
                and urlparse(uri).path.rstrip("/").endswith("/spreadsheets"):
            self.made.add(str(answer.get("spreadsheetId", "")))
        self.raw.append({"method": method.upper(), "uri": uri, "body": body, "status": response.status_code,
                         "content_type": response.headers.get("Content-Type", ""), "answer": answer})
        self.steps.append(self.name)

    def of(self, step: str) -> list[dict[str, Any]]:
        return [e for e, s in zip(self.raw, self.steps, strict=True) if s == step]

    def redacted(self, redactor: Redactor) -> list[dict[str, Any]]:
        entries = [dict(e) for e in self.raw]
        for e in entries:
            if isinstance(e["answer"], dict) and isinstance(e["answer"].get("files"), list):
                e["answer"] = {**e["answer"], "files": [f for f in e["answer"]["files"]
                                                        if isinstance(f, dict) and f.get("id") in self.made]}
        for e in entries:  # every id first, so that one seen late is hidden everywhere
            redactor.learn(e["answer"])
            redactor.learn(e["body"])
        return [redactor.doc(e) for e in entries]


def kind_of(method: str, uri: str) -> str:
    """The kind of a call, from the request alone: its API method (as the discovery documents name it), and
    for ``spreadsheets.get`` what it asks (metadata, a field mask, or grid data)."""
    path, query = urlparse(uri).path, parse_qs(urlparse(uri).query)
    if "sheets.googleapis.com" in uri:
        if "/values:batchGet" in path:
            return "sheets.spreadsheets.values.batchGet"
        if path.endswith(":batchUpdate"):
            return "sheets.spreadsheets.batchUpdate"
        if method.upper() != "GET":
            return "sheets.spreadsheets.create"
        if "fields" in query:
            return "sheets.spreadsheets.get (field mask)"
        grid = query.get("includeGridData", ["false"])[0].lower() == "true"
        return "sheets.spreadsheets.get (grid data)" if grid else "sheets.spreadsheets.get (metadata)"
    if "/permissions" in path:
        kinds = {"GET": "list", "POST": "create", "PATCH": "update", "DELETE": "delete"}
        return f"drive.permissions.{kinds.get(method.upper(), method.lower())}"
    return {"DELETE": "drive.files.delete", "GET": "drive.files.list"}.get(method.upper(), "drive.files")


def write_jsonl(path: Any, entries: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries), "utf-8")
