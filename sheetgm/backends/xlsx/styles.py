"""A workbook's style table (``xl/styles.xml``): what a cell's style index means, and new styles made from old.

Every entry (a font, a fill, a border, a cell format ``xf``) is kept as the XML text it was read as, so
that every detail a person gave it in LibreOffice or Excel survives, reading is slicing text (no tree to
build for a table of hundreds of entries) and writing is joining it. An entry is parsed only when a
cell's look is asked for or a new style is made from it. The gateway changes one thing at a time (a
fill, bold, one border side, wrapping); each change of each style is computed once and reused, and a new
entry equal to an existing one is that one: a map of a hundred cells costs a handful of new styles, and a
second process making the same change finds the entry the first one added.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar
from xml.etree.ElementTree import Element, fromstring

from sheetgm.backends.xlsx import kept
from sheetgm.backends.xlsx.xmlkit import (
    MAIN,
    attr,
    attrs,
    local,
    m,
    plain_attrs,
    skeleton,
    to_xml,
    with_default_namespace,
)

SIDES = ("left", "right", "top", "bottom")
_BORDER_ORDER = ("start", "end", "left", "right", "top", "bottom", "diagonal", "vertical", "horizontal")
# No theme colour or theme font: a workbook written from scratch has no theme part.
DEFAULT_FONT = '<font><sz val="11"/><color rgb="FF000000"/><name val="Calibri"/><family val="2"/></font>'
_NO_FILL = '<fill><patternFill/></fill>'
_GRAY_FILL = '<fill><patternFill patternType="gray125"/></fill>'
_NO_BORDER = "<border><left/><right/><top/><bottom/><diagonal/></border>"
_PLAIN_XF = '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
_NORMAL_STYLE = '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
_NORMAL_NAME = '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
# Built-in number formats that show dates or times (ECMA-376 18.8.30).
_DATE_IDS = frozenset(range(14, 23)) | {45, 46, 47}
_LITERALS = re.compile(r'"[^"]*"|\[(?!hh?\]|mm?\]|ss?\])[^\]]*\]|\\.', re.I)
_ELAPSED = re.compile(r"\[(hh?|mm?|ss?)\]", re.I)
_TAIL = ("dxfs", "tableStyles", "colors", "extLst")  # kept as they are, written after the cell styles
_GROUPS = {"fonts": "font", "fills": "fill", "borders": "border", "cellXfs": "xf"}
_ATTR = {"fonts": "fonts", "fills": "fills", "borders": "borders", "cellXfs": "xfs"}
_PREFIXED = re.compile(r"</?[A-Za-z_][\w.-]*:|\s(?!xml:)[A-Za-z_][\w.-]*:[\w.-]+\s*=|<!--|<\?|<!\[")


class Xf(NamedTuple):
    """One cell format: indices into the number formats, fonts, fills and borders, and its alignment."""

    num_fmt: int = 0
    font: int = 0
    fill: int = 0
    border: int = 0
    xf_id: int = 0
    alignment: tuple[tuple[str, str], ...] = ()
    protection: tuple[tuple[str, str], ...] = ()
    extra: tuple[tuple[str, str], ...] = ()  # other attributes (quotePrefix...), as read


class Line:
    """Where a style table stands among the copies of one parsed table: the copies at one ``Line`` hold equal
    entries (the same table, then the same entries added in the same order), so a change worked out on one of
    them is known to the others: 160 players' workbooks of a game hold a few distinct tables, and each stage
    makes the same map formats in each (``Styles.derive_all``)."""

    __slots__ = ("next", "known", "each")

    def __init__(self) -> None:
        self.next: dict[tuple[str, str], Line] = {}  # an entry added -> the line after it
        # (xf, changes) -> (the new format, the entries it adds in order)
        self.known: dict[tuple[int, tuple[tuple[object, ...], ...]], tuple[int, tuple[tuple[str, str], ...]]] = {}
        # (xf, a plan's identity) -> (the plan, kept, its formats, the entries they add in order): ``derive_each``
        self.each: dict[tuple[int, int], tuple[object, tuple[int, ...], tuple[tuple[str, str], ...]]] = {}

    def after(self, group: str, item: str) -> Line:
        found = self.next.get((group, item))
        if found is None:
            found = self.next[(group, item)] = Line()
        return found


class Styles:
    def __init__(self) -> None:
        self.num_fmts: dict[int, str] = {}
        self.fonts: list[str] = [DEFAULT_FONT]
        self.fills: list[str] = [_NO_FILL, _GRAY_FILL]
        self.borders: list[str] = [_NO_BORDER]
        self.xfs: list[str] = [_PLAIN_XF]
        self.head = _NORMAL_STYLE  # cellStyleXfs
        self.names = _NORMAL_NAME  # cellStyles
        self.tail: list[str] = []
        self.root = ""  # the part's root start tag as read (its namespace declarations); "" for a new table
        self._parsed: dict[int, Xf] = {}
        self._index: dict[tuple[str, str], int] = {}
        self._indexed: set[str] = set()
        self._derived: dict[tuple[int, tuple[object, ...]], int] = {}
        self._derived_all: dict[tuple[int, tuple[tuple[object, ...], ...]], int] = {}
        self._looks: dict[int, tuple[str | None, bool, dict[str, str]]] = {}
        self.version = 0  # bumped by every new entry: the writer reuses its text while it stays
        self.line: Line | None = None  # shared with the copies of equal tables (``share``); None: not shared
        self._added: list[tuple[str, str]] | None = None  # entries added while a derive_all is worked out

    def copy(self) -> Styles:
        """An independent table equal to this one (entries are immutable text, shared; what is learnt of them
        is kept)."""
        out = Styles.__new__(Styles)
        out.__dict__.update(self.__dict__)
        for name in ("fonts", "fills", "borders", "xfs", "tail"):
            setattr(out, name, list(getattr(self, name)))
        for name in ("num_fmts", "_parsed", "_index", "_derived", "_derived_all", "_looks"):
            setattr(out, name, dict(getattr(self, name)))
        out._indexed = set(self._indexed)
        out._added = None
        return out

    def share(self) -> Styles:
        """Let the copies of this table learn from each other's changes (``Line``); the table itself."""
        self.line = Line()
        return self

    # -- reading ----------------------------------------------------------

    @classmethod
    def parse(cls, data: bytes) -> Styles:
        """The table: its entries sliced from the text where they are plain SpreadsheetML (through a tree
        otherwise: a prefix, a comment; their namespaces and meaning live outside the slices), the root and
        every other element of the part (cell styles, differential formats, table styles, colours, extensions)
        kept as written."""
        skel = skeleton(data)
        st = cls()
        st.root = skel.root
        groups: dict[str, str] = {}
        for name, xml in skel.children:
            if name in _GROUPS or name == "numFmts":
                groups[name] = xml
            elif name == "cellStyleXfs":
                st.head = xml
            elif name == "cellStyles":
                st.names = xml
            elif name in _TAIL:
                st.tail.append(xml)
            # another element (mc:AlternateContent...) has no place among those written anew: it is dropped
            # when the table changes, and kept with the part while it does not
        slices = []
        for tag, item in _GROUPS.items():
            body = re.match(rf"<{tag}\b[^>]*?(?:/>|>(.*)</{tag}>)\Z", groups.get(tag, ""), re.S)
            found = re.findall(rf"<{item}\b[^>]*?(?:/>|>.*?</{item}>)", body.group(1) or "", re.S) if body else []
            if found:
                setattr(st, "xfs" if tag == "cellXfs" else tag, found)
                slices += found
        if "numFmts" in groups:
            slices.append(groups["numFmts"])
        if any(not found for tag in _GROUPS if tag in groups for found in [getattr(st, _ATTR[tag])]) or \
                _PREFIXED.search("".join(slices)) or _PREFIXED.search("".join(groups.values())):
            tree = cls._parse_tree(fromstring(data))
            tree.root, tree.head, tree.names, tree.tail = st.root, st.head, st.names, st.tail
            return tree
        for nf in fromstring(groups["numFmts"]) if "numFmts" in groups else []:
            st.num_fmts[int(nf.get("numFmtId", "0"))] = nf.get("formatCode", "")
        return st

    def plain(self) -> tuple[object, ...]:
        """What ``parse`` read, as plain data (``kept``): ``from_plain`` makes the same table of it."""
        return (self.root, self.head, self.names, tuple(self.tail), tuple(self.num_fmts.items()), tuple(self.fonts),
                tuple(self.fills), tuple(self.borders), tuple(self.xfs))

    @classmethod
    def from_plain(cls, plain: tuple[Any, ...]) -> Styles:
        st = cls()
        st.root, st.head, st.names, tail, num_fmts, fonts, fills, borders, xfs = plain
        st.tail, st.num_fmts, st.fonts, st.fills = list(tail), dict(num_fmts), list(fonts), list(fills)
        st.borders, st.xfs = list(borders), list(xfs)
        return st

    @classmethod
    def _parse_tree(cls, root: Element) -> Styles:
        """The entries through a tree: written back without prefixes, in the main namespace. An entry given as
        ``mc:AlternateContent`` (Hancell's fonts) is one entry: its fallback's, else its first choice's."""
        st = cls()
        found = root.find(m("numFmts"))
        for nf in _entries(found, m("numFmt")) if found is not None else []:
            st.num_fmts[_int(nf.get("numFmtId", "0"))] = nf.get("formatCode", "")
        for tag, item in _GROUPS.items():
            group = root.find(m(tag))
            entries = _entries(group, m(item)) if group is not None else []
            if entries:
                setattr(st, "xfs" if tag == "cellXfs" else tag, [to_xml(el) for el in entries])
        return st

    def xf(self, i: int) -> Xf:
        """Cell format ``i`` (the plain one if there is no such index)."""
        if i not in self._parsed:
            self._parsed[i] = _xf_of(self.xfs[i]) if 0 <= i < len(self.xfs) else Xf()
        return self._parsed[i]

    def date_kind(self, xf: int) -> str:
        """How numbers in cells of this format show: "date" (a date, a time or both), "duration" (elapsed
        time: ``[h]:mm:ss``), or "" (as numbers)."""
        fmt = self.xf(xf).num_fmt
        if fmt in _DATE_IDS:
            return "duration" if fmt == 46 else "date"
        code = self.num_fmts.get(fmt)
        if not code:
            return ""
        first = _LITERALS.sub("", code.split(";")[0])
        if _ELAPSED.search(first):
            return "duration"
        return "date" if re.search(r"[dmhysDMHYS]", first) else ""

    def locked(self, xf: int) -> bool:
        """Whether a cell of this format is locked when its tab is protected (the default)."""
        return _locked(self.xf(xf).protection)

    def unlocked(self) -> list[int]:
        """The cell formats that leave a cell open (few: those of the cells a player types in)."""
        return [i for i, xml in enumerate(self.xfs) if "locked" in xml and not self.locked(i)]

    def lock_default(self) -> bool:
        """Lock the plain format (index 0, what a cell without a style has) if it was unlocked; whether it was."""
        if self.locked(0) or not self.xfs:
            return False
        x = self.xf(0)
        self.xfs[0] = _xf_xml(x._replace(protection=tuple((k, v) for k, v in x.protection if k != "locked")))
        self._parsed.pop(0, None)
        self._index, self._indexed, self._derived, self._derived_all = {}, set(), {}, {}
        self.version += 1
        self.line = None  # changed in place, not by an entry added: no longer equal to the other copies
        return True

    def look(self, xf: int) -> tuple[str | None, bool, dict[str, str]]:
        """(background "#rrggbb" or None, bold, border side -> style) of a cell format."""
        if xf not in self._looks:
            x = self.xf(xf)
            fill, font, border = (group[i] if 0 <= i < len(group) else "" for group, i in (
                (self.fills, x.fill), (self.fonts, x.font), (self.borders, x.border)))
            self._looks[xf] = (_solid(fill), _bold(font), dict(_sides(border)))
        return self._looks[xf]

    # -- new styles from old ----------------------------------------------

    def derive(self, xf: int, change: tuple[object, ...]) -> int:
        """The format ``xf`` with one change: ("fill", rgb|None), ("bold", bool), ("border", side, style|None),
        ("wrap",) for wrapped text aligned at the top, or ("locked", bool)."""
        key = (xf, change)
        if key not in self._derived:
            x = self.xf(xf)
            kind = change[0]
            if kind == "fill":
                rgb = change[1]
                new = x._replace(fill=self._add("fills", _fill_xml(rgb) if isinstance(rgb, str) else _NO_FILL))
            elif kind == "bold":
                font = self.fonts[x.font] if x.font < len(self.fonts) else DEFAULT_FONT
                new = x._replace(font=self._add("fonts", _with_bold(font, bool(change[1]))))
            elif kind == "border":
                side, style = str(change[1]), change[2]
                old = self.borders[x.border] if x.border < len(self.borders) else _NO_BORDER
                border = _with_side(old, side, style if isinstance(style, str) else None)
                new = x._replace(border=self._add("borders", border))
            elif kind == "wrap":
                new = x._replace(alignment=(("vertical", "top"), ("wrapText", "1")))
            elif kind == "locked":  # a cell a protected tab leaves open carries <protection locked="0"/>
                kept = tuple((k, v) for k, v in x.protection if k != "locked")
                new = x._replace(protection=kept if change[1] else tuple(sorted((*kept, ("locked", "0")))))
            else:
                raise ValueError(f"unknown style change {change!r}")
            self._derived[key] = self._add("xfs", _xf_xml(new))
        return self._derived[key]

    def derive_all(self, xf: int, changes: tuple[tuple[object, ...], ...]) -> int:
        """The format ``xf`` with ``changes`` made in turn (as many ``derive``), worked out once per pair."""
        key = (xf, changes)
        found = self._derived_all.get(key)
        if found is None:
            line = self.line
            shared = line.known.get(key) if line is not None else None
            if shared is not None:  # another copy at this line worked it out: its entries are added in turn
                found, added = shared
                for group, item in added:
                    self._add(group, item)
            else:
                outer, self._added = self._added, []
                found = xf
                for change in changes:
                    found = self.derive(found, change)
                if line is not None and self.line is not None:
                    line.known[key] = (found, tuple(self._added))
                if outer is not None:  # (inside ``derive_each``: its entries are these too)
                    outer.extend(self._added)
                self._added = outer
            self._derived_all[key] = found
        return found

    def derive_each(self, xf: int, plan: tuple[tuple[tuple[tuple[object, ...], ...], object], ...]) -> tuple[int, ...]:
        """``derive_all(xf, changes)`` for each ``(changes, _)`` of ``plan``, in turn. A shared table's copies at
        one ``Line`` work a plan out once (a stage's map formats, the same plan object for every player: known by
        its identity, the plan kept), the others add its entries in turn."""
        line = self.line
        if line is not None:
            hit = line.each.get((xf, id(plan)))
            if hit is not None and hit[0] is plan:
                for group, item in hit[2]:
                    self._add(group, item)
                return hit[1]
        added: list[tuple[str, str]] = []
        self._added = added
        try:
            found = tuple(self.derive_all(xf, changes) for changes, _cells in plan)
        finally:
            self._added = None
        if line is not None and self.line is not None:
            if len(line.each) >= 64:
                line.each.clear()
            line.each[(xf, id(plan))] = (plan, found, tuple(added))
        return found

    def _add(self, group: str, item: str) -> int:
        """The index of ``item`` in ``group`` (fonts, fills, borders, xfs), appended if new."""
        items: list[str] = getattr(self, group)
        if group not in self._indexed:
            self._indexed.add(group)
            for i, known in enumerate(items):
                self._index.setdefault((group, known), i)
        if (group, item) not in self._index:
            items.append(item)
            self._index[(group, item)] = len(items) - 1
            self.version += 1
            if self.line is not None:
                self.line = self.line.after(group, item)
            if self._added is not None:
                self._added.append((group, item))
        return self._index[(group, item)]

    # -- writing ----------------------------------------------------------

    def xml(self) -> str:
        fmts = "".join(f'<numFmt numFmtId="{i}" formatCode="{attr(c)}"/>' for i, c in sorted(self.num_fmts.items()))
        parts = [with_default_namespace(self.root) if self.root else f'<styleSheet xmlns="{MAIN}">']
        if fmts:
            parts.append(f'<numFmts count="{len(self.num_fmts)}">{fmts}</numFmts>')
        for tag, items in (("fonts", self.fonts), ("fills", self.fills), ("borders", self.borders)):
            parts.append(f'<{tag} count="{len(items)}">{"".join(items)}</{tag}>')
        parts.append(self.head)
        parts.append(f'<cellXfs count="{len(self.xfs)}">{"".join(self.xfs)}</cellXfs>')
        parts.append(self.names)
        parts.extend(self.tail)
        parts.append(f"</{self.root[1:].split(None, 1)[0].rstrip('>')}>" if self.root else "</styleSheet>")
        return "".join(parts)


_MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"


def _entries(group: Element, item: str) -> list[Element]:
    """The ``item`` entries of a list, each ``mc:AlternateContent`` among them taken as the one entry it stands
    for (the fallback's, which needs no extension, else the first choice's); anything else is skipped."""
    out = []
    for el in group:
        if el.tag == item:
            out.append(el)
        elif el.tag == f"{_MC}AlternateContent":
            options = [*el.iterfind(f"{_MC}Fallback/{item}"), *el.iterfind(f"{_MC}Choice/{item}")]
            if options:
                out.append(options[0])
    return out


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0


F = TypeVar("F", bound=Callable[..., Any])


def _kept(section: str, made: Callable[[Any], Any] | None = None) -> Callable[[F], F]:
    """``fn`` (a function of plain values, its result plain or ``made`` of a plain tuple) looked up in ``kept``
    first, as the reader's memos are: the same entries are worked on in every command of a game."""
    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def call(*args: Any) -> Any:
            found = kept.get(section, args)
            if found is not None:
                return found if made is None else made(found)
            out = fn(*args)
            kept.note(section, args, out if made is None else tuple(out))
            return out
        return call  # type: ignore[return-value]
    return wrap


@functools.lru_cache(maxsize=4096)
@_kept("xf", lambda found: Xf(*found))
def _xf_of(xml: str) -> Xf:
    el = _parse(xml)
    a = {k: v for k, v in el.attrib.items() if not k.startswith("{") and ":" not in k}
    num_fmt, font, fill, border, xf_id = (int(a.pop(k, "0") or 0) for k in ("numFmtId", "fontId", "fillId", "borderId",
                                                                            "xfId"))
    for flag in ("applyNumberFormat", "applyFont", "applyFill", "applyBorder", "applyAlignment", "applyProtection"):
        a.pop(flag, None)
    align, prot = el.find("alignment"), el.find("protection")
    alignment = tuple(sorted(plain_attrs(align).items())) if align is not None else ()
    protection = tuple(sorted(plain_attrs(prot).items())) if prot is not None else ()
    return Xf(num_fmt, font, fill, border, xf_id, alignment, protection, tuple(sorted(a.items())))


