"""`sheetgm doctor`: is this game ready to run, and if not, what to do. Each check is a line of data
(name, passed, detail, fix) in the director's language; the command exits 1 if one failed.

In order: the config and the map; for a Google game the service account's key (its source, that it is
the config's ``service_account``, that Google gives it a token), the director's OAuth login (needed by
``new``, ``share`` and ``--live``; a consent screen in "testing" lets it lapse 7 days after the login),
that the Sheets and Drive APIs are enabled for the key's project, that every workbook of
``spreadsheets.json`` is reachable (one Drive listing) and shared as the game needs (the audit's rules,
on each file's permissions), the game lock (the Lock tab's token, the folder's OS lock) and the quota:
what this machine spent of the account's minute, and what the due stage will need. A local game has
its config, its files and its lock checked. ``--live`` goes on with `doctorlive`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sheetgm.backends.errors import BackendError, MissingWorkbookError
from sheetgm.core.cachedir import cache_dir, folder_problem
from sheetgm.core.errors import SheetgmError
from sheetgm.core.texts import render
from sheetgm.service.audit import BookAudit, Sharing, label
from sheetgm.service.config.load import GameConfig, load_config
from sheetgm.service.doctor.report import DoctorReport, Lines
from sheetgm.service.errors import LockedError
from sheetgm.service.game import DIRECTOR, IDS_FILE, Game, load_board, make_gateway, token_file
from sheetgm.service.ledger.journal import Entry, journal_range, latest, lock_range, parse_entries
from sheetgm.service.ledger.lock import folder_lock, lock_is_free
from sheetgm.service.new_game import sharing_plan
from sheetgm.service.publish import stage_calls
from sheetgm.service.status import undelivered

LOGIN_DAYS = 7  # a consent screen in "testing" gives refresh tokens that lapse this long after the login
PACE = 55  # calls a minute the pacing allows (ratelimit.LIMIT)


def doctor(folder: Path, env: Mapping[str, str] | None = None, live: bool = False,
           client_secrets: Path | None = None, record: Path | None = None, holder: str = "sheetgm",
           lang: str | None = None) -> DoctorReport:
    try:
        cfg = load_config(folder)
    except SheetgmError as exc:
        rep = DoctorReport(str(folder), "?")
        out = Lines(rep, lang or "zh")
        out.add("config", False, "config_bad", "config", error=exc.message(out.lang))
        return rep
    folder = folder if folder.is_dir() else folder.parent
    rep = DoctorReport(cfg.name, cfg.backend)
    out = Lines(rep, lang or cfg.lang)
    out.add("config", True, "config_ok", path=str(folder / "game.toml"), players=len(cfg.roster))
    _cache(out)
    try:
        board = load_board(cfg, folder)
    except SheetgmError as exc:
        out.add("map", False, "map_bad", "map", error=exc.message(out.lang))
        return rep
    if cfg.backend == "xlsx":
        game = Game(folder, cfg, board, make_gateway(cfg, folder))
        if _local(game, out):  # the lock is in the director's workbook: not looked for where it is missing
            _lock(game, out, holder)
        return rep
    google = _google(cfg, folder, board, out, env)
    if google is not None and _workbooks(google, out):
        _quota(google, out, _lock(google, out, holder))
    if live:
        from sheetgm.service.doctor.live import live_checks

        rep.recording = live_checks(cfg, folder, out, env, client_secrets, record)
    return rep


def _cache(out: Lines) -> None:
    """The cache folder (core/cachedir.py): used, or refused and why (a link, another user's, writable by
    others), with the fix. Refused, every command still runs: a warning, not a failure."""
    folder = cache_dir()
    problem = folder_problem(folder)
    if problem is None:
        out.add("cache", True, "cache_ok", path=str(folder))
    else:
        out.add("cache", True, "cache_refused", "cache", warn=True, path=str(folder),
                reason=render(out.lang, f"cache.refused.{problem}"))


def _local(game: Game, out: Lines) -> bool:
    """Every local workbook opens; whether the director's does (the lock is looked at then). A game with no
    workbook at all was never made: one line says so, with `new` for this folder."""
    missing, gone = [], []
    for key in game.keys():
        try:
            game.gateway.tabs(key)
        except MissingWorkbookError:
            gone.append(key)
        except BackendError as exc:
            missing.append(f"{label(game, key)}: {exc.message(out.lang)}")
    if len(gone) == len(game.keys()):
        out.add("workbooks", False, "local_none", "new_local", folder=str(game.folder))
        return False
    missing = [f"{label(game, key)}: {render(out.lang, 'doctor.local_gone')}" for key in gone] + missing
    if missing:
        out.add("workbooks", False, "local_bad", "local", problems="; ".join(missing))
    else:
        out.add("workbooks", True, "local_ok", n=len(game.keys()))
    return DIRECTOR not in gone


def _google(cfg: GameConfig, folder: Path, board: Any, out: Lines, env: Mapping[str, str] | None) -> Game | None:
    """The service account's credentials, its token and the director's login; the game opened as the service
    account once both APIs answer (None if a check before that failed)."""
    from sheetgm.backends.google import probe
    from sheetgm.backends.google.auth import account_email, load_credentials, service_account_info
    from sheetgm.backends.google.gateway import GoogleGateway
    from sheetgm.backends.google.idmap import JsonIdMap
    from sheetgm.backends.google.retry import RetryPolicy

    try:
        found = service_account_info(env=env)
        creds = load_credentials(env=env)
    except SheetgmError as exc:
        out.add("credentials", False, "sa_bad", "sa", error=exc.message(out.lang))
        _login(out)
        return None
    account = account_email(creds)
    source = found[1] if found else "google.auth.default()"
    if account and cfg.service_account and account.lower() != cfg.service_account.lower():
        out.add("credentials", False, "sa_wrong", "sa_wrong", source=source, account=account,
                expected=cfg.service_account)
        _login(out)
        return None
    out.add("credentials", True, "sa_ok", source=source, account=account or cfg.service_account or "?")
    verdict = probe.token(creds)
    if verdict.code != "ok":
        fix = f"token_{verdict.why}" if verdict.code == "invalid_grant" and verdict.why else f"token_{verdict.code}"
        out.add("token", False, f"token_{verdict.code}", fix, detail=_said(out, verdict), source=source)
        _login(out)
        return None
    out.add("token", True, "token_ok")
    _login(out)
    try:
        ids = JsonIdMap(folder / IDS_FILE)
    except BackendError as exc:
        out.add("workbooks", False, "ids_bad", "ids", error=exc.message(out.lang))
        return None
    gw = GoogleGateway(creds, ids, account=account or cfg.service_account, retry=RetryPolicy(attempts=2))
    if not _apis(gw, ids, out):
        return None
    return Game(folder, cfg, board, gw)


def _said(out: Lines, verdict: Any) -> str:
    """A verdict's detail in the director's language: what Google's words mean where known, else the words
    themselves, quoted as Google's; a failed connection by its kind (never a Python class name or tuple)."""
    if verdict.code == "network":
        return render(out.lang, f"doctor.net.{verdict.why or 'other'}")
    if verdict.why:
        return render(out.lang, f"doctor.grant.{verdict.why}", words=verdict.detail)
    return render(out.lang, "doctor.google_said", words=verdict.detail) if verdict.detail else "-"


