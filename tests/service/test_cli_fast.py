"""The script's fast path (cli/fast.py): the scheduled commands run without Typer, read their options exactly
as Typer's declarations would, and hand every other command line to Typer (issue 14)."""

from __future__ import annotations

import inspect
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import pytest
import typer
from cli_games import cli_game
from script_runner import run_script
from svc_helpers import write_order
from typer.testing import CliRunner

from sheetgm.cli import fast, runs
from sheetgm.cli.app import app

ROOT = typer.main.get_command(app)


@pytest.mark.parametrize("command", sorted(fast.COMMANDS))
def test_the_fast_table_is_typers_own_declaration(command: str) -> None:
    options, defaults = fast.COMMANDS[command]
    declared = {p.name: p for p in ROOT.commands[command].params if p.name != "help"}  # type: ignore[attr-defined]
    hints = typing.get_type_hints(getattr(runs, command))
    assert set(declared) == set(defaults) == {param for param, _ in options.values()}
    for name, p in declared.items():
        spellings = {s for s, (param, _) in options.items() if param == name}
        assert spellings == set(p.opts) | set(p.secondary_opts), name
        kinds = {kind for s, (param, kind) in options.items() if param == name}
        declared_type = next(t for t in (bool, int, str, Path) if t == hints[name] or t | None == hints[name])
        assert kinds == {fast.FLAG if p.is_flag else declared_type} and p.is_flag == (declared_type is bool), name
        assert defaults[name] == p.default and not p.multiple and p.nargs == 1 and p.envvar is None, name


@pytest.mark.parametrize(("argv", "expected"), [
    (["check"], ("check", {"game": Path("."), "as_json": False})),
    (["check", "--game", "g", "--json"], ("check", {"game": Path("g"), "as_json": True})),
    (["check", "-g", "g"], ("check", {"game": Path("g"), "as_json": False})),
    (["check", "--game=a b"], ("check", {"game": Path("a b"), "as_json": False})),
    (["check", "-g", "a", "-g", "b"], ("check", {"game": Path("b"), "as_json": False})),  # the last, as Click
    (["resolve", "--dry-run", "--stage", "N2-hunter"],
     ("resolve", {"game": Path("."), "as_json": False, "dry_run": True, "stage": "N2-hunter"})),
    (["resolve", "--stage=N1-survivor", "-g", "x"],
     ("resolve", {"game": Path("x"), "as_json": False, "dry_run": False, "stage": "N1-survivor"})),
    (["status", "--json"], ("status", {"game": Path("."), "as_json": True})),
    (["audit"], ("audit", {"game": Path("."), "as_json": False})),
    (["demo", "--players", "6", "--dir=d", "--lang", "en", "--max-nights", "2", "--save-each-write"],
     ("demo", {"players": 6, "seed": 1, "folder": Path("d"), "lang": "en", "max_nights": 2, "save_each_write": True,
               "as_json": False})),
])
def test_a_command_line_it_knows_is_read_as_typer_reads_it(argv: list[str], expected: Any) -> None:
    assert fast.parse(argv) == expected


@pytest.mark.parametrize("argv", [
    [], ["--help"], ["check", "--help"], ["check", "extra"], ["check", "--game"], ["check", "--json=1"],
    ["check", "-gx"], ["check", "--", "x"], ["check", "--stage", "N1-survivor"], ["resolve", "--stage"],
    ["resolve", "--stage", "--json"], ["publish"], ["new"], ["CHECK"], ["status", "--dry-run"],
    ["demo", "--players", "ten"], ["demo", "--players", "-3"], ["demo", "--seed", "1.5"], ["demo", "-g", "x"],
])
def test_anything_else_goes_to_typer(argv: list[str]) -> None:
    assert fast.parse(argv) is None


