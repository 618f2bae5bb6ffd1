"""The local adapter: one real .xlsx file per workbook key in a game folder.

Files open in LibreOffice and Excel. What a file cannot express natively is
kept in a hidden ``_sheetgm`` tab: protections (with their editors and
descriptions) and the sharing list, so that the service layer runs unchanged.
A whole-tab protection also turns on the sheet protection (no password) so
that LibreOffice shows the tab as protected; per-range protections are only
recorded (a spreadsheet file has no per-editor ranges).

Every write loads the file, applies all ops, saves to a temporary file and
``os.replace``s it: a failing op leaves the file untouched.
"""

from __future__ import annotations

import os
import re
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.utils.exceptions import InvalidFileException

from sheetgm.backends import port, xlsx_cells
from sheetgm.backends.a1 import format_range, normalize, parse_range
from sheetgm.backends.errors import FileError, MissingTabError, MissingWorkbookError, OpError, WorkbookExistsError

META_TAB = "_sheetgm"
_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$")


class XlsxGateway(port.Gateway):
    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)

    def path(self, key: str) -> Path:
        if not _KEY.match(key) or key.endswith(".xlsx"):
            raise OpError(op="workbook key", detail=f"'{key}' must be letters, digits, '-', '_' or '.'")
        return self.folder / f"{key}.xlsx"

    # -- file plumbing ----------------------------------------------------

    def _load(self, key: str, data_only: bool = False) -> Any:
        path = self.path(key)
        if not path.exists():
            raise MissingWorkbookError(key=key)
        try:
            return openpyxl.load_workbook(path, data_only=data_only)
        except (OSError, zipfile.BadZipFile, InvalidFileException, KeyError, ValueError) as exc:
            raise FileError(path=str(path), detail=f"{type(exc).__name__}: {exc}") from exc
        except Exception as exc:  # noqa: BLE001 - a damaged file fails deep inside openpyxl in many ways
            # (zlib.error, NotImplementedError, RuntimeError, UnicodeDecodeError, XML parse errors...):
            # each one means this file cannot be read, and says nothing about the other workbooks.
            raise FileError(path=str(path), detail=f"{type(exc).__name__}: {str(exc)[:200]}") from exc

    def _save(self, key: str, wb: Any) -> None:
        path = self.path(key)
        tmp = path.with_name(f".{path.name}.tmp")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            wb.save(tmp)
            os.replace(tmp, path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise FileError(path=str(path), detail=f"{type(exc).__name__}: {exc}") from exc

    @staticmethod
    def _records(wb: Any) -> list[list[str]]:
        if META_TAB not in wb.sheetnames:
            return []
        rows = wb[META_TAB].iter_rows(values_only=True)
        return [[xlsx_cells.text_of(v) for v in row[:4]] for row in rows if row and row[0]]

    @staticmethod
    def _store(wb: Any, records: list[list[str]]) -> None:
        ws = wb[META_TAB] if META_TAB in wb.sheetnames else wb.create_sheet(META_TAB)
        ws.sheet_state = "hidden"
        ws.delete_rows(1, ws.max_row)
        for row in records:
            ws.append(row)
            for cell in ws[ws.max_row]:
                cell.data_type = "s"
        whole = {parse_range(r[1]).tab for r in records if r[0] == "protection" and parse_range(r[1]).whole_tab}
        for name in _tabs(wb):
            wb[name].protection.sheet = name in whole

    def _sheet(self, wb: Any, text: str, key: str = "?") -> Any:
        rng = parse_range(text)
        if rng.tab not in _tabs(wb):
            raise MissingTabError(range=text, tab=rng.tab, key=key)
        return wb[rng.tab]

    # -- the port ---------------------------------------------------------

    def exists(self, key: str) -> bool:
        return self.path(key).exists()

    def create(self, key: str, title: str, tabs: Sequence[str]) -> None:
        if self.exists(key):
            raise WorkbookExistsError(key=key)
        port.check_tabs(tabs)
        wb = openpyxl.Workbook()
        wb.active.title = tabs[0]
        for name in tabs[1:]:
            wb.create_sheet(name)
        wb.properties.title = title
        self._store(wb, [])
        self._save(key, wb)

    def tabs(self, key: str) -> list[str]:
        return _tabs(self._load(key))

    def read(self, key: str, ranges: Sequence[str]) -> dict[str, list[list[str]]]:
        for text in ranges:
            parse_range(text)
        wb = self._load(key, data_only=True)
        return {text: xlsx_cells.read(self._sheet(wb, text, key), parse_range(text)) for text in ranges}

    def write(self, key: str, ops: Sequence[port.Op]) -> None:
        port.check_ops(ops, port.XLSX_CELL_LIMIT)  # openpyxl would silently cut a longer text
        if not ops:
            return
        wb = self._load(key)
        records = self._records(wb)
        for op in ops:
            if isinstance(op, port.AddTab):
                if op.name not in wb.sheetnames:
                    wb.create_sheet(op.name)
                continue
            if isinstance(op, port.Protect | port.Unprotect):
                records = [r for r in records if not (r[0] == "protection" and r[3] == op.description)]
                if isinstance(op, port.Protect):
                    self._sheet(wb, op.range, key)
                    records.append(["protection", normalize(op.range), ",".join(op.editors), op.description])
                continue
            rng = port.op_ranges(op)[0]
            xlsx_cells.apply(wb, self._sheet(wb, format_range(rng), key), op, rng)
        self._store(wb, records)
        self._save(key, wb)

    def protections(self, key: str) -> list[port.Protection]:
        return [
            port.Protection(r[1], tuple(e for e in r[2].split(",") if e), r[3])
            for r in self._records(self._load(key))
            if r[0] == "protection"
        ]

    def permissions(self, key: str) -> list[port.Permission]:
        found = [port.Permission(r[1], r[2]) for r in self._records(self._load(key)) if r[0] == "permission"]
        return sorted(found, key=lambda p: (p.email, p.role))

    def share(self, key: str, email: str, role: str) -> None:
        port.check_role(role)
        self._set_permission(key, email, role)

    def unshare(self, key: str, email: str) -> None:
        self._set_permission(key, email, None)

    def _set_permission(self, key: str, email: str, role: str | None) -> None:
        wb = self._load(key)
        records = [r for r in self._records(wb) if not (r[0] == "permission" and r[1].lower() == email.lower())]
        if role is not None:
            records.append(["permission", email, role, ""])
        self._store(wb, records)
        self._save(key, wb)

    def url(self, key: str) -> str | None:
        path = self.path(key)
        if not path.exists():
            raise MissingWorkbookError(key=key)
        return path.resolve().as_uri()

    def view(self, key: str) -> port.WorkbookView:
        wb = self._load(key)
        return port.WorkbookView(wb.properties.title or "", tuple(xlsx_cells.view(wb, wb[n]) for n in _tabs(wb)))


def _tabs(wb: Any) -> list[str]:
    return [n for n in wb.sheetnames if not n.startswith(META_TAB)]
