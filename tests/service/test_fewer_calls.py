"""`check` reads only the workbooks that changed since the last check, and writes only what changes; a
resolve before the deadline waits on the last check's verdicts when nothing changed since. Counted on the
Google fake, each run as a fresh process (a new gateway); on local files the same verdicts."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from fakes.google import FakeGoogle
from svc_helpers import Clock, make_game, orders_row, roster, state_of, write_order

from sheetgm.backends.errors import NetworkError
from sheetgm.backends.port import SetValues
from sheetgm.backends.xlsx.gateway import XlsxGateway
from sheetgm.core.check import legal_steps
from sheetgm.notation.order_format import format_step
from sheetgm.service.check import check
from sheetgm.service.game import DIRECTOR, PUBLIC, Game, player_key
from sheetgm.service.ledger.stamps import archive_range
from sheetgm.service.resolve import resolve
from sheetgm.sheets import layout
from sheetgm.sheets.stages import archive_row

DEADLINE = {"N1-survivor": "2024-05-01T21:00:00+08:00", "N1-hunter": "2024-05-01T23:00:00+08:00"}  # 1 h ahead


def first_step(game: Game, seat: int) -> str:
    return format_step(legal_steps(state_of(game), seat)[0], game.seat_lang(seat))


class Runs:
    """A Google game whose every command runs as a fresh process would: a new gateway, nothing in memory."""

    def __init__(self, fake: FakeGoogle, game: Game) -> None:
        self.fake, self.game = fake, game

    def fresh(self) -> Game:
        gw = self.fake.gateway(ids=self.game.gateway.ids, meta_home=DIRECTOR)  # type: ignore[attr-defined]
        return dataclasses.replace(self.game, gateway=gw)

    def books(self, start: int, method: str) -> list[str]:
        """The workbooks the calls since ``start`` read (GET) or wrote, by key, in order."""
        key_of = {v: k for k, v in self.game.gateway.ids.items()}  # type: ignore[attr-defined]
        out = []
        for c in self.fake.log[start:]:
            if "/spreadsheets/" not in c.url or (c.method == "GET") != (method == "GET"):
                continue
            sid = c.url.split("/spreadsheets/")[1].split("/")[0].split(":")[0].split("?")[0]
            out.append(key_of.get(sid, sid))
        return out

    def listings(self, start: int) -> int:
        return sum(1 for c in self.fake.log[start:] if c.kind == "file_list")


@pytest.fixture
def runs(tmp_path: Path) -> Runs:  # type: ignore[misc]
    with FakeGoogle() as fake:
        game = make_game(tmp_path, fake.gateway(meta_home=DIRECTOR), Clock(), roster=roster(3, 1),
                         deadlines=DEADLINE)
        yield Runs(fake, game)


def players_read(runs: Runs, start: int) -> list[str]:
    return [k for k in runs.books(start, "GET") if k.startswith("player-")]


def test_a_check_reads_only_the_workbooks_changed_since_the_last(runs: Runs) -> None:
    for seat in (1, 2):
        write_order(runs.game, seat, first_step(runs.game, seat))
    start = len(runs.fake.log)
    first = check(runs.fresh())
    assert sorted(players_read(runs, start)) == ["player-1", "player-2", "player-3"]
    assert runs.listings(start) == 2  # before reading; again after writing (for a resolve that waits)
    assert first.unchanged == []
    # the second reads them again (the first wrote their status), finds the same and writes nothing to them
    start = len(runs.fake.log)
    second = check(runs.fresh())
    assert sorted(players_read(runs, start)) == ["player-1", "player-2", "player-3"]
    assert [k for k in runs.books(start, "POST") if k.startswith("player-")] == []
    # from the third on nothing is read but the director's workbook, and only it is written (the looks, RUL-55)
    start = len(runs.fake.log)
    third = check(runs.fresh())
    assert players_read(runs, start) == [] and runs.books(start, "POST") == [DIRECTOR]
    assert runs.books(start, "GET") == [DIRECTOR] and runs.listings(start) == 1
    assert sorted(third.unchanged) == ["S1", "S2", "S3"]
    assert [(p.alias, p.state) for p in third.players] == [(p.alias, p.state) for p in first.players]
    assert third.missing == second.missing == ["S3"]
    # a player who edits is read (alone), told, and the others are left alone
    write_order(runs.game, 3, first_step(runs.game, 3))
    start = len(runs.fake.log)
    fourth = check(runs.fresh())
    assert players_read(runs, start) == ["player-3"]
    assert [k for k in runs.books(start, "POST") if k != DIRECTOR] == ["player-3", PUBLIC]
    assert fourth.missing == [] and sorted(fourth.unchanged) == ["S1", "S2"]


def test_a_status_keeps_the_time_of_the_check_that_first_judged_it(runs: Runs) -> None:
    clock = Clock()
    write_order(runs.game, 1, first_step(runs.game, 1))
    check(dataclasses.replace(runs.fresh(), clock=clock))
    shown = orders_row(runs.game, 1)[3]
    clock.advance(minutes=20)
    check(dataclasses.replace(runs.fresh(), clock=clock))
    assert orders_row(runs.game, 1)[3] == shown  # still true: judged at that time, unchanged since
    write_order(runs.game, 1, "nonsense order")
    clock.advance(minutes=5)
    check(dataclasses.replace(runs.fresh(), clock=clock))
    assert orders_row(runs.game, 1)[3] != shown and orders_row(runs.game, 1)[4]  # a new verdict, a new time


def test_an_edit_made_while_a_check_lists_the_versions_is_never_missed(runs: Runs) -> None:
    """The version a check remembers is the one listed before it read: an edit after the listing is either in
    what it read or moves the version again, so the next check reads it."""
    write_order(runs.game, 1, first_step(runs.game, 1))
    for _ in range(3):
        check(runs.fresh())
    write_order(runs.game, 2, "nonsense")  # S2 changed: the next check reads it
    game = runs.fresh()
    listed = game.gateway.revisions

    def list_then_edit(keys):  # type: ignore[no-untyped-def]
        found = listed(keys)
        write_order(runs.game, 2, first_step(runs.game, 2))  # S2 fixes it while the check runs
        write_order(runs.game, 3, first_step(runs.game, 3))  # S3, unchanged when listed, writes too
        return found

    game.gateway.revisions = list_then_edit  # type: ignore[method-assign]
    rep = check(game)
    states = {p.alias: p.state for p in rep.players}
    assert states["S2"] == "ok"  # read after the edit
    assert states["S3"] == "empty"  # not read: listed unchanged, as if written just after this check
    start = len(runs.fake.log)
    again = check(runs.fresh())
    assert {"player-2", "player-3"} <= set(players_read(runs, start))  # both moved since their listed versions
    assert {p.alias: p.state for p in again.players} == {"S1": "ok", "S2": "ok", "S3": "ok"}


def test_a_damaged_memo_or_no_listing_means_reading_everything(runs: Runs) -> None:
    write_order(runs.game, 1, first_step(runs.game, 1))
    for _ in range(3):
        check(runs.fresh())
    game = runs.fresh()

    def broken(keys):  # type: ignore[no-untyped-def]
        raise NetworkError(key="drive", attempts=5, detail="HTTP 503")

    game.gateway.revisions = broken  # type: ignore[method-assign]
    start = len(runs.fake.log)
    rep = check(game)
    assert sorted(players_read(runs, start)) == ["player-1", "player-2", "player-3"] and rep.unchanged == []
    # a memo cell edited by hand is only a reason to read the workbook again
    tab = layout.tab(game.lang, "archive")
    runs.game.gateway.write(DIRECTOR, [SetValues(layout.rng(tab, f"P{archive_row('N1-survivor', 1, 4)}"),
                                                 (("{not json",),))])
    start = len(runs.fake.log)
    check(runs.fresh())
    assert "player-1" in players_read(runs, start)


def test_a_resolve_before_the_deadline_waits_on_the_last_checks_verdicts(runs: Runs) -> None:
    write_order(runs.game, 1, first_step(runs.game, 1))
    check(runs.fresh())  # as the scheduled run does: check, then resolve
    start = len(runs.fake.log)
    rep = resolve(runs.fresh())
    assert rep.action == "waiting" and "S2" in rep.notes[0] and "S3" in rep.notes[0] and "S1" not in rep.notes[0]
    assert runs.books(start, "POST") == [] and runs.books(start, "GET") == [DIRECTOR]  # no lock, no player read
    # once a player writes, the verdicts are stale: the resolve reads under the lock as before
    write_order(runs.game, 2, first_step(runs.game, 2))
    start = len(runs.fake.log)
    rep = resolve(runs.fresh())
    assert rep.action == "waiting" and "S2" not in rep.notes[0]
    assert "player-2" in players_read(runs, start) and DIRECTOR in runs.books(start, "POST")
    # and when the last check found everyone submitted, it resolves early, reading under the lock
    write_order(runs.game, 3, first_step(runs.game, 3))
    for _ in range(3):
        check(runs.fresh())
    assert resolve(runs.fresh()).action == "resolved-early"


def test_local_files_give_the_same_verdicts_and_are_not_saved_for_nothing(tmp_path: Path) -> None:
    game = make_game(tmp_path, XlsxGateway(tmp_path / "workbooks"), Clock(), roster=roster(3, 1),
                     deadlines=DEADLINE)
    write_order(game, 1, first_step(game, 1))
    first = check(dataclasses.replace(game, gateway=XlsxGateway(tmp_path / "workbooks")))
    path = XlsxGateway(tmp_path / "workbooks").path(player_key(1))
    saved = path.stat().st_mtime_ns
    second = check(dataclasses.replace(game, gateway=XlsxGateway(tmp_path / "workbooks")))
    assert path.stat().st_mtime_ns == saved  # the status it shows is the one it would write
    assert [(p.alias, p.state) for p in second.players] == [(p.alias, p.state) for p in first.players]
    rows = XlsxGateway(tmp_path / "workbooks").read(DIRECTOR, [archive_range(game.lang)])[archive_range(game.lang)]
    assert any(len(r) > 15 and r[15].startswith("{") for r in rows)  # the memo is in column P
