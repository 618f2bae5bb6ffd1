"""What a hostile or oversized player workbook costs `sheetgm check` and `sheetgm resolve`.

    python benchmarks/bench_hostile.py [--only NAME ...] [--keep DIR]

A 10-player local game whose survivors have written their first order; for each case, a fresh copy of the
game folder in which player 2's workbook is replaced by the case's file, then `sheetgm check` and
`sheetgm resolve --stage survivor` run as the director runs them (a new process each). For each command:
wall time, CPU time, the process's peak memory (its own ru_maxrss), its exit code, whether the other
players were resolved, and how player 2's workbook was named. Every case must end within seconds, under
200 MB, with the others resolved.

The cases: the real workbook (the baseline); bombs (a part that inflates to 400 MB, a bzip2 part of 1 GB in
1 KB, 250,000 zip entries,
600,000 shared strings, an XML entity bomb); a million filled rows; 250,000 filled rows; 45,000 filled rows,
one 12 MB text and 900 tabs (within the limits: read, resolved and written back); 3,000 tabs.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

# The peak is the process's own (VmHWM: ru_maxrss would carry the benchmark's peak over the fork and exec).
CLI = """
import atexit, re, resource, sys
def peak():
    try:
        with open("/proc/self/status") as f:
            kb = int(re.search(r"VmHWM:\\s+(\\d+)", f.read()).group(1))
    except (OSError, AttributeError):
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"PEAK_KB {kb}", file=sys.stderr)
atexit.register(peak)
from sheetgm.cli.main import main
sys.argv[0] = "sheetgm"
main()
"""
MAKE_GAME = """
import random, sys
from pathlib import Path
from sheetgm.service.config.load import parse_config
from sheetgm.service.demo import demo_config, submit
from sheetgm.service.ledger.journal import latest, read_director
from sheetgm.service.new_game import new_game
game = new_game(Path(sys.argv[1]), parse_config(demo_config(10, 1, "zh", 12), "demo"))
state = latest(read_director(game)[0]).state(game.board)
rng = random.Random(1)
for p in state.survivors():
    submit(game, state, p.seat, rng)
print(game.gateway.path("player-2"))
"""
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def _rebuilt(base: bytes, path: Path, change: Callable[[zipfile.ZipFile, zipfile.ZipFile], set[str]]) -> None:
    """``base`` written to ``path`` with ``change`` writing its own parts first (it returns the names it wrote)."""
    with zipfile.ZipFile(io.BytesIO(base)) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        done = change(src, out)
        for info in src.infolist():
            if info.filename not in done:
                out.writestr(info.filename, src.read(info.filename))


def _orders_part(src: zipfile.ZipFile) -> str:
    return "xl/worksheets/sheet1.xml"


def huge_part(base: bytes, path: Path) -> None:
    """The Orders tab's part inflates to 400 MB (blanks after its elements): 0.4 MB in the file."""
    def change(src: zipfile.ZipFile, out: zipfile.ZipFile) -> set[str]:
        name = _orders_part(src)
        xml = src.read(name)
        head, tail = xml.rsplit(b"</worksheet>", 1)
        with out.open(name, "w", force_zip64=True) as f:
            f.write(head)
            blank = b" " * (1 << 20)
            for _ in range(400):
                f.write(blank)
            f.write(b"</worksheet>" + tail)
        return {name}
    _rebuilt(base, path, change)


def bzip2_bomb(base: bytes, path: Path) -> None:
    """A picture part compressed with bzip2 (which no spreadsheet program writes): 1 GB of zeros in about 1 KB."""
    def change(src: zipfile.ZipFile, out: zipfile.ZipFile) -> set[str]:
        info = zipfile.ZipInfo("xl/media/image1.png")
        info.compress_type = zipfile.ZIP_BZIP2
        with out.open(info, "w") as f:
            zeros = bytes(1 << 20)
            for _ in range(1024):
                f.write(zeros)
        return set()
    _rebuilt(base, path, change)


