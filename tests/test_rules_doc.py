"""docs/rules.md restates every rule id, its case index is current, and the case book covers the rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheetgm.casebook import load_paths
from sheetgm.casebook.index import coverage, doc_rule_ids, rewrite_index, spec_rule_ids

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules.md"
BOOK = ROOT / "tests" / "casebook"
SPEC = ROOT.parent / "shared" / "RULES-SPEC.md"
# Sections 10 (roles) and 11 (items) get their case files later; every other rule must have a case now.
NOT_YET_REQUIRED = ("R-ROLE-", "R-ITEM-")


@pytest.fixture(scope="module")
def doc_text() -> str:
    return DOC.read_text("utf-8")


@pytest.fixture(scope="module")
def doc_ids(doc_text: str) -> list[str]:
    return doc_rule_ids(doc_text)


@pytest.fixture(scope="module")
def cases() -> list:  # type: ignore[type-arg]
    return load_paths([BOOK])


def test_doc_ids_are_unique(doc_ids: list[str]) -> None:
    dupes = sorted({i for i in doc_ids if doc_ids.count(i) > 1})
    assert not dupes, f"rule ids defined twice in docs/rules.md: {dupes}"


def test_doc_restates_every_rule_of_the_spec(doc_ids: list[str]) -> None:
    if not SPEC.is_file():
        pytest.skip(f"RULES-SPEC.md not found at {SPEC}; docs/rules.md carries the id list itself")
    spec = spec_rule_ids(SPEC.read_text("utf-8"))
    assert len(spec) > 80, "could not read the rule ids of RULES-SPEC.md"
    missing = [i for i in spec if i not in doc_ids]
    extra = [i for i in doc_ids if i not in spec and not i.startswith("RUL-")]
    assert not missing, f"rules of RULES-SPEC.md missing from docs/rules.md: {missing}"
    assert not extra, f"docs/rules.md defines ids RULES-SPEC.md does not have: {extra}"


def test_every_required_rule_has_a_case(doc_ids: list[str], cases: list) -> None:  # type: ignore[type-arg]
    cov = coverage(cases)
    uncovered = [i for i in doc_ids if not i.startswith(NOT_YET_REQUIRED) and not i.startswith("RUL-")
                 and not cov.get(i)]
    assert not uncovered, f"rules without a case (add one to tests/casebook): {uncovered}"


def test_cases_name_only_existing_ids(doc_ids: list[str], cases: list) -> None:  # type: ignore[type-arg]
    known = set(doc_ids)
    bad = [f"{c.test_id} covers {rid}" for c in cases for rid in c.covers if rid not in known]
    assert not bad, f"cases name rule ids that docs/rules.md does not define: {bad}"


def test_cases_index_is_up_to_date(doc_text: str, cases: list) -> None:  # type: ignore[type-arg]
    assert rewrite_index(doc_text, cases) == doc_text, (
        "docs/rules.md 'Cases:' lines are stale; run: python -m sheetgm.casebook index docs/rules.md"
    )


def test_every_rule_has_a_cases_line(doc_text: str) -> None:
    lines = doc_text.splitlines()
    rules = sum(1 for line in lines if line.startswith("- **"))
    assert rules == sum(1 for line in lines if line.startswith("  Cases: "))
