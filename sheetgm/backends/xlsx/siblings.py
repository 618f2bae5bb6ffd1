"""Copies of a workbook in another format, beside its .xlsx file in the game folder.

A player may send back, or a director may save, "03-Ann.ods" instead of "03-Ann.xlsx" (LibreOffice asks which
format to keep at every save), an .xls, a .csv of one tab, a Numbers or a WPS document. sheetgm reads only the
.xlsx; such a copy is found and named, so that orders typed into it are not taken for "no order".
"""

from __future__ import annotations

from pathlib import Path

# What a spreadsheet program may save a workbook as, besides .xlsx.
OTHER_FORMATS = (".ods", ".fods", ".xls", ".xlsb", ".xlsm", ".xltx", ".csv", ".tsv", ".numbers", ".et", ".ett",
                 ".xml", ".html", ".htm")


def siblings(path: Path) -> list[Path]:
    """Files beside ``path`` with the same name in another spreadsheet format, by name."""
    stem = path.stem.casefold()
    try:
        found = [p for p in path.parent.iterdir()
                 if p.suffix.casefold() in OTHER_FORMATS and p.stem.casefold() == stem and p.is_file()]
    except OSError:
        return []
    return sorted(found, key=lambda p: p.name)
