"""check's memory (service/ledger/checkmemo.py) piece by piece: each test names the slip it catches."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from svc_helpers import make_game, roster, state_of

from sheetgm.backends.memory import MemoryGateway
from sheetgm.core.state import State
from sheetgm.service.game import Game, player_key
from sheetgm.service.ledger import checkmemo
from sheetgm.service.ledger.checkmemo import MEMO_COL, Memo, memos
from sheetgm.service.ledger.stamps import truths
from sheetgm.service.resolve import resolve
from sheetgm.service.timing import deadlines
from sheetgm.service.workbooks.sheetorders import orders_of
from sheetgm.sheets.stages import archive_row

DEADLINE = "2024-05-01T23:00:00+08:00"


def _rows(seats: int, upto: str = "N3-hunter") -> list[list[str]]:
    """Empty archive rows (from row 2) up to the last row of stage ``upto``."""
    return [[""] * (MEMO_COL + 1) for _ in range(archive_row(upto, seats, seats))]


def _put(rows: list[list[str]], key: str, seat: int, seats: int, label: str, memo: Memo) -> None:
    row = rows[archive_row(key, seat, seats) - 2]
    row[0], row[MEMO_COL] = label, memo.text()


def test_a_past_stages_label_in_tonights_row_is_not_tonights_memo() -> None:
    """Slip caught: the label check (``cells[0].strip() == key``) dropped or loosened: a row still labelled with
    another stage (a past one, or a stage the row held before) would give its memo as tonight's, and an
    unchanged workbook would be skipped on another stage's verdict."""
    memo = Memo(v="rev-1", c="ctx", j="j", t="2024-05-01T20:00:00+08:00", r={"state": "ok"})
    rows = _rows(3)
    _put(rows, "N2-survivor", 1, 3, "N1-survivor", memo)  # tonight's row, a past stage's label
    _put(rows, "N2-survivor", 2, 3, " N2-survivor ", memo)  # tonight's, spaces around the label
    assert memos(rows, "N2-survivor", 3) == {2: memo}
    assert memos(rows, "N1-survivor", 3) == {}  # N1's own rows hold nothing


def test_a_damaged_or_partial_memo_cell_is_no_memo() -> None:
    """Slip caught: a damaged cell parsed as a memo (defaults for what is missing): the workbook must be read."""
    assert Memo.parse("") is None and Memo.parse("{not json") is None and Memo.parse("[1]") is None
    assert Memo.parse('{"v": "x"}') is None  # the keys every memo has are missing
    memo = Memo(v="a", c="b", j="c", t="d", r={"state": "ok"}, w=["n"], p="e", a="f", o="order")
    assert Memo.parse(memo.text()) == memo
    assert Memo.parse(dataclasses.replace(memo, o=None).text()) == dataclasses.replace(memo, o=None)


def test_a_moved_deadline_or_another_list_of_names_changes_the_reminder() -> None:
    """Slip caught: the deadline (or the names, or the stage) left out of the reminder's digest: a moved deadline
    would keep the old one in the public reminder line, since the memo says the line is already written."""
    base = checkmemo.reminder("N1-survivor", DEADLINE, ["S1"])
    assert base == checkmemo.reminder("N1-survivor", DEADLINE, ["S1"])
    assert base != checkmemo.reminder("N1-survivor", "2024-05-02T23:00:00+08:00", ["S1"])
    assert base != checkmemo.reminder("N1-survivor", DEADLINE, ["S1", "S2"])
    assert base != checkmemo.reminder("N2-survivor", DEADLINE, ["S1"])


def test_the_context_holds_each_thing_a_verdict_depends_on() -> None:
    """Slip caught: a part of the context dropped from its digest (the deadline, whether it has passed, the
    language, the alias, must-submit, what others bring): a verdict would be kept when that changed."""
    args = dict(key="N1-survivor", journal="j", deadline=DEADLINE, before=True, truth=None, lang="zh/zh",
                alias="S1", must=True, brought="b")
    base = checkmemo.context(**args)  # type: ignore[arg-type]
    for name, other in (("key", "N2-survivor"), ("journal", "k"), ("deadline", ""), ("before", False),
                        ("lang", "en/zh"), ("alias", "S9"), ("must", False), ("brought", "c")):
        assert checkmemo.context(**{**args, name: other}) != base, name  # type: ignore[arg-type]


