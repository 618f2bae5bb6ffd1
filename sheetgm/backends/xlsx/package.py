"""The zip package under an .xlsx file: its parts, read within limits, checked, and kept to be written back.

A workbook file comes from a player: it may be damaged, another format under the .xlsx name, or built to
hurt (a part that inflates to gigabytes, a million entries, an XML entity bomb). Every limit below is
checked before the cost it guards is paid, so reading any file costs a few seconds and well under 200 MB,
or the file is refused as ``UnreadableFileError`` naming what is wrong, and only that workbook is affected.

Every part is inflated once, in chunks, to check its CRC and its size; the compressed bytes of the parts
the adapter does not model (drawings, images, charts, tables, macros...) are kept and written back as
they were. Excel's "Strict Open XML" packages are read by renaming their namespaces to the transitional
ones (the same schema under other names), so they are written back as the transitional files Excel and
LibreOffice save by default.
"""

from __future__ import annotations

import io
import posixpath
import re
import struct
import zipfile
import zlib

from sheetgm.backends.errors import UnreadableFileError
from sheetgm.backends.xlsx.deflate import crc32, inflater
from sheetgm.core.values import Value, record

MiB = 1 << 20


@record(frozen=True)
class Limits(Value):
    """What one workbook file may hold. sheetgm's own workbooks stay far below (a player's largest part is
    about 60 KB after a dozen nights, the director's about 100 KB)."""

    file_bytes: int = 32 * MiB  # the file itself
    entries: int = 20_000  # parts in the zip
    directory_bytes: int = 4 * MiB  # its central directory
    part_bytes: int = 16 * MiB  # one part, inflated
    total_bytes: int = 256 * MiB  # every part, inflated (checked, not held)
    cells: int = 100_000  # cells with a value or a format (a row without any counts one), all tabs together
    strings: int = 100_000  # entries of the shared-string table
    tabs: int = 1_000


LIMITS = Limits()
_CHUNK = 1 * MiB
_EOCD = b"PK\x05\x06"
_EOCD64_LOCATOR = b"PK\x06\x07"
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"

# Strict Open XML names -> transitional names (ECMA-376 Part 1, both conformance classes).
_STRICT = re.compile(rb"http://purl\.oclc\.org/ooxml/([A-Za-z/]+)")
_STRICT_SPECIAL = {
    b"officeDocument/relationships/extendedProperties": b"officeDocument/2006/relationships/extended-properties",
    b"officeDocument/relationships/customProperties": b"officeDocument/2006/relationships/custom-properties",
    b"officeDocument/extendedProperties": b"officeDocument/2006/extended-properties",
    b"officeDocument/customProperties": b"officeDocument/2006/custom-properties",
    b"spreadsheetml/main": b"spreadsheetml/2006/main",
}


def _transitional(found: re.Match[bytes]) -> bytes:
    path = found.group(1)
    if path in _STRICT_SPECIAL:
        return b"http://schemas.openxmlformats.org/" + _STRICT_SPECIAL[path]
    head, _, tail = path.partition(b"/")  # officeDocument/relationships/worksheet, drawingml/main ...
    return b"http://schemas.openxmlformats.org/" + head + b"/2006/" + tail


def strict_to_transitional(data: bytes) -> bytes:
    return _STRICT.sub(_transitional, data).replace(b' conformance="strict"', b"")


@record
class Part:
    """A part as read: its compressed bytes (None when it had to be changed: a Strict part renamed) or its
    content, to be written back unchanged."""

    name: str
    raw: bytes | None
    crc: int
    size: int
    data: bytes | None = None


def sniff(data: bytes) -> str | None:
    """What a file that is not a readable .xlsx is, from its bytes: "ods", "xlsb", "numbers", "xls",
    "encrypted" (an .xlsx with a password to open), "csv", "html", "xml2003", "empty"; None when unknown."""
    if not data.strip():
        return "empty"
    if data.startswith(_OLE):
        if "EncryptionInfo".encode("utf-16-le") in data or "EncryptedPackage".encode("utf-16-le") in data:
            return "encrypted"
        return "xls"
    if data.startswith(b"PK"):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                names = set(z.namelist())
        except (zipfile.BadZipFile, ValueError, OSError, EOFError, NotImplementedError):
            return None
        if "mimetype" in names and "content.xml" in names:
            return "ods"
        if "xl/workbook.bin" in names:
            return "xlsb"
        if any(n.startswith("Index/") or n == "Index.zip" for n in names):
            return "numbers"
        return None
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if head.startswith((b"<!doctype html", b"<html", b"<table")):
        return "html"
    if head.startswith(b"<?xml") and b"urn:schemas-microsoft-com:office:spreadsheet" in data[:65536]:
        return "xml2003"
    try:
        text = data[:65536].decode("utf-8")
    except UnicodeDecodeError:
        try:
            text = data[:65536].decode("gb18030")
        except UnicodeDecodeError:
            return None
    if "\x00" not in text and ("," in text or "\t" in text or ";" in text or "\n" in text):
        return "csv"
    return None


