"""game.toml: round trip and clear errors."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from svc_helpers import roster

from sheetgm.service.config.load import load_config, parse_config, save_config, to_plain, to_toml
from sheetgm.service.errors import ConfigError
from sheetgm.sheets.stages import archive_row, journal_row, key_of_index, log_row, stage_index


def _cfg(**extra):  # type: ignore[no-untyped-def]
    return {"name": "g", "seed": 1, "roster": roster(), **extra}


def test_round_trip(tmp_path: Path) -> None:
    cfg = parse_config(_cfg(deadlines={"N1-survivor": "2024-05-01T21:00:00+08:00"}, options={"crack_target": 9}))
    save_config(cfg, tmp_path)
    assert load_config(tmp_path) == cfg
    assert tomllib.loads(to_toml(to_plain(cfg)))["options"] == {"crack_target": 9}


@pytest.mark.parametrize(
    ("extra", "where"),
    [
        ({"roster": [{"alias": "a b", "camp": "survivor"}, {"alias": "h", "camp": "hunter"}]}, "roster.1.alias"),
        ({"roster": [{"alias": "a", "camp": "survivor"}, {"alias": "A", "camp": "hunter"}]}, "distinct"),
        ({"roster": [{"alias": "a", "camp": "survivor"}, {"alias": "b", "camp": "survivor"}]}, "one hunter"),
        ({"options": {"speed": 3}}, "unknown option"),
        ({"deadlines": {"N1-survivor": "2024-05-01T21:00:00"}}, "time zone"),
        ({"deadlines": {"night1": "2024-05-01T21:00:00+08:00"}}, "deadlines"),
        ({"backend": "google"}, "email"),
        ({"roster": [{"alias": "a", "camp": "survivor", "role": "clown"}, {"alias": "h", "camp": "hunter"}]},
         "not a survivor role"),
    ],
)
def test_errors_name_the_field(extra, where) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError) as err:
        parse_config(_cfg(**extra))
    assert where in err.value.message("en")


def test_stage_rows_are_fixed_by_the_stage() -> None:
    assert [key_of_index(i) for i in range(5)] == ["N0-setup", "N1-survivor", "N1-hunter", "N2-survivor", "N2-hunter"]
    assert all(stage_index(key_of_index(i)) == i for i in range(40))
    assert journal_row("N0-setup") == 2 and log_row("N1-survivor") == 2 and log_row("N2-hunter") == 5
    assert archive_row("N1-survivor", 1, 10) == 2 and archive_row("N1-hunter", 1, 10) == 12


def test_a_roster_error_counts_players_from_one_in_the_directors_language() -> None:
    seats = [{"alias": "a", "camp": "survivor"}, {"alias": "b", "camp": "survivor"}, {"alias": "c", "camp": "hunterr"}]
    with pytest.raises(ConfigError) as err:
        parse_config(_cfg(roster=seats))
    assert "roster.3.camp（第 3 名玩家 c 的阵营）" in err.value.message("zh")
    with pytest.raises(ConfigError) as err:
        parse_config(_cfg(roster=seats, lang="en"))
    assert "roster.3.camp (player 3, c: camp)" in err.value.message("en")
