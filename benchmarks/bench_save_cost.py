"""What a save costs on files made to make it cost: each within the reader's limits (package.Limits), read, one cell
written in bold (a new style), saved, in a process of its own with a cache folder of its own, twice (a cold kept
table, then the one the first run wrote): CPU time and the process's peak memory (VmHWM).

    python benchmarks/bench_save_cost.py [--only CASE ...]

The goal (issue 29): any file within the limits read and saved in <= 2 s and <= 200 MB, or refused.
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
N = 95_000  # cells: the limit is 100,000

RUN = """
import re, sys, time
from sheetgm.backends.a1 import parse_range
from sheetgm.backends.errors import UnreadableFileError
from sheetgm.backends.port import SetBold, SetValues
from sheetgm.backends.xlsx import cells, kept
from sheetgm.backends.xlsx.read import read_book
from sheetgm.backends.xlsx.write import write_book
data = open(sys.argv[1], "rb").read()
started = time.process_time()
try:
    book = read_book(data)
except UnreadableFileError as exc:
    outcome = "refused: " + exc.code.rsplit(".", 1)[-1]
else:
    sheet = book.sheets[0]
    target = f"'{sheet.name}'!A{sheet.extent()[0] + 1}"
    for op in (SetValues(target, [["sheetgm"]]), SetBold(target)):
        cells.apply(book, sheet, op, parse_range(target))
    outcome = f"saved, {len(write_book(book)) / 1e6:.1f} MB"
    kept.save()
cpu = time.process_time() - started
with open("/proc/self/status") as f:
    peak = int(re.search(r"VmHWM:\\s+(\\d+)", f.read()).group(1)) / 1024
