"""One error base for the whole project.

Every error carries a message *code* and its parameters, so that the same
error can be told to a player in Chinese or English (`message(lang)`); the
texts live in ``sheet_templates/texts``.
"""

from __future__ import annotations

from typing import Any


class SheetgmError(Exception):
    """Base of every error sheetgm raises on purpose."""

    code = "err.generic"

    def __init__(self, code: str | None = None, /, **params: Any) -> None:
        if code is not None:
            self.code = code
        self.params = params
        super().__init__(self.message("en"))

    def message(self, lang: str = "zh") -> str:
        from sheetgm.core.texts import render

        return render(lang, self.code, **self.params)


class MapError(SheetgmError):
    """A map file is malformed; params carry ``line`` and ``col`` (1-based)."""

    code = "err.map.generic"


class OrderError(SheetgmError):
    """Base of order problems."""


class OrderSyntaxError(OrderError):
    """The text of an order cannot be read."""

    code = "err.order.syntax"


class IllegalOrderError(OrderError):
    """A step is readable but breaks a rule in the position it is played."""

    code = "err.order.illegal"


class AmbiguousOrderError(OrderError):
    """A step could mean two things (e.g. the Priestess's skill and the item 门之钥)."""

    code = "err.order.ambiguous"


class CaseError(SheetgmError):
    """A case-book file is malformed."""

    code = "err.case.generic"


class StateError(SheetgmError):
    """A state document or a director override is invalid."""

    code = "err.state.generic"
