"""Zip packages that lie, built by hand byte by byte (local headers, central directory, end records, zip64 end
record and locator): each lie a hostile or damaged file can tell, and what the package reader makes of it: the
exact refusal (its code and parameters, or zipfile's error and message, which the director reads as the
``detail`` of "damaged"), or the exact content accepted. The limits are set small so the files stay small."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from dataclasses import dataclass, replace

import pytest

from sheetgm.backends.errors import UnreadableFileError
from sheetgm.backends.xlsx.package import LIMITS, Limits, MiB, Package, Part

_DATE = (0 << 9) | (1 << 5) | 1  # 1980-01-01


@dataclass
class Entry:
    """One zip entry as written, and the lies its headers tell (None: the truth)."""

    name: str
    data: bytes
    deflated: bool = True
    flags: int = 0
    local_name: str | None = None  # the name in the local header
    local_extra: bytes = b""  # an extra field in the local header only
    size: int | None = None  # the uncompressed size both headers declare
    csize: int | None = None  # the compressed size the central directory declares
    crc: int | None = None  # the CRC both headers declare
    offset: int | None = None  # where the central directory says the local header is


def _raw_deflate(data: bytes) -> bytes:
    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
    return squeeze.compress(data) + squeeze.flush()


def build(entries: list[Entry], *, comment: bytes = b"", count: int | None = None, cd_size: int | None = None,
          zip64: str = "", record_count: int | None = None, locator_to: int | None = None,
          tail: bytes = b"") -> bytes:
    """A zip of ``entries``. The end record declares ``count`` entries and ``cd_size`` bytes of directory (the truth
    when None); ``zip64`` "count", "size" or "both": those fields of the end record are 0xFFFF.. and a zip64 end
    record (declaring ``record_count`` entries) and its locator (naming ``locator_to``, else the record) precede it.
    ``tail`` goes after the end record's comment (the end record then no longer ends the file). ``zip64`` "record":
    the zip64 record and locator are written, the end record's counts true."""
    out = bytearray()
    central = bytearray()
    for e in entries:
        packed = _raw_deflate(e.data) if e.deflated else e.data
        crc = zlib.crc32(e.data) if e.crc is None else e.crc
        size = len(e.data) if e.size is None else e.size
        local = (e.local_name if e.local_name is not None else e.name).encode()
        at = len(out)
        out += struct.pack("<4s5H3I2H", b"PK\x03\x04", 20, e.flags, 8 if e.deflated else 0, 0, _DATE, crc,
                           len(packed), size, len(local), len(e.local_extra)) + local + e.local_extra + packed
        name = e.name.encode()
        csize = len(packed) if e.csize is None else e.csize
        central += struct.pack("<4s6H3I5HII", b"PK\x01\x02", 20, 20, e.flags, 8 if e.deflated else 0, 0, _DATE, crc,
                               csize, size, len(name), 0, 0, 0, 0, 0, at if e.offset is None else e.offset) + name
    cd_at = len(out)
    out += central
    n = len(entries) if count is None else count
    cd = len(central) if cd_size is None else cd_size
    if zip64:
        record_at = len(out)
        total = n if record_count is None else record_count
        out += struct.pack("<4sQ2H2I4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, n, total, cd, cd_at)
        out += struct.pack("<4sIQI", b"PK\x06\x07", 0, record_at if locator_to is None else locator_to, 1)
    end_n = 0xFFFF if zip64 in ("count", "both") else n
    end_cd = 0xFFFFFFFF if zip64 in ("size", "both") else cd
    out += struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, min(end_n, 0xFFFF), min(end_n, 0xFFFF), end_cd,
                       0xFFFFFFFF if zip64 == "both" else cd_at, len(comment)) + comment + tail
    return bytes(out)


def _limits(**kw: int) -> Limits:
    return replace(LIMITS, **kw)


def _refusal(data: bytes, limits: Limits = LIMITS, read: str | None = None) -> UnreadableFileError:
    """The refusal of ``data``: opening it, then reading part ``read`` (else checking every part)."""
    with pytest.raises(UnreadableFileError) as err:
        with Package(data, limits) as pkg:
            if read is None:
                pkg.check_all()
            else:
                pkg.read(read)
    return err.value


