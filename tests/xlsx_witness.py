"""Witnesses of the xlsx codec on real files: what openpyxl and python-calamine read, as the codec's text, and
what of a file a save kept. Used by tests/backends/test_xlsx_corpus.py and benchmarks/bench_corpus.py."""

from __future__ import annotations

import io
import re
import tempfile
import warnings
import zipfile
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import openpyxl
import python_calamine

from sheetgm.backends.a1 import col_letters, parse_range
from sheetgm.backends.port import SetBold, SetValues
from sheetgm.backends.xlsx import cells as xlsx_cells
from sheetgm.backends.xlsx.book import Book, duration_text, text_of
from sheetgm.backends.xlsx.package import as_utf8, fold, strict_to_transitional
from sheetgm.backends.xlsx.read import read_book
from sheetgm.backends.xlsx.write import write_book
from sheetgm.backends.xlsx.xmlkit import skeleton

Cells = dict[str, dict[tuple[int, int], str]]  # tab -> (row, col) -> text
LAST_ROW = 1_048_576  # a sheet's rows


def as_text(value: Any) -> str:
    """A witness's value as the codec's text (``text_of``)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, datetime):
        return value.replace(tzinfo=None).isoformat(sep=" ")
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day).isoformat(sep=" ")
    if isinstance(value, time):
        return str(value)
    if isinstance(value, timedelta):
        return duration_text(value.total_seconds() / 86400)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else str(value)
    text = str(value)
    if _ISO.match(text):  # an ISO date cell calamine hands over as its text
        return datetime.fromisoformat(text.replace("Z", "+00:00")).replace(tzinfo=None).isoformat(sep=" ")
    return text


_ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)?$")


def ours(book: Book) -> Cells:
    return {s.name: {rc: t for rc, c in s.cells.items() if (t := text_of(book, c))} for s in book.sheets}


def _load(data: bytes, **options: Any) -> Any:
    """openpyxl's workbook of ``data``, read from a file of its own (a failing load then leaves no zip reading
    a closed buffer behind)."""
    with tempfile.TemporaryDirectory() as folder, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        path = Path(folder) / "w.xlsx"
        path.write_bytes(data)
        return openpyxl.load_workbook(path, **options)


def by_openpyxl(data: bytes) -> Cells:
    wb = _load(data, data_only=True)
    out: Cells = {}
    for ws in wb.worksheets:  # the cells the file holds (iter_rows would make every cell up to the last one)
        out[ws.title] = {(c.row - 1, c.column - 1): t for c in ws._cells.values() if (t := as_text(c.value))}
    return out


def by_calamine(data: bytes) -> Cells:
    wb = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(data))
    out: Cells = {}
    for name in wb.sheet_names:
        try:
            sheet = wb.get_sheet_by_name(name)
        except python_calamine.CalamineError:
            continue  # a chart sheet
        r0, c0 = sheet.start or (0, 0)
        if sheet.height * sheet.width > 2_000_000:  # a far cell: calamine would fill the whole rectangle
            continue
        out[name] = {(r0 + i, c0 + j): t for i, row in enumerate(sheet.to_python(skip_empty_area=True))
                     for j, v in enumerate(row) if (t := as_text(v))}
    return out


def _same(a: str, b: str) -> bool:
    if a == b:
        return True
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    return abs(x - y) <= 1e-9 * max(1.0, abs(x), abs(y))


def differences(mine: Cells, *witnesses: Cells | None) -> list[tuple[str, tuple[int, int], str, list[str]]]:
    """Cells where the codec's text agrees with no witness that read the tab."""
    out = []
    for tab, cells in mine.items():
        seen = [w[tab] for w in witnesses if w is not None and tab in w]
        if not seen:
            continue
        for rc in sorted(set(cells).union(*seen)):
            text = cells.get(rc, "")
            theirs = [w.get(rc, "") for w in seen]
            if not any(_same(text, t) for t in theirs):
                out.append((tab, rc, text, theirs))
    return out


