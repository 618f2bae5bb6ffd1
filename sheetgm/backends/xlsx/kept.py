"""What reading and writing workbooks work out from their text, kept across commands in the cache folder.

A game's workbooks hold the same sheet layouts, style tables and rows from one command to the next; parsing them
again is ~15 ms of every ``check`` and ``resolve`` of a 10-player game (issue 14). The reader's and the writer's
per-process memos (``read.py``, ``sheetxml.py``) look here before they parse: a table in the cache folder
(``marshal``) of plain results (str, bytes, int, float, tuples, frozensets), each kept as its own marshal bytes
(made into objects only when used) under a BLAKE2b digest of the section and the exact text parsed (keys of whole
texts cost more to load than what they save), the table stamped with a digest of the parsing code and a CRC of its
bytes. What is taken from it is what parsing that text gives; a table that cannot be read (cut, damaged, written
by other code) is ignored and written anew.

What one run parses and no later run sees again (a check's status rows, new each time) must not make the table
grow, nor have it rewritten at every run: an entry enters the table only when a run parses a text the previous
run parsed too. Each run notes the digests of what it parsed (``seen``, a small file of its own, written when
they change); the table is rewritten only when it gains an entry, keeping what that run used and added, then
what the run that wrote it before used and added (a past night's rows fall out), under ``LIMIT`` bytes.
"""

from __future__ import annotations

import atexit
import marshal
import sys
import zlib
from collections.abc import Hashable, Iterable
from itertools import islice
from pathlib import Path
from typing import Any, cast

from sheetgm import __version__
from sheetgm.core.cachedir import file_in, keep_bytes, read_bytes
from sheetgm.core.digests import blake2b

try:  # the interpreter's own BLAKE2b (core/digests.py: without hashlib), called straight for each text
    from _blake2 import blake2b as _blake2b
except ImportError:  # pragma: no cover - another Python
    from hashlib import blake2b as _blake2b

LIMIT = 2_000_000  # bytes of kept results, at most (loading the table costs ~1 ms a megabyte)
SEEN_LIMIT = 20_000  # digests noted by one run, at most (the list is read by every run)
FILE_LIMIT = 3 * LIMIT  # bytes of a kept file, at most (the results, their digests and marshal's framing)
LOOK_LIMIT = 2_000_000  # characters of the texts one process looks up (hashing them costs ~1.5 ms a megabyte)
_MARK = b"sgk5"  # the format of the files
_HEAD = 24  # the mark, the code's digest (16 bytes), the CRC-32 of what follows
# The modules whose code decides what is kept (relative to the sheetgm package): a change to one of them and the
# table is another's.
CODE = ("backends/a1.py", "backends/xlsx/book.py", "backends/xlsx/kept.py", "backends/xlsx/read.py",
        "backends/xlsx/sheetxml.py", "backends/xlsx/styles.py", "backends/xlsx/xmlkit.py")

_table: dict[bytes, bytes] | None = None  # digest -> marshal bytes; None: not loaded yet in this process
_seen: frozenset[bytes] = frozenset()
_fresh: dict[tuple[str, Hashable], Any] = {}  # what this process parsed itself: (section, text) -> result
_used: set[bytes] = set()  # the digests this process took from the table
_code = b""  # the digest of the parsing code the loaded table was checked against (b"": none, nothing kept)
_TEXTS: dict[str, bytes] = {}  # a text -> its digest, in this process
_recent = [0]  # the entries leading the table that the run which wrote it used or added
_looked = [0]  # the characters of the texts this process looked up


def code_digest() -> bytes:
    """A digest of sheetgm's version and of the bytes of the modules in CODE."""
    package = Path(__file__).parent.parent.parent
    digest = blake2b(__version__.encode(), digest_size=16)
    for name in CODE:
        digest.update((package / name).read_bytes())
    return bytes(digest.digest())


def table_file() -> Path | None:
    """The table in the cache folder (core/cachedir.py); None when there is no folder to use."""
    return file_in(f"xlsx-kept.{sys.implementation.cache_tag}-{marshal.version}.marshal")


def seen_file() -> Path | None:
    return file_in(f"xlsx-seen.{sys.implementation.cache_tag}-{marshal.version}.marshal")


def digest(section: str, key: Hashable) -> bytes | None:
    """``section`` and a digest of ``key`` (a text, or a tuple marshal writes); None for any other key."""
    if type(key) is str:  # a row's text is looked up for its number and shape, then for its cells: hashed once
        text = _TEXTS.get(key)
        if text is None:
            if len(_TEXTS) >= 20_000:
                _TEXTS.clear()
            text = _TEXTS[key] = _blake2b(key.encode("utf-8", "surrogatepass"), digest_size=16, person=b"s").digest()
    elif type(key) is bytes:
        text = _blake2b(key, digest_size=16, person=b"b").digest()
    else:
        try:  # marshal refuses a subclass (an enum, a str of another type) and writes a bool as no int
            data = marshal.dumps(cast(Any, key), 2)  # version 2: no references, so equal keys give equal bytes
        except ValueError:
            return None
        text = _blake2b(data, digest_size=16, person=b"m").digest()
    return b"%s:%s" % (section.encode(), text)


