"""The game.toml `sheetgm new` writes into a folder that has none: a commented starter for the standard map that
validates as it is, so that a new director edits names and dates and runs `sheetgm new` again."""

from __future__ import annotations

import json
import secrets
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from sheetgm.core.texts import render

ZONE = "Asia/Shanghai"  # the forum's; the starter's comment says to change it
PLAYERS = 10  # the standard map's table: 8 survivors and 2 hunters, dealt by the seed


def starter_text(lang: str, name: str, seed: int, start: date) -> str:
    """The starter's text in ``lang``: the settings with a comment each, then ten ``[[roster]]`` blocks."""
    aliases = render(lang, "cli.starter.aliases").split("|")[:PLAYERS]
    head = render(lang, "cli.starter.file", name=name, seed=seed, start=start.isoformat(), zone=ZONE,
                  lang=lang)
    seats = "".join(f'\n[[roster]]\nalias = {json.dumps(a, ensure_ascii=False)}\nlang = "{lang}"\n' for a in aliases)
    return head.rstrip("\n") + "\n" + seats


def write_starter(folder: Path, lang: str, now: datetime | None = None) -> Path:
    """``folder/game.toml`` written as a starter (the folder made if need be): night 1 on the day after today in
    the starter's zone, a random seed, the folder's name as the game's."""
    today = (now or datetime.now(ZoneInfo(ZONE))).astimezone(ZoneInfo(ZONE)).date()
    folder.mkdir(parents=True, exist_ok=True)
    name = "".join(ch for ch in folder.resolve().name if ch.isalnum() or ch in "-_") or "my-game"
    file = folder / "game.toml"
    file.write_text(starter_text(lang, name, 10_000 + secrets.randbelow(90_000_000), today + timedelta(days=1)),
                    "utf-8")
    return file
