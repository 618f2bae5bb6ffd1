"""sheetgm: a game master for the forum game 第五人格逃生 on spreadsheets.

Importing the package changes nothing outside it (tests/test_import_clean.py): no standard-library function is
replaced, no module stubbed, no exit hook registered, the garbage collector left as it was.
"""

__version__ = "0.1.0"
