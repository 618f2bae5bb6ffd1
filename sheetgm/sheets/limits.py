"""What fits: the longest order the tool reads, and texts shortened (visibly) to fit one cell.

An order is a few steps; ``MAX_ORDER_CHARS`` (told to players in the note on
their Orders tab) stops a pasted novel from reaching the journal: a longer
order is refused like an unreadable one (the player stays and does nothing, and
is told why), and only its first ``MAX_ORDER_CHARS + 1`` characters are kept,
which is enough for a replay to refuse it again.

Every cell the tool writes stays within ``port.CELL_LIMIT`` (an .xlsx cell holds
32,767 characters, a Google one 50,000): the journal splits long values across
cells (journal.py); a report or a log too long for its cell is cut with a note
saying so and where the whole of it is kept (``fit``), never silently.
"""

from __future__ import annotations

from typing import Any

from sheetgm.backends.port import CELL_LIMIT
from sheetgm.core.texts import render

MAX_ORDER_CHARS = 2000


def order_too_long(text: str, lang: str) -> str | None:
    """The problem of an order longer than players may write, in ``lang``; None if it is short enough."""
    if len(text) <= MAX_ORDER_CHARS:
        return None
    return render(lang, "svc.order_too_long", n=len(text), max=MAX_ORDER_CHARS)


def kept_order(text: str) -> str:
    """What the journal keeps of an order: all of it, or enough of a refused one to refuse it again."""
    return text[:MAX_ORDER_CHARS + 1]


def fit(text: str, lang: str, key: str, limit: int = CELL_LIMIT, **params: Any) -> str:
    """``text`` if it fits one cell, else its start and the note ``key`` (how much was cut, and where the
    whole text is kept: ``params``), together exactly within the limit."""
    if len(text) <= limit:
        return text
    note = "\n" + render(lang, key, n=len(text), **params)
    return text[:limit - len(note)] + note