def refuse(problem: str, **params: object) -> UnreadableFileError:
    """The error for a file this reader will not read; the gateway names the file (``path``)."""
    return UnreadableFileError(f"err.backend.file.{problem}", path="?", **params)


def _directory(data: bytes, limits: Limits) -> None:
    """Refuse a zip whose central directory lists too many entries, before zipfile builds an object per entry."""
    at = data.rfind(_EOCD, max(0, len(data) - 65_557))
    if at < 0 or len(data) < at + 22:
        raise zipfile.BadZipFile("File is not a zip file")
    count, size = struct.unpack("<H", data[at + 10:at + 12])[0], struct.unpack("<I", data[at + 12:at + 16])[0]
    locator = at - 20
    if (count == 0xFFFF or size == 0xFFFFFFFF) and locator >= 0 and data[locator:locator + 4] == _EOCD64_LOCATOR:
        record = struct.unpack("<Q", data[locator + 8:locator + 16])[0]
        if record + 56 <= len(data) and data[record:record + 4] == b"PK\x06\x06":
            count, size = struct.unpack("<QQ", data[record + 32:record + 48])
    if count > limits.entries or size > limits.directory_bytes:
        raise refuse("too_many_parts", limit=limits.entries)


class Package:
    """The parts of a zip package, each inflated at most once and checked (CRC, size, limits)."""

    def __init__(self, data: bytes, limits: Limits = LIMITS) -> None:
        if len(data) > limits.file_bytes:
            raise refuse("too_large", size=_mb(len(data)), limit=_mb(limits.file_bytes))
        self.data, self.limits = data, limits
        _directory(data, limits)
        self.zip = zipfile.ZipFile(io.BytesIO(data))
        self.infos = {info.filename: info for info in self.zip.infolist()}
        if len(self.infos) > limits.entries:
            raise refuse("too_many_parts", limit=limits.entries)
        self.inflated = 0
        self.strict = False
        self._checked: set[str] = set()
        self._folded: dict[str, str] | None = None

    def __enter__(self) -> Package:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.zip.close()

    def __contains__(self, name: str) -> bool:
        return self.real(name) in self.infos

    def real(self, name: str) -> str:
        """A part's name as the zip spells it: part names are case-insensitive (OPC), a relationship may say
        "sharedStrings.xml" for a part stored as "SharedStrings.xml", and some Windows tools store
        "xl\\workbook.xml"."""
        if name in self.infos:
            return name
        if self._folded is None:
            self._folded = {fold(n): n for n in self.infos}
        return self._folded.get(fold(name), name)

    def clean(self, name: str) -> str:
        """A part's name as it is written back: the zip's spelling, with forward slashes."""
        return self.real(name).replace("\\", "/")

    def read(self, name: str) -> bytes:
        """A part's content (KeyError when there is none). Raises when it is larger than a part may be."""
        info = self.infos[self.real(name)]
        if info.file_size > self.limits.part_bytes:
            raise refuse("part_too_large", part=name, limit=_mb(self.limits.part_bytes))
        out = self._inflate(info, keep=True)
        assert out is not None
        if _is_xml(name):
            out = as_utf8(out)
            if self.strict:
                out = strict_to_transitional(out)
        return out

    def part(self, name: str) -> Part:
        """A part to carry through a save unchanged: its compressed bytes, checked once."""
        name = self.real(name)
        info = self.infos[name]
        raw = self._compressed(info)
        if self.strict and _is_xml(name):
            data = self.read(name)
            return Part(name, None, zlib.crc32(data), len(data), data)
        self._inflate(info, keep=False)
        if raw is None:  # stored: written back deflated from its content
            data = self.zip.read(name)
            return Part(name, None, info.CRC, info.file_size, data)
        return Part(name, raw, info.CRC, info.file_size)

    def check_all(self) -> None:
        """Inflate every part once (not kept): a damaged part or a bomb is found now, not when it is written back."""
        for info in self.infos.values():
            if info.filename not in self._checked and not info.is_dir():
                self._inflate(info, keep=False)

    def _inflate(self, info: zipfile.ZipInfo, keep: bool) -> bytes | None:
        name = info.filename
        if name in self._checked and not keep:
            return None
        if info.flag_bits & 0x1:
            raise refuse("encrypted")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            # OPC allows no other; zipfile inflates bzip2 and LZMA without a bound per call (a 538-byte file
            # with a bzip2 part held 1 GB before any limit could be checked)
            raise refuse("compression", part=name, method=info.compress_type)
        cap = min(self.limits.part_bytes if keep else self.limits.total_bytes, self.limits.total_bytes - self.inflated)
        raw = self._compressed(info)
        chunks: list[bytes] = []
        size, crc = 0, 0
        if raw is None:  # stored
            with self.zip.open(info) as stream:  # zipfile checks the CRC of what it reads
                while piece := stream.read(_CHUNK):
                    size = self._count(info, size + len(piece), cap)
                    if keep:
                        chunks.append(piece)
        else:
            unzip = inflater()  # (ISA-L's where installed: ~2x zlib's)
            rest = raw
            while True:
                piece = unzip.decompress(rest, _CHUNK)
                rest = unzip.unconsumed_tail
                size = self._count(info, size + len(piece), cap)
                crc = crc32(piece, crc)
                if keep:
                    chunks.append(piece)
                if not rest:
                    if unzip.eof or not piece:
                        break
                    rest = b""
            if size != info.file_size or crc != info.CRC:
                raise zipfile.BadZipFile(f"Bad CRC-32 for file {name!r}")
        self.inflated += size
        self._checked.add(name)  # checked; its content is not kept here (the caller keeps what it needs)
        return b"".join(chunks) if keep else None

    def _count(self, info: zipfile.ZipInfo, size: int, cap: int) -> int:
        if size > self.limits.total_bytes - self.inflated:
            raise refuse("inflates_too_much", limit=_mb(self.limits.total_bytes))
        if size > cap:
            raise refuse("part_too_large", part=info.filename, limit=_mb(self.limits.part_bytes))
        return size

    def _compressed(self, info: zipfile.ZipInfo) -> bytes | None:
        """A deflated part's bytes in the file; None if zipfile must read it (stored; encrypted and other methods are
        refused by ``_inflate``)."""
        if info.compress_type != zipfile.ZIP_DEFLATED or info.flag_bits & 0x1:
            return None
        at = info.header_offset
        head = self.data[at:at + 30]
        if len(head) < 30 or head[:4] != b"PK\x03\x04":
            raise zipfile.BadZipFile(f"Bad magic number for file header of {info.filename!r}")
        name_len, extra_len = struct.unpack("<HH", head[26:30])
        start = at + 30 + name_len + extra_len
        raw = self.data[start:start + info.compress_size]
        if len(raw) != info.compress_size:
            raise zipfile.BadZipFile(f"Truncated file header of {info.filename!r}")
        return raw


