"""Each player's workbook teaches the order language in the player's language, for their camp and role, and
every example it shows is an order that reads (issue 10, item 4)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from sheetgm.backends.xlsx.gateway import XlsxGateway
from sheetgm.cli.app import app
from sheetgm.core.observe import name
from sheetgm.core.steps import HUNTER_ROLES, SURVIVOR_ROLES
from sheetgm.core.texts import render, table
from sheetgm.notation.orders import parse_order
from sheetgm.service.game import open_game, player_key
from sheetgm.service.ledger.journal import latest, read_director
from sheetgm.sheets import helptab
from sheetgm.sheets.helptab import help_rows

ROLES = [("survivor", r) for r in SURVIVOR_ROLES] + [("hunter", r) for r in HUNTER_ROLES]


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(("camp", "role"), ROLES)
def test_every_example_for_every_role_reads(lang: str, camp: str, role: str) -> None:
    rows = help_rows(lang, "Ann", camp, role)
    examples = [a for kind, a, _b in rows if kind == "example"]
    assert len(examples) >= 8
    for order in examples:
        parse_order(order)  # raises OrderSyntaxError on an example that does not read
    assert render(lang, "guide.role", role=name(lang, "role", role)) in [a for _k, a, _b in rows]
    at = [a for _k, a, _b in rows].index(render(lang, "guide.role", role=name(lang, "role", role)))
    mine = []
    for kind, a, _b in rows[at + 1:]:
        if kind != "example":
            break
        mine.append(a)
    assert mine, f"no example of the {role}'s own"
    items = render(lang, "guide.items")
    assert (items in [a for _k, a, _b in rows]) == (camp == "survivor")


DRAFT = """name = "h"
seed = 4
[[roster]]
alias = "Ann"
camp = "survivor"
role = "mechanic"
[[roster]]
alias = "Bo"
camp = "survivor"
lang = "en"
role = "doctor"
[[roster]]
alias = "Hu"
camp = "hunter"
role = "bane"
"""


def test_the_tab_in_each_workbook_matches_its_player_and_its_examples_read(tmp_path: Path) -> None:
    (tmp_path / "game.toml").write_text(DRAFT, "utf-8")
    assert CliRunner().invoke(app, ["new", "--game", str(tmp_path)]).exit_code == 0
    gw = XlsxGateway(tmp_path / "workbooks")
    state = latest(read_director(open_game(tmp_path))[0]).state(open_game(tmp_path).board)
    for seat, lang, tab, skill_word in ((1, "zh", "如何写指令", "机器人："), (2, "en", "How to write orders", "brew"),
                                        (3, "zh", "如何写指令", "陷阱 C3")):
        view = gw.view(player_key(seat)).tab(tab)
        p = state.players[seat]
        camp, role = render(lang, f"sheet.camp.{p.camp}"), name(lang, "role", p.role)
        assert view.values[0][0] == render(lang, "guide.title", alias=p.alias, camp=camp, role=role)
        head = [r[:1] for r in view.values].index([render(lang, "guide.examples")])
        examples = [r[0] for r in view.values[head + 1:] if len(r) > 1 and r[0] and r[1]]
        assert any(skill_word in e for e in examples), (seat, examples)
        for order in examples:
            parse_order(order)
    protected = {pr.description for pr in gw.protections(player_key(1))}
    assert "sheetgm:help" in protected and "sheetgm:maps" in protected


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_each_section_is_every_template_under_its_prefix_in_order(lang: str) -> None:
    """The sections are indexed in one pass: the same as looking each prefix up through all the templates."""
    keys = [k for k in table(lang) if k.startswith("guide.")]
    prefixes = {k[:i] for k in keys for i, ch in enumerate(k) if ch == "."} | {"guide.ex.nobody", "guide"}
    assert {"guide.ex.survivor", "guide.intro", "guide.errors"} <= prefixes
    for prefix in prefixes:
        want = tuple((k[len(prefix) + 1:], v) for k, v in table(lang).items() if k.startswith(prefix + "."))
        assert helptab._section(lang, prefix) == want, prefix
