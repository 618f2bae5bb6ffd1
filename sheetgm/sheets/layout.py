"""Tab names, columns and the first write of every workbook.

Tab names and headers come from the texts in the workbook's language (a
player's workbook in the player's language, the director and public ones in
the director's), so the service always asks ``tab(lang, "orders")``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from sheetgm.backends.a1 import col_letters, quote_tab
from sheetgm.backends.port import AddTab, FreezeRows, Op, Protect, ResizeColumns, SetBold, SetNote, SetValues
from sheetgm.core.state import State
from sheetgm.core.texts import render
from sheetgm.notation.vocab import role_name
from sheetgm.sheets.limits import MAX_ORDER_CHARS

SECRET_ROW = "password"  # the row of the director's Config tab that keeps the game's secret (its password)
DIRECTOR_TABS = ("config", "roster", "journal", "archive", "log", "overrides", "cards", "lock")
PUBLIC_TABS = ("log", "progress", "map", "cards")
PLAYER_TABS = ("orders", "results", "current", "maps", "help")

RESULTS_WIDTHS = (110, 700, 120)
ORDERS_PROTECTION = "sheetgm:orders"  # the Orders tab's protection (whole tab, the due row's cells open)
OPEN_COLS = (("B", "C"), ("G", "G"))  # what a player may edit in the row of the stage due: order, tick, dropdown
IDENTITY_CELL = "I1"  # whose workbook this is (seals.identity_token), beside the Orders tab's header
DEADLINE_COL = "H"  # the deadline line in the Orders tab's header row (H1), between the column heads and I1
DEADLINE_PX = 640
ORDERS_WIDTHS = (110, 380, 60, 200, 420, 190, 220)  # columns A-G of a player's Orders tab, in pixels
LINE_PX = 20  # one line of wrapped text (LibreOffice and Excel at the default font)
CHAR_PX = 7  # one narrow character of the default font; a wide (CJK) one is two
MAX_ROW_PX = 545  # the tallest row a spreadsheet keeps (409 points)
# Columns of a player's Orders tab (0-based) and of the Journal.
O_STAGE, O_TEXT, O_TICK, O_STATUS, O_PROBLEMS, O_STAMP, O_NEXT = range(7)
J_KEY, J_STATUS, J_ORDERS_HASH, J_STATE_HASH, J_SEED, J_TIME, J_STATE, J_EVENTS, J_ORDERS = range(9)
# What counts as the submit tick in column C, compared case-insensitively (a Google checkbox reads TRUE).
TICKS = frozenset({"✓", "✔", "✔️", "☑", "☑️", "✅", "√", "x", "y", "yes", "ok", "okay", "1", "true", "done",
                   "submit", "submitted", "是", "是的", "好", "好的", "对", "确认", "确定", "提交", "已提交", "完成",
                   "ok了"})


def text_lines(text: str, width_px: int) -> int:
    """How many lines ``text`` takes in a wrapped cell ``width_px`` wide (each of its lines wrapped on its own)."""
    per_line = max(1, (width_px - 8) // CHAR_PX)
    total = 0
    for line in text.split("\n"):
        units = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)
        total += max(1, -(-units // per_line))
    return total


def row_height(cells: Sequence[tuple[str, int]]) -> int:
    """The height in pixels a row needs to show each of its wrapped ``(text, column width)`` cells whole: neither
    LibreOffice nor Excel grows a row for wrapped text by itself, and a player cannot resize a protected row."""
    lines = max((text_lines(t, w) for t, w in cells if t), default=1)
    return min(MAX_ROW_PX, lines * LINE_PX + 4)


def tab(lang: str, name: str) -> str:
    return render(lang, f"sheet.tab.{name}")


def rng(tab_name: str, a1: str) -> str:
    return f"{quote_tab(tab_name)}!{a1}"


def col(i: int) -> str:
    return col_letters(i)


def headers(lang: str, kind: str) -> tuple[str, ...]:
    return tuple(render(lang, f"sheet.head.{kind}").split("|"))


def header_ops(tab_name: str, heads: tuple[str, ...], widths: tuple[int, ...] = ()) -> list[Op]:
    end = col(len(heads) - 1)
    ops: list[Op] = [
        SetValues(rng(tab_name, f"A1:{end}1"), (heads,)),
        SetBold(rng(tab_name, f"A1:{end}1")),
        FreezeRows(tab_name, 1),
    ]
    for i, w in enumerate(widths):
        ops.append(ResizeColumns(rng(tab_name, f"{col(i)}:{col(i)}"), w))
    return ops


def roster_rows(state: State, emails: list[str | None], lang: str) -> tuple[tuple[str, ...], ...]:
    rows = []
    for seat in sorted(state.players):
        p = state.players[seat]
        if p.is_robot or seat > len(emails):
            continue
        rows.append((str(seat), p.alias, render(lang, f"sheet.camp.{p.camp}"), role_name(p.role or "", lang)
                     if p.role else "", p.lang, emails[seat - 1] or "", render(lang, f"word.{p.status}")))
    return tuple(rows)


def director_ops(lang: str, config_rows: list[tuple[str, str]], state: State, emails: list[str | None]) -> list[Op]:
    ops: list[Op] = []
    widths = {"journal": (110, 90, 130, 130, 90, 170, 200, 200, 200), "log": (110, 900), "archive": (110, 50, 100,
              360, 360, 170)}
    for name in DIRECTOR_TABS:
        ops += header_ops(tab(lang, name), headers(lang, f"d_{name}"), widths.get(name, ()))
    cfg_tab = tab(lang, "config")
    ops.append(SetValues(rng(cfg_tab, "A2"), tuple(config_rows)))
    ops += [SetNote(rng(cfg_tab, f"B{i}"), render(lang, "sheet.note.password"))
            for i, (name, _value) in enumerate(config_rows, 2) if name == SECRET_ROW]
    ops.append(SetValues(rng(tab(lang, "roster"), "A2"), roster_rows(state, emails, lang)))
    ops.append(SetNote(rng(tab(lang, "overrides"), "A1"), render(lang, "sheet.note.overrides")))
    ops.append(SetNote(rng(tab(lang, "lock"), "A1"), render(lang, "sheet.note.lock")))
    return ops


def public_ops(langs: Sequence[str], editors: tuple[str, ...]) -> list[Op]:
    """The public workbook laid out: one set of tabs (Log, Progress, Map, Cards) per language of ``langs``,
    the director's first (its tabs keep the descriptions of a one-language workbook)."""
    ops: list[Op] = []
    for i, lang in enumerate(langs):
        ops += public_lang_ops(lang, editors, main=i == 0)
    return ops


