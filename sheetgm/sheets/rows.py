"""Finding a stage's row in a player's Orders tab by its label, and what is wrong with the tab.

Column A holds the stage label ("N2-survivor"), written by the tool; it is the key of the row. A row
found away from its usual place (rows inserted, deleted, moved or sorted) is still read, and the player
is told. The tool never writes over a cell that holds a player's text (RUL-45): a new label goes only
into a row that is empty from A to G (its usual row, else the first empty row below every label); a
label changed by hand is given back, text typed into a label cell moves to an empty column B, and
otherwise that row is left alone; a stage row
that is gone (deleted, cleared, pasted over) is written again from the record into an empty row.
Rows that are not tonight's are named, never read as tonight's order: text in a label cell, a row without
a label, a past night's row edited after it was resolved (a stale row), a second row with tonight's label.
However many such rows there are, each kind is told once (a million filler rows are one line).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sheetgm.backends.port import Op, SetValues
from sheetgm.core.errors import SheetgmError
from sheetgm.core.texts import render
from sheetgm.core.values import field, record
from sheetgm.sheets import layout
from sheetgm.sheets.stages import order_row, parse_key

WIDTH = 7  # columns A to G
BLANK = [""] * WIDTH
SHOWN_ROWS = 5  # rows named in one note; the rest are counted


@record
class Located:
    """An Orders row found for a stage: its number, its cells and what to tell of it."""

    row: int
    cells: list[str]
    notes: list[str] = field(default_factory=list)  # the player's language
    director_notes: list[str] = field(default_factory=list)  # the director's language
    repairs: list[Op] = field(default_factory=list)
    said: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # each note's kind and parameters
    tab: list[list[str]] = field(default_factory=list)  # the tab as it is once the repairs are written


def is_key(text: str) -> bool:
    try:
        parse_key(text)
    except SheetgmError:
        return False
    return True


def empty(tab: Sequence[Sequence[str]], row: int) -> bool:
    """Whether sheet row ``row`` (from 2) holds nothing from A to G."""
    i = row - 2
    return i >= len(tab) or not any(c.strip() for c in tab[i][:WIDTH])


def free_row(tab: Sequence[Sequence[str]], key: str, night: int) -> int:
    """Where the label of a new stage goes: its row if it already has it; its usual row if that row is empty
    from A to G; otherwise the first empty row below every label. Never a row holding anything."""
    last = 1
    for r, row in enumerate(tab, 2):
        label = row[0].strip() if row else ""
        if label == key:
            return r
        if label:
            last = r
    want = order_row(night)
    if empty(tab, want):
        return want
    return next(r for r in range(last + 1, last + len(tab) + 3) if empty(tab, r))


def place(tab: list[list[str]], row: int, cells: Iterable[str]) -> list[list[str]]:
    """``tab`` with sheet row ``row`` set to ``cells`` (a copy; the rows between are added empty)."""
    out = [list(r) for r in tab]
    while len(out) < row - 1:
        out.append(list(BLANK))
    out[row - 2] = (list(cells) + BLANK)[:WIDTH]
    return out


def locate(tab: list[list[str]], key: str, night: int, lang: str, dlang: str, archived: dict[str, str],
           alias: str) -> Located:
    """The row of ``key`` in ``tab`` (rows from 2, seven cells each) and what the player and director are told."""
    want = order_row(night)
    labels = {r: row[0].strip() for r, row in enumerate(tab, 2)}
    found = [r for r, a in labels.items() if a == key]
    said: list[tuple[str, dict[str, Any]]] = []
    repairs: list[Op] = []
    orders = layout.tab(lang, "orders")
    after = tab
    if len(found) > 1:  # the one holding an order is read; among several, the usual row, else the first
        written = [r for r in found if tab[r - 2][layout.O_TEXT].strip()] or found
        row = want if want in written else written[0]
        said.append(("duplicate", {"n": len(found), "rows": ", ".join(map(str, found)), "row": row}))
    elif found:
        row = found[0]
    else:
        typed = labels.get(want, "")
        text_here = not empty(tab, want) and not typed
        if is_key(typed) and typed not in archived:  # a label changed by hand: the tool's cell, given back
            row = want
            said.append(("typed_label_kept", {"row": row, "text": typed}))
        elif typed and typed not in archived:
            if not tab[want - 2][layout.O_TEXT].strip():  # the text moves to the empty order cell: nothing lost
                row = want
                repairs.append(SetValues(layout.rng(orders, f"A{row}:B{row}"), ((key, typed),)))
                after = place(tab, row, [key, typed, *tab[row - 2][2:]])
                said.append(("typed_label_moved", {"row": row, "text": typed}))
            else:  # the row is left as it is: this stage gets an empty row
                row = free_row(tab, key, night)
                said.append(("typed_label_left", {"row": want, "text": typed, "due": row}))
        elif text_here and not any(tab[want - 2][i].strip() for i in (layout.O_STATUS, layout.O_STAMP)):
            row = want  # the label alone was cleared: the order beside it is this stage's
        else:
            row = free_row(tab, key, night)
        if after is tab:
            repairs.append(SetValues(layout.rng(orders, f"A{row}"), ((key,),)))
            after = place(tab, row, [key, *(tab[row - 2][1:] if row - 2 < len(tab) else BLANK[1:])])
    cells = list(after[row - 2]) if 0 <= row - 2 < len(after) else list(BLANK)
    if row != want and not any(n == "typed_label_left" for n, _ in said):
        said.append(("moved", {"row": row, "want": want}))
    labelled = set(labels.values())
    text = cells[layout.O_TEXT].strip()
    for old, was in archived.items():
        if text and old not in labelled and text == was.strip():
            said.append(("stale_here", {"row": row, "old": old}))
            cells[layout.O_TEXT] = ""
    skip = {row, want} if any(n == "typed_label_left" for n, _ in said) else {row}
    said += _others(tab, labels, skip, key, archived)
    out = Located(row, cells, repairs=repairs, tab=after)
    for name, params in said:
        params = {"key": key, "due": row, **params}
        out.said.append((name, params))
        shown = {k: _quoted(v) if k == "text" else v for k, v in params.items()}  # a label cell may hold anything
        out.notes.append(render(lang, f"sheet.rows.{name}", **shown))
        out.director_notes.append(render(dlang, "svc.rows", alias=alias, tab=orders,
                                         note=render(dlang, f"sheet.rows.{name}", **shown)))
    return out


QUOTED = 80  # characters of a player's text quoted back in a note


def _quoted(text: object) -> object:
    t = str(text)
    return t if len(t) <= QUOTED else t[:QUOTED - 1] + "…"


def _others(tab: list[list[str]], labels: dict[int, str], skip: set[int], key: str,
            archived: dict[str, str]) -> list[tuple[str, dict[str, Any]]]:
    """What is wrong in the rows but ``skip``: each kind once, naming a few rows and counting the rest."""
    typed: list[tuple[int, str]] = []
    unlabelled: list[int] = []
    stale: list[tuple[int, str]] = []
    for r, a in labels.items():
        if r in skip:
            continue
        b = tab[r - 2][layout.O_TEXT].strip()
        if a and a not in archived and a != key:
            typed.append((r, a))
        elif not a and b:
            unlabelled.append(r)
        elif a in archived and b != archived[a].strip():
            stale.append((r, a))
    said: list[tuple[str, dict[str, Any]]] = [("stale", {"row": r, "old": a}) for r, a in stale[:SHOWN_ROWS]]
    if len(typed) == 1:
        said.append(("typed_label_other", {"row": typed[0][0], "text": typed[0][1]}))
    elif typed:
        said.append(("typed_labels_other", {"n": len(typed), "rows": _rows([r for r, _ in typed])}))
    if len(unlabelled) == 1:
        said.append(("unlabelled", {"row": unlabelled[0]}))
    elif unlabelled:
        said.append(("unlabelled_many", {"n": len(unlabelled), "rows": _rows(unlabelled)}))
    return said


def _rows(rows: list[int]) -> str:
    """A few row numbers and how many more: "5, 6, 7, 8, 9 … (+999995)"."""
    shown = ", ".join(map(str, rows[:SHOWN_ROWS]))
    return shown if len(rows) <= SHOWN_ROWS else f"{shown} … (+{len(rows) - SHOWN_ROWS})"


def restore(tab: list[list[str]], rows: Sequence[tuple[str, int, Sequence[str]]], lang: str
            ) -> tuple[list[Op], list[tuple[str, int]], list[list[str]]]:
    """Stage rows missing from ``tab`` written again: each ``(key, usual row, its seven cells)`` whose label is
    nowhere goes to its row if that row is empty, else to the first empty row below every label. Returns the
    writes, the (key, row) of each row written and the tab as it is after them."""
    ops: list[Op] = []
    placed: list[tuple[str, int]] = []
    orders = layout.tab(lang, "orders")
    for key, usual, cells in rows:
        if any(r and r[0].strip() == key for r in tab):
            continue
        night = parse_key(key)[0]
        r = usual if empty(tab, usual) else free_row(tab, key, night)
        full = (list(cells) + BLANK)[:WIDTH]
        full[0] = key
        ops.append(SetValues(layout.rng(orders, f"A{r}:G{r}"), (tuple(full),)))
        tab = place(tab, r, full)
        placed.append((key, r))
    return ops, placed, tab
