"""Writing a `Book` as an .xlsx package that LibreOffice, Excel and openpyxl open.

What the codec models is written anew; everything else the file held is written back as it was: a sheet
nothing changed and every part the codec does not model keep their compressed bytes, the workbook's
elements and each part's relationships are kept with their ids, and the package's content types are
those it had. Only a calculation chain is dropped once a sheet changed (Excel rebuilds it; a stale one
makes it report a damaged file). A part's compressed bytes are kept after a save, so the next save of the
same workbook compresses only what changed since.
"""

from __future__ import annotations

import posixpath
import re
import struct
from datetime import UTC, datetime
from functools import lru_cache
from xml.etree.ElementTree import ParseError, fromstring

from sheetgm.backends.xlsx import images, xmlkit
from sheetgm.backends.xlsx.book import RANK, Book, Rel, Sheet
from sheetgm.backends.xlsx.deflate import crc32, deflate
from sheetgm.backends.xlsx.package import Part, rels_path, resolve_target
from sheetgm.backends.xlsx.sheetxml import ROOT, comments_xml, legacy_xml, sheet_bytes, vml_xml

_CT_MAIN = "application/vnd.openxmlformats-officedocument.spreadsheetml"
_TYPES = {
    "workbook": f"{_CT_MAIN}.sheet.main+xml", "sheet": f"{_CT_MAIN}.worksheet+xml",
    "styles": f"{_CT_MAIN}.styles+xml", "comments": f"{_CT_MAIN}.comments+xml",
    "core": "application/vnd.openxmlformats-package.core-properties+xml",
    "app": "application/vnd.openxmlformats-officedocument.extended-properties+xml",
}
# The content type of a part by its relationship's type, for a file whose [Content_Types].xml lacked it.
_BY_REL = {
    "sharedStrings": f"{_CT_MAIN}.sharedStrings+xml",
    "theme": "application/vnd.openxmlformats-officedocument.theme+xml",
    "styles": _TYPES["styles"], "comments": _TYPES["comments"], "worksheet": _TYPES["sheet"],
    "chartsheet": f"{_CT_MAIN}.chartsheet+xml", "table": f"{_CT_MAIN}.table+xml",
    "drawing": "application/vnd.openxmlformats-officedocument.drawing+xml",
    "chart": "application/vnd.openxmlformats-officedocument.drawingml.chart+xml",
    "externalLink": f"{_CT_MAIN}.externalLink+xml", "pivotTable": f"{_CT_MAIN}.pivotTable+xml",
    "pivotCacheDefinition": f"{_CT_MAIN}.pivotCacheDefinition+xml",
    "pivotCacheRecords": f"{_CT_MAIN}.pivotCacheRecords+xml", "calcChain": f"{_CT_MAIN}.calcChain+xml",
    "extended-properties": _TYPES["app"], "core-properties": _TYPES["core"], "custom-properties":
        "application/vnd.openxmlformats-officedocument.custom-properties+xml",
}
_DEFAULTS = {"rels": "application/vnd.openxmlformats-package.relationships+xml", "xml": "application/xml",
             "vml": "application/vnd.openxmlformats-officedocument.vmlDrawing"}
RT_CALC_CHAIN = xmlkit.REL + "/calcChain"
# CT_Workbook's elements after calcPr: a calcPr the file lacked goes before the first of them.
_AFTER_CALC = frozenset({"oleSize", "customWorkbookViews", "pivotCaches", "smartTagPr", "smartTagTypes",
                         "webPublishing", "fileRecoveryPr", "webPublishObjects", "extLst"})
_CALC = re.compile(r"^<((?:[\w.-]+:)?calcPr)\b")
_APP = ('<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">'
        "<Application>sheetgm</Application></Properties>")

Data = str | bytes | Part


def write_book(book: Book) -> bytes:
    """The whole package as zip bytes."""
    now = datetime.now(UTC).replace(microsecond=0)
    plan = _Plan(book)
    for i, sheet in enumerate(book.sheets, 1):
        plan.sheet(i, sheet)
    plan.rest(now)
    return _zip(book, plan, now)


