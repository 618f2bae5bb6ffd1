"""Finding a stage's row in a player's Orders tab by its label, and what is wrong with the tab.

Column A holds the stage label ("N2-survivor"), written by the tool; it is
the key of the row. A row found away from its usual place (rows inserted or
deleted) is still read, and the player is told. The tool repairs only its own
cells (the label; text typed into the label cell moves to an empty column B)
and never clears a player's text. Rows that are not tonight's are named,
never read as tonight's order: text typed into a label cell, a row without a
label, a past night's row edited after it was resolved (a stale row), and a
second row with tonight's label.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sheetgm.backends.port import Op, SetValues
from sheetgm.core.errors import SheetgmError
from sheetgm.core.texts import render
from sheetgm.sheets import layout
from sheetgm.sheets.stages import order_row, parse_key

BLANK = [""] * 7


@dataclass
class Located:
    row: int
    cells: list[str]
    notes: list[str] = field(default_factory=list)  # the player's language
    director_notes: list[str] = field(default_factory=list)  # the director's language
    repairs: list[Op] = field(default_factory=list)
    said: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # each note's kind and parameters


def is_key(text: str) -> bool:
    try:
        parse_key(text)
    except SheetgmError:
        return False
    return True


def free_row(tab: list[list[str]], key: str, night: int) -> int:
    """Where the label of a new stage goes: its row if it already has it; its usual row if that row's
    label cell is empty; otherwise the first row below every label whose label cell is empty."""
    labels = {r: (row[0] if row else "").strip() for r, row in enumerate(tab, 2)}
    mine = [r for r, a in labels.items() if a == key]
    if mine:
        return mine[0]
    want = order_row(night)
    if not labels.get(want):
        return want
    below = max((r for r, a in labels.items() if a), default=1) + 1
    return next(r for r in range(below, below + len(tab) + 2) if not labels.get(r))


def locate(tab: list[list[str]], key: str, night: int, lang: str, dlang: str, archived: dict[str, str],
           alias: str) -> Located:
    """The row of ``key`` in ``tab`` (rows from 2, seven cells each) and what the player and director are told."""
    want = order_row(night)
    labels = {r: row[0].strip() for r, row in enumerate(tab, 2)}
    found = [r for r, a in labels.items() if a == key]
    said: list[tuple[str, dict[str, Any]]] = []
    repairs: list[Op] = []
    orders = layout.tab(lang, "orders")
    if len(found) > 1:
        row = want if want in found else found[0]
        said.append(("duplicate", {"n": len(found), "rows": ", ".join(map(str, found)), "row": row}))
    elif found:
        row = found[0]
    else:
        typed_here = labels.get(want, "")
        row = want if typed_here and typed_here not in archived else free_row(tab, key, night)
        repairs.append(SetValues(layout.rng(orders, f"A{row}"), ((key,),)))
    cells = list(tab[row - 2]) if 0 <= row - 2 < len(tab) else list(BLANK)
    typed = cells[0].strip()
    if typed and typed != key:  # anything but a label the tool wrote, typed over the label
        if cells[layout.O_TEXT].strip() or is_key(typed):
            said.append(("typed_label_kept", {"row": row, "text": typed}))
        else:
            cells[layout.O_TEXT] = typed
            repairs.append(SetValues(layout.rng(orders, f"B{row}"), ((typed,),)))
            said.append(("typed_label_moved", {"row": row, "text": typed}))
    elif row != want:
        said.append(("moved", {"row": row, "want": want}))
    labelled = set(labels.values())
    text = cells[layout.O_TEXT].strip()
    for old, was in archived.items():
        if text and old not in labelled and text == was.strip():
            said.append(("stale_here", {"row": row, "old": old}))
            cells[layout.O_TEXT] = ""
    for r, a in labels.items():
        b = tab[r - 2][layout.O_TEXT].strip()
        if r == row:
            continue
        if a and a not in archived and a != key:
            said.append(("typed_label_other", {"row": r, "text": a}))
        elif not a and b:
            said.append(("unlabelled", {"row": r}))
        elif a in archived and b != archived[a].strip():
            said.append(("stale", {"row": r, "old": a}))
    out = Located(row, cells, repairs=repairs)
    for name, params in said:
        params = {"key": key, "due": row, **params}
        out.said.append((name, params))
        out.notes.append(render(lang, f"sheet.rows.{name}", **params))
        out.director_notes.append(render(dlang, "svc.rows", alias=alias, tab=orders,
                                         note=render(dlang, f"sheet.rows.{name}", **params)))
    return out
