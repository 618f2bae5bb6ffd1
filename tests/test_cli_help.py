"""Every command's --help in the director's language: Chinese by default, English with SHEETGM_LANG=en or
for a game whose lang is en (issue 10, item 8); every command and option has its help in both languages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from sheetgm.cli.app import app
from sheetgm.cli.helptext import command_paths
from sheetgm.core.texts import has, render

runner = CliRunner()
PATHS = command_paths(typer.main.get_command(app))


def _flat(text: str) -> str:
    """The help as words: no box drawing, no wrapping, no spaces (Rich wraps and frames the help)."""
    return re.sub(r"[\s│╭╮╰╯─]+", "", text)


def _args(path: str) -> list[str]:
    return [] if path == "sheetgm" else path.split("_")


def _param_key(lang: str, path: str, name: str) -> str | None:
    for key in (f"help.opt.{path}.{name}", f"help.opt.{name}"):
        if has(lang, key):
            return key
    return None


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_command_and_option_has_its_help_template(lang: str) -> None:
    missing = []
    for path, cmd in PATHS:
        if not has(lang, f"help.cmd.{path}"):
            missing.append(f"help.cmd.{path}")
        missing += [f"help.opt.{path}.{p.name}" for p in cmd.params if _param_key(lang, path, str(p.name)) is None]
    assert not missing, f"no {lang} help for: {', '.join(missing)}"


@pytest.mark.parametrize(("env", "lang"), [({}, "zh"), ({"SHEETGM_LANG": "en"}, "en"), ({"SHEETGM_LANG": "zh"}, "zh")])
@pytest.mark.parametrize("path", [p for p, _ in PATHS])
def test_help_is_in_the_directors_language(path: str, env: dict[str, str], lang: str, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no game.toml here
    monkeypatch.delenv("SHEETGM_LANG", raising=False)
    result = runner.invoke(app, [*_args(path), "--help"], env={**env, "TERMINAL_WIDTH": "100"})
    assert result.exit_code == 0, result.output
    out = _flat(result.output)
    other = "en" if lang == "zh" else "zh"
    assert _flat(render(lang, f"help.cmd.{path}")) in out
    assert _flat(render(other, f"help.cmd.{path}")) not in out
    assert _flat(render(lang, "help.opt.help")) in out
    _, cmd = next(pc for pc in PATHS if pc[0] == path)
    for p in cmd.params:
        key = _param_key(lang, path, str(p.name))
        assert key is not None and _flat(render(lang, key))[:12] in out, (path, p.name)


def test_help_follows_the_game_named_by_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SHEETGM_LANG", raising=False)
    (tmp_path / "game.toml").write_text('name = "g"\nseed = 1\nlang = "en"\n[[roster]]\nalias = "a"\n'
                                        'camp = "survivor"\n[[roster]]\nalias = "h"\ncamp = "hunter"\n', "utf-8")
    result = runner.invoke(app, ["status", "--game", str(tmp_path), "--help"])
    assert _flat(render("en", "help.cmd.status")) in _flat(result.output)
    monkeypatch.chdir(tmp_path)  # the game.toml of the current folder, as the commands' default --game .
    result = runner.invoke(app, ["resolve", "--help"])
    assert _flat(render("en", "help.cmd.resolve")) in _flat(result.output)
    result = runner.invoke(app, ["resolve", "--help"], env={"SHEETGM_LANG": "zh"})
    assert _flat(render("zh", "help.cmd.resolve")) in _flat(result.output)


def test_a_bad_demo_language_is_told_in_the_directors_language(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SHEETGM_LANG", raising=False)
    result = runner.invoke(app, ["demo", "--lang", "fr"])
    assert result.exit_code == 1 and result.stderr.strip() == render("zh", "err.desk.bad_lang", lang="fr")


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("columns", [40, 200])
def test_help_fits_a_narrow_and_a_wide_terminal_and_loses_no_word(lang: str, columns: int, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16: Chinese help has no spaces to wrap at, and rich cut it at 80 columns with "…". Every option's
    whole help is there at any width; a wide terminal gets wide lines, a narrow one none wider than it."""
    import typer.rich_utils

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(typer.rich_utils, "MAX_WIDTH", None)  # TERMINAL_WIDTH, read once at import, would win
    for path, cmd in PATHS:
        result = runner.invoke(app, [*_args(path), "--help"], env={"SHEETGM_LANG": lang, "COLUMNS": str(columns)})
        assert result.exit_code == 0, result.output
        out = _flat(result.output)
        widths = [len(line) for line in result.output.splitlines()]
        assert max(widths) <= columns, (path, max(widths))
        for p in cmd.params:
            key = _param_key(lang, path, str(p.name))
            # every character in order (a narrow table interleaves the type column with the folded help)
            assert key is not None and _in_order(_flat(render(lang, key)), out), (path, p.name, columns)
            if columns == 200:
                assert _flat(render(lang, key)) in out, (path, p.name)
        if columns == 200:  # the long Chinese helps are on one line, not cut or wrapped at 80
            assert max(widths) > 80 or path == "sheetgm", path


def _in_order(needle: str, hay: str) -> bool:
    it = iter(hay)
    return all(ch in it for ch in needle)


def test_help_would_be_cut_without_folding() -> None:
    """The test above can fail: rich's table cuts a long spaceless word with "…" unless the text folds."""
    from rich.columns import Columns
    from rich.console import Console
    from rich.text import Text

    console = Console(width=30, file=None, record=True)
    text = render("zh", "help.opt.resolve.stage")
    with console.capture() as cut:
        console.print(Columns([Text(text)]))
    assert "…" in cut.get() and _flat(text) not in _flat(cut.get())
