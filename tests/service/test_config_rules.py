"""Issue 15.8 and 15.10: game.toml says no, naming the key and the fix in the director's language.

Time zones are checked (a near miss gets the right spelling), every rule option has a type and a range, dates
stay within reach, a byte-order mark is accepted, and aliases that could pass for another player's, or break a
file name, are refused by `sheetgm new` before anything is made.
"""

from __future__ import annotations

import codecs
from pathlib import Path
from typing import Any

import pytest
from svc_helpers import roster
from typer.testing import CliRunner

from sheetgm.cli.app import app
from sheetgm.service.config.load import load_config, parse_config
from sheetgm.service.errors import ConfigError

runner = CliRunner()


def _cfg(**extra: Any) -> dict[str, Any]:
    return {"name": "g", "seed": 1, "roster": roster(), **extra}


def refusal(told: str = "en", **extra: Any) -> str:
    with pytest.raises(ConfigError) as err:
        parse_config(_cfg(**extra))
    return err.value.message(told)


@pytest.mark.parametrize(("given", "suggested"), [("asia/shanghai", "Asia/Shanghai"), ("Asia/Shangai", "Asia/Shanghai"),
                                                  ("europe/berlin", "Europe/Berlin"), ("utc", "UTC")])
def test_a_misspelt_time_zone_is_refused_with_its_right_spelling(given: str, suggested: str) -> None:
    for lang in ("zh", "en"):
        text = refusal(lang, timezone=given)
        assert f'"{suggested}"' in text and given in text and "timezone" in text
    assert "UTC" in refusal("en", timezone=given)  # the cost of the mistake is said


def test_an_unknown_time_zone_is_refused_and_good_ones_pass() -> None:
    text = refusal("zh", timezone="Mars/Olympus")
    assert "Mars/Olympus" in text and "Asia/Shanghai" in text and "时区" in text
    for zone in ("Asia/Shanghai", "UTC", "America/New_York", "Europe/Berlin"):
        assert parse_config(_cfg(timezone=zone)).timezone == zone


@pytest.mark.parametrize(("option", "value", "fix"), [
    ("crack_target", -1, "1 to 999"),
    ("crack_target", "sixteen", "whole number"),
    ("crack_target", 16.5, "whole number"),
    ("crack_target", True, "whole number"),
    ("hunters", 0, "1 to 9"),
    ("keys_to_escape", 1000, "0 to 99"),
    ("scale_targets", "yes", "true or false"),
    ("red_card_counts_as_elimination", 1, "true or false"),
    ("key_drop", "sometimes", "random / at_elimination"),
    ("speed", 3, "unknown option"),
])
def test_every_option_has_a_type_and_a_range(option: str, value: Any, fix: str) -> None:
    text = refusal("en", options={option: value})
    assert option in text and fix in text
    assert "options" in refusal("zh", options={option: value})


def test_good_options_pass() -> None:
    opts = {"crack_target": 6, "scale_targets": True, "key_drop": "at_elimination", "keys_to_escape": 0,
            "assassin_passage": "B2-E5"}
    assert parse_config(_cfg(options=opts)).options == opts


@pytest.mark.parametrize(("extra", "words"), [
    ({"seed": True}, "whole number"),
    ({"seed": "12"}, "whole number"),
    ({"max_nights": 0}, "at least 1"),
    ({"lang": "fr"}, "'zh' or 'en'"),
    ({"bogus": 1}, "unknown key"),
    ({"schedule": {"survivors": "21:00", "start": "9999-01-01"}}, "between 2000 and 2999"),
    ({"schedule": {"survivors": "25:00", "start": "2024-05-01"}}, "HH:MM"),
    ({"deadlines": {"N1-survivor": "9999-12-31T23:00:00+08:00"}}, "between 2000 and 2999"),
    ({"map_url": "example.com/maps"}, "https://"),
    ({"director_email": "gm at example.com"}, "email"),
    ({"role_pool": ["doctor", "wizard"]}, "wizard"),
])
def test_types_and_absurd_values_are_refused_in_words(extra: dict[str, Any], words: str) -> None:
    text = refusal("en", **extra)
    assert words in text and "Input should" not in text


def test_the_refusal_follows_the_asked_language_whole() -> None:
    """One language per message: no English of pydantic's inside a Chinese refusal."""
    import re

    text = refusal("zh", seed="x", max_nights=0, options={"crack_target": -1})
    assert "应为整数" in text and "至少为 1" in text and "options.crack_target" in text
    assert not re.search(r"\b(Input|should|valid|integer)\b", text)


ALIASES = [
    ("Ann\u200b", "U+200B"),  # zero-width space: looks like Ann
    ("\u202eAnn", "U+202E"),  # right-to-left override
    ("An\x00n", "U+0000"),
    ("../../x", "/"),
    ("a/b", "/"),
    ("a\\b", "\\"),
    ("CON", "CON"),
    ("nul.txt", "NUL"),
    ('"Ann"', "quote"),
]


@pytest.mark.parametrize(("alias", "named"), ALIASES)
def test_new_refuses_an_alias_that_hides_or_breaks(alias: str, named: str, tmp_path: Path) -> None:
    seats = [{"alias": alias, "camp": "survivor"}, {"alias": "Bo", "camp": "survivor"},
             {"alias": "H", "camp": "hunter"}]
    with pytest.raises(ConfigError) as err:
        parse_config(_cfg(roster=seats))
    en = err.value.message("en")
    assert "roster.1.alias" in en and (named in en or named.lower() in en.lower())
    _new_refuses(tmp_path, seats)


