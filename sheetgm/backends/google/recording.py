"""A redacted recording of Google calls (`sheetgm doctor --live`), in a form the tests can replay.

The file is a JSON list of ``{"name", "request": {"method", "url", "body"}, "response": {"status",
"body"}}``, one per HTTP attempt (the OAuth token endpoint is never recorded). Before it is written:

- every spreadsheet id becomes ``SPREADSHEET_1``, ``SPREADSHEET_2``... and every Drive permission id
  (Drive derives them from the person's account) ``PERMISSION_1``...;
- every e-mail address becomes ``director@example.com``, ``service-account@example.iam.gserviceaccount.com``
  or ``person-1@example.com``...; a display name, photo link or domain is replaced;
- tokens, keys and secrets (any field named like one) become ``REDACTED``; a project number in a message
  or a link becomes ``PROJECT``.

No header is recorded at all (the Authorization header carries the token).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import requests

EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
SHEET_URL = re.compile(r"/spreadsheets/(?!SPREADSHEET_)([A-Za-z0-9_-]{10,})")
FILE_URL = re.compile(r"/files/(?!SPREADSHEET_)([A-Za-z0-9_-]{10,})")
PERMISSION_URL = re.compile(r"/permissions/(?!PERMISSION_)([A-Za-z0-9_-]+)")
PROJECT = re.compile(r"(project(?:s|_number)?[:/=]\s*)\d+|(project\s+)\d+", re.IGNORECASE)
SECRET_KEYS = ("token", "secret", "private_key", "password", "assertion", "key_id")
PERSONAL_KEYS = {"displayName": "REDACTED", "photoLink": "REDACTED", "domain": "example.com"}


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
            elif low.endswith(("@example.com", "@example.iam.gserviceaccount.com")):
                self.emails[low] = low  # already a placeholder
            else:
                self.emails[low] = f"person-{sum(1 for v in self.emails.values() if v.startswith('person-')) + 1}" \
                                   "@example.com"
        return self.emails[low]

    def id(self, found: str, kind: str) -> str:
        if found not in self.ids:
            n = sum(1 for v in self.ids.values() if v.startswith(kind)) + 1
            self.ids[found] = f"{kind}_{n}"
        return self.ids[found]

    def learn(self, doc: Any) -> None:
        """Ids to hide wherever they show up later: a spreadsheet's, a permission's."""
        if isinstance(doc, dict):
            if isinstance(doc.get("spreadsheetId"), str):
                self.id(doc["spreadsheetId"], "SPREADSHEET")
            if doc.get("kind") == "drive#permission" and isinstance(doc.get("id"), str):
                self.id(doc["id"], "PERMISSION")
            if doc.get("kind") == "drive#file" and isinstance(doc.get("id"), str):
                self.id(doc["id"], "SPREADSHEET")
            for f in doc.get("files") or [] if isinstance(doc.get("files"), list) else []:
                if isinstance(f, dict) and isinstance(f.get("id"), str):
                    self.id(f["id"], "SPREADSHEET")  # a listing's files: their kind is masked out
            for v in doc.values():
                self.learn(v)
        elif isinstance(doc, list):
            for v in doc:
                self.learn(v)

    def text(self, s: str) -> str:
        s = SHEET_URL.sub(lambda m: "/spreadsheets/" + self.id(m.group(1), "SPREADSHEET"), s)
        s = FILE_URL.sub(lambda m: "/files/" + self.id(m.group(1), "SPREADSHEET"), s)
        s = PERMISSION_URL.sub(lambda m: "/permissions/" + self.id(m.group(1), "PERMISSION"), s)
        for raw, placeholder in sorted(self.ids.items(), key=lambda kv: -len(kv[0])):
            if len(raw) >= 8:
                s = s.replace(raw, placeholder)
        s = EMAIL.sub(lambda m: self.email(m.group(0)), s)
        return PROJECT.sub(lambda m: (m.group(1) or m.group(2)) + "PROJECT", s)

    def doc(self, doc: Any, key: str = "") -> Any:
        if isinstance(doc, dict):
            return {k: self.doc(v, k) for k, v in doc.items()}
        if isinstance(doc, list):
            return [self.doc(v, key) for v in doc]
        if isinstance(doc, str):
            if any(word in key.lower() for word in SECRET_KEYS):
                return "REDACTED"
            if key in PERSONAL_KEYS:
                return PERSONAL_KEYS[key]
            if key == "id" and doc in self.ids:
                return self.ids[doc]
            return self.text(doc)
        return doc


def _body(response: requests.Response | None) -> Any:
    if response is None:
        return None
    try:
        return response.json()
    except ValueError:
        return response.text[:2000] or None


@dataclass
class Recorder:
    """The observer of a gateway's HTTP client: every attempt, with the name of the step it belongs to."""

    name: str = ""
    raw: list[dict[str, Any]] = field(default_factory=list)

    def __call__(self, method: str, endpoint: str, kwargs: dict[str, Any], response: requests.Response | None,
                 exc: BaseException | None) -> None:
        url = str(response.request.url) if response is not None and response.request is not None else endpoint
        if response is None and kwargs.get("params"):
            url += "?" + urlencode(kwargs["params"], doseq=True)
        body = kwargs.get("json")
        if body is None and kwargs.get("data") is not None:
            try:
                body = json.loads(kwargs["data"])
            except (TypeError, ValueError):
                body = None
        status = response.status_code if response is not None else 0
        answer = _body(response) if response is not None else {"network": type(exc).__name__ if exc else ""}
        self.raw.append({"name": self.name, "request": {"method": method.upper(), "url": url, "body": body},
                         "response": {"status": status, "body": answer}})

    def answers(self, name: str) -> list[Any]:
        return [e["response"]["body"] for e in self.raw if e["name"] == name]

    def redacted(self, redactor: Redactor) -> list[dict[str, Any]]:
        for e in self.raw:  # every id first, so that one seen late is hidden everywhere
            redactor.learn(e["response"]["body"])
            redactor.learn(e["request"]["body"])
        return [redactor.doc(e) for e in self.raw]
