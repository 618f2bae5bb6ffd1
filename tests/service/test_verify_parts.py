"""verify's smaller parts pinned on their own: the report as JSON (what `sheetgm verify --json` prints), the
Orders archive as verify reads it, and the rows each live journal row must be."""

from __future__ import annotations

from pathlib import Path

from svc_helpers import make_game, write_order

from sheetgm.backends.memory import MemoryGateway
from sheetgm.service.resolve import resolve
from sheetgm.service.verify import Problem, StageCheck, VerifyReport, archive_range, parse_archive, verify


def test_the_report_as_json_names_every_field() -> None:
    good = StageCheck("N1-survivor", "stage", "abc", "abc")
    bad = StageCheck("N1-hunter", "stage", "def", "fed", [Problem("replay", "replays to fed")])
    rep = VerifyReport([good, bad], ["N1-hunter+old"])
    assert good.to_dict() == {"stage": "N1-survivor", "kind": "stage", "ok": True, "journal_hash": "abc",
                              "replay_hash": "abc", "problems": []}
    assert bad.to_dict()["problems"] == [{"code": "replay", "message": "replays to fed"}] and not bad.ok
    assert rep.to_dict() == {"ok": False, "first_difference": "N1-hunter", "differing": ["N1-hunter"],
                             "skipped": ["N1-hunter+old"], "stages": [good.to_dict(), bad.to_dict()]}
    assert VerifyReport([good], []).to_dict()["first_difference"] is None and VerifyReport([good], []).ok


def test_the_archive_is_read_by_stage_and_seat_skipping_rows_that_are_not_orders() -> None:
    rows = [["N1-survivor", "1", "", "搜索"], [" N1-survivor ", "2", "x", "  移动 B2 ", "", ""],
            ["N1-survivor", "x", "", "y"], ["", "3", "", "z"], ["N1-hunter", "4"], ["N1-survivor", " 5 ", "", "聆听"]]
    assert parse_archive(rows) == {("N1-survivor", 1): "搜索", ("N1-survivor", 2): "  移动 B2 ",
                                   ("N1-hunter", 4): "", ("N1-survivor", 5): "聆听"}
    assert archive_range("zh").endswith("!A2:F") and archive_range("en").endswith("!A2:F")


def test_a_played_night_replays_with_each_stage_checked_once(tmp_path: Path) -> None:
    game = make_game(tmp_path, MemoryGateway())
    for seat in (1, 2, 3):
        write_order(game, seat, "搜索")
    resolve(game)
    rep = verify(game)
    assert [(s.stage, s.kind, s.ok) for s in rep.stages] == [("N0-setup", "setup", True),
                                                            ("N1-survivor", "stage", True)]
    assert all(s.replay_hash == s.journal_hash and len(s.journal_hash) > 8 for s in rep.stages)
