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


def _journal_row(game, cells: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Row 2 of the journal (the setup's) edited by hand: ``cells`` from column A, the rest emptied."""
    from sheetgm.backends.a1 import col_index
    from sheetgm.backends.port import SetValues
    from sheetgm.service.game import DIRECTOR
    from sheetgm.service.journal import LAST_COL, journal_range

    tab = journal_range(game.lang).split("!")[0]
    width = col_index(LAST_COL) + 1
    game.gateway.write(DIRECTOR, [SetValues(f"{tab}!A2:{LAST_COL}2", (tuple(cells + [""] * (width - len(cells))),))])


def test_a_journal_without_its_setup_row_is_named_not_replayed(tmp_path: Path) -> None:
    import pytest

    from sheetgm.service.errors import ServiceError
    from sheetgm.service.journal import read_director

    game = make_game(tmp_path, MemoryGateway())
    assert [e.key for e in read_director(game)[0]] == ["N0-setup"]
    _journal_row(game, [])  # the setup row emptied: no journal at all
    with pytest.raises(ServiceError) as err:
        verify(game)
    assert err.value.code == "err.svc.no_journal"
    _journal_row(game, ["N0-setup", "resolved", "zz", "{", "}", "x", "y", "z"])  # a cell that cannot be read
    with pytest.raises(ServiceError) as err:
        verify(game)
    assert err.value.code != "err.svc.no_journal" and "N0-setup" in err.value.message("en")


def test_only_the_last_row_may_be_resolved_and_not_yet_published(tmp_path: Path) -> None:
    from sheetgm.backends.port import SetValues
    from sheetgm.service.game import DIRECTOR
    from sheetgm.service.journal import RESOLVED, journal_range, journal_row

    game = make_game(tmp_path, MemoryGateway())
    for seat in (1, 2, 3):
        write_order(game, seat, "搜索")
    resolve(game)
    tab = journal_range(game.lang).split("!")[0]

    def status(key: str, value: str) -> None:
        game.gateway.write(DIRECTOR, [SetValues(f"{tab}!B{journal_row(key)}", ((value,),))])

    status("N1-survivor", RESOLVED)  # its publishing stopped half-way: the next run publishes it
    assert verify(game).ok
    status("N0-setup", RESOLVED)
    rep = verify(game)
    assert rep.differing == ["N0-setup"] and [p.code for p in rep.stages[0].problems] == ["status"]


def test_a_stage_row_copied_elsewhere_is_named_as_misplaced_and_repeated(tmp_path: Path,
                                                                         monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from sheetgm.backends.a1 import col_index
    from sheetgm.backends.port import SetValues
    from sheetgm.service.game import DIRECTOR
    from sheetgm.service.journal import HISTORY_FIRST_ROW, LAST_COL, PUBLISHED, journal_range, journal_row

    monkeypatch.setenv("SHEETGM_LANG", "en")
    game = make_game(tmp_path, MemoryGateway())
    for seat in (1, 2, 3):
        write_order(game, seat, "搜索")
    resolve(game)
    rng = journal_range(game.lang)
    tab = rng.split("!")[0]
    width = col_index(LAST_COL) + 1
    src = journal_row("N1-survivor")
    row = game.gateway.read(DIRECTOR, [f"{tab}!A{src}:{LAST_COL}{src}"])[f"{tab}!A{src}:{LAST_COL}{src}"][0]
    row = list(row) + [""] * (width - len(row))
    at = journal_row("N1-hunter") + 3  # a row of no stage, above the history rows
    game.gateway.write(DIRECTOR, [SetValues(f"{tab}!A{at}:{LAST_COL}{at}", (tuple(row),))])
    rep = verify(game)
    copy = rep.stages[-1]
    assert copy.stage == "N1-survivor" and [p.code for p in copy.problems] == ["replay", "row", "duplicate"]
    assert [p.message for p in copy.problems[1:]] == [f"this stage is written in row {at}; it belongs in row {src}",
                                                  f"row {at} repeats a stage"]
    hist = HISTORY_FIRST_ROW
    game.gateway.write(DIRECTOR, [SetValues(f"{tab}!A{at}:{LAST_COL}{at}", (("",) * width,)),
                                  SetValues(f"{tab}!A{hist}:{LAST_COL}{hist}", (tuple(row),))])
    assert row[1] == PUBLISHED
    rep = verify(game)
    bad = [s for s in rep.stages if not s.ok]
    status = [p for s in bad for p in s.problems if p.code == "status"]
    assert [p.message for p in status] == [f"row {hist} has status 'published', which cannot be (only resolved, "
                                           "published or superseded, and only the last stage may be resolved)"]


# Each hand edit of test_verify_edits.py, on the memory gateway (the xlsx and Google runs go through the command
# line and take minutes under mutation): every stage that no longer holds, its kind and its problems, exactly.
EDITED: dict[str, list[tuple[str, str, list[str]]]] = {
    "state": [("N1-hunter", "stage", ["state_json"])],
    "events": [("N1-survivor", "stage", ["events_json"])],
    "seed": [("N2-survivor", "stage", ["seed"])],
    "orders": [("N1-hunter", "stage", ["orders_hash", "archive"])],
    "orders_hash": [("N2-hunter", "stage", ["orders_hash"])],
    "state_hash": [("N1-survivor", "stage", ["replay"])],
    "status_unknown": [("N1-hunter", "stage", ["status"])],
    "status_resolved": [("N1-survivor", "stage", ["status"])],
    "status_superseded": [("N2-hunter", "stage", ["replay", "missing"]),
                          ("N2-survivor", "superseded", ["rollback_note"])],
    "rollback_note": [("N2-hunter", "superseded", ["rollback_note"])],
    "key": [("N2-survivor", "stage", ["replay", "missing"]), ("N1-hunter", "row", ["cell"])],
    "bad_zlib": [("N2-survivor", "stage", ["cell"])],
    "truncated_json": [("N0-setup", "setup", ["cell"])],
    "seed_not_a_number": [("N1-hunter", "stage", ["replay", "missing"]), ("N1-survivor", "row", ["cell"])],
}


def test_every_hand_edit_of_the_journal_is_named_exactly_and_in_the_directors_language(
        tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A Chinese game read by an English-speaking director: every problem is in English, a broken cell too."""
    from test_verify_edits import EDITS, _journal, _play, _restore

    monkeypatch.setenv("SHEETGM_LANG", "en")
    game = make_game(tmp_path, MemoryGateway())
    _play(game)
    rows = _journal(game)
    rep = verify(game)
    assert rep.ok and rep.skipped == ["N2-hunter"]
    assert [(s.stage, s.kind) for s in rep.stages] == [("N0-setup", "setup"), ("N1-survivor", "stage"),
                                                       ("N1-hunter", "stage"), ("N2-survivor", "stage"),
                                                       ("N2-hunter", "stage")]
    assert set(EDITED) == set(EDITS)
    for name, (edit, _stage, _codes) in EDITS.items():
        edit(game)
        rep = verify(game)
        bad = [(s.stage, s.kind, [p.code for p in s.problems]) for s in rep.stages if not s.ok]
        assert bad == EDITED[name], name
        assert rep.differing == [s for s, _k, _c in EDITED[name]] and rep.first_difference == EDITED[name][0][0]
        cells = [p.message for s in rep.stages for p in s.problems if p.code == "cell"]
        assert all(m.startswith("Row ") and "Journal tab cannot be read" in m for m in cells), (name, cells)
        _restore(game, rows)
        assert verify(game).ok, name
