"""The local adapter: one real .xlsx file per workbook key in a game folder.

Files open in LibreOffice and Excel. A protection is in force in the file
itself (``lock.py``): the tab's sheet protection, locked with the game's
password (``password_source``; the players never have it), every cell locked
but the open ones, rows and structure closed. A file protects whole tabs only:
a protection of part of a tab is refused. What a file cannot express (the
protection's editors and description, the sharing list) is kept in a hidden
``_sheetgm`` tab, and ``protections`` reads what the file enforces, whatever
that tab says.

Speed: a workbook is parsed once per gateway and kept, and parsed again only
when its file changed (another process, or a person in LibreOffice, saved it:
its modification time, size or inode differ). Every ``write`` applies all its
ops and saves once. The large tabs of a file sheetgm wrote (a player's Current
and Map history) are parsed only when their cells are asked for, and rows
written after them (a stage's new Map history block) leave them unparsed
(``book.Pending``): reading the orders parses the Orders and Results tabs only.

Safety: a save writes a uniquely named temporary file in the same folder,
fsyncs it and ``os.replace``s it over the workbook, so a reader (or a second
process) sees the old file or the new one, never a torn one, whatever else
runs; a failing op leaves the file untouched.

Never over a newer save: a file is replaced only if it is still the file its workbook was read from (its stamp
compared right before the rename, under a lock of the file that other sheetgm processes take too). A sync
client (Nutstore, OneDrive, Dropbox) or a player that saved meanwhile, inside a batch too, makes the save read
the newer file and apply this gateway's changes since the read to it again (``_redo``): the player's save and
sheetgm's writes both land. What remains is the time between that comparison and the rename (microseconds).

Files players produce: a file that is not a readable workbook (another format under the .xlsx name, a
password, damage, more than a workbook may hold: ``package.Limits``) raises ``UnreadableFileError`` naming
the file and what to do, read once per run; a copy in another format beside the file (``03-Ann.ods``) is
told through ``notices``; a file that is missing while such a copy is there is named as that copy.

File names: a workbook's file is named when it is created, from the name the
caller suggests for its key (``03-小明``, ``spring-cup-director``), made safe
for every file system; the key -> file map is recorded in ``files.json`` in
the folder, so a later rename of an alias does not lose a file. A folder made
before names existed keeps its ``<key>.xlsx`` files.
"""

from __future__ import annotations

import functools
import json
import os
import re
import sys
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from itertools import compress, repeat
from operator import attrgetter, itemgetter
from pathlib import Path

from sheetgm.backends import port
from sheetgm.backends.a1 import A1, format_range, normalize, parse_range
from sheetgm.backends.errors import (
    BackendError,
    FileError,
    FileNotice,
    MissingTabError,
    MissingWorkbookError,
    OpError,
    UnreadableFileError,
    UnusableWorkbookError,
    WorkbookExistsError,
)
from sheetgm.backends.xlsx import cells as xlsx_cells
from sheetgm.backends.xlsx import fresh, images, lock
from sheetgm.backends.xlsx.book import Book, Cell, Sheet, text_of
from sheetgm.backends.xlsx.deflate import inflate
from sheetgm.backends.xlsx.package import LIMITS, MiB, Part, refuse
from sheetgm.backends.xlsx.read import read_book
from sheetgm.backends.xlsx.siblings import siblings
from sheetgm.backends.xlsx.write import write_book

META_TAB = "_sheetgm"
FILES = "files.json"
_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$")
_UNSAFE = r'[\x00-\x1f\x7f<>:"/\\|?*]+'  # (compiled when a workbook is created)
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}
RECORD_COLS = 5  # kind, range or email, editors or role, description, open ranges (one a line)


def safe_name(name: str) -> str:
    """A file name stem that every common file system accepts: no separators, reserved characters or
    names, no leading or trailing dots and spaces, at most 80 characters. Letters of any script stay."""
    stem = re.sub(_UNSAFE, "_", unicodedata.normalize("NFC", name)).strip(" .")[:80].strip(" .")
    if not stem or stem.split(".")[0].lower() in _RESERVED:
        stem = f"_{stem}"
    return stem


