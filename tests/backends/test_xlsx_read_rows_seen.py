"""The shapes of a sheet sheetgm wrote are checked row by row, each distinct row once per process
(``read._ROWS_SEEN``): a content is taken exactly when the check of the whole content in one pattern (the
reader before, kept here as the witness) takes it, and reads the same whether its rows were seen before or not."""

from __future__ import annotations

import random
import re

import pytest

from sheetgm.backends.xlsx import read as xlsx_read
from sheetgm.backends.xlsx.book import Sheet
from sheetgm.backends.xlsx.package import LIMITS

_ROWS = re.compile(rf'(?:<row r="[0-9]+"(?: [A-Za-z]+="[^"&<{xlsx_read._REFUSED}]*")*>'
                   rf'(?:{xlsx_read._OUR_CELL_SHAPE})*</row>)*')
_HEAD = re.compile(r'<row r="([0-9]+)"((?: [A-Za-z]+="[^"&<]*")*)>')


def _witness(xml: str) -> bool:
    """Whether the reader before took a content (read.py at d02ea95, ``_read_our_cells``'s checks)."""
    if "]]>" in xml or not _ROWS.fullmatch(xml):
        return False
    entities = xlsx_read._ANY_ENTITY.findall(xml)
    if xml.count("&") != len(entities) or not set(entities) <= xlsx_read._OUR_ENTITY.keys():
        return False
    for _, attr_text in _HEAD.findall(xml):
        attrs = dict(xlsx_read._OUR_ATTR.findall(attr_text))
        if attr_text and (len(attrs) != attr_text.count("=") or "r" in attrs):
            return False
    return True


CELLS = ['<c r="A{r}"/>', '<c r="B{r}" s="3"/>', '<c r="C{r}" t="inlineStr"><is><t>x &amp; y</t></is></c>',
         '<c r="D{r}" s="2" t="inlineStr"><is><t xml:space="preserve"> a </t></is></c>',
         '<c r="E{r}" t="inlineStr"><is><t>_x0041_&#13;&lt;&gt;</t></is></c>']
ATTRS = ['', ' spans="1:5"', ' ht="21" customHeight="1"', ' hidden="1"']
EDITS = ["<", "&", "&amp;", "&quot;", "&bogus;", "</row>", "]]>", '"', ' r="1"', "\r", "\x01", '<row r="9">',
         ' ht="2"', ' ht="3" ht="4"', "<c/>", ' t="n"', "<v>1</v>", "", "x", "&#13", "</row><row r=\"2\">"]


def _content(rng: random.Random) -> str:
    rows, number = [], 0
    for _ in range(rng.randint(0, 6)):
        number += rng.randint(0, 2)
        cells = "".join(rng.choice(CELLS).format(r=number) for _ in range(rng.randint(0, 4)))
        rows.append(f'<row r="{number}"{rng.choice(ATTRS)}>{cells}</row>')
    return "".join(rows)


def _edit(rng: random.Random, xml: str) -> str:
    for _ in range(rng.randint(0, 2)):
        at = rng.randint(0, len(xml))
        cut = rng.choice([0, 0, 1, 3])
        xml = xml[:at] + rng.choice(EDITS) + xml[at + cut:]
    return xml


def _read(xml: str, lazy: bool) -> tuple[bool, object]:
    sheet, budget = Sheet("Map"), xlsx_read._Budget(LIMITS)
    source = xlsx_read.Part("x", b"", 0, 0) if lazy else None
    took = xlsx_read._read_our_cells(xml, sheet, budget, source, 0, len(xml))  # type: ignore[arg-type]
    last = sheet.pending.last if sheet.pending is not None else None
    measured = sheet.pending.measured if sheet.pending is not None else None  # the extent worked out as read
    cells = {rc: (c.kind, c.value, c.style) for rc, c in sheet._cells.items()}
    return took, (cells, sheet.rows, last, budget.cells, measured)


def _expected(xml: str, lazy: bool) -> object:
    """What a content the patterns take reads as: its cells and rows as the XML parser reads them; read lazily
    (its last row, the cells its "<c " elements count) when its rows are numbered from 1 up."""
    sheet, budget = Sheet("Map"), xlsx_read._Budget(LIMITS)
    wrapped = f'<worksheet xmlns="{xlsx_read.xmlkit.MAIN}"><sheetData>{xml}</sheetData></worksheet>'.encode()
    rows = xlsx_read._elements(wrapped, xlsx_read._SHEET_DATA_TAG, xlsx_read._ROW_TAG)
    xlsx_read._read_cells(rows, sheet, [], budget, False)
    numbers = [int(n) for n, _ in _HEAD.findall(xml)]
    if lazy and numbers and numbers[0] >= 1 and numbers == sorted(set(numbers)):
        # the extent as the whole text measures it (what a save asked for before it was worked out as read)
        return {}, sheet.rows, numbers[-1] - 1, max(xml.count("<c "), len(numbers)), xlsx_read._extent(xml)
    return {rc: (c.kind, c.value, c.style) for rc, c in sheet.cells.items()}, sheet.rows, None, budget.cells, None


