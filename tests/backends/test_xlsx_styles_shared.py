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
