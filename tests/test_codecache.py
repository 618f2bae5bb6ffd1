"""The dataclass methods compiled once per machine (core/codecache.py): the classes are the same as
``dataclasses`` alone makes them, with a cold table, a warm one and a damaged one."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sheetgm.core import codecache

# Every sheetgm dataclass, with what its generated methods are made of and what its __init__ declares.
FINGERPRINT = r"""
import dataclasses, importlib, json, pkgutil, sys
if sys.argv[1] == "native":  # sheetgm without the table: dataclasses compiles every method itself
    import types
    sys.modules["sheetgm.core.codecache"] = types.ModuleType("sheetgm.core.codecache")
    sys.modules["sheetgm.core.codecache"].install = lambda: None
import sheetgm
for m in pkgutil.walk_packages(sheetgm.__path__, "sheetgm."):
    if not m.name.endswith("__main__"):
        importlib.import_module(m.name)
out = {}
for name, mod in sorted(sys.modules.items()):
    if not name.startswith("sheetgm."):
        continue
    for cls in vars(mod).values():
        if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == name:
            methods = {}
            for meth in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"):
                f = getattr(cls.__dict__.get(meth), "__wrapped__", cls.__dict__.get(meth))
                code = getattr(f, "__code__", None)
                if code is not None:
                    methods[meth] = [code.co_code.hex(), repr(code.co_consts), code.co_names, code.co_varnames,
                                     code.co_filename, code.co_flags,
                                     sorted(map(str, (f.__annotations__ or {}).items()))]
            methods["fields"] = [[f.name, str(f._field_type)] for f in dataclasses.fields(cls)]
            methods["all_fields"] = [[k, str(f._field_type)] for k, f in cls.__dataclass_fields__.items()]
            out[f"{name}.{cls.__qualname__}"] = methods
print(json.dumps({"classes": out, "installed": getattr(dataclasses, "exec", None) is not None}))
"""


def _fingerprint(how: str, cache: Path) -> dict[str, object]:
    env = dict(os.environ, SHEETGM_CACHE_DIR=str(cache))
    done = subprocess.run([sys.executable, "-c", FINGERPRINT, how], env=env, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


def test_the_classes_are_those_dataclasses_makes_with_a_cold_warm_or_damaged_table(tmp_path: Path) -> None:
    native = _fingerprint("native", tmp_path / "none")
    assert native["installed"] is False and len(native["classes"]) > 80  # type: ignore[arg-type]
    assert not list((tmp_path / "none").glob("dataclass-methods.*"))  # without the table none is written
    cold = _fingerprint("cached", tmp_path / "c")
    table = next((tmp_path / "c").glob("dataclass-methods.*.marshal"))
    kept = marshal.loads(table.read_bytes())
    assert len(kept) > 300 and all(isinstance(k, str) and k.startswith("def __create_fn__(") for k in kept)
    warm = _fingerprint("cached", tmp_path / "c")
    table.write_bytes(table.read_bytes()[:1000])  # cut short: ignored and written anew
    damaged = _fingerprint("cached", tmp_path / "c")
    assert cold["installed"] is warm["installed"] is damaged["installed"] is True
    assert cold["classes"] == warm["classes"] == damaged["classes"] == native["classes"]
    assert len(marshal.loads(table.read_bytes())) == len(kept)


def test_a_table_of_something_else_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHEETGM_CACHE_DIR", str(tmp_path))
    file = codecache.table_file()
    file.parent.mkdir(parents=True, exist_ok=True)
    for data in ({"def f(): pass": "not code"}, ["a list"], {1: compile("1", "x", "eval")}):
        file.write_bytes(marshal.dumps(data))
        assert codecache.load() == {}
    file.write_bytes(b"\x00garbage")
    assert codecache.load() == {}


def test_only_sheetgm_classes_are_kept_and_each_source_is_compiled_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(codecache, "_codes", {})
    monkeypatch.setattr(codecache, "_used", set())
    monkeypatch.setattr(codecache, "_added", False)
    source = "def __create_fn__():\n def f(self): return 1\n return f"
    ours, theirs = {"__name__": "sheetgm.x"}, {"__name__": "elsewhere"}
    ns1: dict[str, object] = {}
    codecache.cached_exec(source, theirs, ns1)
    assert codecache._codes == {} and not codecache._added and "__create_fn__" in ns1
    ns2: dict[str, object] = {}
    ns3: dict[str, object] = {}
    codecache.cached_exec(source, ours, ns2)
    first = codecache._codes[source]
    codecache.cached_exec(source, ours, ns3)
    assert codecache._codes[source] is first and codecache._added
    assert ns2["__create_fn__"].__code__ is ns3["__create_fn__"].__code__  # type: ignore[attr-defined]


def test_an_unwritable_cache_costs_only_the_compile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("SHEETGM_CACHE_DIR", str(blocker / "sub"))  # a folder under a file cannot be made
    monkeypatch.setattr(codecache, "_added", True)
    assert codecache.save() is False


# A class defined outside sheetgm, without a docstring (dataclasses then asks inspect for its signature).
ELSEWHERE = r"""
import json, sys
first = sys.argv[1]
if first == "inspect":
    import inspect
