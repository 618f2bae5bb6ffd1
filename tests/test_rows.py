"""`sheets/rows.py` on its own: which row is tonight's, where a new label may go, what is told, and how often."""

# covers: RUL-45

from __future__ import annotations

import time

from sheetgm.backends.port import SetValues
from sheetgm.sheets import layout
from sheetgm.sheets.rows import free_row, locate, restore

KEY = "N2-survivor"


def tab(*rows: tuple[str, ...]) -> list[list[str]]:
    return [list(r) + [""] * (7 - len(r)) for r in rows]


def find(t: list[list[str]], archived: dict[str, str] | None = None, key: str = KEY, night: int = 2):  # type: ignore[no-untyped-def]
    return locate(t, key, night, "en", "en", archived or {"N1-survivor": "search"}, "Ann")


N1 = ("N1-survivor", "search", "✓", "Resolved", "", "05-01 20:00")


def test_two_rows_with_tonights_label_the_one_with_an_order_is_read() -> None:
    found = find(tab(N1, (KEY, ""), (KEY, "crack", "✓")))
    assert (found.row, found.cells[1]) == (4, "crack")
    assert any("2 rows carry the label" in n and "row 4" in n for n in found.notes)


def test_two_rows_with_tonights_label_both_written_the_usual_row_wins_else_the_first() -> None:
    assert find(tab(N1, (KEY, "heal"), (KEY, "crack"))).row == 3  # row 3 is night 2's usual row
    assert find(tab(N1, ("",), (KEY, "heal"), (KEY, "crack"))).row == 4  # neither usual: the first
    assert find(tab(N1, ("",), (KEY, ""), (KEY, ""))).row == 4


def test_a_new_label_goes_only_into_an_empty_row() -> None:
    assert free_row(tab(N1), KEY, 2) == 3
    assert free_row(tab(N1, ("", "my notes")), KEY, 2) == 4  # the usual row holds the player's line
    assert free_row(tab(("",), N1, ("", "", "", "x")), KEY, 2) == 5  # below every label, past anything
    assert free_row(tab(N1, ("", "a"), ("",), ("", "b")), KEY, 2) == 4
    assert free_row(tab(N1, (KEY,)), KEY, 2) == 3  # it is there already


def test_text_typed_over_a_label_is_moved_or_left_never_written_over() -> None:
    moved = find(tab(N1, ("crack",)))
    assert moved.row == 3 and moved.cells[1] == "crack"
    assert moved.repairs == [SetValues(layout.rng("Orders", "A3:B3"), ((KEY, "crack"),))]
    left = find(tab(N1, ("my plan", "crack", "✓")))
    assert left.row == 4 and left.cells[1] == ""  # row 3 is not written: tonight's row is a new one
    assert left.repairs == [SetValues(layout.rng("Orders", "A4"), ((KEY,),))]
    assert any("row 3 holds 'my plan'" in n and "row 4" in n for n in left.notes)


def test_a_label_changed_by_hand_is_given_back() -> None:
    found = find(tab(N1, ("N9-survivor", "crack")))
    assert found.row == 3 and found.cells[1] == "crack"
    assert found.repairs == [SetValues(layout.rng("Orders", "A3"), ((KEY,),))]


def test_a_label_cleared_beside_an_order_is_written_back_and_the_order_read() -> None:
    found = find(tab(N1, ("", "crack", "✓")))
    assert found.row == 3 and found.cells[1] == "crack"


def test_a_million_filler_rows_are_one_line_not_a_million() -> None:
    filler = [["", f"filler {i}", "", "", "", "", ""] for i in range(1_000_000)]
    t = tab(N1, (KEY, "crack", "✓")) + filler
    start = time.perf_counter()
    found = find(t)
    took = time.perf_counter() - start
    assert found.row == 3 and found.cells[1] == "crack"
    assert len(found.notes) == 1 and "1000000 rows have text but no stage label" in found.notes[0]
    assert "4, 5, 6, 7, 8 … (+999995)" in found.notes[0]
    assert len(found.director_notes) == 1
    assert took < 30  # a guard against a quadratic walk, not a speed figure (benchmarks/bench_rows.py)


def test_a_stage_row_gone_is_written_back_into_an_empty_row() -> None:
    record = [("N1-survivor", 2, ["N1-survivor", "search", "✓", "Resolved", "", "20:00", ""])]
    ops, placed, after = restore(tab((KEY, "crack")), record, "en")
    assert placed == [("N1-survivor", 3)] and after[1][:2] == ["N1-survivor", "search"]
    assert ops == [SetValues(layout.rng("Orders", "A3:G3"), (("N1-survivor", "search", "✓", "Resolved", "", "20:00",
                                                              ""),))]
    assert restore(tab(N1), record, "en")[0] == []  # there already: nothing written
    _ops, placed, _ = restore(tab(("",), ("", "notes")), record, "en")
    assert placed == [("N1-survivor", 2)]  # its own row is empty