@pytest.mark.parametrize("seed", range(6))
def test_a_content_is_taken_exactly_when_the_whole_content_pattern_takes_it(seed: int) -> None:
    rng = random.Random(seed)
    taken = refused = 0
    for _ in range(300):
        xml = _edit(rng, _content(rng))
        lazy = rng.random() < 0.5
        xlsx_read._ROWS_SEEN.clear()
        xlsx_read._CELLS_SEEN.clear()
        cold = _read(xml, lazy)
        warm = _read(xml, lazy)  # every row of it seen now
        assert cold[0] == warm[0] == _witness(xml), xml
        assert cold == warm, xml
        if cold[0]:
            assert cold[1] == _expected(xml, lazy), xml
        taken, refused = taken + cold[0], refused + (not cold[0])
    assert taken > 50 and refused > 50  # both sides exercised


@pytest.mark.parametrize(("seen", "held", "seed"), [("_ROWS_SEEN", "_ROWS_HELD", 3), ("_CELLS_SEEN", "_CELLS_HELD", 4)])
def test_the_rows_kept_are_bounded_by_their_characters(monkeypatch: pytest.MonkeyPatch, seen: str, held: str,
                                                        seed: int) -> None:
    """Both memos of rows (the shapes checked, the cells parsed) hold at most their budget of characters."""
    monkeypatch.setattr(xlsx_read, held, [0, 200])
    memo = getattr(xlsx_read, seen)
    memo.clear()
    rng = random.Random(seed)
    for _ in range(100):
        xml = _content(rng)
        want = _read(xml, False)
        assert _read(xml, False) == want
        total = sum(map(len, memo))
        assert total == getattr(xlsx_read, held)[0] and (total <= 200 or len(memo) == 1)
    assert memo  # rows held still


def test_each_reader_gets_cells_of_its_own() -> None:
    xml = "".join(f'<row r="{r}">{CELLS[2].format(r=r)}{CELLS[1].format(r=r)}</row>' for r in (1, 2))
    xlsx_read._CELLS_SEEN.clear()
    first, rows = xlsx_read._our_cells(xml, {})[0], {}
    want = {rc: (c.kind, c.value, c.style) for rc, c in first.items()}
    for cell in first.values():
        cell.value, cell.style = "changed", 9
    again = xlsx_read._our_cells(xml, rows)[0]
    assert {rc: (c.kind, c.value, c.style) for rc, c in again.items()} == want
    assert want == {(0, 2): ("s", "x & y", 0), (0, 1): ("", "", 3), (1, 2): ("s", "x & y", 0), (1, 1): ("", "", 3)}
    assert "".join(rows[r] for r in sorted(rows)) == xml


@pytest.mark.parametrize("seed", range(3))
def test_the_styles_a_lazy_sheet_holds_are_those_its_text_holds(seed: int) -> None:
    """``Pending.styles``, worked out as the rows are read: whether the rows hold a style is what a look in their
    text finds (a text that reads ' s="7"', or ' s="07"', counts there too)."""
    from dataclasses import replace

    rng = random.Random(seed)
    cells = [*CELLS, '<c r="F{r}" t="inlineStr"><is><t>say s="7" or s="07"</t></is></c>', '<c r="G{r}" s="12"/>']
    for _ in range(200):
        rows = [f'<row r="{n}"{rng.choice(ATTRS)}>'
                + "".join(rng.choice(cells).format(r=n) for _ in range(rng.randint(0, 4))) + "</row>"
                for n in range(1, rng.randint(2, 6))]
        xml = "".join(rows)
        sheet, budget = Sheet("Map"), xlsx_read._Budget(LIMITS)
        source = xlsx_read.Part("x", None, 0, len(xml), xml.encode())
        assert xlsx_read._read_our_cells(xml, sheet, budget, source, 0, len(xml.encode()))
        p = sheet.pending
        assert p is not None and p.styles is not None
        looked = replace(p, styles=None)  # the same rows, their text looked in
        for wanted in ([2], [3], [7], [12], [1, 12], [0], []):
            assert p.holds_style(wanted) == looked.holds_style(wanted) == any(f' s="{n}"' in xml for n in wanted)
