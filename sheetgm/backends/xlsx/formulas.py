"""A shared formula's text in each cell that shares it.

Excel writes a formula filled down or across once, in its first cell (``<f t="shared" ref="B2:B9" si="0">A2*2``),
and the others only point at it (``<f t="shared" si="0"/>``). A file saved without results (a program that does
not compute) holds no value in those cells: what each one computes is the first cell's formula with its relative
references moved by the cell's distance from the first (B3: ``A3*2``), as Excel and openpyxl give it.
"""

from __future__ import annotations

import functools
import re

from sheetgm.backends.a1 import col_index, col_letters

_MAX_ROW, _MAX_COL = 1_048_576, 16_384
# What is not moved (a text in quotes, a quoted sheet name, a table's column in brackets), and references: a
# cell, a range of whole columns, a range of whole rows; not a name that only looks like one (a function's name
# before "(", a part of a longer name).
_TOKEN = re.compile(
    r'"(?:[^"]|"")*"|\'(?:[^\']|\'\')*\'|\[[^\]]*\]'
    r"|(?<![\w.])(\$?)([A-Za-z]{1,3}):(\$?)([A-Za-z]{1,3})(?![\w(.])"
    r"|(?<![\w.])(\$?)([0-9]+):(\$?)([0-9]+)(?![\w(.])"
    r"|(?<![\w.])(\$?)([A-Za-z]{1,3})(\$?)([0-9]+)(?![\w(.])")


def moved(formula: str, rows: int, cols: int) -> str:
    """``formula`` as it reads ``rows`` rows down and ``cols`` columns right of where it was written: its
    relative references moved (``$`` keeps a row or column), one that would leave the sheet made ``#REF!``."""
    if not rows and not cols:
        return formula
    texts, refs = _parsed(formula)
    if not refs:
        return formula
    out = [texts[0]]
    letters = _LETTERS
    for (kind, a_fixed, a, b_fixed, b), text in zip(refs, texts[1:], strict=True):
        if kind == "cell":  # a: column, b: row
            c, r = a if a_fixed else a + cols, b if b_fixed else b + rows
            if 0 <= c < _MAX_COL and 1 <= r <= _MAX_ROW:
                out.append(f"{'$' if a_fixed else ''}{letters.get(c) or _letters(c)}{'$' if b_fixed else ''}{r}")
            else:
                out.append("#REF!")
        elif kind == "cols":
            c1, c2 = a if a_fixed else a + cols, b if b_fixed else b + cols
            if 0 <= c1 < _MAX_COL and 0 <= c2 < _MAX_COL:
                out.append(f"{'$' if a_fixed else ''}{_letters(c1)}:{'$' if b_fixed else ''}{_letters(c2)}")
            else:
                out.append("#REF!")
        else:
            r1, r2 = a if a_fixed else a + rows, b if b_fixed else b + rows
            if 1 <= r1 <= _MAX_ROW and 1 <= r2 <= _MAX_ROW:
                out.append(f"{'$' if a_fixed else ''}{r1}:{'$' if b_fixed else ''}{r2}")
            else:
                out.append("#REF!")
        out.append(text)
    return "".join(out)


_Ref = tuple[str, bool, int, bool, int]  # kind ("cell", "cols", "rows"), fixed?, column or row, fixed?, row or column
_LETTERS: dict[int, str] = {}


def _letters(col: int) -> str:
    found = _LETTERS.get(col)
    if found is None:
        found = _LETTERS[col] = col_letters(col)
    return found


@functools.lru_cache(maxsize=256)
def _parsed(formula: str) -> tuple[tuple[str, ...], tuple[_Ref, ...]]:
    """The formula cut at its references (worked out once: each cell sharing it is the same cut, moved): the texts
    between them, and each reference."""
    texts, refs, at = [], [], 0
    for found in _TOKEN.finditer(formula):
        g = found.groups()
        if g[1] is not None:  # A:C
            a, b = col_index(g[1].upper()), col_index(g[3].upper())
            if a >= _MAX_COL or b >= _MAX_COL:
                continue  # a name, not columns
            ref: _Ref = ("cols", bool(g[0]), a, bool(g[2]), b)
        elif g[5] is not None:  # 1:3
            ref = ("rows", bool(g[4]), int(g[5]), bool(g[6]), int(g[7]))
        elif g[9] is not None:  # B2
            a = col_index(g[9].upper())
            if a >= _MAX_COL:
                continue  # a name, not a column
            ref = ("cell", bool(g[8]), a, bool(g[10]), int(g[11]))
        else:
            continue  # a text in quotes, a sheet's name, a table's column
        texts.append(formula[at:found.start()])
        refs.append(ref)
        at = found.end()
    texts.append(formula[at:])
    return tuple(texts), tuple(refs)
