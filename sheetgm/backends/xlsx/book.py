"""A workbook held in memory as the xlsx adapter needs it, and its reading from an .xlsx package.

What the gateway can set is modelled (values, cell formats, notes, dropdowns,
frozen rows, column widths and row heights, sheet protection, hidden tabs);
what a person may have added in LibreOffice or Excel that the gateway never
sets is kept as it was where it stands alone (merged cells, page setup,
conditional formats, fonts and colours of cells) and dropped where it would
need parts the adapter does not write (images, charts, hyperlinks).

Reading a player's workbook takes about 3 ms (openpyxl took 15), which is what
lets a whole stage fit in a fraction of a second.
"""

from __future__ import annotations

import io
import posixpath
import re
import struct
import zipfile
import zlib
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from xml.etree.ElementTree import Element, fromstring

from sheetgm.backends.a1 import col_index
from sheetgm.backends.xlsx import xmlkit
from sheetgm.backends.xlsx.styles import Styles

# Sheet elements kept as they were, written back in the schema's order (CT_Worksheet).
KEPT = ("sheetPr", "sheetFormatPr", "autoFilter", "mergeCells", "conditionalFormatting", "printOptions",
        "pageMargins", "pageSetup", "headerFooter", "rowBreaks", "colBreaks")
_EPOCH_1900, _EPOCH_1904 = datetime(1899, 12, 30), datetime(1904, 1, 1)


class Cell:
    """kind: "s" text, "n" number, "b" boolean, "e" error, "d" ISO date, "" empty; value as stored."""

    __slots__ = ("kind", "value", "formula", "style")

    def __init__(self, kind: str = "", value: str = "", style: int = 0,
                 formula: tuple[dict[str, str], str] | None = None) -> None:
        self.kind, self.value, self.style, self.formula = kind, value, style, formula


@dataclass
class Col:
    min: int  # 1-based, inclusive
    max: int
    attrs: dict[str, str]  # width, customWidth, style, hidden...


@dataclass
class Validation:
    sqref: str
    attrs: dict[str, str]
    formula1: str | None = None
    formula2: str | None = None


_ROW = re.compile(r'<row r="([0-9]+)"[^>]*>.*?</row>', re.S)  # as sheetgm writes a row: values escaped


@dataclass(eq=False)
class Sheet:
    name: str
    state: str = "visible"
    cells: dict[tuple[int, int], Cell] = field(default_factory=dict)  # 0-based (row, col)
    rows: dict[int, dict[str, str]] = field(default_factory=dict)  # 0-based row -> ht, customHeight...
    cols: list[Col] = field(default_factory=list)
    frozen: tuple[int, int] = (0, 0)  # rows, columns
    view: dict[str, str] = field(default_factory=lambda: {"workbookViewId": "0"})
    protection: dict[str, str] | None = None
    validations: list[Validation] = field(default_factory=list)
    notes: dict[tuple[int, int], tuple[str, str]] = field(default_factory=dict)  # cell -> (text, author)
    kept: dict[str, list[str]] = field(default_factory=dict)
    written: tuple[str, str] | None = None  # (sheet, comments) XML as last written; None: changed since
    row_xml: dict[int, str] = field(default_factory=dict)  # 0-based row -> its <row> XML as last written
    rows_in_written: bool = False  # ``written`` was read from a file sheetgm wrote: its rows can be kept

    def touch(self) -> None:
        """Anything in the sheet may have changed: it is written anew, every row."""
        self.written, self.rows_in_written = None, False
        self.row_xml.clear()

    def touch_row(self, r: int) -> None:
        """Row ``r`` changed (a cell's value or format, the row's height): the sheet is written anew, but of
        its rows only this one (a long tab, such as the Map history, grows by a few rows a stage)."""
        self.touch_outside_rows()
        self.row_xml.pop(r, None)

    def touch_rows(self, rows: set[int]) -> None:
        """`touch_row` for each of ``rows`` (none: nothing changed)."""
        if rows:
            self.touch_outside_rows()
            for r in rows:
                self.row_xml.pop(r, None)

    def touch_outside_rows(self) -> None:
        """Something outside the cells changed (notes, dropdowns, frozen rows, column widths). Rows XML read
        from a file sheetgm wrote is kept from it, row by row, before the whole XML is dropped."""
        if self.rows_in_written and self.written is not None:
            self.row_xml = self._written_rows(self.written[0])
        self.written, self.rows_in_written = None, False

    def _written_rows(self, xml: str) -> dict[int, str]:
        """The rows of sheet XML that sheetgm's writer made, each as it would make it again: a row it would
        leave out now (one that read back empty) is left out."""
        live = {r for (r, _c), cell in self.cells.items() if cell.kind or cell.style or cell.formula}
        live.update(self.rows)
        found = {int(m.group(1)) - 1: m.group(0) for m in _ROW.finditer(xml)}
        return {r: row for r, row in found.items() if r in live}

    def extent(self) -> tuple[int, int]:
        """Rows and columns up to the last cell that exists (has a value or a format), at least 1 each."""
        if not self.cells:
            return 1, 1
        return max(r for r, _ in self.cells) + 1, max(c for _, c in self.cells) + 1


