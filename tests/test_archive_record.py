"""The journal's record of an order (sheets/archive.py): what it keeps round-trips through JSON, and a record
written before a field existed reads with that field's default, so older journals replay as they were resolved."""

from __future__ import annotations

import json

import pytest

from sheetgm.service.ledger.stamps import LATE, SEEN
from sheetgm.service.ledger.verdicts import nothing_used
from sheetgm.sheets.archive import ArchivedOrder


def test_a_late_record_round_trips_with_when_it_was_checked_and_that_nothing_was_used() -> None:
    late = ArchivedOrder("移动 B2", "", ("x",), ("y",), False, True, "", 3, LATE, "2024-05-01T20:55:00+08:00", True)
    again = ArchivedOrder.from_dict(json.loads(json.dumps(late.to_dict())))
    assert again == late and nothing_used(again)
    seen = ArchivedOrder("搜索", "搜索", verdict=SEEN, checked="2024-05-01T20:55:00+08:00")
    assert ArchivedOrder.from_dict(seen.to_dict()) == seen and not nothing_used(seen)


def test_a_record_from_before_the_late_fields_defaults_them() -> None:
    old = {"text": "移动 B2", "used": "", "problems": [], "problems_director": [], "bad": False, "ticked": True,
           "stamp": "", "row": 3, "verdict": LATE}  # RUL-38's journal: a late seat was left out, not given nothing
    got = ArchivedOrder.from_dict(old)
    assert (got.checked, got.nothing) == ("", False) and not nothing_used(got)
    assert ArchivedOrder.from_dict({}).verdict == "ok"


def test_a_record_that_is_not_one_is_refused() -> None:
    with pytest.raises(TypeError):
        ArchivedOrder.from_dict(["移动 B2"])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ArchivedOrder.from_dict({"problems": "far"})
