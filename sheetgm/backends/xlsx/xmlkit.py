"""XML plumbing for the .xlsx codec: namespaces, escaping, and elements kept as text.

Parts are parsed with the standard library's ElementTree (C accelerated) and
written by string building. Tags are compared by their namespaced names;
elements the codec keeps without understanding them (a sheet's page setup, a
font's details) are stored as XML text with local names, so they can be
written back into the main namespace as they were.
"""

from __future__ import annotations

import re
from itertools import chain
from xml.etree.ElementTree import Element
from xml.parsers import expat

from sheetgm.core.values import field, record

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
CT = "http://schemas.openxmlformats.org/package/2006/content-types"
XML_NS = "http://www.w3.org/XML/1998/namespace"
RT_SHEET = REL + "/worksheet"
RT_STYLES = REL + "/styles"
RT_STRINGS = REL + "/sharedStrings"
RT_THEME = REL + "/theme"
RT_COMMENTS = REL + "/comments"
RT_VML = REL + "/vmlDrawing"
RT_DOC = REL + "/officeDocument"
RT_CORE = PKG_REL + "/metadata/core-properties"
RT_APP = REL + "/extended-properties"

# Characters XML 1.0 cannot hold, even escaped: control characters but tab and line breaks (the set openpyxl
# strips from cell text), lone surrogates, U+FFFE and U+FFFF. Cell text is stripped of them when it is set;
# the escaping below drops them from every other text too (a note, a prompt, a title, a tab name), since one
# of them anywhere makes the part, and so the whole workbook, unreadable.
NOT_XML = ((0x00, 0x08), (0x0B, 0x0C), (0x0E, 0x1F), (0xD800, 0xDFFF), (0xFFFE, 0xFFFF))  # inclusive ranges
ILLEGAL = re.compile("[" + "".join(f"\\u{a:04x}-\\u{b:04x}" for a, b in NOT_XML) + "]")
# str.translate's tables, by code point (what str.maketrans makes of characters, made here in C: ~2,000 entries)
_DROP: dict[int, str | None] = dict.fromkeys(chain.from_iterable(range(a, b + 1) for a, b in NOT_XML))
_TEXT = {**_DROP, ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;", ord("\r"): "&#13;"}
_ATTR = {**_TEXT, ord('"'): "&quot;", ord("\n"): "&#10;", ord("\t"): "&#9;"}


def m(tag: str) -> str:
    """A tag of the spreadsheet namespace, as ElementTree names it."""
    return f"{{{MAIN}}}{tag}"


def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def text(value: str) -> str:
    """``value`` as an element's text: "&", "<", ">" and "\r" escaped, characters XML cannot hold dropped. (A
    table's translate looks up every character in Python: a report is thousands; the usual text, with none of
    them or no character to drop, is looked at in C.)"""
    if ILLEGAL.search(value):
        return value.translate(_TEXT)
    if "&" in value:
        value = value.replace("&", "&amp;")
    if "<" in value:
        value = value.replace("<", "&lt;")
    if ">" in value:
        value = value.replace(">", "&gt;")
    if "\r" in value:
        value = value.replace("\r", "&#13;")
    return value


def attr(value: str) -> str:
    found = _ATTRS_SEEN.get(value)
    if found is None:
        found = value.translate(_ATTR)
        if len(value) <= 256:  # (a column's width, a password's hash: the same few recur in every sheet)
            if len(_ATTRS_SEEN) >= 4096:
                _ATTRS_SEEN.clear()
            _ATTRS_SEEN[value] = found
    return found


_ATTRS_SEEN: dict[str, str] = {}  # an attribute's value -> as written (translate with a table is slow)


def attrs(items: dict[str, str]) -> str:
    return "".join(f' {k}="{attr(v)}"' for k, v in items.items())


def plain_attrs(el: Element) -> dict[str, str]:
    """An element's attributes without namespaced ones (vendor extensions are not kept)."""
    out = {}
    for k, v in el.attrib.items():
        if k.startswith("{"):
            if k == f"{{{XML_NS}}}space":
                out["xml:space"] = v
            continue
        out[k] = v
    return out


def to_xml(el: Element) -> str:
    """An element as XML text with local names; children in other namespaces are dropped."""
    out = [f"<{local(el.tag)}{attrs(plain_attrs(el))}"]
    inner = [to_xml(child) for child in el if child.tag.startswith(f"{{{MAIN}}}") or not child.tag.startswith("{")]
    body = text(el.text) if el.text and el.text.strip() else ""
    if not inner and not body:
        out.append("/>")
    else:
        out.append(">" + body + "".join(inner) + f"</{local(el.tag)}>")
    return "".join(out)


def run_text(el: Element | None) -> str:
    """The text of a string item (``<si>``, ``<is>``, a comment's ``<text>``): its plain text and its runs in
    order, without phonetic guides (``<rPh>``: the reading of Japanese text, not part of it)."""
    if el is None:
        return ""
    if len(el) == 1 and el[0].tag == _T:  # the usual shape: one plain text
        text = el[0].text or ""
        if text and (text[0] in _BLANKS or text[-1] in _BLANKS):
            text = _t(el[0])
        return unescape(text) if "_x" in text else text
    out = []
    for child in el:
        if child.tag == _T:
            out.append(_t(child))
        elif child.tag == _R:
            out.extend(_t(t) for t in child.iter(_T))
    text = "".join(out)
    return unescape(text) if "_x" in text else text


def unescape(text: str) -> str:
    """A spreadsheet string's ``_xHHHH_`` escapes as the characters they stand for (ECMA-376 ST_Xstring:
    "_x000D_" a carriage return, "_x005F_" the underscore that keeps a literal "_x0041_" from being one). A
    character past U+FFFF is escaped as its UTF-16 pair ("_xD801__xDC05_"): the pair is that one character; a
    half without its other half stands for no character and stays as written (as calamine reads it)."""
    parts = _ONE_ESCAPE.split(text)  # the texts between escapes, and the escapes (a call each was 1.5 µs)
    chars = _CHARS
    for i in range(1, len(parts), 2):
        char = chars.get(parts[i])
        if char is None:
            code = int(parts[i][2:6], 16)
            if 0xD800 <= code <= 0xDFFF:
                return re.sub(_ESCAPED, _char, text)  # a UTF-16 half: a pair is one character
            if len(chars) >= 100_000:
                chars.clear()
            char = chars[parts[i]] = chr(code)
        parts[i] = char
    return "".join(parts)


def escape(text: str, controls: bool = True) -> str:
    """Text to write as a spreadsheet string: a literal "_xHHHH_" in it keeps its underscore escaped, and a
    character XML cannot hold (a control character a cell read from a file holds) is written as its escape
    (``controls=False``: dropped, as in the texts sheetgm writes)."""
    if "_x" in text:
        text = re.sub(_LITERAL_ESCAPE, r"_x005F_\1", text)
    return ILLEGAL.sub(_escaped, text) if controls and ILLEGAL.search(text) else text


def _escaped(found: re.Match[str]) -> str:
    return f"_x{ord(found.group(0)):04X}_"


def _char(found: re.Match[str]) -> str:
    high, low, one = found.groups()
    if high is not None:
        return chr(0x10000 + ((int(high, 16) - 0xD800) << 10) + int(low, 16) - 0xDC00)
    code = int(one, 16)
    return found.group(0) if 0xD800 <= code <= 0xDFFF else chr(code)


# (compiled, in re's cache, when a text holds "_x")
_ESCAPED = r"_x([Dd][89ABab][0-9A-Fa-f]{2})__x([Dd][C-Fc-f][0-9A-Fa-f]{2})_|_x([0-9A-Fa-f]{4})_"
_LITERAL_ESCAPE = r"_(x[0-9A-Fa-f]{4}_)"
_ONE_ESCAPE = re.compile(r"(_x[0-9A-Fa-f]{4}_)")
_CHARS: dict[str, str] = {}  # an escape -> its character


def _t(el: Element) -> str:
    """A ``<t>``'s text: blanks at its ends are layout unless it says xml:space="preserve" (as Excel, openpyxl
    and calamine read it)."""
    text = el.text or ""
    if text and (text[0] in _BLANKS or text[-1] in _BLANKS) and el.get(_SPACE) != "preserve":
        return text.strip(_BLANKS)
    return text


_BLANKS = " \t\r\n"
_SPACE = f"{{{XML_NS}}}space"
_T, _R = m("t"), m("r")


# -- a part's top-level elements as written ------------------------------------


@record
class Skeleton:
    """A part's root element as written: its start tag (with every namespace declaration) and each element
    under it as the exact XML text it was written as, so that what the codec does not model is written back
    byte for byte (with its prefixes, ``r:id`` links, extensions and ``mc:AlternateContent``)."""

    root: str  # "<worksheet xmlns=... mc:Ignorable=...>"
    end: str  # "</worksheet>"
    children: list[tuple[str, str]] = field(default_factory=list)  # (name, XML): local name in MAIN, else {ns}local


def tag_end(data: bytes, at: int) -> int:
    """The index just after the ``>`` closing the tag that starts at ``at`` (quotes may hold a ``>``)."""
    pos = at + 1
    while True:
        found = _TAG_STOP.search(data, pos)
        if found is None:
            raise ValueError("unterminated tag")
        if found.group(0) == b">":
            return found.end()
        close = data.find(found.group(0), found.end())
        if close < 0:
            raise ValueError("unterminated attribute value")
        pos = close + 1


_TAG_STOP = re.compile(rb"[\"'>]")


def skeleton(data: bytes) -> Skeleton:
    """The root and top-level elements of an XML document (bytes), sliced from it at the parser's offsets."""
    parser = expat.ParserCreate(namespace_separator=" ")
    depth, open_at, out = 0, [0, 0], Skeleton("", "")

    def refuse_dtd(*_args: object) -> None:
        raise ValueError("a DTD is not allowed in a workbook part")

    def start(name: str, _attrs: object) -> None:
        nonlocal depth
        at = parser.CurrentByteIndex
        if depth == 0:
            out.root = data[at:tag_end(data, at)].decode("utf-8")
            if out.root.endswith("/>"):  # an empty root (<styleSheet/>): its start tag, to write children in
                out.root = out.root[:-2].rstrip() + ">"
            out.end = f"</{_qualified(out.root)}>"
        elif depth == 1:
            open_at[:] = [at, tag_end(data, at)]
        depth += 1

    def end(name: str) -> None:
        nonlocal depth
        depth -= 1
        if depth == 1:
            first, after = open_at
            if data[after - 2:after] != b"/>":  # not an empty element: the parser stands at its end tag
                after = data.index(b">", parser.CurrentByteIndex) + 1
            uri, _, tag = name.rpartition(" ")
            out.children.append((tag if uri == MAIN else f"{{{uri}}}{tag}", data[first:after].decode("utf-8")))

    parser.StartDoctypeDeclHandler = refuse_dtd
    parser.EntityDeclHandler = refuse_dtd
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.Parse(data, True)
    return out


def _qualified(start_tag: str) -> str:
    """The element name of a start tag as written ("x:worksheet" or "worksheet")."""
    found = re.match(r"<\s*([^\s/>]+)", start_tag)
    return found.group(1) if found else ""


def with_default_namespace(start_tag: str) -> str:
    """A root start tag that binds the main namespace as the default one too: a part written with a prefix
    for it (``<x:worksheet xmlns:x=...>``) keeps its elements, and the codec's unprefixed ones join them."""
    if re.search(r"\sxmlns\s*=", start_tag):
        return start_tag
    name = _qualified(start_tag)
    return start_tag.replace(f"<{name}", f'<{name} xmlns="{MAIN}"', 1)
