"""One contract, three adapters (memory, xlsx, Google through the fake)."""

from __future__ import annotations

import pytest

from sheetgm.backends.errors import MissingWorkbookError, OpError, RangeError, WorkbookExistsError
from sheetgm.backends.port import (
    AddTab,
    ClearRange,
    FreezeRows,
    Gateway,
    Permission,
    Protect,
    ResizeColumns,
    ResizeRows,
    SetBackground,
    SetBold,
    SetBorders,
    SetNote,
    SetValidation,
    SetValues,
    Unprotect,
    Validation,
)


@pytest.fixture
def book(gw: Gateway) -> Gateway:
    gw.create("player-3", "第一局 · 玩家3", ["命令", "Results", "Map"])
    return gw


def test_create_then_exists_with_its_tabs(gw: Gateway) -> None:
    assert not gw.exists("player-3")
    gw.create("player-3", "Game 1", ["Orders", "结果"])
    assert gw.exists("player-3")
    assert gw.tabs("player-3") == ["Orders", "结果"]
    assert gw.view("player-3").title == "Game 1"


def test_create_twice_is_refused(book: Gateway) -> None:
    with pytest.raises(WorkbookExistsError) as err:
        book.create("player-3", "again", ["x"])
    assert "player-3" in err.value.message("en")


@pytest.mark.parametrize("tabs", [[], ["a", "a"], ["bad/name"]])
def test_create_needs_valid_distinct_tabs(gw: Gateway, tabs: list[str]) -> None:
    with pytest.raises(OpError):
        gw.create("k", "t", tabs)
    assert not gw.exists("k")


def test_missing_workbook_is_named(gw: Gateway) -> None:
    with pytest.raises(MissingWorkbookError) as err:
        gw.read("director", ["Config!A1"])
    assert "director" in err.value.message("en") and "director" in err.value.message("zh")
    with pytest.raises(MissingWorkbookError):
        gw.write("director", [SetValues("Config!A1", [["x"]])])


def test_values_round_trip_keyed_by_the_given_range_texts(book: Gateway) -> None:
    book.write("player-3", [SetValues("命令!A1:C2", [["阶段", "命令", "提交"], ["1", "移动 B3", "TRUE"]])])
    got = book.read("player-3", ["命令!A1:C2", "'命令'!B2", "命令"])
    assert got == {
        "命令!A1:C2": [["阶段", "命令", "提交"], ["1", "移动 B3", "TRUE"]],
        "'命令'!B2": [["移动 B3"]],
        "命令": [["阶段", "命令", "提交"], ["1", "移动 B3", "TRUE"]],
    }


def test_trailing_empties_are_trimmed_like_the_api(book: Gateway) -> None:
    book.write("player-3", [SetValues("命令!B2", [["x", "", ""], ["", "", ""], ["", "y", ""]])])
    got = book.read("player-3", ["命令!A1:F10", "命令!D1:F10", "命令!A1:B2", "命令!A2:C4"])
    assert got["命令!A1:F10"] == [[], ["", "x"], [], ["", "", "y"]]
    assert got["命令!D1:F10"] == []
    assert got["命令!A1:B2"] == [[], ["", "x"]]
    assert got["命令!A2:C4"] == [["", "x"], [], ["", "", "y"]]


def test_open_ended_ranges(book: Gateway) -> None:
    book.write("player-3", [SetValues("命令!A1:B3", [["h1", "h2"], ["a", "b"], ["c", "d"]])])
    got = book.read("player-3", ["命令!A2:B", "命令!B:B", "命令!2:2"])
    assert got == {"命令!A2:B": [["a", "b"], ["c", "d"]], "命令!B:B": [["h2"], ["b"], ["d"]], "命令!2:2": [["a", "b"]]}


def test_set_values_fills_its_whole_area(book: Gateway) -> None:
    book.write("player-3", [SetValues("命令!A1:C3", [["1", "2", "3"]] * 3)])
    book.write("player-3", [SetValues("命令!A1:C3", [["x"]])])  # bounded: the rest of the range is cleared
    assert book.read("player-3", ["命令"])["命令"] == [["x"]]
    book.write("player-3", [SetValues("命令!A1:C3", [["1", "2", "3"]] * 3)])
    book.write("player-3", [SetValues("命令!A1", [["x", "y"], ["z"]])])  # anchor: the rows' bounding box
    assert book.read("player-3", ["命令"])["命令"] == [["x", "y", "3"], ["z", "", "3"], ["1", "2", "3"]]


