"""A workbook held in memory as the xlsx adapter needs it.

What the gateway can set is modelled (values, cell formats, notes, dropdowns,
frozen rows, column widths and row heights, sheet protection, hidden tabs).
Everything else a person's spreadsheet program put in the file is carried
through a save as it was written: a sheet's other elements (merged cells,
conditional formats, hyperlinks, a drawing's anchor, tables, extensions) as
their XML text, and the package's other parts (images, charts, drawings,
tables, pivots, external links, macros, custom properties, chart sheets) as
their compressed bytes; a sheet nothing changed is written back byte for byte.

Reading a player's workbook takes about 3 ms (openpyxl took 15), which is what
lets a whole stage fit in a fraction of a second (``read.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import datetime, time, timedelta
from operator import itemgetter
from typing import NamedTuple

from sheetgm.backends.xlsx.deflate import inflate
from sheetgm.backends.xlsx.package import Part
from sheetgm.backends.xlsx.styles import Styles
from sheetgm.backends.xlsx.xmlkit import Skeleton
from sheetgm.core.values import Value, field, record

# A worksheet's elements in the schema's order (CT_Worksheet): an element the codec writes goes by its rank
# among those it carries as they were.
WORKSHEET_ORDER = (
    "sheetPr", "dimension", "sheetViews", "sheetFormatPr", "cols", "sheetData", "sheetCalcPr", "sheetProtection",
    "protectedRanges", "scenarios", "autoFilter", "sortState", "dataConsolidate", "customSheetViews", "mergeCells",
    "phoneticPr", "conditionalFormatting", "dataValidations", "hyperlinks", "printOptions", "pageMargins",
    "pageSetup", "headerFooter", "rowBreaks", "colBreaks", "customProperties", "cellWatches", "ignoredErrors",
    "smartTags", "drawing", "legacyDrawing", "legacyDrawingHF", "drawingHF", "picture", "oleObjects", "controls",
    "webPublishItems", "tableParts", "extLst")
RANK = {tag: float(i) for i, tag in enumerate(WORKSHEET_ORDER)}
# What the codec writes itself: every other element of a sheet is carried as it was.
MODELLED = frozenset({"dimension", "sheetViews", "cols", "sheetData", "sheetProtection", "dataValidations"})
_EPOCH_1900, _EPOCH_1904 = datetime(1899, 12, 30), datetime(1904, 1, 1)


class Rel(NamedTuple):
    """One relationship of a part: id, type, target, and "External" for a link outside the package."""

    id: str
    type: str
    target: str
    mode: str = ""


class Cell:
    """kind: "s" text, "n" number, "b" boolean, "e" error, "d" ISO date, "" empty; value as stored (of an
    empty cell sharing another's formula: that formula as it reads in this cell, not written).
    ``sst``: the entry of the file's shared-string table the text came from (rich text, phonetic guides:
    written back as that entry while the text is unchanged), -1 for none; ``extra``: other attributes as
    written (`` vm="1"``: a picture placed in the cell, `` cm="1"``: a dynamic array), kept likewise. ``raw``: an
    inline text's text as read and its ``<is>`` content as the file wrote it, where reading lost something (runs,
    phonetic guides, blanks a ``<t>`` without xml:space="preserve" holds, which LibreOffice and openpyxl show):
    written back so while the text is the same, so that no program reads it otherwise after a save; of a formula's
    text result holding ``_xHHHH_`` escapes, the text read and its ``<v>`` content as written, likewise."""

    __slots__ = ("kind", "value", "formula", "style", "sst", "extra", "raw")

    def __init__(self, kind: str = "", value: str = "", style: int = 0,
                 formula: tuple[dict[str, str], str] | None = None, sst: int = -1, extra: str = "",
                 raw: tuple[str, str] | None = None) -> None:
        self.kind, self.value, self.style, self.formula, self.sst, self.extra = kind, value, style, formula, sst, extra
        self.raw = raw


@record
class Col:
    """A run of columns with the same width or format."""

    min: int  # 1-based, inclusive
    max: int
    attrs: dict[str, str]  # width, customWidth, style, hidden...


@record
class Validation:
    """A sheet's dropdown or input rule as written in the file."""

    sqref: str
    attrs: dict[str, str]
    formula1: str | None = None
    formula2: str | None = None


Cells = dict[tuple[int, int], Cell]


