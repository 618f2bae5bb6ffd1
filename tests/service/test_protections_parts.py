"""audit's other half (service/workbooks/protections.py): what each workbook's protections must be, held against what is
in force, one part at a time on the memory gateway (the runs on real files and the Google fake are in
test_audit_in_force.py)."""

# covers: RUL-46, RUL-47

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from svc_helpers import make_game, roster

from sheetgm.backends.a1 import A1, parse_range
from sheetgm.backends.memory import MemoryGateway
from sheetgm.backends.port import LOCK_GAME, LOCK_NONE, LOCK_OTHER, Protection
from sheetgm.core.texts import render
from sheetgm.service.game import DIRECTOR, PUBLIC, Game, player_key
from sheetgm.service.workbooks import protections as pr
from sheetgm.sheets import layout

SA = "bot@proj.iam.gserviceaccount.com"
GM = "gm@example.com"


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Game:
    monkeypatch.setenv("SHEETGM_LANG", "en")
    seats = roster(emails=True, langs={1: "en"})
    seats[1]["email"] = "P2@Example.com"
    return make_game(tmp_path, MemoryGateway(), roster=seats, director_email=GM, service_account=SA,
                     backend="google")


# -- the pure parts ----------------------------------------------------------------------------------------------

def test_cells_join_into_runs_along_a_row_then_the_same_run_down_the_rows() -> None:
    cells = {(4, 1), (4, 2), (5, 1), (5, 2), (6, 1), (4, 6), (9, 3), (9, 4), (9, 5), (11, 3), (11, 4), (11, 5)}
    assert [str(b) for b in pr._blocks("T", cells)] == ["T!G5", "T!B5:C6", "T!B7", "T!D10:F10", "T!D12:F12"]
    assert pr._blocks("T", set()) == []
    assert pr._blocks("T", {(0, 0), (0, 2)}) == [A1("T", 0, 0, 1, 1), A1("T", 0, 2, 1, 3)]


def test_what_ranges_leave_open_past_the_cells_that_should_be() -> None:
    opened = {(4, 1), (4, 2)}
    assert pr._beyond("T", ("T!B5:C5",), opened) == []
    assert pr._beyond("T", ("T!B5:D5", "T!A:A"), opened) == ["T!A:A", "T!D5"]
    assert pr._beyond("T", ("T!B5:C6",), opened) == ["T!B6:C6"]
    assert pr._cells(("T!B5:C5",)) == opened
    assert pr._cells(("T!A:A", "T!B5")) == {(-1, -1), (4, 1)}
    assert pr._shown("T", set()) == "-"
    assert pr._shown("T", {(4, 2), (4, 1)}) == "T!B5, T!C5"


def test_the_tabs_each_workbook_must_protect_and_what_they_leave_open(game: Game) -> None:
    en, zh = "en", "zh"
    assert pr.expected_tabs(game, DIRECTOR, {}) == {}
    assert pr.expected_tabs(game, PUBLIC, {}) == {t: set() for t in layout.public_tabs([zh, en])}
    row = pr.expected_tabs(game, player_key(1), {1: 5, 2: None})
    want = {(4, 1), (4, 2), (4, 6)}  # B5, C5 and G5
    assert row == {**{layout.tab(en, n): set() for n in ("results", "current", "maps", "help")},
                   layout.tab(en, "orders"): want}
    none = pr.expected_tabs(game, player_key(2), {1: 5, 2: None})
    assert none == {**{layout.tab(zh, n): set() for n in ("results", "current", "maps", "help", "orders")}}
    assert pr.expected_tabs(game, player_key(3), {}) [layout.tab(zh, "orders")] == set()


def test_each_protection_is_described_as_sheetgm_writes_it(game: Game) -> None:
    assert pr._description(PUBLIC, layout.tab("zh", "log"), game) == "sheetgm:public:log"
    assert pr._description(PUBLIC, layout.tab("en", "map"), game) == "sheetgm:public:en:map"
    assert pr._description(PUBLIC, "elsewhere", game) == ""
    assert pr._description(player_key(1), layout.tab("en", "current"), game) == "sheetgm:current"
    assert pr._description(player_key(1), layout.tab("en", "orders"), game) == layout.ORDERS_PROTECTION


# -- check, one fault at a time ----------------------------------------------------------------------------------

def _right(game: Game, seat: int, row: int | None, **change: Any) -> list[Protection]:
    """Player ``seat``'s protections as sheetgm makes them on Google, ``change`` applied to the Orders tab's."""
    lang = game.seat_lang(seat)
    out = [Protection(layout.tab(lang, n), (GM, SA), f"sheetgm:{n}") for n in ("results", "current", "maps", "help")]
    orders = layout.tab(lang, "orders")
    opened = (f"{layout.quote_tab(orders)}!B{row}:C{row}", f"{layout.quote_tab(orders)}!G{row}") if row else ()
    fields: dict[str, Any] = {"range": orders, "editors": (GM, SA), "description": layout.ORDERS_PROTECTION,
                              "unprotected": tuple(str(parse_range(r)) for r in opened), **change}
    return out + [Protection(**fields)]


def _check(game: Game, seat: int, prots: list[Protection], row: int | None = 5,
           owners: frozenset[str] = frozenset()) -> tuple[list[str], list[str]]:
    failures: list[str] = []
    warnings: list[str] = []
    pr.check(game, player_key(seat), f"player-{seat}", prots, {seat: row}, failures, warnings, owners)
    return failures, warnings


def _say(code: str, **params: Any) -> str:
    return render("en", f"svc.audit.{code}", **params)


