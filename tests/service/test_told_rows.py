"""``stamps.told`` looks at the seat's own archive rows alone (one a stage): it finds what the look at every row
(the code before, kept here as the witness) finds, whatever the rows hold."""

from __future__ import annotations

import random

import pytest

from sheetgm.service.ledger import stamps


def _witness(rows: list[list[str]], key: str, seat: int, seats: int) -> tuple[set[str], set[str]]:
    before: set[str] = set()
    now: set[str] = set()
    for r in range(2, len(rows) + 2):
        cells = list(rows[r - 2]) + [""] * stamps.COLS
        if not cells[10].strip():
            continue
        try:
            stage, at = stamps._stage_seat(r, seats)
        except ValueError:
            continue
        if at != seat:
            continue
        (now if stage == key else before).update(cells[10].split())
    return before, now


@pytest.mark.parametrize("seed", range(4))
def test_the_seats_rows_tell_what_every_row_tells(seed: int) -> None:
    rng = random.Random(seed)
    found = 0
    for _ in range(300):
        seats = rng.randint(0, 9)
        rows = [[rng.choice(["", "x"]) for _ in range(rng.randint(0, 13))] for _ in range(rng.randint(0, 40))]
        for row in rows:
            if len(row) > 10 and rng.random() < 0.6:
                row[10] = rng.choice(["a b", " c ", "", "  ", "a"])
        key = rng.choice(["N1-survivor", "N1-hunter", "N2-survivor"])
        seat = rng.randint(-1, 11)
        got = stamps.told(rows, key, seat, seats)
        assert got == _witness(rows, key, seat, seats)
        found += bool(got[0] or got[1])
    assert found > 10  # (notes found: the comparison is not of empty sets only)