@record(eq=False)
class Pending:
    """A sheet's rows as sheetgm's writer made them (their shape checked as read), not parsed yet: the content of
    its sheetData, at ``start:end`` of the part ``source`` inflated; ``last``: its last row (0-based), ``parse``:
    the rows' XML to cells (``read.py``). A player's Map history and
    Current tabs are most of a workbook's cells: reading the orders parses neither, and a stage's new Map history
    block is written after the old ones without parsing them."""

    source: Part
    start: int
    end: int
    last: int
    parse: Callable[[str], tuple[Cells, dict[int, str]]]  # the cells, and each row's XML
    measure: Callable[[str], tuple[int, int]]  # rows and columns up to the last cell, (0, 0) for none
    measured: tuple[int, int] | None = None
    # Rows parsed one by one since (``Sheet.take``): their cells are the sheet's, their XML in ``row_xml``.
    taken: set[int] = field(default_factory=set)
    tail: str = ""  # new rows written after them as XML, not as cells (``fresh.py``)
    # Each N of the ' s="N"' its text holds (the cells' styles), worked out as its rows were read and made; None
    # for not known (then ``holds_style`` looks in the text)
    styles: frozenset[str] | None = None
    # Rows written again in their XML since (``patch.py``, not parsed), and the cells that left them (they count
    # in the extent, as the cells of a row taken and emptied do)
    patched: dict[int, str] = field(default_factory=dict)
    emptied: set[tuple[int, int]] = field(default_factory=set)
    # Kept from their first use to the end of the save (``forget``): the text, each row's XML (``row_texts``).
    _text: str | None = None
    _rows: dict[int, str] | None = None

    def extent(self) -> tuple[int, int]:
        """``measure`` of the rows, once (a save asks; rows parsed before it never do)."""
        if self.measured is None:
            self.measured = self.measure(self.text())
        return self.measured

    def text(self) -> str:
        if self._text is None:
            if self.patched:  # (the rows in order: the rows as read, in order, then the new ones)
                rows = self.row_texts()
                self._text = "".join([rows[r] for r in sorted(rows)])
            else:
                self._text = self._as_read()
        return self._text

    def _as_read(self) -> str:
        data = self.source.data if self.source.raw is None else inflate(self.source.raw)
        assert data is not None
        return data[self.start:self.end].decode("utf-8") + self.tail

    def raw_rows(self) -> bytes:
        """The rows' XML as UTF-8: the bytes the file held (the text was read from them), then the new ones."""
        if self.patched:
            return self.text().encode("utf-8")
        data = self.source.data if self.source.raw is None else inflate(self.source.raw)
        assert data is not None
        return data[self.start:self.end] + self.tail.encode("utf-8")

    def row_texts(self) -> dict[int, str]:
        """Each row's XML as read (or as written again since), by its row (0-based)."""
        if self._rows is None:
            # every row has the writer's shape (checked as read, or made by it): cut at each end tag, no text or
            # value of those shapes holds one, each starting '<row r="'
            pieces = (self._as_read() if self.patched else self.text()).split("</row>")
            pieces.pop()
            self._rows = {int(piece[8:piece.index('"', 8)]) - 1: piece + "</row>" for piece in pieces}
            self._rows.update(self.patched)
        return self._rows

    def patch(self, r: int, xml: str, emptied: Iterable[int]) -> None:
        """Row ``r`` (as read, not taken) is now ``xml``; the cells of ``emptied`` columns left it. Its extent, as
        the rows were read, still counts (as that of a row taken and emptied does), and the row's own with it."""
        before = self.extent()
        rows, cols = self.measure(xml)
        self.measured = (max(before[0], rows), max(before[1], cols))
        self.row_texts()[r] = self.patched[r] = xml
        self.emptied.update((r, c) for c in emptied)
        self._text = None

    def forget(self) -> None:
        """Let the inflated text go (a workbook held between reading and writing keeps the compressed bytes)."""
        self._text = self._rows = None

    def holds_style(self, styles: Iterable[int]) -> bool:
        """Whether a cell of these rows has one of ``styles``."""
        wanted = [str(s) for s in styles]
        if not wanted:
            return False
        if self.styles is not None:  # (known as read and made: the text not inflated for it)
            return any(n in self.styles for n in wanted)
        text = self.text()
        return any(f' s="{n}"' in text for n in wanted)


@record(frozen=True)
class Picture(Value):
    """A picture to place over a tab (``images.py``): its name, its PNG (empty: none), its top-left cell
    (0-based) and its size in pixels."""

    name: str
    png: bytes
    row: int
    col: int
    width: int
    height: int