def _login(out: Lines) -> None:
    from sheetgm.backends.google import probe
    from sheetgm.backends.google.auth import saved_login_problem

    path = token_file()
    try:
        creds = probe.saved_login(path)
    except (ValueError, OSError):
        why = saved_login_problem(path) or "login_incomplete"  # google-auth refused what reads as a login
        out.add("login", False, "login_broken", "login_broken", path=str(path),
                error=render(out.lang, f"err.backend.cred.{why}", path=str(path)))
        return
    if creds is None:
        out.add("login", True, "login_none", "login", warn=True, path=str(path))
        return
    verdict = probe.token(creds)
    if verdict.code == "invalid_grant":
        out.add("login", False, "login_lapsed", "login_lapsed", path=str(path))
        return
    if verdict.code != "ok":
        out.add("login", False, f"token_{verdict.code}", "login", path=str(path), detail=_said(out, verdict))
        return
    made = datetime.fromtimestamp(path.stat().st_mtime, UTC)
    age = (datetime.now(UTC) - made).total_seconds() / 86400
    if age >= LOGIN_DAYS - 1:
        out.add("login", True, "login_old", "login_lapsed", warn=True, path=str(path), days=int(age),
                limit=LOGIN_DAYS)
    else:
        out.add("login", True, "login_ok", path=str(path), days=int(age))


def _apis(gw: Any, ids: Mapping[str, str], out: Lines) -> bool:
    """One call to each API: Sheets (the director's workbook, its title only) and Drive (one file)."""
    from sheetgm.backends.google import probe

    ok = True
    calls = [("sheets_api", "Google Sheets API", probe.sheets_probe_url(ids.get(DIRECTOR, "-")),
              {"fields": "spreadsheetId"}),
             ("drive_api", "Google Drive API", probe.DRIVE_PROBE_URL,
              {"pageSize": "1", "fields": "files(id)", "q": "trashed=false"})]
    for name, api, url, params in calls:
        try:
            gw.http.request("get", url, params=params)
        except Exception as exc:  # noqa: BLE001 - every failure is a verdict here
            verdict = probe.api_error(exc)
            if verdict.code in ("denied", "not_found") and name == "sheets_api":
                out.add(name, True, "api_ok", api=api)  # enabled: the director's workbook is the workbooks' check
                continue
            ok = False
            detail = verdict.detail if verdict.code == "disabled" else _said(out, verdict)  # the link, as it is
            out.add(name, False, f"api_{verdict.code}", f"api_{verdict.code}", api=api, detail=detail)
            continue
        out.add(name, True, "api_ok", api=api)
    return ok