if first != "none":
    import sheetgm, sheetgm.cli.main, sheetgm.service.check, sheetgm.service.resolve
import dataclasses
before = "inspect" in sys.modules
@dataclasses.dataclass
class C:
    a: int
    b: "str" = "x"
print(json.dumps({"before": before, "doc": C.__doc__, "init": repr(C.__init__.__annotations__),
                  "real": dataclasses.inspect is sys.modules["inspect"] and hasattr(sys.modules["inspect"], "stack")}))
"""


@pytest.mark.parametrize("first", ["sheetgm", "inspect"])
def test_dataclasses_without_inspect_make_the_same_classes(first: str, tmp_path: Path) -> None:
    def run(first: str) -> dict[str, object]:
        env = dict(os.environ, SHEETGM_CACHE_DIR=str(tmp_path))
        done = subprocess.run([sys.executable, "-c", ELSEWHERE, first], env=env, capture_output=True, text=True,
                              check=True)
        out: dict[str, object] = json.loads(done.stdout)
        return out

    native, ours = run("none"), run(first)
    assert ours["before"] is (first == "inspect")  # sheetgm's commands import no inspect (~5 ms)
    assert native["doc"] == "C(a: int, b: 'str' = 'x')" and native["real"] is True
    assert (ours["doc"], ours["init"], ours["real"]) == (native["doc"], native["init"], native["real"])


def test_the_table_keeps_what_a_run_used_first_and_is_bounded(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHEETGM_CACHE_DIR", str(tmp_path))
    sources = [f"def __create_fn__():\n def f(self): return {i}\n return f" for i in range(6)]
    old = {s: marshal.dumps(compile(s, "<string>", "exec", dont_inherit=True)) for s in sources[:4]}
    old[sources[3]] = b"not code"  # damaged: compiled again, and kept right
    monkeypatch.setattr(codecache, "_table", old)
    monkeypatch.setattr(codecache, "_codes", {})
    monkeypatch.setattr(codecache, "_used", set())
    monkeypatch.setattr(codecache, "_added", False)
    monkeypatch.setattr(codecache, "LIMIT", 4)
    former = tmp_path / f"dataclass-code.{sys.implementation.cache_tag}-{marshal.version}.marshal"
    former.write_bytes(marshal.dumps({}))  # the table under its former name, from an older sheetgm
    ours = {"__name__": "sheetgm.x"}
    for i in (3, 4, 5):  # one kept (damaged), two new
        ns: dict[str, Any] = {}
        codecache.cached_exec(sources[i], ours, ns)
        assert ns["__create_fn__"]()(None) == i
    assert codecache.save() is True
    kept = codecache.load()
    assert set(list(kept)[:3]) == {sources[i] for i in (3, 4, 5)}  # what this run used, first
    assert len(kept) == 4 and list(kept)[3] in sources[:3]  # then one kept before, up to LIMIT
    assert all(isinstance(marshal.loads(data), type(compile("1", "x", "eval"))) for data in kept.values())
    assert not former.exists() and codecache.table_file().exists()  # the former table removed, nothing else


def test_no_sheetgm_module_holds_classvar_initvar_or_kw_only_under_another_name() -> None:
    """What lets ``codecache.is_type`` answer at once for an annotation naming none of the three: ``dataclasses``
    looks the annotation's name up in the class's module, so another name for them would make a field a ClassVar."""
    import dataclasses
    import importlib
    import pkgutil
    import typing

    import sheetgm

    def marker(value: object) -> str | None:
        if value is typing.ClassVar or getattr(value, "__origin__", None) is typing.ClassVar:
            return "ClassVar"
        if value is dataclasses.InitVar or type(value) is dataclasses.InitVar:
            return "InitVar"
        return "KW_ONLY" if value is dataclasses.KW_ONLY else None

    seen = 0
    for m in pkgutil.walk_packages(sheetgm.__path__, "sheetgm."):
        if m.name.endswith("__main__"):
            continue
        module = importlib.import_module(m.name)
        seen += 1
        for name, value in vars(module).items():
            kind = marker(value)
            assert kind is None or kind in name, (m.name, name, kind)
    assert seen > 100


def test_is_type_answers_as_dataclasses_does() -> None:
    import dataclasses
    import typing

    from sheetgm.core.state import State

    std = codecache._std_is_type
    for annotation in ("int", "tuple[int, ...]", "ClassVar[int]", "typing.ClassVar[int]", "InitVar[str]",
                       "dataclasses.InitVar[str]", "KW_ONLY", "  ClassVar", "dict[str, ClassVar]"):
        for a_module, a_type, predicate in ((typing, typing.ClassVar, dataclasses._is_classvar),
                                            (dataclasses, dataclasses.InitVar, dataclasses._is_initvar),
                                            (dataclasses, dataclasses.KW_ONLY, dataclasses._is_kw_only)):
            assert codecache.is_type(annotation, State, a_module, a_type, predicate) == std(
                annotation, State, a_module, a_type, predicate), annotation
