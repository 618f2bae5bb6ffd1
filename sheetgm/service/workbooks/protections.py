"""What `audit` expects of each workbook's protections, held against what is in force in the workbook itself.

A tab is what is protected: the public workbook's tabs and a player's Results, Current, Map history and Help
whole, with nothing open; a player's Orders tab whole, with only the order, tick and dropdown cells of the
row of the stage now due for them open (none when no stage is due for them: RUL-46). The row is found by
its label in the Orders tab as it is now, so the audit reads the journal and the due players' Orders tabs.

A protection fails when it is missing or covers less than its tab, only warns, leaves more open than that
row, still lets anyone insert, delete or sort rows or format cells (a file's flags), or has an editor too
many: on Google an editor besides the director and the service account, or the service account missing;
in an .xlsx file, which has no editors, a lock that is not the game's password (none, an old weak hash, or
another password: then whoever has the file can lift it). Each failure names the workbook, the tab and
the range. Protections of part of a tab, or of a person's own, are left alone: they can only close more.
"""

from __future__ import annotations

from typing import Any

from sheetgm.backends.a1 import A1, format_range, parse_range
from sheetgm.backends.errors import BackendError
from sheetgm.backends.port import LOCK_GAME, Protection
from sheetgm.core.texts import render
from sheetgm.service.game import PUBLIC, Game, player_key
from sheetgm.service.ledger.journal import latest, read_director
from sheetgm.service.workbooks.sheetorders import orders_range
from sheetgm.sheets import layout
from sheetgm.sheets.player import next_row
from sheetgm.sheets.rows import free_row
from sheetgm.sheets.stages import stage_key


def expected_tabs(game: Game, key: str, open_rows: dict[int, int | None]) -> dict[str, set[tuple[int, int]]]:
    """tab -> the cells (0-based) its protection leaves open, for every tab of ``key`` that must be protected."""
    if key == PUBLIC:  # a set of tabs per language: the director's, and each other one once its tabs are there
        present = set(game.gateway.tabs(PUBLIC))
        langs = [g for i, g in enumerate(game.langs) if not i or layout.tab(g, "log") in present]
        return {name: set() for name in layout.public_tabs(langs)}
    if not key.startswith("player-"):
        return {}
    seat = int(key.split("-")[1])
    lang = game.seat_lang(seat)
    out: dict[str, set[tuple[int, int]]] = {layout.tab(lang, name): set()
                                            for name in ("results", "current", "maps", "help")}
    row = open_rows.get(seat)
    cells: set[tuple[int, int]] = set()
    if row is not None:
        for a, b in layout.OPEN_COLS:
            cells |= set(parse_range(f"X!{a}{row}:{b}{row}").cells(0, 0))
    out[layout.tab(lang, "orders")] = cells
    return out


def open_rows(game: Game) -> tuple[dict[int, int | None], list[str]]:
    """Each seat's row of the stage now due for them (None: none due, or its row not labelled yet), read from the
    journal and their Orders tabs; and what could not be read (director's language)."""
    trouble: list[str] = []
    try:
        state = latest(read_director(game)[0]).state(game.board)
    except BackendError as exc:
        return {}, [exc.message(game.voice)]
    found: dict[int, int | None] = {}
    for seat in game.seats:
        if next_row(state, seat, []) is None:
            found[seat] = None
            continue
        lang = game.seat_lang(seat)
        try:
            tab = game.gateway.read(player_key(seat), [orders_range(lang)])[orders_range(lang)]
        except BackendError as exc:
            trouble.append(exc.message(game.voice))
            found[seat] = None
            continue
        key = stage_key(state.night, state.stage)
        labelled = any(r and r[0].strip() == key for r in tab)
        found[seat] = free_row([list(r) + [""] * 7 for r in tab], key, state.night) if labelled else None
    return found, trouble


