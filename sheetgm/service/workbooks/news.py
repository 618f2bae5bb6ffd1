"""The public news in every language of the roster: the public workbook's tabs, one set per language.

Each reader finds the public log, progress, map and cards in their own language (``Game.langs``: the
director's first). All languages go in the one write the public workbook gets per stage, so the API budget
does not grow with the languages. A workbook made before a language joined the roster (or by an older
sheetgm) gets that language's tabs added by its next write.
"""

from __future__ import annotations

from sheetgm.backends.errors import BackendError
from sheetgm.backends.port import Op, SetValues
from sheetgm.core.events import Event
from sheetgm.core.observe import public_log
from sheetgm.core.state import State
from sheetgm.service.game import PUBLIC, Game
from sheetgm.service.ledger.journal import SUPERSEDED, Entry, split_desk_key
from sheetgm.service.timing.deadlines import clear_reminder_op
from sheetgm.sheets import layout
from sheetgm.sheets.limits import fit
from sheetgm.sheets.public import public_ops
from sheetgm.sheets.stages import SETUP_KEY, log_row


def missing_langs(game: Game) -> list[str]:
    """The languages whose tabs the public workbook lacks (none when it cannot be opened: the write says why)."""
    try:
        present = set(game.gateway.tabs(PUBLIC))
    except BackendError:
        return []
    return [lang for lang in game.langs if layout.tab(lang, "log") not in present]


def added_tabs_ops(game: Game, langs: list[str]) -> list[Op]:
    """The tabs, headers and protections of ``langs`` in the public workbook."""
    return [op for lang in langs
            for op in layout.public_lang_ops(lang, game.editors(), main=lang == game.lang, add=True)]


def log_text(entries: list[Entry], base: str, lang: str) -> str:
    """The public log of stage ``base`` in ``lang``: its events, then the director's rulings and cards after it."""
    live = [e for e in entries if e.status != SUPERSEDED]
    parts = [public_log(e.events(), lang) for e in live if e.key == base]
    parts += [public_log(e.events(), lang) for e in live if (split_desk_key(e.key) or ("",))[0] == base]
    return "".join(parts).strip()


def backfill_ops(lang: str, entries: list[Entry], upto: str) -> list[Op]:
    """The log rows of the stages before ``upto`` in a language's newly added tabs."""
    ops: list[Op] = []
    for e in entries:
        if e.status == SUPERSEDED or e.kind != "stage" or e.key in (SETUP_KEY, upto):
            continue
        r = log_row(e.key)
        text = fit(log_text(entries, e.key, lang), lang, "svc.cut_log", stage=e.key)
        ops.append(SetValues(layout.rng(layout.tab(lang, "log"), f"A{r}:B{r}"), ((e.key, text),)))
    return ops


def catch_up_ops(game: Game, entries: list[Entry]) -> list[Op]:
    """The tabs of the languages the public workbook lacks, with the log of every stage so far."""
    new = missing_langs(game)
    return added_tabs_ops(game, new) + [op for lang in new for op in backfill_ops(lang, entries, "")]


def stage_ops(game: Game, state: State, events: list[Event], key: str, formats: bool = True,
              entries: list[Entry] | None = None) -> list[Op]:
    """The public workbook after stage ``key`` in every language; the stage's reminder line ("not submitted
    yet: …") is emptied, since it no longer holds once the stage is resolved. A language whose tabs are new
    gets the earlier stages of ``entries`` too."""
    new = missing_langs(game)
    ops = added_tabs_ops(game, new)
    for lang in game.langs:
        if lang in new:
            ops += backfill_ops(lang, entries or [], key)
        ops += public_ops(state, events, key, lang, formats or lang in new)
        ops.append(clear_reminder_op(lang, key))
    return ops
