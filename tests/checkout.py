"""The checkout as it was before a test run, and what a run left in it (conftest.py fails such a run): the suite
writes only into temporary folders (tmp_path), never here."""

from __future__ import annotations

import os
from pathlib import Path

# The checkout as it was before the run: the suite writes only into temporary folders (tmp_path), never here.
CHECKOUT = Path(__file__).resolve().parents[1]
SKIPPED = frozenset({".git", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis", "build",
                     "dist", "games"})


def checkout_files(root: Path = CHECKOUT) -> dict[str, tuple[int, int]]:
    """Every file of the checkout with its size and modification time, without the folders git ignores anyway
    (caches, virtual environments): the same with or without git."""
    out: dict[str, tuple[int, int]] = {}
    stack = [root]
    while stack:
        here = stack.pop()
        try:
            entries = list(os.scandir(here))
        except OSError:
            continue
        for e in entries:
            if e.is_dir(follow_symlinks=False):
                if e.name not in SKIPPED and not e.name.startswith((".venv", "demo-game", "sheetgm-demo")) \
                        and not e.name.endswith(".egg-info"):
                    stack.append(Path(e.path))
            elif e.is_file(follow_symlinks=False):
                st = e.stat(follow_symlinks=False)
                out[str(Path(e.path).relative_to(root))] = (st.st_size, st.st_mtime_ns)
    return out


def checkout_changes(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> list[str]:
    """What a run left in the checkout: files new, changed or gone, each named."""
    return sorted([f"new: {p}" for p in after.keys() - before.keys()]
                  + [f"changed: {p}" for p in after.keys() & before.keys() if after[p] != before[p]]
                  + [f"gone: {p}" for p in before.keys() - after.keys()])