@record(eq=False)
class _SheetFields:
    """The fields of a `Sheet` (its behaviour is in the class below)."""

    name: str
    state: str = "visible"
    cells: Cells = field(default_factory=dict)  # 0-based (row, col)
    rows: dict[int, dict[str, str]] = field(default_factory=dict)  # 0-based row -> ht, customHeight...
    cols: list[Col] = field(default_factory=list)
    frozen: tuple[int, int] = (0, 0)  # rows, columns
    view: dict[str, str] = field(default_factory=lambda: {"workbookViewId": "0"})
    protection: dict[str, str] | None = None
    validations: list[Validation] = field(default_factory=list)
    notes: dict[tuple[int, int], tuple[str, str]] = field(default_factory=dict)  # cell -> (text, author)
    written: str | bytes | None = None  # the sheet's XML as last written (``sheet_bytes``); None: changed since (or
    # as read: see source)
    row_xml: dict[int, str] = field(default_factory=dict)  # 0-based row -> its <row> XML as last written
    # The sheet's XML (``written``, else ``source``, inflated only when needed: a workbook held between reading
    # and writing keeps its compressed bytes, not its text) was made by sheetgm's writer: its rows can be kept.
    rows_in_written: bool = False
    # Where the sheet came from, and what of it is carried as it was.
    part: str = ""  # its part in the package ("xl/worksheets/sheet1.xml"); "" for a new sheet
    rel_id: str = ""  # its relationship from the workbook
    target: str = ""  # that relationship's target as written ("worksheets/sheet1.xml", "/xl/worksheets/...")
    sheet_id: int = 0
    root: str = ""  # its root element's start tag as written (namespace declarations); "" for a new sheet
    kept: list[tuple[float, str, str]] = field(default_factory=list)  # (rank, name, XML) of elements not modelled
    rels: list[Rel] = field(default_factory=list)  # its relationships (drawings, hyperlinks, tables, notes...)
    source: Part | None = None  # the part as read, written back while nothing in the sheet changed
    notes_read: dict[tuple[int, int], tuple[str, str]] | None = None  # notes as read: their parts are kept
    legacy: str = ""  # the relationship id of the notes' drawing (legacyDrawing) as read
    pending: Pending | None = None  # rows not parsed yet (their row attributes are in ``rows``)
    picture: Picture | None = None  # a picture asked for since the last save (``images.place``)