def _hunter_stage(tmp_path: Path) -> tuple[Game, State]:
    game = make_game(tmp_path, MemoryGateway(), roster=roster(2, 2))
    resolve(game)
    st = state_of(game)
    assert st.stage == "hunter" and [s for s in game.seats if st.players[s].camp == "hunter"] == [3, 4]
    return game, st


def _memos_as_checked(game: Game, st: State, key: str, verdicts: dict[int, str],
                      orders: dict[int, str] | None = None) -> list[list[str]]:
    """The archive rows a check would leave: a memo per due seat with ``verdicts[seat]`` and the order text
    ``orders[seat]`` (none by default), in today's context."""
    n, orders = len(game.seats), orders or {}
    rows = _rows(n)
    now = game.now().isoformat(timespec="seconds")  # read just now: Drive's listing is trusted (FRESH_FOR)
    for seat in verdicts:
        _put(rows, key, seat, n, key, Memo(v=f"rev-{seat}", o=orders.get(seat, ""), l=now))
    known = truths(rows, key, n, [])
    stage_orders = orders_of(st, {s: orders.get(s, "") for s in verdicts})
    for seat, verdict in verdicts.items():
        others = {s: o for s, o in stage_orders.items() if s != seat}
        ctx = checkmemo.seat_context(game, key, checkmemo.journal_digest([]), DEADLINE, True, known.get(seat), seat,
                                     deadlines.must_submit(st, seat), checkmemo.brought_digest(st, seat, others))
        memo = Memo(v=f"rev-{seat}", c=ctx, r={"state": verdict}, w=[f"note {seat}"], o=orders.get(seat, ""),
                    l=now)
        _put(rows, key, seat, n, key, memo)
    return rows


def _waiting(game: Game, st: State, rows: list[list[str]],
             key: str = "N1-hunter") -> tuple[list[str], list[str]] | None:
    game.gateway.revisions = lambda keys: {k: f"rev-{k.rsplit('-', 1)[1]}" for k in keys}  # type: ignore[method-assign]
    return checkmemo.waiting(game, st, key, [], rows, DEADLINE, True)


def test_early_resolution_does_not_wait_for_a_stunned_hunter(tmp_path: Path) -> None:
    """Slip caught: ``must and`` dropped from the names (or must_submit ignored): a stunned hunter, who has no
    order to give tonight, would hold the stage until its deadline."""
    game, st = _hunter_stage(tmp_path)
    assert _waiting(game, st, _memos_as_checked(game, st, "N1-hunter", {3: "empty", 4: "ok"})) == \
        (["H1"], ["note 3", "note 4"])  # awake, H1 is waited for
    st.players[3].stunned = True
    assert _waiting(game, st, _memos_as_checked(game, st, "N1-hunter", {3: "empty", 4: "ok"})) == \
        ([], ["note 3", "note 4"])


def test_waiting_trusts_the_memo_only_while_every_due_workbook_is_unchanged(tmp_path: Path) -> None:
    """Slip caught: a changed revision, a missing one, or a stale context accepted: then the stage would wait on
    verdicts that no longer hold."""
    game, st = _hunter_stage(tmp_path)
    rows = _memos_as_checked(game, st, "N1-hunter", {3: "empty", 4: "ok"})
    assert _waiting(game, st, rows) is not None
    game.gateway.revisions = lambda keys: {k: "moved" for k in keys}  # type: ignore[method-assign]
    assert checkmemo.waiting(game, st, "N1-hunter", [], rows, DEADLINE, True) is None
    game.gateway.revisions = lambda keys: {player_key(3): "rev-3"}  # type: ignore[method-assign]
    assert checkmemo.waiting(game, st, "N1-hunter", [], rows, DEADLINE, True) is None
    game.gateway.revisions = lambda keys: {k: f"rev-{k.rsplit('-', 1)[1]}" for k in keys}  # type: ignore[method-assign]
    assert checkmemo.waiting(game, st, "N1-hunter", [], rows, "2024-05-02T23:00:00+08:00", True) is None
    assert checkmemo.waiting(game, st, "N1-hunter", [], rows, DEADLINE, False) is None


