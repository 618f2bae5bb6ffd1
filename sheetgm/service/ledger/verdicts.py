"""What a player and the director are told about an order changed after the last check before the deadline.

RUL-38 and RUL-50: at the deadline an order counts as the last check before it saw it. A player whose order
changed after that check is told, in their status cell (by ``check`` after the deadline, then by the resolve)
and at the top of their report, which version was carried out and why; a player that check saw without any
order is told that what they wrote later is not used, never "no order received from you".
"""

from __future__ import annotations

from datetime import datetime

from sheetgm.core.texts import render
from sheetgm.service.game import Game
from sheetgm.service.ledger.stamps import AFTER, LATE
from sheetgm.service.timing.deadlines import local_time
from sheetgm.sheets.archive import ArchivedOrder


def _short(game: Game, when: datetime | str, lang: str) -> str:
    return local_time(game, when, lang, short=True)


def check_status(game: Game, seat: int, verdict: str, used: str, checked: str, stamp: str) -> str:
    """Column D after the deadline, before the resolve: which version will be carried out and why."""
    lang = game.seat_lang(seat)
    return render(lang, f"sheet.status.after_{verdict}", time=_short(game, game.now(), lang),
                  checked=_short(game, checked, lang), stamp=_short(game, stamp, lang), used=used)


def report_note(game: Game, info: ArchivedOrder | None, lang: str) -> str:
    """The line on top of a player's report of a stage whose order changed after the last check before the
    deadline ("" for any other order, or none)."""
    if info is None or info.verdict not in AFTER:
        return ""
    return render(lang, f"sheet.report.{info.verdict}", checked=_short(game, info.checked, lang),
                  stamp=_short(game, info.stamp, lang), used=info.used or info.text)


def director_warning(game: Game, seat: int, info: ArchivedOrder, lang: str) -> str:
    """The director's line for a seat whose order changed after the last check before the deadline."""
    return render(lang, f"svc.order_{info.verdict}", alias=game.alias(seat), seat=seat,
                  checked=_short(game, info.checked, lang), stamp=_short(game, info.stamp, lang))


def nothing_used(info: ArchivedOrder) -> bool:
    """Whether the resolve gave this seat an empty order (a late one: the engine must not say "no order")."""
    return info.verdict == LATE and info.nothing
