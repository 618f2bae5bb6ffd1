"""Pictures sheetgm places over a tab (a player's route picture on the Current tab, RUL-61).

A picture is a drawing part holding one anchored picture, its PNG in ``xl/media``, the sheet's ``<drawing>``
element and the relationships between them. sheetgm's own picture is known by its shape name
(``sheetgm:<name>``), which LibreOffice and Excel keep through a save; placing the same name again replaces
the drawing whole, and placing the same PNG at the same place changes nothing (no save is owed). A drawing
that holds anything else (a person's own shape or chart) is never touched: the picture is then not placed.
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING

from sheetgm.backends import port
from sheetgm.backends.a1 import A1
from sheetgm.backends.xlsx import xmlkit
from sheetgm.backends.xlsx.book import RANK, Book, Picture, Rel, Sheet
from sheetgm.backends.xlsx.deflate import inflate
from sheetgm.backends.xlsx.package import Part, rels_path, resolve_target
from sheetgm.core.values import Value, record

if TYPE_CHECKING:  # the writer's plan (write.py imports this module)
    from sheetgm.backends.xlsx.write import _Plan

RT_DRAWING = xmlkit.REL + "/drawing"
RT_IMAGE = xmlkit.REL + "/image"
DRAWING_TYPE = "application/vnd.openxmlformats-officedocument.drawing+xml"
PREFIX = "sheetgm:"
EMU = 9525  # English metric units in a pixel (at 96 dpi)
MAX_PICTURE = 16 * 1024 * 1024  # bytes of a picture compared with the one asked for (ours are ~100 kB)
_XDR = "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"
_A = "http://schemas.openxmlformats.org/drawingml/2006/main"
_ANCHORS = re.compile(rb"<(?:[\w.-]+:)?(?:oneCellAnchor|twoCellAnchor|absoluteAnchor)\b")
_NAMES = re.compile(rb"<(?:[\w.-]+:)?cNvPr\b[^>]*?\bname=\"([^\"]*)\"")
_EMBED = re.compile(rb"\bembed=\"([^\"]+)\"")


def _same(p: Picture, png: bytes, where: tuple[int, int, int, int]) -> bool:
    """Whether the file shows ``p``: the same PNG on the same cell at the same size."""
    return png == p.png and where == (p.row, p.col, p.width, p.height)


@record(frozen=True)
class _Found(Value):
    """A sheet's drawing as the file holds it."""

    rel: Rel
    part: str
    ours: bool  # every anchor in it is a picture sheetgm placed
    names: tuple[str, ...]  # the shapes' names
    png: bytes  # our single picture's PNG when ``ours`` (b"": none or unreadable)
    where: tuple[int, int, int, int]  # its cell (row, col) and size in pixels


def _part_bytes(book: Book, name: str, limit: int = MAX_PICTURE) -> bytes | None:
    part: Part | None = book.parts.get(name)
    if part is None or part.size > limit:
        return None
    if part.data is not None:
        return part.data
    if part.raw is None:
        return None
    try:
        return inflate(part.raw)
    except Exception:  # a damaged part: not ours to judge here, the picture is placed anew
        return None


def _rels_of(book: Book, name: str) -> list[Rel]:
    data = _part_bytes(book, rels_path(name), 1024 * 1024)
    if data is None:
        return []
    out = []
    for found in re.finditer(rb"<(?:[\w.-]+:)?Relationship\b([^>]*)/?>", data):
        attrs = dict(re.findall(rb'(\w+)="([^"]*)"', found.group(1)))
        out.append(Rel(attrs.get(b"Id", b"").decode(), attrs.get(b"Type", b"").decode(),
                       attrs.get(b"Target", b"").decode(), attrs.get(b"TargetMode", b"").decode()))
    return out


def found(book: Book, sheet: Sheet) -> _Found | None:
    """The sheet's drawing, if it has one (read from its parts: what the file holds, not what we wrote)."""
    rel = next((r for r in sheet.rels if r.type == RT_DRAWING and not r.mode), None)
    if rel is None or not sheet.part:
        return None
    part = resolve_target(sheet.part, rel.target)
    data = _part_bytes(book, part, 4 * 1024 * 1024)
    if data is None:
        return _Found(rel, part, False, (), b"", (0, 0, 0, 0))
    names = tuple(n.decode("utf-8", "replace") for n in _NAMES.findall(data))
    anchors = len(_ANCHORS.findall(data))
    ours = anchors == 1 and len(names) == 1 and names[0].startswith(PREFIX)
    png, where = b"", (0, 0, 0, 0)
    if ours:
        embed = _EMBED.search(data)
        media = next((resolve_target(part, r.target) for r in _rels_of(book, part)
                      if embed is not None and r.id == embed.group(1).decode()), None)
        found_png = _part_bytes(book, media) if media else None
        found_where = _where(data)
        if found_png is not None and found_where is not None:
            png, where = found_png, found_where
    return _Found(rel, part, ours, names, png, where)


def _where(data: bytes) -> tuple[int, int, int, int] | None:
    """The anchor's cell (row, col) and size in pixels of a one-cell anchor as sheetgm writes it."""
    col = re.search(rb"<(?:[\w.-]+:)?col>(\d+)<", data)
    row = re.search(rb"<(?:[\w.-]+:)?row>(\d+)<", data)
    ext = re.search(rb"<(?:[\w.-]+:)?ext\b[^>]*\bcx=\"(\d+)\"[^>]*\bcy=\"(\d+)\"", data)
    if col is None or row is None or ext is None:
        return None
    return int(row.group(1)), int(col.group(1)), round(int(ext.group(1)) / EMU), round(int(ext.group(2)) / EMU)


