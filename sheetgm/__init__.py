"""sheetgm: a game master for the forum game 第五人格逃生 on spreadsheets."""

from sheetgm.core import codecache, recache

__version__ = "0.1.0"

codecache.install()
recache.install()
