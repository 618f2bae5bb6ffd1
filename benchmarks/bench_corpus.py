"""Real .xlsx files read by sheetgm's codec, with openpyxl and python-calamine as witnesses, and saved back.

    python benchmarks/bench_corpus.py [--lo N] [--slowest N] [FOLDER ...]

(default: tests/fixtures/xlsx and tests/fixtures/xlsx-saves)

For every .xlsx/.xlsm file under the folders: whether the codec reads it (or names it unreadable, and how),
the cells whose text agrees with neither witness (each with why: ``_why``), and what a save that writes one
cell does: parts dropped, parts whose bytes change, top-level elements of the workbook and sheets written
differently, values changed (as the codec reads the file back, and as each witness does), whether each
witness still opens the saved file. ``--lo N``: N of the saved files (spread over the corpus, with every file
the codec or a witness found anything in) are opened by LibreOffice too (``soffice --convert-to csv``, the
first tab, the file before and after the save): a save it cannot open, a value of the tab it shows otherwise.
``--slowest N``: the N files whose read and save cost most are read and saved again each in a process of its
own: CPU time and the process's peak memory (VmHWM). Prints one line per file with a problem, then the totals.
"""

from __future__ import annotations

import argparse
import csv
import io
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from xlsx_witness import Cells, by_calamine, by_openpyxl, differences, free_cell, ours, save_one_cell  # noqa: E402

from sheetgm.backends.a1 import col_index  # noqa: E402
from sheetgm.backends.errors import UnreadableFileError  # noqa: E402
from sheetgm.backends.xlsx import xmlkit  # noqa: E402
from sheetgm.backends.xlsx.book import Book  # noqa: E402
from sheetgm.backends.xlsx.read import read_book  # noqa: E402

# The text a file's cells show, at most, for the witnesses to read it: calamine gives each cell its own copy of a
# shared string, so 12,000 cells showing one 1 MB string are 12 GB.
WITNESS_TEXT = 200_000_000
# Read, edit and save one file in a process of its own: CPU seconds and the process's peak (VmHWM, MB).
COST = """
import re, sys, time
sys.path.insert(0, sys.argv[2])
from xlsx_witness import _free_cell
from sheetgm.backends.a1 import parse_range
from sheetgm.backends.port import SetBold, SetValues
from sheetgm.backends.xlsx import cells
from sheetgm.backends.xlsx.read import read_book
from sheetgm.backends.xlsx.write import write_book
data = open(sys.argv[1], "rb").read()
started = time.process_time()
book = read_book(data)
target = _free_cell(book)
for op in (SetValues(target, [["sheetgm"]]), SetBold(target)):
    cells.apply(book, book.sheets[0], op, parse_range(target))
write_book(book)
cpu = time.process_time() - started
with open("/proc/self/status") as f:
    peak = int(re.search(r"VmHWM:\\s+(\\d+)", f.read()).group(1)) / 1024
print(f"{cpu:.2f} {peak:.0f}")
"""


def _witness(read: object, data: bytes) -> Cells | None:
    try:
        return read(data)  # type: ignore[operator, no-any-return]
    except Exception:  # noqa: BLE001 - a witness that cannot read a file does not vote on it
        return None


