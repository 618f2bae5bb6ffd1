"""Writing a `Book` as an .xlsx package that LibreOffice, Excel and openpyxl open.

Text is written as inline strings (no shared-string table to rebuild), notes
as a comments part with the VML drawing Excel needs to show them. A sheet's
XML is kept after it is written and reused until the sheet changes, so saving
a workbook after a write to one tab serializes only that tab; and a row's XML
is kept until that row changes, so a tab that grows (the Map history) is not
serialized whole again for a few new rows.
"""

from __future__ import annotations

import struct
import zlib
from datetime import UTC, datetime

from sheetgm.backends.a1 import col_letters
from sheetgm.backends.xlsx import xmlkit
from sheetgm.backends.xlsx.book import Book, Cell, Sheet

_CT_MAIN = "application/vnd.openxmlformats-officedocument.spreadsheetml"
_CT_SHEET = f"{_CT_MAIN}.worksheet+xml"
_CT_COMMENTS = f"{_CT_MAIN}.comments+xml"
_FORMAT_PR = '<sheetFormatPr baseColWidth="8" defaultRowHeight="15"/>'
_BEFORE_DATA = ("sheetPr",)  # kept elements (xlsx_book.KEPT) by where they go; sheetFormatPr is placed by hand
_AFTER_PROTECTION = ("autoFilter", "mergeCells", "conditionalFormatting")
_AFTER_VALIDATIONS = ("printOptions", "pageMargins", "pageSetup", "headerFooter", "rowBreaks", "colBreaks")
_VML_HEAD = (
    '<xml xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" '
    'xmlns:x="urn:schemas-microsoft-com:office:excel"><o:shapelayout v:ext="edit"><o:idmap v:ext="edit" '
    'data="{n}"/></o:shapelayout><v:shapetype id="_x0000_t202" coordsize="21600,21600" o:spt="202" '
    'path="m,l,21600r21600,l21600,xe"><v:stroke joinstyle="miter"/><v:path gradientshapeok="t" '
    'o:connecttype="rect"/></v:shapetype>'
)
_VML_SHAPE = (
    '<v:shape id="_x0000_s{id}" type="#_x0000_t202" style="position:absolute;margin-left:59.25pt;'
    'margin-top:1.5pt;width:144px;height:79px;z-index:1;visibility:hidden" fillcolor="#ffffe1" '
    'o:insetmode="auto"><v:fill color2="#ffffe1"/><v:shadow color="black" obscured="t"/>'
    '<v:path o:connecttype="none"/><v:textbox style="mso-direction-alt:auto"><div style="text-align:left"/>'
    '</v:textbox><x:ClientData ObjectType="Note"><x:MoveWithCells/><x:SizeWithCells/>'
    "<x:AutoFill>False</x:AutoFill><x:Row>{row}</x:Row><x:Column>{col}</x:Column></x:ClientData></v:shape>"
)
_LETTERS: dict[int, str] = {}


