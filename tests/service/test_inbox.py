"""`sheetgm inbox FOLDER`: returned attachments under any name filed into their seats by their seals, the newest
save winning; forged, foreign and broken files refused and named."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from script_runner import run_script
from svc_helpers import make_game, orders_row

from sheetgm.backends.port import SetValues
from sheetgm.backends.xlsx.gateway import XlsxGateway
from sheetgm.service.check import check
from sheetgm.service.game import Game, open_game, player_key
from sheetgm.sheets import layout
from sheetgm.sheets.stages import order_row


def _returned(game: Game, seat: int, scratch: Path, order: str, identity: str | None = None) -> Path:
    """The player's copy of their workbook with ``order`` typed and saved (as the file they mail back)."""
    scratch.mkdir(parents=True, exist_ok=True)
    gw = game.gateway
    assert isinstance(gw, XlsxGateway)
    shutil.copy(gw.path(player_key(seat)), scratch / "player-x.xlsx")
    own = XlsxGateway(scratch)
    lang, r = game.seat_lang(seat), order_row(1)
    ops = [SetValues(layout.rng(layout.tab(lang, "orders"), f"B{r}:C{r}"), [[order, "✓"]])]
    if identity is not None:
        ops.append(SetValues(layout.rng(layout.tab(lang, "orders"), layout.IDENTITY_CELL), [[identity]]))
    own.write("player-x", ops)
    return scratch / "player-x.xlsx"


def test_returned_attachments_are_filed_by_their_seals(tmp_path: Path) -> None:
    game = make_game(tmp_path / "game", None, backend="xlsx")
    box = tmp_path / "inbox"
    box.mkdir()
    old = _returned(game, 1, tmp_path / "a", "移动 B2")
    shutil.move(old, box / "S1.xlsx")
    os.utime(box / "S1.xlsx", (1_700_000_000, 1_700_000_000))  # saved earlier
    shutil.move(_returned(game, 1, tmp_path / "b", "搜索"), box / "01-S1 (1).xlsx")  # as a browser saves it again
    shutil.move(_returned(game, 2, tmp_path / "c", "搜索"), box / "03-S3.xlsx")  # seat 2's, under seat 3's name
    shutil.move(_returned(game, 3, tmp_path / "d", "搜索", identity="player-3/0123456789abcdef"), box / "S3.xlsx")
    plain = XlsxGateway(tmp_path / "plain")
    plain.create("k", "someone's own sheet", ["Sheet1"])
    shutil.copy(plain.path("k"), box / "新建 Microsoft Excel 工作表.xlsx")
    (box / "notes.xlsx").write_text("not a workbook", "utf-8")

    done = run_script(["inbox", str(box), "--game", str(game.folder), "--json"], env={"SHEETGM_LANG": "en"})
    assert done.exit_code == 0, done.output
    rep = json.loads(done.stdout)
    assert {(f["file"], f["seat"]) for f in rep["filed"]} == {("01-S1 (1).xlsx", 1), ("03-S3.xlsx", 2)}
    why = {r["file"]: r["why"] for r in rep["refused"]}
    assert why["S1.xlsx"] == "older"
    assert "not this game's" in why["S3.xlsx"] and "player-3" in why["S3.xlsx"]
    assert "not a workbook of this game" in why["新建 Microsoft Excel 工作表.xlsx"]
    assert "notes.xlsx" in why and set(why) == {"S1.xlsx", "S3.xlsx", "新建 Microsoft Excel 工作表.xlsx", "notes.xlsx"}
    fresh = open_game(game.folder)
    assert orders_row(fresh, 1)[1:3] == ["搜索", "✓"] and orders_row(fresh, 2)[1:3] == ["搜索", "✓"]
    assert orders_row(fresh, 3)[1] == ""  # the forged file was not filed
    assert {p.name for p in box.iterdir()} >= {"S1.xlsx", "01-S1 (1).xlsx"}  # nothing in the folder changed
    rep = check(fresh)  # (past the deadline, who has no order is named in without_order)
    assert rep.missing + rep.without_order == ["S3"]

    text = run_script(["inbox", str(box), "--game", str(game.folder)], env={"SHEETGM_LANG": "en"}).stdout
    assert "is not newer than the one filed last" in text and "0 filed" in text  # filed once only


def test_inbox_is_for_local_games(tmp_path: Path) -> None:
    game = make_game(tmp_path / "game", None, backend="xlsx")
    done = run_script(["inbox", str(tmp_path / "nowhere"), "--game", str(game.folder)], env={"SHEETGM_LANG": "en"})
    assert done.exit_code != 0 and "is not a folder" in done.output
