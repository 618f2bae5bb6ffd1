"""Google's protected ranges in force in the fake: who may change a protected cell.

The owner of the file may change anything; anyone else who can edit the file may not change a cell that a
protection covers (outside its unprotected ranges) unless they are among its editors or it only warns, nor
delete a protection or add one to a protected sheet they may not edit. Google answers such a request 400,
"You are trying to edit a protected cell or object" (the whole batch is refused, nothing applied).
"""

from __future__ import annotations

from typing import Any

from fakes.errors import ApiFault, bad
from sheetgm.backends import model
from sheetgm.backends.a1 import A1
from sheetgm.backends.google.translate import a1_of

REFUSED = ("You are trying to edit a protected cell or object. Please contact the spreadsheet owner to remove "
           "protection if you need to edit.")
CELL_REQUESTS = ("updateCells", "repeatCell", "updateBorders", "setDataValidation")


def _overlap(a: A1, b: A1) -> bool:
    def apart(s0: int, e0: int | None, s1: int, e1: int | None) -> bool:
        return (e0 is not None and e0 <= s1) or (e1 is not None and e1 <= s0)
    return a.tab == b.tab and not apart(a.start_row, a.end_row, b.start_row, b.end_row) and not apart(
        a.start_col, a.end_col, b.start_col, b.end_col)


def _inside(a: A1, b: A1) -> bool:
    return (a.tab == b.tab and b.start_row <= a.start_row and b.start_col <= a.start_col
            and (b.end_row is None or (a.end_row is not None and a.end_row <= b.end_row))
            and (b.end_col is None or (a.end_col is not None and a.end_col <= b.end_col)))


def may_edit(book: model.Book, who: str, owner: bool, rng: A1) -> bool:
    """Whether ``who`` may change the cells of ``rng``."""
    if owner:
        return True
    for p in book.protected:
        if p.warning_only or who.lower() in {e.lower() for e in p.editors} or not _overlap(rng, p.range):
            continue
        if not any(_inside(rng, u) for u in p.unprotected):
            return False
    return True


def guard(book: model.Book, req: dict[str, Any], who: str, owner: bool) -> None:
    """Raise Google's 400 if ``req`` changes what ``who`` may not."""
    if not req or owner:
        return
    kind, body = next(iter(req.items()))
    by_id = {s.sheet_id: s.name for s in book.sheets}
    if kind in CELL_REQUESTS and body.get("range", {}).get("sheetId", 0) in by_id:
        if not may_edit(book, who, owner, a1_of(body["range"], by_id)):
            raise bad(REFUSED)
    elif kind == "deleteProtectedRange":
        found = [p for p in book.protected if p.id == body.get("protectedRangeId")]
        if found and who.lower() not in {e.lower() for e in found[0].editors}:
            raise bad(REFUSED)


def guard_values(book: model.Book, rng: A1, who: str, owner: bool) -> ApiFault | None:
    """``values:batchUpdate`` of ``rng`` by ``who``: Google's 400 if a protected cell is in it."""
    return None if may_edit(book, who, owner, rng) else bad(REFUSED)