@dataclass(eq=False)
class Book:
    title: str
    sheets: list[Sheet]
    styles: Styles = field(default_factory=Styles)
    date1904: bool = False
    active: int = 0
    defined_names: str = ""  # <definedNames> as it was
    theme: bytes | None = None
    structure: dict[str, str] | None = None  # <workbookProtection> (lockStructure and its password hash)
    creator: str = "sheetgm"
    created: str = ""
    # What the writer kept from the last save: the style table's text, each part's compressed bytes.
    styles_written: tuple[int, str] | None = None
    packed: dict[str, tuple[str | bytes, int, int, bytes]] = field(default_factory=dict)

    def sheet(self, name: str) -> Sheet | None:
        for s in self.sheets:
            if s.name == name:
                return s
        return None


class BadPackage(ValueError):
    """The file is a zip but not a workbook this reader understands."""


def text_of(book: Book, cell: Cell | None) -> str:
    """A cell as the text Sheets' FORMATTED_VALUE would give for it."""
    if cell is None or not cell.kind:
        return ""
    kind, value = cell.kind, cell.value
    if kind == "s" or kind == "e":
        return value
    if kind == "b":
        return "TRUE" if value in ("1", "true") else "FALSE"
    if kind == "d":
        try:
            return datetime.fromisoformat(value).isoformat(sep=" ")
        except ValueError:
            return value
    try:
        number = float(value)
    except ValueError:
        return value
    if book.styles.is_date(cell.style):
        return _date_text(number, book.date1904)
    if value.lstrip("-").isdigit():
        return str(int(value))
    return str(int(number)) if number.is_integer() else str(number)


def _date_text(serial: float, date1904: bool) -> str:
    day, fraction = divmod(serial, 1)
    moment = timedelta(milliseconds=round(fraction * 86400000))
    if 0 <= serial < 1 and moment.days == 0:
        return str((datetime.min + moment).time())
    epoch = _EPOCH_1904 if date1904 else _EPOCH_1900
    if not date1904 and 0 < serial < 60:
        day += 1  # Excel's 1900 leap-year bug
    return (epoch + timedelta(days=day) + moment).isoformat(sep=" ")


# -- reading a package -------------------------------------------------------


class _Package:
    """The parts of a zip package. A deflated part is inflated from its bytes in the file (zipfile's reader
    costs more than the inflating, for parts this small), and its compressed bytes are kept: the writer
    reuses them for a part it would write the same (``Book.packed``), so a new process saving a workbook it
    read compresses only the parts that changed."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.zip = zipfile.ZipFile(io.BytesIO(data))
        self.infos = {info.filename: info for info in self.zip.infolist()}
        self.packed: dict[str, tuple[str | bytes, int, int, bytes]] = {}

    def read(self, name: str) -> bytes:
        info = self.infos[name]  # KeyError for a missing part, as zipfile
        raw = self._deflated(info)
        if raw is None:
            return self.zip.read(name)
        out = zlib.decompress(raw, -15)
        if len(out) != info.file_size or zlib.crc32(out) != info.CRC:
            raise zipfile.BadZipFile(f"Bad CRC-32 for file {name!r}")
        try:
            self.packed[name] = (out.decode("utf-8"), info.CRC, info.file_size, raw)
        except UnicodeDecodeError:
            pass
        return out

    def _deflated(self, info: zipfile.ZipInfo) -> bytes | None:
        """The part's compressed bytes; None if zipfile must read it (stored, encrypted, another method)."""
        if info.compress_type != zipfile.ZIP_DEFLATED or info.flag_bits & 0x1:
            return None
        at = info.header_offset
        head = self.data[at:at + 30]
        if len(head) < 30 or head[:4] != b"PK\x03\x04":
            return None
        name_len, extra_len = struct.unpack("<HH", head[26:30])
        start = at + 30 + name_len + extra_len
        raw = self.data[start:start + info.compress_size]
        return raw if len(raw) == info.compress_size else None