@functools.lru_cache(maxsize=4096)
def _xf_xml(x: Xf) -> str:
    a = {"numFmtId": str(x.num_fmt), "fontId": str(x.font), "fillId": str(x.fill), "borderId": str(x.border),
         "xfId": str(x.xf_id)}
    for flag, on in (("applyNumberFormat", x.num_fmt), ("applyFont", x.font), ("applyFill", x.fill),
                     ("applyBorder", x.border), ("applyAlignment", x.alignment), ("applyProtection", x.protection)):
        if on:
            a[flag] = "1"
    a.update(x.extra)
    inner = (f"<alignment{attrs(dict(x.alignment))}/>" if x.alignment else "") + (
        f"<protection{attrs(dict(x.protection))}/>" if x.protection else "")
    return f"<xf{attrs(a)}>{inner}</xf>" if inner else f"<xf{attrs(a)}/>"


def _fill_xml(rgb: str) -> str:
    argb = "FF" + rgb[1:].upper()
    return f'<fill><patternFill patternType="solid"><fgColor rgb="{argb}"/><bgColor rgb="{argb}"/></patternFill></fill>'


def _parse(xml: str) -> Element:
    """An entry's tree with plain tags (entries are kept without namespace prefixes)."""
    root = fromstring(xml)
    for el in root.iter():
        el.tag = local(el.tag)
    return root


