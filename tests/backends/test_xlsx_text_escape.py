"""``xmlkit.text`` escapes a text as the table's translate did (the witness): every code point alone, and random
texts mixing what is escaped, what is dropped and what is kept."""

from __future__ import annotations

import random

from sheetgm.backends.xlsx import xmlkit


def test_every_character_is_written_as_the_table_writes_it() -> None:
    for cp in range(0x110000):
        ch = chr(cp)
        assert xmlkit.text(ch) == ch.translate(xmlkit._TEXT), cp


def test_texts_are_written_as_the_table_writes_them() -> None:
    rng = random.Random(7)
    alphabet = "ab &<>\r\n\t\x01\x0b\x1f\ud800\udfff\ufffe\uffff门é_x\"'&amp;"
    for _ in range(50_000):
        value = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
        assert xmlkit.text(value) == value.translate(xmlkit._TEXT), repr(value)
