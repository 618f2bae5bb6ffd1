"""`sheetgm audit`: who can open and edit what, workbook by workbook.

Fails when a player can open another player's workbook or the director's,
or could edit a Results tab (it must be protected for the director and the
service account only). Protection never stops reading (SHEETS-FACTS.md), so
privacy is checked on the sharing of each file.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from sheetgm.backends.errors import BackendError
from sheetgm.core.texts import render
from sheetgm.service import layout as L
from sheetgm.service.game import DIRECTOR, PUBLIC, Game


@dataclass
class BookAudit:
    key: str
    sharing: list[tuple[str, str]] = field(default_factory=list)  # email, role
    protections: list[tuple[str, list[str], str]] = field(default_factory=list)  # range, editors, description
    failures: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass
class AuditReport:
    books: list[BookAudit]
    notes: list[str] = field(default_factory=list)  # what the checks cannot show (local files: no password)

    @property
    def ok(self) -> bool:
        return not any(b.failures for b in self.books)

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "workbooks": [asdict(b) for b in self.books], "notes": self.notes}


def _who(game: Game) -> dict[str, str]:
    """player email (lower case) -> alias."""
    return {s.email.lower(): s.alias for s in game.cfg.roster if s.email}


def audit(game: Game) -> AuditReport:
    lang, players = game.lang, _who(game)
    books = []
    for key in game.keys():
        book = BookAudit(key)
        books.append(book)
        try:
            perms = game.gateway.permissions(key)
            prots = game.gateway.protections(key)
        except BackendError as exc:
            book.failures.append(exc.message(lang))
            continue
        book.sharing = [(p.email, p.role) for p in perms]
        book.protections = [(p.range, list(p.editors), p.description) for p in prots]
        own = game.cfg.roster[int(key.split("-")[1]) - 1].email if key.startswith("player-") else None
        for p in perms:
            alias = players.get(p.email.lower())
            if alias is None:
                continue
            if key == DIRECTOR or (key.startswith("player-") and p.email.lower() != (own or "").lower()):
                book.failures.append(render(lang, "svc.audit.can_read", alias=alias, key=key, role=p.role))
            elif key == PUBLIC and p.role == "writer":
                book.warnings.append(render(lang, "svc.audit.public_writer", alias=alias))
        if key.startswith("player-"):
            _check_results(game, key, own, prots, book, players)
    notes = [render(lang, "svc.audit.local_no_password")] if game.cfg.backend == "xlsx" else []
    return AuditReport(books, notes)


def _check_results(game: Game, key: str, own: str | None, prots: list[Any], book: BookAudit,
                   players: dict[str, str]) -> None:
    seat = int(key.split("-")[1])
    results = L.tab(game.seat_lang(seat), "results")
    guard = [p for p in prots if p.range in (results, L.quote_tab(results))]
    lang = game.lang
    if not guard:
        book.failures.append(render(lang, "svc.audit.results_open", alias=game.alias(seat), tab=results))
        return
    for p in guard:
        for e in p.editors:
            if e.lower() in players:
                book.failures.append(render(lang, "svc.audit.results_editor", alias=players[e.lower()],
                                            tab=results, key=key))
    if own and not any(e.lower() == own.lower() for e, _r in book.sharing):
        book.warnings.append(render(lang, "svc.audit.not_shared", alias=game.alias(seat), key=key))