print(f"{cpu:.2f} {peak:.0f} {outcome}")
"""


def _package(rows: str, strings: list[str] | None = None, styles: str | None = None) -> bytes:
    parts = {
        "[Content_Types].xml": '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/></Types>',
        "_rels/.rels": f'<Relationships xmlns="{PKG}"><Relationship Id="rId1" Type="{REL}/officeDocument" '
        'Target="xl/workbook.xml"/></Relationships>',
        "xl/_rels/workbook.xml.rels": f'<Relationships xmlns="{PKG}">'
        f'<Relationship Id="rId1" Type="{REL}/worksheet" Target="worksheets/sheet1.xml"/>'
        f'<Relationship Id="rId2" Type="{REL}/styles" Target="styles.xml"/>'
        f'<Relationship Id="rId3" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
        "xl/workbook.xml": f'<workbook xmlns="{MAIN}" xmlns:r="{REL}"><sheets><sheet name="Tab" sheetId="1" '
        'r:id="rId1"/></sheets></workbook>',
        "xl/worksheets/sheet1.xml": f'<worksheet xmlns="{MAIN}"><sheetData>{rows}</sheetData></worksheet>',
        "xl/styles.xml": styles or f'<styleSheet xmlns="{MAIN}"><fonts count="1"><font><sz val="11"/></font></fonts>'
        '<fills count="1"><fill><patternFill/></fill></fills><borders count="1"><border/></borders>'
        '<cellXfs count="1"><xf/></cellXfs></styleSheet>',
        "xl/sharedStrings.xml": f'<sst xmlns="{MAIN}">' + "".join(f"<si><t>{t}</t></si>" for t in strings or [])
        + "</sst>",
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in parts.items():
            z.writestr(name, text.encode("utf-8"))
    return out.getvalue()


def one_string_everywhere() -> bytes:
    """One 1 MB shared string shown by 95,000 cells (POI's poc-shared-strings, eight times over)."""
    rows = "".join(f'<row r="{r}"><c r="A{r}" t="s"><v>0</v></c></row>' for r in range(1, N + 1))
    return _package(rows, ["abcdefghij" * 100_000])


def long_formula_filled_down() -> bytes:
    """An 8,000-character formula filled down 95,000 rows, saved without results (each cell reads as it)."""
    formula = "+".join(f"A{i}" for i in range(1, 1400))[:8000].rstrip("+A")
    rows = f'<row r="1"><c r="B1"><f t="shared" ref="B1:B{N}" si="0">{formula}</f></c></row>' + "".join(
        f'<row r="{r}"><c r="B{r}"><f t="shared" si="0"/></c></row>' for r in range(2, N + 1))
    return _package(rows)


def many_strings() -> bytes:
    """95,000 distinct shared strings of 150 characters, each in a cell."""
    rows = "".join(f'<row r="{r}"><c r="A{r}" t="s"><v>{r - 1}</v></c></row>' for r in range(1, N + 1))
    return _package(rows, [f"{i:08d}" + "x" * 142 for i in range(N)])


def many_formats() -> bytes:
    """60,000 cell formats, each cell its own (a bold cell then makes a format of one)."""
    fonts = "".join(f'<font><sz val="{8 + i % 20}"/><name val="F{i}"/></font>' for i in range(2_000))
    xfs = "".join(f'<xf numFmtId="{i % 50}" fontId="{i % 2_000}" fillId="0" borderId="0"/>' for i in range(60_000))
    styles = (f'<styleSheet xmlns="{MAIN}"><fonts count="2000">{fonts}</fonts><fills count="1"><fill><patternFill/>'
              f'</fill></fills><borders count="1"><border/></borders><cellXfs count="60000">{xfs}</cellXfs>'
              "</styleSheet>")
    rows = "".join(f'<row r="{r}"><c r="A{r}" s="{r - 1}"><v>{r}</v></c></row>' for r in range(1, 60_001))
    return _package(rows, styles=styles)


def escaped_controls() -> bytes:
    """18,000 inline texts of 100 escaped control characters each (``_x0001_``: written back escaped)."""
    text = "_x0001_a" * 100
    rows = "".join(f'<row r="{r}"><c r="A{r}" t="inlineStr"><is><t>{text}</t></is></c></row>' for r in range(1, 18_001))
    return _package(rows)


def big_inline_texts() -> bytes:
    """1,000 cells of 15,000 characters of inline text each (15 MB of sheet)."""
    rows = "".join(f'<row r="{r}"><c r="A{r}" t="inlineStr"><is><t>{r:06d}{"y" * 14_994}</t></is></c></row>'
                   for r in range(1, 1_001))
    return _package(rows)


CASES: dict[str, Callable[[], bytes]] = {
    "one_string_everywhere": one_string_everywhere,
    "long_formula_filled_down": long_formula_filled_down,
    "many_strings": many_strings,
    "many_formats": many_formats,
    "escaped_controls": escaped_controls,
    "big_inline_texts": big_inline_texts,
}


def main(only: list[str]) -> None:
    fixture = ROOT / "tests" / "fixtures" / "xlsx-saves" / "poi-poc-shared-strings.xlsx"
    files = [("poc_shared_strings", "POI's poc-shared-strings.xlsx", fixture.read_bytes())]
    files += [(name, (make.__doc__ or "").strip(), make()) for name, make in CASES.items()]
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    print(f"{'case':26} {'file':>8}  cold: CPU / peak   warm: CPU / peak   outcome")
    for name, what, data in files:
        if only and name not in only:
            continue
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "w.xlsx"
            path.write_bytes(data)
            figures = []
            for _run in range(2):
                done = subprocess.run([sys.executable, "-c", RUN, str(path)], capture_output=True, text=True,
                                      env={**env, "SHEETGM_CACHE_DIR": str(Path(folder) / "cache")}, check=False)
                figures.append(done.stdout.split(maxsplit=2) or ["?", "?", done.stderr.strip()[-80:]])
        (c1, p1, outcome), (c2, p2, _o) = figures
        print(f"{name:26} {len(data) / 1e6:6.2f}MB  {c1:>6} s / {p1:>4} MB  {c2:>6} s / {p2:>4} MB  {outcome}   "
              f"({what})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", nargs="*", default=[])
    main(parser.parse_args().only)