class _Plan:
    """The parts to write, in order, with their content types; and what of the book changes with the save."""

    def __init__(self, book: Book) -> None:
        self.book = book
        self.parts: list[tuple[str, Data]] = []
        self.types: dict[str, str] = {}  # generated part ("/xl/...") -> type, where the file had none
        self.taken = set(book.parts) | {s.part for s in book.sheets if s.part}
        self.dropped: set[str] = set()  # carried parts not written back
        self.changed = any(s.source is None for s in book.sheets)
        self.notes_parts: set[str] = set()  # carried parts written after their sheet (its notes)
        self.after: list[tuple[Sheet, list[Rel], str]] = []  # what each sheet holds once saved
        self.wb_ids = {r.id for r in book.workbook_rels} | {s.rel_id for s in book.sheets if s.rel_id}
        self.wb_rels: list[Rel] = []
        self.pictures: set[str] = set()  # the parts of pictures placed at this save (``images.plan``)

    def free_name(self, pattern: str, start: int) -> str:
        n = start
        while pattern.format(n) in self.taken:
            n += 1
        self.taken.add(pattern.format(n))
        return pattern.format(n)

    def sheet(self, i: int, sheet: Sheet) -> None:
        if not sheet.part:
            sheet.part = self.free_name("xl/worksheets/sheet{}.xml", i)
        if not sheet.rel_id:
            sheet.rel_id = _fresh(self.wb_ids, i)
        rels, legacy = list(sheet.rels), None
        new_notes: list[tuple[str, Data]] = []
        if sheet.notes != (sheet.notes_read or {}):
            old = [r for r in rels if r.type == xmlkit.RT_COMMENTS or (sheet.legacy and r.id == sheet.legacy)]
            gone = {resolve_target(sheet.part, r.target) for r in old if not r.mode}
            self.dropped |= gone
            self.taken -= gone  # their names may be used again
            rels, legacy = [r for r in rels if r not in old], ""
            if sheet.notes:
                ids = {r.id for r in rels}
                c_id = _fresh(ids, 1)
                legacy = _fresh(ids, 2)
                c_path = self.free_name("xl/comments/comment{}.xml", i)
                v_path = self.free_name("xl/drawings/vmlDrawing{}.vml", i)
                rels += [Rel(c_id, xmlkit.RT_COMMENTS, _relative(c_path, sheet.part)),
                         Rel(legacy, xmlkit.RT_VML, _relative(v_path, sheet.part))]
                new_notes = [(c_path, comments_xml(sheet)), (v_path, vml_xml(sheet, i))]
                self.types["/" + c_path] = _TYPES["comments"]
            sheet.source = None
            self.changed = True
        if sheet.picture is not None:
            rels = images.plan(self, sheet, rels, i)
            sheet.source = None
            self.changed = True
        if sheet.source is not None:
            self.parts.append((sheet.part, sheet.source))
        else:
            if sheet.written is None or legacy is not None:
                sheet.written = sheet_bytes(sheet, legacy)
            self.parts.append((sheet.part, sheet.written))
        self.types.setdefault("/" + sheet.part, _TYPES["sheet"])
        self.parts += new_notes
        for rel in rels:  # the notes kept as they were go with their sheet (not the old ones a new name reuses)
            target = resolve_target(sheet.part, rel.target)
            if (rel.type in (xmlkit.RT_COMMENTS, xmlkit.RT_VML) and not rel.mode and target in self.book.parts
                    and target not in self.dropped):
                self.notes_parts.add(target)
                self.parts.append((target, self.book.parts[target]))
        if rels:
            self.parts.append((rels_path(sheet.part), _rels_xml(rels)))
        self.typed(sheet.part, rels)
        self.after.append((sheet, rels, legacy if legacy is not None else sheet.legacy))
        if sheet.pending is not None:
            sheet.pending.forget()

    def rest(self, now: datetime) -> None:
        book = self.book
        wb_rels = self.wb_rels = list(book.workbook_rels)
        if self.changed:
            calc = [r for r in wb_rels if r.type == RT_CALC_CHAIN]
            self.dropped |= {resolve_target(book.doc, r.target) for r in calc}
            wb_rels = self.wb_rels = [r for r in wb_rels if r not in calc]
        styles = book.styles_part or "xl/styles.xml"
        if not book.styles_part or book.styles.version != book.styles_read or styles not in book.parts:
            self.parts.append((styles, _styles(book)))
            self.types.setdefault("/" + styles, _TYPES["styles"])
            if not any(r.type == xmlkit.RT_STYLES for r in wb_rels):
                wb_rels.append(Rel(_fresh(self.wb_ids, len(book.sheets) + 1), xmlkit.RT_STYLES,
                                   _relative(styles, book.doc)))
        written = {name for name, _data in self.parts}
        for name, part in book.parts.items():
            if name not in written and name not in self.dropped and name not in self.notes_parts:
                self.parts.append((name, part))
        sheet_rels = [Rel(s.rel_id, xmlkit.RT_SHEET, s.target or _relative(s.part, book.doc)) for s in book.sheets]
        self.parts += [(book.doc, _workbook_xml(book, self.changed)), (rels_path(book.doc), _rels_xml(
            sheet_rels + wb_rels))]
        self.types.setdefault("/" + book.doc, _TYPES["workbook"])
        self.typed(book.doc, wb_rels)
        package_rels = list(book.package_rels)
        if book.ours:
            stamp = now.strftime("%Y-%m-%dT%H:%M:%SZ")
            self.parts += [("docProps/core.xml", _core_xml(book, stamp)), ("docProps/app.xml", _APP)]
            self.types |= {"/docProps/core.xml": _TYPES["core"], "/docProps/app.xml": _TYPES["app"]}
            ids = {r.id for r in package_rels}
            ours = [(xmlkit.RT_DOC, book.doc), (xmlkit.RT_CORE, "docProps/core.xml"),
                    (xmlkit.RT_APP, "docProps/app.xml")]
            made = []
            for n, (kind, target) in enumerate(ours, 1):
                made.append(Rel(_fresh(ids, n), kind, target))
            package_rels = made + package_rels
        elif not any(r.type == xmlkit.RT_DOC for r in package_rels):
            package_rels.insert(0, Rel(_fresh({r.id for r in package_rels}, 1), xmlkit.RT_DOC, book.doc))
        self.parts.append(("_rels/.rels", _rels_xml(package_rels)))
        self.typed("", package_rels)
        self.parts.insert(0, ("[Content_Types].xml", self._content_types()))

    def typed(self, base: str, rels: list[Rel]) -> None:
        """Content types for the parts ``rels`` point at, where the file said none."""
        for rel in rels:
            kind = _BY_REL.get(rel.type.rsplit("/", 1)[-1])
            if kind is not None and not rel.mode:
                self.types.setdefault("/" + resolve_target(base, rel.target), kind)

    def _content_types(self) -> str:
        names = {"/" + name for name, _data in self.parts}
        overrides = {p: t for p, t in self.book.overrides.items() if p in names}
        for part, kind in self.types.items():
            overrides.setdefault(part, kind)
        defaults = {**_DEFAULTS, **self.book.defaults}
        body = "".join(f'<Default Extension="{xmlkit.attr(e)}" ContentType="{xmlkit.attr(t)}"/>'
                       for e, t in defaults.items())
        body += "".join(f'<Override PartName="{xmlkit.attr(p)}" ContentType="{xmlkit.attr(t)}"/>'
                        for p, t in overrides.items())
        return f'<Types xmlns="{xmlkit.CT}">{body}</Types>'


