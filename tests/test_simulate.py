"""`sheetgm simulate` through the CLI: the figures add up, the PNG is a real image, the results do not
depend on the number of processes, and bad input gets a clear error in the director's language."""

from __future__ import annotations

import io
import json
from pathlib import Path

from PIL import Image
from typer.testing import CliRunner

from sheetgm.cli.app import app
from sheetgm.sim import simulate, summarise

runner = CliRunner()


def run(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args))


def test_simulate_figures_add_up_and_the_png_is_written(tmp_path: Path) -> None:
    out = tmp_path / "plot.png"
    result = run("simulate", "--map", "standard", "--map", "teach", "--games", "6", "--workers", "2",
                 "--out", str(out), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    total = data["total"]
    assert total["games"] == 12
    assert total["survivors"] + total["hunters"] + total["draw"] + total["unfinished"] == 12
    assert set(data["maps"]) == {"standard", "teach"}
    for m in data["maps"].values():
        assert m["games"] == 6 and m["survivors"] + m["hunters"] + m["draw"] + m["unfinished"] == 6
    roles = {r["role"]: r for r in data["roles"]}
    assert sum(r["games"] for r in roles.values() if r["camp"] == "survivor") == 6 * 8 + 6 * 3
    assert sum(r["games"] for r in roles.values() if r["camp"] == "hunter") == 6 * 2 + 6 * 1
    for r in roles.values():
        assert 0 <= r["wins"] <= r["games"] and r["escaped"] + r["eliminated"] <= r["games"]
    assert sum(data["nights"].values()) == 12 - total["unfinished"]
    image = Image.open(io.BytesIO(out.read_bytes()))
    image.verify()
    assert image.format == "PNG" and image.size[0] >= 600 and data["file"] == str(out)


def test_simulate_text_report_in_the_directors_language(tmp_path: Path) -> None:
    out = tmp_path / "sim.png"
    en = run("simulate", "--games", "3", "--workers", "1", "--out", str(out), "--lang", "en")
    assert en.exit_code == 0, en.output
    assert "Simulated 3 bot games on standard" in en.stdout and "Per role" in en.stdout
    assert f"Plot: {out}" in en.stdout
    zh = run("simulate", "--games", "3", "--workers", "1", "--out", str(out))
    assert zh.exit_code == 0, zh.output
    assert "模拟" in zh.stdout and "各角色" in zh.stdout


def test_results_do_not_depend_on_the_number_of_processes() -> None:
    one = simulate(["standard"], 4, seed=11, workers=1)
    two = simulate(["standard"], 4, seed=11, workers=2)
    assert one == two
    assert [r.seed for r in one] == [11, 12, 13, 14]
    assert summarise(one) == summarise(two)


def test_bad_input_is_a_clear_error(tmp_path: Path) -> None:
    bad = run("simulate", "--map", "nosuchmap", "--games", "2", "--lang", "en")
    assert bad.exit_code == 1 and "nosuchmap" in bad.stderr
    broken = tmp_path / "broken.map"
    broken.write_text("name: broken\nmap:\n   A\n1  Q\n", "utf-8")
    bad = run("simulate", "--map", str(broken), "--games", "2", "--lang", "en")
    assert bad.exit_code == 1 and "line" in bad.stderr.lower()
    zero = run("simulate", "--games", "0", "--lang", "en")
    assert zero.exit_code == 1 and "--games must be at least 1" in zero.stderr
    twice = run("simulate", "--map", "standard", "--map", "standard", "--games", "2", "--lang", "zh",
                "--out", str(tmp_path / "twice.png"))
    assert twice.exit_code == 1 and twice.stderr.strip() == (
        "--map standard 与 --map standard 是同一张地图 standard：每张地图只写一次（要更多局数请用 --games）")
    assert not (tmp_path / "twice.png").exists()
    assert run("simulate", "--help").exit_code == 0


def test_a_map_with_more_seats_than_roles_gets_every_role_in_turn() -> None:
    from sheetgm.sim.run import board_of, roster_of

    roster = roster_of(board_of("large4x"), 3)
    survivors = [s.role for s in roster if s.camp == "survivor"]
    assert len(survivors) == 32 and len(set(survivors)) == 9
    assert roster_of(board_of("large4x"), 3) == roster and roster_of(board_of("large4x"), 4) != roster
    assert all(s.role is None for s in roster_of(board_of("standard"), 3))  # dealt by the game
    [result] = simulate(["large4x"], 1, seed=2, workers=1, max_nights=2)
    assert len(result.seats) == 40
