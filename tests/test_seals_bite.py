"""Seals that bite: each test names the slip in sheets/seals.py (or its use in sheets/player.py) it catches."""

from __future__ import annotations

from sheetgm.sheets.player import edited_rows
from sheetgm.sheets.seals import SEAL_CHARS, identity_of, identity_token, results_seal, seal

SECRET = "s3cret-of-the-game"


def test_a_results_row_whose_seal_cell_was_cleared_is_edited() -> None:
    """Slip caught: a seal cut to nothing (``[:SEAL_CHARS]`` -> ``[:0]``) or an empty seal cell taken as fitting:
    a row whose stage and text are there but whose seal was cleared must not pass."""
    good = ["N1-survivor", "你在 B2。", results_seal(SECRET, "player-1", "N1-survivor", "你在 B2。")]
    assert len(good[2]) == SEAL_CHARS and all(c in "0123456789abcdef" for c in good[2])
    assert edited_rows([good], SECRET, "player-1") == []
    assert edited_rows([good[:2] + [""]], SECRET, "player-1") == [2]
    assert edited_rows([good[:2]], SECRET, "player-1") == [2]  # the seal cell left out of the row read
    assert edited_rows([good, ["", "", ""]], SECRET, "player-1") == []  # an empty row is no row


def test_a_seal_is_keyed_by_the_secret() -> None:
    """Slip caught: seals keyed by an empty (or any fixed) secret instead of the game's: then anyone could make
    one. Another secret, or none, gives another seal, for a Results row and for an identity."""
    parts = ("results", "player-1", "N1-survivor", "text")
    assert seal(SECRET, *parts) != seal("", *parts) != seal("other", *parts)
    row = ["N1-survivor", "text", results_seal("", "player-1", "N1-survivor", "text")]
    assert edited_rows([row], SECRET, "player-1") == [2]
    forged = identity_token("", "game-1", "player-2")
    assert identity_of(forged, SECRET, "game-1") == ("player-2", False)
    assert identity_of(identity_token(SECRET, "game-1", "player-2"), SECRET, "game-1") == ("player-2", True)


def test_a_seal_binds_each_part_and_their_boundaries() -> None:
    """Slip caught: a part left out of the sealed message, or parts joined with nothing between them (then
    ("ab", "c") and ("a", "bc") seal alike): a row moved to another stage or workbook would pass."""
    base = results_seal(SECRET, "player-1", "N1-survivor", "text")
    assert base != results_seal(SECRET, "player-2", "N1-survivor", "text")
    assert base != results_seal(SECRET, "player-1", "N2-survivor", "text")
    assert base != results_seal(SECRET, "player-1", "N1-survivor", "text.")
    assert seal(SECRET, "ab", "c") != seal(SECRET, "a", "bc")
    assert identity_token(SECRET, "game-1", "player-2") != identity_token(SECRET, "game-2", "player-2")
    assert identity_of("no token here", SECRET, "game-1") == (None, False)