def _bad_zip(data: bytes, read: str | None = None, limits: Limits = LIMITS) -> str:
    """zipfile's complaint (BadZipFile) about ``data``: its message."""
    with pytest.raises(zipfile.BadZipFile) as err:
        with Package(data, limits) as pkg:
            if read is None:
                pkg.check_all()
            else:
                pkg.read(read)
    return str(err.value)


A = Entry("a.xml", b"<a>" + b"x" * 500 + b"</a>")
B = Entry("b.bin", bytes(range(256)) * 4, deflated=False)


# -- the end records --------------------------------------------------------------------------------------------

def test_an_honest_hand_built_zip_reads_back_and_counts_what_it_inflated() -> None:
    data = build([A, B])
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert z.read("a.xml") == A.data and z.read("b.bin") == B.data  # the builder writes what zipfile reads
    with Package(data) as pkg:
        assert pkg.read("a.xml") == A.data and pkg.inflated == len(A.data)
        assert pkg.read("b.bin") == B.data and pkg.inflated == len(A.data) + len(B.data)


def test_an_empty_zip_is_only_its_end_record_and_opens_with_no_parts() -> None:
    """22 bytes, the end record at offset 0: found (the search starts at 0) and whole (22 bytes)."""
    data = build([])
    assert len(data) == 22
    with Package(data) as pkg:
        assert pkg.infos == {}
        pkg.check_all()
        assert pkg.inflated == 0


def test_an_end_record_behind_the_longest_comment_is_found() -> None:
    data = build([A], comment=b"c" * 0xFFFF)
    with Package(data) as pkg:
        assert pkg.read("a.xml") == A.data


def test_an_end_record_further_back_than_a_comment_can_reach_is_not_read() -> None:
    """A file whose only end record is one byte further back than the longest comment allows: not a zip (its
    count is not believed, whatever it says)."""
    fake = struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, 0, 0, 0)
    data = b"x" * 10 + fake + b"c" * (0xFFFF + 1)
    assert _bad_zip(data) == "File is not a zip file"
    assert _bad_zip(fake[:21]) == "File is not a zip file"  # an end record cut short (a byte missing)
    cut = b"x" * 10 + struct.pack("<4s4H2I", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, 0, 0) + b"\x00"
    assert _bad_zip(cut) == "File is not a zip file"


def test_the_end_records_counts_are_limits_at_their_exact_bounds() -> None:
    parts = [Entry(f"p{i}", b"x") for i in range(5)]
    data = build(parts)
    cd = len(data) - 22 - sum(30 + 2 + len(_raw_deflate(b"x")) for _ in parts)
    with Package(data, _limits(entries=5, directory_bytes=cd)) as pkg:
        assert len(pkg.infos) == 5
    for limits in (_limits(entries=4), _limits(directory_bytes=cd - 1)):
        err = _refusal(data, limits)
        assert err.code == "err.backend.file.too_many_parts" and err.params["limit"] == limits.entries


def test_an_end_record_counting_fewer_entries_than_the_directory_holds_is_caught_by_the_count_of_the_entries() -> None:
    """The end record says 1; the directory lists 5 (zipfile reads the directory by its size, not its count)."""
    data = build([Entry(f"p{i}", b"x") for i in range(5)], count=1)
    with Package(data, _limits(entries=5)) as pkg:
        assert sorted(pkg.infos) == [f"p{i}" for i in range(5)]
    err = _refusal(data, _limits(entries=4))
    assert err.code == "err.backend.file.too_many_parts" and err.params["limit"] == 4


def test_an_end_record_counting_more_entries_than_the_limit_is_refused_whatever_the_directory_holds() -> None:
    err = _refusal(build([A], count=6), _limits(entries=5))
    assert err.code == "err.backend.file.too_many_parts" and err.params["limit"] == 5
    err = _refusal(build([A], cd_size=4 * MiB + 1))
    assert err.code == "err.backend.file.too_many_parts" and err.params["limit"] == LIMITS.entries


