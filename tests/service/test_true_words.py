"""Words that are true (issue 28): what a player and the director read after the deadline, after a resolve and
after a read says only what holds then."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from fakes.google import FakeGoogle
from svc_helpers import Clock, make_game, orders_row, roster, state_of, write_order

from sheetgm.backends.memory import MemoryGateway
from sheetgm.cli import present
from sheetgm.core.check import legal_steps
from sheetgm.core.texts import render
from sheetgm.notation.order_format import format_step
from sheetgm.service.check import check
from sheetgm.service.game import DIRECTOR, Game
from sheetgm.service.resolve import resolve
from sheetgm.sheets import layout

DEADLINES = {"N1-survivor": "2024-05-01T21:00:00+08:00", "N1-hunter": "2024-05-01T23:00:00+08:00"}  # 20:00 now


def step(game: Game, seat: int, i: int = 0) -> str:
    return format_step(legal_steps(state_of(game), seat)[i], game.seat_lang(seat))


def status(game: Game, seat: int, night: int = 1) -> str:
    return orders_row(game, seat, night)[layout.O_STATUS]


def stale_words(lang: str = "zh") -> str:
    return render(lang, "sheet.rows.stale", row=2, old="N1-survivor", due=3, key="N2-survivor").split("：")[0]


def test_a_row_changed_after_the_deadline_but_before_the_resolve_is_not_called_changed_after_it(
        tmp_path: Path) -> None:
    """S1's order was stamped before the deadline, then changed before the resolve (the stamped one is used):
    at the next stage she is not told that her row "was changed after its stage was resolved"."""
    clock = Clock()
    game = make_game(tmp_path, MemoryGateway(), clock, deadlines=DEADLINES)
    write_order(game, 1, step(game, 1))
    clock.advance(minutes=50)
    check(game)  # 20:50, in the last quarter before the deadline: stamped
    clock.advance(minutes=40)  # 21:30: after the deadline, before the resolve
    write_order(game, 1, step(game, 1, 1))
    assert resolve(game).stage == "N1-survivor"
    clock.advance(hours=2)  # 23:30: the hunters' stage is past its deadline too
    assert resolve(game).stage == "N1-hunter"
    check(game)  # the survivors' night 2, before its deadline
    assert "之后又被改动过" not in status(game, 1, 2) and stale_words() not in status(game, 1, 2)
    write_order(game, 1, "移动 A1")  # an edit after the resolve is still named
    check(game)
    assert "之后又被改动过" in status(game, 1, 2)


def test_after_the_deadline_no_one_is_told_to_tick_and_a_counted_order_is_not_unsubmitted(tmp_path: Path) -> None:
    clock = Clock()
    game = make_game(tmp_path, MemoryGateway(), clock, deadlines=DEADLINES, roster=roster(langs={2: "en"}))
    write_order(game, 1, step(game, 1))  # stamped before the deadline, changed after it: the stamped one counts
    write_order(game, 2, step(game, 2), tick="")  # correct but never ticked: carried out as written
    clock.advance(minutes=50)
    before = check(game)  # 20:50, in the last quarter before the deadline
    assert before.missing == ["S2", "S3"] and "✓ in column C" in status(game, 2)
    clock.advance(minutes=40)
    write_order(game, 1, step(game, 1, 1))
    write_order(game, 3, step(game, 3))  # a first order written after the deadline: late, not "changed"
    after = check(game)
    states = {p.alias: (p.state, p.verdict) for p in after.players}
    assert states == {"S1": ("late", "fallback"), "S2": ("unticked", ""), "S3": ("late", "late")}
    assert after.missing == [] and after.without_order == ["S3"]
    said = present.checked("zh", after)
    assert "尚未提交" not in said and render("zh", "cli.without_order", aliases="S3") in said
    assert "  S3: " + render("zh", "cli.state.late_written") in said  # written late, not "changed after"
    assert "  S1: " + render("zh", "cli.state.late") in said
    assert "截止后改过" not in said.split("S3: ")[1].split("\n")[0]
    s2 = status(game, 2)
    assert "column C" not in s2 and "not ticked; it is carried out" in s2
    assert after.to_dict()["without_order"] == ["S3"]


def test_every_read_updates_the_last_read_time_but_a_checks_own_write_does_not(tmp_path: Path) -> None:
    """On Google (revisions known): a save of the player's, even with the same order, is read and shown read at
    that time; a check that finds only its own last write writes nothing."""
    with FakeGoogle() as fake:
        game = make_game(tmp_path, fake.gateway(meta_home=DIRECTOR), Clock(), roster=roster(3, 1),
                         deadlines=DEADLINES)

        def fresh(clock: Clock) -> Game:
            gw = fake.gateway(ids=game.gateway.ids, meta_home=DIRECTOR)  # type: ignore[attr-defined]
            return dataclasses.replace(game, gateway=gw, clock=clock)

        clock = Clock()
        text = step(game, 1)
        write_order(game, 1, text)
        check(fresh(clock))
        assert "最后读取：2024-05-01 周三 20:00" in status(game, 1)
        clock.advance(minutes=10)
        check(fresh(clock))  # reads again (its own write moved the version): the same, nothing to tell
        assert "最后读取：2024-05-01 周三 20:00" in status(game, 1)
        clock.advance(minutes=10)
        write_order(game, 1, text, tick="✅")  # the player saves again, the order unchanged (another tick)
        check(fresh(clock))
        assert "最后读取：2024-05-01 周三 20:20" in status(game, 1)
        assert "（截至 05-01 20:20 UTC+8 检查）" in status(game, 1).split("\n")[0]  # the deadline line too


def test_without_versions_every_read_is_shown(tmp_path: Path) -> None:
    clock = Clock()
    game = make_game(tmp_path, MemoryGateway(), clock, deadlines=DEADLINES)
    write_order(game, 1, step(game, 1))
    check(game)
    clock.advance(minutes=7)
    check(game)
    assert "最后读取：2024-05-01 周三 20:07" in status(game, 1)
