"""The lock's reading of protection flags, each test naming the slip in backends/xlsx/lock.py it catches."""

from __future__ import annotations

import pytest

from sheetgm.backends.port import LOCK_GAME, LOCK_NONE, LOCK_OTHER
from sheetgm.backends.xlsx.lock import (
    CLOSED,
    GUARDED,
    LOCK_WEAK,
    allows,
    is_on,
    lock_attrs,
    lock_of,
    password_hash,
    sheet_lock,
    structure_lock,
)


@pytest.mark.parametrize("value", ["false", "FALSE", "0", " 0 ", "False"])
def test_a_flag_written_false_in_any_spelling_allows_the_action(value: str) -> None:
    """Slip caught: ``insertRows="false"`` read as locked (a spelling of false taken as true, or the value ignored
    for the default): LibreOffice and Excel let a player insert rows then, and audit must say so."""
    attrs = {**CLOSED, "insertRows": value}
    assert allows(attrs) == ("insertRows",)
    assert sheet_lock({**attrs, "sheet": "1"}, "pw") is not None  # not kept as locked: written again


@pytest.mark.parametrize("value", ["true", "TRUE", "1", " 1 "])
def test_a_flag_written_true_in_any_spelling_forbids_the_action(value: str) -> None:
    """Slip caught: only "1" taken as true (Excel's files may say "true")."""
    assert allows({**CLOSED, "insertRows": value}) == ()
    assert is_on({"sheet": value})


def test_a_flag_left_out_takes_its_default() -> None:
    """Slip caught: a guarded default flipped: a protection that leaves the attributes out allows nothing."""
    assert allows({"sheet": "1"}) == tuple(f for f, d in GUARDED.items() if not d) == ()
    assert not is_on({}) and not is_on(None) and not is_on({"sheet": "0"})


def test_a_lock_by_the_games_password_under_another_algorithm_is_the_games() -> None:
    """Slips caught (mutmut's survivors): the file's algorithm ignored for ours (``algorithm and ALGORITHM``), a
    hash with no spin count read as a number, a lock without a password given a misspelt attribute."""
    salt = "c2FsdHNhbHRzYWx0c2FsdA=="
    digest = password_hash("pw", salt, 10, "SHA-256")
    assert digest is not None and digest != password_hash("pw", salt, 10, "SHA-512")
    attrs = {"algorithmName": "SHA-256", "hashValue": digest, "saltValue": salt, "spinCount": "10"}
    assert lock_of(attrs, "pw") == LOCK_GAME and lock_of(attrs, "other") == LOCK_OTHER
    assert lock_of({k: v for k, v in attrs.items() if k != "spinCount"}, "pw") == LOCK_OTHER
    assert structure_lock(None, None) == {"lockStructure": "1"} and structure_lock({"lockStructure": "1"}, None) is None


def test_the_structure_lock_by_the_games_password_is_kept_and_any_other_is_replaced_by_it() -> None:
    """Slips caught (mutmut's survivors): the structure lock's flag misspelt, its attributes read without the
    ``workbook`` prefix or without the password: the game's own lock rewritten at every save, or a foreign one
    kept."""
    ours = {**lock_attrs("pw", "workbook"), "lockStructure": "1"}
    assert structure_lock(ours, "pw") is None
    assert structure_lock(dict(ours, lockStructure="0"), "pw") == ours  # the flag off: locked again
    assert structure_lock(None, "pw") == ours and structure_lock({}, "pw") == ours
    assert structure_lock(ours, "other") == {**lock_attrs("other", "workbook"), "lockStructure": "1"}
    weak = {"workbookPassword": "CC3D", "lockStructure": "1"}  # the old 16-bit hash (Excel 2007's)
    assert lock_of(weak, "pw", "workbook") == LOCK_WEAK
    assert lock_of({"lockStructure": "1"}, "pw", "workbook") == LOCK_NONE
    assert structure_lock(weak, "pw") == ours
