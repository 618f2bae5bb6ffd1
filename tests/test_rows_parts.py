"""sheets/rows.py's parts pinned on small tabs: where a new label goes, how a row is placed, how many rows a note
names, which of two labelled rows is read, and rows written again where they belong."""

from __future__ import annotations

from sheetgm.backends.port import SetValues
from sheetgm.sheets.rows import BLANK, _rows, free_row, locate, place, restore


def tab7(*rows: list[str]) -> list[list[str]]:
    """Rows as locate reads them: seven cells each."""
    return [(list(r) + BLANK)[:7] for r in rows]


def test_a_note_names_five_rows_and_counts_the_rest() -> None:
    assert _rows([2, 3, 4, 5, 6]) == "2, 3, 4, 5, 6"
    assert _rows([2, 3, 4, 5, 6, 7]) == "2, 3, 4, 5, 6 … (+1)"


def test_a_new_label_goes_to_its_row_else_the_first_empty_row_below_every_label() -> None:
    assert free_row([], "N1-survivor", 1) == 2
    assert free_row([["", ""], ["", "x"]], "N2-survivor", 2) == 2  # no label: the first empty row
    assert free_row([[], ["", "x"]], "N2-survivor", 2) == 2  # a row read as no cells at all is empty
    assert free_row([["N1-survivor", "a"], ["", "x"]], "N2-survivor", 2) == 4
    assert free_row([["N1-survivor"], ["N2-survivor"]], "N2-survivor", 2) == 3


def test_a_row_is_placed_with_the_rows_before_it_added_empty() -> None:
    assert place([], 4, ["a", "b"]) == [list(BLANK), list(BLANK), ["a", "b", "", "", "", "", ""]]
    tab = [["x"]]
    assert place(tab, 2, ["y"] * 9) == [["y"] * 7] and tab == [["x"]]


def test_of_two_rows_with_tonights_label_and_an_order_the_usual_one_is_read() -> None:
    tab = tab7(["N2-survivor", "old text"], ["N2-survivor", "移动 B2"])
    got = locate(tab, "N2-survivor", 2, "zh", "en", {}, "Amy")
    assert got.row == 3 and got.said[0] == ("duplicate", {"key": "N2-survivor", "due": 3, "n": 2, "rows": "2, 3",
                                                          "row": 3})


def test_a_first_label_is_written_in_the_players_tab() -> None:
    got = locate([], "N1-survivor", 1, "zh", "en", {}, "Amy")
    assert got.row == 2 and got.said == [] and got.repairs == [SetValues("'指令'!A2", (("N1-survivor",),))]


def test_a_label_changed_by_hand_is_given_back_and_said_so() -> None:
    got = locate(tab7(["N7-hunter", "移动 B2"]), "N1-survivor", 1, "en", "en", {}, "Amy")
    assert got.row == 2 and ("typed_label_kept", {"key": "N1-survivor", "due": 2, "row": 2, "text": "N7-hunter"}
                             ) in got.said
    assert got.repairs and all(op.range.startswith("Orders!") for op in got.repairs)  # type: ignore[attr-defined]


def test_missing_rows_are_written_again_each_where_it_belongs() -> None:
    present = ("N1-survivor", 2, ["N1-survivor", "搜索"])
    gone = ("N1-hunter", 5, ["N1-hunter", "攻击"])
    ops, placed, tab = restore([["N1-survivor", "搜索"]], [present, gone], "zh")
    assert placed == [("N1-hunter", 5)] and ops[0].range == "'指令'!A5:G5"  # type: ignore[attr-defined]
    assert tab[3][:2] == ["N1-hunter", "攻击"]


def test_text_typed_in_a_label_cell_moves_to_an_empty_order_cell() -> None:
    got = locate(tab7(["移动 B2"]), "N1-survivor", 1, "en", "en", {}, "Amy")
    assert got.row == 2 and got.cells[:2] == ["N1-survivor", "移动 B2"]
    assert ("typed_label_moved", {"key": "N1-survivor", "due": 2, "row": 2, "text": "移动 B2"}) in got.said
    assert got.repairs == [SetValues("Orders!A2:B2", (("N1-survivor", "移动 B2"),))]


