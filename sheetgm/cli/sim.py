"""`sheetgm simulate`: many bot games on one or more maps, on every core, so that a director can judge
a map before a game: wins per camp, role and map, nights to the end, and a PNG."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer

from sheetgm.cli.common import attempt, fail, lang_of


def register(app: typer.Typer) -> None:
    @app.command("simulate")
    def simulate_cmd(
        maps: Annotated[list[str] | None, typer.Option(
            "--map", "-m", help="A shipped map (standard, teach, large4x) or a .map file; repeatable.")] = None,
        games: Annotated[int, typer.Option("--games", "-n", help="Games per map.")] = 200,
        seed: Annotated[int, typer.Option(help="Seed of the first game (game i uses seed + i).")] = 1,
        workers: Annotated[int, typer.Option(help="Processes (0: one per core).")] = 0,
        max_nights: Annotated[int, typer.Option(help="A game still going after this many nights is unfinished.")]
        = 30,
        out: Annotated[Path | None, typer.Option(
            "--out", "-o", help="PNG file to write (default: ./simulate-MAP.png).")] = None,
        game: Annotated[Path, typer.Option("--game", "-g", help="Game folder: its language is used.")] = Path("."),
        lang: Annotated[str | None, typer.Option(help="zh or en (default: the game's, else zh).")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print a JSON document for scripts.")] = False,
    ) -> None:
        """Play many bot games on a map on every core: win rates per camp, role and map, nights to the end, a PNG."""
        from sheetgm.cli.common import progress
        from sheetgm.core.texts import render
        from sheetgm.render.files import write_png
        from sheetgm.sim import simulate, summarise
        from sheetgm.sim.plot import plot_png
        from sheetgm.sim.report import report_text
        from sheetgm.sim.run import GameResult

        director = lang if lang in ("zh", "en") else lang_of(game)
        specs = maps or ["standard"]
        if games < 1:
            fail(render(director, "err.sim.games", games=games))
        if workers < 0:
            fail(render(director, "err.sim.workers", workers=workers))
        t0 = time.perf_counter()

        def played() -> list[GameResult]:
            with progress(director, "sim.progress", games * len(specs)) as advance:
                return simulate(specs, games, seed, workers or None, max_nights, lambda: advance(""))

        results = attempt(director, played)
        seconds = time.perf_counter() - t0
        summary = summarise(results)
        names = ", ".join(name for name, _ in summary.maps)
        png, _ = plot_png(summary, render(director, "sim.plot.title", maps=names, games=len(results)), director)
        default = Path(f"simulate-{'-'.join(n for n, _ in summary.maps)}.png")
        file = attempt(director, lambda: write_png(png, out if out is not None else default))
        used = min(workers or _cores(), games * len(specs))
        if as_json:
            typer.echo(json.dumps({**summary.to_dict(), "file": str(file), "workers": used,
                                   "seconds": round(seconds, 3)}, ensure_ascii=False, indent=2))
            return
        typer.echo(report_text(summary, director, names, used, seconds, str(file)))


def _cores() -> int:
    import os

    return os.cpu_count() or 1
