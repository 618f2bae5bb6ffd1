"""The case book: every case under tests/casebook is one test, plus the runner's own tests
(against a tiny fake engine, so they do not depend on the real one)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sheetgm.casebook import Engine, load_file, load_paths, run_case
from sheetgm.casebook import runner as runner_mod
from sheetgm.casebook.index import rewrite_index
from sheetgm.cli.app import app
from sheetgm.core.board import Board, parse_tile, tile_name
from sheetgm.core.errors import CaseError, MapError, OrderSyntaxError
from sheetgm.core.events import Event
from sheetgm.core.steps import Move, Order

BOOK = Path(__file__).parent / "casebook"


# -- the case book itself -------------------------------------------------------------------------------------------
def _book_params() -> list[Any]:
    params = []
    for f in sorted(BOOK.glob("*.toml")):
        try:
            cases = load_file(f)
        except CaseError as exc:
            params.append(pytest.param(f, exc, id=f"{f.name}::LOAD"))
            continue
        params += [pytest.param(f, c, id=c.test_id) for c in cases]
    return params


@pytest.mark.parametrize(("path", "case"), _book_params())
def test_case(path: Path, case: Any) -> None:
    if isinstance(case, CaseError):
        pytest.fail(case.message("en"))
    result = run_case(case)
    if not result.passed:
        pytest.fail(f"{case.test_id}: {case.title}\nrule: {case.rule}\n" + "\n".join(result.reasons)
                    + ("\n" + result.detail if result.detail else ""), pytrace=False)


def test_case_ids_are_unique_across_the_book() -> None:
    cases = load_paths([BOOK])
    assert len({c.id for c in cases}) == len(cases)


# -- a tiny fake engine ---------------------------------------------------------------------------------------------
@dataclass
class Problem:
    code: str
    step: int
    params: dict[str, Any] = field(default_factory=dict)


def fake_load_map(text: str) -> Board:
    if "?" in text:
        raise MapError("err.map.unknown_glyph", line=1, col=text.index("?") + 1, glyph="?")
    w, h = (int(x) for x in text.strip().split("x"))
    return Board(name="fake", width=w, height=h, chests=frozenset({(0, 0)}), chest_items=(((0, 0), "map"),))


def fake_parse_order(text: str) -> Order:
    steps = []
    for word in text.split(";"):
        word = word.strip()
        if not word:
            continue
        verb, _, arg = word.partition(" ")
        tile = parse_tile(arg)
        if verb != "move" or tile is None:
            raise OrderSyntaxError("err.order.syntax", text=word)
        steps.append(Move(tile))
    return Order(tuple(steps))


def _resolve(stage: str, nxt: str):  # noqa: ANN202 - a fake
    def resolve(state: Any, orders: dict[int, Order], seed: int, priority: Any = None) -> tuple[Any, list[Event]]:
        events = []
        for seat, order in sorted(orders.items()):
            for step in order.steps:
                state.players[seat].pos = step.to
                state.noise.append(step.to)
                events.append(Event("move", state.night, stage, {"to": step.to}, actor=seat, to=(seat,)))
        state.stage = nxt
        if nxt == "survivor":
            state.night += 1
        return state, events

    return resolve


def fake_engine() -> Engine:
    return Engine(
        load_map=fake_load_map,
        ready_map=lambda name: fake_load_map("3x3"),
        parse_order=fake_parse_order,
        resolve_survivor_stage=_resolve("survivor", "hunter"),
        resolve_hunter_stage=_resolve("hunter", "survivor"),
        report=lambda state, events, seat, lang: f"{state.players[seat].alias} @ {tile_name(state.players[seat].pos)}",
        public_log=lambda events, lang: f"{len(events)} events",
        director_log=lambda events, lang: "; ".join(e.kind for e in events),
        check_order=lambda state, seat, order, others=None: [
            Problem("err.order.far", i) for i, s in enumerate(order.steps)
            if abs(s.to[0] - state.players[seat].pos[0]) > 1
        ],
        give_card=lambda state, seat, colour, reason: (state, []),
        apply_override=lambda state, target, fld, value, reason: (state, []),
    )


GOOD = '''
section = "R-TEST"
[[case]]
id = "T-01"
title = "a move"
covers = ["R-MAP-1"]
rule = "移动"
map_text = "3x3"
[case.setup]
players = [{alias = "A", camp = "survivor", at = "A1"}, {alias = "H", camp = "hunter", at = "C3"}]
[[case.night]]
survivor = {A = "move B1"}
hunter = {H = "move C2"}
[case.expect]
players.A = {at = "B1", hp = 5}
players.H = {at = "C2"}
noise = ["B1", "C2"]
chests = {A1 = "map"}
events = ["move", {kind = "move", actor = "A", params = {to = "B1"}, to = ["A"]}, {kind = "move", count = 2}]
no_events = ["attack"]
reports.H = ["H @ C2"]
not_reports.H = ["B1"]
director_log = ["move; move"]
problems.H = []
night = 2
'''


def _write(tmp_path: Path, text: str, name: str = "01_test.toml") -> Path:
    p = tmp_path / name
    p.write_text(text, "utf-8")
    return p


def test_runner_passes_a_matching_case(tmp_path: Path) -> None:
    (case,) = load_file(_write(tmp_path, GOOD))
    result = run_case(case, fake_engine())
    assert result.passed, result.reasons
    assert result.line() == "PASS T-01 a move"


def test_runner_lists_every_mismatch(tmp_path: Path) -> None:
    text = GOOD.replace('at = "B1", hp = 5', 'at = "C1", hp = 4').replace('noise = ["B1", "C2"]', 'noise = ["B1"]')
    text = text.replace('reports.H = ["H @ C2"]', 'reports.H = ["H @ A1"]').replace('no_events = ["attack"]',
                                                                                   'no_events = ["move"]')
    (case,) = load_file(_write(tmp_path, text))
    result = run_case(case, fake_engine())
    assert not result.passed
    joined = "\n".join(result.reasons)
    assert "expect.players.A.at: expected 'C1', got 'B1'" in joined
    assert "expect.players.A.hp: expected 4, got 5" in joined
    assert "expect.noise: expected ['B1'], got ['B1', 'C2']" in joined
    assert "expect.reports.H: missing 'H @ A1' in:\n    | H @ C2" in joined
    assert "expect.no_events[0]: event 'move' occurred" in joined
    assert result.line().startswith("FAIL T-01 a move\n    expect.players.A.at")


def test_runner_checks_per_night_and_after_survivor_expectations(tmp_path: Path) -> None:
    text = GOOD.replace("[case.expect]", "[case.night.after_survivor]\nplayers.H = {at = \"C3\"}\nstage = \"hunter\"\n"
                        "[case.expect]")
    (case,) = load_file(_write(tmp_path, text))
    assert run_case(case, fake_engine()).passed
    bad = text.replace('players.H = {at = "C3"}', 'players.H = {at = "C2"}')
    (case,) = load_file(_write(tmp_path, bad))
    result = run_case(case, fake_engine())
    assert result.reasons == ("night[0].after_survivor.players.H.at: expected 'C2', got 'C3'",)


def test_survivor_stage_only_stops_before_the_hunter_stage(tmp_path: Path) -> None:
    text = GOOD.replace('hunter = {H = "move C2"}\n', "stop_after_survivor = true\n")
    text = text[: text.index("[case.expect]")] + '[case.expect]\nstage = "hunter"\nplayers.H = {at = "C3"}\n'
    (case,) = load_file(_write(tmp_path, text))
    assert run_case(case, fake_engine()).passed


def test_a_night_without_hunter_orders_still_ends(tmp_path: Path) -> None:
    """Leaving out the hunter orders runs the hunter stage with none (the end of the night) unless the
    night says it stops after the survivor stage."""
    text = GOOD.replace('hunter = {H = "move C2"}\n', "")
    text = text[: text.index("[case.expect]")] + '[case.expect]\nstage = "survivor"\nnight = 2\n'
    (case,) = load_file(_write(tmp_path, text))
    assert run_case(case, fake_engine()).passed, run_case(case, fake_engine()).reasons
    both = GOOD.replace('hunter = {H = "move C2"}\n', 'hunter = {H = "move C2"}\nstop_after_survivor = true\n')
    with pytest.raises(CaseError) as info:
        load_file(_write(tmp_path, both))
    assert info.value.code == "err.case.conflict" and info.value.params["key"] == "night[0].stop_after_survivor"


def test_problems_are_exact(tmp_path: Path) -> None:
    """An expected list of problems is the whole list: a problem the case does not name fails it."""
    text = GOOD.replace('survivor = {A = "move B1"}', 'survivor = {A = "move C1; move C3"}')
    text = text[: text.index("[case.expect]")] + '[case.expect]\nproblems.A = ["err.order.far"]\n'
    result = run_case(load_file(_write(tmp_path, text))[0], fake_engine())
    assert result.reasons == ("expect.problems.A: unexpected problem err.order.far@1 "
                              "(got err.order.far@0, err.order.far@1)",)
    both = text.replace('problems.A = ["err.order.far"]', 'problems.A = ["err.order.far", "err.order.far"]')
    assert run_case(load_file(_write(tmp_path, both))[0], fake_engine()).passed


def test_no_events_by_kind_and_actor(tmp_path: Path) -> None:
    text = GOOD.replace('no_events = ["attack"]', 'no_events = [{kind = "move", actor = "Q"}]')
    text = text.replace('players = [{alias = "A"', 'players = [{alias = "Q", camp = "survivor", at = "C1"}, '
                        '{alias = "A"')
    assert run_case(load_file(_write(tmp_path, text))[0], fake_engine()).passed
    bad = text.replace('actor = "Q"', 'actor = "A"')
    reasons = run_case(load_file(_write(tmp_path, bad))[0], fake_engine()).reasons
    assert reasons[0].startswith("expect.no_events[0]: event {'kind': 'move', 'actor': 'A'} occurred: move(")


def test_points_left_and_the_robot_by_name(tmp_path: Path) -> None:
    """``mp``/``ap`` read the engine's ``points_left`` event; the robot is "<alias>#robot" in events."""

    def resolve(state: Any, orders: dict[int, Order], seed: int, priority: Any = None) -> tuple[Any, list[Event]]:
        state.stage = "hunter"
        return state, [Event("points_left", 1, "survivor", {"mp": 2, "ap": 1}, actor=1),
                       Event("points_left", 1, "survivor", {"mp": 0, "ap": 0}, actor=101)]

    text = GOOD.replace('hunter = {H = "move C2"}\n', "stop_after_survivor = true\n")
    text = text[: text.index("[case.expect]")] + (
        '[case.expect]\nplayers.A = {mp = 2, ap = 1}\n'
        'events = [{kind = "points_left", actor = "A#robot", params = {mp = 0}}]\n')
    engine = replace(fake_engine(), resolve_survivor_stage=resolve)
    result = run_case(load_file(_write(tmp_path, text))[0], engine)
    assert result.passed, result.reasons
    wrong = text.replace("mp = 2, ap = 1", "mp = 3, ap = 1")
    assert run_case(load_file(_write(tmp_path, wrong))[0], engine).reasons == (
        "expect.players.A.mp: expected 3 left, got 2",)


