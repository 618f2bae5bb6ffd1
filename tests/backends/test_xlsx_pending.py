"""A large sheet of a file sheetgm wrote is parsed only when its cells are asked for (``book.Pending``): reading
the orders does not parse a player's Map history, and a stage's new block is written after the old ones without
parsing them. Whatever is done to such a sheet, the file saved is the one a sheet parsed whole gives."""

from __future__ import annotations

import io
import random
import shutil
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from sheetgm.backends import port
from sheetgm.backends.xlsx import fresh
from sheetgm.backends.xlsx import read as xlsx_read
from sheetgm.backends.xlsx.gateway import XlsxGateway

KEY = "player-1"
TEXTS = ["", "墙", "a & b", "<b>", "  padded ", "two\nlines", "_x0041_", "&amp;", "é", "门"]


def _block(rng: random.Random, top: int, rows: int = 20, cols: int = 24) -> list[port.Op]:
    """One map-like block from sheet row ``top``: a title, cells of text, fills, borders, bold."""
    last = f"{chr(ord('A') + cols - 1)}{top + rows}"
    ops: list[port.Op] = [
        port.SetValues(f"Map!A{top}", [[f"block at {top}"]]),
        port.SetBold(f"Map!A{top}"),
        port.SetValues(f"Map!A{top + 1}:{last}", [[rng.choice(TEXTS) for _ in range(cols)] for _ in range(rows)]),
    ]
    for _ in range(30):
        r, c = rng.randint(top + 1, top + rows), rng.randint(0, cols - 1)
        cell = f"{chr(ord('A') + c)}{r}"
        ops.append(rng.choice([port.SetBackground(f"Map!{cell}", rng.choice(["#ffe599", "#cccccc", None])),
                               port.SetBorders(f"Map!{cell}", ("left", "top"), "thick")]))
    return ops


def _protect() -> list[port.Op]:
    return [port.Protect("Orders", (), "sheetgm:orders", unprotected=("Orders!B2:B3",)),
            port.Protect("Map", (), "sheetgm:maps")]


def _made(tmp_path: Path, seed: int) -> tuple[Path, random.Random]:
    rng = random.Random(seed)
    folder = tmp_path / "made"
    gw = XlsxGateway(folder)
    gw.password_source = lambda: "secret"
    gw.create(KEY, "P1", ["Orders", "Map"])
    ops: list[port.Op] = [port.SetValues("Orders!A1:B3", [["night", "order"], ["N1", "go"], ["N2", ""]])]
    for top in (1, 23):
        ops += _block(rng, top)
    gw.write(KEY, ops + _protect())
    return folder, rng


def _two(tmp_path: Path, folder: Path) -> tuple[XlsxGateway, XlsxGateway]:
    lazy, whole = tmp_path / "lazy", tmp_path / "whole"
    shutil.copytree(folder, lazy)
    shutil.copytree(folder, whole)
    gws = XlsxGateway(lazy), XlsxGateway(whole)
    for gw in gws:
        gw.password_source = lambda: "secret"
    return gws


