"""Rebuild ``recordings/gspread/`` from gspread's VCR cassettes (see the README here for what is kept).

    python tests/fakes/recordings/vendor.py /path/to/gspread/tests/cassettes

Each cassette becomes ``gspread/<cassette name>.jsonl``: one interaction per line, as
``{"method", "uri", "body", "status", "content_type", "answer"}``. Request and response headers
are dropped (but the answer's Content-Type); JSON bodies are parsed (so the files hold them
compactly), other bodies stay text. A cassette is kept if it calls an endpoint sheetgm calls.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent / "gspread"
# the endpoints sheetgm calls (and the Sheets values calls whose answers are the same ValueRange)
KEPT = ("sheets.googleapis.com/v4/spreadsheets", "/permissions")


def _parse(text: Any) -> Any:
    if isinstance(text, dict):
        text = text.get("string")
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return str(text)


def convert(cassette: Path) -> list[dict[str, Any]]:
    out = []
    for it in json.loads(cassette.read_text("utf-8"))["interactions"]:
        req, res = it["request"], it["response"]
        headers = {k.lower(): v for k, v in res.get("headers", {}).items()}
        out.append({"method": req["method"], "uri": req["uri"], "body": _parse(req.get("body")),
                    "status": res["status"]["code"], "content_type": (headers.get("content-type") or [""])[0],
                    "answer": _parse(res.get("body"))})
    return out


def main(source: str) -> None:
    HERE.mkdir(exist_ok=True)
    for old in HERE.glob("*.jsonl"):
        old.unlink()
    kept = 0
    for cassette in sorted(Path(source).glob("*.json")):
        interactions = convert(cassette)
        if not any(k in i["uri"] for i in interactions for k in KEPT):
            print(f"left out {cassette.name}: no endpoint sheetgm calls")
            continue
        lines = (json.dumps(i, ensure_ascii=False, separators=(",", ":")) for i in interactions)
        (HERE / f"{cassette.stem}.jsonl").write_text("\n".join(lines) + "\n", "utf-8")
        kept += 1
    print(f"{kept} cassettes written to {HERE}")


if __name__ == "__main__":
    main(sys.argv[1])
