"""``python -m sheetgm.casebook index docs/rules.md [CASES...]``: regenerate the rule index."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sheetgm.casebook.index import rewrite_file
from sheetgm.casebook.loader import load_paths
from sheetgm.core.errors import SheetgmError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sheetgm.casebook")
    sub = parser.add_subparsers(dest="command", required=True)
    idx = sub.add_parser("index", help="rewrite the 'Cases:' lines of a rules document in place")
    idx.add_argument("doc", type=Path)
    idx.add_argument("cases", nargs="*", type=Path, help="case files or folders (default: tests/casebook)")
    args = parser.parse_args(argv)
    try:
        cases = load_paths(args.cases or [Path("tests/casebook")])
        changed = rewrite_file(args.doc, cases)
    except (SheetgmError, OSError) as exc:
        print(exc.message("en") if isinstance(exc, SheetgmError) else str(exc), file=sys.stderr)
        return 1
    print(f"{args.doc}: {'index updated' if changed else 'index up to date'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
