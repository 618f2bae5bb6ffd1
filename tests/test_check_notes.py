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


@pytest.mark.parametrize("params", [{"frm": "B1"}, {"tile": "B2"}, {}, {"frm": "B1", "tile": "nowhere"}])
def test_a_board_failure_that_names_no_edge_is_a_problem_not_a_note(params: dict[str, str]) -> None:
    """The board note needs the edge the step meets (moves.py names both tiles); without it, nothing is excused."""
    from sheetgm.core.context import Illegal
    from sheetgm.core.unknowns import BOARD, Unknowns

    ctx = None  # never reached: the edge is read from the failure first
    assert Unknowns()._board_gone(ctx, Illegal("err.rule.board", **params), BOARD) is None  # type: ignore[arg-type]


def test_a_problem_is_worded_with_its_step_in_the_players_language() -> None:
    from sheetgm.core.check import Problem
    from sheetgm.core.observe import display_params
    from sheetgm.core.texts import render

    params = {"frm": "B1", "tile": "D1"}
    for lang in LANGS:
        reason = render(lang, "err.rule.not_adjacent", **display_params(lang, params))
        assert "B1" in reason and "D1" in reason
        assert Problem("err.rule.not_adjacent", params).message(lang) == reason
        assert Problem("err.rule.not_adjacent", params, 2).message(lang) == render(lang, "check.step", step=2,
                                                                                   reason=reason)
        assert Problem("err.rule.not_adjacent", params, 3, day=True).message(lang) == render(
            lang, "check.day_step", step=3, reason=reason)
    assert Problem("err.rule.not_adjacent", params, 2).message() == Problem("err.rule.not_adjacent", params,
                                                                            2).message("zh")
    assert render("zh", "check.step", step=2, reason="x") != render("zh", "check.day_step", step=2, reason="x")
    assert render("zh", "check.step", step=2, reason="x") != render("en", "check.step", step=2, reason="x")


def test_a_problems_item_is_named_in_the_players_language() -> None:
    from sheetgm.core.check import Problem

    assert "地图" in Problem("err.rule.not_holding", {"item": "map"}, 1).message("zh")
    assert "Map" in Problem("err.rule.not_holding", {"item": "map"}, 1).message("en")