def write_book(book: Book) -> bytes:
    """The whole package as zip bytes."""
    now = datetime.now(UTC).replace(microsecond=0)
    stamp = now.strftime("%Y-%m-%dT%H:%M:%SZ")
    parts: list[tuple[str, str | bytes]] = []
    overrides = [("/xl/workbook.xml", f"{_CT_MAIN}.sheet.main+xml"), ("/xl/styles.xml", f"{_CT_MAIN}.styles+xml"),
                 ("/docProps/core.xml", "application/vnd.openxmlformats-package.core-properties+xml"),
                 ("/docProps/app.xml", "application/vnd.openxmlformats-officedocument.extended-properties+xml")]
    wb_rels = []
    for i, sheet in enumerate(book.sheets, 1):
        if sheet.written is None:
            sheet.written = (sheet_xml(sheet), comments_xml(sheet) if sheet.notes else "")
        parts.append((f"xl/worksheets/sheet{i}.xml", sheet.written[0]))
        overrides.append((f"/xl/worksheets/sheet{i}.xml", _CT_SHEET))
        wb_rels.append((f"rId{i}", xmlkit.RT_SHEET, f"worksheets/sheet{i}.xml"))
        if sheet.notes:
            parts.append((f"xl/comments/comment{i}.xml", sheet.written[1]))
            parts.append((f"xl/drawings/vmlDrawing{i}.vml", _vml(sheet, i)))
            parts.append((f"xl/worksheets/_rels/sheet{i}.xml.rels", _rels_xml([
                ("rId1", xmlkit.RT_COMMENTS, f"../comments/comment{i}.xml"),
                ("rId2", xmlkit.RT_VML, f"../drawings/vmlDrawing{i}.vml"),
            ])))
            overrides.append((f"/xl/comments/comment{i}.xml", _CT_COMMENTS))
    n = len(book.sheets)
    wb_rels.append((f"rId{n + 1}", xmlkit.RT_STYLES, "styles.xml"))
    parts.append(("xl/styles.xml", _styles(book)))
    if book.theme is not None:
        wb_rels.append((f"rId{n + 2}", xmlkit.RT_THEME, "theme/theme1.xml"))
        parts.append(("xl/theme/theme1.xml", book.theme))
        overrides.append(("/xl/theme/theme1.xml", "application/vnd.openxmlformats-officedocument.theme+xml"))
    parts += [
        ("xl/workbook.xml", _workbook_xml(book)),
        ("xl/_rels/workbook.xml.rels", _rels_xml(wb_rels)),
        ("docProps/core.xml", _core_xml(book, stamp)),
        ("docProps/app.xml", '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/'
                             'extended-properties"><Application>sheetgm</Application></Properties>'),
        ("_rels/.rels", _rels_xml([("rId1", xmlkit.RT_DOC, "xl/workbook.xml"),
                                   ("rId2", xmlkit.RT_CORE, "docProps/core.xml"),
                                   ("rId3", xmlkit.RT_APP, "docProps/app.xml")])),
    ]
    types = "".join(f'<Override PartName="{p}" ContentType="{t}"/>' for p, t in overrides)
    parts.insert(0, ("[Content_Types].xml", (
        f'<Types xmlns="{xmlkit.CT}"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
        'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="vml" '
        f'ContentType="application/vnd.openxmlformats-officedocument.vmlDrawing"/>{types}</Types>')))
    return _zip(book, parts, now)


def _same_bytes(kept: str | bytes, data: str | bytes) -> bool:
    """A part written as bytes (the theme) that was read as text (every part read is kept decoded)."""
    return isinstance(data, bytes) and isinstance(kept, str) and kept.encode("utf-8") == data


def _zip(book: Book, parts: list[tuple[str, str | bytes]], now: datetime) -> bytes:
    """The parts as a zip (deflated). A part whose text is the same as at the last save of this book is not
    compressed again: its compressed bytes are kept (a save after a write to one tab compresses that tab)."""
    when = (now.hour << 11) | (now.minute << 5) | (now.second // 2)
    day = ((now.year - 1980) << 9) | (now.month << 5) | now.day
    out, central, packed = bytearray(), bytearray(), {}
    for name, data in parts:
        kept = book.packed.get(name)
        if kept is not None and (kept[0] == data or _same_bytes(kept[0], data)):
            crc, size, deflated = kept[1], kept[2], kept[3]
        else:
            raw = data.encode("utf-8") if isinstance(data, str) else data
            squeeze = zlib.compressobj(6, zlib.DEFLATED, -15)
            crc, size, deflated = zlib.crc32(raw), len(raw), squeeze.compress(raw) + squeeze.flush()
        packed[name] = (data, crc, size, deflated)
        encoded = name.encode("ascii")
        head = (20, 0, 8, when, day, crc, len(deflated), size, len(encoded))
        central += struct.pack("<IH", 0x02014B50, 20) + struct.pack("<HHHHHIIIH", *head)
        central += struct.pack("<HHHHII", 0, 0, 0, 0, 0, len(out)) + encoded
        out += struct.pack("<I", 0x04034B50) + struct.pack("<HHHHHIIIH", *head) + struct.pack("<H", 0) + encoded
        out += deflated
    book.packed = packed
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(parts), len(parts), len(central), len(out), 0)
    return bytes(out + central + end)


