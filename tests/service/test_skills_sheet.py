"""The Current tab tells each player what their role can use tonight and how many uses are left (R-ROLE-*)."""

from __future__ import annotations

from sheetgm.backends.port import SetValues
from sheetgm.core.setup import SeatSpec, new_game
from sheetgm.notation.mapfile import ready_map
from sheetgm.sheets.player import current_ops, info_range


def _skills_cell(state, seat: int, lang: str) -> str:  # type: ignore[no-untyped-def]
    for op in current_ops(state, seat, lang, formats=False):
        if isinstance(op, SetValues) and op.range.endswith(info_range(state.board)):
            return op.rows[-1][1]
    raise AssertionError("no skills cell")


def test_skills_with_tag_cost_and_uses_left_in_both_languages() -> None:
    roster = [SeatSpec("Mag", "survivor", "magician", "zh"), SeatSpec("Law", "survivor", "lawyer", "en"),
              SeatSpec("Emb", "hunter", "ember", "zh")]
    st = new_game(ready_map("teach"), roster, seed=1)
    assert _skills_cell(st, 1, "zh") == "魔术道具（瞬时，剩 2 次）"
    assert _skills_cell(st, 3, "zh") == "怒火（移动，消耗 1）"
    assert _skills_cell(st, 2, "en") == "none"
    st.players[1].uses["magic"] = 1
    assert _skills_cell(st, 1, "en") == "Magic Prop (instant, 1 use(s) left)"
