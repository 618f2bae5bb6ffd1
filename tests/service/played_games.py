"""A factory of games whose CLI commands run on a chosen gateway (xlsx files or the Google fake) with a test clock:
``played(**cfg)`` makes the game, ``played.clock`` moves time, ``run(game, *args)`` runs a command with --json."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from svc_helpers import Clock, make_game, state_of
from typer.testing import CliRunner

from sheetgm.cli import app as cli
from sheetgm.cli import common as cli_common
from sheetgm.core.check import legal_steps
from sheetgm.notation.order_format import format_step
from sheetgm.service.game import DIRECTOR, Game, open_game
from sheetgm.sheets import layout
from sheetgm.sheets.stages import archive_row

SCHEDULE = {"survivors": "21:00", "hunters": "23:00", "start": "2024-05-01"}
# The clock starts at 20:50 there: a check at once is within the last quarter hour before the 21:00 deadline, as the
# schedule places its checks, so no later read stands in for it (RUL-55).
runner = CliRunner()


@pytest.fixture(params=["xlsx", "google"])
def played(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    from fakes.google import FakeGoogle

    from sheetgm.backends.xlsx.gateway import XlsxGateway

    with FakeGoogle() as fake:
        gw = XlsxGateway(tmp_path / "workbooks") if request.param == "xlsx" else fake.gateway()
        clock = Clock()
        clock.advance(minutes=50)

        def make(**cfg: Any) -> Game:
            game = make_game(tmp_path, gw, clock, **{"schedule": SCHEDULE, **cfg})
            game.clock = clock
            opened = lambda path: open_game(path, gw, clock)  # noqa: E731 - the CLI's game, on this gateway
            monkeypatch.setattr(cli_common, "open_at", opened)
            return game

        make.clock = clock  # type: ignore[attr-defined]
        make.backend = request.param  # type: ignore[attr-defined]
        yield make


def run(game: Game, *args: str) -> Any:
    out = runner.invoke(cli.app, [*args, "--game", str(game.folder), "--json"])
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout)


def text_of(game: Game, *args: str, env: dict[str, str] | None = None) -> str:
    out = runner.invoke(cli.app, [*args, "--game", str(game.folder)], env=env)
    assert out.exit_code == 0, out.output
    return out.stdout


def first_step(game: Game, seat: int, n: int = 0) -> str:
    return format_step(legal_steps(state_of(game), seat)[n], game.seat_lang(seat))


def archive_cells(game: Game, key: str, seat: int) -> list[str]:
    r = archive_row(key, seat, len(game.seats))
    a1 = layout.rng(layout.tab(game.lang, "archive"), f"A{r}:M{r}")
    got = game.gateway.read(DIRECTOR, [a1])[a1]
    return list(got[0]) + [""] * 13 if got else [""] * 13