@pytest.mark.parametrize("pair", [("Ann", "ANN"), ("Straße", "STRASSE"), ("ann", "Ann")])
def test_new_refuses_two_aliases_that_read_as_one(pair: tuple[str, str], tmp_path: Path) -> None:
    seats = [{"alias": pair[0], "camp": "survivor"}, {"alias": pair[1], "camp": "survivor"},
             {"alias": "H", "camp": "hunter"}]
    with pytest.raises(ConfigError) as err:
        parse_config(_cfg(roster=seats))
    assert pair[0] in err.value.message("zh") and pair[1] in err.value.message("zh")
    _new_refuses(tmp_path, seats)


def _quoted(text: str) -> str:
    """A TOML basic string: quotes, backslashes and invisible characters escaped as \\uXXXX."""
    return '"' + "".join(f"\\u{ord(c):04X}" if c in '"\\' or not c.isprintable() else c for c in text) + '"'


def _toml(seats: list[dict[str, str]], head: str = 'name = "g"\nseed = 1\n') -> str:
    body = "".join(f'\n[[roster]]\nalias = {_quoted(s["alias"])}\ncamp = "{s["camp"]}"\n' for s in seats)
    return head + body


def _new_refuses(tmp_path: Path, seats: list[dict[str, str]]) -> None:
    draft = tmp_path / "draft.toml"
    draft.write_text(_toml(seats), "utf-8")
    out = runner.invoke(app, ["new", str(draft), "--game", str(tmp_path / "game")])
    assert out.exit_code == 1 and isinstance(out.exception, SystemExit), out.output
    assert "马甲" in out.stderr and "Traceback" not in out.output
    assert not (tmp_path / "game" / "workbooks").exists()  # nothing was made


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    seats = [{"alias": "A", "camp": "survivor"}, {"alias": "H", "camp": "hunter"}]
    (tmp_path / "game.toml").write_bytes(codecs.BOM_UTF8 + _toml(seats, 'name = "g"\nseed = 1\nlang = "en"\n')
                                         .encode("utf-8"))
    assert load_config(tmp_path).lang == "en"
    out = runner.invoke(app, ["schedule", "--game", str(tmp_path)])
    assert "Traceback" not in out.output and "BOM" not in out.output and "\\ufeff" not in out.output


def test_a_file_saved_in_another_encoding_or_broken_is_named(tmp_path: Path) -> None:
    seats = [{"alias": "A", "camp": "survivor"}, {"alias": "H", "camp": "hunter"}]
    (tmp_path / "game.toml").write_bytes(_toml(seats).encode("utf-16"))
    with pytest.raises(ConfigError) as err:
        load_config(tmp_path)
    assert "UTF-8" in err.value.message("zh") and "game.toml" in err.value.message("zh")
    (tmp_path / "game.toml").write_text('name = "g"\nseed = 1\nseed = 2\n', "utf-8")
    with pytest.raises(ConfigError) as err:
        load_config(tmp_path)
    assert "第 3 行" in err.value.message("zh") and "line 3" in err.value.message("en")


@pytest.mark.parametrize("command", ["status", "schedule", "check", "resolve"])
def test_an_absurd_date_is_a_message_not_a_traceback(command: str, tmp_path: Path) -> None:
    seats = [{"alias": "A", "camp": "survivor"}, {"alias": "H", "camp": "hunter"}]
    text = _toml(seats, 'name = "g"\nseed = 1\n[schedule]\nsurvivors = "21:00"\nstart = "9999-12-31"\n')
    (tmp_path / "game.toml").write_text(text, "utf-8")
    out = runner.invoke(app, [command, "--game", str(tmp_path)], env={"SHEETGM_LANG": "en"})
    assert out.exit_code == 1 and isinstance(out.exception, SystemExit), out.output
    assert "schedule.start" in out.stderr and "9999" in out.stderr


def test_the_console_language_wins_over_the_games(tmp_path: Path) -> None:
    seats = [{"alias": "A", "camp": "survivor"}, {"alias": "H", "camp": "hunter"}]
    (tmp_path / "game.toml").write_text(_toml(seats, 'name = "g"\nseed = 1\nlang = "zh"\ntimezone = "asia/shanghai"\n'),
                                        "utf-8")
    en = runner.invoke(app, ["status", "--game", str(tmp_path)], env={"SHEETGM_LANG": "en"})
    assert "misspelt" in en.stderr and not any("\u4e00" <= c <= "\u9fff" for c in en.stderr)
    zh = runner.invoke(app, ["status", "--game", str(tmp_path)], env={"SHEETGM_LANG": ""})
    assert "时区" in zh.stderr


def test_a_zone_known_by_its_file_is_exactly_a_listed_zone() -> None:
    """The fast check (the zone's file, folder by folder as spelled) accepts only what the full list of the
    machine's zones holds, and no other spelling of it: the list is made only for a name it does not accept."""
    from sheetgm.service.config import rules as config_rules

    zones = config_rules._zones()
    accepted = [z for z in sorted(zones.values()) if config_rules._spelled(z)]
    assert "Asia/Shanghai" in accepted and len(accepted) > len(zones) // 2
    for zone in accepted[::7]:
        for other in (zone.lower(), zone.upper(), zone.swapcase(), f"right/{zone}", f"posix/{zone}", f"{zone}/",
                      f"./{zone}", zone.replace("/", "//")):
            if other != zone:
                assert not config_rules._spelled(other), other
    for name in ("posixrules", "zone.tab", "tzdata.zi", "../etc/passwd", "Asia/../Asia/Shanghai", ""):
        assert config_rules._spelled(name) == (name in zones.values()), name
