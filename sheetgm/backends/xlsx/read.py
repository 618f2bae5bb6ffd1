"""Reading an .xlsx package into a `Book`, within the limits of `package.Limits`.

The workbook, its sheets and its shared strings are parsed; every other part is kept as it was read
(``Book.parts``). A sheet's cells are parsed row by row as the XML streams in when the sheet is large, so
its memory is that of the cells kept, not of a tree of the whole part. A file that is not a readable
workbook raises ``UnreadableFileError`` with what it is (another format, a password, damage, a limit).
"""

from __future__ import annotations

import re
import struct
import zipfile
import zlib
from collections.abc import Iterable, Iterator, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any, TypeVar, cast
from xml.etree.ElementTree import Element, ParseError, XMLPullParser, fromstring
from xml.parsers import expat

from sheetgm.backends.a1 import col_index
from sheetgm.backends.errors import UnreadableFileError
from sheetgm.backends.xlsx import kept, xmlkit
from sheetgm.backends.xlsx.book import MODELLED, RANK, Book, Cell, Col, Pending, Rel, Sheet, Validation
from sheetgm.backends.xlsx.package import (
    LIMITS,
    Limits,
    Package,
    Part,
    fold,
    no_doctype,
    refuse,
    rels_path,
    resolve_target,
    sniff,
)
from sheetgm.backends.xlsx.styles import Styles
from sheetgm.core.values import Value, record

if TYPE_CHECKING:
    from sheetgm.backends.xlsx import scan

# What a file that is not a readable workbook raises somewhere in zipfile, zlib or the XML parsers.
FAILURES = (zipfile.BadZipFile, zlib.error, ParseError, expat.ExpatError, KeyError, ValueError, IndexError, EOFError,
            struct.error, NotImplementedError, RuntimeError, OverflowError, UnicodeDecodeError, TypeError)
K = TypeVar("K", str, bytes)
V = TypeVar("V")
_STRICT_DOC = "http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument"
# A shared formula's text moved into the cells sharing it (``formulas.moved``), at most, in characters: a normal
# file's formulas filled down (50 characters in 20,000 rows: 1 M); past it a cell reads as empty, as without it.
FORMULA_CHARS = 2 << 20
_STREAM_ABOVE = 1 << 20  # a part larger than this is parsed as it streams in
_ESTIMATE_ABOVE = 1 << 18  # the cells of a sheet larger than this are counted before it is parsed
_CHUNK = 1 << 18
_SHEET_DATA = re.compile(rb"<((?:[A-Za-z_][\w.-]*:)?)sheetData(?=[\s/>])")
_V, _F, _IS = xmlkit.m("v"), xmlkit.m("f"), xmlkit.m("is")
_SST, _SI, _SHEET_DATA_TAG, _ROW_TAG = xmlkit.m("sst"), xmlkit.m("si"), xmlkit.m("sheetData"), xmlkit.m("row")
_KNOWN_CELL = frozenset({"r", "s", "t"})
_CELL_EXTRAS = (b" vm=", b" cm=", b" ph=")  # a picture or data type in the cell, a dynamic array, phonetics shown
# Cell and row elements, and string items, counted before a large part is parsed (what parsing it would cost);
# compiled (re's cache) only when a part is that large.
_CELL_START = rb"<(?:[A-Za-z_][\w.-]*:)?(?:c|row)(?=[\s/>])"
_SI_START = rb"<(?:[A-Za-z_][\w.-]*:)?si(?=[\s/>])"


def read_book(data: bytes, limits: Limits = LIMITS) -> Book:
    """Parse an .xlsx package (its bytes). Raises UnreadableFileError, its code naming the problem."""
    if not data.startswith(b"PK"):
        raise refuse(sniff(data) or "not_workbook")
    try:
        with Package(data, limits) as pkg:
            return _read(pkg, limits)
    except UnreadableFileError:
        raise
    except FAILURES as exc:
        raise refuse(sniff(data) or "damaged", detail=f"{type(exc).__name__}: {str(exc)[:160]}") from exc


class _Budget:
    """Cells read so far, against the limits: the cell and row elements of every sheet are counted before the
    sheet is parsed (the cost of parsing them), the cells kept as they are parsed (the memory they take)."""

    def __init__(self, limits: Limits) -> None:
        self.limits, self.cells, self.elements = limits, 0, 0
        self.formulas = FORMULA_CHARS  # characters of shared formulas moved into the cells sharing them, left

    def add_cells(self, n: int, estimate: bool = False) -> None:
        if estimate:
            self.elements += n
        else:
            self.cells += n
        if self.cells > self.limits.cells or self.elements // 2 > self.limits.cells:
            raise refuse("too_many_cells", limit=self.limits.cells)


