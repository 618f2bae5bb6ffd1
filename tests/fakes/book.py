"""A spreadsheet as the fake Google keeps it: a `model.Book` (cells as text, formats, protections)
with what Google keeps beside it: the spreadsheet's locale and time zone, tab properties the model
has no field for (hidden, tab colour, frozen columns, ...), named ranges, merges, and the typed
value behind a cell's text (a number, a date, a formula) for the render options of a read.

Google's defaults (a new spreadsheet's ``defaultFormat`` and ``spreadsheetTheme``) are copied from
the recorded answers in ``recordings/gspread``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from fakes.errors import bad
from sheetgm.backends import model, port

Json = dict[str, Any]
Key = tuple[int, int, int]  # sheet id, row, column

_WHITE = {"red": 1, "green": 1, "blue": 1}
DEFAULT_FORMAT: Json = {
    "backgroundColor": _WHITE,
    "padding": {"top": 2, "right": 3, "bottom": 2, "left": 3},
    "verticalAlignment": "BOTTOM",
    "wrapStrategy": "OVERFLOW_CELL",
    "textFormat": {"foregroundColor": {}, "fontFamily": "arial,sans,sans-serif", "fontSize": 10, "bold": False,
                   "italic": False, "strikethrough": False, "underline": False,
                   "foregroundColorStyle": {"rgbColor": {}}},
    "backgroundColorStyle": {"rgbColor": _WHITE},
}
_THEME_COLORS = (
    ("TEXT", {}), ("BACKGROUND", _WHITE),
    ("ACCENT1", {"red": 0.25882354, "green": 0.52156866, "blue": 0.95686275}),
    ("ACCENT2", {"red": 0.91764706, "green": 0.2627451, "blue": 0.20784314}),
    ("ACCENT3", {"red": 0.9843137, "green": 0.7372549, "blue": 0.015686275}),
    ("ACCENT4", {"red": 0.20392157, "green": 0.65882355, "blue": 0.3254902}),
    ("ACCENT5", {"red": 1, "green": 0.42745098, "blue": 0.003921569}),
    ("ACCENT6", {"red": 0.27450982, "green": 0.7411765, "blue": 0.7764706}),
    ("LINK", {"red": 0.06666667, "green": 0.33333334, "blue": 0.8}),
)
THEME: Json = {"primaryFontFamily": "Arial",
               "themeColors": [{"colorType": t, "color": {"rgbColor": c}} for t, c in _THEME_COLORS]}


@dataclass(frozen=True)
class Typed:
    """What a cell holds beyond its text: the value as entered and as computed (ExtendedValue JSON)."""

    entered: Json  # {"numberValue": 2} | {"boolValue": true} | {"formulaValue": "=4/2"} | {"stringValue": ...}
    effective: Json  # the computed ExtendedValue ({"errorValue": ...} for a formula that fails)
    formatted: str
    date: bool = False  # a number shown as a date (a serial number of days since 1899-12-30)


@dataclass
class NamedRange:
    id: str
    name: str
    range: Json  # a GridRange


@dataclass
class Spreadsheet(model.Book):
    locale: str = "en_US"
    time_zone: str = "Etc/GMT"
    auto_recalc: str = "ON_CHANGE"
    tab_props: dict[int, Json] = field(default_factory=dict)  # sheet id -> SheetProperties the model lacks
    typed: dict[Key, Typed] = field(default_factory=dict)
    named: list[NamedRange] = field(default_factory=list)
    merges: dict[int, list[Json]] = field(default_factory=dict)  # sheet id -> merged GridRanges

    def properties(self) -> Json:
        return {"title": self.title, "locale": self.locale, "autoRecalc": self.auto_recalc,
                "timeZone": self.time_zone, "defaultFormat": copy.deepcopy(DEFAULT_FORMAT),
                "spreadsheetTheme": copy.deepcopy(THEME)}

    def extra(self, sheet: model.Sheet) -> Json:
        return self.tab_props.setdefault(sheet.sheet_id, {})

    def hidden(self, sheet: model.Sheet) -> bool:
        return bool(self.tab_props.get(sheet.sheet_id, {}).get("hidden"))

    def typed_at(self, sheet: model.Sheet, row: int, col: int) -> Typed | None:
        """The typed value behind a cell, if its text is still what that value shows."""
        found = self.typed.get((sheet.sheet_id, row, col))
        cell = sheet.cells.get((row, col))
        if found is None or cell is None or cell.value != found.formatted:
            return None
        return found

    def put(self, sheet: model.Sheet, row: int, col: int, value: Typed | str) -> None:
        """Set a cell's value: text, or a typed value shown as its formatted text (at most 50,000
        characters, or a 400 in the API's words)."""
        text = value.formatted if isinstance(value, Typed) else value
        if len(text) > port.GOOGLE_CELL_LIMIT:
            raise bad(f"Your input contains more than the maximum of {port.GOOGLE_CELL_LIMIT} characters "
                      "in a single cell.")
        if text or (row, col) in sheet.cells:
            sheet.cell(row, col).value = text
        key = (sheet.sheet_id, row, col)
        if isinstance(value, Typed) and value.entered.get("stringValue") is None:
            self.typed[key] = value
        else:
            self.typed.pop(key, None)

    def drop_sheet(self, sheet: model.Sheet) -> None:
        self.sheets.remove(sheet)
        self.protected = [p for p in self.protected if p.range.tab != sheet.name]
        self.tab_props.pop(sheet.sheet_id, None)
        self.merges.pop(sheet.sheet_id, None)
        self.named = [n for n in self.named if n.range.get("sheetId", 0) != sheet.sheet_id]
        self.typed = {k: v for k, v in self.typed.items() if k[0] != sheet.sheet_id}

    def shift(self, sheet: model.Sheet, rows: bool, at: int, count: int) -> None:
        """Insert ``count`` rows (or columns) before index ``at``, or with a negative ``count`` delete the
        ``-count`` before it: cells, typed values and sizes move along, the grid grows or shrinks."""
        k = 0 if rows else 1

        def moved(rc: tuple[int, int]) -> tuple[int, int] | None:
            i = rc[k]
            if count < 0 and at + count <= i < at:
                return None
            j = i + count if i >= at else i
            return (j, rc[1]) if rows else (rc[0], j)

        cells, typed = {}, {}
        for rc, cell in sheet.cells.items():
            to = moved(rc)
            if to is not None:
                cells[to] = cell
                if (found := self.typed.get((sheet.sheet_id, *rc))) is not None:
                    typed[(sheet.sheet_id, *to)] = found
        sheet.cells = cells
        self.typed = {key: v for key, v in self.typed.items() if key[0] != sheet.sheet_id} | typed
        sizes = sheet.row_heights if rows else sheet.col_widths
        kept = {}
        for i, px in sizes.items():
            to = moved((i, i))
            if to is not None:
                kept[to[k]] = px
        sizes.clear()
        sizes.update(kept)
        if rows:
            sheet.grid_rows += count
        else:
            sheet.grid_cols += count

    def cut(self, sheet: model.Sheet) -> None:
        """Drop what lies outside the sheet's grid (after it shrank)."""
        outside = [rc for rc in sheet.cells if rc[0] >= sheet.grid_rows or rc[1] >= sheet.grid_cols]
        for rc in outside:
            del sheet.cells[rc]
            self.typed.pop((sheet.sheet_id, *rc), None)


def as_spreadsheet(book: model.Book) -> Spreadsheet:
    """The fake's own kind of book (a plain `model.Book` put in the fake by hand is converted)."""
    if isinstance(book, Spreadsheet):
        return book
    return Spreadsheet(book.title, book.sheets, book.protected, book.permissions, book.next_id)
