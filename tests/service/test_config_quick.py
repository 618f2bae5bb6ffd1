"""A plainly valid game.toml is accepted without pydantic (service/config/quick.py), and only what the models
accept, in the very form they give: nothing validated is kept between commands any more (issue 26)."""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from dataclasses import fields
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from svc_helpers import roster

from sheetgm.service.config import load as config
from sheetgm.service.config import model as config_model
from sheetgm.service.config.load import InvalidConfigError, load_config, parse_config
from sheetgm.service.config.quick import GAME_KEYS, SCHEDULE_KEYS, SEAT_KEYS, plain_valid
from sheetgm.service.demo import demo_config

FULL: dict[str, Any] = {
    "name": "g", "seed": 3, "lang": "en", "timezone": "Europe/Paris", "options": {"crack_target": 9},
    "roster": [*roster(), {"alias": "Ann", "camp": "survivor", "role": "doctor", "lang": "en"}],
    "schedule": {"survivors": "21:00", "hunters": " 23:00", "every": "2 days", "start": date(2026, 5, 1)},
    "deadlines": {"N1-survivor": "2026-05-01T21:00:00+08:00",
                  "N2-hunter": datetime(2026, 5, 2, 23, 0, tzinfo=UTC)}, "role_pool": ["doctor", "lawyer"],
}
GOOGLE: dict[str, Any] = {
    **FULL, "backend": "google", "director_email": " gm@example.com", "service_account": "bot@p.iam.example.com",
    "map_url": "https://example.com/m/",
    "roster": [{**s, "email": f"p{i}@example.com"} for i, s in enumerate(FULL["roster"])],
}

# values put in place of each field in turn: the right types, the wrong ones, the edges, what TOML can give
ODD: list[Any] = [None, "", " ", "x", "21:00", "Asia/Shanghai", "asia/shanghai", "Asia/Shangai", "2 days", "DAY",
                  "2026-05-01", "9999-01-01", "2026-05-01T21:00:00+08:00", "2026-05-01T21:00:00", 0, 1, -1, 12, 99,
                  100, 2**70, True, False, 1.5, float("inf"), date(2026, 5, 1), date(1999, 1, 1),
                  datetime(2026, 5, 1, 21, 0), datetime(2026, 5, 1, 21, 0, tzinfo=timezone(timedelta(hours=8))),
                  datetime(2026, 5, 1, 21, 0, tzinfo=timezone(timedelta(seconds=30))), [], ["doctor"], ["nobody"],
                  {}, {"crack_target": -1}, {"crack_target": 16}, {"hunters": 3}, {"key_drop": "random"},
                  {"bogus": 1}, {"scale_targets": "yes"}, "survivor", "hunter", "doctor", "ripper", "zh", "fr",
                  "google", "a@b.c", "not-an-email", "http://x", "ftp://x", "Ann", "ANN", "a/b", "con", "a\u200bb"]


def _mutations() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for base in (FULL, GOOGLE, demo_config(10, 1, "zh", 12)):
        out.append(copy.deepcopy(base))
        for key in (*GAME_KEYS, "bogus"):
            out.extend({**copy.deepcopy(base), key: v} for v in ODD)
            out.append({k: v for k, v in base.items() if k != key})
        for key in (*SCHEDULE_KEYS, "bogus"):
            out.extend({**base, "schedule": {**FULL["schedule"], key: v}} for v in ODD)
            out.append({**base, "schedule": {k: v for k, v in FULL["schedule"].items() if k != key}})
        for key in ("N1-survivor", "N0-x", "Nx"):
            out.extend({**base, "deadlines": {key: v}} for v in ODD)
        for i in (0, len(base["roster"]) - 1):
            for key in (*SEAT_KEYS, "bogus"):
                for v in ODD:
                    seats = copy.deepcopy(base["roster"])
                    seats[i] = {**seats[i], key: v}
                    out.append({**base, "roster": seats})
    return out


def _models(data: Any) -> dict[str, Any] | None:
    try:
        dumped: dict[str, Any] = config_model.GameModel.model_validate(data).model_dump(mode="json")
        return dumped
    except ValidationError:
        return None


def test_plain_valid_never_accepts_what_the_models_refuse_and_gives_what_they_give() -> None:
    accepted = 0
    for data in _mutations():
        quick = plain_valid(copy.deepcopy(data))
        if quick is not None:
            accepted += 1
            assert quick == _models(data), data
    assert accepted > 300  # and it does accept the usual configs (else it would save nothing)


@pytest.mark.parametrize("data", [FULL, GOOGLE, demo_config(10, 1, "zh", 12), demo_config(160, 2, "en", 30)])
def test_the_usual_configs_are_plainly_valid(data: dict[str, Any]) -> None:
    assert plain_valid(copy.deepcopy(data)) == _models(data)


@pytest.mark.parametrize(("record", "model"), [("GameConfig", "GameModel"), ("SeatConfig", "SeatModel"),
                                               ("ScheduleConfig", "ScheduleModel")])
def test_the_records_have_the_models_fields_in_the_models_order(record: str, model: str) -> None:
    """game.toml is saved in the records' field order; the quick check knows the same keys."""
    names = list(getattr(config_model, model).model_fields)
    assert [f.name for f in fields(getattr(config, record))] == names
    assert list({"GameModel": GAME_KEYS, "SeatModel": SEAT_KEYS, "ScheduleModel": SCHEDULE_KEYS}[model]) == names


@pytest.mark.parametrize(("line", "named"), [('timezone = "Asia/Shangai"', "Asia/Shanghai"),
                                             ("[options]\ncrack_target = -1", "crack_target")])
def test_an_invalid_game_toml_is_refused_every_time(line: str, named: str, tmp_path: Path) -> None:
    text = f'name = "g"\nseed = 1\n{line}\n' + "".join(
        f'[[roster]]\nalias = "{a}"\ncamp = "{c}"\n' for a, c in (("A", "survivor"), ("H", "hunter")))
    (tmp_path / "game.toml").write_text(text, "utf-8")
    for _ in range(2):
        with pytest.raises(InvalidConfigError) as err:
            load_config(tmp_path)
        assert named in err.value.message("en")


def test_a_plainly_valid_config_is_read_without_pydantic(tmp_path: Path) -> None:
    script = ("import sys; from pathlib import Path; from sheetgm.service.config.load import load_config; "
              f"cfg = load_config(Path({str(tmp_path)!r})); "
              "print(cfg.name, cfg.schedule.days, 'pydantic' in sys.modules)")
    from sheetgm.service.config.load import save_config

    save_config(parse_config(copy.deepcopy(FULL)), tmp_path)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=dict(os.environ),
                          timeout=60)
    assert done.stdout.split() == ["g", "2", "False"], done.stderr
