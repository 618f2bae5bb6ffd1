"""verify's smaller parts pinned on their own: the report as JSON (what `sheetgm verify --json` prints), the
Orders archive as verify reads it, and the rows each live journal row must be."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
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
    from sheetgm.service.ledger.journal import LAST_COL, journal_range

    tab = journal_range(game.lang).split("!")[0]
    width = col_index(LAST_COL) + 1
    game.gateway.write(DIRECTOR, [SetValues(f"{tab}!A2:{LAST_COL}2", (tuple(cells + [""] * (width - len(cells))),))])


def test_a_journal_without_its_setup_row_is_named_not_replayed(tmp_path: Path) -> None:
    import pytest

    from sheetgm.service.errors import ServiceError
    from sheetgm.service.ledger.journal import read_director

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
    from sheetgm.service.ledger.journal import RESOLVED, journal_range, journal_row

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
    from sheetgm.service.ledger.journal import HISTORY_FIRST_ROW, LAST_COL, PUBLISHED, journal_range, journal_row

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
    assert [(s.stage, [p.code for p in s.problems]) for s in bad] == [
        ("N1-survivor", ["replay", "status", "duplicate"])]  # and no "row": the history rows have no fixed stage
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


@pytest.mark.parametrize("voice", ["en", "zh"])
def test_every_hand_edit_of_the_journal_is_named_exactly_and_in_the_directors_language(
        tmp_path: Path, monkeypatch, voice: str) -> None:  # type: ignore[no-untyped-def]
    """A Chinese game read by an English-speaking director: every problem is in English, a broken cell too; and
    read by a Chinese-speaking one, every problem is in Chinese."""
    from test_verify_edits import EDITS, _journal, _play, _restore

    monkeypatch.setenv("SHEETGM_LANG", voice)
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
        said = [(p.code, p.message) for s in rep.stages for p in s.problems]
        assert all(s.journal_hash == s.replay_hash == "" for s in rep.stages if s.kind == "row")  # nothing read
        if voice == "en":
            assert all(m.startswith("Row ") and "Journal tab cannot be read" in m for c, m in said if c == "cell")
            assert all(re.search("[a-z]{3} [a-z]{3}", m) for _c, m in said), (name, said)
        else:
            english = re.compile(r"\b(the|row|replays|missing|cannot)\b", re.IGNORECASE)
            assert all(re.search("[\u4e00-\u9fff]{4}", m) and not english.search(m) for _c, m in said), (name, said)
        _restore(game, rows)
        assert verify(game).ok, name


STATUS = "which cannot be (only resolved, published or superseded, and only the last stage may be resolved)"
NOTE = "is marked superseded without a rollback reason (only `sheetgm rollback --reason` supersedes a stage)"


def _said(h: dict[str, str], o: dict[str, str]) -> dict[str, list[str]]:
    """What each edit of EDITED must say, ``h`` and ``o`` being each stage's state and orders hash as journaled
    ("replay" and "cell" stand for messages checked on their own)."""
    return {
        "state": [f"the journal's state JSON no longer matches its hash {h['N1-hunter']} (edited by hand?)"],
        "events": [f"the journal's events JSON no longer matches the hash {h['N1-survivor']} (edited by hand?)"],
        "seed": ["the journal's seed is 8 but game.toml's seed is 7 (every stage's dice are drawn from game.toml's "
                 "seed)"],
        "orders": [f"the journal's orders no longer match their hash {o['N1-hunter']} (edited by hand?)",
                   'the archived order of H1 (seat 4) "聆听" differs from the journal\'s "攻击"'],
        "orders_hash": ["the journal's orders no longer match their hash 0000000000000000 (edited by hand?)"],
        "state_hash": ["replay"],
        "status_unknown": [f"row 4 has status 'done', {STATUS}"],
        "status_resolved": [f"row 3 has status 'resolved', {STATUS}"],
        "status_superseded": ["replay", "the stage(s) N2-survivor before it are missing (deleted?)", f"row 5 {NOTE}"],
        "rollback_note": [f"row 1002 {NOTE}"],
        "key": ["replay", "the stage(s) N1-hunter before it are missing (deleted?)", "cell"],
        "bad_zlib": ["cell"],
        "truncated_json": ["cell"],
        "seed_not_a_number": ["replay", "the stage(s) N1-survivor before it are missing (deleted?)", "cell"],
    }


def test_every_hand_edit_of_the_journal_says_what_and_where(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from test_verify_edits import EDITS, _journal, _play, _restore

    from sheetgm.service.ledger.journal import read_director

    monkeypatch.setenv("SHEETGM_LANG", "en")
    game = make_game(tmp_path, MemoryGateway())
    _play(game)
    rows = _journal(game)
    live = [e for e in read_director(game)[0] if e.status != "superseded"]
    said = _said({e.key: e.state_hash for e in live}, {e.key: e.orders_hash for e in live})
    for name, (edit, _stage, _codes) in EDITS.items():
        edit(game)
        rep = verify(game)
        got = []
        for s in rep.stages:
            for p in s.problems:
                if p.code == "replay":
                    assert p.message == f"replays to state hash {s.replay_hash}, the journal says {s.journal_hash}"
                    assert s.replay_hash and s.replay_hash != s.journal_hash
                got.append(p.code if p.code in ("replay", "cell") else p.message)
        assert got == said[name], name
        _restore(game, rows)


def test_a_desk_entry_that_cannot_be_replayed_says_why_and_the_next_stage_starts_from_its_state(
        tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from test_verify import entry, play, play_night_two, set_cell

    from sheetgm.service import desk
    from sheetgm.service.ledger.journal import entry_row, pack, unpack

    monkeypatch.setenv("SHEETGM_LANG", "en")
    game = make_game(tmp_path, MemoryGateway())
    play(game, nights=1)
    key = desk.override(game, "S1", "hp", "2", "误判了一次攻击").key
    play_night_two(game)
    e = entry(game, key)
    hashed = f"the journal's orders no longer match their hash {e.orders_hash} (edited by hand?)"
    for change, why in ((lambda a: a.update(value="x"), "Invalid value for hp: x"),  # the tool's own error
                        (lambda a: a.pop("value"), "KeyError: 'value'")):  # any other: its type and text
        actions = unpack(e.orders_json)
        change(actions[0])
        set_cell(game, "journal", f"I{entry_row(key)}", pack(actions))
        rep = verify(game)
        assert rep.differing == [key]  # N2-survivor starts from the override's state as journaled: it replays
        bad = next(s for s in rep.stages if s.stage == key)
        assert (bad.kind, bad.replay_hash, bad.journal_hash) == ("override", "", e.state_hash)
        assert [(p.code, p.message) for p in bad.problems] == [("orders_hash", hashed),
                                                               ("replay_failed", f"cannot be replayed: {why}")]
    actions = unpack(e.orders_json)
    actions[0]["value"] = "x"
    set_cell(game, "journal", f"I{entry_row(key)}", pack(actions))
    monkeypatch.setenv("SHEETGM_LANG", "zh")  # the tool's own error in the director's language
    bad = next(s for s in verify(game).stages if s.stage == key)
    assert bad.problems[-1].message == "无法重放：hp 的值无效：x"
    monkeypatch.setenv("SHEETGM_LANG", "en")
    set_cell(game, "journal", f"G{entry_row(key)}", "{")  # and its state unreadable: N2-survivor starts before it
    rep = verify(game)
    assert rep.differing == [key, "N2-survivor"]
    assert [p.code for p in rep.stages[-1].problems] == ["replay"] and rep.stages[-1].stage == "N2-survivor"
    assert [p.code for p in rep.stages[-2].problems] == ["orders_hash", "replay_failed", "cell"]


def test_an_archive_row_missing_or_edited_is_named_by_seat_and_the_replay_uses_what_is_archived(
        tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from test_verify import entry, set_cell

    from sheetgm.service.ledger.journal import entry_row, pack, unpack
    from sheetgm.sheets.stages import archive_row

    monkeypatch.setenv("SHEETGM_LANG", "en")
    game = make_game(tmp_path, MemoryGateway())
    for seat in (1, 2, 3):
        write_order(game, seat, "搜索")
    resolve(game)
    row = archive_row("N1-survivor", 2, len(game.seats))
    set_cell(game, "archive", f"A{row}", "")
    rep = verify(game)
    assert rep.differing == ["N1-survivor"] and rep.stages[1].replay_hash == rep.stages[1].journal_hash
    assert [p.message for p in rep.stages[1].problems] == ["the Orders archive has no row for S2 (seat 2)"]
    set_cell(game, "archive", f"A{row}", "N1-survivor")
    set_cell(game, "archive", f"D{archive_row('N1-survivor', 1, len(game.seats))}", " 搜索 ")  # spaces: the same
    assert verify(game).ok
    set_cell(game, "archive", f"D{archive_row('N1-survivor', 1, len(game.seats))}", "移动 C3")
    rep = verify(game)
    s = rep.stages[1]
    assert [(p.code, p.message) for p in s.problems] == [
        ("replay", f"replays to state hash {s.replay_hash}, the journal says {s.journal_hash}"),
        ("archive", 'the archived order of S1 (seat 1) "移动 C3" differs from the journal\'s "搜索"')]
    set_cell(game, "archive", f"D{archive_row('N1-survivor', 1, len(game.seats))}", "搜索")
    orders = unpack(entry(game, "N1-survivor").orders_json)
    orders["9"] = dict(orders["1"])  # a seat the game does not have, written into the journal by hand
    set_cell(game, "journal", f"I{entry_row('N1-survivor')}", pack(orders))
    rep = verify(game)
    assert [(p.code, p.message) for p in rep.stages[1].problems][1:] == [
        ("archive_missing", "the Orders archive has no row for 9 (seat 9)")]


def test_stages_missing_a_setup_hash_edited_and_a_blank_rollback_note(tmp_path: Path,
                                                                       monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from test_verify_edits import _journal, _play, _restore, _set

    from sheetgm.service.ledger.journal import HISTORY_FIRST_ROW, journal_row

    monkeypatch.setenv("SHEETGM_LANG", "en")
    game = make_game(tmp_path, MemoryGateway())
    _play(game)
    rows = _journal(game)
    for key in ("N1-hunter", "N2-survivor"):
        for col in "ABCDEFGHIJ":
            _set(game, f"{col}{journal_row(key)}", "")
    rep = verify(game)
    assert [s.stage for s in rep.stages] == ["N0-setup", "N1-survivor", "N2-hunter"] and rep.differing == ["N2-hunter"]
    assert [p.message for p in rep.stages[-1].problems][1:] == [
        "the stage(s) N1-hunter, N2-survivor before it are missing (deleted?)"]
    _restore(game, rows)
    _set(game, f"J{HISTORY_FIRST_ROW}", "  ")  # a reason of blanks is none
    rep = verify(game)
    note = rep.stages[-1]
    assert (note.stage, note.kind, note.replay_hash) == ("N2-hunter", "superseded", "") and rep.skipped == ["N2-hunter"]
    assert note.journal_hash == rows[HISTORY_FIRST_ROW - 2][3] and len(note.journal_hash) == 16
    _restore(game, rows)
    _set(game, "D2", "f" * 16)  # the setup's hash
    rep = verify(game)
    setup = rep.stages[0]
    assert rep.differing == ["N0-setup"] and setup.journal_hash == "f" * 16 and setup.replay_hash == rows[0][3]
    assert [p.message for p in setup.problems] == [f"replays to state hash {rows[0][3]}, the journal says {'f' * 16}"]
    _set(game, "E2", "8")  # and its seed: both named
    assert [p.code for p in verify(game).stages[0].problems] == ["seed", "replay"]
    _restore(game, rows)
    row = journal_row("N1-survivor")
    _set(game, f"E{row}", "8")
    _set(game, f"D{row}", "f" * 16)  # a stage's replay that differs is named first, before what its row says
    assert [p.code for p in verify(game).stages[1].problems] == ["replay", "seed"]


def test_the_setup_is_dealt_from_game_toml_s_pool_and_a_changed_game_toml_differs_only_at_the_setup(
        tmp_path: Path) -> None:
    """After game.toml changed, the setup no longer replays; the stages after it start from the journal's setup
    state, so each is judged on its own inputs and replays."""
    import dataclasses

    pool = ["mechanic", "lawyer", "gardener", "werewolf"]
    game = make_game(tmp_path, MemoryGateway(), role_pool=pool)
    for seat in (1, 2, 3):
        write_order(game, seat, "搜索")
    resolve(game)
    assert verify(game).ok  # dealt again from the same pool
    for update in ({"role_pool": None}, {"options": dict(game.cfg.options, crack_target=5)}):
        changed = dataclasses.replace(game, cfg=dataclasses.replace(game.cfg, **update))
        rep = verify(changed)
        assert [(s.stage, [p.code for p in s.problems]) for s in rep.stages] == [("N0-setup", ["replay"]),
                                                                                 ("N1-survivor", [])], update


def test_a_stage_is_resolved_again_with_its_archived_orders_the_seed_and_the_stamps_priority(
        tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """What verify hands the engine: each seat's order as archived, game.toml's seed, and the seats by the stamp
    of their order (R-PHASE-3; unstamped ones after them, by the engine). A late seat with nothing used gets an
    empty order, one without a text and not late gets none."""
    from test_verify import entry, set_cell

    from sheetgm.core.steps import Order
    from sheetgm.service import verify as verify_module
    from sheetgm.service.ledger.journal import digest, entry_row, pack, unpack
    from sheetgm.service.ledger.verdicts import LATE
    from sheetgm.sheets.stages import archive_row

    game = make_game(tmp_path, MemoryGateway())
    for seat in (1, 2, 3):
        write_order(game, seat, "搜索")
    resolve(game)
    e = entry(game, "N1-survivor")
    orders = unpack(e.orders_json)
    orders["1"]["stamp"], orders["3"]["stamp"] = "2024-05-01T21:00:00+00:00", "2024-05-01T20:00:00+00:00"
    orders["2"].update(text="", verdict=LATE, nothing=True)
    set_cell(game, "journal", f"I{entry_row('N1-survivor')}", pack(orders))
    set_cell(game, "journal", f"C{entry_row('N1-survivor')}", digest({s: o["text"] for s, o in orders.items()}))
    set_cell(game, "archive", f"D{archive_row('N1-survivor', 2, len(game.seats))}", "")
    seen: list[tuple[dict[int, Order], int, list[int]]] = []
    real = verify_module.resolve_stage

    def spy(base, given, seed, first):  # type: ignore[no-untyped-def]
        seen.append((given, seed, first))
        return real(base, given, seed, first)

    monkeypatch.setattr(verify_module, "resolve_stage", spy)
    verify(game)
    given, seed, first = seen[-1]
    assert seed == 7 and first == [3, 1] and sorted(given) == [1, 2, 3] and given[2] == Order()
    assert given[1].texts == ("搜索",) and given[3].texts == ("搜索",)
    orders["2"].update(verdict="unjudged")  # no text and not late: no order at all (the engine says so)
    set_cell(game, "journal", f"I{entry_row('N1-survivor')}", pack(orders))
    verify(game)
    assert sorted(seen[-1][0]) == [1, 3]
