"""`sheetgm doctor --live`: every kind of call the game makes, on a scratch spreadsheet, each answer's shape
compared with the shape sheetgm's adapter expects (`backends.google.shapes`, the fake's answers), the
scratch file deleted, and a redacted recording written for the tests to replay (`backends.google.recording`).

The calls, by step: ``create`` (the director's login, as ``new``), ``share`` (with the service account as
a writer: a permissions list, then a create), ``write`` (as the service account: the metadata read a first
write needs, then one batchUpdate with a new tab, values, a protection with editors, a dropdown, a note,
bold, a background, borders, frozen rows and a column width), ``read`` (a fresh process's first read: the
``spreadsheets.get`` with sheetgm's field mask) and ``values`` (a later read: ``values:batchGet``),
``lock`` (a token written and read back), ``versions`` (the Drive listings of versions `check` uses and
of who changed a file last, which publishing uses),
``protections`` and ``permissions`` (what ``audit`` reads), ``view`` (the grid read of ``verify``), and
``delete`` (the director's login removes the scratch file: always, even after a failure).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sheetgm.backends import port
from sheetgm.core.errors import SheetgmError
from sheetgm.service.config.load import GameConfig
from sheetgm.service.doctor.report import Lines
from sheetgm.service.game import token_file

SCRATCH = "scratch"
TABS = ("Orders", "Lock")
STEPS = ("create", "share", "write", "read", "values", "lock", "versions", "protections", "permissions", "view")


def scratch_ops(editors: tuple[str, ...]) -> list[port.Op]:
    """One write with every kind of request the game's writes carry."""
    return [
        port.AddTab("Extra"),
        port.SetValues("Orders!A1:C2", (("Stage", "Order", "✓"), ("N1-survivor", "move B2", "✓"))),
        port.Protect("Orders!A1:C1", editors, "sheetgm:doctor"),
        port.SetValidation("Orders!C2", ("✓", ""), strict=False, help="tick"),
        port.SetNote("Orders!B1", "a note"),
        port.SetBold("Orders!A1:C1"),
        port.SetBackground("Orders!A2", "#FFEEAA"),
        port.SetBorders("Orders!A1:C2", ("top", "bottom"), "thick"),
        port.FreezeRows("Orders", 1),
        port.ResizeColumns("Orders!B:B", 300),
        port.SetValues("Extra!A1", (("x",),)),
    ]


def known_strings(editors: tuple[str, ...]) -> frozenset[str]:
    """The strings the scratch file is made of (its tabs, ranges, values, notes): sheetgm's own, safe to keep
    in the recording. Not its title (it holds the game's name) nor the lock's token."""
    found: set[str] = {SCRATCH, *TABS, "doctor", "now"}

    def walk(value: object) -> None:
        if isinstance(value, str):
            found.add(value)
            found.update(value.replace("!", " ").replace(":", " ").split())
        elif isinstance(value, tuple | list):
            for v in value:
                walk(v)
        elif hasattr(value, "__dataclass_fields__"):
            for name in value.__dataclass_fields__:
                walk(getattr(value, name))

    walk(scratch_ops(()))
    return frozenset(s for s in found if s and s not in editors)


