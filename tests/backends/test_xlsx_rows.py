"""Saving serializes only the rows that changed (kept row XML, also taken from a file sheetgm wrote): whatever
the writes, every saved sheet is exactly what serializing the whole workbook from scratch gives."""

from __future__ import annotations

import copy
import random
import re
import zipfile
from pathlib import Path

import pytest

from sheetgm.backends import port
from sheetgm.backends.xlsx.gateway import XlsxGateway
from sheetgm.backends.xlsx.sheetxml import sheet_xml

TABS = ["Orders", "Map"]
_DIMENSION = re.compile(r'<dimension ref="[^"]*"/>')


def _random_op(rng: random.Random) -> port.Op:
    tab = rng.choice(TABS)
    r, c = rng.randint(1, 12), rng.randint(0, 6)
    letter, end = "ABCDEFG"[c], "ABCDEFG"[min(6, c + rng.randint(0, 2))]
    cell, area = f"{tab}!{letter}{r}", f"{tab}!{letter}{r}:{end}{r + rng.randint(0, 3)}"
    kind = rng.randrange(8)
    if kind == 0:
        texts = ["", "x", "same", "two\nlines", " padded ", "=1+1"]
        return port.SetValues(cell, [[rng.choice(texts) for _ in range(rng.randint(1, 3))]
                                     for _ in range(rng.randint(1, 3))])
    if kind == 1:
        return port.SetBackground(area, rng.choice([None, "#ffe599", "#b7b7b7"]))
    if kind == 2:
        return port.SetBold(area, rng.random() < 0.7)
    if kind == 3:
        return port.SetBorders(area, rng.choice(["outer", "all", "inner_vertical"]),
                               rng.choice(["thin", "thick", "none", "dashed"]))
    if kind == 4:
        return port.ClearRange(area)
    if kind == 5:
        return port.ResizeRows(f"{tab}!{r}:{r + 1}", rng.choice([21, 44]))
    if kind == 6:
        return port.SetNote(cell, rng.choice(["", "a note"]))
    return port.SetValues(cell, [["kept"]])


def _assert_as_from_scratch(gw: XlsxGateway, path: Path, dimension: bool = True) -> None:
    """Each sheet in the file is what the writer makes of the kept workbook with every row made anew.
    ``dimension=False``: but for the ``<dimension>`` of a sheet the write did not change, kept from the file: it
    also counts cells without a format, which the file does not hold, so a workbook read back can count fewer."""
    whole = copy.deepcopy(gw._books["player-1"][2])
    with zipfile.ZipFile(path) as z:
        for i, sheet in enumerate(whole.sheets, 1):
            sheet.touch()
            saved, made = z.read(f"xl/worksheets/sheet{i}.xml").decode("utf-8"), sheet_xml(sheet)
            if not dimension:
                saved, made = _DIMENSION.sub("", saved), _DIMENSION.sub("", made)
            assert saved == made, sheet.name


@pytest.mark.parametrize("fresh", [False, True], ids=["one gateway", "a new gateway each write"])
@pytest.mark.parametrize("seed", range(6))
def test_saved_rows_are_the_rows_of_the_whole_workbook(tmp_path: Path, seed: int, fresh: bool) -> None:
    rng = random.Random(seed)
    gw = XlsxGateway(tmp_path)
    gw.create("player-1", "P1", TABS)
    for _ in range(40):
        if fresh:
            gw = XlsxGateway(tmp_path)  # reads the file sheetgm wrote: its rows are kept from the file
        gw.write("player-1", [_random_op(rng) for _ in range(rng.randint(1, 4))])
        _assert_as_from_scratch(gw, tmp_path / "player-1.xlsx", dimension=not fresh)


def test_an_unchanged_row_is_not_made_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tab that grows (the Map history) costs the new rows only, also in a new process."""
    from sheetgm.backends.xlsx import sheetxml as xlsx_write

    gw = XlsxGateway(tmp_path)
    gw.create("player-1", "P1", ["Map"])
    gw.write("player-1", [port.SetValues("Map!A1:C20", [[f"{r}-{c}" for c in range(3)] for r in range(20)])])
    made: list[int] = []
    real = xlsx_write._row
    monkeypatch.setattr(xlsx_write, "_row", lambda r, cells, extra: made.append(r) or real(r, cells, extra))
    again = XlsxGateway(tmp_path)
    again.write("player-1", [port.SetValues("Map!A21:C22", [["new", "", ""], ["", "row", ""]])])
    assert made == [20, 21]
    _assert_as_from_scratch(again, tmp_path / "player-1.xlsx")


@pytest.mark.parametrize("seed", range(6))
def test_a_run_of_formats_styles_each_cell_as_the_ops_one_by_one(tmp_path: Path, seed: int) -> None:
    """A write's consecutive format ops are worked out together (each cell's style once, ``restyle_run``): every
    cell ends with the look that applying them one at a time gives, and the saved rows are still the whole
    workbook's. The same ops twice (every player's map of a stage) take the cached plan."""
    from sheetgm.backends.xlsx import cells as xlsx_cells

    rng = random.Random(seed)
    gw = XlsxGateway(tmp_path)
    gw.create("player-1", "P1", TABS)
    gw.write("player-1", [port.SetBackground("Map!B2", "#ffe599"), port.SetValues("Map!A1", [["x"]])])
    bordered = False
    for _ in range(3):
        ops = [op for op in (_random_op(rng) for _ in range(60))
               if isinstance(op, xlsx_cells.FORMAT_OPS) and op.range.startswith("Map")]
        book = gw._books["player-1"][2]
        one_by_one = copy.deepcopy(book)
        for op in ops:
            xlsx_cells.apply(one_by_one, one_by_one.sheets[1], op, port.op_ranges(op)[0])
        gw.write("player-1", ops)
        book = gw._books["player-1"][2]
        mine, theirs = book.sheets[1].cells, one_by_one.sheets[1].cells
        assert set(mine) == set(theirs)
        looks = {rc: book.styles.look(cell.style) for rc, cell in mine.items()}
        assert looks == {rc: one_by_one.styles.look(cell.style) for rc, cell in theirs.items()}
        bordered = bordered or any(look[2] for look in looks.values())
        _assert_as_from_scratch(gw, tmp_path / "player-1.xlsx")
    assert bordered  # the runs drew borders, not only fills
