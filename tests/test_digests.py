"""sheetgm's digests without hashlib (core/digests.py) are hashlib's and hmac's, byte for byte."""

from __future__ import annotations

import hashlib
import hmac

from hypothesis import given
from hypothesis import strategies as st

from sheetgm.core import digests


@given(st.binary(max_size=300))
def test_sha256_and_blake2b_are_hashlib_s(data: bytes) -> None:
    assert digests.sha256_hex(data) == hashlib.sha256(data).hexdigest()
    for size in (16, 64):
        mine = digests.blake2b(data, digest_size=size)
        assert mine.hexdigest() == hashlib.blake2b(data, digest_size=size).hexdigest()
    mine = digests.blake2b(digest_size=16)
    mine.update(data)
    mine.update(data)
    assert mine.hexdigest() == hashlib.blake2b(data + data, digest_size=16).hexdigest()
    for name in ("sha256", "sha512", "sha384", "sha1", "md5"):
        assert digests.constructor(name)(data).digest() == getattr(hashlib, name)(data).digest(), name


@given(st.binary(max_size=200), st.binary(max_size=300))
def test_hmac_is_hmac_s_for_keys_of_every_length(key: bytes, message: bytes) -> None:
    """Keys shorter than SHA-256's block are padded, longer ones hashed first (RFC 2104)."""
    assert digests.hmac_sha256_hex(key, message) == hmac.new(key, message, hashlib.sha256).hexdigest()


def test_same_text_is_compare_digest_of_the_utf8_bytes() -> None:
    for a, b in [("abc", "abc"), ("abc", "abd"), ("", ""), ("0f" * 8, "0f" * 8), ("a", "ab")]:
        assert digests.same_text(a, b) is hmac.compare_digest(a, b)
    # what a player may type where a seal goes: compared, not refused (compare_digest raises on such str)
    for a, b in [("数", "数"), ("abc", "数"), ("é", "e\u0301"), ("ａ", "a")]:
        assert digests.same_text(a, b) is hmac.compare_digest(a.encode(), b.encode()) is (a == b)
