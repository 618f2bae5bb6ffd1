"""Every kind of checker note is said in both languages and has a case-book case that expects it beside a
problem it must not cover (issue 15: "case-book cases that expect a problem beside each kind of checker note";
RUL-41), so a note that excused every failure would fail a case."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheetgm.casebook.loader import load_paths
from sheetgm.core.texts import LANGS, has
from sheetgm.core.unknowns import NOTES

BOOK = Path(__file__).parent / "casebook"


def _codes(wants: list[object]) -> set[str]:
    return {w if isinstance(w, str) else str(w["code"]) for w in wants}  # type: ignore[index]


def beside_a_problem() -> dict[str, list[str]]:
    """note code -> the cases whose expectations name it for a player who also has a problem expected."""
    out: dict[str, list[str]] = {}
    for case in load_paths([str(BOOK)]):
        expects = [case.expect or {}] + [n.expect or {} for n in case.nights]
        for expect in expects:
            for alias, notes in expect.get("notes", {}).items():
                if expect.get("problems", {}).get(alias):
                    for code in _codes(notes):
                        out.setdefault(code, []).append(case.id)
    return out


@pytest.mark.parametrize("note", NOTES)
def test_each_note_kind_has_a_case_beside_a_problem_and_words(note: str) -> None:
    assert beside_a_problem().get(note), f"no case expects {note} beside a problem"
    assert all(has(lang, note) for lang in LANGS)