def _read(pkg: Package, limits: Limits) -> Book:
    try:
        package_rels = _rels(pkg, "_rels/.rels")
    except ParseError:  # a damaged list of the package's parts: the workbook is where it always is
        package_rels = []
    if any(r.type == _STRICT_DOC for r in package_rels):
        pkg.strict = True
        package_rels = _rels(pkg, "_rels/.rels")
    found = (resolve_target("", r.target) for r in package_rels if r.type == xmlkit.RT_DOC)
    doc = pkg.clean(next(found, "xl/workbook.xml"))
    if doc not in pkg:
        raise KeyError(doc)
    wb_rels = _rels(pkg, rels_path(doc))
    wb_xml = no_doctype(pkg.read(doc), doc)
    root = fromstring(wb_xml)
    if root.tag != xmlkit.m("workbook"):
        raise refuse("not_workbook")
    by_id = {r.id: r for r in wb_rels}
    styles_path = pkg.clean(_target(wb_rels, xmlkit.RT_STYLES, doc))
    styles = _styles(no_doctype(pkg.read(styles_path), styles_path)) if styles_path in pkg else Styles()
    strings_path = pkg.clean(_target(wb_rels, xmlkit.RT_STRINGS, doc))
    strings = _strings(pkg.read(strings_path), strings_path, limits) if strings_path in pkg else _Strings()
    ours = "docProps/app.xml" in pkg and b"<Application>sheetgm</Application>" in pkg.read("docProps/app.xml")
    pr = root.find(xmlkit.m("workbookPr"))
    view = root.find(f"{xmlkit.m('bookViews')}/{xmlkit.m('workbookView')}")
    guard = root.find(xmlkit.m("workbookProtection"))
    book = Book(title="", sheets=[], styles=styles, doc=doc, ours=ours, skeleton=xmlkit.skeleton(wb_xml),
                date1904=pr is not None and pr.get("date1904", "0") in ("1", "true"),
                active=_int(view.get("activeTab", "0")) if view is not None else 0, package_rels=package_rels,
                styles_part=styles_path if styles_path in pkg else "", styles_read=styles.version,
                structure=xmlkit.plain_attrs(guard) if guard is not None else None)
    book.defaults, book.overrides = _content_types(pkg)
    budget = _Budget(limits)
    entries = root.find(xmlkit.m("sheets"))
    position = 0
    for el in entries if entries is not None else []:
        rid = el.get(f"{{{xmlkit.REL}}}id", "")
        rel = by_id.get(rid)
        if rel is None or rel.type != xmlkit.RT_SHEET:
            # a chart sheet, a dialog sheet, a macro sheet, or an entry without a part (Excel 5 macro sheets):
            # carried as it is, where it stood, so that the defined names' localSheetId (a tab's position) and
            # the active tab still count the same tabs
            book.others.append((position, _sheet_entry(el, rid)))
        else:
            if len(book.sheets) >= limits.tabs:
                raise refuse("too_many_tabs", limit=limits.tabs)
            book.sheets.append(_worksheet(pkg, el, rel, doc, strings, budget, ours))
        position += 1
    if not book.sheets:
        raise refuse("no_sheet")
    # (a worksheet no entry names, its entry without r:id, is carried with its link: the writer links the tabs)
    tabs = {s.rel_id for s in book.sheets}
    book.workbook_rels = [r for r in wb_rels if r.type != xmlkit.RT_SHEET or r.id not in tabs]
    if ours:
        core = fromstring(no_doctype(pkg.read("docProps/core.xml"), "docProps/core.xml")) if (
            "docProps/core.xml" in pkg) else None
        book.title = _core(core, "{http://purl.org/dc/elements/1.1/}title")
        book.creator = _core(core, "{http://purl.org/dc/elements/1.1/}creator") or book.creator
        book.created = _core(core, "{http://purl.org/dc/terms/}created")
        book.package_rels = [r for r in package_rels if r.type not in (xmlkit.RT_DOC, xmlkit.RT_CORE, xmlkit.RT_APP)]
    else:
        book.title = _title(pkg)
    _carry(pkg, book)
    return book


def _carry(pkg: Package, book: Book) -> None:
    """Keep every part the writer does not make anew, checked (CRC, size) as it is kept."""
    made = {"[Content_Types].xml", "_rels/.rels", book.doc, rels_path(book.doc)}
    for sheet in book.sheets:
        made |= {sheet.part, rels_path(sheet.part)}
    if book.ours:
        made |= {"docProps/core.xml", "docProps/app.xml"}
    made = {fold(n) for n in made}
    for name, info in pkg.infos.items():
        if fold(name) not in made and not info.is_dir():
            book.parts[name.replace("\\", "/")] = pkg.part(name)
    pkg.check_all()


def _worksheet(pkg: Package, el: Element, rel: Rel, doc: str, strings: list[str], budget: _Budget,
               ours: bool) -> Sheet:
    path = pkg.clean(resolve_target(doc, rel.target))
    raw = no_doctype(pkg.read(path), path)
    exact = resolve_target(doc, rel.target) == path  # the target as written, where it names the part as the zip does
    sheet = Sheet(el.get("name", ""), state=el.get("state", "visible"), part=path, rel_id=rel.id,
                  sheet_id=_int(el.get("sheetId", "0")), target=rel.target if exact else "")
    source = pkg.part(path)
    _read_sheet(raw, sheet, strings, budget, ours, source)
    sheet.rels = _rels(pkg, rels_path(path))
    comments = pkg.clean(next((resolve_target(path, r.target) for r in sheet.rels if r.type == xmlkit.RT_COMMENTS), ""))
    if comments in pkg:
        sheet.notes = _read_notes(fromstring(no_doctype(pkg.read(comments), comments)))
    sheet.notes_read = dict(sheet.notes)
    sheet.source = source
    if ours:
        sheet.rows_in_written = True  # its text is inflated again from ``source`` if a row changes
    return sheet


_STYLES: dict[bytes, Styles] = {}  # a style table's text -> the table parsed (a game's workbooks share a few)


def _styles(data: bytes) -> Styles:
    """The style table parsed, or a copy of the one parsed from the same text earlier in this process."""
    found = _STYLES.get(data)
    if found is None:
        if len(_STYLES) >= 16:
            _STYLES.clear()
        plain = kept.get("styles", data)
        if plain is None:
            found = Styles.parse(data)
            kept.note("styles", data, found.plain())
        else:
            found = Styles.from_plain(plain)
        _STYLES[data] = found.share()
    return found.copy()


def _sheet_entry(el: Element, rid: str) -> str:
    attrs = {k: v for k, v in xmlkit.plain_attrs(el).items() if k in ("name", "sheetId", "state")}
    return f'<sheet{xmlkit.attrs(attrs)} r:id="{xmlkit.attr(rid)}"/>'


def _title(pkg: Package) -> str:
    if "docProps/core.xml" not in pkg:
        return ""
    try:
        return _core(fromstring(no_doctype(pkg.read("docProps/core.xml"), "docProps/core.xml")),
                     "{http://purl.org/dc/elements/1.1/}title")
    except (ParseError, UnreadableFileError):
        return ""  # a damaged properties part does not make the workbook unreadable: it is carried as it is