# The entries are text and the same few recur in every workbook: what is read from them, and the entries
# made from them, are computed once per process.


@functools.lru_cache(maxsize=1024)
def _solid(fill: str) -> str | None:
    if "solid" not in fill:
        return None
    pattern = _parse(fill).find("patternFill")
    if pattern is None or pattern.get("patternType") != "solid":
        return None
    color = pattern.find("fgColor")
    rgb = color.get("rgb") if color is not None else None
    return "#" + rgb[-6:].lower() if rgb and len(rgb) >= 6 else None


@functools.lru_cache(maxsize=1024)
def _bold(font: str) -> bool:
    if "<b" not in font:
        return False
    b = _parse(font).find("b")
    return b is not None and b.get("val", "1") not in ("0", "false")


@functools.lru_cache(maxsize=1024)
@_kept("sides")
def _sides(border: str) -> tuple[tuple[str, str], ...]:
    if "style" not in border:
        return ()
    el = _parse(border)
    found = []
    for side in SIDES:
        s = el.find(side)
        if s is not None and s.get("style") and s.get("style") != "none":
            found.append((side, str(s.get("style"))))
    return tuple(found)


@functools.lru_cache(maxsize=1024)
@_kept("with_bold")
def _with_bold(font: str, bold: bool) -> str:
    el = _parse(font)
    for b in el.findall("b"):
        el.remove(b)
    if bold:
        el.insert(0, Element("b"))
    return to_xml(el)


@functools.lru_cache(maxsize=4096)
@_kept("with_side")
def _with_side(border: str, side: str, style: str | None) -> str:
    el = _parse(border)
    kids = {child.tag: child for child in el}
    kids[side] = Element(side, {"style": style} if style else {})
    order = sorted(kids, key=lambda t: _BORDER_ORDER.index(t) if t in _BORDER_ORDER else len(_BORDER_ORDER))
    out = Element("border", el.attrib)
    out.extend(kids[t] for t in order)
    return to_xml(out)


@functools.lru_cache(maxsize=256)
def _locked(protection: tuple[tuple[str, str], ...]) -> bool:
    """A format's protection attributes lock its cells (the same few recur: asked once a cell at every publish)."""
    return dict(protection).get("locked", "1").strip().lower() not in ("0", "false")
