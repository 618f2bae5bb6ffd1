"""Issue 29.4: a resolve reads the director's workbook and the due players' (publishing read every player's
workbook to check whose it is: 2N+4 reads a night instead of N+4), and the call counts `doctor` estimates
(`publish.stage_calls`) are the ones the Google fake counts. A workbook not read is written exactly as if it
had been read: two games played alike, one reading every workbook, end with the same workbooks."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import pytest
from fakes.google import FakeGoogle
from svc_helpers import Clock, make_game, roster, state_of, write_order

from sheetgm.bots import bot_order
from sheetgm.notation.order_format import format_order
from sheetgm.service.game import DIRECTOR, Game, player_key
from sheetgm.service.publish import stage_calls
from sheetgm.service.resolve import resolve
from sheetgm.sheets import layout

STAGES = 6  # three nights


class Played:
    """A Google game on the fake, each command a fresh process (a new gateway)."""

    def __init__(self, fake: FakeGoogle, folder: Path, enforced: bool = True) -> None:
        self.fake = fake
        self.game = make_game(folder, fake.gateway(meta_home=DIRECTOR), Clock(), roster=roster(5, 2),
                              director_email="gm@example.com")
        self.enforced = enforced

    def fresh(self) -> Game:
        gw = self.fake.gateway(ids=self.game.gateway.ids, meta_home=DIRECTOR)  # type: ignore[attr-defined]
        gw.enforces_protections = self.enforced
        return dataclasses.replace(self.game, gateway=gw)

    def stage(self, seed: int) -> tuple[str, int, Counter[str]]:
        """The due camp's orders written (bots), then one resolve: its key, the due players, its calls."""
        import random

        state = state_of(self.game)
        due = [s for s, p in state.players.items() if p.camp == state.stage and p.in_play]
        rng = random.Random(seed)
        for seat in due:
            write_order(self.game, seat, format_order(bot_order(state, seat, rng), self.game.seat_lang(seat)),
                        night=state.night)
        start = len(self.fake.log)
        rep = resolve(self.fresh())
        assert rep.action == "resolved", rep
        calls: Counter[str] = Counter()
        for c in self.fake.log[start:]:
            if "sheets.googleapis.com" in c.url:
                calls["read" if c.method == "GET" else "write"] += 1
                if c.method == "GET" and any(self.game.gateway.ids[player_key(s)] in c.url  # type: ignore[attr-defined]
                                             for s in self.game.seats if s not in due):
                    calls["read not due"] += 1
        return rep.stage, len(due), calls


@pytest.fixture
def fake() -> FakeGoogle:  # type: ignore[misc]
    with FakeGoogle() as f:
        yield f


def test_a_resolve_reads_the_director_and_the_due_players_only(fake: FakeGoogle, tmp_path: Path) -> None:
    played = Played(fake, tmp_path / "g")
    players = len(played.game.seats)
    first = played.stage(1)
    assert first[2]["read not due"] == players - first[1]  # the first time, every workbook is read once
    for n in range(2, STAGES + 1):
        key, due, calls = played.stage(n)
        assert calls["read not due"] == 0, key
        assert (calls["read"], calls["write"]) == stage_calls(players, due), key


def test_a_workbook_not_read_is_written_as_if_it_had_been(tmp_path: Path) -> None:
    with FakeGoogle() as fake_a, FakeGoogle() as fake_b:
        known, reading = Played(fake_a, tmp_path / "a"), Played(fake_b, tmp_path / "b", enforced=False)
        for n in range(1, STAGES + 1):
            assert known.stage(n)[0] == reading.stage(n)[0]
        for seat in known.game.seats:
            lang = known.game.seat_lang(seat)
            ranges = [layout.rng(layout.tab(lang, name), "A1:H60") for name in ("orders", "results")]
            got = known.game.gateway.read(player_key(seat), ranges)
            assert got == reading.game.gateway.read(player_key(seat), ranges), seat
            assert (known.game.gateway.protections(player_key(seat))
                    == reading.game.gateway.protections(player_key(seat))), seat


def test_a_workbook_whose_id_changed_is_read_again(fake: FakeGoogle, tmp_path: Path) -> None:
    """The Roster tab names the workbook read as the seat's: another file put in its place is read (and its
    identity checked) before anything is written into it."""
    played = Played(fake, tmp_path / "g")
    played.stage(1)
    state = state_of(played.game)
    other = next(s for s, p in state.players.items() if p.camp != state.stage)
    ids = played.game.gateway.ids  # type: ignore[attr-defined]
    swap = next(s for s in played.game.seats if s != other and state.players[s].camp != state.stage)
    ids[player_key(other)], ids[player_key(swap)] = ids[player_key(swap)], ids[player_key(other)]
    start = len(fake.log)
    played.stage(2)
    read = [c.url for c in fake.log[start:] if c.method == "GET" and "sheets.googleapis.com" in c.url]
    assert any(ids[player_key(other)] in u for u in read) and any(ids[player_key(swap)] in u for u in read)


def test_a_workbook_changed_since_the_tools_last_write_is_read_again(fake: FakeGoogle, tmp_path: Path) -> None:
    """Drive names who changed a workbook last: an edit by anyone but the tool's account (the director by hand
    in a protected tab, a player adding a tab or restoring a version) has the workbook read again."""
    from sheetgm.backends.port import AddTab, SetValues

    played = Played(fake, tmp_path / "g")
    played.stage(1)
    state = state_of(played.game)
    edited, added = [s for s, p in state.players.items() if p.camp != state.stage][:2]
    lang = played.game.seat_lang(edited)
    ids = played.game.gateway.ids  # type: ignore[attr-defined]
    for seat in (edited, added):
        fake.grant(ids[player_key(seat)], "gm@example.com", "writer")
    director = fake.gateway(ids=ids, acting_as="gm@example.com")
    director.write(player_key(edited), [SetValues(layout.rng(layout.tab(lang, "results"), "B2"),
                                                  (("edited by hand",),))])
    director.write(player_key(added), [AddTab("mine")])
    start = len(fake.log)
    _key, _due, calls = played.stage(2)
    read = [c.url for c in fake.log[start:] if c.method == "GET" and "sheets.googleapis.com" in c.url]
    assert calls["read not due"] == 2
    assert any(ids[player_key(edited)] in u for u in read) and any(ids[player_key(added)] in u for u in read)
    results = played.game.gateway.read(player_key(edited), [layout.rng(layout.tab(lang, "results"), "B2")])
    assert "edited by hand" not in str(results), "read, the edited report was written back from the journal"