def test_text_typed_in_a_label_cell_beside_an_order_is_left_and_the_stage_gets_an_empty_row() -> None:
    got = locate(tab7(["移动 B2", "搜索"]), "N1-survivor", 1, "en", "en", {}, "Amy")
    assert got.row == 3
    assert ("typed_label_left", {"key": "N1-survivor", "due": 3, "row": 2, "text": "移动 B2"}) in got.said


def test_a_usual_row_holding_a_status_but_no_label_is_not_tonights() -> None:
    got = locate(tab7(["", "", "", "✓"]), "N1-survivor", 1, "en", "en", {}, "Amy")
    assert got.row == 3 and got.cells[0] == "N1-survivor"
    got = locate(tab7(["", "搜索"]), "N1-survivor", 1, "en", "en", {}, "Amy")  # the label alone was cleared
    assert got.row == 2 and got.cells[:2] == ["N1-survivor", "搜索"]


def test_a_row_found_away_from_its_place_is_read_and_the_player_told() -> None:
    tab = tab7([], [], ["N1-survivor", "搜索"])
    got = locate(tab, "N1-survivor", 1, "en", "en", {}, "Amy")
    assert got.row == 4 and got.cells[:2] == ["N1-survivor", "搜索"] and got.repairs == []
    assert got.said == [("moved", {"key": "N1-survivor", "due": 4, "row": 4, "want": 2})]
    left = locate(tab7(["移动 B2", "搜索"]), "N1-survivor", 1, "en", "en", {}, "Amy")
    assert [n for n, _ in left.said] == ["typed_label_left"]  # not also "moved": that note says it
    assert left.cells[0] == "N1-survivor" and left.tab[0][:2] == ["移动 B2", "搜索"]


def test_each_note_is_worded_for_the_player_and_for_the_director() -> None:
    from sheetgm.core.texts import render

    got = locate(tab7([], [], ["N1-survivor", "搜索"]), "N1-survivor", 1, "zh", "en", {}, "Amy")
    params = {"key": "N1-survivor", "due": 4, "row": 4, "want": 2}
    assert got.notes == [render("zh", "sheet.rows.moved", **params)]
    assert got.director_notes == [render("en", "svc.rows", alias="Amy", tab="指令",
                                         note=render("en", "sheet.rows.moved", **params))]
    assert "Amy" in got.director_notes[0] and "指令" in got.director_notes[0]


def test_last_nights_order_pasted_into_tonights_row_is_not_read_as_tonights() -> None:
    tab = tab7(["N2-survivor", "搜索 "])  # night 1's row is gone; its archived order is in tonight's row
    got = locate(tab, "N2-survivor", 2, "en", "en", {"N1-survivor": "搜索"}, "Amy")
    assert got.cells[1] == "" and ("stale_here", {"key": "N2-survivor", "due": 2, "row": 2, "old": "N1-survivor"}
                                   ) in got.said
    kept = locate(tab7(["N1-survivor", "搜索"], ["N2-survivor", "搜索"]), "N2-survivor", 2, "en", "en",
                  {"N1-survivor": "搜索"}, "Amy")
    assert kept.cells[1] == "搜索" and not any(n == "stale_here" for n, _ in kept.said)  # its own row is there


def test_text_moved_out_of_a_label_cell_keeps_the_rest_of_the_row() -> None:
    got = locate(tab7(["移动 B2", "", "c", "d"]), "N1-survivor", 1, "en", "en", {}, "Amy")
    assert got.cells == ["N1-survivor", "移动 B2", "c", "d", "", "", ""]


def test_other_rows_are_named_each_kind_once() -> None:
    archived = {"N1-survivor": "搜索", "N1-hunter": "攻击"}
    tab = tab7(["N1-survivor", "移动 C3"], ["N1-hunter", "攻击"], ["N2-survivor", "聆听"], ["note to self", "x"])
    got = locate(tab, "N2-survivor", 2, "en", "en", archived, "Amy")
    assert got.row == 4 and [s for s in got.said if s[0] != "moved"] == [
        ("stale", {"key": "N2-survivor", "due": 4, "row": 2, "old": "N1-survivor"}),
        ("typed_label_other", {"key": "N2-survivor", "due": 4, "row": 5, "text": "note to self"})]
    many = locate(tab + tab7(["another note"]), "N2-survivor", 2, "en", "en", archived, "Amy")
    assert ("typed_labels_other", {"key": "N2-survivor", "due": 4, "n": 2, "rows": "5, 6"}) in many.said
