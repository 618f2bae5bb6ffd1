"""A sheet as XML: its cells, rows and the elements the codec models, among those it carries as written.

New text is written as inline strings (no shared-string table to rebuild); a text read from the file's
shared-string table and not changed since is written as that entry (its rich text and phonetic guides stay).
Notes are a comments part with the VML drawing Excel needs to show them. A row's XML is kept until that row
changes, so a tab that grows (the Map history) is not serialized whole again for a few new rows.
"""

from __future__ import annotations

from typing import cast

from sheetgm.backends.a1 import col_letters
from sheetgm.backends.xlsx import kept, xmlkit
from sheetgm.backends.xlsx.book import RANK, Cell, Sheet

_FORMAT_PR = '<sheetFormatPr baseColWidth="8" defaultRowHeight="15"/>'
ROOT = f'<worksheet xmlns="{xmlkit.MAIN}" xmlns:r="{xmlkit.REL}">'
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
_INLINE: dict[str, str] = {}  # a text -> the end of its cell's XML (a map's few symbols recur in every row)


def letters(col: int) -> str:
    found = _LETTERS.get(col)
    if found is None:
        found = _LETTERS[col] = col_letters(col)
    return found


_SPLICE = "\x00rows\x00"  # where the rows as read go (no XML holds a NUL)


def sheet_bytes(sheet: Sheet, legacy: str | None = None) -> str | bytes:
    """``sheet_xml``, as UTF-8 where the rows as read are all kept: their bytes as the file held them go in as
    they are, not decoded and encoded again (a player's Map history, ~150 kB a save)."""
    p = sheet.pending
    if p is None or p.taken:
        return sheet_xml(sheet, legacy)
    before, after = sheet_xml(sheet, legacy, _SPLICE).split(_SPLICE)
    return b"".join((before.encode("utf-8"), p.raw_rows(), after.encode("utf-8")))


def sheet_xml(sheet: Sheet, legacy: str | None = None, splice: str = "") -> str:
    """The sheet's XML: the elements it models made from it, every other element as it was written, in the
    schema's order. ``legacy``: the relationship id of the notes' drawing when the notes are written anew
    ("" for no notes any more), None when the notes' parts are kept as they are (with their element).
    ``splice``: written in place of the rows as read (``sheet_bytes``), when none of them was taken."""
    rows, cols = sheet.extent()
    made: list[tuple[float, str, str]] = [(RANK["dimension"], "", f'<dimension ref="A1:{letters(cols - 1)}{rows}"/>'),
                                          (RANK["sheetViews"], "", _views(sheet))]
    if not any(name == "sheetFormatPr" for _rank, name, _xml in sheet.kept):
        made.append((RANK["sheetFormatPr"], "", _FORMAT_PR))
    if sheet.cols:
        made.append((RANK["cols"], "", _cols(sheet)))
    made.append((RANK["sheetData"], "", _data(sheet, splice)))
    if sheet.protection is not None:
        made.append((RANK["sheetProtection"], "", f"<sheetProtection{xmlkit.attrs(sheet.protection)}/>"))
    if sheet.validations:
        out = [f'<dataValidations count="{len(sheet.validations)}">']
        for v in sheet.validations:
            formulas = "".join(f"<{tag}>{xmlkit.text(f)}</{tag}>" for tag, f in (("formula1", v.formula1),
                                                                        ("formula2", v.formula2)) if f is not None)
            out.append(f'<dataValidation{xmlkit.attrs(v.attrs)} sqref="{xmlkit.attr(v.sqref)}">{formulas}'
                       "</dataValidation>")
        out.append("</dataValidations>")
        made.append((RANK["dataValidations"], "", "".join(out)))
    kept = sheet.kept
    root = xmlkit.with_default_namespace(sheet.root or ROOT)  # ours are unprefixed
    if legacy is not None:
        kept = [k for k in kept if k[1] != "legacyDrawing"]
        if legacy:
            made.append((RANK["legacyDrawing"], "legacyDrawing", legacy_xml(root, legacy)))
    body = "".join(xml for _rank, _name, xml in sorted([*kept, *made], key=_rank_of))
    return f"{root}{body}{_end(root)}"


_COLS: dict[tuple[tuple[int, int, tuple[tuple[str, str], ...]], ...], str] = {}  # a sheet's columns -> <cols>


