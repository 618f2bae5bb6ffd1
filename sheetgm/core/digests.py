"""SHA-256, BLAKE2b and HMAC-SHA-256 without importing ``hashlib`` or ``hmac``.

Importing ``hashlib`` loads OpenSSL: ~3 ms of every command, for digests of a few short texts (issue 14). The
interpreter's own builtin modules give the same digests, and the standard library's ``random`` takes its
SHA-512 the same way; where a Python lacks them, ``hashlib``'s are used. tests/test_digests.py holds every
function here to ``hashlib`` and ``hmac``.
"""

from __future__ import annotations

from _operator import _compare_digest
from collections.abc import Callable
from typing import Any, cast

try:  # CPython 3.11 (3.12 merged these modules into one: there, hashlib's)
    from _sha256 import sha256 as _sha256  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # pragma: no cover - another Python
    from hashlib import sha256 as _sha256
try:
    from _sha512 import sha512 as _sha512  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # pragma: no cover - another Python
    from hashlib import sha512 as _sha512
try:
    from _blake2 import blake2b as _blake2b
except ImportError:  # pragma: no cover - another Python
    from hashlib import blake2b as _blake2b

_BLOCK = 64  # SHA-256's block, in bytes (RFC 2104's B)
_OUTER = bytes(x ^ 0x5C for x in range(256))
_INNER = bytes(x ^ 0x36 for x in range(256))


def sha256_hex(data: bytes) -> str:
    """``hashlib.sha256(data).hexdigest()``."""
    return str(_sha256(data).hexdigest())


def constructor(name: str) -> Callable[[bytes], Any]:
    """``getattr(hashlib, name)`` (an object with ``digest``): SHA-256 and SHA-512 without importing hashlib."""
    if name == "sha256":
        return cast("Callable[[bytes], Any]", _sha256)
    if name == "sha512":
        return cast("Callable[[bytes], Any]", _sha512)
    import hashlib

    return cast("Callable[[bytes], Any]", getattr(hashlib, name))


def blake2b(data: bytes = b"", digest_size: int = 64) -> Any:
    """``hashlib.blake2b(data, digest_size=...)``: an object to ``update`` and ask ``hexdigest`` of."""
    return _blake2b(data, digest_size=digest_size)


def hmac_sha256_hex(key: bytes, message: bytes) -> str:
    """``hmac.new(key, message, hashlib.sha256).hexdigest()`` (RFC 2104)."""
    if len(key) > _BLOCK:
        key = _sha256(key).digest()
    key = key.ljust(_BLOCK, b"\0")
    inner = _sha256(key.translate(_INNER) + message).digest()
    return str(_sha256(key.translate(_OUTER) + inner).hexdigest())


def same_text(a: str, b: str) -> bool:
    """``hmac.compare_digest`` of two texts' UTF-8 bytes: in a time that does not tell where they differ. As
    bytes, because the texts compared come from cells a player can type in, and ``compare_digest`` refuses
    non-ASCII ``str`` with a ``TypeError``."""
    return bool(_compare_digest(a.encode(), b.encode()))
