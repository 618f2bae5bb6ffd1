"""``port.check_ops`` checks a long run of ops of one range once per process while it lives (``port._CHECKED``,
by its first op's identity: a stage's map formats are the same objects in every player's ops): the ranges it
hands out are those ``op_ranges`` finds, for the run found again, longer or shorter, a malformed op is refused
every time, and the memo stays bounded."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheetgm.backends import port
from sheetgm.backends.errors import BackendError


def _ops(n: int, tab: str = "Map") -> list[port.Op]:
    out: list[port.Op] = []
    for i in range(n):
        cell = f"'{tab}'!{'ABCDEFGH'[i % 8]}{i // 8 + 1}"
        out += [port.SetBackground(cell, "#ffe599"), port.SetBold(cell), port.SetBorders(cell, ("outer",), "thick")]
    return out


def test_the_same_ops_checked_again_give_the_ranges_op_ranges_finds() -> None:
    ops = _ops(40)
    mixed = [*ops, port.SetValues("'Map'!A1", (("x",),)), *ops, *_ops(40, "Other")]
    first = port.check_ops(mixed, port.XLSX_CELL_LIMIT)
    again = port.check_ops(mixed, port.XLSX_CELL_LIMIT)
    assert first == again == [port.op_ranges(op) for op in mixed]
    assert {r[0].tab for r in first[-120:]} == {"Other"}


def test_a_run_found_again_longer_shorter_or_cut_gives_each_op_its_ranges() -> None:
    run = _ops(40)
    value = port.SetValues("'Map'!A1", (("x",),))
    for ops in ([*run, value], [*run, value], [*run, *_ops(5, "B"), value], run[:-7], [value, *run[3:]],
                [*run[:50], value, *run[50:]], [*run, *run], list(reversed(run))):
        assert port.check_ops(ops) == [port.op_ranges(op) for op in ops]
    assert any(memo[0][0] is run[0] for memo in port._CHECKED.values())


def test_an_equal_op_of_another_identity_and_a_new_op_get_their_own_ranges() -> None:
    for i in range(3000):  # ops made and dropped: an id may come back, with another op behind it
        op = port.SetBold(f"'T{i % 7}'!A{i + 1}")
        assert port.check_ops([op]) == [port.op_ranges(op)]
    twin = port.SetBold("'T1'!A2")
    assert port.check_ops([twin])[0][0].start_row == 1 and port.check_ops([twin])[0][0].tab == "T1"


def test_a_malformed_op_is_refused_every_time() -> None:
    bad = port.SetBold("'Map'!A1:")
    for _ in range(2):
        with pytest.raises(BackendError):
            port.check_ops([*_ops(2), bad])


def test_the_memo_is_bounded() -> None:
    ops = _ops(3000)  # one run of 9,000 ops
    assert port.check_ops(ops) == [port.op_ranges(op) for op in ops]
    for i in range(100):
        assert port.check_ops(_ops(12 + i % 3, f"T{i}"))[0][0].tab == f"T{i}"
    assert 0 < len(port._CHECKED) <= 64


def test_an_op_on_a_tab_made_only_after_it_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    from sheetgm.backends.errors import MissingTabError
    from sheetgm.backends.xlsx.gateway import XlsxGateway

    gw = XlsxGateway(tmp_path)
    gw.create("p", "t", ["A"])
    before = gw.path("p").read_bytes()
    for ops in ([port.SetValues("New!A1", [["x"]]), port.AddTab("New")], [port.SetBold("Gone!A1")]):
        with pytest.raises(MissingTabError):
            gw.write("p", [*_ops(3, "A"), *ops])
        assert gw.path("p").read_bytes() == before
    gw.write("p", [*_ops(3, "A"), port.AddTab("New"), port.SetValues("New!A1", [["x"]])])
    assert gw.read("p", ["New!A1"]) == {"New!A1": [["x"]]}


def test_a_row_of_texts_seen_before_is_taken_as_it_is_and_other_values_become_texts() -> None:
    row = tuple(f"t{i}" for i in range(12))
    first, again = port.SetValues("A!A1", (row,)), port.SetValues("A!A2", (row,))
    assert first.rows[0] is row and again.rows[0] is row and port._TEXT_ROWS.get(id(row)) is row
    mixed = ("a", 1, None, 2.5, *row)
    assert port.SetValues("A!A1", (mixed,)).rows[0] == ("a", "1", "", "2.5", *row)
    assert port.SetValues("A!A1", [list(row)]).rows[0] == row
    long = tuple("x" * 1000 for _ in range(8))  # too long to be kept
    assert port.SetValues("A!A1", (long,)).rows[0] is long and id(long) not in port._TEXT_ROWS
    for i in range(3000):  # bounded
        port.SetValues("A!A1", (tuple(f"{i}-{j}" for j in range(8)),))
    assert len(port._TEXT_ROWS) <= 1024


def test_a_row_kept_as_seen_is_still_measured_against_a_smaller_limit() -> None:
    from sheetgm.backends.errors import CellTooLongError

    row = tuple("x" * 30 for _ in range(10))
    op = port.SetValues("A!A1", (row,))
    assert port._TEXT_ROWS.get(id(op.rows[0])) is op.rows[0]
    port.check_ops([op], 40)
    with pytest.raises(CellTooLongError):
        port.check_ops([op], 20)
    long = port.SetValues("A!A1", (("y" * 40_000,),))
    with pytest.raises(CellTooLongError):
        port.check_ops([long], port.XLSX_CELL_LIMIT)
