"""Stage keys ("N1-survivor") and the fixed row of each stage in every tab.

Every row that holds something per stage has a position computed from the
stage alone, so a repeated publish overwrites the same cells instead of
appending: that is what makes publishing idempotent.
"""

from __future__ import annotations

import re

from sheetgm.core.errors import SheetgmError
from sheetgm.core.state import HUNTER_STAGE, SURVIVOR_STAGE

SETUP_KEY = "N0-setup"
_KEY_RE = re.compile(r"^N([0-9]{1,3})-(survivor|hunter|setup)$")


def stage_key(night: int, stage: str) -> str:
    return f"N{night}-{stage}"


def parse_key(key: str) -> tuple[int, str]:
    m = _KEY_RE.match(key.strip())
    if not m or (m.group(2) == "setup") != (m.group(1) == "0"):
        raise SheetgmError("err.svc.bad_stage_key", key=key)
    return int(m.group(1)), m.group(2)


def stage_index(key: str) -> int:
    """0 for setup, then 1, 2 for night 1's survivor and hunter stages, 3, 4 for night 2, ..."""
    night, stage = parse_key(key)
    if stage == "setup":
        return 0
    return 2 * night - (1 if stage == SURVIVOR_STAGE else 0)


def key_of_index(index: int) -> str:
    if index == 0:
        return SETUP_KEY
    night = (index + 1) // 2
    return stage_key(night, SURVIVOR_STAGE if index % 2 else HUNTER_STAGE)


def journal_row(key: str) -> int:
    """Row of a stage in the director's Journal and Log tabs (row 1 is the header)."""
    return stage_index(key) + 2


def log_row(key: str) -> int:
    """Row of a resolved stage in the public Log and a player's Results tab (N1-survivor is row 2)."""
    return stage_index(key) + 1


def order_row(night: int) -> int:
    """Row of a night in a player's Orders tab: each player orders once a night, in their camp's stage."""
    return night + 1


def archive_row(key: str, seat: int, seats: int) -> int:
    """Row of (stage, seat) in the director's Orders archive."""
    return (stage_index(key) - 1) * seats + seat + 1