def _workbooks(game: Game, out: Lines) -> bool:
    """Every workbook in spreadsheets.json and visible to the service account (one listing); then shared as the
    game needs (the audit's rules, on each file's permissions). Whether the director's workbook can be read
    (the lock and the quota are looked at then: otherwise this line has said why already). A game with no
    workbook at all was never made: one line says so, with `new` for this folder."""
    gw = game.gateway
    keys = game.keys()
    absent = [k for k in keys if k not in getattr(gw, "ids", {})]
    if len(absent) == len(keys):
        out.add("workbooks", False, "books_none", "new_here", folder=str(game.folder))
        return False
    try:
        seen = gw.revisions([k for k in keys if k not in absent])
    except BackendError as exc:
        out.add("workbooks", False, "books_unlisted", "share", error=exc.message(out.lang))
        return False
    hidden = [k for k in keys if k not in absent and k not in seen]
    if absent or hidden:
        out.add("workbooks", False, "books_missing", "share" if not absent else "new",
                absent=", ".join(label(game, k) for k in absent) or "-",
                hidden=", ".join(label(game, k) for k in hidden) or "-", account=gw.account or "?")
    else:
        out.add("workbooks", True, "books_ok", n=len(keys))
    if seen:
        _sharing(game, out, [k for k in keys if k in seen])
    return DIRECTOR in seen


def _sharing(game: Game, out: Lines, keys: list[str]) -> None:
    plan = sharing_plan(game)
    failures: list[str] = []
    warnings: list[str] = []
    for key in keys:
        book = BookAudit(key)
        try:
            perms = game.gateway.permissions(key)
        except BackendError as exc:
            failures.append(exc.message(out.lang))
            continue
        Sharing(game, key, book).check(perms, plan.get(key, {}))
        failures += book.failures
        warnings += book.warnings
    if failures:
        out.add("sharing", False, "sharing_bad", "sharing", n=len(failures), problems="; ".join(failures[:5]))
    elif warnings:
        out.add("sharing", True, "sharing_notes", warn=True, n=len(keys), notes="; ".join(warnings[:3]))
    else:
        out.add("sharing", True, "sharing_ok", n=len(keys))


def _lock(game: Game, out: Lines, holder: str) -> Entry | None:
    """The folder's OS lock and the Lock tab's token, then the reports owed (``_owed``); the journal's latest entry
    (for the quota's estimate)."""
    lang = game.lang
    try:
        with folder_lock(game.folder, holder, game.now().isoformat(timespec="seconds")):
            pass
    except LockedError as exc:
        out.add("lock", False, "lock_here", "lock_here", error=exc.message(out.lang))
        return None
    try:
        got = game.gateway.read(DIRECTOR, [lock_range(lang), journal_range(lang)])
    except BackendError as exc:
        out.add("lock", False, "lock_unread", "share", error=exc.message(out.lang))
        return None
    cells = list((got[lock_range(lang)] or [[]])[0]) + ["", "", ""]
    token, who, since = cells[:3]
    entry, entries = None, None
    try:
        entries = parse_entries(got[journal_range(lang)], lang)
        entry = latest(entries)
    except SheetgmError as exc:
        out.add("journal", False, "journal_bad", "journal", error=exc.message(out.lang))
    if not token:
        out.add("lock", True, "lock_free")
    elif lock_is_free(game, cells[:3]):
        out.add("lock", True, "lock_stale", "unlock", warn=True, holder=who or "?", since=since or "?")
    else:
        out.add("lock", False, "lock_held", "unlock", holder=who or "?", since=since or "?")
    if entries is not None:
        _owed(game, out, entries)
    return entry


def _owed(game: Game, out: Lines, entries: list[Entry]) -> None:
    """Reports the journal says could not be written yet: the same lines as `sheetgm status`."""
    owed = undelivered(game, entries, out.lang)
    if owed:
        out.add("results", False, "results_owed", "owed", n=len(owed), owed="; ".join(owed))
    else:
        out.add("results", True, "results_ok")


def _quota(game: Game, out: Lines, entry: Entry | None) -> None:
    """What this machine spent of the account's Sheets minute, and what the due stage will need."""
    limiter = getattr(getattr(game.gateway, "http", None), "limiter", None)
    used_r = limiter.count("read") if limiter is not None else 0
    used_w = limiter.count("write") if limiter is not None else 0
    pace = int(limiter.limits["read"]) if limiter is not None else PACE
    if entry is None:
        out.add("quota", True, "quota_used", reads=used_r, writes=used_w, limit=pace)
        return
    state = entry.state(game.board)
    due = [p for p in state.players.values() if p.camp == state.stage and p.in_play and not p.is_robot]
    reads, writes = stage_calls(len(game.seats), len(due))  # what the Google fake counts (test_call_counts.py)
    minutes = max(0, math.ceil(max(reads, writes) / pace) - 1)
    out.add("quota", True, "quota_slow" if minutes else "quota_stage", warn=minutes > 0, reads=used_r, writes=used_w,
            limit=pace, stage_reads=reads, stage_writes=writes, minutes=minutes)