def _fresh(ids: set[str], n: int) -> str:
    """A relationship id not in ``ids``, "rId{n}" if it is free."""
    while f"rId{n}" in ids:
        n += 1
    ids.add(f"rId{n}")
    return f"rId{n}"


def _relative(target: str, base: str) -> str:
    return posixpath.relpath(target, posixpath.dirname(base) or ".")


def _rels_xml(rels: list[Rel]) -> str:
    body = "".join(f'<Relationship Id="{xmlkit.attr(r.id)}" Type="{xmlkit.attr(r.type)}" Target="'
                   f'{xmlkit.attr(r.target)}"' + (f' TargetMode="{xmlkit.attr(r.mode)}"' if r.mode else "") + "/>"
                   for r in rels)
    return f'<Relationships xmlns="{xmlkit.PKG_REL}">{body}</Relationships>'


def _styles(book: Book) -> str:
    if book.styles_written is None or book.styles_written[0] != book.styles.version:
        book.styles_written = (book.styles.version, book.styles.xml())
    return book.styles_written[1]


def _sheet_entries(book: Book) -> str:
    """The <sheet> entries in tab order: the worksheets, and the chart sheets where they stood."""
    known = {s.sheet_id for s in book.sheets} | {int(found.group(1)) for _pos, xml in book.others
                                                  if (found := re.search(r'sheetId="([0-9]+)"', xml))}
    top, used, mine = max(known, default=0), set(), []
    for i, s in enumerate(book.sheets, 1):
        if not s.sheet_id or s.sheet_id in used:  # a new tab: its position if no tab has that id, else a new one
            s.sheet_id = i if i not in known and i not in used else top + 1
            top = max(top, s.sheet_id)
        used.add(s.sheet_id)
        state = "" if s.state == "visible" else f' state="{s.state}"'
        mine.append(f'<sheet name="{xmlkit.attr(s.name)}" sheetId="{s.sheet_id}"{state} r:id="{s.rel_id}"/>')
    out: list[str] = []
    others = list(book.others)
    while mine or others:
        if others and (others[0][0] <= len(out) or not mine):
            out.append(others.pop(0)[1])
        else:
            out.append(mine.pop(0))
    return "".join(out)


