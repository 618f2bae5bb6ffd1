"""The script's fast path for the commands a schedule runs every few minutes (``check``, ``resolve``,
``status`` and ``audit``) and for ``demo``, the README's first command, parsed here without Typer. Importing
Typer and building its pydantic adapter for each option costs about as much as the interpreter's own start
(issue 14).

Only a command line this parser understands whole takes the fast path; anything else (``--help``, an unknown
or malformed option, a value that is not a number where one is due, an argument, ``--``) goes to Typer, which
answers it as it always did. tests/service/test_cli_fast.py holds this table to Typer's own declarations, option
by option, and plays each command both ways."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

FLAG = bool  # an option that takes no value: present means True

# the options every game command takes, as cli/options.py declares them for Typer
_GAME: dict[str, tuple[str, type]] = {"--game": ("game", Path), "-g": ("game", Path), "--json": ("as_json", FLAG)}
_GAME_DEFAULTS: dict[str, Any] = {"game": Path("."), "as_json": False}

# command -> ({spelling: (parameter, type)}, the parameters' defaults); the body is cli/runs.py's function
COMMANDS: dict[str, tuple[dict[str, tuple[str, type]], dict[str, Any]]] = {
    "check": (_GAME, _GAME_DEFAULTS),
    "resolve": ({**_GAME, "--dry-run": ("dry_run", FLAG), "--stage": ("stage", str)},
                {**_GAME_DEFAULTS, "dry_run": False, "stage": None}),
    "status": (_GAME, _GAME_DEFAULTS),
    "audit": (_GAME, _GAME_DEFAULTS),
    "demo": ({"--players": ("players", int), "--seed": ("seed", int), "--dir": ("folder", Path),
              "--lang": ("lang", str), "--max-nights": ("max_nights", int),
              "--save-each-write": ("save_each_write", FLAG), "--json": ("as_json", FLAG)},
             {"players": 10, "seed": 1, "folder": None, "lang": "zh", "max_nights": 12, "save_each_write": False,
              "as_json": False}),
}


def parse(argv: Sequence[str]) -> tuple[str, dict[str, Any]] | None:
    """(command, its parameters) when the whole command line is one this table reads; else None."""
    if not argv or argv[0] not in COMMANDS:
        return None
    options, defaults = COMMANDS[argv[0]]
    values = dict(defaults)
    rest = list(argv[1:])
    i = 0
    while i < len(rest):
        name, eq, attached = rest[i].partition("=") if rest[i].startswith("--") else (rest[i], "", "")
        if name not in options:
            return None
        param, kind = options[name]
        if kind is FLAG:
            if eq:
                return None
            values[param] = True
        else:
            if eq:
                value = attached
            elif i + 1 < len(rest) and not rest[i + 1].startswith("-"):
                i += 1
                value = rest[i]
            else:
                return None
            try:
                values[param] = kind(value)
            except ValueError:  # not a number: Typer says so
                return None
        i += 1
    return argv[0], values


def run(argv: Sequence[str]) -> bool:
    """Run the command line on the fast path if it is one; False (nothing done) otherwise."""
    parsed = parse(argv)
    if parsed is None:
        return False
    from sheetgm.cli import runs

    command, values = parsed
    body: Callable[..., None] = getattr(runs, command)
    body(**values)
    return True
