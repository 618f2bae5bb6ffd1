"""Values as the Sheets API takes them in and gives them back.

In: ``RAW`` keeps a string a string and a JSON number or boolean a number or boolean;
``USER_ENTERED`` parses as the Sheets UI does: ``=...`` is a formula, ``'x`` the string ``x``,
``TRUE``/``FALSE`` booleans, ``42``, ``0.12``, ``2,000,000.01``, ``50%`` numbers and ``2020-01-01``
a date. The fake evaluates formulas of arithmetic only (numbers, ``+ - * / ^``, brackets); any other
formula reads back as ``#ERROR!`` (Google would compute it).

Out: ``FORMATTED_VALUE`` gives the text shown, ``UNFORMATTED_VALUE`` numbers and booleans as JSON
(a date as its serial number, or its text with ``dateTimeRenderOption=FORMATTED_STRING``),
``FORMULA`` a formula's text and otherwise the unformatted value.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from fakes.book import Typed

Json = dict[str, Any]
EPOCH = date(1899, 12, 30)  # day 0 of Sheets' serial dates
_NUMBER = re.compile(r"^[+-]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?(%?)$")
_DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d*)?|\.\d+)|(.))")


def number_text(x: float) -> str:
    """A number in Sheets' automatic format: integers plain, others with up to 10 significant digits."""
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return format(x, ".10g")


def json_number(x: float) -> int | float:
    return int(x) if x == int(x) and abs(x) < 2**53 else x


def _number(x: float, text: str | None = None) -> Typed:
    return Typed({"numberValue": json_number(x)}, {"numberValue": json_number(x)}, text or number_text(x))


def raw(value: Any) -> Typed | str | None:
    """A value of a ``RAW`` write (None: the cell is left as it is)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return Typed({"boolValue": value}, {"boolValue": value}, "TRUE" if value else "FALSE")
    if isinstance(value, int | float):
        return _number(float(value))
    return str(value)


def user_entered(value: Any) -> Typed | str | None:
    """A value of a ``USER_ENTERED`` write, parsed as if typed into the sheet."""
    if not isinstance(value, str):
        return raw(value)
    text = value
    if text.startswith("'"):
        return text[1:]
    if text.startswith("=") and len(text) > 1:
        return formula(text)
    if text.upper() in ("TRUE", "FALSE"):
        return raw(text.upper() == "TRUE")
    m = _NUMBER.match(text.strip())
    if m and (m.group(1) or m.group(3)):
        x = float(text.strip().rstrip("%").replace(",", ""))
        if m.group(4):
            return _number(x / 100, text.strip())
        return _number(x, text.strip() if "," in text else None)
    d = _DATE.match(text.strip())
    if d:
        try:
            day = date(int(d.group(1)), int(d.group(2)), int(d.group(3)))
        except ValueError:
            return text
        serial = (day - EPOCH).days
        return Typed({"numberValue": serial}, {"numberValue": serial}, day.isoformat(), date=True)
    return text


def formula(text: str) -> Typed:
    try:
        x = _Arithmetic(text[1:]).value()
    except ZeroDivisionError:
        err = {"type": "DIV_ZERO", "message": "Function DIVIDE parameter 2 cannot be zero."}
        return Typed({"formulaValue": text}, {"errorValue": err}, "#DIV/0!")
    except ValueError:
        err = {"type": "ERROR", "message": "the fake Google evaluates formulas of arithmetic only"}
        return Typed({"formulaValue": text}, {"errorValue": err}, "#ERROR!")
    return Typed({"formulaValue": text}, {"numberValue": json_number(x)}, number_text(x))


class _Arithmetic:
    """``1 + 2 * (3 - 4) / 5 ^ 2``: a recursive-descent evaluator (no ``eval``)."""

    def __init__(self, text: str) -> None:
        self.tokens: list[str | float] = []
        for m in _TOKEN.finditer(text):
            if m.group(1):
                self.tokens.append(float(m.group(1)))
            elif m.group(2) and not m.group(2).isspace():
                if m.group(2) not in "+-*/^()":
                    raise ValueError(text)
                self.tokens.append(m.group(2))
        self.i = 0

    def value(self) -> float:
        x = self._sum()
        if self.i != len(self.tokens):
            raise ValueError("trailing tokens")
        return x

    def _peek(self) -> str | float | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def _take(self) -> str | float:
        if self.i >= len(self.tokens):
            raise ValueError("unexpected end")
        self.i += 1
        return self.tokens[self.i - 1]

    def _sum(self) -> float:
        x = self._product()
        while self._peek() in ("+", "-"):
            x = x + self._product() if self._take() == "+" else x - self._product()
        return x

    def _product(self) -> float:
        x = self._power()
        while self._peek() in ("*", "/"):
            if self._take() == "*":
                x *= self._power()
            else:
                x /= self._power()
        return x

    def _power(self) -> float:
        x = self._unary()
        if self._peek() == "^":
            self._take()
            return float(x ** self._power())
        return x

    def _unary(self) -> float:
        tok = self._take()
        if tok == "-":
            return -self._unary()
        if tok == "+":
            return self._unary()
        if tok == "(":
            x = self._sum()
            if self._take() != ")":
                raise ValueError("unclosed bracket")
            return x
        if isinstance(tok, float):
            return tok
        raise ValueError(f"unexpected {tok}")


def render(found: Typed | None, text: str, option: str, dates: str) -> Any:
    """A cell in a values read: ``text`` (the cell's text) or its typed value, per the render options."""
    if found is None:
        return text
    if option == "FORMATTED_VALUE":
        return found.formatted
    if option == "FORMULA" and "formulaValue" in found.entered:
        return found.entered["formulaValue"]
    value = found.effective
    if "errorValue" in value:
        return found.formatted
    if found.date and dates == "FORMATTED_STRING":
        return found.formatted
    return next(iter(value.values()))