def test_the_listing_is_trusted_only_within_fresh_for_after_the_read() -> None:
    """Slip caught: a bound of ``fresh`` moved or dropped: a memo read long ago (Drive's listing may lag an edit) or
    "read" in the future (a clock moved back) would skip a workbook whose edit the listing does not show yet."""
    from datetime import datetime, timedelta

    read = datetime.fromisoformat("2024-05-01T20:00:00+08:00")
    memo = Memo(l=read.isoformat())
    assert memo.fresh(read) and memo.fresh(read + checkmemo.FRESH_FOR)
    assert not memo.fresh(read + checkmemo.FRESH_FOR + timedelta(seconds=1))
    assert not memo.fresh(read - timedelta(seconds=1))
    assert checkmemo.FRESH_FOR == timedelta(minutes=15)
    assert not Memo(l="").fresh(read) and not Memo(l="yesterday").fresh(read)


def test_a_memo_too_long_for_its_cell_keeps_all_but_its_verdict_and_the_order_as_the_journal_cuts_it() -> None:
    """Slip caught: a memo over the cell's limit written whole (the archive write refused), or cut in another way
    (its revision or context lost: the workbook would never be skipped again, or skipped on the wrong grounds)."""
    long_order = "move A1; " * 1000
    memo = Memo(v="rev", c="ctx", j="j", t="t", r={"state": "ok", "problems": ["x" * 300]}, w=["note"] * 20,
                p="p", a="a", o=long_order, l="l")
    short = dataclasses.replace(memo, r={}, w=[]).text()  # the order already cut as the journal keeps it
    limit = len(short) + 10  # room for all but the verdict
    assert Memo.parse(memo.text(limit)) == dataclasses.replace(memo, r={}, w=[], o=checkmemo.kept_order(long_order))
    assert memo.text(limit) == short and limit < len(memo.text(limit + 1000))
    whole = Memo.parse(memo.text())
    assert whole is not None and whole.r == memo.r and whole.w == memo.w  # within the cell: the verdict kept
    assert memo.text(len(memo.text())) == memo.text()  # exactly the cell's size: kept whole


def test_a_verdict_that_is_not_flat_is_no_memo() -> None:
    """Slip caught: a hand-made verdict with nested values accepted: the check would give it back as its own."""
    base = {"v": "a", "c": "b", "j": "c", "t": "d", "w": []}
    import json

    assert Memo.parse(json.dumps({**base, "r": {"state": "ok", "n": 2, "late": True, "names": ["a"]}})) is not None
    assert Memo.parse(json.dumps({**base, "r": {"state": {"nested": 1}}})) is None
    assert Memo.parse(json.dumps({**base, "r": {"names": [1, 2]}})) is None
    older = Memo.parse(json.dumps({**base, "r": {}}))  # an older sheetgm's memo: no p, a, o, l
    assert older == Memo("a", "b", "c", "d", {}, [], "", "", None, "")


def test_the_journal_digest_moves_with_each_entrys_key_status_and_hashes() -> None:
    """Slip caught: a field of the journal left out of its digest: an edit of the journal (a rollback, a replayed
    stage, a workbook now delivered) would keep the verdicts judged against the journal before it."""
    from sheetgm.service.ledger.journal import Entry

    base = Entry("N1-survivor", "resolved", "oh", "sh", 1, "t", "{}", "[]", "{}")
    changed = [dataclasses.replace(base, **{name: value}) for name, value in (  # type: ignore[arg-type]
        ("key", "N1-hunter"), ("status", "superseded"), ("orders_hash", "oh2"), ("state_hash", "sh2"),
        ("undelivered", ((1, "why"),)))]
    digests = {checkmemo.journal_digest([e]) for e in [base, *changed]}
    assert len(digests) == 6 and checkmemo.journal_digest([base]) != checkmemo.journal_digest([])
    assert checkmemo.journal_digest([dataclasses.replace(base, time="t2", note="n")]) == \
        checkmemo.journal_digest([base])  # what no verdict depends on


def test_the_context_moves_with_the_seats_stamp_its_stamped_text_and_what_the_last_check_read() -> None:
    """Slip caught: a field of the seat's stamps left out of the context: a stamp given (or taken back by
    ``unlock``) would keep a verdict judged before it."""
    from sheetgm.service.ledger.stamps import Truth

    args = dict(key="N1-survivor", journal="j", deadline=DEADLINE, before=True, lang="zh/zh", alias="S1", must=True)
    base = checkmemo.context(truth=Truth(stamp="s", stamped="text", seen="f"), **args)  # type: ignore[arg-type]
    assert checkmemo.context(truth=Truth(stamp="s", stamped=" text ", seen="f"), **args) == base  # type: ignore[arg-type]
    for other in (Truth(stamp="s2", stamped="text", seen="f"), Truth(stamp="s", stamped="text2", seen="f"),
                  Truth(stamp="s", stamped="text", seen="g"), None):
        assert checkmemo.context(truth=other, **args) != base  # type: ignore[arg-type]