def check(game: Game, key: str, label: str, prots: list[Protection], rows: dict[int, int | None],
          failures: list[str], warnings: list[str], owners: frozenset[str] = frozenset(),
          gone: set[str] | frozenset[str] = frozenset()) -> None:
    """Hold ``prots`` (as read from the workbook ``key``, shown as ``label``) against what it should have. The
    file's ``owners`` may be editors too (Google keeps the account that protects among them, and an owner can
    edit every protected range anyway). A tab that is ``gone`` is named as such (``tabset.py``), not as
    unprotected."""
    lang = game.voice
    sa = (game.cfg.service_account or game.gateway.account or "").lower()
    allowed = {e.lower() for e in game.editors()} | {o.lower() for o in owners}
    players = {s.email.lower(): s.alias for s in game.cfg.roster if s.email}

    def fail(code: str, /, **params: Any) -> None:
        failures.append(render(lang, f"svc.audit.{code}", key=label, **params))

    for tab, opened in expected_tabs(game, key, rows).items():
        if tab in gone:
            continue
        whole = [p for p in prots if parse_range(p.range) == A1(tab)]
        if not whole:
            partial = [p for p in prots if parse_range(p.range).tab == tab and p.description.startswith("sheetgm:")
                       and p.description == _description(key, tab, game)]
            if partial:
                fail("wrong_range", what=partial[0].description, found=partial[0].range, range=format_range(A1(tab)))
            else:
                fail("protection_missing", tab=tab)
            continue
        p = whole[0]
        where = {"tab": tab, "range": p.range}
        if p.warning_only:
            fail("warning_only", what=p.description or tab, **where)
        for extra in _beyond(tab, p.unprotected, opened):
            fail("opened" if opened else "opened_none", tab=tab, range=extra, want=_shown(tab, opened))
        if opened and not opened <= _cells(p.unprotected):
            warnings.append(render(lang, "svc.audit.closed_row", key=label, tab=tab, range=_shown(tab, opened)))
        for flag in p.allows:
            fail("allows", tab=tab, what=render(lang, f"svc.audit.allow.{flag}"))
        if p.password and p.password != LOCK_GAME:
            fail(f"lock_{p.password}", **where)
        if p.password or p.warning_only:
            continue  # a file has no editors; a warning lets every editor of the file through (failed above)
        editors = {e.lower(): e for e in p.editors}
        if sa and sa not in editors:
            fail("sa_not_editor", who=sa, what=p.description or tab, **where)
        for low, e in sorted(editors.items()):
            if low not in allowed:
                fail("player_editor" if low in players else "extra_editor", alias=players.get(low, ""), who=e,
                     what=p.description or tab, **where)


def _description(key: str, tab: str, game: Game) -> str:
    """The description sheetgm gives the protection of ``tab`` in ``key``."""
    if key == PUBLIC:
        names = {layout.tab(g, n): layout.public_protection(g, n, not i)
                 for i, g in enumerate(game.langs) for n in layout.PUBLIC_TABS}
        return names.get(tab, "")
    lang = game.seat_lang(int(key.split("-")[1]))
    names = {layout.tab(lang, n): f"sheetgm:{n}" for n in ("results", "current", "maps", "help")}
    return names.get(tab, layout.ORDERS_PROTECTION)


def _cells(ranges: tuple[str, ...]) -> set[tuple[int, int]]:
    out: set[tuple[int, int]] = set()
    for text in ranges:
        rng = parse_range(text)
        out |= set(rng.cells(0, 0)) if rng.bounded else {(-1, -1)}
    return out


def _beyond(tab: str, ranges: tuple[str, ...], opened: set[tuple[int, int]]) -> list[str]:
    """What the open ``ranges`` leave open past ``opened``: whole columns, rows or tabs as they are, cells as runs
    along a row."""
    out, cells = [], set()
    for text in ranges:
        rng = parse_range(text)
        if rng.bounded:
            cells |= set(rng.cells(0, 0)) - opened
        else:
            out.append(text)
    return out + [format_range(block) for block in _blocks(tab, cells)]


def _blocks(tab: str, cells: set[tuple[int, int]]) -> list[A1]:
    """Cells as rectangles: runs along each row, then the same run on consecutive rows joined."""
    runs: list[tuple[int, int, int]] = []  # row, first column, last column
    for r, c in sorted(cells):
        if runs and runs[-1][0] == r and runs[-1][2] == c - 1:
            runs[-1] = (r, runs[-1][1], c)
        else:
            runs.append((r, c, c))
    blocks: list[list[int]] = []  # first row, last row, first column, last column
    for r, c0, c1 in sorted(runs, key=lambda x: (x[1], x[2], x[0])):
        if blocks and blocks[-1][2:] == [c0, c1] and blocks[-1][1] == r - 1:
            blocks[-1][1] = r
        else:
            blocks.append([r, r, c0, c1])
    return [A1(tab, b[0], b[2], b[1] + 1, b[3] + 1) for b in sorted(blocks)]


def _shown(tab: str, cells: set[tuple[int, int]]) -> str:
    if not cells:
        return "-"
    return ", ".join(format_range(A1(tab, r, c, r + 1, c + 1)) for r, c in sorted(cells))