def _why(book: Book, tab: str, rc: tuple[int, int], text: str, theirs: list[str]) -> str:
    """Why the codec's text of a cell agrees with no witness, where the reason is known (README: bench_corpus)."""
    sheet = next((s for s in book.sheets if s.name == tab), None)
    cell = sheet.cells.get(rc) if sheet is not None else None
    if rc[0] < 0 or rc[1] < 0:
        return "a cell the file places before row 1 or column A"
    if cell is not None and not cell.kind and cell.formula is not None and text.startswith("="):
        return "a formula saved without its result: read as its formula"
    if cell is not None and cell.kind == "e" and not any(theirs):
        return "an error value a witness reads as empty"
    if any("_x" in t and xmlkit.unescape(t) == text for t in theirs):
        return "an _xHHHH_ escape read as its character (the witnesses keep it as written)"
    if any(re.sub(r"(\.\d*?)0+$", r"\1", t) == text for t in theirs if ":" in t):
        return "a time with a fraction of a second, spelt with fewer zeros"
    if sheet is not None and _merged_inside(sheet.kept, rc):
        return "a value inside a merged range, not its first cell: openpyxl reads it as empty"
    if re.match(r"^\d{4}-\d\d-\d\dT", text) and (cell is None or cell.kind != "d"):
        return "a text in ISO date form: the witnesses' reading (xlsx_witness.as_text) takes it for a date"
    return "not explained"


def _merged_inside(kept: list[tuple[float, str, str]], rc: tuple[int, int]) -> bool:
    """Whether the cell is in a merged range of the sheet (its ``mergeCells`` as kept) and not the range's first."""
    for _rank, name, xml in kept:
        if name == "mergeCells":
            for ref in re.findall(r'ref="([A-Z]+[0-9]+):([A-Z]+[0-9]+)"', xml):
                (r1, c1), (r2, c2) = (_at_ref(ref[0]), _at_ref(ref[1]))
                if r1 <= rc[0] <= r2 and c1 <= rc[1] <= c2 and rc != (r1, c1):
                    return True
    return False


def _at_ref(ref: str) -> tuple[int, int]:
    letters = ref.rstrip("0123456789")
    return int(ref[len(letters):]) - 1, col_index(letters)


def _moved(before: Cells | None, after: Cells | None, tab: str, written: tuple[int, int]) -> tuple[int, int]:
    """Values a witness reads differently in the saved file (the written cell aside), and of those the ones that
    differ only by blanks at their ends; (0, 0) when it read neither."""
    if before is None or after is None:
        return 0, 0
    n = blanks = 0
    for name, cells in before.items():
        now = after.get(name, {})
        for rc in set(cells) | set(now):
            if name == tab and rc == written:
                continue
            a, b = cells.get(rc, ""), now.get(rc, "")
            if a != b:
                n += 1
                blanks += a.strip(" \t\r\n") == b.strip(" \t\r\n")
    return n, blanks


def _libreoffice(pairs: list[tuple[Path, Path, tuple[int, int], set[tuple[int, int]]]], folder: Path
                 ) -> tuple[int, int, int, int, list[str]]:
    """Each (file, saved, written cell, formula cells of the first tab) opened by LibreOffice: (files it opened,
    saves it could not open of those, values of the first tab it shows differently after the save, of which
    formulas it computed again, the files concerned). A save that changed cells asks for the formulas to be
    computed again on opening (``fullCalcOnLoad``), as Excel does; LibreOffice then shows what it computes."""
    soffice = shutil.which("soffice")
    if soffice is None or not pairs:
        return 0, 0, 0, 0, []
    out = folder / "csv"
    profile = folder / "profile"
    files = [p for a, b, _cell_at, _formulas in pairs for p in (a, b)]
    for at in range(0, len(files), 40):
        subprocess.run([soffice, f"-env:UserInstallation=file://{profile}", "--headless", "--norestore",
                        "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1", "--outdir", str(out),
                        *map(str, files[at:at + 40])], capture_output=True, timeout=900, check=False)
    opened = failed = changed = computed = 0
    problems = []
    for before, after, written, formulas in pairs:
        a, b = out / (before.stem + ".csv"), out / (after.stem + ".csv")
        if not a.exists():
            continue  # LibreOffice does not open the file as it was: it does not vote on the save
        opened += 1
        if not b.exists():
            failed += 1
            problems.append(f"LibreOffice cannot open the save of {before.name}")
            continue
        old, new = _rows(a), _rows(b)
        moved = [(r, c) for r in range(max(len(old), len(new))) for c in range(max(len(_at(old, r)), len(_at(new, r))))
                 if (r, c) != written and _cell(old, r, c) != _cell(new, r, c)]
        again = sum(rc in formulas for rc in moved)
        if moved:
            changed += len(moved)
            computed += again
            first = [(rc, _cell(old, *rc), _cell(new, *rc)) for rc in moved[:2]]
            problems.append(f"LibreOffice shows {len(moved)} values changed by the save of {before.name} ({again} "
                            f"formulas computed again), first {first}")
    return opened, failed, changed, computed, problems