def place(book: Book, sheet: Sheet, op: port.PlaceImage, at: A1) -> None:
    """Ask for ``op``'s picture on ``sheet`` at the next save, unless the file shows it there already or the
    sheet's drawing is a person's own."""
    want = Picture(op.name, op.png, at.start_row, at.start_col, op.width, op.height)
    if sheet.picture is not None:  # asked already in this batch: the last ask wins
        sheet.picture = want
        return
    drawing = found(book, sheet)
    if drawing is not None and not drawing.ours:
        return  # a drawing of someone else's: left as it is
    if drawing is None and not op.png:
        return  # nothing to remove
    if drawing is not None and op.png and drawing.names == (PREFIX + op.name,) and _same(want, drawing.png,
                                                                                        drawing.where):
        return  # the same picture at the same place
    sheet.picture = want
    sheet.touch_outside_rows()


def plan(writer: _Plan, sheet: Sheet, rels: list[Rel], i: int) -> list[Rel]:
    """The sheet's relationships once its asked-for picture replaces its drawing (parts added to the writer's
    plan; the old drawing's parts dropped). The sheet's ``<drawing>`` element follows."""
    want = sheet.picture
    assert want is not None
    old = next((r for r in rels if r.type == RT_DRAWING and not r.mode), None)
    if old is not None:
        part = resolve_target(sheet.part, old.target)
        gone = {part, rels_path(part)}
        gone |= {resolve_target(part, r.target) for r in _rels_of(writer.book, part) if not r.mode}
        writer.dropped |= gone
        writer.taken -= gone
        rels = [r for r in rels if r is not old]
    sheet.kept = [k for k in sheet.kept if k[1] != "drawing"]
    sheet.written = None
    if not want.png:
        return rels
    ids = {r.id for r in rels}
    rid = _fresh(ids)
    d_path = writer.free_name("xl/drawings/sheetgm-drawing{}.xml", i)
    m_path = writer.free_name("xl/media/sheetgm-picture{}.png", i)
    rels = [*rels, Rel(rid, RT_DRAWING, _relative(d_path, sheet.part))]
    image_rel = Rel("rId1", RT_IMAGE, _relative(m_path, d_path))
    writer.parts += [(d_path, drawing_xml(want, "rId1")), (rels_path(d_path), _rels_xml([image_rel])),
                     (m_path, want.png)]
    writer.types["/" + d_path] = DRAWING_TYPE
    writer.types["/" + m_path] = "image/png"
    writer.pictures |= {d_path, rels_path(d_path), m_path}
    root = xmlkit.with_default_namespace(sheet.root) if sheet.root else ""
    declared = not root or f'xmlns:r="{xmlkit.REL}"' in root
    sheet.kept.append((RANK["drawing"], "drawing",
                       f'<drawing{"" if declared else f" xmlns:r={chr(34)}{xmlkit.REL}{chr(34)}"} r:id="{rid}"/>'))
    sheet.kept.sort(key=lambda k: k[0])
    return rels


def drawing_xml(p: Picture, embed: str) -> str:
    cx, cy = p.width * EMU, p.height * EMU
    name = xmlkit.attr(PREFIX + p.name)
    return (f'<xdr:wsDr xmlns:xdr="{_XDR}" xmlns:a="{_A}" xmlns:r="{xmlkit.REL}"><xdr:oneCellAnchor>'
            f"<xdr:from><xdr:col>{p.col}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>{p.row}</xdr:row>"
            f'<xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:ext cx="{cx}" cy="{cy}"/><xdr:pic><xdr:nvPicPr>'
            f'<xdr:cNvPr id="2" name="{name}" descr="{name}"/><xdr:cNvPicPr><a:picLocks noChangeAspect="1"/>'
            f'</xdr:cNvPicPr></xdr:nvPicPr><xdr:blipFill><a:blip r:embed="{embed}"/><a:stretch><a:fillRect/>'
            f'</a:stretch></xdr:blipFill><xdr:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="{cx}" cy="{cy}"/>'
            '</a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></xdr:spPr></xdr:pic><xdr:clientData/>'
            "</xdr:oneCellAnchor></xdr:wsDr>")


def pictures(book: Book) -> dict[str, dict[str, bytes]]:
    """Tab -> {name: PNG} of the pictures sheetgm placed, as the file holds them (tests, audit)."""
    out: dict[str, dict[str, bytes]] = {}
    for sheet in book.sheets:
        drawing = found(book, sheet)
        if drawing is None or not drawing.ours:
            continue
        data = _part_bytes(book, drawing.part) or b""
        embed = _EMBED.search(data)
        media = next((resolve_target(drawing.part, r.target) for r in _rels_of(book, drawing.part)
                      if embed is not None and r.id == embed.group(1).decode()), None)
        png = _part_bytes(book, media) if media else None
        if png is not None:
            out.setdefault(sheet.name, {})[drawing.names[0][len(PREFIX):]] = png
    return out


def _fresh(ids: set[str]) -> str:
    n = 1
    while f"rId{n}" in ids:
        n += 1
    return f"rId{n}"


def _relative(target: str, base: str) -> str:
    return posixpath.relpath(target, posixpath.dirname(base) or ".")


def _rels_xml(rels: list[Rel]) -> str:
    body = "".join(f'<Relationship Id="{xmlkit.attr(r.id)}" Type="{xmlkit.attr(r.type)}" '
                   f'Target="{xmlkit.attr(r.target)}"/>' for r in rels)
    return f'<Relationships xmlns="{xmlkit.PKG_REL}">{body}</Relationships>'