def read_book(data: bytes) -> Book:
    """Parse an .xlsx package (zip bytes). Raises zipfile.BadZipFile, KeyError or BadPackage if it is not one."""
    z = _Package(data)
    with z.zip:
        names = set(z.infos)
        doc = _target(_rels(z, names, "_rels/.rels"), xmlkit.RT_DOC, "", "xl/workbook.xml")
        wb_rels = _rels(z, names, _rels_path(doc))
        root = fromstring(z.read(doc))
        if root.tag != xmlkit.m("workbook"):
            raise BadPackage(f"{doc} is not a transitional SpreadsheetML workbook")
        styles_path = _target(wb_rels, xmlkit.RT_STYLES, doc)
        styles = Styles.parse(z.read(styles_path)) if styles_path in names else Styles()
        strings_path = _target(wb_rels, xmlkit.RT_STRINGS, doc)
        strings = [xmlkit.run_text(si) for si in fromstring(z.read(strings_path))] if strings_path in names else []
        theme_path = _target(wb_rels, xmlkit.RT_THEME, doc)
        pr = root.find(xmlkit.m("workbookPr"))
        view = root.find(f"{xmlkit.m('bookViews')}/{xmlkit.m('workbookView')}")
        names_el = root.find(xmlkit.m("definedNames"))
        guard = root.find(xmlkit.m("workbookProtection"))
        book = Book(title="", sheets=[], styles=styles,
                     date1904=pr is not None and pr.get("date1904", "0") in ("1", "true"),
                     active=int(view.get("activeTab", "0")) if view is not None else 0,
                     defined_names=xmlkit.to_xml(names_el) if names_el is not None and len(names_el) else "",
                     theme=z.read(theme_path) if theme_path in names else None,
                     structure=xmlkit.plain_attrs(guard) if guard is not None else None)
        # A file sheetgm wrote holds each sheet exactly as the writer would write it again: kept, a sheet
        # that does not change is not serialized again.
        ours = "docProps/app.xml" in names and b"<Application>sheetgm</Application>" in z.read("docProps/app.xml")
        sheets = root.find(xmlkit.m("sheets"))
        for el in sheets if sheets is not None else []:
            rel = wb_rels.get(el.get(f"{{{xmlkit.REL}}}id", ""))
            if rel is None or rel[0] != xmlkit.RT_SHEET:
                continue  # a chart sheet or a dangling entry: not a grid this adapter can use
            path = _resolve(doc, rel[1])
            raw = z.read(path)
            sheet = _read_sheet(fromstring(raw), el.get("name", ""), strings)
            sheet.state = el.get("state", "visible")
            comments = _target(_rels(z, names, _rels_path(path)), xmlkit.RT_COMMENTS, path)
            raw_notes = z.read(comments) if comments in names else b""
            if raw_notes:
                sheet.notes = _read_notes(fromstring(raw_notes))
            if ours:
                sheet.written = (raw.decode("utf-8"), raw_notes.decode("utf-8"))
                sheet.rows_in_written = True
            book.sheets.append(sheet)
        if "docProps/core.xml" in names:
            core = fromstring(z.read("docProps/core.xml"))
            book.title = _core(core, "{http://purl.org/dc/elements/1.1/}title")
            book.creator = _core(core, "{http://purl.org/dc/elements/1.1/}creator") or book.creator
            book.created = _core(core, "{http://purl.org/dc/terms/}created")
        if ours:
            book.packed = z.packed
    if not book.sheets:
        raise BadPackage("the workbook has no worksheet")
    return book


def _core(root: Element, tag: str) -> str:
    el = root.find(tag)
    return (el.text or "") if el is not None else ""


def _rels_path(part: str) -> str:
    folder, name = posixpath.split(part)
    return posixpath.join(folder, "_rels", name + ".rels")


def _resolve(base: str, target: str) -> str:
    if target.startswith("/"):
        return target[1:]
    return posixpath.normpath(posixpath.join(posixpath.dirname(base), target))


def _rels(z: _Package, names: set[str], path: str) -> dict[str, tuple[str, str]]:
    """Relationship id -> (type, target) of a part's relationships."""
    if path not in names:
        return {}
    return {r.get("Id", ""): (r.get("Type", ""), r.get("Target", "")) for r in fromstring(z.read(path))}