def public_tabs(langs: Sequence[str]) -> list[str]:
    return [tab(lang, name) for lang in langs for name in PUBLIC_TABS]


def public_protection(lang: str, name: str, main: bool) -> str:
    """A public tab's protection description: ``sheetgm:public:log``, ``sheetgm:public:en:log`` for a tab of
    a language other than the director's."""
    return f"sheetgm:public:{name}" if main else f"sheetgm:public:{lang}:{name}"


def public_lang_ops(lang: str, editors: tuple[str, ...], main: bool = True, add: bool = False) -> list[Op]:
    """One language's public tabs: headers and protections (``add``: the tabs are created first, for a
    workbook made before that language joined the roster)."""
    ops: list[Op] = [AddTab(tab(lang, name)) for name in PUBLIC_TABS] if add else []
    ops += header_ops(tab(lang, "log"), headers(lang, "p_log"), (110, 900))
    ops += header_ops(tab(lang, "progress"), headers(lang, "p_progress"), (200, 300))
    ops += header_ops(tab(lang, "cards"), headers(lang, "p_cards"), (60, 100, 80, 300))
    for name in PUBLIC_TABS:
        ops.append(Protect(tab(lang, name), editors, public_protection(lang, name, main)))
    return ops


def player_ops(lang: str, editors: tuple[str, ...], camp: str = "survivor") -> list[Op]:
    """A player's workbook laid out; the order column's help shows examples of the player's camp."""
    return [*orders_layout(lang, camp), *results_layout(lang), *player_protections(lang, editors)]


def orders_layout(lang: str, camp: str) -> list[Op]:
    """The Orders tab's header and its notes (the order column's with examples of the player's camp)."""
    orders = tab(lang, "orders")
    return [
        *header_ops(orders, headers(lang, "orders"), ORDERS_WIDTHS),
        SetNote(rng(orders, "B1"), render(lang, f"sheet.note.order_text_{camp}", max=MAX_ORDER_CHARS)),
        SetNote(rng(orders, "C1"), render(lang, "sheet.note.tick")),
        SetNote(rng(orders, "D1"), render(lang, "sheet.note.status")),
        SetNote(rng(orders, "F1"), render(lang, "sheet.note.stamp")),
        SetNote(rng(orders, "G1"), render(lang, "sheet.note.next_step")),
    ]


def results_layout(lang: str) -> list[Op]:
    """The Results tab's header and its note."""
    results = tab(lang, "results")
    return [*header_ops(results, headers(lang, "results"), RESULTS_WIDTHS),
            SetNote(rng(results, "B1"), render(lang, "sheet.note.results"))]


def player_protections(lang: str, editors: tuple[str, ...]) -> list[Op]:
    """The tabs of a player's workbook only the director and the tool edit (the Orders tab's protection follows
    the stage due: ``player.orders_protect``)."""
    return [Protect(tab(lang, name), editors, f"sheetgm:{name}") for name in ("results", "current", "maps", "help")]
