"""RUL-26: victory targets follow the number of survivors (R-SETUP-1, R-END-3, R-END-5)."""

from __future__ import annotations

from sheetgm.core.setup import SeatSpec, new_game, scaled_targets
from sheetgm.notation.mapfile import ready_map


def roster(n_survivors: int, n_hunters: int = 1) -> list[SeatSpec]:
    return [SeatSpec(f"S{i}", "survivor") for i in range(n_survivors)] + [
        SeatSpec(f"H{i}", "hunter") for i in range(n_hunters)
    ]


def test_eight_survivors_keep_the_seeds_numbers() -> None:
    # covers: RUL-26, R-END-3, R-END-5
    st = new_game(ready_map("standard"), roster(8, 2), seed=1)
    assert (st.opt("crack_target"), st.opt("survivors_to_win"), st.opt("eliminations_to_win")) == (16, 4, 5)
    assert scaled_targets(8) == {}


def test_a_teaching_game_of_three_survivors_is_winnable() -> None:
    # covers: RUL-26
    st = new_game(ready_map("teach"), roster(3), seed=1)
    assert (st.opt("crack_target"), st.opt("survivors_to_win"), st.opt("eliminations_to_win")) == (6, 2, 2)


def test_the_games_options_override_the_scaled_targets() -> None:
    # covers: RUL-26, R-SETUP-1
    st = new_game(ready_map("teach"), roster(3), seed=1, options={"survivors_to_win": 3})
    assert st.opt("survivors_to_win") == 3 and st.opt("crack_target") == 6