def _workbook_xml(book: Book, changed: bool) -> str:
    sheets = _sheet_entries(book)
    skel = book.skeleton
    if skel is None:
        visible = [i for i, s in enumerate(book.sheets) if s.state == "visible"] or [0]
        active = book.active if book.active in visible else visible[0]
        pr = '<workbookPr date1904="1"/>' if book.date1904 else "<workbookPr/>"
        if book.structure is not None:
            pr += f"<workbookProtection{xmlkit.attrs(book.structure)}/>"
        return (f'<workbook xmlns="{xmlkit.MAIN}" xmlns:r="{xmlkit.REL}">{pr}'
                f'<bookViews><workbookView activeTab="{active}"/></bookViews><sheets>{sheets}</sheets>'
                '<calcPr calcId="124519" fullCalcOnLoad="1"/></workbook>')
    root = xmlkit.with_default_namespace(skel.root)
    opening = "<sheets>" if f'xmlns:r="{xmlkit.REL}"' in root else f'<sheets xmlns:r="{xmlkit.REL}">'
    out, calc = [root], False
    guard = _structure_xml(book)
    for name, xml in skel.children:
        if name == "workbookProtection" and guard is not None:
            continue  # written where it belongs, below
        if guard is not None and name not in _BEFORE_GUARD:
            out.append(guard)
            guard = None
        if name == "sheets":
            out.append(f"{opening}{sheets}</sheets>")
            continue
        found = _CALC.match(xml) if name == "calcPr" else None
        if found is not None:
            calc = True
            if changed and "fullCalcOnLoad=" not in xml:  # cells changed: Excel computes the formulas again
                xml = xml.replace(found.group(0), f'{found.group(0)} fullCalcOnLoad="1"', 1)
        elif changed and not calc and name in _AFTER_CALC:
            out.append('<calcPr fullCalcOnLoad="1"/>')
            calc = True
        out.append(xml)
    if changed and not calc:
        out.append('<calcPr fullCalcOnLoad="1"/>')
    return "".join(out) + skel.end


_BEFORE_GUARD = ("fileVersion", "fileSharing", "workbookPr")  # CT_Workbook: what precedes <workbookProtection>


def _structure_xml(book: Book) -> str | None:
    """The <workbookProtection> to write in place of the one read, None to keep the one read (or none):
    only a lock sheetgm changed (``Book.structure`` differs from the file's) is written anew."""
    skel = book.skeleton
    read = next((xml for name, xml in skel.children if name == "workbookProtection"), None) if skel else None
    if book.structure is None or (read is not None and _attrs_of(read) == book.structure):
        return None
    return f"<workbookProtection{xmlkit.attrs(book.structure)}/>"


