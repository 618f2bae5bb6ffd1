"""RUL-26: victory targets follow the seed (10 players); scaling them to the number of survivors is a
house rule, the option ``scale_targets`` (R-SETUP-1, R-END-3, R-END-5)."""

from __future__ import annotations

from sheetgm.core.setup import SeatSpec, new_game, scaled_targets
from sheetgm.notation.mapfile import ready_map


def roster(n_survivors: int, n_hunters: int = 1) -> list[SeatSpec]:
    return [SeatSpec(f"S{i}", "survivor") for i in range(n_survivors)] + [
        SeatSpec(f"H{i}", "hunter") for i in range(n_hunters)
    ]


def targets(options: dict[str, object] | None = None, n: int = 3) -> tuple[object, object, object]:
    st = new_game(ready_map("teach"), roster(n), seed=1, options=options)
    return st.opt("crack_target"), st.opt("survivors_to_win"), st.opt("eliminations_to_win")


def test_eight_survivors_keep_the_seeds_numbers() -> None:
    # covers: RUL-26, R-END-3, R-END-5
    st = new_game(ready_map("standard"), roster(8, 2), seed=1, options={"scale_targets": True})
    assert (st.opt("crack_target"), st.opt("survivors_to_win"), st.opt("eliminations_to_win")) == (16, 4, 5)
    assert scaled_targets(8) == {}


def test_the_seeds_targets_hold_for_any_roster_unless_the_house_rule_is_on() -> None:
    # covers: RUL-26
    assert targets() == (16, 4, 5)
    assert targets({"scale_targets": True}) == (6, 2, 2)


def test_the_games_options_override_the_scaled_targets() -> None:
    # covers: RUL-26, R-SETUP-1
    assert targets({"scale_targets": True, "survivors_to_win": 3}) == (6, 3, 2)