class Sheet(_SheetFields):
    """A tab. ``cells`` holds every cell (parsing the pending rows first, if any); the functions that write
    a stage's new rows ask ``reach`` for the cells from a row on, which leaves the rows before it unparsed."""

    _cells: Cells

    @property
    def cells(self) -> Cells:
        if self.pending is not None:
            self.load()
        return self._cells

    @cells.setter
    def cells(self, value: Cells) -> None:
        self._cells, self.pending = value, None

    def reach(self, first_row: int) -> Cells:
        """The cells, complete from row ``first_row`` on (the pending rows are parsed only if it is one of them)."""
        if self.pending is not None and first_row <= self.pending.last:
            self.load()
        return self._cells

    def row_cells(self, r: int) -> Cells:
        """The cells, complete in row ``r`` (a pending row taken already is not parsed again)."""
        p = self.pending
        if p is not None and r <= p.last and r not in p.taken:
            self.load()
        return self._cells

    def taken_cells(self) -> Cells:
        """The cells parsed so far: complete after the pending rows and in the rows taken from them."""
        return self._cells

    def take(self, rows: Iterable[int], parsed: dict[int, Cells] | None = None) -> None:
        """Parse these pending rows alone (a stage rewrites a player's Current tab whole and changes a few of its
        rows): their cells join the sheet's, their XML is kept until they change, the other rows stay as read.
        ``parsed``: rows the caller parsed already (``Pending.parse`` of their XML)."""
        p = self.pending
        if p is None:
            return
        texts = p.row_texts()
        for r in rows:
            if r > p.last or r in p.taken:
                continue
            p.taken.add(r)
            xml = texts.get(r)
            if xml is None:
                continue  # no such row as read: nothing to parse
            found = parsed[r] if parsed is not None and r in parsed else p.parse(xml)[0]
            for rc, cell in found.items():
                self._cells.setdefault(rc, cell)
            if found or r in self.rows:  # as ``load`` keeps it (a row that read back empty is left out)
                self.row_xml.setdefault(r, xml)

    def load(self) -> None:
        """Parse the pending rows; their XML is kept, row by row, until a row changes."""
        p = self.pending
        if p is None:
            return
        found, rows = p.parse(p.text())
        found.update(self._cells)  # rows after them written since, and the rows taken (as they are now)
        for rc in p.emptied:  # cells emptied in a row written again in its XML: kept, as in a row taken
            found.setdefault(rc, Cell())
        self._cells, self.pending = found, None
        live = {r for (r, _c) in found} | self.rows.keys()  # a row that read back empty is left out (_written_rows)
        for r, xml in rows.items():
            if r in live and r not in p.taken:  # a row taken keeps its XML in ``row_xml`` until it changes
                self.row_xml.setdefault(r, xml)
        self.rows_in_written = False  # its rows' XML is in ``row_xml`` already

    def touch(self) -> None:
        """Anything in the sheet may have changed: it is written anew, every row."""
        self.load()
        self.written, self.rows_in_written, self.source = None, False, None
        self.row_xml.clear()

    def touch_row(self, r: int) -> None:
        """Row ``r`` changed (a cell's value or format, the row's height): the sheet is written anew, but of
        its rows only this one (a long tab, such as the Map history, grows by a few rows a stage)."""
        if self.pending is not None and r <= self.pending.last and r not in self.pending.taken:
            self.load()  # its XML is in the pending rows: they are kept row by row from now on
        self.touch_outside_rows()
        self.row_xml.pop(r, None)

    def touch_rows(self, rows: set[int]) -> None:
        """`touch_row` for each of ``rows`` (none: nothing changed)."""
        if rows:
            p = self.pending
            if p is not None and min(rows) <= p.last and not all(r > p.last or r in p.taken for r in rows):
                self.load()
            self.touch_outside_rows()
            for r in rows:
                self.row_xml.pop(r, None)

    def touch_outside_rows(self) -> None:
        """Something outside the cells changed (notes, dropdowns, frozen rows, column widths). Rows XML read
        from a file sheetgm wrote is kept from it, row by row, before the whole XML is dropped."""
        if self.pending is not None:
            # its rows as read are pending, kept as they are; a later row is new since, its XML in ``row_xml``
            # from the last save or made at the next
            self.written, self.rows_in_written, self.source = None, False, None
            return
        if self.rows_in_written:  # (only then: another program's part may be in UTF-16, its rows not ours)
            xml = self.written if self.written is not None else _text(self.source)
            if isinstance(xml, bytes):
                xml = xml.decode("utf-8")
            if xml is not None:
                self.row_xml = self._written_rows(xml)
        self.written, self.rows_in_written, self.source = None, False, None

    def _written_rows(self, xml: str) -> dict[int, str]:
        """The rows of sheet XML that sheetgm's writer made, each as it would make it again: a row it would
        leave out now (one that read back empty) is left out."""
        live = {r for (r, _c), cell in self.cells.items() if cell.kind or cell.style or cell.formula or cell.extra}
        live.update(self.rows)  # (``load`` asks for its rows once ``cells`` are complete)
        return {r: row for r, row in _rows_written(xml).items() if r in live}

    def extent(self) -> tuple[int, int]:
        """Rows and columns up to the last cell that exists (has a value or a format), at least 1 each."""
        rows, cols = self.pending.extent() if self.pending is not None else (1, 1)
        if not self._cells:
            return max(rows, 1), max(cols, 1)
        cells = self._cells.keys()  # compared in C: the last row is the largest key (every save asks)
        return max(rows, max(cells)[0] + 1), max(cols, max(map(itemgetter(1), cells)) + 1)


def _text(part: Part | None) -> str | None:
    """A part's XML as read, from its compressed bytes."""
    if part is None:
        return None
    data = part.data if part.raw is None else inflate(part.raw)
    return data.decode("utf-8") if data is not None else None


@record(eq=False)
class Book:
    """A workbook as read from its file, or made anew, and what a save keeps of it."""

    title: str
    sheets: list[Sheet]
    styles: Styles = field(default_factory=Styles)
    date1904: bool = False
    active: int = 0
    structure: dict[str, str] | None = None  # <workbookProtection> (lockStructure and its password hash)
    creator: str = "sheetgm"
    created: str = ""
    # What the writer kept from the last save: the style table's text, each part's compressed bytes.
    styles_written: tuple[int, str] | None = None
    packed: dict[str, tuple[str | bytes, int, int, bytes]] = field(default_factory=dict)
    # The package as read (empty for a workbook sheetgm creates): carried through a save as it was.
    doc: str = "xl/workbook.xml"
    ours: bool = True  # written by sheetgm (its properties parts are written anew, its rows kept)
    skeleton: Skeleton | None = None  # workbook.xml's root and elements
    parts: dict[str, Part] = field(default_factory=dict)  # every part not written anew
    defaults: dict[str, str] = field(default_factory=dict)  # [Content_Types].xml: extension -> type
    overrides: dict[str, str] = field(default_factory=dict)  # part ("/xl/...") -> type
    package_rels: list[Rel] = field(default_factory=list)
    workbook_rels: list[Rel] = field(default_factory=list)  # all but the worksheets'
    others: list[tuple[int, str]] = field(default_factory=list)  # (position, <sheet> XML): chart and dialog sheets
    styles_part: str = ""  # where the style table was read ("" none)
    styles_read: int = -1  # its version as read: unchanged, the part is written back as it was

    def sheet(self, name: str) -> Sheet | None:
        for s in self.sheets:
            if s.name == name:
                return s
        return None