def _cols(sheet: Sheet) -> str:
    """The <cols> element, made once per process for each set of columns (a stage's map sets the same widths in
    every player's tabs)."""
    key = tuple([(c.min, c.max, tuple(c.attrs.items())) for c in sheet.cols])
    found = _COLS.get(key)
    if found is None:
        cols_in_order = sorted(sheet.cols, key=lambda c: c.min)
        body = "".join(f'<col min="{c.min}" max="{c.max}"{xmlkit.attrs(c.attrs)}/>' for c in cols_in_order)
        if len(_COLS) >= 256:
            _COLS.clear()
        found = _COLS[key] = f"<cols>{body}</cols>"
    return found


def legacy_xml(root: str, rid: str) -> str:
    """The element pointing at the notes' drawing (declaring the relationships' prefix if the root does not)."""
    declared = f'xmlns:r="{xmlkit.REL}"' in root
    return f'<legacyDrawing{"" if declared else f" xmlns:r={chr(34)}{xmlkit.REL}{chr(34)}"} r:id="{rid}"/>'


def _rank_of(item: tuple[float, str, str]) -> float:
    return item[0]


def _end(root: str) -> str:
    name = root[1:].split(None, 1)[0].rstrip(">").rstrip("/")
    return f"</{name}>"


def _views(sheet: Sheet) -> str:
    rows, cols = sheet.frozen
    pane = ""
    if rows or cols:
        active = "bottomRight" if rows and cols else ("bottomLeft" if rows else "topRight")
        split = (f' xSplit="{cols}"' if cols else "") + (f' ySplit="{rows}"' if rows else "")
        pane = (f'<pane{split} topLeftCell="{letters(cols)}{rows + 1}" activePane="{active}" state="frozen"/>'
                f'<selection pane="{active}"/>')
    return f"<sheetViews><sheetView{xmlkit.attrs(sheet.view)}>{pane}</sheetView></sheetViews>"


def _data(sheet: Sheet, splice: str = "") -> str:
    """The sheet's cells; a row's XML is kept in ``sheet.row_xml`` and made again only when the row changed.
    ``splice``: in place of the rows as read, when none of them was taken."""
    kept, pending = sheet.row_xml, sheet.pending
    last = pending.last if pending is not None else -1  # the rows as read and not parsed: written as they were
    taken = pending.taken if pending is not None else set()  # of them, those parsed one by one since
    by_row: dict[int, list[tuple[int, Cell]]] = {}
    for (r, c), cell in sheet.taken_cells().items():
        if r not in kept and (cell.kind or cell.style or cell.formula or cell.extra):
            found = by_row.get(r)
            if found is None:
                by_row[r] = [(c, cell)]
            else:
                found.append((c, cell))
    dims = sheet.rows
    make = _row if len(by_row) <= _MEMO_ROWS else _row_anew
    for r in by_row.keys() | dims.keys() if dims else by_row:
        if r not in kept and (r > last or r in taken):
            kept[r] = make(r, by_row.get(r, []), dims.get(r))
    if pending is None:
        head = ""
    elif not taken:
        head = splice or pending.text()
    else:  # the rows as read, each row taken as it is now (gone if it holds nothing any more), in order
        rows = {r: xml for r, xml in pending.row_texts().items() if r not in taken}
        rows.update((r, kept[r]) for r in taken if r in kept)
        head = "".join([rows[r] for r in sorted(rows)])
    return "<sheetData>" + head + "".join([kept[r] for r in sorted(kept) if r > last]) + "</sheetData>"


_ROWS: dict[tuple[object, ...], str] = {}  # a row's content -> its XML (``_row``)
# Rows to make, at most, for the memo to be asked: the rows of a game's tabs recur in every player's workbook
# (hundreds); tens of thousands of rows are a file's own, where a row's key cost as much as its XML.
_MEMO_ROWS = 20_000


def _row_anew(r: int, cells: list[tuple[int, Cell]], extra: dict[str, str] | None) -> str:
    cells.sort(key=_first)
    return made_row(r, cells, extra)


def _row(r: int, cells: list[tuple[int, Cell]], extra: dict[str, str] | None) -> str:
    """A row's XML, made once per process for each content: the rows of a stage's map are the same in most
    players' workbooks (a key is made ten times faster than the XML)."""
    cells.sort(key=_first)
    for _c, cell in cells:
        if cell.formula is not None:
            return made_row(r, cells, extra)
    key = (r, tuple(extra.items()) if extra else (),
           *[(c, cell.style, cell.kind, cell.value, cell.sst, cell.extra, cell.raw) for c, cell in cells])
    found = _ROWS.get(key)
    if found is None:
        if len(_ROWS) >= 2048:  # (a key and its row: a few kB)
            _ROWS.clear()
        found = kept.get("wrow", key)
        if found is None:
            found = made_row(r, cells, extra)
            kept.note("wrow", key, found)
        _ROWS[key] = found
    return found