def test_problems_are_checked_against_the_state_before_the_stage(tmp_path: Path) -> None:
    text = GOOD.replace('survivor = {A = "move B1"}', 'survivor = {A = "move C1"}')
    text = text[: text.index("[case.expect]")] + '[case.expect]\nproblems.A = ["err.order.far"]\nproblems.H = []\n'
    (case,) = load_file(_write(tmp_path, text))
    assert run_case(case, fake_engine()).passed
    wrong = text.replace('problems.A = ["err.order.far"]', 'problems.A = [{code = "err.order.far", step = 1}]')
    (case,) = load_file(_write(tmp_path, wrong))
    assert "no problem like" in run_case(case, fake_engine()).reasons[0]


def test_expected_error_from_the_map_or_an_order(tmp_path: Path) -> None:
    base = GOOD[: GOOD.index("[case.expect]")]
    text = base.replace('map_text = "3x3"', 'map_text = "3x?"') + (
        'error = "err.map.unknown_glyph"\nerror_params = {line = 1, col = 3}\n')
    # keys after a table header belong to that table: put error before [case.setup]
    text = text.replace('map_text = "3x?"\n', 'map_text = "3x?"\nerror = "err.map.unknown_glyph"\n'
                        'error_params = {line = 1, col = 3}\n', 1)
    text = text[: text.rindex("error = ")]
    (case,) = load_file(_write(tmp_path, text))
    assert run_case(case, fake_engine()).passed
    (case,) = load_file(_write(tmp_path, text.replace("col = 3", "col = 2")))
    assert "params col differ" in run_case(case, fake_engine()).reasons[0]
    order = base.replace('map_text = "3x3"\n', 'map_text = "3x3"\nerror = "err.order.syntax"\n').replace(
        '"move B1"', '"fly B1"')
    (case,) = load_file(_write(tmp_path, order))
    assert run_case(case, fake_engine()).passed
    unexpected = GOOD.replace('"move B1"', '"fly B1"')
    (case,) = load_file(_write(tmp_path, unexpected))
    assert run_case(case, fake_engine()).reasons[0].startswith("unexpected error err.order.syntax")


