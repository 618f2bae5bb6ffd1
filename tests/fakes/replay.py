"""Replay Google's recorded answers (gspread's cassettes, ``recordings/gspread``) against `FakeGoogle`.

Each cassette is replayed on a fresh fake, in order: every recorded request is sent to the fake
and its answer compared with Google's. A request the fake does not answer (Drive ``files.get``,
``files.list``, uploads, ...) is counted as such and skipped. A spreadsheet the recording did not
create is seeded from the first answer that shows it (its ``spreadsheets.get``), or, when Google
only ever answered 403, as a file of someone else's. The fake acts as the account that recorded
(``ACCOUNT``, or ``--account=EMAIL``).

What the comparison ignores (the normaliser): ids that Google picks (spreadsheet and file ids,
``sheetId`` of an added tab, ``protectedRangeId``, ``namedRangeId``) are matched by position the
first time they appear and must then stay consistent; etags and times (``IGNORED``) are dropped;
everything else counts, key order and JSON number form (``1`` and ``1.0``) aside. An error answer
counts as identical when the status and the body's shape (``error.code``, ``error.status``, Drive's
``errors[].reason``) match: the message of a 400 names the offending field in words that are not
contractual.

    python tests/fakes/replay.py                   # the table
    python tests/fakes/replay.py --why [--where]   # and the first differences (where: each answer)
    python tests/fakes/replay.py FOLDER --account=EMAIL   # other recordings in the same form (*.jsonl)
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

if __name__ == "__main__":  # run as a script: import the fakes from the tests' root, not from fakes/ itself
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import requests

from fakes.google import FakeGoogle

RECORDINGS = Path(__file__).resolve().parent / "recordings" / "gspread"
# The service account gspread recorded with (its address is in the recorded protections). It
# created its own files: service accounts made before 2025 had Drive storage.
ACCOUNT = "telegram-budgeter@telegram-budgeter.iam.gserviceaccount.com"
STRANGER = "someone-else@example.com"
ID_KEYS = {"spreadsheetId", "id", "sheetId", "protectedRangeId", "namedRangeId"}
IGNORED = {"etag", "createdTime", "modifiedTime", "modifiedByMeTime", "viewedByMeTime"}
FILE_ID = re.compile(r"(?<=/spreadsheets/)[A-Za-z0-9_-]{20,}|(?<=/files/)[A-Za-z0-9_-]{20,}")
LONG_ID = re.compile(r"[A-Za-z0-9_-]{20,}")  # a file id (a spreadsheet's), also found inside texts (its URL)
Json = Any


@dataclass(frozen=True)
class Interaction:
    method: str
    uri: str
    body: Json
    status: int
    content_type: str
    answer: Json


@dataclass(frozen=True)
class Outcome:
    cassette: str
    number: int  # 0-based, within the cassette
    endpoint: str  # the discovery method id, or "other"
    answered: bool  # whether the fake answers this endpoint
    identical: bool
    why: str = ""  # the first difference


def cassettes(folder: Path = RECORDINGS) -> Iterator[tuple[str, list[Interaction]]]:
    for path in sorted(folder.glob("*.jsonl")):
        lines = path.read_text("utf-8").splitlines()
        yield path.stem, [Interaction(**json.loads(line)) for line in lines if line.strip()]


@dataclass
class Ids:
    """Recorded ids and the fake's, matched as they appear."""

    to_fake: dict[Any, Any] = field(default_factory=dict)

    def learn(self, recorded: Json, fake: Json) -> None:
        """Match the ids of two answers walked side by side (a recorded id seen first here)."""
        if isinstance(recorded, dict) and isinstance(fake, dict):
            for key, value in recorded.items():
                if key in ID_KEYS and key in fake and value not in self.to_fake and type(value) is type(fake[key]):
                    self.to_fake[value] = fake[key]
                if key in fake:
                    self.learn(value, fake[key])
        elif isinstance(recorded, list) and isinstance(fake, list):
            for a, b in zip(recorded, fake, strict=False):
                self.learn(a, b)

    def fake_text(self, text: str) -> str:
        return FILE_ID.sub(lambda m: str(self.to_fake.get(m.group(), m.group())), text)

    def fake_body(self, body: Json) -> Json:
        """A recorded request body with the fake's ids."""
        if isinstance(body, dict):
            return {k: (self.to_fake.get(v, v) if k in ID_KEYS and not isinstance(v, bool) else self.fake_body(v))
                    for k, v in body.items()}
        if isinstance(body, list):
            return [self.fake_body(v) for v in body]
        return body

    def recorded(self, answer: Json) -> Json:
        """The fake's answer with the recorded ids (the fake's strings rewritten, ids mapped back)."""
        back = {v: k for k, v in self.to_fake.items()}
        texts = {str(v): str(k) for k, v in self.to_fake.items() if isinstance(k, str) and LONG_ID.fullmatch(k)}

        def walk(value: Json, key: str = "") -> Json:
            if isinstance(value, dict):
                return {k: walk(v, k) for k, v in value.items()}
            if isinstance(value, list):
                return [walk(v) for v in value]
            if key in ID_KEYS and value in back and not isinstance(value, bool):
                return back[value]
            if isinstance(value, str):
                for fake_id, rec in texts.items():
                    value = value.replace(fake_id, rec)
            return value

        return walk(answer)