@pytest.mark.parametrize("argv", [
    ["check", "--game", "G"], ["check", "-g", "G", "--json"], ["status", "--game=G"], ["audit", "-g", "G"],
    ["resolve", "--game", "G", "--dry-run", "--stage", "N1-survivor"], ["resolve", "-g", "G", "--json"],
    ["demo"], ["demo", "--players", "6", "--seed", "3", "--dir", "D", "--lang", "en", "--max-nights", "2", "--json"],
])
def test_both_paths_call_the_same_body_with_the_same_values(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, dict[str, Any]]] = []
    for name in fast.COMMANDS:
        signature = inspect.signature(getattr(runs, name))

        def record(*args: Any, _name: str = name, _sig: inspect.Signature = signature, **kwargs: Any) -> None:
            calls.append((_name, dict(_sig.bind(*args, **kwargs).arguments)))

        monkeypatch.setattr(runs, name, record)
    assert run_script(argv).exit_code == 0
    assert CliRunner().invoke(app, argv).exit_code == 0
    assert len(calls) == 2 and calls[0] == calls[1], calls


SCRIPT = """
import atexit, sys
atexit.register(lambda: print("typer loaded:", "typer" in sys.modules, file=sys.stderr))
from sheetgm.cli.main import main
sys.argv[0] = "sheetgm"
main()
"""


@pytest.mark.parametrize("backend", ["xlsx", "google"])
def test_the_scheduled_commands_run_through_the_script_on_each_backend(backend: str, tmp_path: Path) -> None:
    with cli_game(backend, tmp_path / "g") as g:
        write_order(g.open(), 1, "搜索")
        checked = g.run("check")
        assert checked.exit_code == 0, checked.output
        assert g.run("status", "--json").exit_code == 0
        dry = g.run("resolve", "--dry-run")
        assert dry.exit_code == 0, dry.output
        assert g.run("audit").exit_code == 0


def test_check_in_a_process_of_its_own_never_imports_typer(tmp_path: Path) -> None:
    with cli_game("xlsx", tmp_path / "g") as g:
        write_order(g.open(), 1, "搜索")
        done = subprocess.run([sys.executable, "-c", SCRIPT, "check", "--game", str(g.folder)], capture_output=True,
                              text=True, env={"SHEETGM_LANG": "en", "PATH": ""}, timeout=120)
        assert done.returncode == 0, done.stderr
        assert "typer loaded: False" in done.stderr and done.stdout.strip()
        helped = subprocess.run([sys.executable, "-c", SCRIPT, "check", "--help"], capture_output=True, text=True,
                                env={"SHEETGM_LANG": "en", "PATH": ""}, timeout=120)
        assert helped.returncode == 0 and "typer loaded: True" in helped.stderr and "--game" in helped.stdout


def test_a_reader_that_leaves_early_gets_no_traceback(tmp_path: Path) -> None:
    """`sheetgm status | head -1`: the pipe closes before sheetgm writes; exit 1 quietly, as Typer does."""
    with cli_game("xlsx", tmp_path / "g") as g:
        proc = subprocess.Popen([sys.executable, "-c", SCRIPT, "status", "--game", str(g.folder)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={"SHEETGM_LANG": "en", "PATH": ""})
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # long before the status is written (a new interpreter takes ~0.3 s to start)
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=120) == 1 and "Traceback" not in err and "BrokenPipe" not in err, err


def test_the_demo_plays_through_the_script(tmp_path: Path) -> None:
    done = run_script(["demo", "--players", "6", "--max-nights", "1", "--dir", str(tmp_path / "d"), "--lang", "en"])
    assert done.exit_code == 0, done.output
    assert len(list((tmp_path / "d" / "workbooks").glob("*.xlsx"))) == 8  # six players, the director, the public
    refused = run_script(["demo", "--lang", "fr", "--dir", str(tmp_path / "e")], env={"SHEETGM_LANG": "en"})
    assert refused.exit_code == 1 and "fr" in refused.stderr and not (tmp_path / "e").exists()
