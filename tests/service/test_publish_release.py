"""Publishing lets each player's parsed workbook go once written (memory at 160 players), losing nothing."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from svc_helpers import make_game, write_order

from sheetgm.backends.errors import FileError
from sheetgm.backends.port import Op
from sheetgm.backends.xlsx import gateway as xlsx_gateway
from sheetgm.backends.xlsx.gateway import XlsxGateway
from sheetgm.service.game import player_key
from sheetgm.service.ledger.journal import PUBLISHED, read_director
from sheetgm.service.resolve import resolve
from sheetgm.sheets import layout


class _Watched(XlsxGateway):
    """Counts the players' parsed workbooks held just after each write."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder)
        self.held: list[tuple[str, int]] = []

    def write(self, key: str, ops: Sequence[Op]) -> None:
        super().write(key, ops)
        self.held.append((key, sum(k.startswith("player-") for k in self._books)))


def _results(folder: Path, seat: int) -> list[str]:
    tab = layout.tab("zh", "results")
    rows = XlsxGateway(folder).read(player_key(seat), [f"'{tab}'!A2:A"])[f"'{tab}'!A2:A"]
    return [r[0] for r in rows if r]


def test_each_player_workbook_is_let_go_once_written_and_every_report_is_in_its_file(tmp_path: Path) -> None:
    gw = _Watched(tmp_path / "workbooks")
    game = make_game(tmp_path, gw)
    write_order(game, 1, "搜索")
    write_order(game, 2, "破解")
    gw.held.clear()
    assert resolve(game).action == "resolved"
    # all four held (made by this gateway, the survivors' read for their orders), then one fewer after each write
    assert [n for key, n in gw.held if key.startswith("player-")] == [4, 3, 2, 1], gw.held
    assert gw.held[-1] == ("director", 0)
    for seat in game.seats:
        assert "N1-survivor" in _results(tmp_path / "workbooks", seat), seat


def test_a_save_that_fails_is_reported_kept_owed_and_written_next_time(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    gw = XlsxGateway(tmp_path / "workbooks")
    game = make_game(tmp_path, gw)
    write_order(game, 2, "破解")
    replace = xlsx_gateway._replace

    def failing(path: Path, data: bytes):  # type: ignore[no-untyped-def]
        if path.name.startswith(gw.path(player_key(2)).name):
            raise FileError(path=str(path), detail="PermissionError: denied")
        return replace(path, data)

    monkeypatch.setattr(xlsx_gateway, "_replace", failing)
    rep = resolve(game)
    assert any("S2" in w for w in rep.warnings), rep.warnings
    entry = read_director(game)[0][-1]
    assert entry.status == PUBLISHED and [s for s, _ in entry.undelivered] == [2]
    assert "N1-survivor" not in _results(tmp_path / "workbooks", 2)
    assert player_key(2) not in gw._books  # released though its save failed: read from its file next time
    monkeypatch.setattr(xlsx_gateway, "_replace", replace)
    resolve(game)  # N1-hunter: the owed report is written from the journal
    assert {"N1-survivor", "N1-hunter"} <= set(_results(tmp_path / "workbooks", 2))


def test_a_check_lets_each_player_workbook_go_once_its_status_is_written(tmp_path: Path) -> None:
    from sheetgm.service.check import check

    gw = _Watched(tmp_path / "workbooks")
    game = make_game(tmp_path, gw)
    write_order(game, 1, "搜索")
    gw.held.clear()
    rep = check(game)
    assert {c.seat for c in rep.players} == {1, 2, 3}
    players = [n for key, n in gw.held if key.startswith("player-")]
    assert players == [4, 3, 2], gw.held  # the hunter's (made here, not due) stays; each survivor's goes
