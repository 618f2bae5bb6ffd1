"""The rule index of docs/rules.md: which cases cover which rule.

A rule in docs/rules.md is a bullet that starts with its id in bold
(``- **R-MAP-1** ...``); the bullet ends with a line ``  Cases: MAP-01, MAP-02``
(``Cases: none`` when no case covers it yet). ``rewrite_index`` regenerates
those lines from the case book, so the index never goes stale.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from sheetgm.casebook.model import Case

RULE_RE = re.compile(r"^- \*\*([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\*\*")
SPEC_RULE_RE = re.compile(r"^- (R-[A-Z0-9]+(?:-[A-Z0-9]+)*)\b")
CASES_RE = re.compile(r"^  Cases: ")
CASES_PREFIX = "  Cases: "


def doc_rule_ids(text: str) -> list[str]:
    """Rule ids defined in docs/rules.md, in document order."""
    return [m.group(1) for line in text.splitlines() if (m := RULE_RE.match(line))]


def spec_rule_ids(text: str) -> list[str]:
    """Rule ids defined in RULES-SPEC.md (bullets ``- R-XXX-N text``)."""
    return [m.group(1) for line in text.splitlines() if (m := SPEC_RULE_RE.match(line))]


def coverage(cases: Iterable[Case]) -> dict[str, list[str]]:
    """Rule id → ids of the cases that cover it, in case-book order."""
    out: dict[str, list[str]] = {}
    for c in cases:
        for rid in c.covers:
            out.setdefault(rid, [])
            if c.id not in out[rid]:
                out[rid].append(c.id)
    return out


def cases_line(ids: list[str]) -> str:
    return CASES_PREFIX + (", ".join(ids) if ids else "none")


def rewrite_index(text: str, cases: Iterable[Case]) -> str:
    """docs/rules.md with every rule's ``Cases:`` line regenerated (added where missing)."""
    cov = coverage(cases)
    lines = text.splitlines()
    out: list[str] = []
    current: str | None = None

    def close() -> None:
        if current is not None:
            out.append(cases_line(cov.get(current, [])))

    for line in lines:
        m = RULE_RE.match(line)
        if current is not None:
            if CASES_RE.match(line):
                close()
                current = None
                continue
            if m or not line.startswith("  "):  # the bullet ended without a Cases line
                close()
                current = None
        if m:
            current = m.group(1)
        out.append(line)
    close()
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def rewrite_file(path: str | Path, cases: Iterable[Case]) -> bool:
    """Rewrite the index lines of a rules document in place; True when it changed."""
    p = Path(path)
    old = p.read_text("utf-8")
    new = rewrite_index(old, cases)
    if new != old:
        p.write_text(new, "utf-8")
    return new != old
