"""Real .xlsx files read by sheetgm's codec, with openpyxl and python-calamine as witnesses, and saved back.

    python benchmarks/bench_corpus.py [FOLDER ...]     (default: tests/fixtures/xlsx)

For every .xlsx/.xlsm file under the folders: whether the codec reads it (or names it unreadable, and how),
the cells whose text agrees with neither witness, and what a save that writes one cell drops: parts, parts
whose bytes change, top-level elements of the workbook and sheets written differently, values changed.
Prints one line per file with a problem, then the totals.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from xlsx_witness import by_calamine, by_openpyxl, differences, ours, save_one_cell  # noqa: E402

from sheetgm.backends.errors import UnreadableFileError  # noqa: E402
from sheetgm.backends.xlsx.read import read_book  # noqa: E402


def _witness(read: object, data: bytes) -> object:
    try:
        return read(data)  # type: ignore[operator]
    except Exception:  # noqa: BLE001 - a witness that cannot read a file does not vote on it
        return None


def main(folders: list[Path]) -> None:
    files = sorted(p for f in folders for p in f.rglob("*") if p.suffix.lower() in (".xlsx", ".xlsm"))
    totals: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    started = time.perf_counter()
    for path in files:
        data = path.read_bytes()
        totals["files"] += 1
        try:
            book = read_book(data)
        except UnreadableFileError as exc:
            refused[exc.code.rsplit(".", 1)[-1]] += 1
            print(f"unreadable  {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {exc.code}")
            continue
        mine = ours(book)
        opx, cal = _witness(by_openpyxl, data), _witness(by_calamine, data)
        diff = differences(mine, opx, cal)  # type: ignore[arg-type]
        try:
            kept = save_one_cell(data)
        except Exception as exc:  # noqa: BLE001 - a save that fails, or writes a file that does not parse
            totals["saves failed"] += 1
            print(f"save failed {path}: {type(exc).__name__}: {exc}")
            continue
        totals["values differing"] += len(diff)
        totals["files with values differing"] += bool(diff)
        totals["parts dropped"] += len(kept.dropped_parts)
        totals["parts changed"] += len(kept.changed_parts)
        totals["elements dropped"] += len(kept.dropped_elements)
        totals["values changed by a save"] += len(kept.value_changes)
        saved_opx = _witness(by_openpyxl, kept.saved)
        totals["saved files openpyxl cannot read"] += opx is not None and saved_opx is None
        if diff or kept.dropped_parts or kept.changed_parts or kept.dropped_elements or kept.value_changes:
            print(f"{path}: {len(diff)} values differ {diff[:2]}; dropped {kept.dropped_parts[:3]}, changed "
                  f"{kept.changed_parts[:3]}, elements {kept.dropped_elements[:3]}, values {kept.value_changes[:2]}")
    print(f"\n{totals['files']} files in {time.perf_counter() - started:.1f} s; unreadable: {sum(refused.values())} "
          f"({', '.join(f'{k} {v}' for k, v in sorted(refused.items()))})")
    for key in ("saves failed", "values differing", "files with values differing", "parts dropped", "parts changed",
                "elements dropped", "values changed by a save", "saved files openpyxl cannot read"):
        print(f"  {key}: {totals[key]}")


if __name__ == "__main__":
    main([Path(a) for a in sys.argv[1:]] or [ROOT / "tests" / "fixtures" / "xlsx"])