def test_engine_crash_is_a_failure_with_traceback(tmp_path: Path) -> None:
    (case,) = load_file(_write(tmp_path, GOOD))

    def boom(*args: Any) -> Any:
        raise ZeroDivisionError("boom")

    result = run_case(case, replace(fake_engine(), resolve_hunter_stage=boom))
    assert not result.passed and result.reasons == ("crash: ZeroDivisionError: boom",)
    assert "Traceback" in result.detail


@pytest.mark.parametrize(
    ("edit", "key"),
    [
        (('players.A = {at = "B1", hp = 5}', 'players.A = {at = "B1", hpp = 5}'), "expect.players.A.hpp"),
        (('covers = ["R-MAP-1"]', 'covers = ["R-MAP-1"]\ncovres = []'), "covres"),
        (('survivor = {A = "move B1"}', 'survivors = {A = "move B1"}'), "night[0].survivors"),
        (('events = ["move", ', 'events = [{kind = "move", parms = {}}, '), "expect.events[0].parms"),
    ],
)
def test_unknown_keys_fail_loudly_with_file_case_and_key(tmp_path: Path, edit: tuple[str, str], key: str) -> None:
    path = _write(tmp_path, GOOD.replace(*edit))
    with pytest.raises(CaseError) as info:
        load_file(path)
    assert info.value.code == "err.case.unknown_key"
    assert info.value.params["key"] == key
    assert info.value.message("en") == f"01_test.toml, case T-01: unknown key '{key}'"


