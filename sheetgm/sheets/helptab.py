"""The "How to write orders" tab of a player's workbook: in the player's language, for their camp and role.

Players do not have the repository's docs, so their workbook teaches the order
language itself. Every line comes from the templates (``guide.*`` in
``sheet_templates/texts/<lang>/help.toml``): prose rows hold one cell,
example rows two (the order, then what it does), so a test can parse every
example the tab shows. Written once, when the game is created.
"""

from __future__ import annotations

from functools import cache

from sheetgm.backends.port import Op, ResizeColumns, SetBold, SetValues
from sheetgm.core.observe import name
from sheetgm.core.texts import render, table
from sheetgm.sheets import layout

Row = tuple[str, str, str]  # kind (title, para, head, section, example, gap), column A, column B


def _section(lang: str, prefix: str) -> tuple[tuple[str, str], ...]:
    """(name, text) of every template under ``prefix.``, in the templates' order (the same for every player of a
    language: worked out once, not for each of a game's workbooks)."""
    return _sections(lang).get(prefix, ())


@cache
def _sections(lang: str) -> dict[str, tuple[tuple[str, str], ...]]:
    """Every "guide." template under each of its prefixes, in one pass over the templates (a pass a prefix was
    most of a workbook's tab)."""
    found: dict[str, list[tuple[str, str]]] = {}
    for key, text in table(lang).items():
        if key.startswith("guide."):
            dot = key.find(".")
            while dot != -1:
                found.setdefault(key[:dot], []).append((key[dot + 1:], text))
                dot = key.find(".", dot + 1)
    return {prefix: tuple(rows) for prefix, rows in found.items()}


def _examples(lang: str, part: str) -> list[Row]:
    return [("example", order, render(lang, f"guide.why.{part}.{key}")) for key, order in
            _section(lang, f"guide.ex.{part}")]


def help_rows(lang: str, alias: str, camp: str, role: str | None) -> list[Row]:
    """Every row of the tab, in order."""
    role_word = name(lang, "role", role) if role else "-"
    rows: list[Row] = [("title", render(lang, "guide.title", alias=alias, camp=render(lang, f"sheet.camp.{camp}"),
                                        role=role_word), "")]
    rows += [("para", text, "") for _k, text in _section(lang, "guide.intro")]
    rows += [("gap", "", ""), ("head", render(lang, "guide.examples"), render(lang, "guide.meaning"))]
    rows += [("section", render(lang, "guide.general"), "")] + _examples(lang, camp)
    rows.append(("section", render(lang, "guide.role", role=role_word), ""))
    mine = _examples(lang, role) if role else []
    rows += mine or [("para", render(lang, "guide.none"), "")]
    if camp == "survivor":
        rows += [("section", render(lang, "guide.items"), "")] + _examples(lang, "item")
        rows += [("section", render(lang, "guide.day"), "")] + _examples(lang, "day")
    rows += [("gap", "", ""), ("section", render(lang, "guide.trouble"), "")]
    rows += [("para", text, "") for _k, text in _section(lang, "guide.errors")]
    return rows


def help_ops(lang: str, alias: str, camp: str, role: str | None) -> list[Op]:
    """The tab's one write: the rows, headings in bold, the example column wide enough for an order."""
    tab = layout.tab(lang, "help")
    rows = help_rows(lang, alias, camp, role)
    ops: list[Op] = [SetValues(layout.rng(tab, f"A1:B{len(rows)}"), tuple((a, b) for _kind, a, b in rows)),
                     ResizeColumns(layout.rng(tab, "A:A"), 300), ResizeColumns(layout.rng(tab, "B:B"), 620)]
    for i, (kind, _a, _b) in enumerate(rows, 1):
        if kind in ("title", "head", "section"):
            ops.append(SetBold(layout.rng(tab, f"A{i}:B{i}")))
    return ops