def test_rows_that_do_not_fit_are_refused(book: Gateway) -> None:
    with pytest.raises(OpError):
        book.write("player-3", [SetValues("命令!A1:B1", [["1", "2", "3"]])])
    with pytest.raises(OpError):
        book.write("player-3", [SetValues("命令!A1:B", [["1"]])])


def test_texts_stay_texts(book: Gateway) -> None:
    odd = ["=1+2", "007", "1.50", "'quoted", "TRUE", "多行\n文本"]
    book.write("player-3", [SetValues("命令!A1", [odd])])
    assert book.read("player-3", ["命令!A1:F1"])["命令!A1:F1"] == [odd]


def test_clear_range_clears_values_not_formats(book: Gateway) -> None:
    book.write("player-3", [SetValues("命令!A1", [["a", "b"]]), SetBackground("命令!A1:B1", "#ffeeaa")])
    book.write("player-3", [ClearRange("命令!A1:A1")])
    assert book.read("player-3", ["命令!A1:B1"])["命令!A1:B1"] == [["", "b"]]
    assert book.view("player-3").tab("命令").backgrounds == {"A1": "#ffeeaa", "B1": "#ffeeaa"}


def test_a_write_is_all_or_nothing(book: Gateway) -> None:
    book.write("player-3", [SetValues("命令!A1", [["before"]])])
    with pytest.raises(RangeError) as err:
        book.write("player-3", [SetValues("命令!A1", [["after"]]), AddTab("New"), SetValues("Nope!A1", [["x"]])])
    assert "Nope" in err.value.message("en")
    assert book.read("player-3", ["命令!A1"])["命令!A1"] == [["before"]]
    assert book.tabs("player-3") == ["命令", "Results", "Map"]


@pytest.mark.parametrize("bad", ["A1", "命令!A0", "命令!B2:A1", "'命令!A1", "命令!"])
def test_malformed_ranges_are_refused_before_anything_happens(book: Gateway, bad: str) -> None:
    with pytest.raises(RangeError) as err:
        book.read("player-3", [bad])
    assert bad in err.value.message("en")
    with pytest.raises(RangeError):
        book.write("player-3", [SetValues(bad if "!" in bad else "命令!A1", [["x"]]), SetNote(bad, "n")])
    assert book.read("player-3", ["命令"])["命令"] == []


def test_reading_a_missing_tab_names_it(book: Gateway) -> None:
    with pytest.raises(RangeError) as err:
        book.read("player-3", ["Orders!A1:B2"])
    assert "Orders" in err.value.message("en")


def test_add_tab_is_idempotent_and_usable_in_the_same_write(book: Gateway) -> None:
    ops = [AddTab("Log"), SetValues("Log!A1", [["stage 1"]]), AddTab("Log")]
    book.write("player-3", ops)
    book.write("player-3", ops)
    assert book.tabs("player-3") == ["命令", "Results", "Map", "Log"]
    assert book.read("player-3", ["Log"])["Log"] == [["stage 1"]]


def test_formats_read_back_the_same_everywhere(book: Gateway) -> None:
    long_list = tuple(f"选项{i},含逗号" for i in range(40))
    book.write(
        "player-3",
        [
            SetValues("Map!A1", [["地图"]]),
            SetBackground("Map!A2:B2", "#CCDDEE"),
            SetBold("Map!A1"),
            SetBorders("Map!A2:B3", ("outer",), "thin"),
            SetBorders("Map!A2:B3", ("inner_vertical",), "thick"),
            SetValidation("命令!B2:B3", ("移动", "搜索"), strict=True, help="选一个"),
            SetValidation("命令!C2", long_list, strict=False),
            SetNote("Map!B2", "墙在右边"),
            FreezeRows("命令", 1),
            ResizeColumns("Map!A:B", 28),
            ResizeRows("Map!2:3", 28),
        ],
    )
    tab = book.view("player-3").tab("Map")
    assert tab.values == [["地图"]]
    assert tab.backgrounds == {"A2": "#ccddee", "B2": "#ccddee"}
    assert tab.bold == frozenset({"A1"})
    assert tab.borders == {
        "A2": {"left": "thin", "right": "thick", "top": "thin"},
        "B2": {"left": "thick", "right": "thin", "top": "thin"},
        "A3": {"bottom": "thin", "left": "thin", "right": "thick"},
        "B3": {"bottom": "thin", "left": "thick", "right": "thin"},
    }
    assert tab.notes == {"B2": "墙在右边"}
    assert tab.column_widths == {"A": 28, "B": 28}
    assert tab.row_heights == {2: 28, 3: 28}
    orders = book.view("player-3").tab("命令")
    assert orders.frozen_rows == 1
    assert orders.validations == {
        "B2": Validation(("移动", "搜索"), True, "选一个"),
        "B3": Validation(("移动", "搜索"), True, "选一个"),
        "C2": Validation(long_list, False, ""),
    }


