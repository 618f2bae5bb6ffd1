"""The rules engine and the notation are pure (STYLE "What follows" 1-2): standard library
imports only, no global random, no clock. Sources are read with ``ast``, nothing is imported."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sheetgm/core", "sheetgm/notation")
ALLOWED_OWN = ("sheetgm.core", "sheetgm.notation")
CLOCK_MODULES = ("time", "datetime")


def sources(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in the file, relative ones resolved."""
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            out.append((node.lineno, name))
    return out


def allowed(name: str) -> bool:
    top = name.split(".")[0]
    if top == "__future__" or top in sys.stdlib_module_names:
        return True
    return any(name == own or name.startswith(own + ".") for own in ALLOWED_OWN)


ALL_FILES = [p for folder in PACKAGES for p in sources(folder)]


def test_there_are_modules_to_check() -> None:
    names = {module_name(p) for p in ALL_FILES}
    assert {"sheetgm.core.resolve", "sheetgm.core.state", "sheetgm.notation.orders"} <= names


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: module_name(p))
def test_imports_only_stdlib_and_own_layers(path: Path) -> None:
    bad = [f"{module_name(path)}:{line} imports {name}" for line, name in imports_of(path) if not allowed(name)]
    assert not bad, "; ".join(bad)


def global_random_calls(tree: ast.AST) -> list[tuple[int, str]]:
    """Calls of the module-level functions of ``random`` (``random.choice(...)``, or an imported
    ``from random import choice``); ``random.Random(seed)`` is the allowed way."""
    imported = {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                and n.module == "random" for a in n.names if a.name != "Random"}
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "random" \
                and f.attr != "Random":
            out.append((node.lineno, f"random.{f.attr}()"))
        elif isinstance(f, ast.Name) and f.id in imported:
            out.append((node.lineno, f"{f.id}() from random"))
    return out


CORE_FILES = sources("sheetgm/core")


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: module_name(p))
def test_core_uses_no_global_random_and_no_clock(path: Path) -> None:
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    bad = [f"{module_name(path)}:{line} calls {what}" for line, what in global_random_calls(tree)]
    bad += [f"{module_name(path)}:{line} imports {name}" for line, name in imports_of(path)
            if name.split(".")[0] in CLOCK_MODULES]
    assert not bad, "; ".join(bad)


def test_the_checks_catch_what_they_forbid() -> None:
    tree = ast.parse("import random\nfrom random import shuffle\nrandom.choice([1])\nshuffle(x)\n"
                     "r = random.Random(3)\nr.choice([1])\n")
    assert [w for _, w in global_random_calls(tree)] == ["random.choice()", "shuffle() from random"]
    assert not allowed("gspread") and not allowed("sheetgm.backends.memory") and not allowed("openpyxl")
    assert allowed("collections.abc") and allowed("sheetgm.core.board") and allowed("__future__")
