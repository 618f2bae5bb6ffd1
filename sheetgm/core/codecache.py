"""The methods of sheetgm's dataclasses compiled once per machine, not once per command.

``@dataclass`` writes the source of ``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` and the frozen
``__setattr__``/``__delattr__`` of every class and compiles it with ``exec`` when the module is imported: about
0.45 ms a class, 40 ms of every command for the ~90 classes a command imports (issue 14). The compiled code
depends only on that source, so this module gives the ``dataclasses`` module an ``exec`` that looks the source
up in a table of code objects kept in the cache folder (``marshal``, as Python keeps ``.pyc`` files; each kept as
its own bytes, made into code only when a class uses it: the table holds every command's classes) and compiles
only what it has not seen; everything else ``dataclasses`` does is unchanged. Only sheetgm's own
classes are kept (the module that calls ``exec`` names the class's module in its globals); a table that cannot
be read is ignored and written anew, one that cannot be written costs the compile and nothing else.
"""

from __future__ import annotations

import atexit
import builtins
import marshal
import sys
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

from sheetgm.core.cachedir import cache_dir, keep_marshal


class _LateInspect(ModuleType):
    """What ``dataclasses`` holds as ``inspect`` until it first uses it (``inspect.signature``, for a class without
    a docstring): then the real module, imported and handed to ``dataclasses`` in its place."""

    def __getattr__(self, name: str) -> Any:
        if sys.modules.get("inspect") is self:
            del sys.modules["inspect"]
        import inspect

        setattr(sys.modules.get("dataclasses", self), "inspect", inspect)  # noqa: B010 (a module typed as ModuleType)
        return getattr(inspect, name)


def _dataclasses() -> ModuleType:
    """``dataclasses``, imported without ``inspect`` when this process has imported neither: ``inspect`` and what
    it imports (``ast``, ``dis``, ``tokenize``, ``linecache``) are ~5 ms of every command, for a function that
    ``dataclasses`` calls only for a class without a docstring (sheetgm's have one)."""
    if "dataclasses" in sys.modules or "inspect" in sys.modules:
        import dataclasses

        return dataclasses
    late = sys.modules["inspect"] = _LateInspect("inspect")
    try:
        import dataclasses
    finally:
        if sys.modules.get("inspect") is late:
            del sys.modules["inspect"]
    return dataclasses


dataclasses = _dataclasses()

LIMIT = 1500  # sources kept (every sheetgm class's methods: ~700), those a process used first

_table: dict[str, bytes] = {}  # the kept table: a source -> its code object as marshal bytes (made when used)
_codes: dict[str, CodeType] = {}  # the code objects of this process, by source
_used: set[str] = set()
_added = False


def table_file() -> Path:
    """Where the table is kept: one per Python (the code objects' format follows the interpreter)."""
    return cache_dir() / f"dataclass-methods.{sys.implementation.cache_tag}-{marshal.version}.marshal"


def load() -> dict[str, bytes]:
    """The kept table, or an empty one when there is none or it is not such a table (cut, damaged)."""
    try:
        data = marshal.loads(table_file().read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not isinstance(data, dict) or not all(type(k) is str and type(v) is bytes for k, v in data.items()):
        return {}
    return data


def _kept(source: str) -> CodeType | None:
    """The kept code of ``source``, or None (not kept, or its bytes are not code)."""
    data = _table.get(source)
    if data is None:
        return None
    try:
        code = marshal.loads(data)
    except (ValueError, EOFError, TypeError):
        return None
    return code if isinstance(code, CodeType) else None


def cached_exec(source: Any, globals: dict[str, Any] | None = None, locals: Any = None, /) -> None:
    """``exec`` as ``dataclasses`` calls it, the source of a sheetgm class compiled at most once per machine."""
    if isinstance(source, str) and globals is not None and str(globals.get("__name__", "")).startswith("sheetgm."):
        global _added
        code = _codes.get(source)
        if code is None:
            code = _kept(source)
            if code is None:
                # dont_inherit: compiled as dataclasses' own exec compiles it, without this module's __future__ flags
                code = compile(source, "<string>", "exec", dont_inherit=True)
                _added = True
            _codes[source] = code
        _used.add(source)
        source = code
    elif isinstance(source, str):  # compiled as dataclasses' own exec compiles it, not under this module's flags
        source = compile(source, "<string>", "exec", dont_inherit=True)
    builtins.exec(source, globals, locals)


def save() -> bool:
    """Write the table if this process compiled anything new (whole, then renamed into place): what this process
    used first, then the sources kept before, up to LIMIT (older code's sources fall out as new code comes)."""
    if not _added:
        return False
    keep = {s: marshal.dumps(_codes[s]) for s in _used}
    for s, data in _table.items():
        if len(keep) >= LIMIT:
            break
        keep.setdefault(s, data)
    _forget_old_tables()
    return keep_marshal(table_file(), keep)


def _forget_old_tables() -> None:
    """Remove what an older sheetgm kept under the table's former name (``dataclass-code.*``): nothing reads it."""
    try:
        for old in cache_dir().glob("dataclass-code.*.marshal"):
            old.unlink(missing_ok=True)
    except OSError:
        pass


_std_is_type = dataclasses._is_type


def is_type(annotation: str, cls: type, a_module: ModuleType, a_type: Any, is_type_predicate: Any) -> bool:
    """``dataclasses._is_type`` (is a string annotation ``ClassVar``, ``InitVar`` or ``KW_ONLY``, looked up in the
    class's module?), answered at once for a sheetgm class whose annotation names none of the three: no sheetgm
    module holds them under another name (``tests/test_codecache.py`` holds it). Three calls a field, each a
    pattern match and lookups: ~5 ms of every command's ~90 classes."""
    if "ClassVar" not in annotation and "InitVar" not in annotation and "KW_ONLY" not in annotation and (
            cls.__module__.startswith("sheetgm.")):
        return False
    return bool(_std_is_type(annotation, cls, a_module, a_type, is_type_predicate))


def install() -> None:
    """Give ``dataclasses`` the caching ``exec`` and the quicker ``_is_type`` (once; later calls do nothing)."""
    if getattr(dataclasses, "exec", None) is cached_exec:
        return
    _table.update(load())
    setattr(dataclasses, "exec", cached_exec)  # noqa: B010 (a module typed as ModuleType)
    setattr(dataclasses, "_is_type", is_type)  # noqa: B010
    atexit.register(save)