def test_the_memo_and_the_look_are_written_in_the_seats_archive_row_columns_p_and_h() -> None:
    """Slip caught: the memo or the time of the look written in another row or column (a stamp's column
    overwritten, or another seat's memo)."""
    from datetime import datetime

    from sheetgm.backends.port import SetValues
    from sheetgm.sheets import layout

    tab = layout.tab("en", "archive")
    memo = Memo(v="r")
    op = checkmemo.memo_op("en", "N1-survivor", 2, 3, memo)
    assert isinstance(op, SetValues) and op.rows == ((memo.text(),),)
    assert op.range == layout.rng(tab, f"P{archive_row('N1-survivor', 2, 3)}")
    look = checkmemo.look_op("en", "N1-survivor", 2, 3, datetime.fromisoformat("2024-05-01T20:00:00.5+08:00"))
    assert isinstance(look, SetValues) and look.rows == (("2024-05-01T20:00:00+08:00",),)
    assert look.range == layout.rng(tab, f"H{archive_row('N1-survivor', 2, 3)}")


def test_waiting_holds_with_the_orders_the_memos_keep_and_what_they_bring_each_other(tmp_path: Path) -> None:
    """Slip caught: the others' orders taken from somewhere else than the memos (none, her own, or emptied) when
    the context is worked out again: a verdict judged with a gift to her (RUL-39) would never stand, and one
    judged without it would stand after the gift appeared."""
    game = make_game(tmp_path, MemoryGateway(), roster=roster(3, 1))
    st = state_of(game)
    st.players[1].items, st.players[2].pos = ["map"], st.players[1].pos  # S1 can give S2 her map
    orders = {1: "给予 S2 地图", 2: "地图", 3: "搜索"}
    rows = _memos_as_checked(game, st, "N1-survivor", {1: "ok", 2: "ok", 3: "ok"}, orders)
    assert _waiting(game, st, rows, "N1-survivor") == ([], ["note 1", "note 2", "note 3"])
    without = _memos_as_checked(game, st, "N1-survivor", {1: "ok", 2: "ok", 3: "ok"}, {**orders, 1: "搜索"})
    assert _waiting(game, st, [r if i != archive_row("N1-survivor", 1, 4) - 2 else without[i]
                               for i, r in enumerate(rows)], "N1-survivor") is None  # S1's gift is gone


def test_a_stage_with_no_one_due_has_no_judgment_to_stand_on(tmp_path: Path) -> None:
    """Slip caught: an empty list of due seats taken as "nobody is missing": the stage would resolve early on
    no judgment at all."""
    game, st = _hunter_stage(tmp_path)
    rows = _memos_as_checked(game, st, "N1-hunter", {3: "ok", 4: "ok"})
    for seat in (3, 4):
        st.players[seat].status = "eliminated"
    assert _waiting(game, st, rows) is None


def test_a_memo_cell_longer_than_a_memo_may_be_is_no_memo() -> None:
    """Slip caught: the length bound dropped: a Google cell holds more than a memo may (50,000 characters), so a
    hand could leave one that a memo never is, and it would be trusted."""
    from sheetgm.backends.port import CELL_LIMIT

    memo = Memo(v="a", c="b", j="c", t="d", o="")
    text = memo.text()
    padded = text[:-1] + " " * (CELL_LIMIT + 1 - len(text)) + "}"  # the same memo, spaces before its brace
    assert len(padded) == CELL_LIMIT + 1 and Memo.parse(padded[:-2] + "}") == memo
    assert Memo.parse(padded) is None


def test_the_judgment_moves_with_each_thing_it_is_made_of() -> None:
    """Slip caught: a part of the judgment left out of its digest (the context, the row, the order's text, the
    tick, the problems): a changed order would keep the status's old time and verdict."""
    args = dict(ctx="c", row=3, text="move B2", ticked=True, notes=["n"])
    base = checkmemo.judgment(**args)  # type: ignore[arg-type]
    assert checkmemo.judgment(**args) == base  # type: ignore[arg-type]
    for name, other in (("ctx", "d"), ("row", 4), ("text", "move B3"), ("ticked", False), ("notes", [])):
        assert checkmemo.judgment(**{**args, name: other}) != base, name  # type: ignore[arg-type]


