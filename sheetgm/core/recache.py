"""The regular expressions of sheetgm's modules compiled once per machine, not once per command.

``re`` parses and compiles a pattern in Python (``re._parser``, ``re._compiler``) the first time a process
uses it: ~0.15 ms a pattern, ~9 ms of every ``check`` and ``resolve`` for the ~60 they compile (issue 14). What
the compile hands to the C engine (``_sre.compile``: the flags, the program, the groups) depends only on the
pattern, its flags and the interpreter, so this module keeps those arguments in a table in the cache folder
(``marshal``, one table per Python version and ``_sre.MAGIC``) and builds a pattern it has seen straight from
them. Only patterns that sheetgm's own modules compile are kept. A Python whose compile is shaped otherwise, a
table that cannot be read, or arguments the engine refuses: the ordinary compile, nothing else changes.
"""

from __future__ import annotations

import atexit
import importlib
import marshal
import sys
from pathlib import Path
from typing import Any

from sheetgm.core.cachedir import cache_dir, keep_marshal

_sre: Any
_compiler: Any
try:  # the engine and the compiler as CPython 3.11+ names them
    _sre, _compiler = importlib.import_module("_sre"), importlib.import_module("re._compiler")
except ImportError:  # pragma: no cover - another Python: nothing is cached
    _sre = _compiler = None

LIMIT = 2000  # patterns kept; past it the table starts again from what this process used
Key = tuple[str | bytes, int]

_table: dict[Key, tuple[Any, ...]] = {}
_used: set[Key] = set()
_added = False
_native: Any = None  # re._compiler.compile as Python has it


class _Engine:
    """``_sre`` for ``re._compiler``, noting the arguments of the ``compile`` call a pattern's compile ends in."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.noted: list[tuple[Any, ...]] | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def compile(self, *args: Any) -> Any:
        if self.noted is not None:
            self.noted.append(args)
        return self.real.compile(*args)


def table_file() -> Path:
    version = "".join(map(str, sys.version_info[:3]))
    return cache_dir() / f"re-code.{sys.implementation.cache_tag}-{version}-{getattr(_sre, 'MAGIC', 0)}.marshal"


def _well_formed(key: Any, args: Any) -> bool:
    return (isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], (str, bytes)) and type(key[1]) is int
            and isinstance(args, tuple) and len(args) == 5 and type(args[0]) is int and isinstance(args[1], list)
            and type(args[2]) is int and isinstance(args[3], dict) and isinstance(args[4], tuple))


def load() -> dict[Key, tuple[Any, ...]]:
    """The kept table, or an empty one when there is none or it is not such a table (cut, damaged)."""
    try:
        data = marshal.loads(table_file().read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not isinstance(data, dict) or not all(_well_formed(k, v) for k, v in data.items()):
        return {}
    return data


def _ours() -> bool:
    """Whether the pattern being compiled comes from a sheetgm module (the first caller outside ``re``)."""
    frame = sys._getframe(2)
    while frame is not None:
        name = str(frame.f_globals.get("__name__", ""))
        if name != "re" and not name.startswith("re.") and name != __name__:
            return name.startswith("sheetgm.")
        frame = frame.f_back  # type: ignore[assignment]
    return False


def cached_compile(p: Any, flags: int = 0) -> Any:
    """``re._compiler.compile``, a sheetgm pattern built from the kept arguments when it has been seen."""
    if type(p) not in (str, bytes) or type(flags) is not int or flags & 128 or not _ours():  # 128: re.DEBUG
        return _native(p, flags)
    global _added
    key = (p, flags)
    args = _table.get(key)
    if args is not None:
        try:
            made = _sre.compile(p, *args)
        except (TypeError, ValueError, RuntimeError):
            del _table[key]
        else:
            _used.add(key)
            return made
    engine: _Engine = _compiler._sre
    outer, engine.noted = engine.noted, []
    try:
        made = _native(p, flags)
        noted = engine.noted
    finally:
        engine.noted = outer
    if len(noted) == 1 and noted[0][0] is p and _well_formed(key, noted[0][1:]):
        flags_made, code, groups, groupindex, indexgroup = noted[0][1:]
        # plain ints: the program holds re's named constants (an int subclass marshal does not write)
        _table[key] = (int(flags_made), [int(c) for c in code], int(groups), dict(groupindex), tuple(indexgroup))
        _used.add(key)
        _added = True
    return made


def save() -> bool:
    """Write the table if this process compiled a sheetgm pattern it did not hold (whole, then renamed)."""
    if not _added:
        return False
    keep = _table if len(_table) <= LIMIT else {k: v for k, v in _table.items() if k in _used}
    return keep_marshal(table_file(), keep)


def install() -> None:
    """Give ``re`` the caching compile (once; later calls do nothing; nothing on a Python shaped otherwise)."""
    global _native
    if _compiler is None or _native is not None or not callable(getattr(_compiler, "compile", None)) \
            or not callable(getattr(_sre, "compile", None)):
        return
    _native = _compiler.compile
    _table.update(load())
    _compiler._sre = _Engine(_sre)
    _compiler.compile = cached_compile
    atexit.register(save)
