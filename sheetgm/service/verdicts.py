"""What a player and the director are told about an order changed after the last check before the deadline.

RUL-38 and RUL-50: at the deadline an order counts as the last check before it saw it. A player whose order
changed after that check is told, in their status cell (by ``check`` after the deadline, then by the resolve)
and at the top of their report, which version was carried out and why; a player that check saw without any
order is told that what they wrote later is not used, never "no order received from you".
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sheetgm.core.texts import render
from sheetgm.service.game import Game
from sheetgm.service.stamps import AFTER, LATE


def shown(game: Game, iso: str) -> str:
    """An ISO time of the tool's records as a person reads it, in the game's time zone: "05-01 20:58"."""
    try:
        when = datetime.fromisoformat(iso)
    except (TypeError, ValueError):
        return iso or "-"
    return f"{when.astimezone(game.now().tzinfo):%m-%d %H:%M}"


def check_status(game: Game, seat: int, verdict: str, used: str, checked: str, stamp: str) -> str:
    """Column D after the deadline, before the resolve: which version will be carried out and why."""
    return render(game.seat_lang(seat), f"sheet.status.after_{verdict}", time=game.now().strftime("%m-%d %H:%M"),
                  checked=shown(game, checked), stamp=shown(game, stamp), used=used)


def report_note(game: Game, info: Mapping[str, Any], lang: str) -> str:
    """The line on top of a player's report of a stage whose order changed after the last check before the
    deadline ("" for any other order)."""
    verdict = str(info.get("verdict", ""))
    if verdict not in AFTER:
        return ""
    return render(lang, f"sheet.report.{verdict}", checked=shown(game, str(info.get("checked", ""))),
                  stamp=shown(game, str(info.get("stamp", ""))), used=str(info.get("used") or info.get("text") or ""))


def director_warning(game: Game, seat: int, verdict: str, checked: str, stamp: str, lang: str) -> str:
    return render(lang, f"svc.order_{verdict}", alias=game.alias(seat), seat=seat, checked=shown(game, checked),
                  stamp=shown(game, stamp))


def nothing_used(info: Mapping[str, Any]) -> bool:
    """Whether the resolve gave this seat an empty order (a late one: the engine must not say "no order")."""
    return info.get("verdict") == LATE and bool(info.get("nothing"))
