"""A sheet's rows, and a list of shared strings, read by patterns without an XML parser, when every row and
cell has one of the plain shapes Excel and most programs write (``<row r="2" spans="1:3"><c r="A2" s="1"
t="s"><v>0</v></c>...</row>``, a formula and its result; ``<si><t>text</t></si>``); None for anything else, and
the part is parsed (``read._read_cells``, ``read._strings``: what this reads as they do). An XML parser and its
events were two thirds of reading 95,000 cells.

What a parser would read otherwise is not taken: an entity or character reference, a "\\r" (read as "\\n"), a
tab or line feed in an attribute's value (read as a blank), a comment, CDATA, a processing instruction, a
character XML refuses, a prefixed or namespaced element, single quotes, an inline text, a string with runs.
"""

from __future__ import annotations

import re

from sheetgm.backends.xlsx import xmlkit

_ATTR = r' [A-Za-z_][\w.:-]*="[^"<&\t\n]*"'
# the row's number (first, as every program writes it), its other attributes, its content
_ROW = re.compile(rf'[ \t\n]*<row r="([0-9]+)"((?:{_ATTR})*)(?:/>|>(.*?)</row>)', re.DOTALL)
# letters of the reference, the other attributes, the formula's attributes and text, the value
_CELL = re.compile(rf'<c r="([A-Z]{{1,3}})[0-9]+"((?:{_ATTR})*)(?:/>|>(?:<f((?:{_ATTR})*)(?:/>|>([^<]*)</f>))?'
                   r'(?:<v>([^<]*)</v>|<v/>)?</c>)')
_PAIR = re.compile(r' ([^=]+)="([^"]*)"')

Row = tuple[str, str, list[tuple[str, str, str | None, str | None, str | None]]]


def rows(xml: str) -> list[Row] | None:
    """The rows of a sheetData's content (without its tags): each row's number and other attributes (as
    written), and its cells' column letters, other attributes (as written), formula's attributes (as written;
    None without a formula) and text, and value (None without one). None when a row or cell has another
    shape."""
    if ("<is>" in xml or "&" in xml or "\r" in xml or "<!" in xml or "<?" in xml or "xmlns" in xml
            or xmlkit.ILLEGAL.search(xml)):
        return None
    out: list[Row] = []
    pos, end = 0, len(xml)
    row_at, cell_at = _ROW.match, _CELL.finditer
    while True:
        found = row_at(xml, pos)
        if found is None:
            return out if xml[pos:].strip(" \t\n") == "" else None
        number, attrs, body = found.groups()
        cells = []
        if body:
            at, stop = found.start(3), found.end(3)
            for cell in cell_at(xml, at, stop):
                if cell.start() != at:
                    return None  # something between two cells
                at = cell.end()
                letters, other, f_attrs, f_text, value = cell.groups()
                if value is None and cell.group(0).endswith("<v/></c>"):
                    value = ""
                cells.append((letters, other, f_attrs, f_text, value))
            if at != stop:
                return None
        out.append((number, attrs, cells))
        pos = found.end()
        if pos == end:
            return out


def attributes(written: str) -> dict[str, str]:
    """Attributes as ``rows`` gives them, as an XML parser reads them (without prefixed ones but xml:space)."""
    return {k: v for k, v in _PAIR.findall(written) if ":" not in k or k == "xml:space"}


_SST = re.compile(r'(?:<\?xml version="1\.0" encoding="(?i:UTF-8)"(?: standalone="yes")?\?>[ \t\r\n]*)?'
                  rf'<sst xmlns="{re.escape(xmlkit.MAIN)}"(?: (?:count|uniqueCount)="[0-9]+")*>')
_SI = re.compile(r'<si><t( xml:space="preserve")?>([^<]*)</t></si>')
_BLANKS = " \t\r\n"
_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
_REF = re.compile(r"&(?:(amp|lt|gt|quot|apos)|#([0-9]{1,7})|#x([0-9a-fA-F]{1,6}));")
_OTHER_AMP = re.compile(r"&(?!(?:amp|lt|gt|quot|apos|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});)")  # what a parser refuses


class _Refused(Exception):
    """A reference to a character XML refuses: the part is left to the parser (which refuses it)."""


def _referred(found: re.Match[str]) -> str:
    name, decimal, hexadecimal = found.groups()
    if name:
        return _ENTITIES[name]
    code = int(decimal) if decimal else int(hexadecimal, 16)
    if code > 0x10FFFF or xmlkit.ILLEGAL.match(chr(code)):
        raise _Refused
    return chr(code)


def strings(data: bytes) -> tuple[list[str], set[int]] | None:
    """The texts of a shared-string part that holds plain texts only (``<si><t>text</t></si>``), as
    ``xmlkit.run_text`` reads them, and the entries of blanks only that read as empty (``read._Strings``);
    None when it holds anything else."""
    try:
        xml = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    head = _SST.match(xml)
    end = len(xml.rstrip(" \t\r\n")) - len("</sst>")
    if head is None or not xml.startswith("</sst>", end) or "<!" in xml or xmlkit.ILLEGAL.search(xml):
        return None
    if xml.find("\r", head.end()) >= 0 or (xml.find("&", head.end()) >= 0 and _OTHER_AMP.search(xml, head.end())):
        return None  # (Excel ends its XML declaration with "\r\n": the texts hold none)
    out: list[str] = []
    blank: set[int] = set()
    at = head.end()
    for found in _SI.finditer(xml, at, end):
        if found.start() != at:
            return None  # something between two strings
        at = found.end()
        preserve, text = found.groups()
        if "&" in text:
            try:
                text = _REF.sub(_referred, text)
            except _Refused:
                return None
        if text and not preserve and (text[0] in _BLANKS or text[-1] in _BLANKS):
            text = text.strip(_BLANKS)
            if not text:
                blank.add(len(out))
        out.append(xmlkit.unescape(text) if "_x" in text else text)
    return (out, blank) if at == end else None