def get(section: str, key: Hashable) -> Any:
    """The kept result of parsing ``key`` (a text) for ``section``, or None."""
    table = _table if _table is not None else _load()
    if _looked[0] > LOOK_LIMIT:
        return None  # (past it, what a key holds is not even measured)
    _looked[0] += size(key)
    if not table or _looked[0] > LOOK_LIMIT:
        return None  # a large game: what is read past this is parsed, as without the table, and not noted
    found = digest(section, key)
    kept = table.get(found) if found is not None else None
    if kept is None:
        return None
    _used.add(cast(bytes, found))
    return marshal.loads(kept)


def note(section: str, key: Hashable, value: Any) -> None:
    """``value``, parsed by this process from ``key`` after ``get`` found none: a candidate for the table (plain
    data only), while this process looks texts up (past LOOK_LIMIT it notes none: the table stays the same)."""
    if _looked[0] <= LOOK_LIMIT:
        _fresh[(section, key)] = value


def size(key: Hashable) -> int:
    """What digesting ``key`` costs, in characters: a text's length, a tuple's texts' (a written row's key holds
    its cells' texts: 12,000 rows each showing one 1 MB shared string were 12 GB to hash at every save), 8 for
    anything else."""
    kind = type(key)
    if kind is str or kind is bytes:
        return len(key)  # type: ignore[arg-type]
    if kind is not tuple:
        return 8
    n = 8 * len(key)  # type: ignore[arg-type]
    for item in key:  # type: ignore[attr-defined]
        inner = type(item)
        if inner is str or inner is bytes:
            n += len(item)
        elif inner is tuple:
            n += size(item)
    return n


def _read(file: Path | None) -> Any:
    """What ``file`` holds, if it is whole and was written by this code: None otherwise. A file is the format's
    mark, the code's digest, a CRC-32 of the rest and the rest (marshal), read in place; it is read only if it is
    a regular file of this user no larger than FILE_LIMIT (core/cachedir.py), and marshal sees only bytes whose
    CRC matches (cut or damaged bytes are never handed to it)."""
    data = read_bytes(file, FILE_LIMIT)
    if data is None or len(data) < _HEAD:
        return None
    payload = memoryview(data)[_HEAD:]
    if data[:4] != _MARK or data[4:20] != _code or int.from_bytes(data[20:_HEAD], "big") != zlib.crc32(payload):
        return None
    try:
        return marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None


def _load() -> dict[bytes, bytes]:
    global _table, _seen, _code
    _table = {}
    atexit.register(save)
    try:
        _code = code_digest()
        files = table_file(), seen_file()
    except (OSError, RuntimeError):  # the code cannot be read: nothing is kept
        files = None, None
    if files[0] is None or files[1] is None:  # or there is no cache folder to use
        _code = b""
        return _table
    kept, seen = _read(files[0]), _read(files[1])
    if isinstance(kept, tuple) and len(kept) == 2 and type(kept[0]) is int and isinstance(kept[1], dict) and \
            all(type(k) is bytes and type(v) is bytes for k, v in kept[1].items()):
        _recent[0], _table = kept
    if isinstance(seen, frozenset):
        _seen = seen
    return _table


def save() -> tuple[bool, bool]:
    """Keep what this run parsed that the previous run parsed too, and note the digests of the rest; whether the
    table and the list of digests were written (a second call writes nothing new)."""
    global _seen, _table
    if _table is None or not _code or not _fresh:  # nothing parsed (since the last save): the digests stay
        return False, False
    promoted: dict[bytes, bytes] = {}
    noted: set[bytes] = set()
    for (section, key), value in _fresh.items():
        found = digest(section, key)
        if found is None:
            continue
        if found in _seen:
            try:
                promoted[found] = marshal.dumps(value)  # what marshal writes it gives back, of the same types
            except ValueError:
                continue
        elif len(noted) < SEEN_LIMIT:
            noted.add(found)
    _fresh.clear()
    wrote_table = False
    if promoted:
        _table, _recent[0] = _merged(promoted)
        _used.update(promoted.keys() & _table.keys())
        wrote_table = _keep(table_file(), (_recent[0], _table))
    seen = frozenset(noted)
    wrote_seen = seen != _seen and _keep(seen_file(), seen)
    _seen = seen
    return wrote_table, wrote_seen


def _merged(promoted: dict[bytes, bytes]) -> tuple[dict[bytes, bytes], int]:
    """The table with ``promoted`` added, and how many of its entries lead it as this run's: what this run used
    and what it adds, then what the run that wrote the table last used and added (older entries are dropped),
    while their bytes stay under LIMIT."""
    table = _table or {}
    out: dict[bytes, bytes] = {}
    size = 0

    def add(entries: Iterable[tuple[bytes, bytes]]) -> bool:
        nonlocal size
        for key, value in entries:
            if key not in out:
                size += len(value)
                if size > LIMIT:
                    return False
                out[key] = value
        return True

    whole = add((k, table[k]) for k in _used if k in table) and add(promoted.items())
    mine = len(out)
    if whole:
        add(islice(table.items(), _recent[0]))
    return out, mine


def _keep(file: Path | None, data: Any) -> bool:
    payload = marshal.dumps(data)
    return keep_bytes(file, b"".join((_MARK, _code, zlib.crc32(payload).to_bytes(4, "big"), payload)))


def reset() -> None:
    """Forget what this process loaded, parsed and used (the next lookup loads the table again): for tests."""
    global _table, _seen, _code
    _table, _seen, _code = None, frozenset(), b""
    _recent[0] = 0
    _fresh.clear()
    _used.clear()
    _looked[0] = 0
    atexit.unregister(save)