@dataclass
class Kept:
    """What of a file survived a save that wrote one cell."""

    dropped_parts: list[str] = field(default_factory=list)
    changed_parts: list[str] = field(default_factory=list)  # carried parts whose bytes changed
    dropped_elements: list[str] = field(default_factory=list)  # "part: element" written differently or lost
    value_changes: list[tuple[str, tuple[int, int], str, str]] = field(default_factory=list)
    saved: bytes = b""


MODELLED_SHEET = {"dimension", "sheetViews", "cols", "sheetData", "sheetProtection", "dataValidations"}
MODELLED_STYLES = {"numFmts", "fonts", "fills", "borders", "cellXfs"}
DERIVED = re.compile(r"(^|/)calcChain\.xml$")  # rebuilt by Excel; dropped once a sheet changed


def save_one_cell(data: bytes) -> Kept:
    """Read ``data``, write a text in bold into an empty cell of the first tab (a new style: the style table is
    written anew), save: what was kept."""
    book = read_book(data)
    before = ours(book)
    sheet = book.sheets[0]
    target = _free_cell(book)
    for op in (SetValues(target, [["sheetgm"]]), SetBold(target)):
        xlsx_cells.apply(book, sheet, op, parse_range(target))
    saved = write_book(book)
    out = Kept(saved=saved)
    with zipfile.ZipFile(io.BytesIO(data)) as old, zipfile.ZipFile(io.BytesIO(saved)) as new:
        old_names, new_names = set(old.namelist()), set(new.namelist())
        folded = {fold(n): n for n in new_names}
        regenerated = {"[Content_Types].xml", "_rels/.rels", book.doc, _rels(book.doc), book.styles_part}
        sheet_parts = {s.part for s in book.sheets}
        for name in sorted(old_names):
            if name.endswith("/") or DERIVED.search(name):
                continue
            if name.endswith(".rels"):  # written anew (maybe spelt otherwise): each relationship must still be there
                lost = _relationships(old, name) - _relationships(new, name)
                out.dropped_parts += [f"{name}: {target}" for _id, kind, target in sorted(lost)
                                      if not DERIVED.search(target)]
                continue
            now = folded.get(fold(name), "")  # written back maybe spelt otherwise (OPC names ignore case, "\\")
            if not now:
                out.dropped_parts.append(name)
            elif now not in regenerated and now not in sheet_parts:
                if old.read(name) != new.read(now) and not _strict(old):
                    out.changed_parts.append(name)
        for s in book.sheets:
            if s.part in old_names and s.part in new_names:
                out.dropped_elements += _elements_lost(s.part, old.read(s.part), new.read(s.part), MODELLED_SHEET)
        if book.doc in old_names:
            out.dropped_elements += _elements_lost(book.doc, old.read(book.doc), new.read(book.doc),
                                                   {"sheets", "calcPr"})
        if book.styles_part in old_names and book.styles_part in new_names:
            out.dropped_elements += _elements_lost(book.styles_part, old.read(book.styles_part),
                                                   new.read(book.styles_part), MODELLED_STYLES)
    after = ours(read_book(saved))
    tab = sheet.name
    for name, cells in before.items():
        for rc in set(cells) | set(after.get(name, {})):
            a, b = cells.get(rc, ""), after.get(name, {}).get(rc, "")
            if a != b and not (name == tab and b == "sheetgm"):
                out.value_changes.append((name, rc, a, b))
    return out


def _relationships(z: zipfile.ZipFile, name: str) -> set[tuple[str, str, str]]:
    """A part's relationships; the part found as OPC finds it (without case, "\\" for "/")."""
    found = [n for n in z.namelist() if n.replace("\\", "/").casefold() == name.replace("\\", "/").casefold()]
    if not found:
        return set()
    try:
        root = ElementTree.fromstring(strict_to_transitional(z.read(found[0])))  # a Strict file's types, renamed
    except ElementTree.ParseError:
        return set()  # a damaged list (written anew)
    return {(r.get("Id", ""), r.get("Type", ""), r.get("Target", "")) for r in root}


