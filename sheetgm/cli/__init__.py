"""The ``sheetgm`` command line: one thin module per command group over ``common``."""
