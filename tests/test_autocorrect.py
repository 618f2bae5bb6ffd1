"""Issue 15.5: punctuation an editor autocorrects reads as what the player typed: en and em dashes (and the
minus sign) for the hyphen of ``B2-B3`` and ``->``, curly apostrophes for the straight one, and quotes around
an alias ("Ann", “Ann”, 「Ann」) are not part of it."""

from __future__ import annotations

import pytest

from sheetgm.notation.orders import parse_order, parse_order_all
from sheetgm.notation.vocab import plain_text, same_alias


@pytest.mark.parametrize(("typed", "plain"), [
    ("封堵 B2–B3", "封堵 B2-B3"),
    ("封堵 B2—B3", "封堵 B2-B3"),
    ("封堵 B2−B3", "封堵 B2-B3"),
    ("B2 –> B3", "B2 -> B3"),
    ("潜入者 B2—E5", "潜入者 B2-E5"),
    ("救治 “Ann”", "救治 Ann"),
    ("救治「Ann」倒地", "救治Ann倒地"),
    ("give \"Ann\" bottle", "give Ann bottle"),
    ("heal ‘Ann’", "heal Ann"),
    ("heal O’Neil", "heal O'Neil"),
])
def test_autocorrected_punctuation_reads_as_typed(typed: str, plain: str) -> None:
    assert plain_text(typed) == plain
    order, errors = parse_order_all(typed)
    assert errors == [] and order == parse_order(plain)


def test_an_alias_with_an_apostrophe_matches_however_it_is_curled() -> None:
    assert same_alias("O’Neil", "O'Neil")
    assert parse_order("heal O’Neil") == parse_order("heal O'Neil")