def test_protections_as_sheetgm_makes_them_pass_whatever_the_case_of_an_address(game: Game) -> None:
    assert _check(game, 1, _right(game, 1, 5)) == ([], [])
    assert _check(game, 1, _right(game, 1, None), row=None) == ([], [])
    assert _check(game, 1, _right(game, 1, 5, editors=(GM.upper(), SA.upper()))) == ([], [])
    owner = _right(game, 1, 5, editors=(GM, SA, "Owner@Example.com"))
    assert _check(game, 1, owner, owners=frozenset({"owner@example.COM"})) == ([], [])


def test_a_missing_or_narrowed_protection_fails(game: Game) -> None:
    orders = layout.tab("en", "orders")
    prots = _right(game, 1, 5)
    assert _check(game, 1, prots[:-1]) == ([_say("protection_missing", key="player-1", tab=orders)], [])
    narrow = [*prots[:-1], Protection(f"{orders}!A1:G40", (GM, SA), layout.ORDERS_PROTECTION)]
    assert _check(game, 1, narrow)[0] == [_say("wrong_range", key="player-1", what=layout.ORDERS_PROTECTION,
                                               found=f"{orders}!A1:G40", range=orders)]
    foreign = [*prots[:-1], Protection(f"{orders}!A1:G40", (GM, SA), "someone's own")]
    assert _check(game, 1, foreign)[0] == [_say("protection_missing", key="player-1", tab=orders)]


def test_a_warning_more_open_cells_a_closed_row_and_allowed_edits_each_fail_or_warn(game: Game) -> None:
    orders = layout.tab("en", "orders")
    where = {"key": "player-1", "tab": orders, "range": orders}
    assert _check(game, 1, _right(game, 1, 5, warning_only=True))[0] == [
        _say("warning_only", what=layout.ORDERS_PROTECTION, **where)]
    wide = _right(game, 1, 5, unprotected=(f"{orders}!B5:D6",))
    failures, warnings = _check(game, 1, wide)
    want = pr._shown(orders, {(4, 1), (4, 2), (4, 6)})
    assert want == f"{orders}!B5, {orders}!C5, {orders}!G5"
    assert failures == [_say("opened", key="player-1", tab=orders, range=f"{orders}!D5", want=want),
                        _say("opened", key="player-1", tab=orders, range=f"{orders}!B6:D6", want=want)]
    assert warnings == [_say("closed_row", key="player-1", tab=orders, range=want)]  # G5 is not open
    none_due = _check(game, 1, _right(game, 1, 5), row=None)[0]
    assert none_due == [_say("opened_none", key="player-1", tab=orders, range=r, want="-")
                        for r in (f"{orders}!B5:C5", f"{orders}!G5")]
    allows = _check(game, 1, _right(game, 1, 5, allows=("insertRows", "sort")))[0]
    assert allows == [_say("allows", key="player-1", tab=orders, what=render("en", f"svc.audit.allow.{f}"))
                      for f in ("insertRows", "sort")]


@pytest.mark.parametrize("lock", [LOCK_NONE, LOCK_OTHER, "weak"])
def test_a_file_lock_that_is_not_the_games_fails_and_a_files_lock_has_no_editors(game: Game, lock: str) -> None:
    orders = layout.tab("en", "orders")
    locked = _right(game, 1, 5, password=lock, editors=())
    assert _check(game, 1, locked)[0] == [_say(f"lock_{lock}", key="player-1", tab=orders, range=orders)]
    assert _check(game, 1, _right(game, 1, 5, password=LOCK_GAME, editors=()))[0] == []


def test_editors_the_service_account_missing_a_player_or_someone_else(game: Game) -> None:
    orders = layout.tab("en", "orders")
    where = {"key": "player-1", "tab": orders, "range": orders, "what": layout.ORDERS_PROTECTION}
    assert _check(game, 1, _right(game, 1, 5, editors=(GM,)))[0] == [_say("sa_not_editor", who=SA, **where)]
    player = _check(game, 1, _right(game, 1, 5, editors=(GM, SA, "p2@example.com")))[0]
    assert player == [_say("player_editor", alias="S2", who="p2@example.com", **where)]
    other = _check(game, 1, _right(game, 1, 5, editors=(GM, SA, "Zed@x.org")))[0]
    assert other == [_say("extra_editor", alias="", who="Zed@x.org", **where)]
    hand = _right(game, 1, 5, editors=(GM, SA, "zed@x.org"), description="")
    assert _check(game, 1, hand)[0] == [_say("extra_editor", alias="", who="zed@x.org", key="player-1", tab=orders,
                                             range=orders, what=orders)]


def test_a_protection_of_part_of_the_tab_by_another_hand_is_not_taken_for_sheetgms(game: Game) -> None:
    orders = layout.tab("en", "orders")
    other = [*_right(game, 1, 5)[:-1], Protection(f"{orders}!A1:G40", (GM, SA), "sheetgm:current")]
    assert _check(game, 1, other)[0] == [_say("protection_missing", key="player-1", tab=orders)]


def test_the_findings_are_in_the_directors_language(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHEETGM_LANG", "zh")
    orders = layout.tab("en", "orders")
    failures, warnings = _check(game, 1, _right(game, 1, 5, unprotected=(), allows=("sort",)))
    assert failures == [render("zh", "svc.audit.allows", key="player-1", tab=orders,
                               what=render("zh", "svc.audit.allow.sort"))]
    assert warnings == [render("zh", "svc.audit.closed_row", key="player-1", tab=orders,
                               range=f"{orders}!B5, {orders}!C5, {orders}!G5")]
    assert failures[0] != _say("allows", key="player-1", tab=orders, what=render("en", "svc.audit.allow.sort"))