def test_formats_can_be_removed(book: Gateway) -> None:
    book.write("player-3", [SetBackground("Map!A1:B1", "#112233"), SetBorders("Map!A1", "all", "thick"),
                            SetNote("Map!A1:B1", "n"), SetValidation("命令!A1:A3", ("a",)), SetBold("Map!A1")])
    book.write("player-3", [SetBackground("Map!A1", None), SetBorders("Map!A1", "all", "none"),
                            SetNote("Map!A1", ""), SetValidation("命令!A2", ()), SetBold("Map!A1", False),
                            FreezeRows("命令", 0)])
    view = book.view("player-3")
    assert view.tab("Map").backgrounds == {"B1": "#112233"}
    assert view.tab("Map").borders == {} and view.tab("Map").bold == frozenset()
    assert view.tab("Map").notes == {"B1": "n"}
    assert set(view.tab("命令").validations) == {"A1", "A3"}
    assert view.tab("命令").frozen_rows == 0


def test_protections_are_replaced_by_description(book: Gateway) -> None:
    editors = ("director@example.com", "sa@proj.iam.gserviceaccount.com")
    book.write("player-3", [Protect("Results", editors, "results"), Protect("命令", editors, "orders", ["命令!B2:C2"])])
    book.write("player-3", [Protect("命令", editors, "orders", ["命令!B3:C3", "命令!G3"])])
    found = sorted(book.protections("player-3"), key=lambda p: p.description)
    assert [(p.range, p.description) for p in found] == [("'命令'", "orders"), ("Results", "results")]
    assert found[0].unprotected == ("'命令'!B3:C3", "'命令'!G3") and found[1].unprotected == ()
    assert all(set(editors) <= set(p.editors) for p in found)
    book.write("player-3", [Unprotect("orders"), Unprotect("never existed")])
    assert [p.description for p in book.protections("player-3")] == ["results"]


def test_only_a_whole_tab_leaves_cells_open_and_only_its_own(book: Gateway) -> None:
    gm = ("d@x.com",)
    for bad in (Protect("命令!A1:G9", gm, "part", ["命令!B2"]), Protect("命令", gm, "x", ["Map!B2"]),
                Protect("命令", gm, "column", ["命令!B:B"])):
        with pytest.raises(OpError):
            book.write("player-3", [bad])
    assert book.protections("player-3") == []


def test_protection_and_values_go_in_one_write(book: Gateway) -> None:
    book.write("player-3", [SetValues("Results!A1", [["报告"]]), Protect("Results", ("d@x.com",), "results")])
    [found] = book.protections("player-3")
    assert (found.range, found.description, found.warning_only) == ("Results", "results", False)
    # Google keeps the account that protected among the editors (the fake's anonymous caller here)
    assert "d@x.com" in found.editors and set(found.editors) - {"d@x.com"} <= {"director@example.com"}
    assert book.read("player-3", ["Results"])["Results"] == [["报告"]]


def test_sharing(book: Gateway) -> None:
    book.share("player-3", "p3@example.com", "reader")
    book.share("player-3", "p3@example.com", "writer")
    book.share("player-3", "d@example.com", "writer")
    mine = [p for p in book.permissions("player-3") if p.role != "owner"]
    assert mine == [Permission("d@example.com", "writer"), Permission("p3@example.com", "writer")]
    book.unshare("player-3", "p3@example.com")
    book.unshare("player-3", "nobody@example.com")
    assert [p.email for p in book.permissions("player-3") if p.role != "owner"] == ["d@example.com"]
    with pytest.raises(OpError):
        book.share("player-3", "x@example.com", "owner")


def test_url(book: Gateway) -> None:
    url = book.url("player-3")
    assert url is None or url.startswith(("file://", "https://docs.google.com/spreadsheets/d/", "http://127.0.0.1:"))
    with pytest.raises(MissingWorkbookError):
        book.url("nobody")


def test_empty_calls_do_nothing(book: Gateway) -> None:
    assert book.read("player-3", []) == {}
    book.write("player-3", [])
    assert book.read("player-3", ["命令"]) == {"命令": []}
