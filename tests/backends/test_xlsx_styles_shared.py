"""A game's workbooks hold a few distinct style tables: each is parsed once per process and every workbook read
gets its own copy (``read._styles``), which it may change without changing another's."""

from __future__ import annotations

from pathlib import Path

from sheetgm.backends import port
from sheetgm.backends.xlsx import read as xlsx_read
from sheetgm.backends.xlsx.gateway import XlsxGateway
from sheetgm.backends.xlsx.styles import Styles


def test_workbooks_with_the_same_style_table_each_get_their_own(tmp_path: Path) -> None:
    gw = XlsxGateway(tmp_path)
    for key in ("player-1", "player-2"):
        gw.create(key, key, ["Map"])
        gw.write(key, [port.SetValues("Map!A1", [["x"]]), port.SetBackground("Map!A1:B2", "#ffe599")])
    one = xlsx_read.read_book(gw.path("player-1").read_bytes())
    two = xlsx_read.read_book(gw.path("player-2").read_bytes())
    assert one.styles is not two.styles and one.styles.xml() == two.styles.xml()
    fresh = Styles.parse(one.styles.xml().encode("utf-8"))
    before = two.styles.xml()
    new = one.styles.derive(one.styles.derive(0, ("fill", "#00ff00")), ("bold", True))
    assert new >= len(fresh.xfs) - 2 and one.styles.xml() != before  # one's table grew
    assert two.styles.xml() == before and len(two.styles.xfs) == len(fresh.xfs)  # the other's did not
    third = xlsx_read.read_book(gw.path("player-1").read_bytes())
    assert third.styles.xml() == before and third.styles.locked(0) == fresh.locked(0)
    assert third.styles.look(new) == (None, False, {})  # the first's new entry is not there
    assert two.styles.derive(two.styles.derive(0, ("fill", "#00ff00")), ("bold", True)) == new
    assert two.styles.xml() == one.styles.xml() and two.styles.look(new) == one.styles.look(new)


def _table() -> Styles:
    base = Styles()
    base.derive(0, ("fill", "#ffe599"))
    return Styles.parse(base.xml().encode("utf-8"))


MAP_FORMATS = (
    (("border", "top", "thick"), ("border", "left", "thin"), ("fill", "#b7b7b7")),
    (("border", "bottom", "double"), ("bold", True)),
    (("fill", None), ("border", "right", "mediumDashed")),
)


def test_copies_of_one_table_learn_each_others_changes_and_end_equal_to_a_table_working_them_out() -> None:
    shared, alone = _table().share(), _table()
    first, second, third = shared.copy(), shared.copy(), alone.copy()
    for changes in MAP_FORMATS:
        for xf in (0, 1):
            got = [t.derive_all(xf, changes) for t in (first, second, third)]
            assert got[0] == got[1] == got[2]
    assert first.line is second.line and first.line is not shared.line and third.line is None
    assert second.xml() == first.xml() == third.xml() and second.version == third.version
    assert second._index == third._index  # the entries replayed are found again as any entry is


def test_a_copy_that_changed_otherwise_does_not_take_another_copys_result() -> None:
    shared = _table().share()
    first, second = shared.copy(), shared.copy()
    second.derive(0, ("bold", True))  # an entry the first does not have: another line
    assert first.line is not second.line
    for changes in MAP_FORMATS:
        first.derive_all(0, changes)
        second.derive_all(0, changes)
    alone = _table()
    alone.derive(0, ("bold", True))
    for changes in MAP_FORMATS:
        alone.derive_all(0, changes)
    assert second.xml() == alone.xml() != first.xml()
    unlocked = shared.copy()
    unlocked.xfs[0] = unlocked.xfs[0].replace("/>", '><protection locked="0"/></xf>')
    unlocked._parsed.clear()
    assert unlocked.lock_default() and unlocked.line is None  # changed in place: leaves the line


def test_a_plan_worked_out_by_one_copy_is_replayed_by_the_others_as_each_change_would_make_it() -> None:
    """``derive_each``: a stage's map plan (one object for every player) worked out once per line; the copies
    after it, and a copy on another line, end with the formats and tables working each change out makes."""
    plan = tuple((changes, ((0, 0),)) for changes in MAP_FORMATS)
    other = tuple((changes, ((1, 1),)) for changes in reversed(MAP_FORMATS))
    steps = [(0, plan), (0, other), (1, plan), (1, other), (0, plan)]
    shared = _table().share()
    copies = [shared.copy() for _ in range(3)]
    copies[2].derive(0, ("bold", True))  # on another line
    for t in copies:
        alone = _table()
        if t is copies[2]:
            alone.derive(0, ("bold", True))
        for xf, p in steps:
            want = tuple(alone.derive_all(xf, changes) for changes, _cells in p)
            assert t.derive_each(xf, p) == want
            assert t.xml() == alone.xml() and t.version == alone.version
    assert copies[0].line is copies[1].line and copies[0].xml() == copies[1].xml() != copies[2].xml()
    assert shared.line is not None and any(hit[0] is plan for hit in shared.line.each.values())  # worked out once