def _content_types(pkg: Package) -> tuple[dict[str, str], dict[str, str]]:
    if "[Content_Types].xml" not in pkg:
        return {}, {}
    data = no_doctype(pkg.read("[Content_Types].xml"), "[Content_Types].xml")
    found = _TYPES.get(data)
    if found is None:
        found = _parse_content_types(data)
        hold(_TYPES, _TYPES_HELD, data, found)
    return dict(found[0]), dict(found[1])


def _parse_content_types(data: bytes) -> tuple[dict[str, str], dict[str, str]]:
    defaults, overrides = {}, {}
    for el in fromstring(data):
        tag = xmlkit.local(el.tag)
        if tag == "Default":
            defaults[el.get("Extension", "").lower()] = el.get("ContentType", "")
        elif tag == "Override":
            overrides[el.get("PartName", "")] = el.get("ContentType", "")
    return defaults, overrides


# Small parts parsed once per distinct text in a process (a game's workbooks share them): relationships, content
# types. What is handed out is a new list or dict of immutable values.
_RELS: dict[bytes, tuple[Rel, ...]] = {}
_TYPES: dict[bytes, tuple[dict[str, str], dict[str, str]]] = {}
_RELS_HELD, _TYPES_HELD = [0, 2_000_000], [0, 1_000_000]  # the bytes of the texts held, at most (or one text)


def _core(root: Element | None, tag: str) -> str:
    el = root.find(tag) if root is not None else None
    return (el.text or "") if el is not None else ""


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0


def _rels(pkg: Package, path: str) -> list[Rel]:
    """A part's relationships, in their order."""
    if path not in pkg:
        return []
    data = no_doctype(pkg.read(path), path)
    found = _RELS.get(data)
    if found is None:
        found = tuple(Rel(r.get("Id", ""), r.get("Type", ""), r.get("Target", ""), r.get("TargetMode", ""))
                      for r in fromstring(data))
        hold(_RELS, _RELS_HELD, data, found)
    return list(found)


def _target(rels: list[Rel], kind: str, base: str) -> str:
    for rel in rels:
        if rel.type == kind:
            return resolve_target(base, rel.target)
    return ""


# -- streaming elements ----------------------------------------------------------


def _elements(data: bytes, container: str, item: str) -> Iterable[Element]:
    """The ``item`` elements of a document's ``container`` element, each once complete. A small document is
    parsed whole; a large one as it streams in, each item dropped from the tree once handed out."""
    if len(data) <= _STREAM_ABOVE:
        root = fromstring(data)
        holder = root if root.tag == container else root.find(container)
        return [el for el in holder if el.tag == item] if holder is not None else []
    return _streamed(data, container, item)


def _streamed(data: bytes, container: str, item: str) -> Iterator[Element]:
    """``_elements`` of a large document: end events only (a start event each was a third of reading a large
    sheet), each item emptied once handed out (what stays in the tree is an empty element an item, at most the
    cell limit's)."""
    del container  # the items are found by their tag wherever they are
    parser: XMLPullParser[Element] = XMLPullParser(events=("end",))
    for at in [*range(0, len(data), _CHUNK), -1]:
        if at >= 0:
            parser.feed(data[at:at + _CHUNK])
        else:
            parser.close()
        for found in parser.read_events():
            el = cast(tuple[str, Element], found)[1]
            if el.tag == item:
                yield el
                el.clear()  # what was handed out is not kept in the tree


class _Strings(list[str]):
    """The texts of the shared strings; ``blank``: the entries that read as empty but are not empty as written
    (``<t>&#xA;</t>``: blanks a ``<t>`` without xml:space="preserve" holds, which Excel and calamine drop and
    LibreOffice and openpyxl show), whose index a cell keeps (``Cell.sst``) so that a save writes it as it was."""

    def __init__(self) -> None:
        super().__init__()
        self.blank: set[int] = set()


def _strings(data: bytes, path: str, limits: Limits) -> _Strings:
    no_doctype(data, path)
    if len(data) > _ESTIMATE_ABOVE and len(re.findall(_SI_START, data)) > limits.strings:  # counted before parsing
        raise refuse("too_many_strings", limit=limits.strings)
    from sheetgm.backends.xlsx import scan  # (a list of shared strings: another program's file)

    out = _Strings()
    plain = scan.strings(data)
    if plain is not None:
        if len(plain[0]) > limits.strings:
            raise refuse("too_many_strings", limit=limits.strings)
        out.extend(plain[0])
        out.blank = plain[1]
        return out
    for si in _elements(data, _SST, _SI):
        text = xmlkit.run_text(si)
        if not text and any(t.text for t in si.iter(_T_TAG)):
            out.blank.add(len(out))
        out.append(text)
        if len(out) > limits.strings:
            raise refuse("too_many_strings", limit=limits.strings)
    return out


# -- a worksheet -------------------------------------------------------------------


