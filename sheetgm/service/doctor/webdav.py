"""`sheetgm doctor` for a WebDAV game: the password set, the server reachable and the credentials accepted, every
workbook's folder and file there, conditional writes honoured (tried on a scratch file in the director's folder),
the server's clock, and the request budget of a night against the account's limit. Each line says its fix."""

from __future__ import annotations

import math
from collections.abc import Mapping

from sheetgm.backends.errors import BackendError, MissingWorkbookError
from sheetgm.service.audit import label
from sheetgm.service.doctor.report import Lines
from sheetgm.service.game import DIRECTOR, Game

SKEW = 120.0  # seconds of clock difference worth saying (Last-Modified is to the second)
# Requests of a night of the scheduled workflow (both stages: six check and resolve runs before each deadline and
# one after), measured by benchmarks/bench_webdav.py on WsgiDAV: 507 at 10 players, 938 at 30, 2,640 at 100.
NIGHT_BASE, NIGHT_EACH = 265, 23.6


def night_budget(players: int) -> int:
    """About how many requests a night of the scheduled workflow makes (both stages)."""
    return math.ceil(NIGHT_BASE + NIGHT_EACH * players)


def webdav_checks(game: Game, out: Lines) -> bool:
    """The lines of a WebDAV game; False if the game cannot be reached (the lock is not looked at then)."""
    from sheetgm.backends.webdav.client import DavClient
    from sheetgm.backends.webdav.gateway import WebDavGateway
    from sheetgm.backends.webdav.probe import probe

    gw = game.gateway
    assert isinstance(gw, WebDavGateway)
    client: DavClient = gw.client
    dav = game.cfg.webdav
    assert dav is not None
    try:
        client.propfind("", 0)
    except BackendError as exc:
        out.add("server", False, "dav_unreachable", "dav_reach", url=_shown(dav.url), error=exc.message(out.lang))
        return False
    out.add("server", True, "dav_ok", url=_shown(dav.url), user=dav.user)
    missing = []
    for key in game.keys():
        try:
            client.propfind(gw.path(key).as_posix(), 0)
        except MissingWorkbookError:
            missing.append(f"{label(game, key)} ({gw.path(key).as_posix()})")
        except BackendError as exc:
            missing.append(f"{label(game, key)}: {exc.message(out.lang)}")
    if missing:
        out.add("workbooks", False, "dav_books_bad", "dav_books", problems="; ".join(missing[:8]))
    else:
        out.add("workbooks", True, "dav_books_ok", n=len(game.keys()))
    folder = gw.path(DIRECTOR).parent.as_posix() if not missing else ""
    try:
        found = probe(client, "" if folder == "." else folder)
    except BackendError as exc:
        out.add("writes", False, "dav_unwritable", "dav_books", error=exc.message(out.lang))
        return True
    if not found.if_match and dav.if_match:
        out.add("writes", False, "dav_if_match_ignored", "dav_if_match")
    elif not found.if_match:
        out.add("writes", True, "dav_if_match_looked", "dav_if_match_window", warn=True)
    elif not dav.if_match:
        out.add("writes", True, "dav_if_match_unused", "dav_if_match_on", warn=True)
    else:
        out.add("writes", True, "dav_if_match_ok")
    if found.skew is not None and abs(found.skew) > SKEW:
        out.add("clock", True, "dav_skew", "dav_skew", warn=True, seconds=round(found.skew))
    elif found.skew is not None:
        out.add("clock", True, "dav_skew_ok", seconds=round(found.skew))
    need = night_budget(len(game.seats))
    per_window = dav.requests
    out.add("budget", True, "dav_budget", "dav_budget", warn=need > per_window * 4, need=need, limit=per_window,
            minutes=dav.minutes, used=client.calls)
    return True


def _shown(url: str) -> str:
    from sheetgm.backends.webdav.client import shown

    return shown(url)


def password_line(env: Mapping[str, str] | None, out: Lines, user: str) -> bool:
    import os

    from sheetgm.service.game import PASSWORD_ENV

    if (os.environ if env is None else env).get(PASSWORD_ENV, ""):
        out.add("password", True, "dav_password_ok")
        return True
    out.add("password", False, "dav_password_missing", "dav_password", user=user)
    return False
