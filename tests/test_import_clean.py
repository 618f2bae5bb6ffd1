"""``import sheetgm`` changes nothing outside sheetgm (issue 26): no standard-library function replaced, no module
stubbed or replaced in ``sys.modules``, the garbage collector's settings and the exit hooks as they were."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import sheetgm

# Run in a fresh interpreter: a snapshot of what a program outside sheetgm sees, then the same after the import.
PROBE = """
import atexit, dataclasses, gc, json, re, re._compiler, sys, _sre
def snap():
    return {
        "dataclasses": [id(getattr(dataclasses, n, None)) for n in ("exec", "_is_type", "_create_fn", "inspect")],
        "re": [id(re._compiler.compile), id(re._compiler._sre), id(re.compile), id(re._compile)],
        "sre": [id(_sre.compile)],
        "modules": {n: id(m) for n, m in list(sys.modules.items()) if not n.startswith("sheetgm")},
        "gc": [list(gc.get_threshold()), gc.isenabled(), gc.get_freeze_count()],
        "atexit": atexit._ncallbacks(),
    }
before = snap()
import sheetgm
after = snap()
added = [n for n in after["modules"] if n not in before["modules"]]
after["modules"] = {n: v for n, v in after["modules"].items() if n in before["modules"]}
print(json.dumps({"same": {k: before[k] == after[k] for k in before}, "added": added,
                  "stubs": [n for n, m in sys.modules.items() if m is not None and type(m).__name__ != "module"],
                  "file": sheetgm.__file__}))
"""


def _probe(code: str = PROBE) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(Path(sheetgm.__file__).parents[1]))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    result: dict[str, object] = json.loads(out.stdout)
    return result


def test_import_sheetgm_changes_nothing_outside_it() -> None:
    seen = _probe()
    assert seen["file"] == sheetgm.__file__
    assert seen["same"] == {"dataclasses": True, "re": True, "sre": True, "modules": True, "gc": True, "atexit": True}
    assert seen["stubs"] == []
    # the package itself imports nothing of the standard library's that a program had not imported already
    assert [n for n in seen["added"] if isinstance(n, str) and not n.startswith("sheetgm")] == []  # type: ignore[union-attr]


def test_the_probe_sees_a_patch() -> None:
    """The probe can fail: a package that swapped ``re``'s compiler would be seen."""
    patched = PROBE.replace("import sheetgm\n", "import sheetgm\nre._compiler.compile = lambda p, f=0: None\n"
                            "atexit.register(print)\ngc.set_threshold(1000, 10, 10)\n", 1)
    seen = _probe(patched)["same"]
    assert seen == {"dataclasses": True, "re": False, "sre": True, "modules": True, "gc": False, "atexit": False}


def test_no_code_cache_left_in_the_package() -> None:
    core = Path(sheetgm.__file__).parent / "core"
    assert not (core / "codecache.py").exists() and not (core / "recache.py").exists()
    tree = ast.parse((Path(sheetgm.__file__).parent / "__init__.py").read_text("utf-8"))
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom | ast.Call)]