def _read_sheet(data: bytes, sheet: Sheet, strings: list[str], budget: _Budget, ours: bool,
                source: Part | None = None) -> None:
    """The modelled elements into ``sheet``, the others kept as written; the cells row by row (those of a large
    sheet of a file sheetgm wrote, ``source`` being its part, only when they are asked for: ``Pending``)."""
    found = _SHEET_DATA.search(data)  # sheetData comes early: a plain find before it saved 15 µs a sheet, no more
    cells = (0, 0)
    if found is None:
        rest = data
    else:
        start_end = xmlkit.tag_end(data, found.start())
        if data[start_end - 2:start_end] == b"/>":
            stop = start_end
        else:
            stop = data.index(b">", data.index(b"</" + found.group(1) + b"sheetData", start_end)) + 1
        rest = b"".join((data[:found.start()], data[found.start():start_end].rstrip(b"/>"), b"/>", data[stop:]))
        cells = (found.start(), stop)
    layout = _layout(rest)
    _apply(layout, sheet)
    skel = layout.skeleton
    if cells[1] - cells[0] > _ESTIMATE_ABOVE:  # what parsing a large sheet would cost, counted before it is paid
        budget.add_cells(len(re.compile(_CELL_START).findall(data, cells[0], cells[1])), estimate=True)
    if ours and data.startswith(b"<sheetData>", cells[0]) and data.endswith(b"</sheetData>", 0, cells[1]):
        start, end = cells[0] + 11, cells[1] - 12
        raw = data[start:end]
        if _read_our_cells(raw.decode("utf-8"), sheet, budget,
                           source if source is not None and end - start > LAZY_ABOVE else None, start, end, raw):
            return
    if cells[1] > cells[0] and _scanned(data, cells, skel.root, sheet, strings, budget):
        return
    if cells[1] > cells[0]:
        region = memoryview(data)[cells[0]:cells[1]]
        wrapped = b"".join((skel.root.encode("utf-8"), region, skel.end.encode("utf-8")))
        extras = any(attr in wrapped for attr in _CELL_EXTRAS)  # cells with other attributes: sought cell by cell
        _read_cells(_elements(wrapped, _SHEET_DATA_TAG, _ROW_TAG), sheet, strings, budget, extras)


def _scanned(data: bytes, cells: tuple[int, int], root: str, sheet: Sheet, strings: list[str],
             budget: _Budget) -> bool:
    """The cells at ``cells`` of ``data`` read without a parser (``scan.rows``), when they have its shapes."""
    if (not data.startswith(b"<sheetData>", cells[0]) or not data.endswith(b"</sheetData>", 0, cells[1])
            or f'xmlns="{xmlkit.MAIN}"' not in root or data.find(b"<is>", *cells) >= 0
            or any(data.find(a, *cells) >= 0 for a in _CELL_EXTRAS)):
        return False  # (inline texts first: a sheet of them is not decoded for the patterns)
    try:
        xml = data[cells[0] + 11:cells[1] - 12].decode("utf-8")
    except UnicodeDecodeError:
        return False
    from sheetgm.backends.xlsx import scan  # (sheetgm's own files hold inline texts: never scanned)

    rows = scan.rows(xml)
    if rows is None:
        return False
    _read_scanned(rows, sheet, strings, budget)
    return True


@record(frozen=True)
class _Layout(Value):
    """What a sheet's XML outside its cells holds: the skeleton and the modelled elements, parsed once."""

    skeleton: xmlkit.Skeleton
    kept: list[tuple[float, str, str]]
    cols: list[Col]
    view: dict[str, str] | None
    frozen: tuple[int, int] | None
    protection: dict[str, str] | None
    validations: list[Validation]
    legacy: str | None


# A sheet's XML without its cells -> its layout: the same tab has the same layout in every workbook of a game.
_LAYOUTS: dict[bytes, _Layout] = {}
_LAYOUTS_HELD = [0, 8_000_000]  # the bytes of the texts held, at most (or one text)


def _layout(rest: bytes) -> _Layout:
    """The layout of a sheet's XML without its cells, parsed once per distinct text in this process."""
    found = _LAYOUTS.get(rest)
    if found is None:
        plain = kept.get("layout", rest)
        if plain is None:
            found = _parse_layout(rest)
            kept.note("layout", rest, _plain_layout(found))
        else:
            found = _layout_of(plain)
        hold(_LAYOUTS, _LAYOUTS_HELD, rest, found)
    return found


def _plain_layout(layout: _Layout) -> tuple[object, ...]:
    """A layout as plain data (``kept``), made again by ``_layout_of``."""
    skel = layout.skeleton
    return ((skel.root, skel.end, tuple(skel.children)), tuple(layout.kept),
            tuple((c.min, c.max, tuple(c.attrs.items())) for c in layout.cols),
            None if layout.view is None else tuple(layout.view.items()), layout.frozen,
            None if layout.protection is None else tuple(layout.protection.items()),
            tuple((v.sqref, tuple(v.attrs.items()), v.formula1, v.formula2) for v in layout.validations),
            layout.legacy)


def _layout_of(plain: tuple[Any, ...]) -> _Layout:
    (root, end, children), kept_xml, cols, view, frozen, protection, validations, legacy = plain
    return _Layout(xmlkit.Skeleton(root, end, list(children)), list(kept_xml),
                   [Col(low, high, dict(attrs)) for low, high, attrs in cols], None if view is None else dict(view),
                   frozen, None if protection is None else dict(protection),
                   [Validation(sqref, dict(attrs), f1, f2) for sqref, attrs, f1, f2 in validations], legacy)


def hold(memo: dict[K, V], held: list[int], key: K, value: V) -> None:
    """``value`` kept for ``key`` in ``memo``, whose keys' lengths ``held[0]`` counts: emptied first when they
    would pass ``held[1]``."""
    if held[0] + len(key) > held[1]:
        memo.clear()
        held[0] = 0
    memo[key] = value
    held[0] += len(key)


def _apply(layout: _Layout, sheet: Sheet) -> None:
    """The layout into ``sheet``, as copies: a sheet's parts are changed in place as a stage is written."""
    sheet.root = layout.skeleton.root
    sheet.kept.extend(layout.kept)
    sheet.cols.extend(Col(c.min, c.max, dict(c.attrs)) for c in layout.cols)
    if layout.view is not None:
        sheet.view = dict(layout.view)
    if layout.frozen is not None:
        sheet.frozen = layout.frozen
    if layout.protection is not None:
        sheet.protection = dict(layout.protection)
    sheet.validations.extend(Validation(v.sqref, dict(v.attrs), v.formula1, v.formula2) for v in layout.validations)
    if layout.legacy is not None:
        sheet.legacy = layout.legacy


