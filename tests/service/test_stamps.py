"""The stamps and the Orders archive's memories (service/ledger/stamps.py), function by function, on rows as written.

The flows (check, resolve, rollback) are tested elsewhere on every gateway; here each rule is pinned down on
its own so that a changed comparison, column or verdict fails a test that names it.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from svc_helpers import Clock, make_game, roster

from sheetgm.backends.memory import MemoryGateway
from sheetgm.backends.port import SetValues
from sheetgm.core.texts import render
from sheetgm.service.ledger import stamps
from sheetgm.service.ledger.journal import PUBLISHED, RESOLVED, SUPERSEDED, Entry
from sheetgm.service.ledger.stamps import (
    FALLBACK,
    LATE,
    OK,
    SEEN,
    STAND_IN,
    UNJUDGED,
    Truth,
    counted,
    fingerprint,
    missed,
    observe,
    truths,
)
from sheetgm.sheets import layout
from sheetgm.sheets.stages import archive_row

T0 = datetime(2024, 5, 1, 20, 0, tzinfo=UTC)
KEY, KEY2 = "N1-survivor", "N1-hunter"
SEATS = 4


def row(key: str, seat: int, **cols: str) -> list[str]:
    """An archive row (columns A-O) with the named columns (letters) set."""
    cells = [key, str(seat)] + [""] * (stamps.COLS - 2)
    for letter, value in cols.items():
        cells[ord(letter) - ord("A")] = value
    return cells


def rows_with(*placed: tuple[str, int, list[str]], seats: int = SEATS) -> list[list[str]]:
    """Archive rows (from row 2) holding each (key, seat, row) at its own place, the others empty."""
    out: list[list[str]] = []
    for key, seat, cells in placed:
        i = archive_row(key, seat, seats) - 2
        while len(out) <= i:
            out.append([])
        out[i] = cells
    return out


def entry(key: str, status: str, orders: dict[int, dict[str, object]]) -> Entry:
    return Entry(key, status, "", "", 1, "", "", "", json.dumps({str(k): v for k, v in orders.items()}))


def test_a_fingerprint_is_of_the_stripped_text_and_twelve_hex_digits() -> None:
    assert fingerprint(" go A1 \n") == fingerprint("go A1")
    assert fingerprint("go A1") != fingerprint("go A2")
    assert len(fingerprint("x")) == 12 and int(fingerprint("x"), 16) >= 0


def test_a_stamp_belongs_to_its_text_only() -> None:
    t = Truth(stamp="2024-05-01T20:00:00+00:00", stamped="go A1")
    assert t.stamp_for("go A1 ") == t.stamp
    assert t.stamp_for("go A2") == ""
    assert Truth(stamp="", stamped="go A1").stamp_for("go A1") == ""


def test_the_archive_range_runs_from_row_two_to_column_p() -> None:
    assert stamps.archive_range("en") == layout.rng(layout.tab("en", "archive"), "A2:P")


# -- truths: what the archive rows say --------------------------------------------------------------------

def test_truths_read_each_seats_row_of_the_stage_and_check_both_fingerprints() -> None:
    good = row(KEY, 1, D="go A1", F="T1", G=fingerprint("go A1"), H="C1", I=fingerprint("seen 1"), J="seen 1")
    edited = row(KEY, 2, D="go B2 edited", F="T2", G=fingerprint("go B2"), H="C2", I=fingerprint("x"), J="y")
    other = row(KEY2, 3, D="go C3", F="T3", G=fingerprint("go C3"), H="C3")  # another stage's row, misplaced
    rows = rows_with((KEY, 1, good), (KEY, 2, edited), (KEY, 3, other))
    got = truths(rows, KEY, SEATS, [])
    assert got[1] == Truth("T1", "go A1", "C1", fingerprint("seen 1"), "seen 1")
    # a stamped text edited by hand does not match its fingerprint: no stamp; a seen text likewise
    assert got[2] == Truth("", "", "C2", fingerprint("x"), "")
    assert set(got) == {1, 2}  # the row of another stage is not this stage's, and seat 4 has no row


def test_truths_strip_the_stage_the_stamp_and_the_check_time() -> None:
    cells = row(f" {KEY} ", 1, D="go", F=" T1 ", G=fingerprint("go"), H=" C1 ", I=f" {fingerprint('go')} ", J="go")
    got = truths(rows_with((KEY, 1, cells)), KEY, SEATS, [])
    assert got[1] == Truth("T1", "go", "C1", fingerprint("go"), "go")


def test_truths_of_the_second_stage_are_read_below_the_first() -> None:
    first = row(KEY, 1, D="a", F="T1", G=fingerprint("a"), H="C1")
    second = row(KEY2, 1, D="b", F="T2", G=fingerprint("b"), H="C2")
    rows = rows_with((KEY, 1, first), (KEY2, 1, second))
    assert len(rows) == SEATS + 1  # N1-hunter's seat 1 sits right after N1-survivor's four rows
    assert truths(rows, KEY2, SEATS, [])[1].stamped == "b"
    assert truths(rows, KEY, SEATS, [])[1].stamped == "a"


def test_a_short_archive_row_reads_as_empty_cells() -> None:
    got = truths([[KEY, "1", "S1", "go"]], KEY, SEATS, [])  # a row cut after column D (a sheet edited)
    assert got == {1: Truth("", "", "", "", "")}


def test_after_a_rollback_the_superseded_resolves_stamps_stand_in_for_missing_rows() -> None:
    rows = rows_with((KEY, 1, row(KEY, 1, D="new", F="T9", G=fingerprint("new"), H="C9")))
    older = entry(KEY, SUPERSEDED, {1: {"text": "old1", "stamp": "T1"}, 2: {"text": "old2", "stamp": "T2"},
                                    3: {"text": "old3", "stamp": ""}})
    newer = entry(KEY, SUPERSEDED, {2: {"text": "newer2", "stamp": "T5"}})
    live = entry(KEY, RESOLVED, {4: {"text": "live4", "stamp": "T4"}})
    other = entry(KEY2, SUPERSEDED, {4: {"text": "h", "stamp": "T6"}})
    got = truths(rows, KEY, SEATS, [older, newer, live, other])
    assert got[1].stamped == "new"  # the archive row wins over the superseded resolve
    assert got[2] == Truth("T5", "newer2")  # the last superseded resolve of the stage counts
    assert 3 not in got and 4 not in got  # no stamp; a live entry, another stage: not used


# -- observe: a look before the deadline -------------------------------------------------------------------

def test_a_first_complete_look_stamps_and_a_later_one_keeps_the_stamp() -> None:
    first = observe(Truth(), " go A1 ", True, T0)
    assert first == Truth(T0.isoformat(timespec="seconds"), "go A1", T0.isoformat(), fingerprint("go A1"), "go A1")
    later = observe(first, "go A1", True, T0 + timedelta(minutes=5, microseconds=7))
    assert later.stamp == first.stamp and later.stamped == "go A1"
    assert later.checked == (T0 + timedelta(minutes=5)).isoformat()  # to the second


def test_a_changed_complete_text_is_stamped_anew() -> None:
    first = observe(Truth(), "go A1", True, T0)
    moved = observe(first, "go A2", True, T0 + timedelta(minutes=1))
    assert moved.stamped == "go A2" and moved.stamp == (T0 + timedelta(minutes=1)).isoformat()


def test_an_incomplete_changed_text_drops_the_stamp_and_an_unchanged_one_keeps_it() -> None:
    first = observe(Truth(), "go A1", True, T0)
    unticked = observe(first, "go A1", False, T0 + timedelta(minutes=1))  # the same text, unticked
    assert unticked.stamp == first.stamp and unticked.stamped == "go A1"
    changed = observe(first, "go B2", False, T0 + timedelta(minutes=2))
    assert changed.stamp == "" and changed.stamped == ""
    assert changed.seen == fingerprint("go B2") and changed.seen_text == "go B2"
    never = observe(Truth(), "go", False, T0)
    assert never.stamp == "" and never.checked == T0.isoformat()


def test_the_seen_text_is_kept_within_the_orders_limit() -> None:
    from sheetgm.sheets.limits import MAX_ORDER_CHARS

    seen = observe(Truth(), "x" * (MAX_ORDER_CHARS + 50), False, T0)
    assert seen.seen_text == "x" * (MAX_ORDER_CHARS + 1)
    assert seen.seen == fingerprint("x" * (MAX_ORDER_CHARS + 50))


# -- missed and counted: after the deadline ----------------------------------------------------------------

DEADLINE = T0 + timedelta(hours=1)


@pytest.mark.parametrize(("checked", "late"), [
    ((DEADLINE - timedelta(minutes=15)).isoformat(), False),  # exactly the window: on time
    ((DEADLINE - timedelta(minutes=15, seconds=1)).isoformat(), True),
    ((DEADLINE - timedelta(minutes=1)).isoformat(), False),
    ("not a time", True),
])
def test_a_look_older_than_the_window_before_the_deadline_is_missed(checked: str, late: bool) -> None:
    assert missed(Truth(checked=checked), DEADLINE) is late


def test_no_look_or_no_deadline_is_not_missed() -> None:
    assert not missed(None, DEADLINE)
    assert not missed(Truth(), DEADLINE)
    assert not missed(Truth(checked=T0.isoformat()), None)


def on_time(**kw: str) -> Truth:
    return Truth(checked=(DEADLINE - timedelta(minutes=5)).isoformat(), **kw)


def test_counted_unjudged_when_no_check_saw_the_seat() -> None:
    assert counted(None, "go", DEADLINE) == ("go", "", UNJUDGED)
    stamped_only = Truth(stamp="T1", stamped="go")  # a superseded resolve's stamp, never checked since
    assert counted(stamped_only, "go", DEADLINE) == ("go", "T1", UNJUDGED)
    assert counted(stamped_only, "other", DEADLINE) == ("other", "", UNJUDGED)


def test_counted_stand_in_when_the_last_look_came_too_early() -> None:
    early = Truth(stamp="T1", stamped="go", checked=(DEADLINE - timedelta(hours=1)).isoformat())
    assert counted(early, "go", DEADLINE) == ("go", "T1", STAND_IN)
    assert counted(early, "changed", DEADLINE) == ("changed", "", STAND_IN)


def test_counted_ok_fallback_seen_and_late() -> None:
    stamped = on_time(stamp="T1", stamped="go A1", seen=fingerprint("go A1"), seen_text="go A1")
    assert counted(stamped, "go A1", DEADLINE) == ("go A1", "T1", OK)
    assert counted(stamped, "go B2", DEADLINE) == ("go A1", "T1", FALLBACK)
    unstamped = on_time(seen=fingerprint("go A1"), seen_text="go A1")
    assert counted(unstamped, "go A1", DEADLINE) == ("go A1", "", OK)
    assert counted(unstamped, "go B2", DEADLINE) == ("go A1", "", SEEN)
    forged = on_time(seen=fingerprint("go A1"), seen_text="go A9")  # a seen text that is not what was seen
    assert counted(forged, "go B2", DEADLINE) == ("", "", LATE)
    nothing_seen = on_time(seen=fingerprint(""))
    assert counted(nothing_seen, "go B2", DEADLINE) == ("", "", LATE)


# -- rows written ------------------------------------------------------------------------------------------

@pytest.fixture
def game(tmp_path: Path):  # type: ignore[no-untyped-def]
    clock = Clock()
    return make_game(tmp_path, MemoryGateway(), clock, roster=roster(survivors=3, hunters=1))


def test_truth_ops_write_columns_a_to_j_of_each_seen_seat_in_seat_order(game) -> None:  # type: ignore[no-untyped-def]
    seen = {3: Truth("T3", "go", "C3", "f3", "go"), 1: Truth("", "", "C1", "f1", "x")}
    ops = stamps.truth_ops(game, KEY, seen)
    tab = layout.tab(game.lang, "archive")
    assert ops == [
        SetValues(layout.rng(tab, "A2:J2"), ((KEY, "1", game.alias(1), "", "", "", "", "C1", "f1", "x"),)),
        SetValues(layout.rng(tab, "A4:J4"), ((KEY, "3", game.alias(3), "go", "", "T3", fingerprint("go"), "C3",
                                              "f3", "go"),)),
    ]


def test_rows_written_by_truth_ops_read_back_as_the_same_truths(game) -> None:  # type: ignore[no-untyped-def]
    seen = {2: Truth("T2", "go A1", "C2", fingerprint("go A1"), "go A1"), 4: Truth("", "", "C4", "f", "")}
    rows: list[list[str]] = []
    for op in stamps.truth_ops(game, KEY2, seen):
        r = int(op.range.split("!")[-1].split(":")[0][1:])
        while len(rows) < r - 1:
            rows.append([])
        rows[r - 2] = list(op.rows[0])
    assert stamps.truths(rows, KEY2, 4, []) == seen


def test_reads_and_read_ops_keep_the_verdict_and_time_in_n_and_o(game) -> None:  # type: ignore[no-untyped-def]
    ops = stamps.read_ops(game, KEY, {2: ("ok", "R2"), 1: ("late", "R1")})
    tab = layout.tab(game.lang, "archive")
    heads = (render(game.lang, "day.head.verdict"), render(game.lang, "day.head.read"))
    assert ops == [
        SetValues(layout.rng(tab, "N1:O1"), (heads,)),
        SetValues(layout.rng(tab, "A2:C2"), ((KEY, "1", game.alias(1)),)),
        SetValues(layout.rng(tab, "N2:O2"), (("late", "R1"),)),
        SetValues(layout.rng(tab, "A3:C3"), ((KEY, "2", game.alias(2)),)),
        SetValues(layout.rng(tab, "N3:O3"), (("ok", "R2"),)),
    ]
    rows = [row(KEY, 1, N=" late ", O=" R1 "), row(KEY, 2, N="", O="R2"), row(KEY2, 3, N="ok", O="R3"),
            row(KEY, 4, N="ok", O="R4")]
    assert stamps.reads(rows, KEY, SEATS) == {1: ("late", "R1"), 4: ("ok", "R4")}
    assert stamps.reads([[KEY, "1"]], KEY, SEATS) == {}


# -- notes told once (RUL-51) ------------------------------------------------------------------------------

def test_told_splits_the_notes_of_this_stage_from_those_of_others() -> None:
    rows = rows_with(
        (KEY, 2, row(KEY, 2, K="n.a n.b")),
        (KEY2, 2, row(KEY2, 2, K=" n.c ")),
        (KEY, 1, row(KEY, 1, K="n.x")),  # another seat
        (KEY2, 3, row(KEY2, 3, K="")),
    )
    assert stamps.told(rows, KEY2, 2, SEATS) == ({"n.a", "n.b"}, {"n.c"})
    assert stamps.told(rows, KEY, 2, SEATS) == ({"n.c"}, {"n.a", "n.b"})
    assert stamps.told(rows, KEY, 3, SEATS) == (set(), set())
    assert stamps.told(rows, KEY, 2, 0) == (set(), set())  # no seats: no row belongs to anyone


def test_told_op_writes_the_sorted_notes_in_column_k(game) -> None:  # type: ignore[no-untyped-def]
    op = stamps.told_op(game, KEY2, 2, {"n.b", "n.a"})
    seats = len(game.seats)
    assert op == SetValues(layout.rng(layout.tab(game.lang, "archive"), f"K{seats + 3}"), (("n.a n.b",),))


def test_stage_seat_inverts_the_archive_row() -> None:
    for key in (KEY, KEY2, "N3-hunter"):
        for seat in range(1, SEATS + 1):
            assert stamps._stage_seat(archive_row(key, seat, SEATS), SEATS) == (key, seat)
    with pytest.raises(ValueError):
        stamps._stage_seat(1, SEATS)
    with pytest.raises(ValueError):
        stamps._stage_seat(2, 0)


# -- a deadline once passed stays passed (RUL-52) ----------------------------------------------------------

def test_the_passed_record_is_the_first_seat_row_that_has_one() -> None:
    rows = rows_with((KEY, 2, row(KEY, 2, L=" D2 ", M=" W2 ")), (KEY, 3, row(KEY, 3, L="D3", M="W3")))
    assert stamps.passed_record(rows, KEY, SEATS) == ("D2", "W2")
    assert stamps.passed_record(rows, KEY2, SEATS) == ("", "")


def test_a_deadline_has_passed_by_the_clock_or_by_the_record_of_that_very_deadline() -> None:
    d = DEADLINE
    assert not stamps.has_passed([], KEY, SEATS, None, d + timedelta(days=1))
    assert stamps.has_passed([], KEY, SEATS, d, d)  # at the deadline itself
    assert not stamps.has_passed([], KEY, SEATS, d, d - timedelta(seconds=1))
    seen = rows_with((KEY, 1, row(KEY, 1, L=d.isoformat(), M="W")))
    assert stamps.has_passed(seen, KEY, SEATS, d, d - timedelta(hours=2))  # a clock set back
    moved = d + timedelta(hours=1)
    assert not stamps.has_passed(seen, KEY, SEATS, moved, d)  # a moved deadline is a new one
    broken = rows_with((KEY, 1, row(KEY, 1, L="yesterday", M="W")))
    assert not stamps.has_passed(broken, KEY, SEATS, d, d - timedelta(hours=2))


def test_passed_ops_record_once_in_each_named_seats_row(game) -> None:  # type: ignore[no-untyped-def]
    d = DEADLINE
    n = len(game.seats)
    tab = layout.tab(game.lang, "archive")
    when = game.now().isoformat(timespec="seconds")
    ops = stamps.passed_ops(game, [], KEY2, d, [1, 3])
    assert ops == [SetValues(layout.rng(tab, f"L{n + 2}:M{n + 2}"), ((d.isoformat(), when),)),
                   SetValues(layout.rng(tab, f"L{n + 4}:M{n + 4}"), ((d.isoformat(), when),))]
    recorded = rows_with((KEY2, 1, row(KEY2, 1, L=d.isoformat(), M=when)), seats=n)
    assert stamps.passed_ops(game, recorded, KEY2, d, [1]) == []
    assert stamps.passed_ops(game, recorded, KEY2, d + timedelta(hours=1), [1]) != []
    assert stamps.passed_ops(game, [], KEY2, None, [1]) == []
    assert stamps.passed_ops(game, [], KEY2, d, []) == []


def test_archived_texts_are_those_of_live_resolved_stages() -> None:
    entries = [
        entry(KEY, PUBLISHED, {1: {"text": "a"}, 2: {"text": "b"}}),
        entry(KEY2, SUPERSEDED, {1: {"text": "old"}}),
        entry("N1-hunter+override-1", RESOLVED, {1: {"text": "desk"}}),
        entry("N2-survivor", RESOLVED, {1: {}}),
    ]
    assert stamps.archived_texts(entries, 1) == {KEY: "a", "N2-survivor": ""}
    assert stamps.archived_texts(entries, 3) == {}


# -- edges a mutant found ----------------------------------------------------------------------------------

def test_a_stamp_needs_its_fingerprint_not_a_check_time() -> None:
    cells = row(KEY, 1, D="go", F="T1", G=fingerprint("go"))  # stamped by a resolve, never read by a check (H)
    assert truths(rows_with((KEY, 1, cells)), KEY, SEATS, [])[1] == Truth("T1", "go", "", "", "")


def test_the_last_of_three_superseded_resolves_counts() -> None:
    old = [entry(KEY, SUPERSEDED, {1: {"text": f"v{i}", "stamp": f"T{i}"}}) for i in range(3)]
    assert truths([], KEY, SEATS, old)[1] == Truth("T2", "v2")


def test_rows_of_a_neighbouring_stage_are_never_read_as_this_ones() -> None:
    """A row out of place (its key names another stage) is not read, nor the rows just outside the stage."""
    last_before = row(KEY, SEATS, D="a", F="T", G=fingerprint("a"), H="C", L="D0", M="W0", N="ok", O="R")
    first_after = row(KEY, 1, D="b", F="T", G=fingerprint("b"), H="C", L="D9", M="W9", N="ok", O="R")
    rows = rows_with((KEY, SEATS, last_before), (KEY2, 1, first_after))  # KEY's last seat, then a misplaced row
    assert set(truths(rows, KEY, SEATS, [])) == {SEATS}
    assert set(stamps.reads(rows, KEY, SEATS)) == {SEATS}
    assert truths(rows, KEY2, SEATS, []) == {} and stamps.reads(rows, KEY2, SEATS) == {}
    only_before = rows_with((KEY, SEATS, last_before))
    assert stamps.passed_record(only_before, KEY2, SEATS) == ("", "")
    assert stamps.passed_record(only_before, KEY, SEATS) == ("D0", "W0")  # the last seat is read
    only_after = rows_with((KEY2, 1, first_after))
    assert stamps.passed_record(only_after, KEY, SEATS) == ("", "")


def test_a_passed_deadline_without_its_time_is_still_recorded() -> None:
    rows = rows_with((KEY, 1, row(KEY, 1, L="D1")))
    assert stamps.passed_record(rows, KEY, SEATS) == ("D1", "")


def test_the_first_rows_notes_are_told() -> None:
    rows = rows_with((KEY, 1, row(KEY, 1, K="n.a")))
    assert stamps.told(rows, KEY, 1, SEATS) == (set(), {"n.a"})


def test_one_seat_games_have_rows_too() -> None:
    assert stamps._stage_seat(2, 1) == (KEY, 1) and stamps._stage_seat(3, 1) == (KEY2, 1)
    with pytest.raises(ValueError) as err:
        stamps._stage_seat(1, 1)
    assert err.value.args == (1,)


def test_read_desk_reads_the_journal_the_lock_and_the_archive_at_once(game) -> None:  # type: ignore[no-untyped-def]
    from sheetgm.service.game import DIRECTOR
    from sheetgm.service.ledger.journal import lock_range

    game.gateway.write(DIRECTOR, [SetValues(lock_range(game.lang), (("tok", "me", "2024-05-01T20:00:00+08:00"),)),
                                  SetValues(stamps.archive_range(game.lang).split(":")[0],
                                            ((KEY, "1", "S1", "go"),))])
    entries, lock, archive = stamps.read_desk(game)
    assert lock == ["tok", "me", "2024-05-01T20:00:00+08:00"]
    assert archive[0][:4] == [KEY, "1", "S1", "go"]
    assert [e.key for e in entries][:1] == ["N0-setup"]


def test_a_row_naming_the_next_stage_just_before_it_is_no_seat_of_that_stage() -> None:
    misplaced = row(KEY2, SEATS, D="a", F="T", G=fingerprint("a"), H="C", N="ok", O="R")
    rows = rows_with((KEY, SEATS, misplaced))  # at KEY's last seat, but it says KEY2
    assert truths(rows, KEY2, SEATS, []) == {} and stamps.reads(rows, KEY2, SEATS) == {}
    assert truths(rows, KEY, SEATS, []) == {} and stamps.reads(rows, KEY, SEATS) == {}
