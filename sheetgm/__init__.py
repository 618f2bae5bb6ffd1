"""sheetgm: a game master for the forum game 第五人格逃生 on spreadsheets."""

__version__ = "0.1.0"