def _parse_layout(rest: bytes) -> _Layout:
    skel = xmlkit.skeleton(rest)
    kept: list[tuple[float, str, str]] = []
    rank = -1.0
    for name, xml in skel.children:
        if name in RANK:
            rank = RANK[name]
            if name not in MODELLED:
                kept.append((rank, name, xml))
        else:  # another namespace (mc:AlternateContent...): it stays after the element it followed
            kept.append((rank + 0.5, name, xml))
    cols: list[Col] = []
    validations: list[Validation] = []
    view: dict[str, str] | None = None
    frozen: tuple[int, int] | None = None
    protection: dict[str, str] | None = None
    legacy: str | None = None
    root = fromstring(rest)
    for el in root:
        tag = xmlkit.local(el.tag) if el.tag.startswith(f"{{{xmlkit.MAIN}}}") else ""
        if tag == "cols":
            for c in el:
                a = xmlkit.plain_attrs(c)
                low = _int(a.pop("min", "1"))
                cols.append(Col(low, _int(a.pop("max", str(low))), a))
        elif tag == "sheetViews":
            found = el.find(xmlkit.m("sheetView"))
            if found is not None:
                view = xmlkit.plain_attrs(found)
                pane = found.find(xmlkit.m("pane"))
                if pane is not None and pane.get("state") in ("frozen", "frozenSplit"):
                    frozen = (int(float(pane.get("ySplit", "0"))), int(float(pane.get("xSplit", "0"))))
        elif tag == "sheetProtection":
            protection = xmlkit.plain_attrs(el)
        elif tag == "dataValidations":
            for dv in el:
                a = xmlkit.plain_attrs(dv)
                f1, f2 = dv.find(xmlkit.m("formula1")), dv.find(xmlkit.m("formula2"))
                validations.append(Validation(a.pop("sqref", ""), a, f1.text if f1 is not None else None,
                                              f2.text if f2 is not None else None))
        elif tag == "legacyDrawing":
            legacy = el.get(f"{{{xmlkit.REL}}}id", "")
    return _Layout(skel, kept, cols, view, frozen, protection, validations, legacy)


def _read_cells(rows: Iterable[Element], sheet: Sheet, strings: list[str], budget: _Budget, extras: bool) -> None:
    cells, row, columns = sheet.cells, -1, _COLUMNS
    shared: dict[str, tuple[int, int, str]] = {}  # a shared formula's si -> its first cell and text
    sharing: list[tuple[Cell, int, int, str]] = []  # the cells that share one, without a result
    blank = strings.blank if isinstance(strings, _Strings) else set()
    # an f element's attributes and text -> the formula read (the cells of a formula filled down share one), and
    # the si of a shared one (None: not shared; "ref": the first cell's)
    seen_formulas: dict[tuple[tuple[tuple[str, str], ...], str | None],
                        tuple[tuple[dict[str, str], str], str | None, bool]] = {}
    for row_el in rows:
        ra = row_el.attrib
        row = int(ra["r"]) - 1 if "r" in ra else row + 1
        if len(ra) > 2 or not ra.keys() <= _PLAIN_ROW:
            dims = {k: v for k, v in ra.items() if k not in _PLAIN_ROW and not k.startswith("{")}
            if dims:  # a row without a number keeps its height or hidden flag too
                sheet.rows[row] = dims
        col, before = -1, len(cells)
        for c in row_el:
            ref = c.get("r")
            if ref is None:
                col += 1
            else:
                col = columns.get(ref, -1)
                if col < 0:
                    col = _column(ref, columns)
            kind, value, formula, sst = c.get("t", "n"), "", None, -1
            v_text, inline, raw, si, leads = None, None, None, None, False
            for part in c:
                tag = part.tag
                if tag == _V:
                    v_text = part.text or ""
                elif tag == _F:
                    key = (tuple(part.attrib.items()), part.text)
                    known = seen_formulas.get(key)
                    if known is None:
                        attrs, text = xmlkit.plain_attrs(part), part.text or ""
                        shares = attrs.get("si", "") if attrs.get("t") == "shared" else None
                        known = seen_formulas[key] = ((attrs, text), shares, bool(text) and "ref" in attrs)
                    formula, si, leads = known
                elif tag == _IS:
                    inline = part
            if kind == "inlineStr":
                kind, value = "s", xmlkit.run_text(inline)
                raw = _as_written(inline, value)
            else:
                kind, value, sst, raw = _value(kind, v_text, strings, blank)
            s = c.get("s")
            style = int(s) if s else 0  # s="" (a Mac Excel file): the default format
            extra = _extra(c) if extras and not c.attrib.keys() <= _KNOWN_CELL else ""
            if (kind or style or formula or extra) and row >= 0:
                cell = cells[(row, col)] = Cell(kind, value, style, formula, sst, extra, raw)
                if si is not None and formula is not None:
                    if leads:
                        shared.setdefault(si, (row, col, formula[1]))
                    elif not kind and not formula[1]:
                        sharing.append((cell, row, col, si))
        budget.add_cells(max(1, len(cells) - before))  # a row costs its cells, an empty one its element
    _move_shared(shared, sharing, budget)


def _value(kind: str, v_text: str | None, strings: list[str], blank: set[int]
           ) -> tuple[str, str, int, tuple[str, str] | None]:
    """A cell's kind, value, shared-string entry and text as written (``Cell.raw``), of its type and its
    ``<v>``'s text (an inline text aside)."""
    if kind == "s":
        if v_text:
            sst = int(v_text)
            value = strings[sst] if 0 <= sst < len(strings) else ""
            return "s", value, sst if value or sst in blank else -1, None
        return "s", "", -1, None
    if kind == "str":
        value = v_text or ""
        if "_x" in value:  # written back as the file had it (openpyxl reads a result's "_x000D_" so)
            text = xmlkit.unescape(value)
            return "s", text, -1, (text, xmlkit.text(value))
        return "s", value, -1, None
    if v_text is None or (kind == "n" and not v_text):
        return "", "", -1, None
    return kind, v_text, -1, None


