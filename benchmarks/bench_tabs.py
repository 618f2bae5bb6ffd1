"""The tab attacks on a player's local workbook (issue 29.2): tried, caught by `audit`, repaired by the next resolve.

LibreOffice and Gnumeric do not enforce the lock on a workbook's tabs, so a player can delete, rename, add,
hide and show tabs. Each attack is made on player 1's file of a fresh 4-player .xlsx game after its first stage
(openpyxl as the player's hands; Gnumeric's ``ssconvert`` and LibreOffice's ``--convert-to`` round trips where
they are installed). Caught: `audit` names it for that workbook. Repaired: after the next resolve the audit
fails nothing in that workbook (a tab the player added or renamed is theirs: left there, and still warned of),
every report is delivered, and the two Results rows are the stages' own.

Run: ``python benchmarks/bench_tabs.py`` (prints one line per attack, then the totals).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import openpyxl

from sheetgm.backends.port import SetValues
from sheetgm.service.audit import audit
from sheetgm.service.config.load import parse_config
from sheetgm.service.game import Game, open_game, player_key
from sheetgm.service.ledger.journal import read_director
from sheetgm.service.new_game import new_game
from sheetgm.service.resolve import resolve
from sheetgm.sheets import layout
from sheetgm.sheets.player import edited_rows
from sheetgm.sheets.stages import order_row

TABS = {name: layout.tab("zh", name) for name in layout.PLAYER_TABS}
NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)  # after the game's first deadlines: a resolve resolves


def _game(folder: Path) -> Game:
    roster = [{"alias": f"S{i}", "camp": "survivor"} for i in (1, 2, 3)] + [{"alias": "H1", "camp": "hunter"}]
    cfg = parse_config({"name": "t", "seed": 7, "roster": roster, "backend": "xlsx", "options": {"crack_target": 6},
                        "schedule": {"survivors": "21:00", "hunters": "23:00", "start": "2024-01-01"}})
    new_game(folder, cfg, None, clock=lambda: NOW, secret="bench-secret")
    return _open(folder)


def _open(folder: Path) -> Game:
    return open_game(folder, clock=lambda: NOW)


def _orders(game: Game, night: int) -> None:
    for seat in (1, 2, 3):
        r = order_row(night)
        game.gateway.write(player_key(seat), [SetValues(layout.rng(TABS["orders"], f"B{r}:C{r}"), (("搜索", "✓"),))])


def _hands(change: Callable[[openpyxl.Workbook], None]) -> Callable[[Path], None]:
    def attack(path: Path) -> None:
        wb = openpyxl.load_workbook(path)
        change(wb)
        wb.save(path)
    return attack


def _delete(tab: str) -> Callable[[openpyxl.Workbook], None]:
    return lambda wb: wb.remove(wb[tab])


def _rename(tab: str) -> Callable[[openpyxl.Workbook], None]:
    return lambda wb: setattr(wb[tab], "title", "我的页")


def _round_trip(command: Callable[[Path, Path], list[str]]) -> Callable[[Path], None]:
    def attack(path: Path) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "out"
            out.mkdir()
            subprocess.run(command(path, out), check=True, capture_output=True, timeout=600)
            shutil.copy(next(out.glob("*.xlsx")), path)
    return attack


def _gnumeric(path: Path, out: Path) -> list[str]:
    return ["ssconvert", str(path), str(out / path.name)]


def _libreoffice(path: Path, out: Path) -> list[str]:
    profile = (out.parent / "profile").as_uri()
    return ["soffice", f"-env:UserInstallation={profile}", "--headless", "--convert-to",
            "xlsx:Calc MS Excel 2007 XML", "--outdir", str(out), str(path)]


def attacks() -> dict[str, Callable[[Path], None]]:
    out: dict[str, Callable[[Path], None]] = {}
    for name, tab in TABS.items():
        out[f"delete {name}"] = _hands(_delete(tab))
        out[f"rename {name}"] = _hands(_rename(tab))
    out["add a tab"] = _hands(lambda wb: wb.create_sheet("笔记"))
    out["show the hidden record"] = _hands(lambda wb: setattr(wb["_sheetgm"], "sheet_state", "visible"))
    out["lift the lock on the tabs"] = _hands(lambda wb: setattr(wb, "security", None))
    if shutil.which("ssconvert"):
        out["Gnumeric round trip"] = _round_trip(_gnumeric)
    if shutil.which("soffice"):
        out["LibreOffice round trip"] = _round_trip(_libreoffice)
    return out


def _findings(game: Game, warnings: bool = True) -> list[str]:
    book = next(b for b in audit(game).books if b.key == player_key(1))
    return book.failures + (book.warnings if warnings else [])


def run(name: str, attack: Callable[[Path], None], folder: Path) -> tuple[bool, bool, float]:
    game = _game(folder)
    _orders(game, 1)
    resolve(game)
    attack(game.gateway.path(player_key(1)))  # type: ignore[attr-defined]
    caught = bool(_findings(_open(folder)))
    start = time.perf_counter()
    game = _open(folder)
    resolve(game)  # N1-hunter: publishing reads and writes every player's workbook
    took = time.perf_counter() - start
    game = _open(folder)
    results = game.gateway.read(player_key(1), [layout.rng(TABS["results"], "A2:C3")])
    rows = next(iter(results.values()))
    repaired = (not _findings(game, warnings=False) and not any(e.undelivered for e in read_director(game)[0])
                and [r[0] for r in rows] == ["N1-survivor", "N1-hunter"]
                and not edited_rows(rows, game.secret(), player_key(1)))
    return caught, repaired, took


def main() -> None:
    tried = caught_n = repaired_n = 0
    for name, attack in attacks().items():
        with tempfile.TemporaryDirectory() as tmp:
            caught, repaired, took = run(name, attack, Path(tmp))
        tried += 1
        caught_n += caught
        repaired_n += repaired
        print(f"{name:28} caught {'yes' if caught else 'NO ':3}  repaired {'yes' if repaired else 'NO ':3}  "
              f"next resolve {took:.2f} s")
    print(f"tab attacks: {tried} tried, {caught_n} caught by audit, {repaired_n} repaired by the next resolve")
    sys.exit(0 if caught_n == repaired_n == tried else 1)


if __name__ == "__main__":
    main()