class XlsxGateway(port.Gateway):
    places_pictures = True

    def __init__(self, folder: Path | str, names: Mapping[str, str] | None = None) -> None:
        self.folder = Path(folder)
        self.names = dict(names or {})  # key -> suggested file name (without .xlsx) for workbooks to create
        self._files: dict[str, str] | None = None
        self._unrecorded: dict[str, str] = {}  # inside a batch: names of workbooks created, recorded at the flush
        # key -> the stamp of the file read (a local file's (mtime, size, inode); a WebDAV file's ETag), the file,
        # the workbook parsed
        self._books: dict[str, tuple[object, Path, Book]] = {}
        self._failed: dict[str, tuple[object, Path, UnreadableFileError]] = {}
        self._dirty: dict[str, None] = {}  # inside a batch: workbooks changed and not saved yet, in order
        # The changes made to each kept workbook since its file was read, to make again on a newer file
        self._redo: dict[str, list[Callable[[Book], None]]] = {}
        self.redone = 0  # saves that found a newer file and made their changes again on it
        self._seen_main: dict[str, object] = {}  # key -> the workbook's stamp when ``copies`` looked
        self._depth = 0
        self.loads = 0  # files parsed, and saved, by this gateway (benchmarks count them)
        self.saves = 0
        self._password: str | None = None

    # -- file names -------------------------------------------------------

    def _recorded(self) -> dict[str, str]:
        if self._files is None:
            record = self.folder / FILES
            try:
                data = json.loads(record.read_text("utf-8"))
            except FileNotFoundError:
                data = {}
            except (OSError, ValueError) as exc:
                raise FileError(path=str(record), detail=f"{type(exc).__name__}: {exc}") from exc
            if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
                raise FileError("err.backend.file.bad_record", path=str(record))
            self._files = {k: v for k, v in data.items() if "/" not in v and "\\" not in v}
            self._files.update(self._unrecorded)
        return self._files

    def path(self, key: str) -> Path:
        if not _KEY.match(key) or key.endswith(".xlsx"):
            raise OpError(op="workbook key", detail=f"'{key}' must be letters, digits, '-', '_' or '.'")
        name = self._recorded().get(key)
        if name is None:
            plain = f"{key}.xlsx"
            name = plain if key not in self.names or (self.folder / plain).exists() else self._new_name(key)
        return self.folder / name

    def _new_name(self, key: str) -> str:
        taken = {n.casefold() for k, n in self._recorded().items() if k != key}
        stem = safe_name(self.names[key])
        name = f"{stem}.xlsx"
        if name.casefold() in taken:
            name = f"{stem} ({key}).xlsx"
        return name

    def _record(self, key: str, path: Path) -> None:
        """Record the workbook's file name: now, or inside a batch once at its flush, before any file is saved
        (a game's creation records every workbook in one write, not one write a workbook)."""
        files = self._recorded()
        if path.name == f"{key}.xlsx" or files.get(key) == path.name:
            return
        files[key] = path.name
        if self._depth:
            self._unrecorded[key] = path.name
        else:
            self._write_record(files)

    def _write_record(self, files: dict[str, str]) -> None:
        text = json.dumps(files, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
        _replace(self.folder / FILES, text.encode("utf-8"))

    # -- load and save ----------------------------------------------------

    def _load(self, key: str) -> Book:
        """The workbook, parsed again only if its file changed since this gateway last read or wrote it."""
        if key in self._dirty:
            return self._books[key][2]
        path = self.path(key)
        try:
            st = os.stat(path)
        except FileNotFoundError:
            raise self._missing(key, path) from None
        except OSError as exc:
            raise FileError(path=str(path), detail=f"{type(exc).__name__}: {exc}") from exc
        cached = self._books.get(key)
        stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
        if cached is not None and cached[1] == path and cached[0] == stamp:
            return cached[2]
        failed = self._failed.get(key)
        if failed is not None and failed[1] == path and failed[0] == stamp:
            raise failed[2]  # the same unreadable file: not read again within this run
        try:
            book, stamp = self._read(key, path)
        except UnreadableFileError as exc:
            self._failed[key] = (stamp, path, exc)
            raise
        self.loads += 1
        self._books[key] = (stamp, path, book)
        self._redo.pop(key, None)
        return book

    def _read(self, key: str, path: Path) -> tuple[Book, tuple[int, int, int]]:
        """The file parsed, and the stamp of the very file read (another process may replace it meanwhile)."""
        try:
            with open(path, "rb") as f:
                st = os.fstat(f.fileno())
                if st.st_size > LIMITS.file_bytes:  # refused before it is read
                    raise refuse("too_large", size=f"{st.st_size / MiB:.1f}", limit=f"{LIMITS.file_bytes / MiB:.1f}")
                data = f.read(LIMITS.file_bytes + 1)
        except FileNotFoundError:
            raise self._missing(key, path) from None
        except UnreadableFileError as exc:
            raise UnreadableFileError(exc.code, **{**exc.params, "path": str(path)}) from exc
        except OSError as exc:
            raise FileError(path=str(path), detail=f"{type(exc).__name__}: {exc}") from exc
        return parse(data, str(path)), (st.st_mtime_ns, st.st_size, st.st_ino)

    @staticmethod
    def _missing(key: str, path: Path) -> UnusableWorkbookError:
        """No file for the workbook: named as missing, or as a copy in another format when there is one."""
        others = siblings(path)
        if others:
            return UnreadableFileError("err.backend.file.only_other", path=str(path), sibling=others[0].name,
                                       name=path.name)
        return MissingWorkbookError(key=key)

    def notices(self, key: str) -> list[BackendError]:
        """A copy of the workbook in another format beside its file (an .ods the player saved...): named."""
        path = self.path(key)
        return [FileNotice(path=str(path), sibling=other.name, name=path.name) for other in siblings(path)]

    def _save(self, key: str, book: Book) -> None:
        """Replace the file only if it is still the one the workbook was read from; else read the newer one,
        make this gateway's changes since the read again on it and try again (a player saves rarely twice
        within a second: a few tries suffice)."""
        path = self.path(key)
        read_from = self._books[key][0]
        try:
            with _file_lock(path):  # (held throughout: another sheetgm process saving this file waits its turn)
                for _ in range(_TRIES):
                    data = write_book(book)
                    now = _stamp(path)
                    if now == read_from or (now is None and read_from == _NEW):
                        st = _replace(path, data)
                        break
                    if read_from == _NEW:
                        raise WorkbookExistsError(key=key)
                    book, read_from = self._read(key, path)  # a newer save: read, our changes made again on it
                    for change in self._redo.get(key, ()):
                        change(book)
                    self.loads += 1
                    self.redone += 1
                else:
                    raise FileError("err.backend.file.changed_while_saved", path=str(path), tries=_TRIES)
        except BaseException:
            self._books.pop(key, None)
            self._redo.pop(key, None)
            raise
        self.saves += 1
        self._redo.pop(key, None)
        self._books[key] = ((st.st_mtime_ns, st.st_size, st.st_ino), path, book)

    def replace_file(self, key: str, data: bytes) -> Path:
        """Put ``data`` (a whole workbook file, already read and checked by the caller: a player's returned
        attachment) in place of the workbook's file, atomically, under the file's lock; what was kept of the old
        one is dropped. Returns the file."""
        path = self.path(key)
        if key in self._dirty:
            raise OpError(op="replace_file", detail=f"'{key}' has unsaved writes in this batch")
        with _file_lock(path):
            _replace(path, data)
        self._books.pop(key, None)
        self._redo.pop(key, None)
        return path

    def copies(self, key: str) -> list[port.WorkbookCopy]:
        """Files in the folder named as the workbook's with what a sync client or a download adds (`` (1)``,
        ``-conflict-…``, `` (conflicted copy …)``, ``-HOSTNAME``), newest first."""
        path = self.path(key)
        stem = path.stem.casefold()
        try:
            main = os.stat(path).st_mtime
            names = os.listdir(path.parent)
        except OSError:
            return []
        found = []
        for name in names:
            p = Path(name)
            rest = p.stem[len(stem):] if p.stem.casefold().startswith(stem) else ""
            if name == path.name or p.suffix.casefold() != ".xlsx" or not rest or not _COPY_TAIL.match(rest):
                continue
            try:
                when = os.stat(path.parent / name).st_mtime
            except OSError:
                continue
            found.append(port.WorkbookCopy(name, when, when > main))
        self._seen_main[key] = _stamp(path)
        return sorted(found, key=lambda c: (-c.modified, c.name))

    def read_copy(self, key: str, name: str, ranges: Sequence[str]) -> dict[str, list[list[str]]]:
        where = self.path(key).parent / name
        try:
            data = where.read_bytes()
        except OSError as exc:
            raise FileError(path=str(where), detail=f"{type(exc).__name__}: {exc}") from exc
        return read_file(data, str(where), ranges)

    def adopt(self, key: str, name: str) -> None:
        path = self.path(key)
        data = (path.parent / name).read_bytes()
        parse(data, str(path.parent / name))  # a readable workbook, or UnreadableFileError naming the copy
        with _file_lock(path):
            if _stamp(path) != self._seen_main.get(key):
                raise FileError("err.backend.file.changed_while_adopted", path=str(path))
            _replace(path, data)
        self._books.pop(key, None)
        self._redo.pop(key, None)

    def release(self, key: str) -> None:
        """Let the parsed workbook go once saved (publishing writes 160 of them, each ~1.5 MB parsed); one with
        writes not saved yet (inside a batch) is kept."""
        if key not in self._dirty:
            self._books.pop(key, None)

    def lock_password(self) -> str | None:
        """The game's password (asked of ``password_source`` once), None without a source."""
        if self._password is None and self.password_source is not None:
            self._password = self.password_source()
        return self._password

    @staticmethod
    def _records(book: Book) -> list[list[str]]:
        meta = book.sheet(META_TAB)
        if meta is None:
            return []
        rows = sorted({r for r, _c in meta.cells})
        found = [[text_of(book, meta.cells.get((r, c))) for c in range(RECORD_COLS)] for r in rows]
        return [row for row in found if row[0]]

    def _store(self, book: Book, records: list[list[str]], password: str | None = None,
               protecting: bool = False, before: list[list[str]] | None = None) -> None:
        """Write the records; with ``protecting`` (a write that protects or unprotects), put every recorded
        protection in force in the file (``lock.py``) and lift the ones removed, a person's own left alone."""
        meta = book.sheet(META_TAB)
        if meta is None:
            meta = Sheet(META_TAB)
            book.sheets.append(meta)
        meta.state = "hidden"
        if before is None:  # (the records as they stand, read by the caller already or now)
            before = self._records(book)
        if before != records:
            meta.cells = {(r, c): Cell("s", v) for r, row in enumerate(records) for c, v in enumerate(row) if v}
            meta.touch()
        if not protecting:
            return
        ours = _whole_tabs(records)
        dropped = set(_whole_tabs(before)) - set(ours)
        for sheet in book.sheets:
            if sheet.name in ours:
                _enforce(book, sheet, ours[sheet.name], password)
            elif sheet.name in dropped and lock.is_on(sheet.protection):
                sheet.protection = None
                sheet.touch()
        if ours:
            structure = lock.structure_lock(book.structure, password)
            if structure is not None:
                book.structure = structure

    @staticmethod
    def _sheet(book: Book, rng: A1, key: str = "?") -> Sheet:
        sheet = book.sheet(rng.tab)
        if sheet is None or rng.tab.startswith(META_TAB):
            raise MissingTabError(range=format_range(rng), tab=rng.tab, key=key)
        return sheet

    def _change(self, key: str, book: Book, change: Callable[[Book], None]) -> None:
        """Apply ``change`` to the kept workbook and save it (at the end of the batch, inside one). Ops are
        checked before, so this does not fail; if it still does, the kept copy is dropped (with the unsaved
        writes of the batch to it): the file is untouched and is read again next time. The change is kept
        until the save, to be made again on a newer file (``_save``)."""
        try:
            change(book)
        except BaseException:
            self._books.pop(key, None)
            self._dirty.pop(key, None)
            self._redo.pop(key, None)
            raise
        self._redo.setdefault(key, []).append(change)
        self._commit(key, book)

    def _commit(self, key: str, book: Book) -> None:
        if self._depth:
            self._dirty[key] = None
        else:
            self._save(key, book)

    @contextmanager
    def batch(self) -> Iterator[None]:
        self._depth += 1
        finished = False
        try:
            yield
            finished = True
        finally:
            self._depth -= 1
            if not self._depth and finished:
                self._flush()
            elif not self._depth:
                self._drop()

    def _flush(self) -> None:
        """Save every workbook the batch changed, once, in the order they were first changed, after the record
        of the names of those it created (a file is never left without its record)."""
        try:
            if self._unrecorded:
                self._files = None  # read again, with the names to record: another process may have added some
                self._write_record(self._recorded())
                self._unrecorded.clear()
            for key in list(self._dirty):
                self._save(key, self._books[key][2])
                del self._dirty[key]
        except BaseException:
            self._drop()
            raise

    def _drop(self) -> None:
        for key in self._dirty:
            self._books.pop(key, None)
            self._redo.pop(key, None)
        self._dirty.clear()
        if self._unrecorded:  # the record on disk never had them
            self._unrecorded.clear()
            self._files = None

    @staticmethod
    def _check_tabs(key: str, book: Book, ops: Sequence[port.Op], ranges: list[list[A1]]) -> None:
        """Every op's tab exists (or an earlier AddTab makes it): so applying the ops cannot stop half-way."""
        names = {s.name for s in book.sheets if not s.name.startswith(META_TAB)}
        if set(map(attrgetter("tab"), map(itemgetter(0), filter(None, ranges)))) <= names:  # (looked at in C)
            return  # every tab there already (a stage's ops: hundreds, on a few tabs)
        for op, found in zip(ops, ranges, strict=True):
            if isinstance(op, port.AddTab):
                names.add(op.name)
            elif found and found[0].tab not in names:
                raise MissingTabError(range=format_range(found[0]), tab=found[0].tab, key=key)

    # -- the port ---------------------------------------------------------

    def exists(self, key: str) -> bool:
        return key in self._dirty or self.path(key).exists()

    def create(self, key: str, title: str, tabs: Sequence[str]) -> None:
        self._files = None  # the record read again: another process may have added a workbook to it since
        if self.exists(key):
            raise WorkbookExistsError(key=key)
        port.check_tabs(tabs)
        book = Book(title, [Sheet(name) for name in tabs])
        self._store(book, [])
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.path(key)
        self._record(key, path)  # before the file: a file is never left without its record
        self._books[key] = (_NEW, path, book)
        self._commit(key, book)

    def tabs(self, key: str) -> list[str]:
        return _tabs(self._load(key))

    def read(self, key: str, ranges: Sequence[str]) -> dict[str, list[list[str]]]:
        parsed = [parse_range(text) for text in ranges]
        book = self._load(key)
        return {text: xlsx_cells.read(book, self._sheet(book, rng, key), rng)
                for text, rng in zip(ranges, parsed, strict=True)}

    def write(self, key: str, ops: Sequence[port.Op]) -> None:
        # every op checked, each range parsed once; a longer text than Excel's cell limit is refused, not cut
        ranges = port.check_ops(ops, port.XLSX_CELL_LIMIT)
        if not ops:
            return
        # (a stage's ops are ~1,000 of a few kinds: the protections picked out, and the kinds seen, in C)
        for op, found in compress(zip(ops, ranges, strict=True), map(isinstance, ops, repeat(port.Protect))):
            assert isinstance(op, port.Protect)
            if not found[0].whole_tab:
                raise OpError(op="Protect", detail=f"an .xlsx file protects whole tabs (leaving cells open), "
                                                   f"not part of one: {op.range}")
        protecting = any(issubclass(kind, port.Protect | port.Unprotect) for kind in set(map(type, ops)))
        password = self.lock_password() if protecting else None  # before the file: the source may read another
        book = self._load(key)
        self._check_tabs(key, book, ops, ranges)
        self._change(key, book, lambda b: self._apply(b, ops, ranges, password, protecting))

    def _apply(self, book: Book, ops: Sequence[port.Op], ranges: list[list[A1]], password: str | None,
               protecting: bool) -> None:
        records = before = self._records(book)  # (``records`` made anew below, never changed in place)
        formats, n, i = xlsx_cells.FORMAT_OPS, len(ops), 0
        while i < n:
            op, found = ops[i], ranges[i]
            i += 1
            if isinstance(op, formats) and found[0].bounded:
                # consecutive format ops with bounded ranges on one tab (a map's hundreds): restyled together
                start, tab = i - 1, found[0].tab
                while i < n and isinstance(ops[i], formats) and ranges[i][0].bounded and ranges[i][0].tab == tab:
                    i += 1
                xlsx_cells.restyle_run(book, self._sheet(book, found[0]), tuple(ops[start:i]))
            elif isinstance(op, port.SetValues) and (
                    end := fresh.new_rows(book, self._sheet(book, found[0]), ops, ranges, i - 1)) >= i:
                i = end  # new rows after the unparsed ones (a stage's Map history block), written as XML
            elif isinstance(op, port.AddTab):
                if book.sheet(op.name) is None:
                    book.sheets.append(Sheet(op.name))
            elif isinstance(op, port.PlaceImage):
                images.place(book, self._sheet(book, found[0]), op, found[0])
            elif isinstance(op, port.Protect | port.Unprotect):
                records = [r for r in records if not (r[0] == "protection" and r[3] == op.description)]
                if isinstance(op, port.Protect):
                    records.append(["protection", normalize(op.range), ",".join(op.editors), op.description,
                                    "\n".join(format_range(u) for u in found[1:])])
            else:
                xlsx_cells.apply(book, self._sheet(book, found[0]), op, found[0])
        self._store(book, records, password, protecting, before)

    def pictures(self, key: str) -> dict[str, dict[str, bytes]]:
        return images.pictures(self._load(key))

    def protections(self, key: str) -> list[port.Protection]:
        """What each tab's protection in the file enforces, with the editors and description recorded for it
        (none if the record is gone); tabs of the file protected by hand count too."""
        book = self._load(key)
        password = self.lock_password()
        recorded = {tab: r for r in self._records(book) if r[0] == "protection"
                    and (tab := _whole_tab(r[1])) is not None}
        out = []
        for sheet in book.sheets:
            if sheet.name.startswith(META_TAB) or not lock.is_on(sheet.protection):
                continue
            attrs = sheet.protection or {}
            r = recorded.get(sheet.name, ["", "", "", "", ""])
            out.append(port.Protection(
                format_range(A1(sheet.name)), tuple(e for e in r[2].split(",") if e), r[3],
                unprotected=tuple(xlsx_cells.open_cells(book, sheet)), password=lock.lock_of(attrs, password),
                allows=lock.allows(attrs)))
        return out

    def structure(self, key: str) -> port.Structure:
        """The file's tabs (its hidden ones; sheetgm's own hidden tabs only if someone showed them), the lock on
        its tabs as the game's password sees it, and the program its properties say saved it."""
        book = self._load(key)
        guard = book.structure
        locked = lock.lock_of(guard or {}, self.lock_password(), "workbook") if lock.is_on(guard, "lockStructure") \
            else port.LOCK_NONE
        shown = [s for s in book.sheets if not (s.name.startswith(META_TAB) and s.state != "visible")]
        return port.Structure(tuple(s.name for s in shown), frozenset(s.name for s in shown if s.state != "visible"),
                              locked, "sheetgm" if book.ours else saved_by(book.parts.get("docProps/app.xml")),
                              self.path(key).name)

    def permissions(self, key: str) -> list[port.Permission]:
        found = [port.Permission(r[1], r[2]) for r in self._records(self._load(key)) if r[0] == "permission"]
        return sorted(found, key=lambda p: (p.email, p.role))

    def share(self, key: str, email: str, role: str) -> None:
        port.check_role(role)
        self._set_permission(key, email, role)

    def unshare(self, key: str, email: str) -> None:
        self._set_permission(key, email, None)

    def _set_permission(self, key: str, email: str, role: str | None) -> None:
        def change(book: Book) -> None:
            records = [r for r in self._records(book) if not (r[0] == "permission" and r[1].lower() == email.lower())]
            if role is not None:
                records.append(["permission", email, role, ""])
            self._store(book, records)

        self._change(key, self._load(key), change)

    def url(self, key: str) -> str | None:
        path = self.path(key)
        if not path.exists():
            raise MissingWorkbookError(key=key)
        return path.resolve().as_uri()

    def view(self, key: str) -> port.WorkbookView:
        book = self._load(key)
        return port.WorkbookView(book.title, tuple(xlsx_cells.view(book, s) for s in book.sheets
                                                   if not s.name.startswith(META_TAB)))


def parse(data: bytes, where: str) -> Book:
    """A workbook's bytes parsed; UnreadableFileError naming ``where`` (the file) if they are not one."""
    try:
        if len(data) > LIMITS.file_bytes:
            raise refuse("too_large", size=f"{len(data) / MiB:.1f}", limit=f"{LIMITS.file_bytes / MiB:.1f}")
        return read_book(data)
    except UnreadableFileError as exc:
        raise UnreadableFileError(exc.code, **{**exc.params, "path": where}) from exc
    except Exception as exc:
        # A damaged file may fail in ways no list foresees: each means this one file cannot be read, and
        # says nothing of the others.
        raise UnreadableFileError("err.backend.file.damaged", path=where,
                                  detail=f"{type(exc).__name__}: {str(exc)[:160]}") from exc


def read_file(data: bytes, where: str, ranges: Sequence[str]) -> dict[str, list[list[str]]]:
    """Values of ranges of a workbook file's bytes, as ``read`` gives them (tabs missing from it are left out)."""
    book = parse(data, where)
    out = {}
    for text in ranges:
        rng = parse_range(text)
        sheet = book.sheet(rng.tab)
        if sheet is not None and not rng.tab.startswith(META_TAB):
            out[text] = xlsx_cells.read(book, sheet, rng)
    return out


def _whole_tabs(records: list[list[str]]) -> dict[str, list[str]]:
    """tab -> the open ranges of its recorded whole-tab protection."""
    return {tab: [u for u in r[4].split("\n") if u] for r in records
            if r[0] == "protection" and (tab := _whole_tab(r[1])) is not None}


def _enforce(book: Book, sheet: Sheet, opened: list[str], password: str | None) -> None:
    """The tab's protection in force: locked (with ``password``, if any), exactly ``opened`` left open."""
    wanted = {rc for text in opened for rc in parse_range(text).cells(0, 0)}
    xlsx_cells.set_open(book, sheet, wanted)
    if password is None:
        if not lock.is_on(sheet.protection) or lock.allows(sheet.protection or {}):
            sheet.protection = dict(lock.CLOSED)
            sheet.touch()
        return
    attrs = lock.sheet_lock(sheet.protection, password)
    if attrs is not None:
        sheet.protection = attrs
        sheet.touch()


@functools.lru_cache(maxsize=512)
def _whole_tab(text: str) -> str | None:
    """The tab a protected range covers whole, None for part of a tab (the same few ranges recur)."""
    rng = parse_range(text)
    return rng.tab if rng.whole_tab else None


def _tabs(book: Book) -> list[str]:
    return [s.name for s in book.sheets if not s.name.startswith(META_TAB)]


# What a sync client or a download adds to a file's name: " (1)", "-conflict-…", "-NSConflict-…",
# " (conflicted copy 2026-…)", "-HOSTNAME" (OneDrive), "_1"…
_COPY_TAIL = re.compile(r"^(?:\s*\(.*\)|[-_ ].+)$")
_NEW = (0, 0, 0)  # the stamp of a workbook created by this gateway: no file was read
_TRIES = 5


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise FileError(path=str(path), detail=f"{type(exc).__name__}: {exc}") from exc
    return (st.st_mtime_ns, st.st_size, st.st_ino)


@contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """The file locked against other sheetgm processes saving it (advisory, POSIX ``flock``; a sync client does
    not take it, which the stamp comparison made under it answers). A file replaced while we waited for its lock
    is locked anew, the new file. Without ``fcntl`` (Windows), or without the file, no lock."""
    if sys.platform == "win32":
        yield
        return
    import fcntl

    fd = -1
    try:
        for _ in range(100):  # the file locked must still be the file at ``path`` (another process may replace it)
            try:
                fd = os.open(path, os.O_RDONLY)
            except OSError:
                fd = -1
                break
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                if os.fstat(fd).st_ino == os.stat(path).st_ino:
                    break
            except OSError:
                pass
            os.close(fd)
            fd = -1
        yield
    finally:
        if fd >= 0:
            os.close(fd)


_UMASK: int | None = None


def _new_file_mode() -> int:
    global _UMASK
    if _UMASK is None:
        _UMASK = os.umask(0o022)
        os.umask(_UMASK)
    return 0o666 & ~_UMASK


def _replace(path: Path, data: bytes) -> os.stat_result:
    """Write ``data`` to ``path`` atomically and durably: a unique temporary file in the same folder,
    fsync, ``os.replace``, fsync of the folder. Returns the new file's stat (taken before the rename,
    so that it describes our file even if another process replaces it right after)."""
    folder = path.parent
    try:
        mode = os.stat(path).st_mode & 0o777
    except OSError:
        mode = _new_file_mode()
    try:
        fd, tmp = _new_beside(path)
    except OSError as exc:
        raise FileError(path=str(path), detail=f"{type(exc).__name__}: {exc}") from exc
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
            if hasattr(os, "fchmod"):
                os.fchmod(f.fileno(), mode)
            st = os.fstat(f.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise FileError(path=str(path), detail=f"{type(exc).__name__}: {exc}") from exc
        raise
    _sync_folder(folder)
    return st


def _new_beside(path: Path) -> tuple[int, str]:
    """A new file beside ``path`` as ``tempfile.mkstemp`` makes one (a random name, created exclusively, owner
    only, not through a link), without importing tempfile (~5 ms of every command that writes: shutil, bz2, lzma)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        tmp = str(path.parent / f".{path.name}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(tmp, flags, 0o600), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); where a folder cannot be opened this is skipped."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


_APP = re.compile(rb"<(?:\w+:)?(Application|AppVersion)>([^<]{1,200})</")


def saved_by(part: Part | None) -> str:
    """The program a file's ``docProps/app.xml`` names (its Application and AppVersion), "" if none."""
    data = (part.data if part.raw is None else inflate(part.raw)) if part is not None else None
    found: dict[bytes, bytes] = {m.group(1): m.group(2) for m in _APP.finditer(data or b"")}
    return " ".join(x.decode("utf-8", "replace").strip() for x in (found.get(b"Application"),
                                                                  found.get(b"AppVersion")) if x)