def _read_scanned(rows: list[scan.Row], sheet: Sheet, strings: list[str], budget: _Budget) -> None:
    """The rows ``scan.rows`` read into ``sheet``, as ``_read_cells`` reads them parsed."""
    from sheetgm.backends.xlsx import scan
    cells, row, columns = sheet.cells, -1, _LETTER_COLUMNS
    shared: dict[str, tuple[int, int, str]] = {}
    sharing: list[tuple[Cell, int, int, str]] = []
    blank = strings.blank if isinstance(strings, _Strings) else set()
    kinds: dict[str, tuple[str, int]] = {}  # a cell's attributes as written -> its type and style
    seen_formulas: dict[tuple[str, str | None], tuple[tuple[dict[str, str], str], str | None, bool]] = {}
    row_dims: dict[str, dict[str, str]] = {}  # a row's attributes as written -> those kept
    for number, attrs, row_cells in rows:
        row = int(number) - 1
        if attrs:
            dims = row_dims.get(attrs)
            if dims is None:
                dims = row_dims[attrs] = {k: v for k, v in scan.attributes(attrs).items()
                                          if k not in _PLAIN_ROW and ":" not in k}
            if dims:
                sheet.rows[row] = dict(dims)
        before = len(cells)
        for letters, other, f_attrs, f_text, v_text in row_cells:
            col = columns.get(letters)
            if col is None:
                col = col_index(letters)
                if len(columns) < 20_000:
                    columns[letters] = col
            known = kinds.get(other)
            if known is None:
                a = scan.attributes(other)
                s = a.get("s")
                known = kinds[other] = (a.get("t", "n"), int(s) if s else 0)
            kind, style = known
            formula, si, leads = None, None, False
            if f_attrs is not None:
                key = (f_attrs, f_text)
                found = seen_formulas.get(key)
                if found is None:
                    fa, text = scan.attributes(f_attrs), f_text or ""
                    shares = fa.get("si", "") if fa.get("t") == "shared" else None
                    found = seen_formulas[key] = ((fa, text), shares, bool(text) and "ref" in fa)
                formula, si, leads = found
            if kind == "inlineStr":  # (without its <is>: scan.rows takes no other)
                kind, value, sst, raw = "s", "", -1, None
            else:
                kind, value, sst, raw = _value(kind, v_text, strings, blank)
            if (kind or style or formula) and row >= 0:
                cell = cells[(row, col)] = Cell(kind, value, style, formula, sst, "", raw)
                if si is not None and formula is not None:
                    if leads:
                        shared.setdefault(si, (row, col, formula[1]))
                    elif not kind and not formula[1]:
                        sharing.append((cell, row, col, si))
        budget.add_cells(max(1, len(cells) - before))
    _move_shared(shared, sharing, budget)


def _move_shared(shared: dict[str, tuple[int, int, str]], sharing: list[tuple[Cell, int, int, str]],
                 budget: _Budget) -> None:
    """The cells sharing a formula without a result: each reads as the first cell's formula moved to it."""
    # What each computes, read as its formula (``text_of``): its value. A long formula filled down 100,000 rows
    # (3 MB of file) would be 800 MB of texts and seconds of moving references: FORMULA_CHARS bounds them.
    from sheetgm.backends.xlsx import formulas  # (only another program's file holds such cells: not imported else)

    for cell, at_row, at_col, si in sharing:
        first = shared.get(si)
        if first is not None and budget.formulas >= len(first[2]):
            cell.value = formulas.moved(first[2], at_row - first[0], at_col - first[1])
            if cell.value != first[2]:
                budget.formulas -= len(cell.value)
            else:
                cell.value = first[2]  # the same text (no reference moved): one string for all


# Rows and cells in the shapes sheetgm's writer gives them (sheetxml.py): a row's plain attributes, cells with a
# style only or an inline text. A sheet of a file sheetgm wrote is read by these patterns, without a tree (a
# player's Map history is thousands of such cells, read at every resolve); anything else there (a number, a
# formula, another attribute, an entity the writer does not make) and the sheet is read as any other.
# A text or an attribute's value holds no "\r" (a parser reads it as "\n") and no character XML refuses
# (``xmlkit.ILLEGAL``): checked in the same pass as the shapes.
_REFUSED = "\r" + "".join(f"\\u{a:04x}-\\u{b:04x}" for a, b in xmlkit.NOT_XML)
_OUR_CELL_SHAPE = (r'<c r="[A-Z]{1,3}[0-9]+"(?: s="[0-9]+")?'
                   rf'(?:/>| t="inlineStr"><is><t(?: xml:space="preserve")?>[^<{_REFUSED}]*</t></is></c>)')
# A row without its end tag (the content is cut at each "</row>", which no text or value of these shapes holds).
_OUR_ROW_OPEN = re.compile(rf'<row r="([0-9]+)"((?: [A-Za-z]+="[^"&<{_REFUSED}]*")*)>(?:{_OUR_CELL_SHAPE})*')
_OUR_CELL = re.compile(r'<c r="([A-Z]{1,3})[0-9]+"(?: s="([0-9]+)")?'
                       r'(?:(/>)| t="inlineStr"><is><t( xml:space="preserve")?>([^<]*)</t></is></c>)')
_OUR_ATTR = re.compile(r' ([A-Za-z]+)="([^"]*)"')
LAZY_ABOVE = 16_384  # a sheet's rows longer than this (in a file sheetgm wrote) are parsed only when asked for
_OUR_ENTITY = {"&amp;": "&", "&lt;": "<", "&gt;": ">", "&#13;": "\r"}
_ANY_ENTITY = re.compile(r"&[^;&]*;")