def _styles(book: Book) -> str:
    if book.styles_written is None or book.styles_written[0] != book.styles.version:
        book.styles_written = (book.styles.version, book.styles.xml())
    return book.styles_written[1]


def _rels_xml(rels: list[tuple[str, str, str]]) -> str:
    body = "".join(f'<Relationship Id="{i}" Type="{t}" Target="{xmlkit.attr(target)}"/>' for i, t, target in rels)
    return f'<Relationships xmlns="{xmlkit.PKG_REL}">{body}</Relationships>'


def _workbook_xml(book: Book) -> str:
    visible = [i for i, s in enumerate(book.sheets) if s.state == "visible"] or [0]
    active = book.active if book.active in visible else visible[0]
    sheets = "".join(
        f'<sheet name="{xmlkit.attr(s.name)}" sheetId="{i}"' + ("" if s.state == "visible" else f' state="{s.state}"')
        + f' r:id="rId{i}"/>' for i, s in enumerate(book.sheets, 1))
    pr = '<workbookPr date1904="1"/>' if book.date1904 else "<workbookPr/>"
    if book.structure is not None:
        pr += f"<workbookProtection{xmlkit.attrs(book.structure)}/>"
    return (f'<workbook xmlns="{xmlkit.MAIN}" xmlns:r="{xmlkit.REL}">{pr}'
            f'<bookViews><workbookView activeTab="{active}"/>'
            f'</bookViews><sheets>{sheets}</sheets>{book.defined_names}<calcPr calcId="124519" fullCalcOnLoad="1"/>'
            "</workbook>")


def _core_xml(book: Book, stamp: str) -> str:
    return (
        '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
        f"<dc:creator>{xmlkit.text(book.creator)}</dc:creator><dc:title>{xmlkit.text(book.title)}</dc:title>"
        f'<dcterms:created xsi:type="dcterms:W3CDTF">{xmlkit.text(book.created or stamp)}</dcterms:created>'
        f'<dcterms:modified xsi:type="dcterms:W3CDTF">{stamp}</dcterms:modified></cp:coreProperties>'
    )


def letters(col: int) -> str:
    found = _LETTERS.get(col)
    if found is None:
        found = _LETTERS[col] = col_letters(col)
    return found


def _kept(sheet: Sheet, tags: tuple[str, ...]) -> str:
    return "".join("".join(sheet.kept.get(tag, ())) for tag in tags)


def sheet_xml(sheet: Sheet) -> str:
    rows, cols = sheet.extent()
    out = [f'<worksheet xmlns="{xmlkit.MAIN}" xmlns:r="{xmlkit.REL}">', _kept(sheet, _BEFORE_DATA),
           f'<dimension ref="A1:{letters(cols - 1)}{rows}"/>', _views(sheet),
           "".join(sheet.kept.get("sheetFormatPr", [_FORMAT_PR]))]
    if sheet.cols:
        cols_in_order = sorted(sheet.cols, key=lambda c: c.min)
        body = "".join(f'<col min="{c.min}" max="{c.max}"{xmlkit.attrs(c.attrs)}/>' for c in cols_in_order)
        out.append(f"<cols>{body}</cols>")
    out.append(_data(sheet))
    if sheet.protection is not None:
        out.append(f"<sheetProtection{xmlkit.attrs(sheet.protection)}/>")
    out.append(_kept(sheet, _AFTER_PROTECTION))
    if sheet.validations:
        out.append(f'<dataValidations count="{len(sheet.validations)}">')
        for v in sheet.validations:
            formulas = "".join(f"<{tag}>{xmlkit.text(f)}</{tag}>" for tag, f in (("formula1", v.formula1),
                                                                        ("formula2", v.formula2)) if f is not None)
            out.append(f'<dataValidation{xmlkit.attrs(v.attrs)} sqref="{v.sqref}">{formulas}</dataValidation>')
        out.append("</dataValidations>")
    out.append(_kept(sheet, _AFTER_VALIDATIONS))
    if sheet.notes:
        out.append('<legacyDrawing r:id="rId2"/>')
    out.append("</worksheet>")
    return "".join(out)


