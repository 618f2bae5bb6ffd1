"""A check skips a workbook unchanged since the last check (checkmemo.py), yet reviews each order with the
others' orders of the stage (RUL-39): when another player's edit changes what the others bring a player,
her unchanged workbook is read and judged again; an edit that brings her nothing leaves it unread."""

# covers: RUL-39

from __future__ import annotations

import dataclasses
from pathlib import Path

from fakes.google import FakeGoogle
from svc_helpers import Clock, make_game, roster, state_of, write_order

from sheetgm.core.board import tile_name
from sheetgm.service.check import check
from sheetgm.service.desk import override
from sheetgm.service.game import DIRECTOR, Game
from sheetgm.service.resolve import resolve

DEADLINE = {"N2-survivor": "2024-05-01T21:00:00+08:00"}  # an hour ahead: the memos are kept


def _reads(fake: FakeGoogle, game: Game, start: int) -> list[str]:
    key_of = {v: k for k, v in game.gateway.ids.items()}  # type: ignore[attr-defined]
    out = []
    for c in fake.log[start:]:
        if "/spreadsheets/" in c.url and c.method == "GET":
            sid = c.url.split("/spreadsheets/")[1].split("/")[0].split(":")[0].split("?")[0]
            out.append(key_of.get(sid, sid))
    return sorted(k for k in out if k.startswith("player-"))


def test_an_unchanged_workbook_is_judged_again_when_a_gift_to_her_appears(tmp_path: Path) -> None:
    with FakeGoogle() as fake:
        game = make_game(tmp_path, fake.gateway(meta_home=DIRECTOR), Clock(), roster=roster(3, 1),
                         deadlines=DEADLINE)

        def fresh() -> Game:
            gw = fake.gateway(ids=game.gateway.ids, meta_home=DIRECTOR)  # type: ignore[attr-defined]
            return dataclasses.replace(game, gateway=gw)

        for stage in ("N1-survivor", "N1-hunter"):
            assert resolve(fresh(), stage=stage).action in ("resolved", "resolved-early")
        here = tile_name(state_of(game).players[1].pos)
        override(fresh(), "S1", "items", "map", "setting the scene")
        override(fresh(), "S2", "pos", here, "setting the scene")
        write_order(game, 2, "地图", night=2)  # S2 uses a map nobody gives her yet: a problem
        write_order(game, 3, "地图", night=2)
        for _ in range(3):  # the first two read every workbook (the first writes the status cells)
            last = check(fresh())
        assert sorted(last.unchanged) == ["S1", "S2", "S3"]
        assert {p.alias: p.state for p in last.players}["S2"] == "problems"

        write_order(game, 1, "给予 S2 地图", night=2)  # S1 gives S2 the map: S2's review changes, S3's does not
        start = len(fake.log)
        now = check(fresh())
        by = {p.alias: p for p in now.players}
        assert by["S2"].state == "ok" and by["S2"].stamp and by["S2"].problems == []
        assert by["S3"].state == "problems"
        assert now.unchanged == ["S3"] and _reads(fake, game, start) == ["player-1", "player-2"]