@lru_cache(maxsize=64)
def _attrs_of(xml: str) -> dict[str, str] | None:
    """The element's attributes (parsed once per process for each text: every save of every player's workbook
    asks of the same lock; the caller only compares them)."""
    try:
        return xmlkit.plain_attrs(fromstring(xml))
    except ParseError:
        pass
    prefix = re.match(r"<([\w.-]+):", xml)  # a prefixed element (``<x:workbookProtection``): its prefix bound
    try:
        return xmlkit.plain_attrs(fromstring(f'<w xmlns:{prefix.group(1)}="{xmlkit.MAIN}">{xml}</w>')[0]) if (
            prefix) else None
    except ParseError:  # another namespace's prefix than the root's: written anew
        return None


def _core_xml(book: Book, stamp: str) -> str:
    return (
        '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
        f"<dc:creator>{xmlkit.text(book.creator)}</dc:creator><dc:title>{xmlkit.text(book.title)}</dc:title>"
        f'<dcterms:created xsi:type="dcterms:W3CDTF">{xmlkit.text(book.created or stamp)}</dcterms:created>'
        f'<dcterms:modified xsi:type="dcterms:W3CDTF">{stamp}</dcterms:modified></cp:coreProperties>'
    )


def _zip(book: Book, plan: _Plan, now: datetime) -> bytes:
    """The parts as a zip (deflated). A part carried from the file keeps its compressed bytes, and so does a
    part whose text is the same as at the last save of this book (a save after a write to one tab
    compresses that tab)."""
    when = (now.hour << 11) | (now.minute << 5) | (now.second // 2)
    day = ((now.year - 1980) << 9) | (now.month << 5) | now.day
    out, central, packed = bytearray(), bytearray(), {}
    done: dict[str, Part] = {}
    for name, data in plan.parts:
        if isinstance(data, Part) and data.raw is not None:
            crc, size, deflated = data.crc, data.size, data.raw
        else:
            content = data.data if isinstance(data, Part) else data
            assert content is not None
            kept = book.packed.get(name)
            if kept is not None and kept[0] == content:
                crc, size, deflated = kept[1], kept[2], kept[3]
            else:
                raw = content.encode("utf-8") if isinstance(content, str) else content
                crc, size, deflated = crc32(raw), len(raw), deflate(raw)
            packed[name] = (content, crc, size, deflated)
        done[name] = Part(name, deflated, crc, size)
        encoded = name.encode("utf-8")
        head = (20, 0x800, 8, when, day, crc, len(deflated), size, len(encoded))
        central += struct.pack("<IH", 0x02014B50, 20) + struct.pack("<HHHHHIIIH", *head)
        central += struct.pack("<HHHHII", 0, 0, 0, 0, 0, len(out)) + encoded
        out += struct.pack("<I", 0x04034B50) + struct.pack("<HHHHHIIIH", *head) + struct.pack("<H", 0) + encoded
        out += deflated
    book.packed = packed
    _settle(book, plan, done)
    n = len(plan.parts)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, n, n, len(central), len(out), 0)
    return bytes(out + central + end)


def _settle(book: Book, plan: _Plan, done: dict[str, Part]) -> None:
    """The book as the file now holds it: each sheet is its part as written, its notes' parts are kept."""
    for name in plan.dropped:
        book.parts.pop(name, None)
    book.workbook_rels = plan.wb_rels
    for sheet, rels, legacy in plan.after:
        if legacy != sheet.legacy:  # the element as written, as if the sheet had been read from the file
            sheet.kept = [k for k in sheet.kept if k[1] != "legacyDrawing"]
            if legacy:
                root = xmlkit.with_default_namespace(sheet.root or ROOT)
                sheet.kept.append((RANK["legacyDrawing"], "legacyDrawing", legacy_xml(root, legacy)))
                sheet.kept.sort(key=lambda k: k[0])
        sheet.rels, sheet.legacy, sheet.notes_read = rels, legacy, dict(sheet.notes)
        sheet.picture = None
        sheet.source = done[sheet.part]
        for rel in rels:
            target = resolve_target(sheet.part, rel.target)
            if rel.type in (xmlkit.RT_COMMENTS, xmlkit.RT_VML) and target in done:
                book.parts[target] = done[target]
    for name in plan.pictures:
        book.parts[name] = done[name]
    if book.styles_part == "" or book.styles_read != book.styles.version:
        book.styles_part = book.styles_part or "xl/styles.xml"
        book.styles_read = book.styles.version
        book.parts[book.styles_part] = done[book.styles_part]