def fold(name: str) -> str:
    """A part name as OPC compares it: without case, "/" and "\\" the same."""
    return name.replace("\\", "/").casefold()


_DECLARED = re.compile(rb"\A(<\?xml\s[^>]*?encoding\s*=\s*)([\"'])([A-Za-z0-9._-]+)\2")
_UTF16 = ((b"\xff\xfe", "utf-16-le", 2), (b"\xfe\xff", "utf-16-be", 2), (b"<\x00", "utf-16-le", 0),
          (b"\x00<", "utf-16-be", 0))


def as_utf8(data: bytes) -> bytes:
    """An XML part in UTF-8, its declaration saying so: a part in another encoding (UTF-16, with or without a
    byte order mark; one its declaration names) is read and written back as UTF-8, which every program reads
    and the codec slices as text. UTF-8 (the usual part) is returned as it is; an encoding Python does not
    know, or text that is not in the encoding named, raises (the file is refused as damaged)."""
    if data[:1] == b"<" and data[1:2] != b"\x00":  # UTF-8 or a declared 8-bit encoding: the declaration decides
        found = _DECLARED.match(data)
        named = found.group(3).lower().replace(b"_", b"-") if found is not None else b"utf-8"
        if named in (b"utf-8", b"utf8"):
            return data
        # (a part in 8 bits that names a 16- or 32-bit encoding is in UTF-8, as expat reads it)
        try:
            text = data.decode("utf-8" if named.startswith((b"utf-16", b"utf-32", b"ucs")) else named.decode())
        except LookupError as exc:
            raise ValueError(f"unknown encoding {named.decode()!r}") from exc
    elif data.startswith(b"\xef\xbb\xbf"):
        return data
    else:
        for mark, codec, skip in _UTF16:
            if data.startswith(mark):
                text = data[skip:].decode(codec)
                break
        else:
            return data
    out = text.encode("utf-8")
    head = _DECLARED.match(out)
    if head is not None:
        out = out[:head.start(3)] + b"UTF-8" + out[head.end(3):]
    return out


def _is_xml(name: str) -> bool:
    return name.endswith((".xml", ".rels", ".vml"))


def _mb(n: int) -> str:
    return f"{n / MiB:.1f}"


_PROLOG = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*(?:<\?(?:[^?]|\?(?!>))*\?>\s*|<!--(?:[^-]|-(?!->))*-->\s*)*")


def no_doctype(data: bytes, name: str) -> bytes:
    """A part must not declare a DTD (ECMA-376 forbids it; entities are how XML bombs are built)."""
    found = _PROLOG.match(data)
    rest = data[found.end() if found else 0:][:9]
    if rest.upper().startswith(b"<!DOCTYPE"):
        raise refuse("doctype", part=name)
    return data


def rels_path(part: str) -> str:
    """The relationships part of ``part`` (``xl/workbook.xml`` → ``xl/_rels/workbook.xml.rels``)."""
    folder, name = posixpath.split(part)
    return posixpath.join(folder, "_rels", name + ".rels")


def resolve_target(base: str, target: str) -> str:
    """A relationship's target as a part name: absolute (``/xl/...``) or relative to ``base``'s folder."""
    if target.startswith("/"):
        return target[1:]
    return posixpath.normpath(posixpath.join(posixpath.dirname(base), target))