def free_cell(book: Book) -> tuple[int, int]:
    """The cell (0-based) ``save_one_cell`` writes into: under the first tab's last row; right of its last column
    where that row is the sheet's last (tealeg/xlsx's testFileToSliceValueOnly formats every row to 1,048,576:
    a cell under it is past the sheet)."""
    rows, cols = book.sheets[0].extent()
    return (rows, 0) if rows < LAST_ROW else (0, cols)


def _free_cell(book: Book) -> str:
    row, col = free_cell(book)
    name = book.sheets[0].name.replace("'", "''")
    return f"'{name}'!{col_letters(col)}{row + 1}"


def _rels(part: str) -> str:
    folder, _, name = part.rpartition("/")
    return f"{folder}/_rels/{name}.rels" if folder else f"_rels/{name}.rels"


def _strict(z: zipfile.ZipFile) -> bool:
    try:
        return b"purl.oclc.org/ooxml" in z.read("_rels/.rels")
    except KeyError:
        return False


def _elements_lost(part: str, old: bytes, new: bytes, modelled: set[str]) -> list[str]:
    """Top-level elements of ``old`` not modelled that are not in ``new`` byte for byte."""
    if b"purl.oclc.org/ooxml" in old:
        return []  # a Strict part: written back in transitional names
    old = as_utf8(old)  # a part in UTF-16 (or another encoding) is written back in UTF-8
    mine = {xml for _name, xml in skeleton(as_utf8(new)).children}
    return [f"{part}: {name}" for name, xml in skeleton(old).children if name not in modelled and xml not in mine]


def features(data: bytes) -> dict[str, object] | None:
    """What openpyxl finds in a workbook beyond its values: per tab its images, charts, tables, hyperlinks,
    comments, pivots and protection; chart sheets, workbook protection, custom properties, macros, external
    links. None when openpyxl cannot read the file."""
    try:
        wb = _load(data, rich_text=True)
    except Exception:  # noqa: BLE001 - openpyxl refuses some real files: it does not vote on them
        return None
    out: dict[str, object] = {}
    for ws in wb.worksheets:
        out[ws.title] = (len(ws._images), len(ws._charts), sorted(ws.tables), len(ws._hyperlinks),
                         sorted(c.coordinate for c in ws._cells.values() if c.comment), len(ws._pivots),
                         bool(ws.protection.sheet), ws.sheet_state)
    out["chart sheets"] = [cs.title for cs in wb.chartsheets]
    sec = wb.security
    out["workbook protection"] = (bool(sec.lockStructure), sec.workbookPassword) if sec is not None else None
    out["custom properties"] = sorted(p.name for p in wb.custom_doc_props)
    with zipfile.ZipFile(io.BytesIO(data)) as z:  # (openpyxl's keep_vba copy would outlive its buffer)
        out["macros"] = any(n.endswith("vbaProject.bin") for n in z.namelist())
    out["external links"] = len(wb._external_links)
    return out


def rich_runs(data: bytes) -> dict[str, list[str]]:
    """Per tab, the cells openpyxl reads as rich text, each as its runs' texts with their fonts' boldness."""
    wb = _load(data, rich_text=True)
    out = {}
    for ws in wb.worksheets:
        out[ws.title] = sorted(f"{c.coordinate}:{[_run(r) for r in c.value]}" for c in ws._cells.values()
                               if type(c.value).__name__ == "CellRichText")
    return out


def _run(run: Any) -> tuple[str, bool]:
    font = getattr(run, "font", None)
    return str(getattr(run, "text", run)), bool(getattr(font, "b", False))


def is_strict(data: bytes) -> bool:
    """A Strict Open XML file (its package relationships in the purl.oclc.org names)."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return _strict(z)