def difference(recorded: Json, fake: Json, at: str = "") -> str:
    """The first place two JSON documents differ ("" if they do not)."""
    if isinstance(recorded, dict) and isinstance(fake, dict):
        recorded = {k: v for k, v in recorded.items() if k not in IGNORED}
        fake = {k: v for k, v in fake.items() if k not in IGNORED}
        for key in [*recorded, *(k for k in fake if k not in recorded)]:
            if key not in fake:
                return f"{at}.{key}: missing in the fake's answer"
            if key not in recorded:
                return f"{at}.{key}: only in the fake's answer ({json.dumps(fake[key])[:60]})"
            found = difference(recorded[key], fake[key], f"{at}.{key}")
            if found:
                return found
        return ""
    if isinstance(recorded, list) and isinstance(fake, list):
        for i, (a, b) in enumerate(zip(recorded, fake, strict=False)):
            found = difference(a, b, f"{at}[{i}]")
            if found:
                return found
        if len(recorded) != len(fake):
            return f"{at}: {len(recorded)} items recorded, {len(fake)} from the fake"
        return ""
    same = recorded == fake and (isinstance(recorded, bool) == isinstance(fake, bool))
    return "" if same else f"{at}: recorded {json.dumps(recorded)[:60]}, fake {json.dumps(fake)[:60]}"


def error_shape(status: int, body: Json) -> Json:
    """What counts in an error answer: the status and the body's machine-readable parts."""
    err = body.get("error") if isinstance(body, dict) else None
    if not isinstance(err, dict):
        return {"status": status, "page": isinstance(body, str)}
    return {"status": status, "code": err.get("code"), "canonical": err.get("status"),
            "reasons": sorted(str(e.get("reason")) for e in err.get("errors", []) if isinstance(e, dict))}