def _parts(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as z:
        return {n: z.read(n) for n in z.namelist() if n not in ("docProps/core.xml",)}


def _same(lazy: XlsxGateway, whole: XlsxGateway, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _parts(lazy.path(KEY)) == _parts(whole.path(KEY))
    with monkeypatch.context() as m:
        m.setattr(xlsx_read, "LAZY_ABOVE", 1 << 40)
        assert XlsxGateway(lazy.folder).view(KEY) == XlsxGateway(whole.folder).view(KEY)


@pytest.mark.parametrize("seed", range(4))
def test_a_new_block_is_written_after_rows_left_unparsed(tmp_path: Path, seed: int,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    folder, rng = _made(tmp_path, seed)
    lazy, whole = _two(tmp_path, folder)
    assert lazy.read(KEY, ["Orders!A2:B3"]) == {"Orders!A2:B3": [["N1", "go"], ["N2"]]}
    held = lazy._books[KEY][2].sheet("Map")
    assert held is not None and held.pending is not None and not held._cells  # the orders read, the map not parsed
    ops = [port.SetValues("Orders!C2", [["done"]]), *_block(rng, 45), *_protect()]
    lazy.write(KEY, ops)
    assert held.pending is not None  # written after the old blocks, which stayed unparsed
    with monkeypatch.context() as m:
        m.setattr(xlsx_read, "LAZY_ABOVE", 1 << 40)
        whole.write(KEY, ops)
    _same(lazy, whole, monkeypatch)
    assert lazy.read(KEY, ["Map!A1", "Map!A23", "Map!A45"]) == {
        "Map!A1": [["block at 1"]], "Map!A23": [["block at 23"]], "Map!A45": [["block at 45"]]}


@pytest.mark.parametrize("kind", range(6))
@pytest.mark.parametrize("seed", range(2))
def test_a_write_among_the_unparsed_rows_parses_them_first(tmp_path: Path, seed: int, kind: int,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    folder, rng = _made(tmp_path, seed)
    lazy, whole = _two(tmp_path, folder)
    r = rng.randint(2, 40)
    ops = [
        [port.SetValues(f"Map!B{r}", [["changed"]])],
        [port.SetBackground(f"Map!C{r}:D{r + 1}", "#00ff00")],
        [port.ResizeRows(f"Map!{r}:{r}", 100)],
        [port.ClearRange(f"Map!A{r}:Z{r}")],
        [port.Protect("Map", (), "sheetgm:maps", unprotected=(f"Map!E{r}",))],
        _block(rng, 10),  # a block written again over old rows
    ][kind]
    for gw, above in ((lazy, xlsx_read.LAZY_ABOVE), (whole, 1 << 40)):
        with monkeypatch.context() as m:
            m.setattr(xlsx_read, "LAZY_ABOVE", above)
            gw.write(KEY, [*ops, *_protect()] if not isinstance(ops[0], port.Protect) else ops)
    _same(lazy, whole, monkeypatch)


def test_an_open_cell_among_the_unparsed_rows_is_locked_again(tmp_path: Path) -> None:
    folder, _rng = _made(tmp_path, 1)
    gw = XlsxGateway(folder)
    gw.password_source = lambda: "secret"
    gw.write(KEY, [port.Protect("Map", (), "sheetgm:maps", unprotected=("Map!C5",))])
    assert "Map!C5" in next(p for p in XlsxGateway(folder).protections(KEY) if p.range == "Map").unprotected
    again = XlsxGateway(folder)
    again.password_source = lambda: "secret"
    again.write(KEY, _protect())  # Map's protection leaves nothing open any more: C5, not parsed, is found
    assert next(p for p in XlsxGateway(folder).protections(KEY) if p.range == "Map").unprotected == ()


def test_cells_written_again_as_they_are_leave_their_rows_unchanged(tmp_path: Path) -> None:
    """A tab written again with the same values (blanks over cells holding a format only among them) changes no
    row: none is made again at the save (a player's Current tab is rewritten whole at every stage)."""
    gw = XlsxGateway(tmp_path)
    gw.create(KEY, "P1", ["Map"])
    ops: list[port.Op] = [port.SetValues("Map!A1:C2", [["x", "", ""], ["", "", "y"]]),
                          port.SetBackground("Map!A1:C2", "#ffe599")]
    gw.write(KEY, ops)
    sheet = gw._books[KEY][2].sheet("Map")
    assert sheet is not None and sheet.written is not None
    made = dict(sheet.row_xml)
    gw.write(KEY, ops)
    assert sheet.written is not None and sorted(sheet.row_xml) == sorted(made) == [0, 1]
    assert all(sheet.row_xml[r] is made[r] for r in made)
    gw.write(KEY, [port.SetValues("Map!B2", [["z"]])])
    assert sheet.row_xml.get(0) is made[0] and sheet.row_xml.get(1) is not made[1]



def _rewrite(rng: random.Random, rows: int = 44, cols: int = 24, changes: int = 4) -> port.SetValues:
    """The map's rows written again over the old ones (as a stage rewrites a player's Current tab): "\0" for a
    cell written as it is (``_as_read``), but for about ``changes`` cells."""
    return port.SetValues(f"Map!A1:{chr(ord('A') + cols - 1)}{rows}",
                          [[rng.choice(TEXTS) if rng.random() < changes / (rows * cols) else "\0"
                            for _ in range(cols)] for _ in range(rows)])


def _as_read(gw: XlsxGateway, op: port.SetValues) -> port.SetValues:
    """``op`` with every "\0" replaced by what the cell holds now."""
    have = XlsxGateway(gw.folder).read(KEY, [op.range])[op.range]
    rows = []
    for r, row in enumerate(op.rows):
        now = list(have[r]) if r < len(have) else []
        rows.append([(now[c] if c < len(now) else "") if v == "\0" else v for c, v in enumerate(row)])
    return port.SetValues(op.range, rows)


@pytest.mark.parametrize("seed", range(6))
def test_rows_written_again_are_parsed_only_where_they_change(tmp_path: Path, seed: int,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A tab written again whole (most rows as they are) parses the rows that change alone (``Sheet.take``); the
    file saved, and the next ones, are those of a sheet parsed whole."""
    folder, rng = _made(tmp_path, seed)
    lazy, whole = _two(tmp_path, folder)
    first = _as_read(lazy, _rewrite(rng, changes=rng.randint(1, 6)))
    later = [
        [port.SetValues("Map!A1:C2", [["N2", "x"], ["", "two\nlines"]])],  # rows taken before, and one more
        [port.SetValues("Map!D60", [["below"]])],
        [port.SetBackground(f"Map!B{rng.randint(1, 44)}:C{rng.randint(1, 44)}", "#00ff00")],  # parses the rest
        [port.ClearRange(f"Map!A{rng.randint(1, 44)}:Z{rng.randint(1, 44)}")],
    ][seed % 4]
    for ops in ([first, *_protect()], [*later, *_protect()]):
        for gw, above in ((lazy, xlsx_read.LAZY_ABOVE), (whole, 1 << 40)):
            with monkeypatch.context() as m:
                m.setattr(xlsx_read, "LAZY_ABOVE", above)
                gw.write(KEY, ops)
        _same(lazy, whole, monkeypatch)


def test_a_row_written_as_it_is_is_not_parsed(tmp_path: Path) -> None:
    gw = XlsxGateway(tmp_path)
    gw.create(KEY, "P1", ["Map"])
    rows = [[f"r{r}c{c}" if (r + c) % 3 else "" for c in range(30)] for r in range(60)]
    gw.write(KEY, [port.SetValues("Map!A1:AD60", rows), port.SetBackground("Map!A1:AD60", "#ffe599")])
    again = XlsxGateway(tmp_path)
    changed = [list(row) for row in rows]
    changed[5][3], changed[9][1] = "new", ""
    again.write(KEY, [port.SetValues("Map!A1:AD60", changed)])
    held = again._books[KEY][2].sheet("Map")
    assert held is not None and held.pending is not None and not held._cells  # nothing parsed:
    assert not held.pending.taken and sorted(held.pending.patched) == [5, 9]  # the two rows written in their XML
    assert XlsxGateway(tmp_path).read(KEY, ["Map!D6", "Map!B10", "Map!C10"]) == {
        "Map!D6": [["new"]], "Map!B10": [], "Map!C10": [["r9c2"]]}


@pytest.mark.parametrize("seed", range(3))
def test_rows_taken_then_the_whole_sheet_parsed_in_one_write(tmp_path: Path, seed: int,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A row changed after it was taken keeps its change when a later op of the same write parses the rest."""
    folder, rng = _made(tmp_path, seed)
    lazy, whole = _two(tmp_path, folder)
    ops = [_as_read(lazy, _rewrite(rng, changes=8)), port.SetValues(f"Map!C{rng.randint(1, 44)}", [["late"]]),
           port.SetBackground(f"Map!A{rng.randint(1, 44)}", "#00ff00"), *_protect()]
    for gw, above in ((lazy, xlsx_read.LAZY_ABOVE), (whole, 1 << 40)):
        with monkeypatch.context() as m:
            m.setattr(xlsx_read, "LAZY_ABOVE", above)
            gw.write(KEY, ops)
    _same(lazy, whole, monkeypatch)


PLAIN = [t for t in TEXTS if "\n" not in t]


def _map_block(rng: random.Random, top: int, texts: list[str], rows: int = 12, cols: int = 10) -> list[port.Op]:
    """A stage's block as the sheets layer writes it: a bold title, the values, widths and heights, then formats."""
    last = f"{chr(ord('A') + cols - 1)}"
    grid = f"Map!A{top + 1}:{last}{top + rows}"
    ops: list[port.Op] = [
        port.SetValues(f"Map!A{top}", [[f"block at {top}"]]), port.SetBold(f"Map!A{top}"),
        port.SetValues(f"Map!A{top + 1}:{last}{top + rows + 1}",
                       [[rng.choice(texts) for _ in range(cols)] for _ in range(rows + 1)]),
        port.ResizeColumns(f"Map!A:{last}", 44), port.ResizeRows(f"Map!{top + 1}:{top + rows}", 44),
        port.SetBold(f"Map!A{top + rows + 1}:{last}{top + rows + 1}"), port.SetBackground(grid, None),
        port.SetBorders(grid, ("inner_horizontal", "inner_vertical"), "thin"), port.SetBorders(grid, ("outer",)),
    ]
    for _ in range(25):
        r, c = rng.randint(top + 1, top + rows), rng.randint(0, cols - 2)
        cell = f"{chr(ord('A') + c)}{r}"
        ops.append(rng.choice([port.SetBackground(f"Map!{cell}", rng.choice(["#ffe599", "#cccccc"])),
                               port.SetBorders(f"Map!{cell}:{chr(ord('A') + c + 1)}{r}", ("inner_vertical",),
                                               "dashed")]))
    return ops


@pytest.mark.parametrize("seed", range(6))
def test_new_rows_written_as_xml_are_those_the_ops_make(tmp_path: Path, seed: int,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A stage's new block after the unparsed rows is written without making its cells (``fresh.py``): the files
    saved, this stage's and the next's, are those of the sheet parsed whole and the ops applied one by one."""
    folder, rng = _made(tmp_path, seed)
    lazy, whole = _two(tmp_path, folder)
    texts = PLAIN if seed % 3 else TEXTS  # a text of two lines: applied op by op
    second = _map_block(random.Random(seed), 60, texts)
    later = [[port.SetValues("Map!B48", [["changed"]])], [port.SetBackground("Map!C50", "#00ff00")],
             _map_block(random.Random(seed + 1), 75, PLAIN)][seed % 3]
    for ops in ([*_map_block(rng, 45, texts), *_protect()], [*second, *later, *_protect()]):
        for gw, above in ((lazy, xlsx_read.LAZY_ABOVE), (whole, 1 << 40)):
            with monkeypatch.context() as m:
                m.setattr(xlsx_read, "LAZY_ABOVE", above)
                gw.write(KEY, ops)
        _same(lazy, whole, monkeypatch)
        held = lazy._books[KEY][2].sheet("Map")
        assert held is not None
        if seed % 3 and ops[0] == _map_block(random.Random(0), 45, texts)[0] and held.pending is not None:
            assert held.pending.tail  # written as XML
    assert lazy.read(KEY, ["Map!A45", "Map!A60"]) == whole.read(KEY, ["Map!A45", "Map!A60"])


def test_a_block_of_one_line_texts_is_written_as_xml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder, rng = _made(tmp_path, 3)
    lazy, whole = _two(tmp_path, folder)
    ops = [*_map_block(rng, 45, PLAIN), *_protect()]
    lazy.write(KEY, ops)
    held = lazy._books[KEY][2].sheet("Map")
    assert held is not None and held.pending is not None and "block at 45" in held.pending.tail
    assert not held.taken_cells()  # no cell made
    with monkeypatch.context() as m:
        m.setattr(xlsx_read, "LAZY_ABOVE", 1 << 40)
        whole.write(KEY, ops)
    _same(lazy, whole, monkeypatch)


def _random_new_rows(rng: random.Random, top: int) -> list[port.Op]:
    """Values, heights, widths and formats in any order over rows from ``top`` on: some overlapping, some not."""
    ops: list[port.Op] = [port.SetValues(f"Map!A{top}:C{top}", [[rng.choice(PLAIN) for _ in range(3)]])]
    for _ in range(rng.randint(2, 12)):
        r, c = rng.randint(top, top + 8), rng.randint(0, 5)
        a, b = f"{chr(ord('A') + c)}{r}", f"{chr(ord('A') + c + rng.randint(0, 2))}{r + rng.randint(0, 2)}"
        ops.append(rng.choice([
            port.SetValues(f"Map!{a}:{b}", [[rng.choice(PLAIN + ["x\ny"] * (rng.random() < 0.1))]]),
            port.SetBackground(f"Map!{a}:{b}", rng.choice(["#ffe599", None])),
            port.SetBold(f"Map!{a}"), port.SetBorders(f"Map!{a}:{b}", ("outer",), rng.choice(["thin", "none"])),
            port.ResizeRows(f"Map!{r}:{r + 1}", rng.choice([30, 44])), port.ResizeColumns(f"Map!{a[0]}:{a[0]}", 50),
            port.SetBackground(f"Map!A{top - 1}", "#cccccc"),  # a row before the new ones
        ]))
    return ops


def _orderly_new_rows(rng: random.Random, top: int) -> list[port.Op]:
    """Values row by row, heights, then formats (overlapping one another) and more formats below: what
    ``fresh.py`` writes as XML."""
    ops: list[port.Op] = [port.SetValues(f"Map!A{r}:F{r}", [[rng.choice(PLAIN) for _ in range(6)]])
                          for r in range(top, top + 6) if rng.random() < 0.8]
    ops.append(port.ResizeRows(f"Map!{top}:{top + rng.randint(0, 6)}", rng.choice([30, 44])))
    for _ in range(rng.randint(1, 15)):
        r, c = rng.randint(top, top + 5), rng.randint(0, 4)
        a, b = f"{chr(ord('A') + c)}{r}", f"{chr(ord('A') + c + rng.randint(0, 1))}{r + rng.randint(0, 1)}"
        ops.append(rng.choice([port.SetBackground(f"Map!{a}:{b}", rng.choice(["#ffe599", "#b7b7b7"])),
                               port.SetBold(f"Map!{a}"), port.SetBorders(f"Map!{a}:{b}", ("outer",), "thick"),
                               port.SetBorders(f"Map!{a}:{b}", ("inner_vertical",), "double")]))
    ops += [port.ResizeColumns("Map!A:F", 44), port.SetBold(f"Map!A{top + 7}:F{top + 7}")]
    return ops


@pytest.mark.parametrize("seed", range(16))
def test_any_ops_over_new_rows_make_the_file_the_ops_one_by_one_make(tmp_path: Path, seed: int,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    folder, rng = _made(tmp_path, seed % 4)
    lazy, whole = _two(tmp_path, folder)
    for top in (50, 62):
        ops = [*(_orderly_new_rows if seed % 2 else _random_new_rows)(rng, top), *_protect()]
        for gw, above in ((lazy, xlsx_read.LAZY_ABOVE), (whole, 1 << 40)):
            with monkeypatch.context() as m:
                m.setattr(xlsx_read, "LAZY_ABOVE", above)
                gw.write(KEY, ops)
        _same(lazy, whole, monkeypatch)


@pytest.mark.parametrize("seed", range(3))
def test_the_same_format_ops_in_several_workbooks_make_what_the_ops_one_by_one_make(
        tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stage's map formats are one tuple of ops in every player's ops: a run found again by the identity of its
    ops (``fresh._RUNS``) is written as the ops make it, and so is a run that holds more, or fewer, of them."""
    rng = random.Random(seed)
    shared = tuple(_map_block(random.Random(seed), 45, PLAIN)[3:])  # widths, heights, formats: the same objects
    more = [port.SetBackground("Map!B47", "#cccccc"), port.SetBorders("Map!C48:D48", ("outer",), "double")]
    cases = [list(shared), list(shared), [*shared, *more], list(shared[:-3]), [*more, *shared], list(shared)]
    planned: list[int] = []
    plan = fresh._plan
    monkeypatch.setattr(fresh, "_plan", lambda run, tab: planned.append(len(run)) or plan(run, tab))
    for n, formats in enumerate(cases):
        folder, _rng = _made(tmp_path / f"w{n}", seed)
        lazy, whole = _two(tmp_path / f"w{n}", folder)
        values = [port.SetValues("Map!A45", [[f"block {n}"]]),
                  port.SetValues("Map!A46:J58", [[rng.choice(PLAIN) for _ in range(10)] for _ in range(13)])]
        ops = [*values, *formats, *_protect()]
        for gw, above in ((lazy, xlsx_read.LAZY_ABOVE), (whole, 1 << 40)):
            with monkeypatch.context() as m:
                m.setattr(xlsx_read, "LAZY_ABOVE", above)
                gw.write(KEY, ops)
        held = lazy._books[KEY][2].sheet("Map")
        assert held is not None
        if n != 4:  # (there the shared run resets a cell of ``more`` to no style: op by op)
            assert held.pending is not None and f"block {n}" in held.pending.tail  # written as XML
            assert held.pending.styles is not None  # known as read and made, the same as a look in the text finds
            looked = replace(held.pending, styles=None)
            assert all(held.pending.holds_style([s]) == looked.holds_style([s]) for s in range(40))
            assert held.pending.holds_style(range(40)) and not held.pending.holds_style([999])
        _same(lazy, whole, monkeypatch)
    assert len(planned) == len(cases) - 1  # the second workbook's run found again by the identity of its ops
