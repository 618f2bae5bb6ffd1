"""check's memory (service/ledger/checkmemo.py) piece by piece: each test names the slip it catches."""

from __future__ import annotations

import dataclasses
from pathlib import Path

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


def _memos_as_checked(game: Game, st: State, key: str, verdicts: dict[int, str]) -> list[list[str]]:
    """The archive rows a check would leave: a memo per due seat with ``verdicts[seat]``, in today's context."""
    n = len(game.seats)
    rows = _rows(n)
    now = game.now().isoformat(timespec="seconds")  # read just now: Drive's listing is trusted (FRESH_FOR)
    for seat in verdicts:
        _put(rows, key, seat, n, key, Memo(v=f"rev-{seat}", o="", l=now))
    known = truths(rows, key, n, [])
    stage_orders = orders_of(st, {s: "" for s in verdicts})
    for seat, verdict in verdicts.items():
        others = {s: o for s, o in stage_orders.items() if s != seat}
        ctx = checkmemo.seat_context(game, key, checkmemo.journal_digest([]), DEADLINE, True, known.get(seat), seat,
                                     deadlines.must_submit(st, seat), checkmemo.brought_digest(st, seat, others))
        memo = Memo(v=f"rev-{seat}", c=ctx, r={"state": verdict}, w=[f"note {seat}"], o="", l=now)
        _put(rows, key, seat, n, key, memo)
    return rows


def _waiting(game: Game, st: State, rows: list[list[str]]) -> tuple[list[str], list[str]] | None:
    game.gateway.revisions = lambda keys: {k: f"rev-{k.rsplit('-', 1)[1]}" for k in keys}  # type: ignore[method-assign]
    return checkmemo.waiting(game, st, "N1-hunter", [], rows, DEADLINE, True)


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
