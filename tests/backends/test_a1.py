"""A1 ranges: parse/format round trip and precise errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sheetgm.backends.a1 import A1, col_index, col_letters, format_range, normalize, parse_range
from sheetgm.backends.errors import RangeError


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Orders", A1("Orders")),
        ("Orders!B3", A1("Orders", 2, 1, 3, 2)),
        ("Orders!a2:f40", A1("Orders", 1, 0, 40, 6)),
        ("Orders!A2:F", A1("Orders", 1, 0, None, 6)),
        ("Orders!A:F", A1("Orders", 0, 0, None, 6)),
        ("Orders!2:5", A1("Orders", 1, 0, 5, None)),
        ("'My tab'!B3", A1("My tab", 2, 1, 3, 2)),
        ("'it''s'!A1", A1("it's", 0, 0, 1, 1)),
        ("命令!A1:C3", A1("命令", 0, 0, 3, 3)),
    ],
)
def test_parse(text: str, expected: A1) -> None:
    assert parse_range(text) == expected


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("A1", "name its tab"), ("A1:B2", "name its tab"), ("Orders!", "nothing after"),
        ("Orders!A0", "from 1"), ("Orders!B2:A1", "before the first"), ("Orders!A:F10", "specific"),
        ("'x!A1", "unclosed"), ("Orders!A1:B2:C3", "not a cell"), ("Orders!1A", "not a cell"),
    ],
)
def test_errors_say_why(text: str, why: str) -> None:
    with pytest.raises(RangeError) as err:
        parse_range(text)
    assert why in err.value.message("en") and text in err.value.message("en")


def test_columns() -> None:
    assert [col_letters(i) for i in (0, 25, 26, 701, 702)] == ["A", "Z", "AA", "ZZ", "AAA"]
    assert all(col_index(col_letters(i)) == i for i in range(2000))


tabs = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12)


@st.composite
def ranges(draw: st.DrawFn) -> A1:
    tab = draw(tabs)
    kind = draw(st.sampled_from(["tab", "box", "open", "cols", "rows"]))
    r0, c0 = draw(st.integers(0, 999)), draw(st.integers(0, 60))
    h, w = draw(st.integers(1, 50)), draw(st.integers(1, 20))
    if kind == "tab":
        return A1(tab)
    if kind == "box":
        return A1(tab, r0, c0, r0 + h, c0 + w)
    if kind == "open":
        return A1(tab, r0 + 1, c0, None, c0 + w)
    if kind == "cols":
        return A1(tab, 0, c0, None, c0 + w)
    return A1(tab, r0, 0, r0 + h, None)


@given(ranges())
def test_format_then_parse_round_trips(rng: A1) -> None:
    assert parse_range(format_range(rng)) == rng
    assert normalize(format_range(rng)) == format_range(rng)
