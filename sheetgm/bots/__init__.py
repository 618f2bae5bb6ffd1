"""Bots that play the game with purpose (demo, benchmark, balance statistics) and random legal play (fuzzing)."""

from sheetgm.bots.hunter import hunter_order, hunter_view
from sheetgm.bots.play import Table, bot_order, play_game, play_night, random_order, roster_for, scaled_options
from sheetgm.bots.survivor import survivor_order

__all__ = [
    "Table", "bot_order", "hunter_order", "hunter_view", "play_game", "play_night", "random_order", "roster_for",
    "scaled_options", "survivor_order",
]
