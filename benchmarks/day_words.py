"""Issue 16 shown: a ten-player local game over three nights (six players write Chinese, four English) played
through the command line as a new director plays it, and every text a person read counted.

Prints how many texts each reader read and how many were a raw template key, English inside a Chinese text
or Chinese inside an English one (the goal is 0; tests/service/test_day_words.py asserts it), the director's
commands with their output (``--transcript``), and with ``--screenshot`` draws the public workbook's two Log
tabs through LibreOffice headless (soffice, then pdftoppm) into docs/img/public-log-bilingual.png.

Run: ``python benchmarks/day_words.py [--transcript] [--screenshot] [--keep DIR]``.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "service"), str(ROOT / "tests")]

import day_game  # noqa: E402  (a test helper: the game and the counting are the test's own)

from sheetgm.service.game import open_game  # noqa: E402
from sheetgm.sheets import layout  # noqa: E402


def screenshot(folder: Path, source: Path, out: Path) -> Path:
    """The public workbook ``source``'s Log tabs, Chinese above English, as LibreOffice prints them (one page
    wide; rows at LibreOffice's own height for the fonts it has)."""
    import openpyxl  # the test extra: an independent xlsx library, here only to set the print layout
    import openpyxl.styles
    from PIL import Image

    game = open_game(folder)
    logs = [layout.tab(lang, "log") for lang in game.langs]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        book = openpyxl.load_workbook(source)
        for ws in list(book.worksheets):
            if ws.title not in logs:
                book.remove(ws)
                continue
            ws.page_setup.orientation = "landscape"
            ws.page_setup.fitToWidth, ws.page_setup.fitToHeight = 1, 0
            ws.sheet_properties.pageSetUpPr.fitToPage = True
            ws.column_dimensions["A"].width = 14
            ws.column_dimensions["B"].width = 60
            ws.column_dimensions["C"].width = 100
            ws.column_dimensions["D"].width = 20
            for row in ws.iter_rows():  # a line of Chinese is taller than the writer's 15 pt
                lines = max((str(c.value).count("\n") + 1 for c in row if c.value), default=1)
                ws.row_dimensions[row[0].row].height = 17 * lines + 3
                for c in row:
                    c.alignment = openpyxl.styles.Alignment(wrap_text=True, vertical="top")
        book.save(work / "public.xlsx")
        profile = f"-env:UserInstallation=file://{work / 'profile'}"
        subprocess.run(["soffice", profile, "--headless", "--convert-to", "pdf", "--outdir", str(work),
                        str(work / "public.xlsx")], check=True, capture_output=True, timeout=300)
        subprocess.run(["pdftoppm", "-png", "-r", "110", str(work / "public.pdf"), str(work / "page")], check=True,
                       timeout=120)
        pages = [Image.open(p).convert("RGB") for p in sorted(work.glob("page-*.png"))]
        crops = [p.crop(p.getbbox() or (0, 0, p.width, p.height)) for p in pages]
        crops = [c.crop(Image.eval(c, lambda v: 255 - v).getbbox() or (0, 0, c.width, c.height)) for c in crops]
        width, pad = max(c.width for c in crops) + 40, 20
        sheet = Image.new("RGB", (width, sum(c.height + pad for c in crops) + pad), "white")
        y = pad
        for c in crops:
            sheet.paste(c, (20, y))
            y += c.height + pad
        out.parent.mkdir(parents=True, exist_ok=True)
        sheet.save(out, optimize=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--transcript", action="store_true", help="print every command the director ran, with output")
    ap.add_argument("--screenshot", action="store_true", help="draw docs/img/public-log-bilingual.png")
    ap.add_argument("--keep", type=Path, help="play in this folder (kept) instead of a temporary one")
    args = ap.parse_args()
    folder = (args.keep or Path(tempfile.mkdtemp())) / "winter-cup"
    if folder.exists():
        shutil.rmtree(folder)
    started = time.perf_counter()
    kept = folder.parent / "public-before-N3-survivor.xlsx"
    t = day_game.play(folder, keep=kept)
    took = time.perf_counter() - started
    found = day_game.count(t)
    readers = Counter((s.reader if s.reader in ("director", "everyone") else "a player", s.lang) for s in t.seen)
    print(f"played in {took:.1f} s: {len(t.commands)} commands, {len(t.seen)} texts read")
    for (who, lang), n in sorted(readers.items()):
        print(f"  {who:<9} {lang}: {n} texts")
    for kind, seen in found.items():
        print(f"{kind}: {len(seen)}")
    for line in day_game.offenders(found):
        print("  " + line)
    if args.transcript:
        for command, output in t.commands:
            print(f"\n$ {command}\n{output.rstrip()}")
    if args.screenshot:
        print("screenshot:", screenshot(folder, kept, ROOT / "docs" / "img" / "public-log-bilingual.png"))
    if not args.keep:
        shutil.rmtree(folder.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