class Replayer:
    def __init__(self, name: str, interactions: list[Interaction], account: str = ACCOUNT) -> None:
        self.name, self.interactions = name, interactions
        self.fake = FakeGoogle(account=account)
        self.fake.with_storage.add(account)
        self.ids = Ids()

    def run(self) -> list[Outcome]:
        with self.fake:
            return [self._one(i, it) for i, it in enumerate(self.interactions)]

    def _one(self, number: int, it: Interaction) -> Outcome:
        found = self.fake.discovery.match(it.method, it.uri)
        endpoint = found[0].id if found else "other"
        if not self.fake.answers(endpoint):
            return Outcome(self.name, number, endpoint, answered=False, identical=False, why="not answered")
        for recorded_id in FILE_ID.findall(it.uri):
            if recorded_id not in self.ids.to_fake:
                self._seed(recorded_id, number)
        body = self.ids.fake_body(it.body)
        reply = requests.request(it.method, self.ids.fake_text(it.uri),
                                 data=None if body is None else json.dumps(body),
                                 headers={"Content-Type": "application/json"} if body is not None else {},
                                 timeout=10)
        answer: Json = reply.json() if reply.text and "json" in reply.headers.get("Content-Type", "") else reply.text
        if reply.status_code < 400 and it.status < 400:
            self.ids.learn(it.answer, answer)
        if reply.status_code >= 400 or it.status >= 400:
            why = difference(error_shape(it.status, it.answer), error_shape(reply.status_code, answer))
        else:
            why = difference(it.answer if it.answer is not None else "",
                             self.ids.recorded(answer if answer is not None else ""))
        return Outcome(self.name, number, endpoint, answered=True, identical=not why, why=why)

    def _seed(self, recorded_id: str, now: int) -> None:
        """A spreadsheet the recording did not create: as Google first showed it, or someone else's."""
        shown = next((it.answer for it in self.interactions[now:] if it.status == 200 and it.method == "GET"
                      and isinstance(it.answer, dict) and it.answer.get("spreadsheetId") == recorded_id
                      and "sheets" in it.answer), None)
        if shown is None:
            if any(recorded_id in it.uri and it.status == 403 for it in self.interactions):
                self.fake.add_spreadsheet("private", ["Sheet1"], sid=recorded_id, owner=STRANGER)
                self.ids.to_fake[recorded_id] = recorded_id
            return  # never shown: the fake answers 404 as Google did
        sid = self.fake.add_spreadsheet(shown["properties"]["title"], [], sid=recorded_id)
        book = self.fake.books[sid]
        for sheet in shown["sheets"]:
            props = sheet["properties"]
            tab = book.add_sheet(props["title"], props["sheetId"])
            grid = props.get("gridProperties", {})
            tab.grid_rows, tab.grid_cols = grid.get("rowCount", 0), grid.get("columnCount", 0)
            tab.frozen_rows = grid.get("frozenRowCount", 0)
        for key in ("locale", "timeZone"):
            if key in shown["properties"]:
                setattr(book, snake(key), shown["properties"][key])
        self.ids.to_fake[recorded_id] = sid


def snake(name: str) -> str:
    return re.sub(r"([A-Z])", r"_\1", name).lower()


def replay(folder: Path = RECORDINGS, account: str = ACCOUNT) -> list[Outcome]:
    out: list[Outcome] = []
    for name, interactions in cassettes(folder):
        out.extend(Replayer(name, interactions, account).run())
    return out


def table(outcomes: list[Outcome]) -> dict[str, tuple[int, int, int]]:
    """Per endpoint: (recorded, answered by the fake, identical)."""
    recorded, answered, identical = Counter[str](), Counter[str](), Counter[str]()
    for o in outcomes:
        recorded[o.endpoint] += 1
        answered[o.endpoint] += o.answered
        identical[o.endpoint] += o.identical
    return {e: (recorded[e], answered[e], identical[e]) for e in sorted(recorded, key=lambda e: -recorded[e])}


def render(rows: dict[str, tuple[int, int, int]]) -> str:
    lines = ["| endpoint | recorded | answered by the fake | identical |", "| --- | ---: | ---: | ---: |"]
    lines += [f"| `{e}` | {r} | {a} | {i} |" for e, (r, a, i) in rows.items()]
    total = [sum(v[k] for v in rows.values()) for k in range(3)]
    lines.append(f"| all | {total[0]} | {total[1]} | {total[2]} |")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    folders = [a for a in argv if not a.startswith("--")]
    account = next((a.split("=", 1)[1] for a in argv if a.startswith("--account=")), ACCOUNT)
    outcomes = replay(Path(folders[0]) if folders else RECORDINGS, account)
    print(render(table(outcomes)))
    if "--why" in argv:
        reasons = Counter(f"{o.endpoint} {re.sub(r'[0-9]+', 'N', o.why)}" for o in outcomes
                          if o.answered and not o.identical)
        for why, n in reasons.most_common():
            print(f"{n:5d}  {why}")
        if "--where" in argv:
            for o in outcomes:
                if o.answered and not o.identical:
                    print(f"{o.cassette}#{o.number} {o.endpoint} {quote(o.why, safe=' :.[]/')}")


if __name__ == "__main__":
    main(sys.argv[1:])