def text_of(book: Book, cell: Cell | None) -> str:
    """A cell as the text Sheets' FORMATTED_VALUE would give for it: dates and times in ISO form, durations
    as hours:minutes:seconds, other numbers as written. A formula saved without its result (a file written by
    a program that does not compute) reads as its formula, "=...", so that the checker can say so instead of
    reading an empty cell."""
    if cell is not None and not cell.kind and cell.formula is not None:
        # (a cell sharing another's formula holds none of its own: its value is that formula, moved to it)
        formula = cell.formula[1] or cell.value
        return "=" + formula if formula else ""
    if cell is None or not cell.kind:
        return ""
    kind, value = cell.kind, cell.value
    if kind == "s" or kind == "e":
        return value
    if kind == "b":
        return "TRUE" if value in ("1", "true") else "FALSE"
    if kind == "d":
        return _iso_text(value)
    try:
        number = float(value)
    except ValueError:
        return value
    as_date = book.styles.date_kind(cell.style)
    try:
        if as_date == "duration":
            return duration_text(number)
        if as_date:
            return _date_text(number, book.date1904)
    except (OverflowError, ValueError):
        pass  # a date no calendar holds (Excel shows ####): the number
    if value.lstrip("-").isdigit():
        return str(int(value))
    if number != number or number in (float("inf"), float("-inf")):
        return value
    return str(int(number)) if number.is_integer() else str(number)


def _iso_text(value: str) -> str:
    """An ISO date cell's text: a date and time, or a time alone (a Strict file's times: "10:59:59.99999999998"),
    to the microsecond as calamine reads it; the value as written if it is neither."""
    text = re.sub(r"(\.[0-9]{6})[0-9]+", r"\1", value) if "." in value else value
    try:
        return datetime.fromisoformat(text).replace(tzinfo=None).isoformat(sep=" ")
    except ValueError:
        pass
    try:
        return str(time.fromisoformat(text).replace(tzinfo=None))
    except ValueError:
        return value


def duration_text(days: float) -> str:
    """Elapsed time as Excel's ``[h]:mm:ss`` shows it, with the fraction of a second if any: 1.5 -> "36:00:00"."""
    micro = round(abs(days) * 86_400_000_000)
    seconds, micro = divmod(micro, 1_000_000)
    minutes, second = divmod(seconds, 60)
    hours, minute = divmod(minutes, 60)
    fraction = f".{micro:06d}" if micro else ""
    return f"{'-' if days < 0 else ''}{hours}:{minute:02d}:{second:02d}{fraction}"


def _date_text(serial: float, date1904: bool) -> str:
    day, fraction = divmod(serial, 1)
    moment = timedelta(milliseconds=round(fraction * 86400000))
    if 0 <= serial < 1 and moment.days == 0:
        return str((datetime.min + moment).time())
    epoch = _EPOCH_1904 if date1904 else _EPOCH_1900
    if not date1904 and 0 < serial < 60:
        day += 1  # Excel's 1900 leap-year bug
    return (epoch + timedelta(days=day) + moment).isoformat(sep=" ")


def _rows_written(xml: str) -> dict[int, str]:
    """Each row of sheet XML as sheetgm's writer makes it (``<row r="N" ...>...</row>``, never empty-tagged, a
    value's "<" escaped), by its 0-based number: what ``<row r="([0-9]+)"[^>]*>.*?</row>`` finds, found with
    ``str.find`` in a third of the pattern's time (tests/backends/test_xlsx_rows_written.py holds the two equal)."""
    found: dict[int, str] = {}
    start = xml.find('<row r="')
    while start >= 0:
        quote = xml.find('"', start + 8)
        number = xml[start + 8:quote] if quote >= 0 else ""
        opened = xml.find(">", quote) if number.isdecimal() and number.isascii() else -1
        end = xml.find("</row>", opened + 1) if opened >= 0 else -1
        if end < 0:
            start = xml.find('<row r="', start + 1)
            continue
        found[int(number) - 1] = xml[start:end + 6]
        start = xml.find('<row r="', end + 6)
    return found
