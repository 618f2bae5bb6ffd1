"""Tamper evidence keyed by the game's secret, which stays in the director workbook (RUL-48).

A seal is an HMAC-SHA256 with the secret over what it vouches for. A Results row's seal covers the
workbook, the stage and the text: a player who edits a report cannot make a seal that fits (the secret is
not in their file), nor pass off a row copied from another stage or another player's workbook; the stage
fixes the row (``stages.log_row``), so a row copied whole over another one is known by its place
(``player.edited_rows``). The text is sealed as spreadsheet programs store it (``stored``): Gnumeric drops a
cell's trailing line ends and a program may write ``\r\n`` or ``\r`` for a line end, which is no edit. Each
player workbook carries its identity sealed the same way (``identity``), so a file saved over another
seat's is known for what it is and is neither read nor written as that seat.
"""

from __future__ import annotations

import re

from sheetgm.core.digests import hmac_sha256_hex, same_text

SEAL_CHARS = 16
_TOKEN = re.compile(r"\b(player-[0-9]{1,4})/([0-9a-f]{16})\b")


def seal(secret: str, *parts: str) -> str:
    return hmac_sha256_hex(secret.encode("utf-8"), "\x1f".join(parts).encode("utf-8"))[:SEAL_CHARS]


def stored(text: str) -> str:
    """A cell's text as every spreadsheet program keeps it: line ends as ``\n``, none at the end."""
    return text.replace("\r\n", "\n").replace("\r", "\n").rstrip("\n")


def results_seal(secret: str, workbook: str, key: str, text: str) -> str:
    return seal(secret, "results", workbook, key, stored(text))


def results_sealed(secret: str, workbook: str, key: str, text: str, found: str) -> bool:
    """Whether ``found`` is the seal of this stage's ``text`` in this workbook: as stored now, or as sheetgm
    before ``stored`` sealed it (the text as written, a line end at its end included)."""
    kept = stored(text)
    return any(same_text(found, seal(secret, "results", workbook, key, t)) for t in dict.fromkeys((kept, text,
                                                                                                   kept + "\n")))


def identity_token(secret: str, game: str, workbook: str) -> str:
    """What a player workbook's identity cell carries: its key and a seal of it (``player-3/4f0c…``)."""
    return f"{workbook}/{seal(secret, 'identity', game, workbook)}"


def identity_of(text: str, secret: str, game: str) -> tuple[str | None, bool]:
    """The workbook key an identity cell names (None if none) and whether its seal is this game's."""
    found = _TOKEN.search(text or "")
    if found is None:
        return None, False
    key = found.group(1)
    return key, same_text(found.group(2), seal(secret, "identity", game, key))
