"""Every example order in docs/player-guide.md parses (the guide never teaches a broken order)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sheetgm.notation.orders import parse_order

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "player-guide.md"
LINES = [line for block in re.findall(r"```order\n(.*?)```", GUIDE.read_text("utf-8"), re.S)
         for line in block.strip().splitlines()]


def test_the_guide_has_examples_in_both_languages() -> None:
    assert len(LINES) >= 20
    assert any("移动" in line for line in LINES) and any("move" in line for line in LINES)


@pytest.mark.parametrize("line", LINES)
def test_example_parses(line: str) -> None:
    parse_order(line)
