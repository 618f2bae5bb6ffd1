"""What `audit` expects of each workbook's tabs, held against the tabs the file itself keeps (``Gateway.structure``).

LibreOffice and Gnumeric do not enforce the lock on a workbook's tabs (an .xlsx file's ``<workbookProtection
lockStructure>``; both drop it at every save), so a player can add, delete, rename, hide and show tabs. Each
of these is named, with the file and the program that saved it as the file says (``shown``): a tab of
sheetgm's gone (deleted, or renamed when a tab of another name took its place: the next check or resolve makes
a player's again), a tab added, one of sheetgm's hidden tabs shown, the lock on the tabs gone or not the game's.
"""

from __future__ import annotations

from typing import Any

from sheetgm.backends.port import LOCK_GAME, Structure
from sheetgm.core.texts import render
from sheetgm.service.game import DIRECTOR, PUBLIC, Game
from sheetgm.service.ledger.table import TAB as TABLE
from sheetgm.sheets import layout

OWN = "_sheetgm"  # the start of the adapters' own hidden tabs (the xlsx record, the dropdowns' lists, Google's ids)


def made(game: Game, key: str, found: Structure) -> list[str]:
    """The tabs sheetgm made in ``key``: a public workbook's language sets that are there (each language's
    tabs are added once a player of it joins), a director's or a player's in its language."""
    if key == PUBLIC:
        langs = [g for i, g in enumerate(game.langs) if not i or layout.tab(g, "log") in found.tabs]
        return layout.public_tabs(langs)
    if key == DIRECTOR:  # and the Table tab, which the first check adds (ledger/table.py)
        table = layout.tab(game.lang, TABLE)
        return [layout.tab(game.lang, t) for t in layout.DIRECTOR_TABS] + ([table] if table in found.tabs else [])
    return [layout.tab(game.seat_lang(int(key.split("-")[1])), t) for t in layout.PLAYER_TABS]


def check(game: Game, key: str, label: str, found: Structure, failures: list[str], warnings: list[str]) -> set[str]:
    """Name every way ``found`` differs from what sheetgm made in ``key`` (shown as ``label``) in ``failures`` and
    ``warnings``; the tabs of sheetgm's that are gone (their protections are not looked for)."""
    lang = game.voice
    fix = render(lang, "svc.audit.fix_player" if key.startswith("player-") else "svc.audit.fix_desk")

    def say(out: list[str], code: str, **params: Any) -> None:
        out.append(render(lang, f"svc.audit.{code}", key=label, **params))

    ours = made(game, key, found)
    missing = [t for t in ours if t not in found.tabs]
    extra = [t for t in found.tabs if t not in ours and not t.startswith(OWN)]
    if len(missing) == 1 and extra:  # one tab gone, another there: renamed, as far as the file can tell
        say(failures, "tab_renamed", tab=missing[0], other=extra[0], fix=fix)
        extra = extra[1:]
    else:
        for tab in missing:
            say(failures, "tab_deleted", tab=tab, fix=fix)
    for tab in extra:
        say(warnings, "tab_added", tab=tab)
    for tab in found.tabs:
        if tab.startswith(OWN) and tab not in found.hidden:
            say(warnings, "tab_shown", tab=tab)
    if key != DIRECTOR and found.lock is not None and found.lock != LOCK_GAME:  # the director's file has no lock
        say(failures, f"structure_{found.lock}")
    return set(missing)


def shown(game: Game, key: str, label: str, found: Structure) -> str:
    """``label`` with the file's name and the program that saved it, if the file says a program other than
    sheetgm did: what every failure of the workbook names it by."""
    if not found.saved_by or found.saved_by == "sheetgm":
        return label
    return render(game.voice, "svc.audit.saved_by", label=label, file=found.file or key, program=found.saved_by)