def _views(sheet: Sheet) -> str:
    rows, cols = sheet.frozen
    pane = ""
    if rows or cols:
        active = "bottomRight" if rows and cols else ("bottomLeft" if rows else "topRight")
        split = (f' xSplit="{cols}"' if cols else "") + (f' ySplit="{rows}"' if rows else "")
        pane = (f'<pane{split} topLeftCell="{letters(cols)}{rows + 1}" activePane="{active}" state="frozen"/>'
                f'<selection pane="{active}"/>')
    return f"<sheetViews><sheetView{xmlkit.attrs(sheet.view)}>{pane}</sheetView></sheetViews>"


def _data(sheet: Sheet) -> str:
    """The sheet's cells; a row's XML is kept in ``sheet.row_xml`` and made again only when the row changed."""
    kept = sheet.row_xml
    by_row: dict[int, list[tuple[int, Cell]]] = {}
    for (r, c), cell in sheet.cells.items():
        if r not in kept and (cell.kind or cell.style or cell.formula):
            by_row.setdefault(r, []).append((c, cell))
    for r in by_row.keys() | sheet.rows.keys():
        if r not in kept:
            kept[r] = _row(r, by_row.get(r, []), sheet.rows.get(r))
    return "<sheetData>" + "".join([kept[r] for r in sorted(kept)]) + "</sheetData>"


def _row(r: int, cells: list[tuple[int, Cell]], extra: dict[str, str] | None) -> str:
    n = r + 1
    out = [f'<row r="{n}"{xmlkit.attrs(extra) if extra else ""}>']
    for c, cell in sorted(cells, key=_first):
        out.append(_cell(f"{letters(c)}{n}", cell))
    out.append("</row>")
    return "".join(out)


def _first(item: tuple[int, Cell]) -> int:
    return item[0]


def _cell(ref: str, cell: Cell) -> str:
    style = f' s="{cell.style}"' if cell.style else ""
    formula = f"<f{xmlkit.attrs(cell.formula[0])}>{xmlkit.text(cell.formula[1])}</f>" if cell.formula else ""
    kind, value = cell.kind, cell.value
    if kind == "s":
        if formula:
            return f'<c r="{ref}"{style} t="str">{formula}<v>{xmlkit.text(value)}</v></c>'
        space = ' xml:space="preserve"' if value != value.strip() else ""
        return f'<c r="{ref}"{style} t="inlineStr"><is><t{space}>{xmlkit.text(value)}</t></is></c>'
    if kind == "n":  # escaped too: a malformed file may hold any text as a number, and it is kept as read
        return f'<c r="{ref}"{style}>{formula}<v>{xmlkit.text(value)}</v></c>'
    if kind in ("b", "e", "d"):
        return f'<c r="{ref}"{style} t="{kind}">{formula}<v>{xmlkit.text(value)}</v></c>'
    return f'<c r="{ref}"{style}>{formula}</c>' if formula else f'<c r="{ref}"{style}/>'


def comments_xml(sheet: Sheet) -> str:
    authors = sorted({author for _text, author in sheet.notes.values()})
    index = {a: i for i, a in enumerate(authors)}
    body = "".join(
        f'<comment ref="{letters(c)}{r + 1}" authorId="{index[author]}"><text><t xml:space="preserve">'
        f"{xmlkit.text(note)}</t></text></comment>"
        for (r, c), (note, author) in sorted(sheet.notes.items())
    )
    names = "".join(f"<author>{xmlkit.text(a)}</author>" for a in authors)
    return f'<comments xmlns="{xmlkit.MAIN}"><authors>{names}</authors><commentList>{body}</commentList></comments>'


def _vml(sheet: Sheet, index: int) -> str:
    shapes = "".join(_VML_SHAPE.format(id=index * 1024 + i, row=r, col=c)
                     for i, (r, c) in enumerate(sorted(sheet.notes), 1))
    return _VML_HEAD.format(n=index) + shapes + "</xml>"