def _target(rels: dict[str, tuple[str, str]], kind: str, base: str, default: str = "") -> str:
    for rel_type, target in rels.values():
        if rel_type == kind:
            return _resolve(base, target) if base else target.lstrip("/")
    return default


_V, _F, _IS = xmlkit.m("v"), xmlkit.m("f"), xmlkit.m("is")


def _read_sheet(root: Element, name: str, strings: list[str]) -> Sheet:
    sheet = Sheet(name)
    for el in root:
        tag = xmlkit.local(el.tag)
        if tag == "sheetData":
            _read_cells(el, sheet, strings)
        elif tag == "cols":
            for c in el:
                a = xmlkit.plain_attrs(c)
                sheet.cols.append(Col(int(a.pop("min", "1")), int(a.pop("max", a.get("min", "1"))), a))
        elif tag == "sheetViews":
            view = el.find(xmlkit.m("sheetView"))
            if view is not None:
                sheet.view = xmlkit.plain_attrs(view)
                pane = view.find(xmlkit.m("pane"))
                if pane is not None and pane.get("state") in ("frozen", "frozenSplit"):
                    sheet.frozen = (int(float(pane.get("ySplit", "0"))), int(float(pane.get("xSplit", "0"))))
        elif tag == "sheetProtection":
            sheet.protection = xmlkit.plain_attrs(el)
        elif tag == "dataValidations":
            for dv in el:
                a = xmlkit.plain_attrs(dv)
                f1, f2 = dv.find(xmlkit.m("formula1")), dv.find(xmlkit.m("formula2"))
                sheet.validations.append(Validation(a.pop("sqref", ""), a, f1.text if f1 is not None else None,
                                                    f2.text if f2 is not None else None))
        elif tag in KEPT and el.tag == xmlkit.m(tag):
            sheet.kept.setdefault(tag, []).append(xmlkit.to_xml(el))
    return sheet


def _read_cells(data: Element, sheet: Sheet, strings: list[str]) -> None:
    cells, row, columns = sheet.cells, -1, _COLUMNS
    if len(columns) > 100_000:  # a long-lived process reading many large sheets: start the memo afresh
        columns.clear()
    for row_el in data:
        ra = row_el.attrib
        row = int(ra["r"]) - 1 if "r" in ra else row + 1
        if len(ra) > 1 + ("spans" in ra):
            extra = {k: v for k, v in ra.items() if k not in ("r", "spans") and not k.startswith("{")}
            if extra:
                sheet.rows[row] = extra
        col = -1
        for c in row_el:
            ref = c.get("r")
            if ref is None:
                col += 1
            else:
                col = columns.get(ref, -1)
                if col < 0:
                    col = columns[ref] = col_of(ref)
            kind, value, formula = c.get("t", "n"), "", None
            v_text, inline = None, None
            for part in c:
                if part.tag == _V:
                    v_text = part.text or ""
                elif part.tag == _F:
                    formula = (xmlkit.plain_attrs(part), part.text or "")
                elif part.tag == _IS:
                    inline = part
            if kind == "s":
                value = strings[int(v_text)] if v_text else ""
            elif kind == "inlineStr":
                kind, value = "s", xmlkit.run_text(inline)
            elif kind == "str":
                kind, value = "s", v_text or ""
            elif v_text is None or (kind == "n" and not v_text):
                kind = ""
            else:
                value = v_text
            style = int(c.get("s", "0"))
            if kind or style or formula:
                cells[(row, col)] = Cell(kind, value, style, formula)


_COLUMNS: dict[str, int] = {}  # cell reference -> column: the same few hundred references recur in every file


def col_of(ref: str) -> int:
    """0-based column of a cell reference like "AB12"."""
    return col_index(ref.rstrip("0123456789"))


def _read_notes(root: Element) -> dict[tuple[int, int], tuple[str, str]]:
    authors_el = root.find(xmlkit.m("authors"))
    authors = [a.text or "" for a in authors_el] if authors_el is not None else []
    notes = {}
    found = root.find(xmlkit.m("commentList"))
    for c in found if found is not None else []:
        ref = c.get("ref", "A1")
        digits = ref.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        i = int(c.get("authorId", "0"))
        author = authors[i] if i < len(authors) else ""
        notes[(int(digits) - 1, col_of(ref))] = (xmlkit.run_text(c.find(xmlkit.m("text"))), author)
    return notes