@pytest.mark.parametrize("which", ["count", "size", "both"])
def test_a_zip64_end_record_gives_the_counts_the_end_record_leaves_to_it(which: str) -> None:
    """The end record's 0xFFFF (entries) or 0xFFFFFFFF (directory size) mean "see the zip64 record": read there,
    the true counts are within the limits; taken as they stand, either would be over them."""
    data = build([A, B], zip64=which)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert z.namelist() == ["a.xml", "b.bin"]
    with Package(data) as pkg:
        assert pkg.read("a.xml") == A.data and pkg.read("b.bin") == B.data


def test_a_zip64_end_record_counting_too_many_entries_is_refused() -> None:
    data = build([A, B], zip64="count", record_count=21)
    with Package(data, _limits(entries=21)) as pkg:
        assert len(pkg.infos) == 2
    err = _refusal(data, _limits(entries=20))
    assert err.code == "err.backend.file.too_many_parts" and err.params["limit"] == 20
    err = _refusal(build([A, B], zip64="count", record_count=1 << 40))
    assert err.code == "err.backend.file.too_many_parts"


def test_a_locator_naming_no_zip64_record_leaves_the_end_records_count_standing() -> None:
    """The locator names the first local header, not a zip64 record: the end record's 0xFFFF stands, over the
    limit of 20,000 entries, though zipfile would read the record where it should be."""
    data = build([A, B], zip64="count", locator_to=0)
    err = _refusal(data)
    assert err.code == "err.backend.file.too_many_parts"
    with Package(data, _limits(entries=0xFFFF)) as pkg:  # within a limit that high: zipfile reads the directory
        assert sorted(pkg.infos) == ["a.xml", "b.bin"]


def test_a_zip64_record_read_from_the_end_of_the_file_is_believed() -> None:
    """The locator names a copy of the zip64 record that ends the file exactly (the end record's comment): read
    there, the entries are 2; zipfile reads its own copy where the standard puts it."""
    base = build([A, B], zip64="count")
    record_at = base.rfind(b"PK\x06\x06")
    record = base[record_at:record_at + 56]
    end = base.rfind(b"PK\x05\x06")
    comment_at = end + 22  # the end record's comment: a copy of the record, ending the file
    data = bytearray(base[:end - 20])
    data += struct.pack("<4sIQI", b"PK\x06\x07", 0, comment_at, 1)
    data += base[end:end + 20] + struct.pack("<H", 56) + record
    assert len(data) == comment_at + 56
    with Package(bytes(data)) as pkg:
        assert sorted(pkg.infos) == ["a.xml", "b.bin"]
    with pytest.raises(UnreadableFileError) as err:  # one byte short of a record there: the 0xFFFF stands
        Package(bytes(data[:-1]))
    assert err.value.code == "err.backend.file.too_many_parts"


def test_a_locator_at_the_very_start_of_the_file_is_read() -> None:
    """The end record 20 bytes into the file, its locator at offset 0 naming a zip64 record in the comment that
    counts 200,000 entries: refused on that count, not on the end record's 0xFFFF (within this limit)."""
    record = struct.pack("<4sQ2H2I4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, 200_000, 200_000, 0, 0)
    data = (struct.pack("<4sIQI", b"PK\x06\x07", 0, 42, 1)
            + struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, 0, 0, len(record)) + record)
    err = _refusal(data, _limits(entries=100_000))
    assert err.code == "err.backend.file.too_many_parts" and err.params["limit"] == 100_000


# -- what a part inflates to, against what it declares ----------------------------------------------------------

