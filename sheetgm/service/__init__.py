"""Use cases over the workbook port: new game, check, resolve, status, audit, demo.

Each use case is one small module taking a `Game` (config + gateway + board);
the CLI calls one function per command. The engine never sees a spreadsheet
and the adapters never see rules.
"""
