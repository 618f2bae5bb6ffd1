"""The WebDAV adapter: the xlsx adapter's workbooks, each in a folder of its own on a WebDAV server.

A game's root folder (``[webdav] url``) holds one folder per workbook, named as the xlsx adapter names its
files (``03-小明/03-小明.xlsx``, ``public/...``, the director's own): the director shares each player's folder with
that player alone in the service's app (Nutstore 坚果云, Nextcloud); the player opens the workbook from the synced
folder, types, saves. Everything else is the xlsx adapter's: the same codec on the bytes fetched and put, the
same protections in force in the file, the same batch.

Never over a newer save: a workbook is read with its ETag, and written with ``If-Match`` that ETag; a 412 means
the player saved meanwhile: the newer file is read and this gateway's changes since the read made again on it
(``XlsxGateway._redo``), then written with the new ETag. For a server that ignores ``If-Match`` (``doctor`` tries
it on a scratch file; ``if_match = false`` in game.toml), the ETag and modified time are compared again right
before the write instead: what remains is the time between that look and the write (one round trip).

Costs: a read is one GET (a workbook read again within a run: a GET with If-None-Match, answered 304 without a
body); a write one PUT (a workbook not read in this run first GETs it); creating one MKCOL more. The record of
file names is ``files.json`` in the root folder, read once per run.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from sheetgm.backends import port
from sheetgm.backends.errors import (
    BackendError,
    FileError,
    MissingWorkbookError,
    OpError,
    WorkbookExistsError,
)
from sheetgm.backends.webdav.client import DavClient, PreconditionFailed
from sheetgm.backends.xlsx.book import Book, Sheet
from sheetgm.backends.xlsx.gateway import _KEY, FILES, XlsxGateway, parse, read_file, safe_name
from sheetgm.backends.xlsx.write import write_book

_NEW = (0, 0, 0)  # the xlsx adapter's stamp of a workbook it created (no file read)
TRIES = 5


class ChangingError(FileError):
    """The file changed again and again while sheetgm saved it (params: url, tries)."""

    code = "err.backend.webdav.changing"


class WebDavGateway(XlsxGateway):
    def __init__(self, client: DavClient, names: Mapping[str, str] | None = None, if_match: bool = True) -> None:
        super().__init__(Path(), names)
        self.client = client
        self.if_match = if_match  # False: the server ignores If-Match (doctor found it): look again before a write
        self._modified: dict[str, float | None] = {}  # key -> the modified time of the version read
        self._folders: set[str] = set()  # folders made or seen in this run

    # -- file names: "<folder>/<file>.xlsx" relative to the root ---------------

    def _recorded(self) -> dict[str, str]:
        if self._files is None:
            try:
                got = self.client.get(FILES)
            except MissingWorkbookError:
                got = None
            data: object = {}
            if got is not None:
                try:
                    data = json.loads(got[0].decode("utf-8"))
                except ValueError as exc:
                    raise FileError(path=self.client.url(FILES), detail=f"{type(exc).__name__}: {exc}") from exc
            if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
                raise FileError("err.backend.file.bad_record", path=self.client.url(FILES))
            self._files = {k: v for k, v in data.items() if ".." not in v and not v.startswith("/")}
            self._files.update(self._unrecorded)
        return self._files

    def path(self, key: str) -> Path:
        if not _KEY.match(key) or key.endswith(".xlsx"):
            raise OpError(op="workbook key", detail=f"'{key}' must be letters, digits, '-', '_' or '.'")
        name = self._recorded().get(key)
        if name is None:
            stem = safe_name(self.names.get(key, key))
            taken = {n.split("/")[0].casefold() for k, n in self._recorded().items() if k != key}
            if stem.casefold() in taken:
                stem = f"{stem} ({key})"
            name = f"{stem}/{stem}.xlsx"
        return Path(name)

    def _record(self, key: str, path: Path) -> None:
        files = self._recorded()
        name = path.as_posix()
        if files.get(key) == name or name == f"{key}/{key}.xlsx":
            return
        files[key] = name
        if self._depth:
            self._unrecorded[key] = name
        else:
            self._write_record(files)

    def _write_record(self, files: dict[str, str]) -> None:
        text = json.dumps(files, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
        self.client.put(FILES, text.encode("utf-8"))

    # -- load and save ------------------------------------------------------

    def _load(self, key: str) -> Book:
        if key in self._dirty:
            return self._books[key][2]
        path = self.path(key)
        cached = self._books.get(key)
        known = cached[0] if cached is not None and cached[1] == path and isinstance(cached[0], str) else ""
        failed = self._failed.get(key)
        try:
            got = self.client.get(path.as_posix(), known or None)
        except MissingWorkbookError:
            raise MissingWorkbookError(key=key) from None
        if got is None and cached is not None:
            return cached[2]  # 304: still the version read
        if got is None:
            raise MissingWorkbookError(key=key)
        data, etag, modified = got
        if failed is not None and failed[1] == path and failed[0] == etag and etag:
            raise failed[2]
        try:
            book = parse(data, self.client.url(path.as_posix()))
        except Exception as exc:
            from sheetgm.backends.errors import UnreadableFileError

            if isinstance(exc, UnreadableFileError):
                self._failed[key] = (etag, path, exc)
            raise
        self.loads += 1
        self._books[key] = (etag, path, book)
        self._modified[key] = modified
        self._redo.pop(key, None)
        return book

    def _save(self, key: str, book: Book) -> None:
        """Put the workbook only if the server's file is still the version read; else read the newer one, make
        this gateway's changes since the read again on it, and put that."""
        path = self.path(key)
        where = path.as_posix()
        read_from = self._books[key][0]
        try:
            for _ in range(TRIES):
                data = write_book(book)
                try:
                    if read_from == _NEW:
                        self._folder(where)
                        etag = self.client.put(where, data, create=True)
                    else:
                        etag = self._put_if_same(key, where, data, str(read_from))
                    break
                except PreconditionFailed:
                    if read_from == _NEW:
                        raise WorkbookExistsError(key=key) from None
                got = self.client.get(where)
                assert got is not None
                book = parse(got[0], self.client.url(where))
                read_from, self._modified[key] = got[1], got[2]
                for change in self._redo.get(key, ()):
                    change(book)
                self.loads += 1
                self.redone += 1
            else:
                raise ChangingError(url=self.client.url(where), tries=TRIES, path=where)
        except BaseException:
            self._books.pop(key, None)
            self._redo.pop(key, None)
            raise
        self.saves += 1
        self._redo.pop(key, None)
        self._books[key] = (etag, path, book)  # "" (no ETag sent back): the next load reads the file whole
        self._modified.pop(key, None)

    def _put_if_same(self, key: str, where: str, data: bytes, etag: str) -> str:
        # the server ignores If-Match, sent no ETag, or a weak one (Apache within a second of a write: If-Match
        # compares strongly, so a weak ETag never matches): look right before
        if not self.if_match or not etag or etag.startswith("W/"):
            now = self.client.propfind(where, 0)[0]
            if _bare(now.etag) != _bare(etag) or (
                    now.modified is not None and self._modified.get(key) not in (None, now.modified)):
                raise PreconditionFailed(where)
            return self.client.put(where, data)
        return self.client.put(where, data, if_match=etag)

    def _folder(self, where: str) -> None:
        folder = where.rpartition("/")[0]
        if folder and folder not in self._folders:
            self.client.mkcol(folder)
            self._folders.add(folder)

    # -- the port -------------------------------------------------------------

    def exists(self, key: str) -> bool:
        if key in self._dirty:
            return True
        try:
            self.client.propfind(self.path(key).as_posix(), 0)
        except MissingWorkbookError:
            return False
        return True

    def create(self, key: str, title: str, tabs: Sequence[str]) -> None:
        self._files = None  # read again: another process may have added a workbook since
        if self.exists(key):
            raise WorkbookExistsError(key=key)
        port.check_tabs(tabs)
        book = Book(title, [Sheet(name) for name in tabs])
        self._store(book, [])
        path = self.path(key)
        self._record(key, path)
        self._books[key] = (_NEW, path, book)
        self._commit(key, book)

    def url(self, key: str) -> str | None:
        if not self.exists(key):
            raise MissingWorkbookError(key=key)
        return self.client.url(self.path(key).as_posix())

    def notices(self, key: str) -> list[BackendError]:
        return []

    def copies(self, key: str) -> list[port.WorkbookCopy]:
        """Every other .xlsx in the workbook's own folder (one listing: PROPFIND, depth 1), newest first."""
        path = self.path(key)
        folder = path.parent.as_posix()
        if folder in ("", "."):
            return []
        try:
            entries = self.client.propfind(folder + "/", 1)
        except MissingWorkbookError:
            return []
        main = next((e for e in entries if e.path.rstrip("/").rsplit("/", 1)[-1] == path.name and not e.folder), None)
        self._seen_main[key] = (main.etag, main.modified) if main is not None else None
        found = []
        for e in entries:
            name = e.path.rstrip("/").rsplit("/", 1)[-1]
            if e.folder or name == path.name or not name.casefold().endswith(".xlsx") or name.startswith(("~$", ".")):
                continue
            when = e.modified or 0.0
            found.append(port.WorkbookCopy(name, when, main is None or when > (main.modified or 0.0)))
        return sorted(found, key=lambda c: (-c.modified, c.name))

    def _copy_bytes(self, key: str, name: str) -> tuple[bytes, str]:
        where = f"{self.path(key).parent.as_posix()}/{name}"
        got = self.client.get(where)
        if got is None:
            raise MissingWorkbookError(key=where)
        return got[0], self.client.url(where)

    def read_copy(self, key: str, name: str, ranges: Sequence[str]) -> dict[str, list[list[str]]]:
        data, where = self._copy_bytes(key, name)
        return read_file(data, where, ranges)

    def adopt(self, key: str, name: str) -> None:
        data, where = self._copy_bytes(key, name)
        parse(data, where)
        seen = self._seen_main.get(key)
        path = self.path(key).as_posix()
        try:
            if isinstance(seen, tuple) and seen[0] and self.if_match and not str(seen[0]).startswith("W/"):
                self.client.put(path, data, if_match=str(seen[0]))
            else:
                now = self.client.propfind(path, 0)[0]
                if not isinstance(seen, tuple) or _bare(now.etag) != _bare(str(seen[0])):
                    raise PreconditionFailed(path)
                self.client.put(path, data)
        except PreconditionFailed:
            raise ChangingError(url=self.client.url(path), tries=1, path=path) from None
        self._books.pop(key, None)
        self._redo.pop(key, None)


def _bare(etag: str) -> str:
    """An ETag as compared: a server may quote it in one answer and not in another, or mark it weak."""
    return etag.removeprefix("W/").strip('"')