def many_entries(base: bytes, path: Path) -> None:
    """250,000 empty entries beside the workbook's parts."""
    def change(src: zipfile.ZipFile, out: zipfile.ZipFile) -> set[str]:
        for i in range(250_000):
            out.writestr(zipfile.ZipInfo(f"x/{i}"), b"")
        return set()
    _rebuilt(base, path, change)


def _with_strings(base: bytes, path: Path, items: bytes) -> None:
    def change(src: zipfile.ZipFile, out: zipfile.ZipFile) -> set[str]:
        rels = src.read("xl/_rels/workbook.xml.rels").replace(
            b"</Relationships>", f'<Relationship Id="rIdS" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/>'
            "</Relationships>".encode())
        out.writestr("xl/_rels/workbook.xml.rels", rels)
        out.writestr("xl/sharedStrings.xml", f'<sst xmlns="{MAIN}">'.encode() + items + b"</sst>")
        return {"xl/_rels/workbook.xml.rels"}
    _rebuilt(base, path, change)


def huge_strings(base: bytes, path: Path) -> None:
    """A shared-string table of 600,000 entries (12 MB)."""
    _with_strings(base, path, b"".join(b"<si><t>s%d</t></si>" % i for i in range(600_000)))


def one_big_text(base: bytes, path: Path) -> None:
    """One shared string of 12 MB (within the limits: read)."""
    _with_strings(base, path, b"<si><t>" + b"x" * (12 << 20) + b"</t></si>")


def _rows(base: bytes, path: Path, n: int) -> None:
    def change(src: zipfile.ZipFile, out: zipfile.ZipFile) -> set[str]:
        name = _orders_part(src)
        xml = src.read(name)
        rows = b"".join(b'<row r="%d"><c r="J%d"><v>1</v></c></row>' % (r, r) for r in range(1000, 1000 + n))
        out.writestr(name, xml.replace(b"</sheetData>", rows + b"</sheetData>", 1))
        return {name}
    _rebuilt(base, path, change)


def million_rows(base: bytes, path: Path) -> None:
    """1,000,000 filled rows below the Orders tab's own (42 MB of XML)."""
    _rows(base, path, 1_000_000)


def rows_250k(base: bytes, path: Path) -> None:
    """250,000 filled rows: past the cell limit."""
    _rows(base, path, 250_000)


def rows_45k(base: bytes, path: Path) -> None:
    """45,000 filled rows: 90,000 cells and rows, within the limits (read, resolved and written back)."""
    _rows(base, path, 45_000)


def _tabs(base: bytes, path: Path, n: int) -> None:
    def change(src: zipfile.ZipFile, out: zipfile.ZipFile) -> set[str]:
        book = src.read("xl/workbook.xml").decode()
        rels = src.read("xl/_rels/workbook.xml.rels").decode()
        types = src.read("[Content_Types].xml").decode()
        sheet = f'<worksheet xmlns="{MAIN}"><sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData></worksheet>'
        entries, links, overrides = [], [], []
        for i in range(n):
            out.writestr(f"xl/worksheets/extra{i}.xml", sheet)
            entries.append(f'<sheet name="T{i}" sheetId="{1000 + i}" r:id="rX{i}"/>')
            links.append(f'<Relationship Id="rX{i}" Type="{REL}/worksheet" Target="worksheets/extra{i}.xml"/>')
            overrides.append(f'<Override PartName="/xl/worksheets/extra{i}.xml" ContentType="application/vnd.'
                             'openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>')
        out.writestr("xl/workbook.xml", book.replace("</sheets>", "".join(entries) + "</sheets>"))
        out.writestr("xl/_rels/workbook.xml.rels", rels.replace("</Relationships>", "".join(links) +
                                                                 "</Relationships>"))
        out.writestr("[Content_Types].xml", types.replace("</Types>", "".join(overrides) + "</Types>"))
        return {"xl/workbook.xml", "xl/_rels/workbook.xml.rels", "[Content_Types].xml"}
    _rebuilt(base, path, change)


def tabs_3000(base: bytes, path: Path) -> None:
    """3,000 tabs beside the workbook's own."""
    _tabs(base, path, 3000)


def tabs_900(base: bytes, path: Path) -> None:
    """900 tabs (within the limits: read, resolved and written back)."""
    _tabs(base, path, 900)


