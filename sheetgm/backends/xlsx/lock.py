"""Protection in force in an .xlsx file: a tab locked with the game's password, its open cells, and the
workbook's structure locked with it.

A file has no editors. What LibreOffice and Excel enforce is a tab's ``<sheetProtection>`` (every cell
locked but those whose style says ``<protection locked="0"/>``; flags such as ``insertRows="1"`` forbid
inserting rows, sorting, formatting...) and the workbook's ``<workbookProtection lockStructure="1">`` (no
tab renamed, deleted, added, hidden or shown). Both ask for the password before they are lifted when it is
stored as a salted, iterated SHA-512 hash (ECMA-376 Part 1, 18.2.29 and 18.3.1.85: H0 = H(salt +
password as UTF-16LE), then H(Hn + n as a 4-byte little-endian counter), ``spinCount`` times): the modern
hash both programs honour. The old 16-bit ``password`` attribute is found by trying 65,536 candidates, so
it counts as weak. The password never enters a player's file: the game keeps it in the director workbook.

What LibreOffice 7.4 was seen to do with such a file: a locked cell refuses typing, an open one takes it,
inserting and deleting rows are refused, a protected tab cannot be renamed, the wrong password does not lift
the protection and the game's does. It ignores the workbook's structure lock (Excel honours it), so that lock
is written but not counted on: a tab renamed or deleted is found and repaired by the tool instead.
"""

from __future__ import annotations

import base64
import binascii
import functools
import struct

from sheetgm.backends.port import LOCK_GAME, LOCK_NONE, LOCK_OTHER
from sheetgm.core.digests import constructor

LOCK_WEAK = "weak"  # the old 16-bit hash: anyone can find a password that lifts it
ALGORITHM = "SHA-512"
# Excel and LibreOffice write 100,000 rounds, which costs 0.35 s of CPU in Python at every command that checks or
# writes a lock. The rounds only slow a guess of a weak password; the game's is 96 random bits
# (secrets.token_urlsafe(12)), so 1,000 rounds lose nothing, and both programs honour the count the file gives.
SPIN = 1_000
MAX_SPIN = 10_000_000  # a file asking for more is not worked through (a hash that takes minutes is a trap)
_HASHES = {"SHA-512": "sha512", "SHA-384": "sha384", "SHA-256": "sha256", "SHA-1": "sha1", "MD5": "md5"}
# What a locked tab forbids: "1" locks the action while the sheet is protected (ECMA-376 18.3.1.85).
CLOSED = {"sheet": "1", "objects": "1", "scenarios": "1", "formatCells": "1", "formatColumns": "1",
          "formatRows": "1", "insertColumns": "1", "insertRows": "1", "insertHyperlinks": "1",
          "deleteColumns": "1", "deleteRows": "1", "sort": "1", "autoFilter": "1", "pivotTables": "1",
          "selectLockedCells": "0", "selectUnlockedCells": "0"}
# The actions that must stay forbidden, and their default when the attribute is left out.
GUARDED = {"formatCells": True, "formatColumns": True, "formatRows": True, "insertColumns": True,
           "insertRows": True, "deleteColumns": True, "deleteRows": True, "sort": True, "autoFilter": True}
_TRUE = ("1", "true")


def is_on(attrs: dict[str, str] | None, flag: str = "sheet") -> bool:
    return attrs is not None and attrs.get(flag, "0").strip().lower() in _TRUE


@functools.lru_cache(maxsize=64)
def password_hash(password: str, salt: str, spin: int, algorithm: str = ALGORITHM) -> str | None:
    """The base64 hash of ``password`` with a base64 ``salt``; None for an algorithm or salt this reader
    does not take, or a spin count past MAX_SPIN."""
    name = _HASHES.get(algorithm.upper())
    try:
        raw_salt = base64.b64decode(salt, validate=True)
    except (binascii.Error, ValueError):
        return None
    if name is None or not 0 <= spin <= MAX_SPIN:
        return None
    make, pack = constructor(name), struct.Struct("<I").pack  # the named constructor: hashlib.new is slower
    digest = make(raw_salt + password.encode("utf-16-le")).digest()
    for i in range(spin):
        digest = make(digest + pack(i)).digest()
    return base64.b64encode(digest).decode("ascii")


def _salt(password: str) -> str:
    """One salt per password: every tab and file of a game hashes alike, so the hash is worked out once per
    process and a file written again keeps the same bytes."""
    return base64.b64encode(constructor("sha256")(b"sheetgm xlsx lock\0" + password.encode("utf-8")).digest()[:16]
                            ).decode()


def lock_attrs(password: str, prefix: str = "") -> dict[str, str]:
    """The attributes that lock a tab (``prefix`` ""), or the workbook (``prefix`` "workbook"), with ``password``."""
    salt = _salt(password)
    digest = password_hash(password, salt, SPIN, ALGORITHM)  # the arguments lock_of gives: one cache entry
    assert digest is not None  # our own algorithm and salt
    names = _names(prefix)
    return {names[0]: ALGORITHM, names[1]: digest, names[2]: salt, names[3]: str(SPIN)}


def _names(prefix: str) -> tuple[str, str, str, str]:
    if not prefix:
        return "algorithmName", "hashValue", "saltValue", "spinCount"
    return f"{prefix}AlgorithmName", f"{prefix}HashValue", f"{prefix}SaltValue", f"{prefix}SpinCount"


def lock_of(attrs: dict[str, str], password: str | None, prefix: str = "") -> str:
    """What lifts a protection with these attributes: the game's ``password`` (LOCK_GAME), nothing
    (LOCK_NONE), an old 16-bit hash (LOCK_WEAK) or another password (LOCK_OTHER)."""
    algorithm, hashed, salt, spin = (attrs.get(n, "") for n in _names(prefix))
    if hashed:
        if password is None or not spin.strip().isdigit():
            return LOCK_OTHER
        mine = password_hash(password, salt, int(spin), algorithm or ALGORITHM)
        return LOCK_GAME if mine is not None and mine == hashed else LOCK_OTHER
    return LOCK_WEAK if attrs.get(f"{prefix}Password" if prefix else "password") else LOCK_NONE


def allows(attrs: dict[str, str]) -> tuple[str, ...]:
    """The guarded actions a tab's protection lets anyone do (an attribute set to 0, or left out where the
    default allows it)."""
    found = []
    for flag, default in GUARDED.items():
        value = attrs.get(flag)
        locked = default if value is None else value.strip().lower() in _TRUE
        if not locked:
            found.append(flag)
    return tuple(found)


def sheet_lock(attrs: dict[str, str] | None, password: str) -> dict[str, str] | None:
    """The ``<sheetProtection>`` attributes a tab locked by ``password`` should carry; None if ``attrs`` already
    lock it so (kept as they are: a file saved again by LibreOffice keeps its own salt)."""
    if attrs is not None and is_on(attrs) and not allows(attrs) and lock_of(attrs, password) == LOCK_GAME:
        return None
    return {**CLOSED, **lock_attrs(password)}


def structure_lock(attrs: dict[str, str] | None, password: str | None) -> dict[str, str] | None:
    """The ``<workbookProtection>`` attributes that lock the structure with ``password`` (None: without one);
    None if the ones there already do."""
    if password is None:
        return None if is_on(attrs, "lockStructure") else {"lockStructure": "1"}
    if is_on(attrs, "lockStructure") and lock_of(attrs or {}, password, "workbook") == LOCK_GAME:
        return None
    return {**lock_attrs(password, "workbook"), "lockStructure": "1"}