def test_type_errors_and_missing_keys_are_reported(tmp_path: Path) -> None:
    with pytest.raises(CaseError) as info:
        load_file(_write(tmp_path, GOOD.replace('players.A = {at = "B1", hp = 5}', 'players.A = {hp = "5"}')))
    assert info.value.code == "err.case.bad_type" and info.value.params["key"] == "expect.players.A.hp"
    with pytest.raises(CaseError) as info:
        load_file(_write(tmp_path, GOOD.replace('rule = "移动"\n', "")))
    assert info.value.code == "err.case.missing_key" and info.value.params["key"] == "rule"


def test_setup_names_are_checked(tmp_path: Path) -> None:
    (case,) = load_file(_write(tmp_path, GOOD.replace('at = "C3"}', 'at = "Z9"}')))
    result = run_case(case, fake_engine())
    assert not result.passed and "setup.players[1].at" in result.reasons[0] and "Z9" in result.reasons[0]
    (case,) = load_file(_write(tmp_path, GOOD.replace('hunter = {H = "move C2"}', 'hunter = {Q = "move C2"}')))
    assert "night[0].hunter.Q" in run_case(case, fake_engine()).reasons[0]


def test_cli_case_run_prints_lines_and_summary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner_mod, "default_engine", fake_engine)
    _write(tmp_path, GOOD)
    _write(tmp_path, GOOD.replace("T-01", "T-02").replace("hp = 5", "hp = 3"), "02_test.toml")
    result = CliRunner().invoke(app, ["case", "run", str(tmp_path)])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "PASS T-01 a move"
    assert lines[1] == "FAIL T-02 a move"
    assert lines[-1] == "1 passed, 1 failed"
    ok = CliRunner().invoke(app, ["case", "run", str(tmp_path / "01_test.toml")])
    assert ok.exit_code == 0 and ok.stdout.splitlines()[-1] == "1 passed, 0 failed"