BIG = bytes(range(251)) * (3 * MiB // 251 + 7)  # a little over 3 MiB, in several chunks of 1 MiB


def test_a_part_of_several_chunks_is_read_whole_and_counted_once() -> None:
    data = build([Entry("big.xml", BIG), A])
    with Package(data, _limits(part_bytes=len(BIG), total_bytes=len(BIG) + len(A.data))) as pkg:
        assert pkg.read("big.xml") == BIG and pkg.inflated == len(BIG)
        assert pkg.read("a.xml") == A.data and pkg.inflated == len(BIG) + len(A.data)
        with pytest.raises(UnreadableFileError) as err:  # read again: counted again, past the total
            pkg.read("a.xml")
    assert err.value.code == "err.backend.file.inflates_too_much"


@pytest.mark.parametrize("size", [MiB, 2 * MiB, MiB - 1, MiB + 1])
def test_a_part_ending_at_a_chunks_edge_is_read_whole(size: int) -> None:
    body = (b"0123456789abcdef" * (size // 16 + 1))[:size]
    with Package(build([Entry("p.xml", body)])) as pkg:
        assert pkg.read("p.xml") == body and pkg.inflated == size
        part = pkg.part("p.xml")
    assert (part.crc, part.size, part.data) == (zlib.crc32(body), size, None)
    assert part.raw == _raw_deflate(body)


def test_a_part_declaring_fewer_bytes_than_it_inflates_to_is_stopped_by_the_limits_not_its_word() -> None:
    """The headers say 100 bytes; the part inflates to 3 MB: read, it is stopped at the part limit; checked (not
    kept), at the total; within both, its size does not match and it is damaged."""
    data = build([Entry("xl/media/big.xml", BIG, size=100)])
    err = _refusal(data, _limits(part_bytes=2 * MiB), read="xl/media/big.xml")
    assert err.code == "err.backend.file.part_too_large"
    assert (err.params["part"], err.params["limit"]) == ("xl/media/big.xml", "2.0")
    err = _refusal(data, _limits(part_bytes=MiB, total_bytes=2 * MiB))
    assert err.code == "err.backend.file.inflates_too_much" and err.params["limit"] == "2.0"
    assert _bad_zip(data) == "Bad CRC-32 for file 'xl/media/big.xml'"
    assert _bad_zip(data, read="xl/media/big.xml") == "Bad CRC-32 for file 'xl/media/big.xml'"


def test_a_part_is_read_up_to_exactly_the_part_limit_whatever_it_declares() -> None:
    """3,000 bytes under a limit of 3,000: read; 3,001: refused, whether it declares its size (refused unread) or
    only 10 bytes (stopped while inflating). Declaring 10 and within the limit, it is damaged."""
    body = b"y" * 3000
    limits = _limits(part_bytes=3000)
    with Package(build([Entry("p.xml", body)]), limits) as pkg:
        assert pkg.read("p.xml") == body
    for declared in (None, 10):
        err = _refusal(build([Entry("q.xml", body + b"z", size=declared)]), limits, read="q.xml")
        assert (err.code, err.params["part"], err.params["limit"]) == ("err.backend.file.part_too_large", "q.xml",
                                                                       "0.0")
    assert _bad_zip(build([Entry("p.xml", body, size=10)]), read="p.xml", limits=limits) == (
        "Bad CRC-32 for file 'p.xml'")


def test_the_total_of_every_part_is_a_limit_at_its_exact_bound() -> None:
    parts = [Entry(f"p{i}.xml", b"q" * 1000) for i in range(3)] + [Entry("s.bin", b"s" * 1000, deflated=False)]
    data = build(parts)
    with Package(data, _limits(total_bytes=4000)) as pkg:
        pkg.check_all()
        assert pkg.inflated == 4000
    for read in (None, "s.bin"):
        with Package(data, _limits(total_bytes=3999)) as pkg:
            for name in ("p0.xml", "p1.xml", "p2.xml"):
                assert pkg.read(name) == b"q" * 1000
            with pytest.raises(UnreadableFileError) as err:
                pkg.check_all() if read is None else pkg.read(read)
        assert err.value.code == "err.backend.file.inflates_too_much" and pkg.inflated == 3000


def test_a_part_declaring_more_bytes_or_another_crc_than_it_has_is_damaged() -> None:
    assert _bad_zip(build([Entry("a.xml", A.data, size=len(A.data) + 1)])) == "Bad CRC-32 for file 'a.xml'"
    assert _bad_zip(build([Entry("a.xml", A.data, crc=zlib.crc32(A.data) ^ 1)]), read="a.xml") == (
        "Bad CRC-32 for file 'a.xml'")
    assert _bad_zip(build([Entry("b.bin", B.data, deflated=False, crc=1)])) == "Bad CRC-32 for file 'b.bin'"


def test_a_part_whose_stream_stops_short_is_damaged_and_one_without_its_last_block_is_read() -> None:
    """Its compressed size cut short (the stream has no end within it): damaged. A stream holding every byte but
    no final block (flushed, never finished) is read as zipfile reads it: the content and its CRC are whole."""
    short = build([Entry("a.xml", A.data, csize=len(_raw_deflate(A.data)) - 3), B])
    assert _bad_zip(short, read="a.xml") == "Bad CRC-32 for file 'a.xml'"
    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
    open_ended = _rebuilt_with_stream("a.xml", A.data, squeeze.compress(A.data) + squeeze.flush(zlib.Z_SYNC_FLUSH))
    with zipfile.ZipFile(io.BytesIO(open_ended)) as z:
        assert z.read("a.xml") == A.data
    with Package(open_ended) as pkg:
        assert pkg.read("a.xml") == A.data and pkg.inflated == len(A.data)
        pkg.check_all()


def _rebuilt_with_stream(name: str, body: bytes, stream: bytes) -> bytes:
    """A one-entry zip whose deflated entry holds ``stream`` (headers declaring ``body``'s size and CRC)."""
    local = struct.pack("<4s5H3I2H", b"PK\x03\x04", 20, 0, 8, 0, _DATE, zlib.crc32(body), len(stream), len(body),
                        len(name), 0) + name.encode() + stream
    central = struct.pack("<4s6H3I5HII", b"PK\x01\x02", 20, 20, 0, 8, 0, _DATE, zlib.crc32(body), len(stream),
                          len(body), len(name), 0, 0, 0, 0, 0, 0) + name.encode()
    return local + central + struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, 1, 1, len(central), len(local), 0)


def test_a_part_whose_stream_goes_on_after_its_end_is_read_to_its_end() -> None:
    """Its compressed size declares more bytes than the stream holds (the next entry's header after it): the
    stream's end stops the reading; what a save carries is the bytes declared."""
    full = _raw_deflate(A.data)
    data = build([Entry("a.xml", A.data, csize=len(full) + 40), B])
    with Package(data) as pkg:
        assert pkg.read("a.xml") == A.data
        part = pkg.part("a.xml")
    assert part.raw is not None and part.raw[:len(full)] == full and len(part.raw) == len(full) + 40
    assert _bad_zip(build([Entry("a.xml", A.data, csize=len(full) + 100)]), read="a.xml") == (
        "Truncated file header of 'a.xml'")  # more than the file holds after it


# -- the local header ---------------------------------------------------------------------------------------------

def test_a_deflated_part_is_read_where_its_local_header_says_its_data_starts() -> None:
    """The local header's own name (longer than the directory's) and extra field decide where the data starts;
    the directory's name is the part's name (zipfile would refuse the two names)."""
    entry = Entry("a.xml", A.data, local_name="xl/a-much-longer-name.xml", local_extra=b"\xfe\xca\x04\x00abcd")
    with Package(build([entry, B])) as pkg:
        assert sorted(pkg.infos) == ["a.xml", "b.bin"]
        assert pkg.read("a.xml") == A.data
        assert pkg.part("a.xml").raw == _raw_deflate(A.data)


def test_a_stored_part_whose_local_name_differs_is_refused_by_zipfile() -> None:
    data = build([A, Entry("b.bin", B.data, deflated=False, local_name="c.bin")])
    assert _bad_zip(data, read="b.bin") == "File name in directory 'b.bin' and header b'c.bin' differ."


@pytest.mark.parametrize("offset", [10, 5000, -29])
def test_a_local_header_that_is_not_where_the_directory_says_is_refused(offset: int) -> None:
    """The directory names an offset inside the first entry's data, past the file's end, or 29 bytes before it
    ends, where a local header's signature starts but not the 30 bytes of one."""
    good = build([B, A])
    at = len(good) + offset if offset < 0 else offset
    tail = b"PK\x03\x04" + b"\x00" * 25 if offset < 0 else b""
    data = build([B, Entry("a.xml", A.data, offset=at)], comment=tail)
    assert len(data) == len(good) + len(tail)
    assert _bad_zip(data, read="a.xml") == "Bad magic number for file header of 'a.xml'"
    assert _bad_zip(data) == "Bad magic number for file header of 'a.xml'"


def test_a_local_header_found_elsewhere_with_the_right_signature_reads_what_is_there() -> None:
    """Two directory entries naming the same local header: both read its content."""
    data = build([A, Entry("again.xml", A.data, offset=0)])
    with Package(data) as pkg:
        assert pkg.read("again.xml") == pkg.read("a.xml") == A.data


# -- flags and methods --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("flags", [0x2, 0x4, 0x800])
def test_flags_other_than_encryption_leave_a_deflated_part_carried_as_its_bytes(flags: int) -> None:
    data = build([Entry("a.xml", A.data, flags=flags)])
    with Package(data) as pkg:
        part = pkg.part("a.xml")
        assert pkg.read("a.xml") == A.data
    assert part == Part("a.xml", _raw_deflate(A.data), zlib.crc32(A.data), len(A.data))


@pytest.mark.parametrize("deflated", [True, False])
def test_an_encrypted_part_is_refused_whether_read_carried_or_checked(deflated: bool) -> None:
    data = build([Entry("a.xml", A.data, flags=0x1 | 0x800, deflated=deflated)])
    for how in ("read", "part", "check"):
        with pytest.raises(UnreadableFileError) as err:
            with Package(data) as pkg:
                pkg.read("a.xml") if how == "read" else pkg.part("a.xml") if how == "part" else pkg.check_all()
        assert err.value.code == "err.backend.file.encrypted"


@pytest.mark.parametrize("method", [zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA])
def test_a_part_compressed_otherwise_than_deflate_is_refused_unread(method: int) -> None:
    """OPC packages store or deflate their parts; zipfile inflates bzip2 and LZMA without a bound per call, so a
    bzip2 part of 113 bytes (100 MB of zeros) would be held whole before any limit is checked. Refused unread,
    read, carried or only checked, naming the part and the method."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("a.xml", A.data, compress_type=method)
        z.writestr("b.xml", A.data, compress_type=zipfile.ZIP_STORED)
    for how in ("read", "part", "check"):
        with pytest.raises(UnreadableFileError) as err:
            with Package(out.getvalue()) as pkg:
                assert pkg.read("b.xml") == A.data
                pkg.read("a.xml") if how == "read" else pkg.part("a.xml") if how == "part" else pkg.check_all()
        assert (err.value.code, err.value.params["part"], err.value.params["method"]) == (
            "err.backend.file.compression", "a.xml", method)
        assert pkg.inflated == len(A.data)
    said = _refusal(out.getvalue())
    assert f"part a.xml is compressed in a way no spreadsheet program writes (method {method};" in said.message("en")
    assert f"其中的部件 a.xml 用了任何表格软件都不会用的压缩方式（方法 {method}；" in said.message("zh")


def test_a_stored_part_is_carried_as_its_content() -> None:
    with Package(build([B])) as pkg:
        assert pkg.part("b.bin") == Part("b.bin", None, zlib.crc32(B.data), len(B.data), B.data)
        assert pkg.inflated == len(B.data)


# -- more lies of the end records ---------------------------------------------------------------------------------

def test_an_end_record_too_large_or_sentinel_is_read_as_unsigned() -> None:
    """A directory size of 2 GB is over the 4 MB limit (not a negative number); a zip64 record counting 2**64 - 1
    entries is over any limit; so is one behind the directory size's sentinel alone."""
    assert _refusal(build([A], cd_size=0x8000_0000)).code == "err.backend.file.too_many_parts"
    assert _refusal(build([A], zip64="both", record_count=(1 << 64) - 1)).code == "err.backend.file.too_many_parts"
    err = _refusal(build([A, B], zip64="size", record_count=21), _limits(entries=20))
    assert err.code == "err.backend.file.too_many_parts"


def test_a_zip64_record_is_read_only_when_the_end_record_sends_there() -> None:
    """The end record's counts are true (no 0xFFFF): a zip64 record and locator before it are not read, whatever
    they count."""
    data = build([A, B], zip64="record", record_count=1 << 40)
    with Package(data) as pkg:
        assert pkg.read("a.xml") == A.data and sorted(pkg.infos) == ["a.xml", "b.bin"]


def test_an_end_record_closer_to_the_start_than_a_locator_takes_is_not_sent_to_one() -> None:
    """An end record 10 bytes into the file, counting 0xFFFF entries: no locator fits before it; its count stands."""
    data = b"x" * 10 + struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, 0, 0, 0)
    assert _refusal(data).code == "err.backend.file.too_many_parts"


def test_a_locator_naming_an_offset_past_the_files_end_leaves_the_count_standing() -> None:
    """The locator's offset is 2**64 - 98 (read as signed, 98 bytes before the end: the real record)."""
    data = build([A, B], zip64="count", locator_to=(1 << 64) - 98)
    assert data[-98:-94] == b"PK\x06\x06"
    assert _refusal(data).code == "err.backend.file.too_many_parts"


def test_the_last_end_record_is_the_one_read_not_one_inside_a_part() -> None:
    """A stored part whose bytes hold an end record's signature counting 0xFFFF entries, 100 bytes before the
    real one: the last signature is the end record."""
    fake = struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, 0xFFFF_FFFF, 0, 0)
    planted = Entry("x.bin", b"head" + fake + b"tail", deflated=False)
    with Package(build([A, planted])) as pkg:
        assert pkg.read("x.bin") == planted.data and pkg.read("a.xml") == A.data


