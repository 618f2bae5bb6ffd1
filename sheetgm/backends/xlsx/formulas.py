"""A shared formula's text in each cell that shares it.

Excel writes a formula filled down or across once, in its first cell (``<f t="shared" ref="B2:B9" si="0">A2*2``),
and the others only point at it (``<f t="shared" si="0"/>``). A file saved without results (a program that does
not compute) holds no value in those cells: what each one computes is the first cell's formula with its relative
references moved by the cell's distance from the first (B3: ``A3*2``), as Excel and openpyxl give it.
"""

from __future__ import annotations

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

    def col(dollar: str, letters: str) -> str | None:
        n = col_index(letters.upper())
        if not dollar:
            n += cols
        return dollar + col_letters(n) if 0 <= n < _MAX_COL else None

    def row(dollar: str, digits: str) -> str | None:
        n = int(digits) + (0 if dollar else rows)
        return f"{dollar}{n}" if 1 <= n <= _MAX_ROW else None

    def one(found: re.Match[str]) -> str:
        g = found.groups()
        if g[1] is not None:  # A:C
            if col_index(g[1].upper()) >= _MAX_COL or col_index(g[3].upper()) >= _MAX_COL:
                return found.group(0)
            a, b = col(g[0], g[1]), col(g[2], g[3])
        elif g[5] is not None:  # 1:3
            a, b = row(g[4], g[5]), row(g[6], g[7])
        elif g[9] is not None:  # B2
            if col_index(g[9].upper()) >= _MAX_COL:
                return found.group(0)  # a name, not a column
            c, r = col(g[8], g[9]), row(g[10], g[11])
            return c + r if c is not None and r is not None else "#REF!"
        else:
            return found.group(0)
        return f"{a}:{b}" if a is not None and b is not None else "#REF!"

    return _TOKEN.sub(one, formula)
