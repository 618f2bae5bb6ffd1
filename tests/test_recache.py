"""sheetgm's regular expressions compiled once per machine (core/recache.py): every pattern built from the table
is the pattern ``re`` compiles itself, with a cold table, a warm one and a damaged one; only sheetgm's are kept."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sheetgm.core import recache

# Every module of sheetgm imported, then each pattern the table holds compared with re's own compile of it.
PATTERNS = r"""
import importlib, json, pkgutil, re, sys
import sheetgm
from sheetgm.core import recache
native = []
real = recache._native
recache._native = lambda p, flags=0: native.append(p) or real(p, flags)
for m in pkgutil.walk_packages(sheetgm.__path__, "sheetgm."):
    if not m.name.endswith("__main__"):
        importlib.import_module(m.name)
same = []
for (p, flags), args in recache._table.items():
    ours, theirs = recache._sre.compile(p, *args), real(p, flags)
    same.append(ours == theirs and ours.groups == theirs.groups and dict(ours.groupindex) == dict(theirs.groupindex)
                and ours.flags == theirs.flags)
print(json.dumps({"kept": len(recache._table), "same": all(same), "compiled": len(native),
                  "a1": any(p == "^([A-Za-z]{0,3})(\\d{0,7})$" for p, _ in recache._table)}))
"""


def _run(cache: Path) -> dict[str, object]:
    env = dict(os.environ, SHEETGM_CACHE_DIR=str(cache))
    done = subprocess.run([sys.executable, "-c", PATTERNS], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_patterns_from_a_cold_warm_or_damaged_table_are_those_re_compiles(tmp_path: Path) -> None:
    cold = _run(tmp_path)
    table = next(tmp_path.glob("re-code.*.marshal"))
    assert cold["same"] and cold["a1"] and int(cold["kept"]) > 40  # type: ignore[call-overload]
    assert cold["compiled"] >= cold["kept"]  # every kept pattern was compiled by re itself first
    warm = _run(tmp_path)
    assert warm["same"] and warm["kept"] == cold["kept"]
    assert int(warm["compiled"]) < int(cold["compiled"]) - 40  # type: ignore[call-overload]
    table.write_bytes(marshal.dumps({("x", 0): (0, [1, 2], 0, {}, ())})[:-3])  # cut short
    damaged = _run(tmp_path)
    assert damaged["same"] and damaged["compiled"] == cold["compiled"]
    assert len(marshal.loads(table.read_bytes())) == cold["kept"]  # written anew, whole


def _compile_in(module: str, pattern: str) -> object:
    re = __import__("re")
    re.purge()  # (re's own per-process cache would answer a pattern seen before without compiling it)
    scope = {"__name__": module, "re": re}
    exec(f"made = re.compile({pattern!r})", scope)  # as a module of that name compiles it
    return scope["made"]


def test_only_patterns_of_sheetgm_modules_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(recache, "_table", {})
    foreign = _compile_in("other.module", "foreign-[0-9]{3}(?P<n>x)")
    assert not recache._table
    ours = _compile_in("sheetgm.somewhere", "ours-[0-9]{3}(?P<n>x)")
    assert list(recache._table) == [("ours-[0-9]{3}(?P<n>x)", 0)]
    assert foreign.match("foreign-123x") and ours.match("ours-123x").group("n") == "x"  # type: ignore[attr-defined]


def test_arguments_the_engine_refuses_mean_the_ordinary_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    pattern = "refused-(a|b)+"
    monkeypatch.setattr(recache, "_table", {(pattern, 0): (32, [999999, 1, 2], 0, {}, (None,))})  # no program
    made = _compile_in("sheetgm.somewhere", pattern)
    assert made.fullmatch("refused-abba")  # type: ignore[attr-defined]
    assert recache._table[(pattern, 0)][1] != [999999, 1, 2]  # the bad entry replaced by the real one


def test_a_table_of_another_shape_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHEETGM_CACHE_DIR", str(tmp_path))
    recache.table_file().write_bytes(marshal.dumps({("a", 0): "not arguments"}))
    assert recache.load() == {}
    recache.table_file().write_bytes(json.dumps([1]).encode())
    assert recache.load() == {}