# -- the file, the local header, the part's kind -----------------------------------------------------------------

def test_a_file_is_read_up_to_exactly_its_limit_and_refused_past_it_with_both_sizes() -> None:
    data = build([Entry("big.bin", bytes(range(256)) * 6554, deflated=False)])  # 1.6 MB
    with Package(data, _limits(file_bytes=len(data))) as pkg:
        assert len(pkg.infos) == 1
    err = _refusal(data, _limits(file_bytes=len(data) - 1))
    assert err.code == "err.backend.file.too_large"
    err = _refusal(data, _limits(file_bytes=MiB))
    assert (err.code, err.params["size"], err.params["limit"]) == ("err.backend.file.too_large", "1.6", "1.0")


def test_a_local_extra_field_longer_than_32_kb_is_skipped_whole() -> None:
    """Its length is an unsigned 16-bit number: 40,000 bytes, not a negative one."""
    extra = b"\xfe\xca" + struct.pack("<H", 39_996) + bytes(39_996)
    with Package(build([Entry("a.xml", A.data, local_extra=extra)])) as pkg:
        assert pkg.read("a.xml") == A.data


def test_a_vml_part_is_xml_read_as_utf8_and_renamed_from_strict() -> None:
    """A legacy drawing (.vml, the notes' shapes) in UTF-16 is read as UTF-8; in a Strict file its names are
    moved to the transitional ones, like every XML part's."""
    body = '<xml xmlns:x="http://purl.oclc.org/ooxml/spreadsheetml/main">é</xml>'
    with Package(build([Entry("xl/drawings/vmlDrawing1.vml", body.encode("utf-16"))])) as pkg:
        assert pkg.read("xl/drawings/vmlDrawing1.vml") == body.encode()
        pkg.strict = True
        assert pkg.read("xl/drawings/vmlDrawing1.vml") == (
            '<xml xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">é</xml>'.encode())


def test_a_deflate_bomb_is_inflated_a_chunk_at_a_time() -> None:
    """32 MB of zeros in 32 KB, under a 1 MB part limit: refused after a chunk or two, never held whole."""
    import tracemalloc

    bomb = build([Entry("xl/media/bomb.xml", bytes(32 * MiB), size=10)])
    assert len(bomb) < 64_000
    tracemalloc.start()
    try:
        err = _refusal(bomb, _limits(part_bytes=MiB), read="xl/media/bomb.xml")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert err.code == "err.backend.file.part_too_large"
    assert peak < 6 * MiB, peak


def test_a_part_read_or_carried_is_not_inflated_again_by_the_check_of_every_part() -> None:
    data = build([A, B, Entry("c.xml", b"<c/>" * 100)])
    with Package(data) as pkg:
        pkg.read("a.xml")
        pkg.part("b.bin")
        pkg.check_all()
        assert pkg.inflated == len(A.data) + len(B.data) + 400
        pkg.check_all()
        assert pkg.inflated == len(A.data) + len(B.data) + 400