def entity_bomb(base: bytes, path: Path) -> None:
    """The billion laughs: the shared strings declare entities that expand to gigabytes."""
    lol = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10 if i else "lol"}">' for i in range(10))
    table = f'<?xml version="1.0"?><!DOCTYPE sst [{lol}]><sst xmlns="{MAIN}"><si><t>&l9;</t></si></sst>'

    def change(src: zipfile.ZipFile, out: zipfile.ZipFile) -> set[str]:
        rels = src.read("xl/_rels/workbook.xml.rels").replace(
            b"</Relationships>", f'<Relationship Id="rIdS" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/>'
            "</Relationships>".encode())
        out.writestr("xl/_rels/workbook.xml.rels", rels)
        out.writestr("xl/sharedStrings.xml", table)
        return {"xl/_rels/workbook.xml.rels"}
    _rebuilt(base, path, change)


def baseline(base: bytes, path: Path) -> None:
    """The player's workbook as sheetgm wrote it."""
    path.write_bytes(base)


CASES: dict[str, Callable[[bytes, Path], None]] = {
    "baseline": baseline, "huge-part": huge_part, "bzip2-bomb": bzip2_bomb, "many-entries": many_entries,
    "huge-strings": huge_strings, "entity-bomb": entity_bomb, "million-rows": million_rows, "250k-rows": rows_250k,
    "45k-rows": rows_45k, "12MB-text": one_big_text,
    "3000-tabs": tabs_3000, "900-tabs": tabs_900,
}


def run(args: list[str], env: dict[str, str]) -> tuple[float, float, int, int, str]:
    """(wall s, cpu s, peak KB, exit code, stdout+stderr) of one command in a new process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CLI, *args], env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    peak = re.search(r"PEAK_KB (\d+)", done.stderr)
    return wall, cpu, int(peak.group(1)) if peak else -1, done.returncode, done.stdout + done.stderr


WORDS = {"解压后超过": "part too large", "声明了 DTD": "DTD refused", "个部件": "too many parts",
         "段不同的文字": "too many strings", "单元格超过": "too many cells", "超过 1000 个标签页": "too many tabs",
         "MB，而工作簿最多": "file too large", "压缩方式": "compression refused", "已损坏": "damaged"}


def verdict(output: str) -> str:
    """How player 2's workbook was named, or "read" when it was not."""
    for line in output.splitlines():
        if "S2" in line and ("读不到：" in line or "写不进：" in line):
            return "refused: " + next((w for k, w in WORDS.items() if k in line), line[-60:])
    return "read"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", choices=sorted(CASES))
    ap.add_argument("--keep", type=Path, help="keep the game folders here")
    opts = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory(prefix="bench-hostile-") as tmp:
        work = opts.keep or Path(tmp)
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        game = work / "game"
        made = subprocess.run([sys.executable, "-c", MAKE_GAME, str(game)], env=env, capture_output=True, text=True,
                              check=True)
        seat2 = Path(made.stdout.strip().splitlines()[-1])
        base = seat2.read_bytes()
        print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores; player 2's workbook {len(base)} bytes")
        print(f"{'case':<14}{'file':>9}  {'command':<8}{'wall s':>7}{'cpu s':>7}{'peak MB':>9}{'exit':>5}  "
              "others resolved  player 2")
        for name in opts.only or CASES:
            folder = work / name
            shutil.copytree(game, folder)
            target = folder / seat2.relative_to(game)
            CASES[name](base, target)
            size = target.stat().st_size
            for command in (["check"], ["resolve", "--stage", "survivor"]):
                wall, cpu, peak, code, out = run([*command, "--game", str(folder)], env)
                others = ("已结算并发布" in out) if command[0] == "resolve" else ("S1" in out or code == 0)
                print(f"{name:<14}{size / 1e6:>8.2f}M  {command[0]:<8}{wall:>7.2f}{cpu:>7.2f}{peak / 1024:>9.0f}"
                      f"{code:>5}  {'yes' if others else 'NO':<16} {verdict(out)}")


if __name__ == "__main__":
    main()
