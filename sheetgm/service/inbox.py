"""`sheetgm inbox FOLDER`: a local game's returned attachments filed into their seats by their seals.

The director drops every workbook the players sent back (by mail, QQ, a download: ``03-Ann (1).xlsx``,
``Ann.xlsx``, ``新建 Microsoft Excel 工作表.xlsx``) into one folder, under whatever name it came. Each file is read
(as the xlsx adapter reads any player's file: sizes bounded, damage named); its Orders tab's identity cell says
whose workbook it is, sealed with the game's secret. A file sealed for a seat of this game is filed as that seat's
workbook, replacing it atomically; of several for one seat the newest save wins (the time the player's program
wrote in the file, else the file's own time; between equal ones, the file's time) and the others are named as
older copies to delete. The file's name says nothing: a seat's seal under another seat's name is filed as the
seal says. A file without an identity, or with another game's or a forged seal, is refused and named as what
it is. A file older than the one last filed for that seat is not filed again
(``inbox.json`` in the game folder remembers each seat's last filed save). Nothing in FOLDER is changed.
"""

from __future__ import annotations

import json
import re
import zipfile
from datetime import UTC, datetime
from io import BytesIO
from pathlib import Path
from typing import Any

from sheetgm.backends.errors import BackendError
from sheetgm.backends.xlsx.gateway import XlsxGateway, read_file
from sheetgm.backends.xlsx.package import LIMITS
from sheetgm.core.texts import render
from sheetgm.core.values import Value, field, record
from sheetgm.service.errors import ServiceError
from sheetgm.service.game import Game, player_key
from sheetgm.sheets import layout
from sheetgm.sheets.seals import identity_of

RECORD = "inbox.json"
_MODIFIED = re.compile(rb"<dcterms:modified[^>]*>([^<]+)</dcterms:modified>")


@record
class InboxReport:
    filed: list[dict[str, Any]] = field(default_factory=list)  # file, seat, alias, saved
    refused: list[dict[str, str]] = field(default_factory=list)  # file, why
    lines: list[str] = field(default_factory=list)  # what to print, in the director's language

    def to_dict(self) -> dict[str, Any]:
        return {"filed": self.filed, "refused": self.refused}


@record(frozen=True)
class _Found(Value):
    path: Path
    data: bytes
    seat: int
    saved: datetime
    mtime: float  # the file's own time: decides between copies whose programs wrote the same save time


def saved_at(data: bytes, path: Path) -> datetime:
    """When the player's program saved the file (docProps/core.xml ``dcterms:modified``), else the file's time."""
    try:
        with zipfile.ZipFile(BytesIO(data)) as z:
            found = _MODIFIED.search(z.read("docProps/core.xml")[:65536])
        if found:
            when = datetime.fromisoformat(found.group(1).decode("ascii").strip().replace("Z", "+00:00"))
            return when if when.tzinfo else when.replace(tzinfo=UTC)
    except (KeyError, ValueError, OSError, zipfile.BadZipFile, UnicodeDecodeError):
        pass
    return datetime.fromtimestamp(path.stat().st_mtime, UTC)


def inbox(game: Game, folder: Path) -> InboxReport:
    gw = game.gateway
    if not isinstance(gw, XlsxGateway) or game.cfg.backend != "xlsx":
        raise ServiceError("err.svc.inbox.not_local", backend=game.cfg.backend)
    if not folder.is_dir():
        raise ServiceError("err.svc.inbox.no_folder", folder=str(folder))
    voice, rep = game.voice, InboxReport()
    found: dict[int, list[_Found]] = {}
    for path in sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith((".", "~$"))):
        why, got = _identify(game, path)
        if got is None:
            rep.refused.append({"file": path.name, "why": why})
            rep.lines.append(render(voice, "svc.inbox.refused", file=path.name, why=why))
        else:
            found.setdefault(got.seat, []).append(got)
    record = _record(game)
    for seat, copies in sorted(found.items()):
        copies.sort(key=lambda f: (f.saved, f.mtime, f.path.name), reverse=True)
        newest = copies[0]
        alias, key = game.alias(seat), player_key(seat)
        for older in copies[1:]:
            rep.refused.append({"file": older.path.name, "why": "older"})
            rep.lines.append(render(voice, "svc.inbox.older", file=older.path.name, seat=seat, alias=alias,
                                    newer=newest.path.name))
        last = record.get(key)
        if last is not None and newest.saved <= datetime.fromisoformat(last):
            rep.refused.append({"file": newest.path.name, "why": "not newer"})
            rep.lines.append(render(voice, "svc.inbox.not_newer", file=newest.path.name, seat=seat, alias=alias,
                                    saved=newest.saved.isoformat(timespec="seconds"), last=last))
            continue
        target = gw.replace_file(key, newest.data)
        record[key] = newest.saved.isoformat(timespec="seconds")
        rep.filed.append({"file": newest.path.name, "seat": seat, "alias": alias,
                          "saved": record[key], "workbook": target.name})
        rep.lines.append(render(voice, "svc.inbox.filed", file=newest.path.name, seat=seat, alias=alias,
                                workbook=target.name, saved=record[key]))
    if rep.filed:
        (game.folder / RECORD).write_text(json.dumps(record, indent=2, sort_keys=True) + "\n", "utf-8")
    rep.lines.append(render(voice, "svc.inbox.summary", filed=len(rep.filed), refused=len(rep.refused)))
    return rep


def _identify(game: Game, path: Path) -> tuple[str, _Found | None]:
    """Whose workbook the file is, or why it is not one to file (in the director's language)."""
    voice = game.voice
    try:
        size = path.stat().st_size
        if size > LIMITS.file_bytes:
            return render(voice, "svc.inbox.too_large", mb=f"{size / 2**20:.1f}"), None
        data = path.read_bytes()
        ranges = [layout.rng(layout.tab(lang, "orders"), layout.IDENTITY_CELL) for lang in ("zh", "en")]
        cells = read_file(data, str(path), ranges)
    except BackendError as exc:
        return exc.message(voice), None
    except OSError as exc:
        return f"{type(exc).__name__}: {exc.strerror or exc}", None
    texts = [rows[0][0] for rows in cells.values() if rows and rows[0]]
    if not texts:
        return render(voice, "svc.inbox.no_identity"), None
    key, sealed = identity_of(texts[0], game.secret(), game.cfg.name)
    seat = int(key.split("-")[1]) if key and key.startswith("player-") and key.split("-")[1].isdigit() else 0
    if key is None:
        return render(voice, "svc.inbox.no_identity"), None
    if not sealed or not 1 <= seat <= len(game.seats):
        return render(voice, "svc.inbox.forged", key=key), None
    return "", _Found(path, data, seat, saved_at(data, path), path.stat().st_mtime)


def _record(game: Game) -> dict[str, str]:
    try:
        data = json.loads((game.folder / RECORD).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, str)} if isinstance(data, dict) else {}