def _read_our_cells(xml: str, sheet: Sheet, budget: _Budget, lazy: Part | None = None, start: int = 0,
                    end: int = 0, raw: bytes | None = None) -> bool:
    """The cells of a sheetData's content as ``_read_cells`` reads them, when every row and cell has one of the
    writer's shapes; False (and ``sheet`` untouched) when one does not. With ``lazy`` (the sheet's part, the
    content at ``start:end`` of it), the shapes are checked and the rows' attributes read, the cells parsed only
    when asked for (``Pending``). ``raw``: ``xml`` as the file holds it, if at hand (``kept``'s key: not encoded
    again)."""
    if "]]>" in xml:
        return False  # what an XML parser would refuse or change
    pieces = xml.split("</row>")
    if pieces.pop():
        return False  # something after the last row
    # the whole content as another run read it (one lookup, not one a row), else row by row
    key = xml if raw is None else raw
    whole: tuple[tuple[_Row, ...], tuple[_RowCells, ...] | None] | None = kept.get("sheet", key) if pieces else None
    seen: Sequence[_Row]
    if whole is not None:
        seen = whole[0]
    else:
        held, seen = _ROWS_SEEN, []
        for piece in pieces:
            known = held.get(piece)
            if known is None:
                known = kept.get("row", piece)
                if known is None:
                    known = _our_row(piece)
                    if known is None:
                        return False  # another shape: an XML parser judges
                    kept.note("row", piece, known)
                hold(held, _ROWS_HELD, piece, known)
            seen.append(known)
    numbers = list(map(itemgetter(0), seen))
    dims = {known[0] - 1: dict(known[1]) for known in seen if known[1]}
    if lazy is not None and numbers:
        if numbers[0] >= 1 and all(a < b for a, b in zip(numbers, numbers[1:], strict=False)):
            budget.add_cells(max(sum(map(itemgetter(2), seen)), len(numbers)))
            sheet.rows.update(dims)
            # what a save asks for, worked out here from each row's: the extent (as ``_extent`` measures it) and
            # the styles the rows hold
            lasts = list(map(itemgetter(3), seen))
            extent = (max(map(itemgetter(0), lasts)), max(map(itemgetter(1), lasts)))
            styles = frozenset().union(*map(itemgetter(4), seen))
            sheet.pending = Pending(lazy, start, end, numbers[-1] - 1, _pending_cells, _extent, extent, styles=styles)
            if whole is None:
                kept.note("sheet", key, (tuple(seen), None))
            return True
    rows_cells = whole[1] if whole is not None and whole[1] is not None else _cells_of(pieces)
    if whole is None and pieces:
        kept.note("sheet", key, (tuple(seen), rows_cells))
    found, sizes = _assembled(rows_cells)
    for n in sizes:
        budget.add_cells(n)
    sheet.cells.update(found)
    sheet.rows.update(dims)
    return True


# A row of the writer's shapes (its text without "</row>") -> its number, its attributes but the number and
# spans, its cells, the row and column (1-based) of its last cell ((0, 0) for none), and each N of the ' s="N"'
# it holds (``Pending.styles``): the same rows recur in every player's workbook (160 players: 27,287 rows, 2,210
# distinct).
_Row = tuple[int, tuple[tuple[str, str], ...], int, tuple[int, int], frozenset[str]]
_ROWS_SEEN: dict[str, _Row] = {}
_STYLE_MARK = re.compile(r' s="([0-9]+)"')
_ROWS_HELD = [0, 8_000_000]  # the characters of the rows held, at most


def _our_row(piece: str) -> _Row | None:
    """A row's number, kept attributes and cells, if it has the writer's shape and holds only the entities the
    writer makes (its attributes none); None if not."""
    shape = _OUR_ROW_OPEN.fullmatch(piece)
    if shape is None:
        return None
    entities = _ANY_ENTITY.findall(piece)  # in a text: the attributes of our shapes hold none
    if piece.count("&") != len(entities) or not set(entities) <= _OUR_ENTITY.keys():
        return None
    attr_text = shape.group(2)
    attrs: dict[str, str] = {}
    if attr_text:
        attrs = dict(_OUR_ATTR.findall(attr_text))
        if len(attrs) != attr_text.count("=") or "r" in attrs:
            return None  # an attribute written twice (the number too): the parser refuses it
        attrs.pop("spans", None)
    return (int(shape.group(1)), tuple(attrs.items()), piece.count("<c "), _extent(piece + "</row>"),
            style_marks(piece))


def style_marks(xml: str) -> frozenset[str]:
    """Each N of the ' s="N"' in ``xml``, as written (what ``Pending.holds_style`` would find in its text)."""
    return frozenset(_STYLE_MARK.findall(xml))


def _extent(xml: str) -> tuple[int, int]:
    """Rows and columns up to the last cell of rows of the writer's shapes (each row's cells in order), as
    ``Sheet.extent`` counts them; (0, 0) without a cell."""
    rows = cols = 0
    at, columns = xml.find("</row>"), _COLUMNS
    while at >= 0:
        cell = xml.rfind('<c r="', 0, at)
        if cell > xml.rfind("<row ", 0, at):
            ref = xml[cell + 6:xml.index('"', cell + 6)]
            letters = ref.rstrip("0123456789")
            col = columns.get(letters, -1)
            if col < 0:
                col = columns[letters] = col_index(letters)
            rows, cols = max(rows, int(ref[len(letters):])), max(cols, col + 1)
        at = xml.find("</row>", at + 6)
    return rows, cols


def _pending_cells(xml: str) -> tuple[dict[tuple[int, int], Cell], dict[int, str]]:
    rows: dict[int, str] = {}
    return _our_cells(xml, rows)[0], rows


def _our_cells(xml: str, rows: dict[int, str] | None = None, pieces: list[str] | None = None
               ) -> tuple[dict[tuple[int, int], Cell], list[int]]:
    """The cells of rows of the writer's shapes, checked (``_read_our_cells``), and the cells each row counts for
    the budget; each row's XML into ``rows``, if given. ``pieces``: ``xml`` cut at each "</row>" already, without
    the empty piece after the last (the same strings again: their hashes are not computed twice)."""
    pieces = xml.split("</row>")[:-1] if pieces is None else pieces
    known = _cells_of(pieces)
    if rows is not None:
        for piece, (row, _cells) in zip(pieces, known, strict=True):
            rows[row] = piece + "</row>"
    return _assembled(known)


