"""What every command module shares: the director's language (one rule, for messages and help alike), the
one command body (progress, errors, text or JSON) and the lock holder's name.

Nothing here imports a use case, nor Typer, at module level: a command pays only for the modules it uses, and
the script's fast path (cli/fast.py) runs the scheduled commands without Typer at all."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from sheetgm.core.errors import SheetgmError

if TYPE_CHECKING:
    from sheetgm.service.game import Game

LANG_ENV = "SHEETGM_LANG"
R = TypeVar("R")
Progress = Callable[[str], None]


def fail(message: str) -> NoReturn:
    """Print one line to stderr and exit 1 (the message is already in the user's language)."""
    print(message, file=sys.stderr, flush=True)
    raise SystemExit(1)


def env_lang() -> str | None:
    from sheetgm.service.config.file import env_lang as chosen

    return chosen()


def config_lang(path: Path) -> str | None:
    """The language of the game's config at ``path`` (its ``lang`` even when another field is wrong, so the
    error about that field is in the director's language), None if there is no config that reads."""
    from sheetgm.service.config.file import declared_lang

    return declared_lang(path)


def lang_of(path: Path) -> str:
    """The director's language: SHEETGM_LANG if set, else the config's if it can be read, else Chinese."""
    return env_lang() or config_lang(path) or "zh"


def game_arg(args: Sequence[str]) -> Path:
    """The folder that ``--game``/``-g`` names on a command line not parsed yet (the current one if none)."""
    for i, arg in enumerate(args):
        if arg in ("--game", "-g") and i + 1 < len(args):
            return Path(args[i + 1])
        if arg.startswith("--game="):
            return Path(arg.split("=", 1)[1])
    return Path(".")


def open_at(path: Path) -> Game:
    from sheetgm.service.game import open_game

    return open_game(path)


def emit(as_json: bool, data: Any, text: str) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2, default=str) if as_json else text, flush=True)


@contextmanager
def progress(lang: str, key: str, total: int) -> Iterator[Progress]:
    """A progress bar on stderr when it is a terminal; silent otherwise (scripts, tests), and then rich is
    not even imported (a scheduled run does not pay for it)."""
    if not sys.stderr.isatty():
        yield lambda _what: None
        return
    from rich.console import Console
    from rich.progress import Progress as Bar

    from sheetgm.core.texts import render

    console = Console(stderr=True)
    with Bar(console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task(render(lang, key), total=total)
        yield lambda _what: bar.advance(task)


def attempt(lang: str, call: Callable[[], R]) -> R:
    """``call()``; a SheetgmError becomes a one-line error in ``lang`` (exit 1), and so does a file the system
    refuses (a full disk, a folder without write permission): named, with the system's reason, no traceback."""
    try:
        return call()
    except SheetgmError as exc:
        fail(exc.message(lang))
    except OSError as exc:
        from sheetgm.core.texts import render

        where = exc.filename if exc.filename is not None else "-"
        fail(render(lang, "err.os", path=str(where), reason=exc.strerror or type(exc).__name__))


def holder() -> str:
    """Who holds the game lock, so that a stuck lock says where it came from, and the same holder running
    again takes its own stale lock over at once: ``SHEETGM_HOLDER`` if set; in GitHub Actions the
    repository's workflow and this run (its id and attempt): each run is a holder of its own, so a lock another
    run took a minute ago is never taken as ours (whatever the concurrency groups); the steps of one run (check,
    then resolve) share it. Otherwise the user on this machine."""
    env = os.environ
    if env.get("SHEETGM_HOLDER", "").strip():
        return env["SHEETGM_HOLDER"].strip()
    if env.get("GITHUB_ACTIONS") == "true" and env.get("GITHUB_REPOSITORY"):
        where = f"github-actions@{env['GITHUB_REPOSITORY']}/{env.get('GITHUB_WORKFLOW', '')}".rstrip("/")
        run = env.get("GITHUB_RUN_ID", "").strip() or os.urandom(4).hex()  # never shared, even unnamed
        return f"{where}#{run}.{env.get('GITHUB_RUN_ATTEMPT', '').strip() or '1'}"
    return f"{_user()}@{_host()}"


def _user() -> str:
    """The user's login name as ``getpass.getuser()`` finds it (the first set of LOGNAME, USER, LNAME, USERNAME,
    else the password database), without importing ``getpass``, whose import loads ``termios`` for a prompt
    no command shows; ``sheetgm`` where neither names one."""
    for name in ("LOGNAME", "USER", "LNAME", "USERNAME"):
        if user := os.environ.get(name):
            return user
    try:
        import pwd

        return pwd.getpwuid(os.getuid())[0]
    except (OSError, KeyError, ImportError, AttributeError):  # no pwd (Windows), no os.getuid, no entry
        return "sheetgm"


def _host() -> str:
    """This machine's name, as ``socket.gethostname()`` gives it (``os.uname`` spares importing sockets)."""
    if hasattr(os, "uname"):
        return os.uname().nodename
    import socket  # Windows

    return socket.gethostname()


def serve(game: Path, as_json: bool, call: Callable[[Game, Progress], R], describe: Callable[[str, R], str],
          data: Callable[[R], Any] | None = None,
          steps: tuple[str, Callable[[Game], int]] | None = None) -> R:
    """The one command body: open the game, make the one service call (``call(game, step)``, with a progress
    bar when ``steps`` gives its template key and its number of steps), print its result as text or JSON. A
    SheetgmError becomes a one-line error in the director's language (exit 1)."""
    lang = lang_of(game)

    def run() -> R:
        g = open_at(game)
        if steps is None:
            return call(g, lambda _what: None)
        key, count = steps
        with progress(lang, key, count(g)) as step:
            return call(g, step)

    rep = attempt(lang, run)
    emit(as_json, rep.to_dict() if data is None else data(rep), describe(lang, rep))  # type: ignore[attr-defined]
    return rep
