"""Where a game remembers which Google spreadsheet holds which workbook key.

A small JSON file in the game folder (``{"director": "1AbC...", ...}``),
written atomically on every change. Spreadsheet ids are not secrets, but the
files stay private because Drive shares them only with their players.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, MutableMapping
from pathlib import Path

from sheetgm.backends.errors import BackendError


class JsonIdMap(MutableMapping[str, str]):
    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._ids: dict[str, str] = {}
        if self.path.exists():
            try:
                data = json.loads(self.path.read_text("utf-8"))
            except (OSError, ValueError) as exc:
                raise BackendError("err.backend.api", key=str(self.path), status="-", detail=str(exc)) from None
            if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
                raise BackendError("err.backend.api", key=str(self.path), status="-", detail="not a key -> id object")
            self._ids = dict(data)

    def __getitem__(self, key: str) -> str:
        return self._ids[key]

    def __setitem__(self, key: str, value: str) -> None:
        self._ids[key] = value
        self._save()

    def __delitem__(self, key: str) -> None:
        del self._ids[key]
        self._save()

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(self._ids, indent=2, sort_keys=True) + "\n", "utf-8")
        os.replace(tmp, self.path)
