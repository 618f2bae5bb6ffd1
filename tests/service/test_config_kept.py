"""A config validated once on this machine is read back without pydantic (service/config/load.py's cache, issue 14),
and the cache never stands in for a validation that could come out differently."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import time
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from svc_helpers import roster

import sheetgm
from sheetgm.core.cachedir import CACHE_ENV
from sheetgm.service.config import load as config
from sheetgm.service.config.load import parse_config
from sheetgm.service.config.model import GameModel

FULL: dict[str, Any] = {
    "name": "g", "seed": 3, "lang": "en", "timezone": "Europe/Paris", "options": {"crack_target": 9},
    "roster": [*roster(), {"alias": "Ann", "camp": "survivor", "role": "doctor", "lang": "en"}],
    "schedule": {"survivors": "21:00", "hunters": " 23:00", "every": "2 days", "start": date(2026, 5, 1)},
    "deadlines": {"N1-survivor": "2026-05-01T21:00:00+08:00"}, "role_pool": ["doctor", "lawyer"],
}


def _kept(cache: Path) -> list[Path]:
    return sorted((cache / "configs").glob("*.json")) if (cache / "configs").exists() else []


def test_the_kept_form_is_exactly_what_validation_gives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    first = parse_config(FULL)
    (kept,) = _kept(tmp_path)
    assert json.loads(kept.read_text("utf-8")) == GameModel.model_validate(FULL).model_dump(mode="json")
    again = parse_config(FULL)
    assert again == first and again.schedule is not None and again.schedule.days == 2
    assert again.schedule.hunters == "23:00" and again.schedule.start == date(2026, 5, 1)
    assert again.deadlines["N1-survivor"].utcoffset() is not None and again.roster[-1].role == "doctor"


def test_a_kept_config_is_read_without_pydantic_in_a_new_process(tmp_path: Path) -> None:
    data = json.dumps({**FULL, "schedule": {**FULL["schedule"], "start": "2026-05-01"}})
    script = ("import json, sys; from sheetgm.service.config.load import parse_config; "
              f"cfg = parse_config(json.loads({data!r})); "
              "print(cfg.name, cfg.schedule.days, 'pydantic' in sys.modules)")
    env = {**os.environ, CACHE_ENV: str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60)
            for _ in range(2)]
    assert [r.stdout.split() for r in runs] == [["g", "2", "True"], ["g", "2", "False"]], [r.stderr for r in runs]


def test_a_refusal_is_never_kept_and_a_kept_config_never_hides_one(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    parse_config(FULL)
    with pytest.raises(config.InvalidConfigError):
        parse_config({**FULL, "max_nights": 0})
    assert len(_kept(tmp_path)) == 1


@pytest.mark.parametrize("garbage", ["{", "[]", '{"name": "g"}', '{"name": "g", "seed": 1, "roster": [{"x": 1}]}',
                                     '{"name": "g", "seed": 1, "roster": [], "schedule": {"start": "soon"}}'])
def test_a_broken_kept_file_is_validated_again(garbage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    good = parse_config(FULL)
    (kept,) = _kept(tmp_path)
    kept.write_text(garbage, "utf-8")
    assert parse_config(FULL) == good
    assert json.loads(kept.read_text("utf-8"))["name"] == "g"


def test_other_data_or_other_code_is_another_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    names = {config._kept_file(FULL)}
    names.add(config._kept_file({**FULL, "seed": 4}))
    names.add(config._kept_file({**FULL, "schedule": {**FULL["schedule"], "start": "2026-05-01"}}))  # a string
    monkeypatch.setattr(sheetgm, "__version__", "9.9.9")
    names.add(config._kept_file(FULL))
    assert len(names) == 4 and None not in names


def test_a_folder_that_cannot_hold_the_cache_costs_only_validation(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "file").write_text("", "utf-8")
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "file"))
    assert parse_config(FULL).name == "g" and parse_config(FULL).seed == 3


def test_old_kept_configs_go_when_another_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    parse_config(FULL)
    (old,) = _kept(tmp_path)
    stale = time.time() - (config.KEEP_DAYS + 1) * 86400
    os.utime(old, (stale, stale))
    parse_config({**FULL, "seed": 5})
    assert old not in _kept(tmp_path) and len(_kept(tmp_path)) == 1


def test_the_hash_covers_every_module_that_decides_what_validation_accepts() -> None:
    """A rule changed in a module the models or rules import makes every kept config stale; the texts and the
    error base only word refusals, and refusals are never kept."""
    words_only = {"core/texts.py", "core/errors.py"}
    root = Path(config.__file__).parents[2]
    needed: set[str] = set()
    for module in ("service/config/model.py", "service/config/rules.py", "service/config/load.py"):
        for node in ast.walk(ast.parse((root / module).read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("sheetgm."):
                path = node.module.removeprefix("sheetgm.").replace(".", "/") + ".py"
                if (root / path).exists():
                    needed.add(path)
    plumbing = {"core/cachedir.py", "core/digests.py", "service/config/file.py", "service/errors.py"}  # the cache's
    assert needed - words_only - plumbing <= set(
        config._CODE), needed
    assert {"service/config/load.py", "service/config/model.py", "service/config/rules.py"} <= set(config._CODE)
    assert all((root / name).is_file() for name in config._CODE)


@pytest.mark.parametrize(("record", "model"), [("GameConfig", "GameModel"), ("SeatConfig", "SeatModel"),
                                               ("ScheduleConfig", "ScheduleModel")])
def test_the_records_have_the_models_fields_in_the_models_order(record: str, model: str) -> None:
    """game.toml is saved in the records' field order, and a kept config is read back into them."""
    from dataclasses import fields

    from sheetgm.service.config import model as config_model

    assert [f.name for f in fields(getattr(config, record))] == list(getattr(config_model, model).model_fields)