def test_cli_case_run_reports_a_bad_file_on_stderr(tmp_path: Path) -> None:
    _write(tmp_path, GOOD.replace("title = \"a move\"", "titel = \"a move\""))
    result = CliRunner().invoke(app, ["case", "run", str(tmp_path)], env={"SHEETGM_LANG": "en"})
    assert result.exit_code == 1
    assert "01_test.toml, case T-01: unknown key 'titel'" in result.stderr
    zh = CliRunner().invoke(app, ["case", "run", str(tmp_path)], env={"SHEETGM_LANG": ""})  # the default: zh
    assert "01_test.toml，案例 T-01：未知的键“titel”" in zh.stderr


def test_index_rewrites_cases_lines(tmp_path: Path) -> None:
    (case,) = load_file(_write(tmp_path, GOOD))
    doc = "# Rules\n\n- **R-MAP-1** Grid.\n  More text.\n  Cases: stale\n- **R-MAP-2** Edges.\n\n## Next\n"
    new = rewrite_index(doc, [case])
    assert new == ("# Rules\n\n- **R-MAP-1** Grid.\n  More text.\n  Cases: T-01\n- **R-MAP-2** Edges.\n"
                   "  Cases: none\n\n## Next\n")
    assert rewrite_index(new, [case]) == new


ROLLBACK = '''
section = "R-TEST"
[[case]]
id = "T-09"
title = "a stage resolved again after a rollback"
covers = ["R-DIR-2"]
rule = "回滚"
map_text = "3x3"
[case.setup]
players = [{alias = "A", camp = "survivor", at = "A1"}, {alias = "H", camp = "hunter", at = "C3"}]
[[case.night]]
survivor = {A = "move B1"}
stop_after_survivor = true
after_survivor = {players = {A = {at = "B1"}}, noise = ["B1"]}
[[case.night]]
rollback = true
survivor = {A = "move A2"}
stop_after_survivor = true
expect = {players = {A = {at = "A2"}}, noise = ["A2"], stage = "hunter"}
[case.expect]
events = [{kind = "move", count = 1, params = {to = "A2"}}, {kind = "move", count = 1}]
'''


def test_rollback_restores_the_state_before_the_last_stage(tmp_path: Path) -> None:
    (case,) = load_file(_write(tmp_path, ROLLBACK))
    assert case.nights[1].rollback and not case.nights[0].rollback
    result = run_case(case, fake_engine())
    assert result.passed, result.reasons
    # Without the rollback the second survivor stage is not due: the case stops, naming the night.
    (case,) = load_file(_write(tmp_path, ROLLBACK.replace("rollback = true\n", "")))
    reasons = run_case(case, fake_engine()).reasons
    assert reasons == ("night[1]: survivor orders given but the state is at stage 'hunter'",)
    # A rollback with no stage before it is a case error, not a silent no-op.
    first = ROLLBACK.replace('[[case.night]]\nsurvivor = {A = "move B1"}\n', '[[case.night]]\nrollback = true\n'
                             'survivor = {A = "move B1"}\n', 1)
    assert first != ROLLBACK
    (case,) = load_file(_write(tmp_path, first))
    assert run_case(case, fake_engine()).reasons[0] == "night[0].rollback: no stage has run yet"