def test_a_seats_context_moves_with_her_language_alias_stamps_journal_and_duties(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Slip caught: a part of the seat's context not passed on (check and waiting both work it out the same way,
    so nothing else notices): a player who switches to English, or is renamed, would keep a verdict worded for
    the player she was."""
    from sheetgm.service.ledger.stamps import Truth

    game = make_game(tmp_path, MemoryGateway(), roster=roster(2, 1))
    args = dict(key="N1-survivor", journal="j", deadline=DEADLINE, before=True, truth=Truth(stamp="s"), seat=1,
                must=True, brought="b")
    base = checkmemo.seat_context(game, **args)  # type: ignore[arg-type]
    for name, other in (("journal", "k"), ("truth", Truth(stamp="t")), ("must", False), ("brought", "c")):
        assert checkmemo.seat_context(game, **{**args, name: other}) != base, name  # type: ignore[arg-type]
    lang = game.seat_lang(1)
    monkeypatch.setattr(Game, "seat_lang", lambda self, seat: "en" if lang == "zh" else "zh")
    assert checkmemo.seat_context(game, **args) != base  # type: ignore[arg-type]
    monkeypatch.undo()
    monkeypatch.setattr(Game, "alias", lambda self, seat: "renamed")
    assert checkmemo.seat_context(game, **args) != base  # type: ignore[arg-type]


def test_a_memo_cut_to_its_cell_keeps_chinese_unescaped_and_within_the_cell() -> None:
    """Slip caught: the memo without its verdict written with escapes (6 characters for each Chinese one): it
    would no longer fit the cell it was cut for."""
    order = "移动 B2；搜索；" * 300
    memo = Memo(v="rev", c="ctx", r={"problems": ["x" * 500]}, o=order)
    limit = len(dataclasses.replace(memo, r={}).text()) + 5
    assert len(memo.text(limit)) <= limit and "移动" in memo.text(limit)


def test_the_context_moves_with_the_memos_format_and_sheetgms_version(monkeypatch: pytest.MonkeyPatch) -> None:
    """Slip caught: the format or sheetgm's version left out of the context: after an upgrade that changes what a
    memo means (or how a verdict is worked out), a workbook would be skipped on a verdict the old code gave."""
    args = dict(key="N1-survivor", journal="j", deadline=DEADLINE, before=True, truth=None, lang="zh/zh",
                alias="S1", must=True, brought="b")
    base = checkmemo.context(**args)  # type: ignore[arg-type]
    monkeypatch.setattr(checkmemo, "FORMAT", checkmemo.FORMAT + 1)
    assert checkmemo.context(**args) != base  # type: ignore[arg-type]
    monkeypatch.undo()
    monkeypatch.setattr(checkmemo, "__version__", "0.0.0-other")
    assert checkmemo.context(**args) != base  # type: ignore[arg-type]
    monkeypatch.undo()
    assert checkmemo.context(**args) == base  # type: ignore[arg-type]


def test_only_the_stages_own_rows_give_its_memos() -> None:
    """Slip caught: the seats counted from 0 or past the last: the row just before the stage's first (the last
    seat of the stage before) or just after its last (the next stage's first), labelled with this stage by a
    hand, would give a memo of a seat 0 or n + 1."""
    memo = Memo(v="rev", c="ctx", j="j", t="t", r={"state": "ok"})
    rows = _rows(3)
    for row in rows:
        row[0], row[MEMO_COL] = "N2-survivor", memo.text()
    assert memos(rows, "N2-survivor", 3) == {1: memo, 2: memo, 3: memo}


def test_a_digest_is_16_hex_characters() -> None:
    """Slip caught: a longer digest: a memo holds three (the context, the judgment, the reminder), and a memo
    must stay within one cell."""
    import re

    for digest in (checkmemo.reminder("N1-survivor", DEADLINE, ["S1"]), checkmemo.journal_digest([]),
                   checkmemo.judgment("c", 3, "移动 B2", True, [])):
        assert re.fullmatch(r"[0-9a-f]{16}", digest), digest
