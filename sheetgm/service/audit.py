"""`sheetgm audit`: who can open and edit what, workbook by workbook, as the workbooks themselves say.

Protection never stops reading and a hidden tab is readable (SHEETS-FACTS.md), so privacy is the
sharing of each file; protections decide who may change what the tool writes. The audit fails on
every way the sharing or a protection differs from what `sheetgm new` set up:

- a link open to anyone, or a group or domain, on a player's or the director's file;
- anyone on the director's file but the director and the service account, anyone on a player's
  file but that player, the director and the service account;
- a player with more than reading on the public file, a player owning their own file (an owner
  can lift protections), a player or the service account unable to write where they must;
- a grant of the plan missing (`sheetgm share` puts it back);
- a protection missing, widened or with an editor too many, as read from the workbook itself
  (Google's protected ranges, an .xlsx file's sheet protection and locked cells): ``protections.py``;
- a tab of sheetgm's deleted or renamed, the lock on a file's tabs gone (LibreOffice and Gnumeric drop it),
  named with the program the file says saved it; a tab added or a hidden one shown is a warning: ``tabset.py``.

A public file open to anyone for reading, or shared with an outsider as reader, is a warning.
"""

from __future__ import annotations

from typing import Any

from sheetgm.backends.errors import BackendError
from sheetgm.backends.port import Permission
from sheetgm.core.texts import render
from sheetgm.core.values import asdict, field, record
from sheetgm.service.game import DIRECTOR, PUBLIC, Game
from sheetgm.service.new_game import sharing_plan
from sheetgm.service.workbooks import protections, tabset

ABOVE_READER = ("commenter", "writer", "fileOrganizer", "organizer", "owner")
OWNING = ("owner", "organizer", "fileOrganizer")


@record
class BookAudit:
    """What one workbook's sharing and protections allow."""

    key: str
    sharing: list[tuple[str, str]] = field(default_factory=list)  # grantee (address, domain or "anyone"), role
    protections: list[tuple[str, list[str], str]] = field(default_factory=list)  # range, editors, description
    failures: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    tabs: list[str] = field(default_factory=list)  # as the file keeps them (``Gateway.structure``)
    saved_by: str = ""  # the program the file says saved it last ("" if it does not say)


@record
class AuditReport:
    """What the audit found in every workbook."""

    books: list[BookAudit]
    notes: list[str] = field(default_factory=list)  # what the checks cannot show (local files: no password)

    @property
    def ok(self) -> bool:
        return not any(b.failures for b in self.books)

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "workbooks": [asdict(b) for b in self.books], "notes": self.notes}


def audit(game: Game) -> AuditReport:
    books = []
    plan = sharing_plan(game)
    rows, unread = protections.open_rows(game)
    for key in game.keys():
        book = BookAudit(key)
        books.append(book)
        try:
            perms = game.gateway.permissions(key)
            prots = game.gateway.protections(key)
            found = game.gateway.structure(key)
        except BackendError as exc:
            book.failures.append(exc.message(game.voice))
            continue
        book.sharing = [(p.email or p.kind, p.role) for p in perms]
        book.protections = [(p.range, list(p.editors), p.description) for p in prots]
        book.tabs, book.saved_by = list(found.tabs), found.saved_by
        Sharing(game, key, book).check(perms, plan.get(key, {}))
        owners = frozenset(p.email for p in perms if p.kind == "user" and p.role in OWNING)
        named = tabset.shown(game, key, label(game, key), found)
        gone = tabset.check(game, key, named, found, book.failures, book.warnings)
        protections.check(game, key, named, prots, rows, book.failures, book.warnings, owners, gone)
    notes = [render(game.voice, "svc.audit.local_password")] if game.cfg.backend == "xlsx" else []
    notes += [render(game.voice, "svc.audit.unread", reason=why) for why in unread]
    return AuditReport(books, notes)


class Sharing:
    """The grants of one file against the plan."""

    def __init__(self, game: Game, key: str, book: BookAudit) -> None:
        self.game, self.key, self.book, self.lang = game, key, book, game.voice
        self.players = {s.email.lower(): s.alias for s in game.cfg.roster if s.email}
        self.director = (game.cfg.director_email or "").lower()
        self.sa = (game.cfg.service_account or game.gateway.account or "").lower()
        self.seat = int(key.split("-")[1]) if key.startswith("player-") else None
        self.own = (game.cfg.roster[self.seat - 1].email or "").lower() if self.seat else ""

    def fail(self, what: str, **params: Any) -> None:
        self.book.failures.append(render(self.lang, f"svc.audit.{what}", key=label(self.game, self.key), **params))

    def warn(self, what: str, **params: Any) -> None:
        self.book.warnings.append(render(self.lang, f"svc.audit.{what}", key=label(self.game, self.key), **params))

    def check(self, perms: list[Permission], plan: dict[str, str]) -> None:
        for p in perms:
            if p.kind == "user":
                self._user(p)
            elif self.key == PUBLIC:
                self._open_public(p)
            elif p.kind == "anyone":
                search = render(self.lang, "svc.audit.anyone_search") if p.discoverable else ""
                self.fail("anyone", role=p.role, search=search)
            else:
                self.fail("group", kind=render(self.lang, f"svc.audit.kind_{p.kind}"), who=p.email, role=p.role)
        granted = {p.email.lower(): p.role for p in perms if p.kind == "user"}
        for email, role in plan.items():
            if granted.get(email.lower()) is None:  # a grant too low is named by _user
                self.fail("not_shared", who=email, role=role)

    def _open_public(self, p: Permission) -> None:
        if p.kind == "anyone":
            if p.role in ABOVE_READER:
                self.fail("public_anyone_edit", role=p.role)
            else:
                self.warn("public_anyone")
            return
        kind = render(self.lang, f"svc.audit.kind_{p.kind}")
        (self.fail if p.role in ABOVE_READER else self.warn)("public_group", kind=kind, who=p.email, role=p.role)

    def _user(self, p: Permission) -> None:
        email = p.email.lower()
        alias = self.players.get(email)
        if email and email == self.sa and p.role not in ("writer", *OWNING):
            self.fail("sa_role", who=p.email, role=p.role)
            return
        if email and email in (self.director, self.sa) or (p.role == "owner" and alias is None):
            return  # the director (who owns the files: `new` ran with their login) and the tool
        if self.key == PUBLIC:
            if alias is None:
                (self.fail if p.role in ABOVE_READER else self.warn)("stranger_public", who=p.email, role=p.role)
            elif p.role != "reader":
                self.fail("public_role", alias=alias, role=p.role)
            return
        if alias is not None and email == self.own:
            if p.role in OWNING:
                self.fail("player_owner", alias=alias)
            elif p.role not in ("writer",):
                self.fail("player_cannot_write", alias=alias, role=p.role)
            return
        if alias is not None:
            self.fail("can_read", alias=alias, role=p.role)
            return
        if self.key == DIRECTOR:
            self.fail("stranger_director", who=p.email, role=p.role)
        else:
            self.fail("stranger", who=p.email, role=p.role, alias=self.game.alias(self.seat or 1))


def label(game: Game, key: str) -> str:
    """A workbook as the director knows it, in the director's words: a player's by seat and alias."""
    if key.startswith("player-") and key[7:].isdigit():
        return render(game.voice, "day.book.player", seat=int(key[7:]), alias=game.alias(int(key[7:])))
    return render(game.voice, f"day.book.{key}") if key in (DIRECTOR, PUBLIC) else key
