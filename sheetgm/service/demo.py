"""`sheetgm demo`: a whole game on local workbooks, bots writing into the players' Orders tabs.

Every stage goes through the same service code as a real game: the bots
write their order text and tick into their own workbook, then `check` and
`resolve` run exactly as the director would run them.

One difference, for speed: the demo saves each workbook once a night (the
gateway's ``batch``), where real commands save after every write (the safe
resolve needs its journal row on disk before it publishes). The workbooks at
the end are the same; only a demo killed in the middle of a night loses that
night. ``save_each_write=True`` (``sheetgm demo --save-each-write``) saves
as real commands do.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import nullcontext
from datetime import datetime
from pathlib import Path
from typing import Any

from sheetgm.backends.port import Gateway, SetValues
from sheetgm.bots import bot_order, scaled_options
from sheetgm.core.setup import SeatSpec
from sheetgm.core.state import State
from sheetgm.core.values import field, record
from sheetgm.notation.order_format import format_order
from sheetgm.service.check import check
from sheetgm.service.config.load import parse_config
from sheetgm.service.errors import ServiceError
from sheetgm.service.game import WORKBOOK_DIR, Game, player_key
from sheetgm.service.ledger.journal import latest, read_director
from sheetgm.service.new_game import new_game
from sheetgm.service.resolve import ResolveReport, resolve
from sheetgm.sheets import layout
from sheetgm.sheets.stages import order_row, stage_key

NOTHING = {"zh": "无", "en": "pass"}


@record
class DemoReport:
    folder: Path
    workbooks: list[Path]
    stages: int
    nights: int
    winner: str | None
    public_log: str
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"folder": str(self.folder), "workbooks": [str(p) for p in self.workbooks], "stages": self.stages,
                "nights": self.nights, "winner": self.winner, "public_log": self.public_log,
                "warnings": self.warnings}


def demo_config(players: int, seed: int, lang: str, max_nights: int) -> dict[str, Any]:
    if players < 2:
        raise ServiceError("err.svc.no_players", n=players)
    hunters = 2 if players >= 6 else 1
    roster = [{"alias": f"S{i}", "camp": "survivor", "lang": lang} for i in range(1, players - hunters + 1)]
    roster += [{"alias": f"H{i}", "camp": "hunter", "lang": lang} for i in range(1, hunters + 1)]
    specs = [SeatSpec(r["alias"], r["camp"]) for r in roster]
    # Ten players follow the seed's victory targets; fewer need the house rule RUL-26 to be winnable.
    options = scaled_options(specs)
    return {"name": "demo", "map": "standard", "seed": seed, "lang": lang, "max_nights": max_nights,
            "options": options, "roster": roster}


def fresh_folder(base: Path) -> Path:
    """``base``, or ``base-2``, ``base-3``... whichever does not exist yet."""
    path, n = base, 1
    while path.exists():
        n += 1
        path = base.with_name(f"{base.name}-{n}")
    return path


def submit(game: Game, state: State, seat: int, rng: random.Random) -> None:
    """A bot types its order and the tick into its own Orders tab (one write)."""
    lang = game.seat_lang(seat)
    text = format_order(bot_order(state, seat, rng), lang) or NOTHING[lang]
    r = order_row(state.night)
    orders = layout.tab(lang, "orders")
    game.gateway.write(player_key(seat), [SetValues(layout.rng(orders, f"B{r}:C{r}"), ((text, "✓"),))])


def demo(folder: Path, players: int = 10, seed: int = 1, lang: str = "zh", max_nights: int = 12,
         gateway: Gateway | None = None, progress: Callable[[str], None] | None = None,
         save_each_write: bool = False, clock: Callable[[], datetime] | None = None,
         secret: str | None = None) -> DemoReport:
    cfg = parse_config(demo_config(players, seed, lang, max_nights), "demo")
    game = new_game(folder, cfg, gateway, clock=clock, secret=secret)
    rng = random.Random(f"sheetgm-demo/{seed}")
    logs: list[str] = []
    warnings: list[str] = []
    stages = 0
    state = latest(read_director(game)[0]).state(game.board)
    while not state.over() and state.night <= max_nights:
        with nullcontext() if save_each_write else game.gateway.batch():  # one save per workbook a night
            night = state.night
            while not state.over() and state.night == night <= max_nights:
                result = _play_stage(game, state, rng, warnings)
                logs.append(result.public_log)
                stages += 1
                if progress:
                    progress(result.stage)
                state = latest(read_director(game)[0]).state(game.board)
    books = sorted((folder / WORKBOOK_DIR).glob("*.xlsx")) if cfg.backend == "xlsx" else []
    return DemoReport(folder, books, stages, min(state.night, max_nights), state.winner, "".join(logs), warnings)


def _play_stage(game: Game, state: State, rng: random.Random, warnings: list[str]) -> ResolveReport:
    """The bots of the camp due type their orders, then check and resolve run as the director runs them."""
    for p in state.survivors() + state.hunters():
        if p.camp == state.stage and p.seat in game.seats:
            submit(game, state, p.seat, rng)
    warnings += check(game).warnings
    result = resolve(game, stage=stage_key(state.night, state.stage))
    warnings += result.warnings
    return result
