"""A1 notation: ``Tab``, ``Tab!B2``, ``Tab!A2:F40``, ``Tab!A2:F`` (open end),
``Tab!A:F`` (whole columns), ``Tab!2:5`` (whole rows); quoted tab names
(``'My tab'!A1``, quotes doubled inside).

Indices are 0-based; ``end_*`` is exclusive and ``None`` means unbounded, the
same convention as the Sheets API ``GridRange``. Every range names its tab:
the gateway has no notion of a "first sheet".
"""

from __future__ import annotations

import re
from functools import lru_cache

from sheetgm.backends.errors import RangeError
from sheetgm.core.values import Value, record

_CELL = re.compile(r"^([A-Za-z]{0,3})(\d{0,7})$")
_PLAIN_TAB = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_LOOKS_LIKE_CELL = re.compile(r"^([A-Za-z]{1,3}\d+|[Rr]\d*[Cc]\d*)$")


@record(frozen=True)
class A1(Value):
    """A range in A1 notation, 0-based and end-exclusive; an end of None runs to the tab's edge."""

    tab: str
    start_row: int = 0
    start_col: int = 0
    end_row: int | None = None
    end_col: int | None = None

    @property
    def whole_tab(self) -> bool:
        return (self.start_row, self.start_col, self.end_row, self.end_col) == (0, 0, None, None)

    @property
    def bounded(self) -> bool:
        return self.end_row is not None and self.end_col is not None

    def cells(self, max_rows: int, max_cols: int) -> list[tuple[int, int]]:
        """The (row, col) cells of the range, open ends cut at ``max_rows``/``max_cols``."""
        rows = range(self.start_row, self.end_row if self.end_row is not None else max_rows)
        cols = range(self.start_col, self.end_col if self.end_col is not None else max_cols)
        return [(r, c) for r in rows for c in cols]

    def contains(self, row: int, col: int) -> bool:
        return (
            self.start_row <= row
            and (self.end_row is None or row < self.end_row)
            and self.start_col <= col
            and (self.end_col is None or col < self.end_col)
        )

    def __str__(self) -> str:
        return format_range(self)


def col_letters(col: int) -> str:
    """0 -> 'A', 25 -> 'Z', 26 -> 'AA'."""
    out = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        out = chr(ord("A") + rem) + out
    return out


def col_index(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n - 1


def cell_name(row: int, col: int) -> str:
    return f"{col_letters(col)}{row + 1}"


def quote_tab(tab: str) -> str:
    if _PLAIN_TAB.match(tab) and not _LOOKS_LIKE_CELL.match(tab):
        return tab
    return "'" + tab.replace("'", "''") + "'"


def split_tab(text: str) -> tuple[str, str]:
    """Split ``'Tab'!A1:B2`` into the unquoted tab name and the cell part ('' for a whole tab)."""
    text = text.strip()
    if text.startswith("'"):
        i, name = 1, []
        while i < len(text):
            if text[i] == "'":
                if text[i + 1 : i + 2] == "'":
                    name.append("'")
                    i += 2
                    continue
                break
            name.append(text[i])
            i += 1
        else:
            raise RangeError(range=text, detail="unclosed quote in the tab name")
        rest = text[i + 1 :]
        if rest and (not rest.startswith("!") or rest == "!"):
            raise RangeError(range=text, detail="expected '!' and cells after the quoted tab name")
        return "".join(name), rest[1:]
    tab, bang, cells = text.partition("!")
    if bang and not cells:
        raise RangeError(range=text, detail="nothing after '!'")
    return tab, cells


@lru_cache(maxsize=8192)
def parse_range(text: str) -> A1:
    """Parse an A1 range that names its tab; raise `RangeError` saying what is wrong. Memoized: a stage
    writes the same few thousand ranges again (the maps' cells), and an `A1` is immutable."""
    tab, cells = split_tab(text)
    if not tab or (not cells and not text.strip().startswith("'") and (":" in tab or _LOOKS_LIKE_CELL.match(tab))):
        raise RangeError(range=text, detail="the range must name its tab, e.g. Orders!A1:F40")
    if not cells:
        return A1(tab)
    first, colon, last = cells.partition(":")
    a = _corner(text, first)
    b = _corner(text, last) if colon else a
    if not colon and (a[0] is None or a[1] is None):
        raise RangeError(range=text, detail=f"'{cells}' is not a cell")
    r0, c0 = a
    r1, c1 = b
    start_row = r0 or 0
    start_col = c0 or 0
    end_row = None if r1 is None else r1 + 1
    end_col = None if c1 is None else c1 + 1
    if r0 is None and r1 is not None or c0 is None and c1 is not None:
        raise RangeError(range=text, detail="the first corner must be at least as specific as the second")
    if (end_row is not None and end_row <= start_row) or (end_col is not None and end_col <= start_col):
        raise RangeError(range=text, detail="the second corner comes before the first")
    return A1(tab, start_row, start_col, end_row, end_col)


def _corner(text: str, part: str) -> tuple[int | None, int | None]:
    m = _CELL.match(part.strip())
    if not m or not (m.group(1) or m.group(2)):
        raise RangeError(range=text, detail=f"'{part}' is not a cell, a column or a row")
    letters, digits = m.groups()
    if digits and int(digits) == 0:
        raise RangeError(range=text, detail="rows are numbered from 1")
    return (int(digits) - 1 if digits else None, col_index(letters) if letters else None)


def format_range(rng: A1) -> str:
    """Canonical text of a range (the inverse of `parse_range` up to quoting and case)."""
    tab = quote_tab(rng.tab)
    if rng.whole_tab:
        return tab
    cols_only = rng.start_row == 0 and rng.end_row is None
    rows_only = rng.start_col == 0 and rng.end_col is None
    if cols_only and rng.end_col is not None:
        first, last = col_letters(rng.start_col), col_letters(rng.end_col - 1)
    elif rows_only and rng.end_row is not None:
        first, last = str(rng.start_row + 1), str(rng.end_row)
    else:
        first = cell_name(rng.start_row, rng.start_col)
        last = (col_letters(rng.end_col - 1) if rng.end_col is not None else "") + (
            str(rng.end_row) if rng.end_row is not None else ""
        )
        if rng.end_row == rng.start_row + 1 and rng.end_col == rng.start_col + 1:
            return f"{tab}!{first}"
    return f"{tab}!{first}:{last}"


def normalize(text: str) -> str:
    """The canonical form of a range text, as protections report it."""
    return format_range(parse_range(text))
