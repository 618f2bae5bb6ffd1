"""Three nights through workbooks a real LibreOffice saved (tests/fixtures/libreoffice, made once by make.py
with LibreOffice 7.4 through UNO, so the tests need no LibreOffice): before each stage every player due has
opened their workbook in LibreOffice, typed their order and a tick into the Orders tab and saved it keeping
the .xlsx format. `check` and `resolve` run through the command line. After each LibreOffice save every
protection is still in force with the game's password (the Orders tab open at the night's order cells only),
and the lock on the tabs LibreOffice dropped is put back by the tool's next save. Every order typed in
LibreOffice is the one resolved, every report is written into the player's LibreOffice file, and what
LibreOffice put in the file (its shared strings, styles, custom properties, the drawings of its notes) is still
there after the tool's saves, which openpyxl and python-calamine read."""

from __future__ import annotations

import io
import shutil
import sys
import zipfile
from pathlib import Path

from cli_games import cli_game
from xlsx_witness import by_calamine, by_openpyxl

from sheetgm.backends.a1 import parse_range
from sheetgm.backends.port import LOCK_GAME, LOCK_NONE
from sheetgm.service.game import Game, player_key
from sheetgm.service.ledger.journal import PUBLISHED, read_director
from sheetgm.sheets import layout
from sheetgm.sheets.stages import order_row

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "libreoffice"
sys.path.insert(0, str(FIXTURES))
from make import PLAN, name  # noqa: E402

RESULTS = "'结果'!A2:C"


def test_three_nights_through_workbooks_libreoffice_saved(tmp_path: Path) -> None:
    with cli_game("xlsx", tmp_path) as game:
        for (night, stage), orders in PLAN.items():
            for seat in orders:
                lo = FIXTURES / name(night, stage, seat)
                assert b"LibreOffice" in zipfile.ZipFile(lo).read("docProps/app.xml")
                shutil.copy(lo, game.file(player_key(seat)))
                _held_through_libreoffice(game.open(), seat, night)
            checked = game.run("check")
            assert checked.exit_code == 0 and "读不到" not in checked.stdout, checked.output
            done = game.run("resolve")
            assert done.exit_code == 0 and f"N{night}-{stage} 已结算并发布" in done.stdout, done.output
            assert "读不到" not in done.stdout and "写不进" not in done.stdout and "Traceback" not in done.output
            assert "被手工改动过" not in done.stdout  # LibreOffice's save is no edit of a report
            for seat in orders:  # the tool's save locks the tabs again, the protections as they were
                assert game.open().gateway.structure(player_key(seat)).lock == LOCK_GAME

        g = game.open()
        entries = {e.key: e for e in read_director(g)[0]}
        for (night, stage), orders in PLAN.items():
            entry = entries[f"N{night}-{stage}"]
            assert entry.status == PUBLISHED and not entry.undelivered
            assert {seat: entry.orders()[seat].text for seat in orders} == orders  # as typed in LibreOffice
        for seat in (1, 2, 3, 4):
            reports = g.gateway.read(player_key(seat), [RESULTS])[RESULTS]
            assert [r[0] for r in reports[:6]] == [f"N{n}-{s}" for n in (1, 2, 3) for s in ("survivor", "hunter")]
            assert all(len(r) > 1 and r[1].strip() for r in reports[:6])
            data = game.file(player_key(seat)).read_bytes()
            with zipfile.ZipFile(io.BytesIO(data)) as z:  # LibreOffice's own parts, carried through every save
                assert b"LibreOffice" in z.read("docProps/app.xml")
                assert {"docProps/custom.xml", "xl/sharedStrings.xml"} <= set(z.namelist())
            opx, cal = by_openpyxl(data), by_calamine(data)
            assert opx["结果"][(2, 0)] == cal["结果"][(2, 0)] == "N1-hunter"


def _held_through_libreoffice(game: Game, seat: int, night: int) -> None:
    """What LibreOffice kept of a file sheetgm protected, after the player's save: every tab of sheetgm's
    protected whole with the game's password (its hash as sheetgm wrote it), nothing allowed to anyone, the
    Orders tab open at the order, tick and dropdown cells of the night's row only; the lock on the tabs gone
    (LibreOffice drops it at every save) and the file naming LibreOffice, as `audit` says."""
    key = player_key(seat)
    prots = {parse_range(p.range).tab: p for p in game.gateway.protections(key)}
    assert set(prots) == {layout.tab("zh", t) for t in layout.PLAYER_TABS}, prots
    for tab, p in prots.items():
        assert p.password == LOCK_GAME and p.allows == () and not p.warning_only, (tab, p)
        row = order_row(night)
        want = (f"'指令'!B{row}:C{row}", f"'指令'!G{row}") if tab == "指令" else ()
        assert p.unprotected == want, (tab, p.unprotected)
    found = game.gateway.structure(key)
    assert found.lock == LOCK_NONE and found.saved_by.startswith("LibreOffice/7.")
    assert found.tabs == tuple(layout.tab("zh", t) for t in layout.PLAYER_TABS) and not found.hidden
