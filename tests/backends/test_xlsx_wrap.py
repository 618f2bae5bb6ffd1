"""Multi-line cells (reports, logs, statuses) must be readable when an .xlsx opens in LibreOffice or Excel."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from sheetgm.backends.port import SetValues
from sheetgm.backends.xlsx.gateway import XlsxGateway


def test_a_multi_line_cell_wraps_at_the_top_and_its_row_grows(tmp_path: Path) -> None:
    gw = XlsxGateway(tmp_path)
    gw.create("player-1", "P1", ["Results"])
    gw.write("player-1", [SetValues("Results!A2:B2", (("N1-survivor", "line 1\nline 2\nline 3"),))])
    files = list(tmp_path.rglob("*.xlsx"))
    ws = openpyxl.load_workbook(files[0])["Results"]
    cell = ws["B2"]
    assert cell.alignment.wrap_text and cell.alignment.vertical == "top"
    assert ws.row_dimensions[2].height >= 45
    assert ws["A2"].alignment.wrap_text is not True  # single-line cells are left alone
    # the grown row is a display detail: the port's view of the tab does not change
    assert 2 not in gw.view("player-1").tab("Results").row_heights
