"""The other workbooks' metadata kept in a hidden tab of one workbook (the director's), so that a fresh
process writes a workbook it has not read without first reading its tab ids.

A scheduled run reads the director workbook first, in one ``spreadsheets.get`` that brings every
tab's values: the hidden tab comes along for free. A write to the director workbook carries the
tab's update when a write of this process changed another workbook's metadata (a new protection,
a grown grid), so keeping it costs no call either.

What is kept per workbook: tab ids and grid sizes, and protection ids by description. How far each
is trusted: a stale tab id or grid size makes the batch fail with a 400 (nothing applied), and the
gateway then rebuilds it once from fresh metadata; a stale protection id likewise. A protection
whose description the tab does not know may still exist (a run that died before saving the tab
may have made it), so a write that protects or unprotects such a description reads the workbook's
metadata first instead of trusting the tab.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from sheetgm.backends.a1 import quote_tab
from sheetgm.backends.google import translate

META_TAB = "_sheetgm_ids"
Json = dict[str, Any]


def dump(meta: translate.Meta) -> str:
    data = {"tabs": {name: [t.sheet_id, t.rows, t.cols] for name, t in meta.tabs.items()},
            "protected": {str(pid): d for pid, d in sorted(meta.protected.items())}}
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def load(text: str) -> translate.Meta | None:
    """A workbook's metadata from its row of the tab; None if the row was damaged (it is then read anew)."""
    try:
        data = json.loads(text)
        tabs = {str(name): translate.TabMeta(int(v[0]), int(v[1]), int(v[2])) for name, v in data["tabs"].items()}
        protected = {int(pid): str(d) for pid, d in data["protected"].items()}
    except (ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None
    return translate.Meta(tabs, protected)


class MetaCache:
    """The hidden tab of the ``home`` workbook: what was read from it, and what to write back."""

    def __init__(self, home: str) -> None:
        self.home = home
        self.saved: dict[str, str] = {}  # key -> its row as last read or written

    def take(self, doc: Json) -> None:
        """Load the tab from a ``spreadsheets.get`` of the home workbook with every tab's values."""
        if any(s["properties"]["title"] == META_TAB for s in doc.get("sheets", [])):
            rows = translate.read_values(doc, [quote_tab(META_TAB)], self.home)[quote_tab(META_TAB)]
            self.saved = {row[0]: row[1] for row in rows if len(row) >= 2 and row[0] and row[0] != self.home}

    def get(self, key: str) -> translate.Meta | None:
        return load(self.saved[key]) if key in self.saved else None

    def forget(self, key: str) -> None:
        self.saved.pop(key, None)

    def requests(self, known: Mapping[str, translate.Meta], home: translate.Meta) -> tuple[list[Json], dict[str, str]]:
        """The requests that bring the tab up to date with ``known`` (none if it is), to append to a write
        of the home workbook whose metadata (a draft) is ``home``; and the rows they write."""
        rows = dict(self.saved)
        rows.update({key: dump(meta) for key, meta in known.items() if key != self.home})
        if rows == self.saved:
            return [], rows
        out: list[Json] = []
        if META_TAB not in home.tabs:
            sid = translate.new_sheet_id(META_TAB, home)
            home.tabs[META_TAB] = translate.TabMeta(sid, 1000, 26)  # a new tab's grid
            out.append({"addSheet": {"properties": {"title": META_TAB, "sheetId": sid, "hidden": True}}})
        tab = home.tabs[META_TAB]
        cells = [{"values": [{"userEnteredValue": {"stringValue": k}}, {"userEnteredValue": {"stringValue": v}}]}
                 for k, v in sorted(rows.items())]
        span = {"sheetId": tab.sheet_id, "startRowIndex": 0, "endRowIndex": len(cells), "startColumnIndex": 0,
                "endColumnIndex": 2}
        if len(cells) > tab.rows:
            out.append({"appendDimension": {"sheetId": tab.sheet_id, "dimension": "ROWS",
                                            "length": len(cells) - tab.rows}})
            tab.rows = len(cells)
        out.append({"updateCells": {"range": span, "rows": cells, "fields": "userEnteredValue"}})
        return out, rows