def made_row(r: int, cells: list[tuple[int, Cell]], extra: dict[str, str] | None) -> str:
    n = str(r + 1)
    out = [f'<row r="{n}"{xmlkit.attrs(extra) if extra else ""}>']
    known, inline = _LETTERS, _INLINE
    for c, cell in cells:
        ref = (known.get(c) or letters(c)) + n
        # the usual cells (a map's), made here: a format only, or a text of the writer's own
        if cell.formula is None and not cell.extra and cell.raw is None and (
                not cell.kind or (cell.kind == "s" and cell.sst < 0)):
            style = f' s="{cell.style}"' if cell.style else ""
            if not cell.kind:
                out.append(f'<c r="{ref}"{style}/>')
                continue
            end = inline.get(cell.value)
            if end is not None:
                out.append(f'<c r="{ref}"{style}{end}')
                continue
        out.append(_cell(ref, cell))
    out.append("</row>")
    return "".join(out)


def _first(item: tuple[int, Cell]) -> int:
    return item[0]


def _cell(ref: str, cell: Cell) -> str:
    style = f' s="{cell.style}"' if cell.style else ""
    if cell.extra:
        style += cell.extra
    formula = _formula_xml(cell.formula) if cell.formula else ""
    kind, value = cell.kind, cell.value
    if kind == "s":
        if formula:
            result = cell.raw[1] if cell.raw is not None and cell.raw[0] == value else xmlkit.text(xmlkit.escape(value))
            return f'<c r="{ref}"{style} t="str">{formula}<v>{result}</v></c>'
        if cell.sst >= 0:  # the file's own entry, with its runs and phonetic guides
            return f'<c r="{ref}"{style} t="s"><v>{cell.sst}</v></c>'
        raw = cell.raw
        if raw is not None and raw[0] == value:  # the text as the file wrote it (``Cell.raw``)
            return f'<c r="{ref}"{style} t="inlineStr"><is>{raw[1]}</is></c>'
        return f'<c r="{ref}"{style}{inline_end(value)}'
    if kind == "n":  # escaped too: a malformed file may hold any text as a number, and it is kept as read
        return f'<c r="{ref}"{style}>{formula}<v>{xmlkit.text(value)}</v></c>'
    if kind in ("b", "e", "d"):
        return f'<c r="{ref}"{style} t="{kind}">{formula}<v>{xmlkit.text(value)}</v></c>'
    return f'<c r="{ref}"{style}>{formula}</c>' if formula else f'<c r="{ref}"{style}/>'


_LAST_FORMULA: list[object] = [None, ""]  # the formula last written and its XML: a formula filled down is one


def _formula_xml(formula: tuple[dict[str, str], str]) -> str:
    if formula is _LAST_FORMULA[0]:
        return cast(str, _LAST_FORMULA[1])
    xml = f"<f{xmlkit.attrs(formula[0])}>{xmlkit.text(formula[1])}</f>"
    _LAST_FORMULA[:] = formula, xml
    return xml


def inline_end(value: str) -> str:
    """The end of the XML of a cell holding ``value`` as an inline text, after its reference and style."""
    inline = _INLINE.get(value)
    if inline is None:
        if len(_INLINE) >= 20_000:
            _INLINE.clear()
        space = ' xml:space="preserve"' if value != value.strip() else ""
        inline = _INLINE[value] = f' t="inlineStr"><is><t{space}>{xmlkit.text(xmlkit.escape(value))}</t></is></c>'
    return inline


def comments_xml(sheet: Sheet) -> str:
    authors = sorted({author for _text, author in sheet.notes.values()})
    index = {a: i for i, a in enumerate(authors)}
    body = "".join(
        f'<comment ref="{letters(c)}{r + 1}" authorId="{index[author]}"><text><t xml:space="preserve">'
        f"{xmlkit.text(xmlkit.escape(note, controls=False))}</t></text></comment>"
        for (r, c), (note, author) in sorted(sheet.notes.items())
    )
    names = "".join(f"<author>{xmlkit.text(a)}</author>" for a in authors)
    return f'<comments xmlns="{xmlkit.MAIN}"><authors>{names}</authors><commentList>{body}</commentList></comments>'


def vml_xml(sheet: Sheet, index: int) -> str:
    shapes = "".join(_VML_SHAPE.format(id=index * 1024 + i, row=r, col=c)
                     for i, (r, c) in enumerate(sorted(sheet.notes), 1))
    return _VML_HEAD.format(n=index) + shapes + "</xml>"
