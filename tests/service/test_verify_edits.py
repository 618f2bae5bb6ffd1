"""Issue 8.7: `sheetgm verify` sees every tampering with the journal and names the stage of each.

A game of two nights with a rollback (so the journal has a superseded row) is edited by hand, one edit at a
time, in the state, the events, the seed, the orders, the hashes, the status, the key, the rollback note and
the compressed cells; after each, `sheetgm verify` (text and --json) exits 1 naming the stage, and once the
cell is put back the game verifies again. On xlsx and on the Google fake.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_games import cli_game
from svc_helpers import write_order

from sheetgm.backends.port import SetValues
from sheetgm.service.game import DIRECTOR, Game
from sheetgm.service.ledger.journal import HISTORY_FIRST_ROW, journal_range, pack, unpack
from sheetgm.service.resolve import resolve
from sheetgm.service.rollback import rollback
from sheetgm.sheets import layout
from sheetgm.sheets.stages import journal_row


def _play(game: Game) -> None:
    for night in (1, 2):
        for seat in (1, 2, 3):
            write_order(game, seat, "搜索", night=night)
        resolve(game)
        write_order(game, 4, "聆听", night=night)
        resolve(game)
    rollback(game, "N2-hunter", "typo in H1's order")
    write_order(game, 4, "聆听", night=2)
    resolve(game)


def _cell(game: Game, a1: str) -> str:
    rng = layout.rng(layout.tab(game.lang, "journal"), a1)
    got = game.gateway.read(DIRECTOR, [rng])[rng]
    return got[0][0] if got and got[0] else ""


def _set(game: Game, a1: str, value: str) -> None:
    game.gateway.write(DIRECTOR, [SetValues(layout.rng(layout.tab(game.lang, "journal"), a1), ((value,),))])


def _json_edit(column: str, key: str, change: Callable[[object], object]) -> Callable[[Game], str]:
    def edit(game: Game) -> str:
        a1 = f"{column}{journal_row(key)}"
        _set(game, a1, pack(change(unpack(_cell(game, a1)))))
        return a1
    return edit


def _raw_edit(column: str, key: str, change: Callable[[str], str], row: int | None = None) -> Callable[[Game], str]:
    def edit(game: Game) -> str:
        a1 = f"{column}{row or journal_row(key)}"
        _set(game, a1, change(_cell(game, a1)))
        return a1
    return edit


def _hp(data: object) -> object:
    data["players"][0]["hp"] = 1  # type: ignore[index]
    return data


def _drop_event(data: object) -> object:
    return data[:-1]  # type: ignore[index]


def _order_text(data: object) -> object:
    data["4"]["text"] = "攻击"  # type: ignore[index]
    return data


def _corrupt_zlib(text: str) -> str:
    """The cell compressed as the journal does for long values, with a few bytes of the stream damaged."""
    data = zlib.compress(text.encode("utf-8"), 9)
    return "z:" + base64.b64encode(data[:20] + bytes(8) + data[28:]).decode("ascii")


# name -> (the edit, the stage verify must name, the problem codes it must give there)
EDITS: dict[str, tuple[Callable[[Game], str], str, set[str]]] = {
    "state": (_json_edit("G", "N1-hunter", _hp), "N1-hunter", {"state_json"}),
    "events": (_json_edit("H", "N1-survivor", _drop_event), "N1-survivor", {"events_json"}),
    "seed": (_raw_edit("E", "N2-survivor", lambda s: str(int(s) + 1)), "N2-survivor", {"seed"}),
    "orders": (_json_edit("I", "N1-hunter", _order_text), "N1-hunter", {"orders_hash", "archive"}),
    "orders_hash": (_raw_edit("C", "N2-hunter", lambda s: "0" * 16), "N2-hunter", {"orders_hash"}),
    "state_hash": (_raw_edit("D", "N1-survivor", lambda s: "f" * 16), "N1-survivor", {"replay"}),
    "status_unknown": (_raw_edit("B", "N1-hunter", lambda s: "done"), "N1-hunter", {"status"}),
    "status_resolved": (_raw_edit("B", "N1-survivor", lambda s: "resolved"), "N1-survivor", {"status"}),
    "status_superseded": (_raw_edit("B", "N2-survivor", lambda s: "superseded"), "N2-survivor", {"rollback_note"}),
    "rollback_note": (_raw_edit("J", "", lambda s: "", row=HISTORY_FIRST_ROW), "N2-hunter", {"rollback_note"}),
    "key": (_raw_edit("A", "N1-hunter", lambda s: s + "x"), "N1-hunter", {"cell"}),
    "bad_zlib": (_raw_edit("G", "N2-survivor", _corrupt_zlib), "N2-survivor", {"cell"}),
    "truncated_json": (_raw_edit("H", "N0-setup", lambda s: "[{\"kind\": \"trunc"), "N0-setup", {"cell"}),
    "seed_not_a_number": (_raw_edit("E", "N1-survivor", lambda s: "七"), "N1-survivor", {"cell"}),
}


@pytest.mark.parametrize("backend", ["xlsx", "google"])
def test_every_hand_edit_of_the_journal_is_named_by_its_stage(backend: str, tmp_path: Path) -> None:
    with cli_game(backend, tmp_path) as cli:
        game = cli.open()
        _play(game)
        assert cli.run("verify").exit_code == 0
        rows = _journal(game)
        named: dict[str, str] = {}
        for name, (edit, stage, want) in EDITS.items():
            edit(game)
            text = cli.run("verify")
            doc = json.loads(cli.run("verify", "--json").stdout)
            assert text.exit_code == 1 and "Traceback" not in text.output, (name, text.output)
            assert stage in doc["differing"], (name, doc["differing"])
            got = {p["code"] for s in doc["stages"] if s["stage"] == stage for p in s["problems"]}
            assert want <= got, (name, got)
            assert f"不符  {stage}" in text.stdout, (name, text.stdout)
            named[name] = stage
            _restore(game, rows)
            assert cli.run("verify").exit_code == 0, name
        assert len(named) >= 10 and len(set(named.values())) >= 5


def _journal(game: Game) -> list[list[str]]:
    rng = journal_range(game.lang)
    return game.gateway.read(DIRECTOR, [rng])[rng]


def _restore(game: Game, rows: list[list[str]]) -> None:
    """Put the journal back as it was (a hand edit undone)."""
    width = max(len(r) for r in rows)
    full = tuple(tuple(r) + ("",) * (width - len(r)) for r in rows)
    end = layout.col(width - 1)
    journal = layout.tab(game.lang, "journal")
    game.gateway.write(DIRECTOR, [SetValues(layout.rng(journal, f"A2:{end}{len(rows) + 1}"), full)])


def test_a_deleted_stage_row_is_named_by_the_stage_after_it(tmp_path: Path) -> None:
    with cli_game("xlsx", tmp_path) as cli:
        game = cli.open()
        _play(game)
        r = journal_row("N1-hunter")
        journal = layout.tab(game.lang, "journal")
        game.gateway.write(DIRECTOR, [SetValues(layout.rng(journal, f"A{r}:M{r}"), (("",) * 13,))])
        doc = json.loads(cli.run("verify", "--json").stdout)
        missing = [s for s in doc["stages"] if any(p["code"] == "missing" for p in s["problems"])]
        assert [s["stage"] for s in missing] == ["N2-survivor"]
        assert "N1-hunter" in missing[0]["problems"][-1]["message"]


def test_a_corrupted_journal_cell_is_named_never_a_traceback(tmp_path: Path) -> None:
    """Other commands than verify stop with one line naming the stage and the row."""
    with cli_game("xlsx", tmp_path) as cli:
        game = cli.open()
        write_order(game, 1, "搜索")
        resolve(game)
        _raw_edit("G", "N1-survivor", lambda s: s[: len(s) // 2])(game)
        for args in (("status",), ("resolve",), ("resolve", "--dry-run")):
            out = cli.run(*args)
            assert out.exit_code == 1 and "Traceback" not in out.output, out.output
            assert "第 3 行（阶段 N1-survivor）G 列读不出来" in out.stderr, out.stderr
