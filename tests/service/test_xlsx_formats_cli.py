"""Through the command line: a player's workbook in another format, under the .xlsx name or beside it, is
named to the director and the player in their language, and every other player is resolved."""

from __future__ import annotations

import shutil
from pathlib import Path

from cli_games import cli_game
from svc_helpers import roster, write_order

from sheetgm.core.texts import render
from sheetgm.service.game import player_key

OTHER = Path(__file__).resolve().parents[1] / "fixtures" / "other"


def test_check_and_resolve_name_an_ods_player_and_resolve_the_others(tmp_path: Path) -> None:
    """Player 2 sent back an .ods under the .xlsx name; player 3 (who reads English) saved an .ods beside
    their .xlsx: the director hears both in Chinese, player 3 in English in their Orders tab, and the stage is
    resolved for everyone else."""
    with cli_game("xlsx", tmp_path, roster=roster(langs={3: "en"})) as game:
        g = game.open()
        for seat in (1, 2, 3):
            write_order(g, seat, "破解" if seat != 3 else "crack")
        shutil.copy(OTHER / "calamine-issue127.ods", game.file(player_key(2)))
        beside = game.file(player_key(3)).with_suffix(".ods")
        shutil.copy(OTHER / "calamine-issue127.ods", beside)

        checked = game.run("check")
        assert checked.exit_code == 0, checked.output
        named = [line for line in checked.stdout.splitlines() if "S2" in line and "OpenDocument" in line]
        assert named and "另存为" in named[0]
        assert any("S3" in line and beside.name in line and "旁边" in line for line in checked.stdout.splitlines())
        status = game.open().gateway.read(player_key(3), ["Orders!D2"])["Orders!D2"][0][0]  # the status cell
        assert "(.ods)" in status and "another format" in status  # in the player's words
        assert str(beside.parent) not in status and beside.name not in status  # no path of the director's machine

        done = game.run("resolve")
        assert done.exit_code == 0 and "N1-survivor 已结算并发布" in done.stdout, done.output
        assert any("S2" in line and "OpenDocument" in line for line in done.stdout.splitlines())
        assert "按结算记录补写" not in done.stdout  # no Results row said written from the journal
        assert render("zh", "err.backend.file.ods", path="x") != "err.backend.file.ods"
        opened = game.open()
        for seat in (1, 3, 4):  # no player's cell names a place on the director's machine
            cells = [c for t in opened.gateway.view(player_key(seat)).tabs for row in t.values for c in row]
            assert not any(str(tmp_path) in c or "workbooks/" in c for c in cells), seat


def test_a_bomb_in_one_workbook_is_named_and_every_other_player_resolved(tmp_path: Path) -> None:
    """Player 2's Orders part inflates to 40 MB (40 KB in the file): refused as too large, named by check and
    resolve, and the stage resolved and published for the others."""
    import zipfile

    with cli_game("xlsx", tmp_path) as game:
        g = game.open()
        for seat in (1, 2, 3):
            write_order(g, seat, "破解")
        path = game.file(player_key(2))
        original = path.read_bytes()
        with zipfile.ZipFile(path) as src:
            parts = {i.filename: src.read(i.filename) for i in src.infolist()}
        sheet = parts["xl/worksheets/sheet1.xml"]
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
            for name, body in parts.items():
                if name == "xl/worksheets/sheet1.xml":
                    with out.open(name, "w") as f:
                        f.write(sheet.replace(b"</worksheet>", b""))
                        for _ in range(40):
                            f.write(b" " * (1 << 20))
                        f.write(b"</worksheet>")
                else:
                    out.writestr(name, body)
        assert path.stat().st_size < 200_000
        for command in ("check", "resolve"):
            done = game.run(command)
            assert done.exit_code == 0, done.output
            assert any("S2" in line and "16.0 MB" in line for line in done.stdout.splitlines()), done.stdout
        assert "N1-survivor 已结算并发布" in done.stdout
        path.write_bytes(original)  # repaired: the report kept in the journal is written by the next resolve
        again = game.run("resolve")
        assert again.exit_code == 0 and "结果!B2" in again.stdout, again.output
