"""A SetValues op holds text only, whatever it was given: None is a blank, a number its text, a subclass of str a
plain str (the adapters write what they are given as is)."""

from __future__ import annotations

from sheetgm.backends.port import SetValues


class Tagged(str):
    pass


def test_values_are_plain_text_whatever_they_were_given() -> None:
    op = SetValues("A!A1", [["a", None, 3, 1.5, Tagged("x")], ("b",)])
    assert op.rows == (("a", "", "3", "1.5", "x"), ("b",))
    assert all(type(v) is str for row in op.rows for v in row)
    texts = ["a", "b"]
    assert SetValues("A!A1", [texts]).rows == (("a", "b"),) and isinstance(SetValues("A!A1", [texts]).rows[0], tuple)
