"""The house rules of the tree (STYLE.md, DESIGN.md "Shape"): each package imports only the layers below it,
never one beside or above it, and no module imports itself back through others (no import circle). Imports
inside functions count too (they run as soon as the function does); imports under ``TYPE_CHECKING`` do not
(they never run). Sources are read with ``ast``, nothing is imported."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# lowest first; a package may import its own modules and any package of a lower rank, none of its rank or above
RANK = {"core": 0, "notation": 1, "bots": 2, "casebook": 2, "backends": 2, "sheets": 3, "render": 3, "sim": 4,
        "service": 5, "cli": 6}


def module_of(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    return ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)


MODULES = {module_of(p): p for p in sorted((ROOT / "sheetgm").rglob("*.py"))}


def _type_checking(node: ast.If) -> bool:
    return "TYPE_CHECKING" in ast.unparse(node.test)


def imports(module: str) -> set[str]:
    """The sheetgm modules that ``module`` imports when it runs (module level and inside functions)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                for sub in child.orelse:
                    visit(sub)
                continue
            names: list[str] = []
            if isinstance(child, ast.Import):
                names = [a.name for a in child.names]
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parts = package.split(".")
                    base = ".".join(parts[: len(parts) - child.level + 1] + ([child.module] if child.module else []))
                names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in child.names]
            for name in names:
                while name and name not in MODULES:
                    name = name.rpartition(".")[0]
                if name and name != module:
                    found.add(name)
            visit(child)

    visit(ast.parse(path.read_text("utf-8")))
    return found


GRAPH = {m: imports(m) for m in MODULES}


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def upward(graph: dict[str, set[str]]) -> list[str]:
    bad = []
    for m, targets in graph.items():
        for t in targets:
            a, b = layer(m), layer(t)
            if a == b or a not in RANK or b not in RANK:
                continue
            if RANK[b] >= RANK[a]:
                bad.append(f"{m} -> {t}")
    return sorted(bad)


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def test_every_package_has_a_rank() -> None:
    packages = {layer(m) for m in MODULES if layer(m) and (ROOT / "sheetgm" / layer(m)).is_dir()}
    assert packages == set(RANK)


def test_no_import_runs_up_or_across_a_layer() -> None:
    assert upward(GRAPH) == []


def test_no_import_circle() -> None:
    assert circles(GRAPH) == []


def test_the_checks_see_what_they_forbid() -> None:
    graph = {"sheetgm.core.a": {"sheetgm.service.b"}, "sheetgm.service.b": {"sheetgm.core.a"},
             "sheetgm.render.c": {"sheetgm.sheets.d"}, "sheetgm.sheets.d": set()}
    assert upward(graph) == ["sheetgm.core.a -> sheetgm.service.b", "sheetgm.render.c -> sheetgm.sheets.d"]
    assert circles(graph) == [["sheetgm.core.a", "sheetgm.service.b"]]
    # lazy imports count, type-only ones do not
    assert "sheetgm.service.game" in GRAPH["sheetgm.cli.common"]
    assert "sheetgm.core.state" not in GRAPH["sheetgm.core.seating"]


def test_nothing_in_the_package_imports_the_test_doubles() -> None:
    bad = [f"{m}" for m, p in MODULES.items()
           if any(isinstance(n, (ast.Import, ast.ImportFrom)) and "fakes" in ast.unparse(n).split()
                  for n in ast.walk(ast.parse(p.read_text("utf-8"))))]
    assert bad == []
