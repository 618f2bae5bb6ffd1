"""Copies of a workbook in another format, beside its .xlsx file in the game folder.

A player may send back, or a director may save, "03-Ann.ods" instead of "03-Ann.xlsx" (LibreOffice asks which
format to keep at every save), an .xls, a .csv of one tab, a Numbers or a WPS document. sheetgm reads only the
.xlsx; such a copy is found and named, so that orders typed into it are not taken for "no order".
"""

from __future__ import annotations

import os
from pathlib import Path

# What a spreadsheet program may save a workbook as, besides .xlsx.
OTHER_FORMATS = (".ods", ".fods", ".xls", ".xlsb", ".xlsm", ".xltx", ".csv", ".tsv", ".numbers", ".et", ".ett",
                 ".xml", ".html", ".htm")


_LISTED: dict[str, tuple[int, dict[str, list[str]]]] = {}  # folder -> (its mtime, stem -> names in another format)


def siblings(path: Path) -> list[Path]:
    """Files beside ``path`` with the same name in another spreadsheet format, by name. The folder is listed
    again only when it changed (a resolve asks for each of 160 workbooks in turn)."""
    try:
        by_stem = _listing(path.parent)
    except OSError:
        return []
    found = [path.parent / name for name in by_stem.get(path.stem.casefold(), ())]
    return sorted((p for p in found if p.is_file()), key=lambda p: p.name)


def _listing(folder: Path) -> dict[str, list[str]]:
    key, stamp = str(folder), os.stat(folder).st_mtime_ns
    known = _LISTED.get(key)
    if known is not None and known[0] == stamp:
        return known[1]
    by_stem: dict[str, list[str]] = {}
    for name in os.listdir(folder):
        p = Path(name)
        if p.suffix.casefold() in OTHER_FORMATS:
            by_stem.setdefault(p.stem.casefold(), []).append(name)
    if len(_LISTED) >= 64:
        _LISTED.clear()
    _LISTED[key] = (stamp, by_stem)
    return by_stem
