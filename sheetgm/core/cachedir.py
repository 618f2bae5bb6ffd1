"""sheetgm's cache folder on this machine, and the one way its files are read and written (issue 26).

What is kept there only saves work: the parsed text templates (core/texts.py), what reading workbooks works out
from their text (backends/xlsx/kept.py), the parts of a map picture that every map of a board shares and the font
found (render/kept.py, render/fonts.py) and the Google pacing log (backends/google/ratelimit.py). None of it is
code, and a command gives the same result without it. So the folder is used only when it cannot hurt:

- it is created owner-only (0o700); a folder that is a symbolic link or no folder, that another user owns, or that
  the group or others may write is not used at all (``usable_dir`` gives None, ``refusal`` says why: the script
  warns once, ``sheetgm doctor`` reports it with the fix), and the command runs without it;
- a file is opened without following a symbolic link and without blocking (a FIFO never hangs a command), and only
  a regular file of this user no larger than the reader's bound is read, in one bounded read;
- a file is written whole under a temporary ``*.part`` name, created exclusively (never through a link), then
  renamed into place; a ``*.part`` left by a process that died (a full disk) is removed by the next write.

Any file that fails one of these is treated as absent: the caller works it out again and keeps it anew.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

CACHE_ENV = "SHEETGM_CACHE_DIR"
PART_AGE = 600.0  # seconds: a *.part older than this was left by a process that died
OBSOLETE = ("dataclass-", "re-code.")  # the code tables of sheetgm before issue 26: removed when the folder is written
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_POSIX = sys.platform != "win32"

_checked: dict[Path, str | None] = {}  # a folder -> why it is refused (None: used), once per process


def cache_dir(env: dict[str, str] | None = None) -> Path:
    """Where sheetgm's cache folder is: ``SHEETGM_CACHE_DIR``, else the platform's user cache folder."""
    env = dict(os.environ) if env is None else env
    if env.get(CACHE_ENV, "").strip():
        return Path(env[CACHE_ENV].strip())
    home = Path(env.get("HOME") or Path.home())
    if sys.platform == "win32":
        return Path(env.get("LOCALAPPDATA") or home / "AppData" / "Local") / "sheetgm" / "Cache"
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "sheetgm"
    return Path(env.get("XDG_CACHE_HOME") or home / ".cache") / "sheetgm"


def folder_problem(folder: Path) -> str | None:
    """Why ``folder`` may not serve as the cache (a key of ``cache.refused.*``: ``link``, ``not_dir``, ``owner``,
    ``open``), None if it may, or if it does not exist yet (it will be made owner-only)."""
    try:
        st = os.lstat(folder)
    except FileNotFoundError:
        return None
    except OSError:
        return "not_dir"
    if stat.S_ISLNK(st.st_mode):
        return "link"
    if not stat.S_ISDIR(st.st_mode):
        return "not_dir"
    if _POSIX and st.st_uid != os.geteuid():
        return "owner"
    if _POSIX and st.st_mode & 0o022:
        return "open"
    if _POSIX and st.st_mode & 0o077:  # ours, readable by others (an older sheetgm made it so): made owner-only
        try:
            os.chmod(folder, 0o700, follow_symlinks=False)
        except (OSError, NotImplementedError):
            pass
    return None


def usable_dir() -> Path | None:
    """The cache folder, made owner-only if it is missing; None if it may not be used (``refusal`` says why) or
    cannot be made (a read-only home: nothing to warn about, nothing is kept)."""
    folder = cache_dir()
    if folder in _checked:  # None: used; "" (cannot be made) or a refusal: not
        return folder if _checked[folder] is None else None
    problem = folder_problem(folder)
    if problem is None:
        try:
            folder.parent.mkdir(parents=True, exist_ok=True)
            os.mkdir(folder, 0o700)
        except FileExistsError:
            pass
        except OSError:
            _checked[folder] = ""  # cannot be made: not refused, just absent
            return None
        problem = folder_problem(folder)  # made by another process in between: looked at again
    _checked[folder] = problem
    return None if problem else folder


def refusal() -> tuple[Path, str] | None:
    """The cache folder this process refused and why (a ``cache.refused.*`` key), if it refused one."""
    for folder, problem in _checked.items():
        if problem:
            return folder, problem
    return None


def forget() -> None:
    """Look at the folder again at the next use (a test that changes it, or ``SHEETGM_CACHE_DIR``)."""
    _checked.clear()


def file_in(name: str) -> Path | None:
    """``name`` in the usable cache folder; None when there is none."""
    folder = usable_dir()
    return None if folder is None else folder / name


def open_regular(file: Path, flags: int, mode: int = 0o600) -> int:
    """A descriptor of ``file`` opened with ``flags`` without following a link or blocking; OSError unless it is
    a regular file of this user (a FIFO, a device, a folder, a link: refused)."""
    fd = os.open(file, flags | _NOFOLLOW | _NONBLOCK | _CLOEXEC, mode)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or (_POSIX and st.st_uid != os.geteuid()):
            raise OSError(f"{file}: not a regular file of this user")
        if _NONBLOCK and _POSIX:
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bytes(file: Path | None, limit: int) -> bytes | None:
    """The bytes of ``file`` if it is a regular file of this user of at most ``limit`` bytes; None otherwise."""
    if file is None:
        return None
    try:
        fd = open_regular(file, os.O_RDONLY)
    except OSError:
        return None
    try:
        if os.fstat(fd).st_size > limit:
            return None
        chunks, size = [], 0
        while size <= limit and (chunk := os.read(fd, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks) if size <= limit else None
    except OSError:
        return None
    finally:
        os.close(fd)


def json_depth(data: bytes, limit: int) -> bool:
    """Whether no array or object in the JSON ``data`` is nested deeper than ``limit`` (brackets inside strings
    do not count): a look before parsing, so that a nested file is refused rather than parsed into a
    RecursionError. Linear in C (no regular expression, which a file of escaped quotes makes quadratic): the
    escapes taken out, the strings are every other piece between quotes."""
    outside = b"".join(data.replace(b"\\\\", b"").replace(b'\\"', b"").split(b'"')[::2])
    bare = outside.translate(None, _NOT_BRACKETS)
    if len(bare) <= limit:  # the common case: not even that many brackets
        return True
    depth = 0
    for c in bare:
        depth += 1 if c in (91, 123) else -1
        if depth > limit:
            return False
    return True


_NOT_BRACKETS = bytes(c for c in range(256) if c not in b"[]{}")


def read_json(file: Path | None, limit: int, depth: int) -> Any:
    """The JSON in ``file`` (read as ``read_bytes`` does), None if it is not there, too large, nested deeper than
    ``depth`` or not JSON. The caller checks its shape. Parsed first, the nesting then measured on what was parsed:
    a file nested past the interpreter's recursion limit fails to parse (RecursionError, a clean failure in C), and
    measuring the text first (``json_depth``) took longer than parsing it (1.2 against 1.0 ms for a language's
    texts)."""
    data = read_bytes(file, limit)
    if data is None:
        return None
    try:
        found = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError, MemoryError):
        return None
    return found if _nested_within(found, depth) else None


def _nested_within(value: Any, limit: int) -> bool:
    """Whether no list or dict in ``value`` lies deeper than ``limit`` (as ``json_depth`` counts brackets)."""
    stack = [(value, 0)] if isinstance(value, dict | list) else []
    while stack:
        item, above = stack.pop()
        if above >= limit:
            return False
        inner = item.values() if isinstance(item, dict) else item
        stack.extend((c, above + 1) for c in inner if isinstance(c, dict | list))
    return True


def keep_json(file: Path | None, data: object) -> bool:
    """Keep ``data`` as JSON in ``file`` (as ``keep_bytes``)."""
    try:
        text = json.dumps(data, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return False
    return keep_bytes(file, text.encode("utf-8"))


def keep_bytes(file: Path | None, data: bytes) -> bool:
    """Write ``data`` to ``file`` in the cache folder, whole under a new ``*.part`` name (created exclusively, so
    never through a link) then renamed into place (a reader never sees half of it, a link there is replaced, not
    followed); False when it cannot be written (the caller goes on). The part is removed if the write fails, and
    parts that older processes left are removed too."""
    if file is None:
        return False
    part = file.with_name(f"{file.name}.{os.getpid()}.{os.urandom(4).hex()}.part")
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600)
    except OSError:
        return False
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        os.replace(part, file)
    except OSError:
        _unlink(part)
        return False
    try:  # the file just written tells the time (core reads no clock: tests/test_core_purity.py)
        now = file.stat(follow_symlinks=False).st_mtime
    except OSError:
        return True
    sweep_parts(file.parent, now)
    return True


def sweep_parts(folder: Path, now: float, age: float = PART_AGE) -> int:
    """Remove the ``*.part`` files in ``folder`` older than ``age`` seconds at ``now`` (a file time: left by a
    process that died), and the code tables an older sheetgm kept (OBSOLETE); how many parts were removed."""
    removed = 0
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.startswith(OBSOLETE) and entry.name.endswith(".marshal"):
                    _unlink(Path(entry.path))  # what an older sheetgm kept and nothing reads any more
                elif entry.name.endswith(".part") and entry.is_file(follow_symlinks=False):
                    if now - entry.stat(follow_symlinks=False).st_mtime > age and _unlink(Path(entry.path)):
                        removed += 1
    except OSError:
        pass
    return removed


def _unlink(file: Path) -> bool:
    try:
        os.unlink(file)
        return True
    except OSError:
        return False
