"""What every command module shares: the --game/--json options, the one-line
error exit, the director's language, and the lock holder's name."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from sheetgm.core.errors import SheetgmError

GameOpt = Annotated[Path, typer.Option("--game", "-g")]
JsonOpt = Annotated[bool, typer.Option("--json")]


def fail(message: str) -> NoReturn:
    """Print one line to stderr and exit 1 (the message is already in the user's language)."""
    typer.echo(message, err=True)
    raise typer.Exit(1)


def config_lang(path: Path) -> str | None:
    """The language of the game's config at ``path`` (its ``lang`` even when another field is wrong, so the
    error about that field is in the director's language), None if there is no config that reads."""
    from sheetgm.service.configfile import declared_lang

    return declared_lang(path)


def lang_of(path: Path) -> str:
    """The director's language: SHEETGM_LANG if set, else the config's if it can be read, else Chinese."""
    from sheetgm.cli_help import env_lang

    return env_lang() or config_lang(path) or "zh"


def open_at(path: Path) -> Any:
    from sheetgm.service.game import open_game

    return open_game(path)


def emit(as_json: bool, data: Any, text: str) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str) if as_json else text)


def holder() -> str:
    """Who holds the game lock, so that a stuck lock says where it came from, and the same holder running
    again takes its own stale lock over at once: ``SHEETGM_HOLDER`` if set; in GitHub Actions the
    repository's workflow (its runs of one game never overlap: see the workflow's concurrency group);
    otherwise the user on this machine."""
    import getpass
    import socket

    env = os.environ
    if env.get("SHEETGM_HOLDER", "").strip():
        return env["SHEETGM_HOLDER"].strip()
    if env.get("GITHUB_ACTIONS") == "true" and env.get("GITHUB_REPOSITORY"):
        return f"github-actions@{env['GITHUB_REPOSITORY']}/{env.get('GITHUB_WORKFLOW', '')}".rstrip("/")
    try:
        user = getpass.getuser()
    except (OSError, KeyError, ImportError):
        user = "sheetgm"
    return f"{user}@{socket.gethostname()}"


def serve(game: Path, as_json: bool, call: Callable[[Any], Any], describe: Callable[[str, Any], str],
          data: Callable[[Any], Any] = lambda rep: rep.to_dict()) -> Any:
    """The shape of most commands: open the game, make the one service call, print its result as text
    or JSON. A SheetgmError becomes a one-line error in the director's language (exit 1)."""
    lang = lang_of(game)
    try:
        rep = call(open_at(game))
    except SheetgmError as exc:
        fail(exc.message(lang))
    emit(as_json, data(rep), describe(lang, rep))
    return rep
