"""The ``sheetgm`` script: the fast path for the scheduled commands (cli/fast.py), Typer for everything else.

Only here, and only when the process is the script (its own command line), is the garbage collector tuned:
importing sheetgm or calling ``main`` with a command line leaves the caller's interpreter as it was."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Sequence

COLLECT_EVERY = (50_000, 20, 20)  # the garbage collector's thresholds in the script's process: none in a check


def main(argv: Sequence[str] | None = None) -> None:
    """The script (``argv`` None: the process's own command line) or a caller's command line."""
    args = list(sys.argv[1:] if argv is None else argv)
    if argv is None:  # the process is this command, which frees nearly all it makes by reference counts as it goes:
        gc.set_threshold(*COLLECT_EVERY)  # cycles looked for every 50,000 new objects, not every 700
    try:
        _run(args, argv is None)
    finally:
        _warn_refused_cache(args)


def _run(args: list[str], script: bool) -> None:
    """The command: on the fast path if it is one of its commands (the only second way into one), else Typer."""
    from sheetgm.cli import fast

    try:
        if fast.run(args):
            if script:
                _exit_without_collecting()
            return
    except BrokenPipeError:  # `sheetgm status | head`: the reader has gone; quietly, as Typer (Click) does
        _quiet_stdout()
        raise SystemExit(1) from None
    except KeyboardInterrupt:  # Ctrl-C: as Typer says it, without a traceback
        print("\nAborted!", file=sys.stderr)
        raise SystemExit(1) from None
    from sheetgm.cli.app import app

    app(args=args)


def _warn_refused_cache(args: Sequence[str]) -> None:
    """One line on stderr, in the director's language, if the command found a cache folder it may not use
    (core/cachedir.py: a link, another user's, writable by others); the command ran without it."""
    from sheetgm.core.cachedir import refusal

    refused = refusal()
    if refused is None:
        return
    from sheetgm.cli.common import game_arg, lang_of
    from sheetgm.core.texts import render

    folder, why = refused
    lang = lang_of(game_arg(args))
    try:
        print(render(lang, "cache.warning", path=str(folder), reason=render(lang, f"cache.refused.{why}")),
              file=sys.stderr, flush=True)
    except (OSError, ValueError):  # no stderr to write to
        pass


def _exit_without_collecting() -> None:
    """The process ends with the command: let the interpreter's last garbage collection, as it shuts down, pass
    over the objects the process holds (gc.freeze) instead of scanning all of them, ~100,000 made by the imports:
    ~10 ms of a check or a resolve (issue 14). Nothing is lost: they are freed as the modules are torn down, and
    every file sheetgm writes was closed (and its folder synced) by the command itself."""
    gc.freeze()


def _quiet_stdout() -> None:
    """Point stdout at the null device, so that the interpreter's last flush does not fail again."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no file descriptor (a test's captured stream)
        pass