def live_checks(cfg: GameConfig, folder: Path, out: Lines, env: Mapping[str, str] | None,
                client_secrets: Path | None, record: Path | None) -> str | None:
    """Run the steps; add a line per step; return where the recording was written (None if nothing ran)."""
    from sheetgm.backends.google.auth import account_email, load_credentials, user_credentials
    from sheetgm.backends.google.gateway import GoogleGateway
    from sheetgm.backends.google.recording import Recorder, Redactor, write_jsonl
    from sheetgm.backends.google.retry import RetryPolicy

    if client_secrets is None and not token_file().is_file():
        out.add("live", False, "live_no_login", "live_login")
        return None
    try:
        director_creds = user_credentials(client_secrets or folder / "client_secret.json", token_file())
        bot_creds = load_credentials(env=env)
    except SheetgmError as exc:
        out.add("live", False, "live_no_creds", "live_login", error=exc.message(out.lang))
        return None
    bot = account_email(bot_creds) or cfg.service_account or ""
    recorder = Recorder()
    ids: dict[str, str] = {}

    def gateway(creds: Any, account: str | None) -> GoogleGateway:
        gw = GoogleGateway(creds, ids, account=account, retry=RetryPolicy(attempts=2))
        gw.http.observer = recorder
        return gw

    director = gateway(director_creds, cfg.director_email)
    editors = tuple(e for e in (bot, cfg.director_email) if e)
    steps: list[tuple[str, Callable[[], object]]] = [
        ("create", lambda: director.create(SCRATCH, f"sheetgm doctor {cfg.name} {secrets.token_hex(3)}", TABS)),
        ("share", lambda: director.share(SCRATCH, bot, "writer")),
    ]
    first = gateway(bot_creds, bot)
    steps.append(("write", lambda: first.write(SCRATCH, scratch_ops(editors))))
    later = gateway(bot_creds, bot)  # a new process: knows nothing of the scratch file
    token = secrets.token_hex(8)

    def lock() -> object:
        later.write(SCRATCH, [port.SetValues("Lock!A2:C2", ((token, "doctor", "now"),))])
        return later.read(SCRATCH, ["Lock!A2:C2"])

    steps += [
        ("read", lambda: later.read(SCRATCH, ["Orders!A1:C"])),
        ("values", lambda: later.read(SCRATCH, ["Orders!A1:C", "Extra!A1"])),
        ("lock", lock),
        ("versions", lambda: (later.revisions([SCRATCH]), later.written_by_us([SCRATCH]))),
        ("protections", lambda: later.protections(SCRATCH)),
        ("permissions", lambda: later.permissions(SCRATCH)),
        ("view", lambda: later.view(SCRATCH)),
    ]
    try:
        for step, call in steps:
            recorder.name = step
            try:
                call()
            except Exception as exc:  # noqa: BLE001 - an answer the adapter cannot take is what --live looks for
                error = exc.message(out.lang) if isinstance(exc, SheetgmError) else f"{type(exc).__name__}: {exc}"
                out.add(f"live.{step}", False, "live_failed", "live_failed", step=step, error=error[:300])
                if step in ("create", "share"):  # without the file, or its sharing, nothing else can be asked
                    break
        _compare(out, recorder.raw)
    finally:
        recorder.name = "delete"
        _delete(director, ids, out)
    redactor = Redactor(cfg.director_email or "", bot, known_strings(editors))
    entries = recorder.redacted(redactor)
    path = record or folder / "doctor" / f"google-live-{datetime.now(UTC):%Y%m%d-%H%M%S}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_jsonl(path, entries)
    out.add("live.recording", True, "live_recording", path=str(path), n=len(entries))
    return str(path)


def _compare(out: Lines, entries: list[dict[str, Any]]) -> None:
    """One line per kind of call: the shape of all its answers in this run against the table's."""
    from sheetgm.backends.google.recording import kind_of
    from sheetgm.backends.google.shapes import EXPECTED, differences, merge, shape

    by_kind: dict[str, list[Any]] = {}
    for entry in entries:
        if entry["status"] < 400:
            by_kind.setdefault(kind_of(entry["method"], entry["uri"]), []).append(shape(entry["answer"]))
    for kind, found in by_kind.items():
        if kind not in EXPECTED:
            out.add(f"live.{kind}", False, "live_unknown", "live_differs", kind=kind)
            continue
        bad, notes = differences(EXPECTED[kind], merge(found))
        if bad:
            out.add(f"live.{kind}", False, "live_differs", "live_differs", kind=kind, n=len(bad),
                    differences="; ".join(bad[:6]))
        else:
            out.add(f"live.{kind}", True, "live_more" if notes else "live_same", warn=bool(notes), kind=kind,
                    calls=len(found), extra="; ".join(notes[:4]))


def _delete(director: Any, ids: dict[str, str], out: Lines) -> None:
    from gspread.urls import DRIVE_FILES_API_V3_URL

    if SCRATCH not in ids:
        return
    try:
        director.http.request("delete", f"{DRIVE_FILES_API_V3_URL}/{ids[SCRATCH]}",
                              params={"supportsAllDrives": "true"})
    except Exception as exc:  # noqa: BLE001 - the scratch file is named: the director can delete it by hand
        out.add("live.delete", False, "live_not_deleted", "live_delete", id=ids[SCRATCH], error=type(exc).__name__)
        return
    out.add("live.delete", True, "live_deleted")