def _cells_of(pieces: list[str]) -> tuple[_RowCells, ...]:
    """Each row's number and cells (``row_cells``), worked out once per distinct text."""
    out = []
    seen = _CELLS_SEEN
    for piece in pieces:
        known = seen.get(piece)
        if known is None:
            known = kept.get("cells", piece)
            if known is None:
                known = row_cells(piece)
                kept.note("cells", piece, known)
            hold(seen, _CELLS_HELD, piece, known)
        out.append(known)
    return tuple(out)


def _assembled(rows: Iterable[_RowCells]) -> tuple[dict[tuple[int, int], Cell], list[int]]:
    """The cells of the rows (new ones: a reader may change them) and the cells each row counts for the budget."""
    found: dict[tuple[int, int], Cell] = {}
    counts: list[int] = []
    for row, cells in rows:
        before = len(found)
        if row >= 0:
            for col, kind, text, style in cells:
                found[(row, col)] = Cell(kind, text, style)
        counts.append(max(1, len(found) - before))
    return found, counts


# A row of the writer's shapes (its text without "</row>") -> its row (0-based) and its cells as (column, kind,
# text, style): a new Cell is made of each for every reader, who may change it.
_RowCells = tuple[int, tuple[tuple[int, str, str, int], ...]]
_CELLS_SEEN: dict[str, _RowCells] = {}
_CELLS_HELD = [0, 8_000_000]  # the characters of the rows held, at most


def row_cells(piece: str) -> tuple[int, tuple[tuple[int, str, str, int], ...]]:
    row = int(piece[8:piece.index('"', 8)]) - 1  # <row r="12"...
    cells: list[tuple[int, str, str, int]] = []
    columns = _COLUMNS
    for ref, style_text, bare, preserve, text in _OUR_CELL.findall(piece):
        col = columns.get(ref, -1)
        if col < 0:
            col = columns[ref] = col_index(ref)
        style = int(style_text) if style_text else 0
        if bare:  # a cell with a format only
            if style:
                cells.append((col, "", "", style))
            continue
        if "&" in text:
            text = _ANY_ENTITY.sub(lambda e: _OUR_ENTITY[e.group(0)], text)
        if text and not preserve and (text[0] in " \t\n" or text[-1] in " \t\n"):
            text = text.strip(" \t\n")
        if "_x" in text:
            text = xmlkit.unescape(text)
        cells.append((col, "s", text, style))
    return row, tuple(cells)


def _as_written(inline: Element | None, value: str) -> tuple[str, str] | None:
    """An inline text's ``<is>`` content as written, with the text read of it (``Cell.raw``), where reading it
    lost something or programs read it otherwise: runs (their fonts), phonetic guides, blanks that a ``<t>``
    without xml:space="preserve" holds (Excel and calamine drop them, LibreOffice and openpyxl keep them),
    ``_xHHHH_`` escapes. None for a plain text."""
    if inline is None or not len(inline):
        return None
    if len(inline) == 1 and inline[0].tag == _T_TAG:
        text = inline[0].text or ""
        blanks = text and (text[0] in _BLANKS or text[-1] in _BLANKS) and inline[0].get(_SPACE) != "preserve"
        if not blanks and "_x" not in text:  # (an escape: openpyxl reads an inline text's "_x000D_" as written)
            return None
    try:
        return value, "".join(map(_written, inline))
    except ValueError:  # an element of another namespace: written as the text read
        return None


def _written(el: Element) -> str:
    """An element of the main namespace as XML with local names, its texts as they are."""
    if not el.tag.startswith(_MAIN_NS):
        raise ValueError(el.tag)
    tag = el.tag[len(_MAIN_NS):]
    attrs = []
    for k, v in el.attrib.items():
        if k.startswith("{"):
            if k != _SPACE:
                raise ValueError(k)
            k = "xml:space"
        attrs.append(f' {k}="{xmlkit.attr(v)}"')
    inner = xmlkit.text(el.text or "") + "".join(map(_written, el))
    body = f"<{tag}{''.join(attrs)}>{inner}</{tag}>" if inner else f"<{tag}{''.join(attrs)}/>"
    return body + xmlkit.text(el.tail or "")


_MAIN_NS = f"{{{xmlkit.MAIN}}}"


_T_TAG, _SPACE, _BLANKS = xmlkit.m("t"), f"{{{xmlkit.XML_NS}}}space", " \t\r\n"


def _extra(c: Element) -> str:
    """A cell's attributes other than its reference, style and type (``vm``, ``cm``, ``ph``), as XML."""
    return xmlkit.attrs({k: v for k, v in c.attrib.items() if k not in _KNOWN_CELL and not k.startswith("{")})


_COLUMNS: dict[str, int] = {}  # cell reference -> column: the same few hundred references recur in every file
_LETTER_COLUMNS: dict[str, int] = {}  # a column's letters -> the column
_PLAIN_ROW = frozenset({"r", "spans"})  # a row's attributes that are not kept (sheet.rows)


def _column(ref: str, columns: dict[str, int]) -> int:
    """The column of a cell reference not met yet (``columns``: those met, kept while they are few)."""
    name = ref.rstrip("0123456789")
    col = _LETTER_COLUMNS.get(name)
    if col is None:
        col = col_index(name)
        if len(_LETTER_COLUMNS) < 20_000:
            _LETTER_COLUMNS[name] = col
    if len(columns) < 20_000:
        columns[ref] = col
    return col


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
        i = _int(c.get("authorId", "0"))
        author = authors[i] if 0 <= i < len(authors) else ""
        notes[(int(digits) - 1, col_of(ref))] = (xmlkit.run_text(c.find(xmlkit.m("text"))), author)
    return notes
