"""The deadline in front of every player, as LibreOffice shows it (issue 28): a player's workbook printed by
LibreOffice headless (``soffice --convert-to pdf``, then ``pdftotext``) after a check and after a resolve has
the stage due, its deadline and the time left on the page, for a player who has submitted too; and the status
cell shows every line it holds (its row is as tall as its text)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from svc_helpers import Clock, make_game, orders_row, state_of, write_order

from sheetgm.backends.xlsx.gateway import XlsxGateway
from sheetgm.core.check import legal_steps
from sheetgm.notation.order_format import format_step
from sheetgm.service.check import check
from sheetgm.service.game import Game, player_key
from sheetgm.service.resolve import resolve
from sheetgm.sheets import layout

SOFFICE = shutil.which("soffice") or next(
    (p for p in ("/usr/lib/libreoffice/program/soffice",) if Path(p).exists()), None)
PDFTOTEXT = shutil.which("pdftotext")
DEADLINES = {"N1-survivor": "2024-05-01T21:00:00+08:00", "N1-hunter": "2024-05-01T23:00:00+08:00"}

needs_office = pytest.mark.skipif(SOFFICE is None or PDFTOTEXT is None,
                                  reason="LibreOffice (soffice) and pdftotext (poppler-utils) are needed to render")


def rendered(game: Game, seat: int, work: Path) -> str:
    """The text LibreOffice prints of the seat's workbook (every tab), whitespace removed (a wrapped cell's lines
    are printed apart)."""
    src = work / f"seat{seat}.xlsx"
    gw = game.gateway
    assert isinstance(gw, XlsxGateway)
    shutil.copy(gw.path(player_key(seat)), src)
    profile = f"-env:UserInstallation={(work / 'profile').as_uri()}"
    subprocess.run([str(SOFFICE), profile, "--headless", "--norestore", "--convert-to", "pdf", "--outdir", str(work),
                    str(src)], check=True, capture_output=True, timeout=240)
    out = subprocess.run([str(PDFTOTEXT), str(work / f"seat{seat}.pdf"), "-"], check=True, capture_output=True,
                         timeout=60).stdout.decode("utf-8")
    return squeezed(out)


def squeezed(text: str) -> str:
    """Without whitespace and hyphens (pdftotext joins a word wrapped at its hyphen: "05-" "01" reads "0501")."""
    return re.sub(r"[\s-]+", "", text)


def game_on_disk(tmp_path: Path) -> tuple[Game, Clock]:
    clock = Clock()  # 20:00 in Shanghai: one hour before the survivors' deadline
    game = make_game(tmp_path / "game", XlsxGateway(tmp_path / "game" / "workbooks"), clock, deadlines=DEADLINES)
    return game, clock


def submit(game: Game, seat: int) -> None:
    write_order(game, seat, format_step(legal_steps(state_of(game), seat)[0], game.seat_lang(seat)))


@needs_office
def test_the_deadline_is_on_the_printed_page_after_a_check(tmp_path: Path) -> None:
    game, clock = game_on_disk(tmp_path)
    submit(game, 1)
    clock.advance(minutes=47, seconds=30)
    check(game)
    status = orders_row(game, 1)[layout.O_STATUS]
    first = status.split("\n")[0]
    assert first == "▶ 第1夜 求生者阶段 截止：05-01 21:00 UTC+8，还有 12 分（截至 05-01 20:47 UTC+8 检查）"
    assert "✔" in status  # a player who has submitted sees it too
    page = rendered(game, 1, tmp_path)
    assert squeezed(first) in page  # the Orders tab's header line
    assert page.count(squeezed(first.split("（")[0])) >= 3  # and in the status cell, and in the Current tab
    for line in status.split("\n"):  # the status cell is shown whole: its last line too
        assert squeezed(line)[:30] in page, line


@needs_office
def test_the_next_deadline_is_on_the_printed_page_after_a_resolve(tmp_path: Path) -> None:
    game, clock = game_on_disk(tmp_path)
    for seat in (1, 2, 3):
        submit(game, seat)
    check(game)
    clock.advance(hours=1, minutes=5)  # 21:05: after the survivors' deadline
    resolve(game)
    want = "▶ 第1夜 杀手阶段 截止：05-01 23:00 UTC+8，还有 1 小时 55 分（截至 05-01 21:05 UTC+8 结算）"
    page = rendered(game, 1, tmp_path)  # a survivor: the hunters' stage is due, hers has just been resolved
    assert squeezed(want) in page
    hunter = rendered(game, 4, tmp_path)  # the hunter: his row is open, the deadline first in its status cell
    assert orders_row(game, 4)[layout.O_STATUS].split("\n")[0] == want
    assert squeezed(want) in hunter and hunter.count(squeezed(want.split("（")[0])) >= 3
