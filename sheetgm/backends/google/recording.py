"""A redacted recording of Google calls (`sheetgm doctor --live`), in the form the tests' replayer reads.

One JSON object a line (``.jsonl``), one per HTTP attempt, as ``tests/fakes/replay.py`` reads its
recordings: ``method``, ``uri``, ``body`` (the request's JSON), ``status``, ``content_type`` and
``answer`` (the answer's JSON, or its text). The OAuth token endpoint is never recorded, nor any
header (the Authorization header carries the token). Before it is written, a Drive listing keeps only the
files the recording made (not the account's other files), and everything else goes through `redact.Redactor`:
an allow-list of keys and value shapes, so that nothing personal survives whatever key or string it hides in.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, urlencode, urlparse

import requests

from sheetgm.backends.google.redact import Redactor
from sheetgm.core.values import field, record

__all__ = ["Recorder", "Redactor", "kind_of", "write_jsonl"]

def _answer(response: requests.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return response.text or None


@record
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
