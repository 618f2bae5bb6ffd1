"""Bot simulations: many whole games on a map, played on every core, summed up for the director
(win rates per camp, role and map, nights to the end) and drawn as a PNG."""

from sheetgm.sim.run import GameResult, play_one, simulate
from sheetgm.sim.summary import Summary, summarise

__all__ = ["GameResult", "Summary", "play_one", "simulate", "summarise"]