def _rows(path: Path) -> list[list[str]]:
    rows = list(csv.reader(io.StringIO(path.read_text("utf-8", "replace"))))
    while rows and not any(rows[-1]):
        rows.pop()
    return rows


def _at(rows: list[list[str]], r: int) -> list[str]:
    return rows[r] if r < len(rows) else []


def _cell(rows: list[list[str]], r: int, c: int) -> str:
    row = _at(rows, r)
    return row[c] if c < len(row) else ""


def main(folders: list[Path], lo: int, slowest: int) -> None:
    files = sorted(p for f in folders for p in f.rglob("*") if p.suffix.lower() in (".xlsx", ".xlsm"))
    totals: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    cannot_open: Counter[str] = Counter()
    costs: list[tuple[float, Path]] = []
    notable: list[tuple[Path, bytes, bytes, tuple[int, int], set[tuple[int, int]]]] = []
    plain: list[tuple[Path, bytes, bytes, tuple[int, int], set[tuple[int, int]]]] = []
    started = time.perf_counter()
    for path in files:
        data = path.read_bytes()
        totals["files"] += 1
        clock = time.process_time()
        try:
            book = read_book(data)
        except UnreadableFileError as exc:
            refused[exc.code.rsplit(".", 1)[-1]] += 1
            print(f"unreadable  {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {exc.code}")
            continue
        read_cpu = time.process_time() - clock
        mine = ours(book)
        shown = sum(len(t) for cells in mine.values() for t in cells.values())
        if shown > WITNESS_TEXT:  # (POI's poc-shared-strings: 12 GB of copies of one text in calamine's lists)
            totals["files the witnesses cannot be asked about"] += 1
            print(f"too large for the witnesses {path}: {shown / 1e6:.0f} MB of text shown")
            opx = cal = None
        else:
            opx, cal = _witness(by_openpyxl, data), _witness(by_calamine, data)
        diff = differences(mine, opx, cal)
        saving = time.process_time()
        try:
            kept = save_one_cell(data)
        except Exception as exc:  # noqa: BLE001 - a save that fails, or writes a file that does not parse
            totals["saves failed"] += 1
            print(f"save failed {path}: {type(exc).__name__}: {exc}")
            continue
        costs.append((read_cpu + time.process_time() - saving, path))
        why = Counter(_why(book, *d[:2], d[2], d[3]) for d in diff)
        reasons.update(why)
        totals["values differing"] += len(diff)
        totals["files with values differing"] += bool(diff)
        totals["parts dropped"] += len(kept.dropped_parts)
        totals["parts changed"] += len(kept.changed_parts)
        totals["elements dropped"] += len(kept.dropped_elements)
        totals["values changed by a save"] += len(kept.value_changes)
        saved_opx = _witness(by_openpyxl, kept.saved) if opx is not None else None
        saved_cal = _witness(by_calamine, kept.saved) if cal is not None else None
        lost = [name for name, was, now in (("openpyxl", opx, saved_opx), ("calamine", cal, saved_cal))
                if was is not None and now is None]
        cannot_open.update(lost)
        written = free_cell(book)
        formulas = {rc for rc, c in book.sheets[0].cells.items() if c.formula is not None}
        by = [_moved(was, now, book.sheets[0].name, written) for was, now in ((opx, saved_opx), (cal, saved_cal))]
        moved = sum(n for n, _blanks in by)
        totals["values a witness reads changed by a save"] += moved
        totals["of which blanks at a text's ends"] += sum(blanks for _n, blanks in by)
        if opx is None and cal is None and shown > WITNESS_TEXT:
            continue  # nor LibreOffice (its CSV of such a tab would be as large)
        if diff or kept.dropped_parts or kept.changed_parts or kept.dropped_elements or kept.value_changes or lost \
                or moved:
            print(f"{path}: {len(diff)} values differ {dict(why)} {diff[:2]}; dropped {kept.dropped_parts[:3]}, "
                  f"changed {kept.changed_parts[:3]}, elements {kept.dropped_elements[:3]}, values "
                  f"{kept.value_changes[:2]}, witnesses cannot open the save: {lost}, values they read changed: "
                  f"{moved}")
            notable.append((path, data, kept.saved, written, formulas))
        else:
            plain.append((path, data, kept.saved, written, formulas))
    elapsed = time.perf_counter() - started
    lo_figures: tuple[int, int, int, int, list[str]] = (0, 0, 0, 0, [])
    if lo:
        step = max(1, len(plain) // max(1, lo - len(notable)))
        sample = (notable + plain[::step])[:max(lo, len(notable))]
        with tempfile.TemporaryDirectory() as folder:
            pairs = []
            for i, (_path, data, saved, written, formulas) in enumerate(sample):
                a, b = Path(folder) / f"{i:04d}-before.xlsx", Path(folder) / f"{i:04d}-saved.xlsx"
                a.write_bytes(data)
                b.write_bytes(saved)
                pairs.append((a, b, written, formulas))
            lo_figures = _libreoffice(pairs, Path(folder))
            names = {f"{i:04d}-before.xlsx": str(p) for i, (p, *_rest) in enumerate(sample)}
            for problem in lo_figures[4]:
                print(re.sub(r"\d{4}-before\.xlsx", lambda m: names.get(m.group(0), m.group(0)), problem))
    print(f"\n{totals['files']} files in {elapsed:.1f} s; unreadable: {sum(refused.values())} "
          f"({', '.join(f'{k} {v}' for k, v in sorted(refused.items()))})")
    for key in ("files the witnesses cannot be asked about", "saves failed", "values differing",
                "files with values differing"):
        print(f"  {key}: {totals[key]}")
    for reason, n in reasons.most_common():
        print(f"    {n}: {reason}")
    for key in ("parts dropped", "parts changed", "elements dropped", "values changed by a save",
                "values a witness reads changed by a save", "of which blanks at a text's ends"):
        print(f"  {key}: {totals[key]}")
    print(f"  saves a witness cannot open (that opened the file): openpyxl {cannot_open['openpyxl']}, "
          f"calamine {cannot_open['calamine']}")
    if lo:
        print(f"  LibreOffice: {lo_figures[0]} files opened before and after the save; saves it cannot open: "
              f"{lo_figures[1]}; values of the first tab it shows changed: {lo_figures[2]} (formulas it computed "
              f"again: {lo_figures[3]})")
    costs.sort(reverse=True)
    for cpu, path in costs[:slowest]:
        done = subprocess.run([sys.executable, "-c", COST, str(path), str(ROOT / "tests")], capture_output=True,
                              text=True, check=False)
        figures = done.stdout.split() or ["?", "?"]
        print(f"  slowest read and save: {path.name}: {figures[0]} s CPU, peak {figures[1]} MB (here, with the "
              f"checks of the save: {cpu:.2f} s)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--lo", type=int, default=0, help="saved files LibreOffice opens (0: none)")
    parser.add_argument("--slowest", type=int, default=3, help="slowest files measured in a process of their own")
    args = parser.parse_args()
    main(args.folders or [ROOT / "tests" / "fixtures" / "xlsx", ROOT / "tests" / "fixtures" / "xlsx-saves"], args.lo,
         args.slowest)
