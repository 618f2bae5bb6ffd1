"""The GitHub workflows: valid against GitHub's schema (offline), safe with secrets, and in step with the CLI."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import typer
from ruamel.yaml import YAML

from sheetgm.service.timing.schedule import render_schedule_block

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW_DIR = ROOT / ".github" / "workflows"
WORKFLOWS = sorted([*WORKFLOW_DIR.glob("*.yml"), *WORKFLOW_DIR.glob("*.yaml")])
SECRET = "SHEETGM_SERVICE_ACCOUNT_B64"
# The example deadlines resolve.yml's schedule was generated for (docs/schedule.md says the same).
EXAMPLE_DEADLINES = {"survivor": "21:00", "hunter": "23:00"}
EXAMPLE_ZONE, EXAMPLE_DAY = "Asia/Shanghai", date(2024, 5, 1)


def load(path: Path) -> dict[str, Any]:
    data = YAML(typ="safe").load(path.read_text("utf-8"))  # YAML 1.2: the key `on` stays a string
    assert isinstance(data, dict), f"{path.name} is not a YAML mapping"
    return data


def steps(workflow: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for job in workflow["jobs"].values() for s in job.get("steps", [])]


def job_steps(workflow: dict[str, Any], job: str = "resolve") -> list[dict[str, Any]]:
    return list(workflow["jobs"][job].get("steps", []))


def validate(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows",
                           str(path)], capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def resolve_wf() -> dict[str, Any]:
    return load(WORKFLOW_DIR / "resolve.yml")


@pytest.fixture(scope="module")
def ci_wf() -> dict[str, Any]:
    return load(WORKFLOW_DIR / "ci.yml")


def test_both_workflows_exist() -> None:
    assert {p.name for p in WORKFLOWS} >= {"ci.yml", "resolve.yml"}


# --- schema

@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_workflow_passes_githubs_workflow_schema(path: Path) -> None:
    result = validate(path)
    assert result.returncode == 0, f"{path.name}:\n{result.stdout}\n{result.stderr}"


def test_the_schema_check_rejects_a_broken_workflow(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yml"
    bad.write_text("on:\n  workflow_dispatch:\n    inputs:\n      stage:\n        type: choise\n"
                   "jobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n      - run: true\n", "utf-8")
    assert validate(bad).returncode != 0


def test_the_utc_and_the_dated_forms_of_the_schedule_are_valid_too(tmp_path: Path) -> None:
    from datetime import datetime
    from zoneinfo import ZoneInfo

    text = (WORKFLOW_DIR / "resolve.yml").read_text("utf-8")
    keyed = render_schedule_block(EXAMPLE_DEADLINES, EXAMPLE_ZONE, on=EXAMPLE_DAY, use_timezone_key=True,
                                  check_hours=3)
    assert load(WORKFLOW_DIR / "resolve.yml")["on"]["schedule"][0] == {"cron": "7 21 * * *", "timezone": EXAMPLE_ZONE}
    one_off = {"N3-survivor": datetime(2024, 5, 4, 22, 30, tzinfo=ZoneInfo(EXAMPLE_ZONE))}
    for other in (render_schedule_block(EXAMPLE_DEADLINES, EXAMPLE_ZONE, on=EXAMPLE_DAY, check_hours=3),
                  render_schedule_block(EXAMPLE_DEADLINES, EXAMPLE_ZONE, on=EXAMPLE_DAY, check_hours=3,
                                        use_timezone_key=True, dated=one_off)):
        variant = tmp_path / "resolve.yml"
        variant.write_text(text.replace(keyed, other), "utf-8")
        result = validate(variant)
        assert result.returncode == 0, result.stdout + result.stderr
    assert {"cron": "37 22 4 5 *", "timezone": EXAMPLE_ZONE} in load(variant)["on"]["schedule"]


# --- ci.yml

def readme_test_command() -> list[str]:
    lines = [ln.strip() for ln in (ROOT / "README.md").read_text("utf-8").splitlines() if "python -m pytest" in ln]
    assert lines, "README.md no longer shows the test command"
    parts = [p.strip() for p in lines[0].split("&&")]
    return [p for p in parts if not p.startswith(("python3 -m venv", ". .venv/"))]


def test_ci_runs_the_readmes_test_command_on_push_and_pull_request(ci_wf: dict[str, Any]) -> None:
    assert set(ci_wf["on"]) == {"push", "pull_request"}
    job = ci_wf["jobs"]["test"]
    assert job["runs-on"] == "ubuntu-latest"
    assert job["strategy"]["matrix"]["python-version"] == ["3.11", "3.12"]
    setup = next(s for s in job["steps"] if str(s.get("uses", "")).startswith("actions/setup-python@"))
    assert setup["with"]["python-version"] == "${{ matrix.python-version }}"
    runs = [[p.strip() for p in s["run"].split("&&")] for s in job["steps"] if "run" in s]
    assert readme_test_command() in runs


# --- resolve.yml

def test_runs_of_one_game_never_overlap_and_are_never_cancelled(resolve_wf: dict[str, Any]) -> None:
    assert "concurrency" not in resolve_wf, "a workflow-wide group is keyed before the folder is normalised"
    job = resolve_wf["jobs"]["resolve"]
    assert job["needs"] == "game"
    conc = job["concurrency"]
    assert conc["cancel-in-progress"] is False
    assert conc["group"] == "sheetgm-${{ needs.game.outputs.folder }}"
    assert resolve_wf["jobs"]["game"]["outputs"]["folder"] == "${{ steps.folder.outputs.folder }}"
    assert resolve_wf["jobs"]["game"]["env"]["GAME"] == "${{ inputs.game || 'games/current' }}"
    assert job["env"]["GAME"] == "${{ needs.game.outputs.folder }}", "the job runs on the folder its group names"


def normalise(wf: dict[str, Any], game: str, tmp_path: Path) -> tuple[int, str]:
    """Run the game job's script as GitHub would: its exit status and the folder it outputs."""
    step = next(s for s in job_steps(wf, "game") if s.get("id") == "folder")
    assert step["shell"] == "bash"
    out = tmp_path / "github_output"
    out.write_text("", "utf-8")
    work = tmp_path / "workspace"
    work.mkdir(exist_ok=True)
    proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], cwd=work,
                          env={**os.environ, "GAME": game, "GITHUB_OUTPUT": str(out)}, capture_output=True,
                          text=True, timeout=30)
    lines = [ln.split("=", 1)[1] for ln in out.read_text("utf-8").splitlines() if ln.startswith("folder=")]
    return proc.returncode, lines[-1] if lines else ""


@pytest.mark.parametrize("spelling", ["games/current", "./games/current", "games/current/", "games//current",
                                      "./games/./current/", "games/old/../current", "games/current/."])
def test_every_spelling_of_a_game_folder_is_one_concurrency_group(resolve_wf: dict[str, Any], spelling: str,
                                                                   tmp_path: Path) -> None:
    assert normalise(resolve_wf, spelling, tmp_path) == (0, "games/current")


@pytest.mark.parametrize("spelling", ["..", "../other", "games/../..", "/etc", ".", ""])
def test_a_folder_outside_the_repository_is_refused(resolve_wf: dict[str, Any], spelling: str,
                                                    tmp_path: Path) -> None:
    rc, folder = normalise(resolve_wf, spelling, tmp_path)
    assert rc != 0 and folder == ""


def test_other_games_stay_other_groups(resolve_wf: dict[str, Any], tmp_path: Path) -> None:
    assert normalise(resolve_wf, "games/other", tmp_path) == (0, "games/other")
    assert normalise(resolve_wf, "games/current two", tmp_path) == (0, "games/current two")


def test_dispatch_inputs(resolve_wf: dict[str, Any]) -> None:
    inputs = resolve_wf["on"]["workflow_dispatch"]["inputs"]
    assert set(inputs) == {"stage", "dry_run", "game"}
    assert inputs["stage"]["type"] == "choice"
    assert inputs["stage"]["options"] == ["auto", "survivor", "hunter"] and inputs["stage"]["default"] == "auto"
    assert inputs["dry_run"]["type"] == "boolean" and inputs["dry_run"]["default"] is False
    assert inputs["game"]["type"] == "string" and inputs["game"]["default"] == "games/current"
    env = resolve_wf["jobs"]["resolve"]["env"]
    assert env["GAME"] == "${{ needs.game.outputs.folder }}"
    assert env["STAGE"] == "${{ inputs.stage || 'auto' }}"


def test_inputs_reach_scripts_only_through_env(resolve_wf: dict[str, Any]) -> None:
    # `${{ inputs.x }}` inside `run:` is pasted into the script before bash sees it (script injection)
    for step in steps(resolve_wf):
        assert "${{" not in step.get("run", ""), f"step {step.get('name')!r} expands an expression inside run:"


def cron_minutes(cron: str) -> list[str]:
    fields = cron.split()
    assert len(fields) == 5, f"cron {cron!r} needs 5 fields"
    return fields[0].split(",")


def test_cron_entries_are_off_the_top_of_the_hour(resolve_wf: dict[str, Any]) -> None:
    schedule = resolve_wf["on"]["schedule"]
    assert schedule, "resolve.yml has no schedule"
    for entry in schedule:
        for minute in cron_minutes(entry["cron"]):
            assert minute.isdigit() and 1 <= int(minute) <= 59, f"cron {entry['cron']!r} can run at minute 0"


def test_cron_minute_check_catches_minute_zero() -> None:
    bad = ["0 13 * * *", "*/15 13 * * *", "* 13 * * *", "7,0 13 * * *"]
    assert all(not all(m.isdigit() and 1 <= int(m) <= 59 for m in cron_minutes(c)) for c in bad)


def test_schedule_is_what_sheetgm_schedule_prints_for_the_documented_example() -> None:
    """The timezone key form, `sheetgm schedule`'s default (issue 16: a UTC cron runs an hour off after a clock
    change, and the checks move with it)."""
    block = render_schedule_block(EXAMPLE_DEADLINES, EXAMPLE_ZONE, on=EXAMPLE_DAY, check_hours=3,
                                  use_timezone_key=True)
    assert block in (WORKFLOW_DIR / "resolve.yml").read_text("utf-8")
    assert block in (ROOT / "docs" / "schedule.md").read_text("utf-8"), "docs/schedule.md shows another block"


def test_steps_check_then_resolve_then_upload_always(resolve_wf: dict[str, Any]) -> None:
    all_steps = job_steps(resolve_wf)
    uses = [str(s.get("uses", "")).split("@")[0] for s in all_steps]
    assert uses[:2] == ["actions/checkout", "actions/setup-python"]
    runs = [s.get("run", "") for s in all_steps]
    order = [next(i for i, r in enumerate(runs) if pattern in r)
             for pattern in ("pip install -e .", "sheetgm check --game \"$GAME\"", "sheetgm resolve")]
    assert order == sorted(order)
    upload = all_steps[-1]
    assert upload["uses"].startswith("actions/upload-artifact@") and upload["if"] == "always()"
    paths = [p.strip() for p in upload["with"]["path"].splitlines() if p.strip()]
    assert "${{ env.GAME }}/logs/" in paths and "${{ env.GAME }}/maps/" in paths  # the stage maps to upload
    assert all(p.startswith("${{ env.GAME }}/") for p in paths), "upload only the game's own folders"
    # the logs uploaded are the ones check and resolve write
    assert all('tee "$GAME/logs/' in r for r in runs if "sheetgm check" in r or "sheetgm resolve" in r)


def test_resolve_options_follow_the_inputs(resolve_wf: dict[str, Any]) -> None:
    all_steps = steps(resolve_wf)
    script = next(s["run"] for s in all_steps if "sheetgm resolve" in s.get("run", ""))
    assert 'if [ "$DRY_RUN" = "true" ]; then args+=(--dry-run); fi' in script
    # `sheetgm resolve --stage survivor|hunter` resolves the due stage only if it is that camp's
    assert 'if [ "$STAGE" != "auto" ]; then args+=(--stage "$STAGE"); fi' in script
    assert resolve_wf["jobs"]["resolve"]["env"]["DRY_RUN"] == "${{ inputs.dry_run && 'true' || 'false' }}"


def test_piped_commands_keep_their_exit_status(resolve_wf: dict[str, Any]) -> None:
    # only an explicit `shell: bash` runs with -o pipefail, so `sheetgm ... | tee` fails when sheetgm fails
    for step in steps(resolve_wf):
        if "|" in step.get("run", ""):
            assert step.get("shell") == "bash", f"step {step.get('name')!r} pipes without pipefail"


# --- secrets

SECRET_EXPR = re.compile(r"\$\{\{\s*secrets\.")


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_no_step_echoes_or_spreads_a_secret(path: Path) -> None:
    wf = load(path)
    assert not SECRET_EXPR.search(str(wf.get("env", ""))), "secrets belong to the steps that need them"
    for job in wf["jobs"].values():
        assert not SECRET_EXPR.search(str(job.get("env", ""))), "secrets belong to the steps that need them"
        for step in job.get("steps", []):
            run = step.get("run", "")
            name = step.get("name", step.get("uses"))
            assert "secrets." not in run and SECRET not in run, f"step {name!r} reads the secret in its script"
            assert not re.search(r"\bset\s+-[a-z]*x", run), f"step {name!r} traces commands (set -x)"
            assert not re.search(r"^\s*(env|printenv)\b", run, re.M), f"step {name!r} prints the environment"
            assert not SECRET_EXPR.search(str(step.get("with", ""))), f"step {name!r} hands a secret to an action"
            for key, value in (step.get("env") or {}).items():
                if SECRET_EXPR.search(str(value)):
                    assert key == SECRET and value == f"${{{{ secrets.{SECRET} }}}}"
                    assert "sheetgm " in run, f"step {name!r} gets the secret without running sheetgm"


def test_the_secret_reaches_check_and_resolve_only(resolve_wf: dict[str, Any]) -> None:
    with_secret = [SHEETGM_CALL.findall(s["run"]) for s in steps(resolve_wf) if SECRET in (s.get("env") or {})]
    assert with_secret == [["check"], ["resolve"]]


def test_workload_identity_federation_is_off_unless_configured(resolve_wf: dict[str, Any]) -> None:
    auth = [s for s in steps(resolve_wf) if str(s.get("uses", "")).startswith("google-github-actions/auth@")]
    assert len(auth) == 1
    assert auth[0]["if"] == "vars.SHEETGM_WIF_PROVIDER != ''"
    assert set(auth[0]["with"]) == {"workload_identity_provider", "service_account"}
    assert resolve_wf["permissions"] == {"contents": "read", "id-token": "write"}


def test_checkout_does_not_keep_the_token(resolve_wf: dict[str, Any], ci_wf: dict[str, Any]) -> None:
    for wf in (resolve_wf, ci_wf):
        checkout = next(s for s in steps(wf) if str(s.get("uses", "")).startswith("actions/checkout@"))
        assert checkout["with"]["persist-credentials"] is False


# --- the CLI the workflow runs

SHEETGM_CALL = re.compile(r"\bsheetgm\s+([a-z][a-z-]*)")
OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z-]*)")


def workflow_calls(wf: dict[str, Any]) -> dict[str, set[str]]:
    """sheetgm command -> the options the workflow passes it (one sheetgm command per step)."""
    calls: dict[str, set[str]] = {}
    for step in steps(wf):
        run = step.get("run", "")
        names = SHEETGM_CALL.findall(run)
        if not names:
            continue
        assert len(set(names)) == 1, f"step {step.get('name')!r} runs several sheetgm commands: {names}"
        opts = {o for ln in run.splitlines() if "sheetgm " in ln or "args" in ln for o in OPTION.findall(ln)}
        calls.setdefault(names[0], set()).update(opts)
    return calls


def test_the_workflow_runs_check_and_resolve_with_these_options(resolve_wf: dict[str, Any]) -> None:
    assert workflow_calls(resolve_wf) == {"check": {"--game"}, "resolve": {"--game", "--dry-run", "--stage"}}


def cli_commands() -> dict[str, Any]:
    """The commands of the Typer app by name (Typer >= 0.26 bundles its own click: no isinstance on click)."""
    from sheetgm.cli.app import app

    group = typer.main.get_command(app)
    assert hasattr(group, "commands"), "sheetgm.cli.app's app has no sub-commands"
    return dict(group.commands)


def test_the_cli_has_every_command_and_option_the_workflow_runs(resolve_wf: dict[str, Any]) -> None:
    commands = cli_commands()
    for name, options in sorted(workflow_calls(resolve_wf).items()):
        assert name in commands, (f"resolve.yml runs `sheetgm {name}` but sheetgm.cli.app has no such command "
                                  f"(it has: {', '.join(sorted(commands))})")
        params = {opt: p for p in commands[name].params for opt in p.opts}
        for option in sorted(options):
            assert option in params, (f"resolve.yml runs `sheetgm {name} {option}` but that command has no "
                                      f"{option} option (it has: {', '.join(sorted(params))})")
        if "--dry-run" in options:
            assert getattr(params["--dry-run"], "is_flag", False), "--dry-run must be a flag: the workflow gives none"


# --- the workflow's scripts, run by bash against a local game

GAME_CONFIG = {"name": "wf", "seed": 3, "lang": "en",  # nightly deadlines, long past: the runs resolve
               "schedule": {"survivors": "21:00", "hunters": "23:00", "start": "2024-01-01"},
               "roster": [{"alias": "alice", "camp": "survivor"}, {"alias": "bob", "camp": "survivor"},
                          {"alias": "carol", "camp": "hunter"}]}


@pytest.fixture(scope="module")
def made_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from sheetgm.service.config.load import parse_config
    from sheetgm.service.new_game import new_game

    folder = tmp_path_factory.mktemp("made") / "current"
    new_game(folder, parse_config(GAME_CONFIG))
    return folder


@pytest.fixture()
def repo(tmp_path: Path, made_game: Path) -> Path:
    """A checkout with the game at games/current, and `sheetgm` and `python` on PATH as after pip install."""
    shutil.copytree(made_game, tmp_path / "games" / "current")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "sheetgm"
    script = "from sheetgm.cli.main import main; main()"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -c "{script}" "$@"\n', "utf-8")
    shim.chmod(0o755)
    (bin_dir / "python").symlink_to(sys.executable)
    return tmp_path


TOKEN = re.compile(r"\s*(&&|\|\||==|!=|!|\(|\)|'[^']*'|[A-Za-z_][\w.-]*\(\)|[A-Za-z_][\w.-]*)")


def step_runs(condition: str | None, outcomes: dict[str, str], failed: bool) -> bool:
    """GitHub's `if:` for the expressions resolve.yml's steps use (none means `success()`): the status
    functions, `steps.<id>.outcome`, string literals, ==, !=, !, &&, || and brackets; anything else fails."""
    expr = (condition or "success()").strip()
    if expr.startswith("${{") and expr.endswith("}}"):
        expr = expr[3:-2].strip()
    calls = {"success()": not failed, "failure()": failed, "always()": True, "cancelled()": False}
    parts, pos = [], 0
    while pos < len(expr):
        match = TOKEN.match(expr, pos)
        assert match and match.group(1), f"the test cannot read {expr[pos:]!r} in {condition!r}"
        tok, pos = match.group(1), match.end()
        if tok in ("&&", "||", "!"):
            parts.append({"&&": " and ", "||": " or ", "!": " not "}[tok])
        elif tok in ("==", "!=", "(", ")") or tok.startswith("'"):
            parts.append(f" {tok} ")
        elif tok in calls:
            parts.append(f" {calls[tok]} ")
        else:
            name = re.fullmatch(r"steps\.([\w-]+)\.(outcome|conclusion)", tok)
            assert name, f"the test does not know {tok!r} in {condition!r}"
            parts.append(repr(outcomes.get(name.group(1), "skipped")))
    return bool(eval("".join(parts), {"__builtins__": {}}))  # noqa: S307 - built above from known tokens only


def test_the_condition_reader_reads_github_s_status_functions() -> None:
    assert step_runs(None, {}, failed=False) and not step_runs(None, {}, failed=True)
    assert step_runs("always()", {}, failed=True)
    assert not step_runs("${{ !cancelled() && success() }}", {}, failed=True)
    cond = "${{ !cancelled() && (success() || steps.check.outcome == 'failure') }}"
    assert step_runs(cond, {"check": "failure"}, failed=True)
    assert not step_runs(cond, {"check": "skipped"}, failed=True)
    with pytest.raises(AssertionError):
        step_runs("contains(github.ref, 'x')", {}, failed=False)


def run_job(wf: dict[str, Any], repo: Path, stage: str, dry_run: bool,
            failed_before: bool = False) -> tuple[list[tuple[str, int, str]], bool]:
    """Run the resolve job's steps that call sheetgm as GitHub would (`shell: bash` = bash -eo pipefail), in
    order, each under its `if:`; the others count as passed (``failed_before``: one of them failed). The steps
    run with what they said and returned, and whether the job failed."""
    env = {**os.environ, "PATH": f"{repo / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}", "GAME": "games/current",
           "STAGE": stage, "DRY_RUN": "true" if dry_run else "false"}
    done: list[tuple[str, int, str]] = []
    outcomes: dict[str, str] = {}
    failed = failed_before
    for step in job_steps(wf):
        script = step.get("run", "")
        if "sheetgm " not in script:
            continue
        if not step_runs(step.get("if"), outcomes, failed):
            outcomes[step.get("id", step["name"])] = "skipped"
            continue
        step_env = dict(env)
        for key, value in (step.get("env") or {}).items():
            assert key == SECRET, f"the test does not know the variable {key}={value!r}"
            step_env[key] = ""  # a local xlsx game needs no credentials
        proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], cwd=repo,
                              env=step_env, capture_output=True, text=True, timeout=120)
        done.append((step["name"], proc.returncode, proc.stdout + proc.stderr))
        outcomes[step.get("id", step["name"])] = "failure" if proc.returncode else "success"
        failed = failed or (proc.returncode != 0 and not step.get("continue-on-error"))
    return done, failed


def due_now(repo: Path) -> str | None:
    from sheetgm.service.game import open_game
    from sheetgm.service.status import status

    return status(open_game(repo / "games" / "current"), with_urls=False).due


def test_a_scheduled_run_checks_and_dry_runs_the_due_stage(resolve_wf: dict[str, Any], repo: Path) -> None:
    done, failed = run_job(resolve_wf, repo, "auto", dry_run=True)
    assert not failed
    assert [(name, rc) for name, rc, _ in done] == [("Check the orders", 0), ("Resolve the stage", 0)], done
    assert "N1-survivor" in done[1][2] and "dry run" in done[1][2]
    logs = repo / "games" / "current" / "logs"
    assert "N1-survivor" in (logs / "check.log").read_text("utf-8")
    assert "N1-survivor" in (logs / "resolve.log").read_text("utf-8")
    assert due_now(repo) == "N1-survivor"  # a dry run writes nothing


def test_a_scheduled_run_never_resolves_a_stage_without_a_deadline(resolve_wf: dict[str, Any], repo: Path) -> None:
    from dataclasses import replace

    from sheetgm.service.config.load import load_config, save_config

    folder = repo / "games" / "current"
    save_config(replace(load_config(folder), schedule=None), folder)
    assert "schedule" not in (folder / "game.toml").read_text("utf-8")
    done, _ = run_job(resolve_wf, repo, "auto", dry_run=False)
    assert [rc for _, rc, _ in done] == [0, 0], done
    assert "N1-survivor has no deadline" in done[1][2] and "nothing was resolved" in done[1][2]
    assert due_now(repo) == "N1-survivor"


def test_a_manual_run_naming_the_due_camp_resolves_that_stage(resolve_wf: dict[str, Any], repo: Path) -> None:
    done, _ = run_job(resolve_wf, repo, "survivor", dry_run=False)
    assert [rc for _, rc, _ in done] == [0, 0], done
    assert due_now(repo) == "N1-hunter"


def test_a_manual_run_naming_the_other_camp_stops_before_resolving(resolve_wf: dict[str, Any], repo: Path) -> None:
    done, failed = run_job(resolve_wf, repo, "hunter", dry_run=False)
    assert failed
    assert [(name, rc) for name, rc, _ in done] == [("Check the orders", 0), ("Resolve the stage", 1)], done
    assert "The stage due is N1-survivor, not a hunter stage: nothing was resolved" in done[-1][2]
    assert due_now(repo) == "N1-survivor"


def failing_check(repo: Path) -> None:
    """`sheetgm check` fails as on a network error; every other command runs for real."""
    shim = repo / "bin" / "sheetgm"
    shim.rename(repo / "bin" / "sheetgm-real")
    shim.write_text('#!/bin/sh\nif [ "$1" = check ]; then echo "network error: the connection was reset" >&2; '
                    'exit 1; fi\nexec sheetgm-real "$@"\n', "utf-8")
    shim.chmod(0o755)


def test_a_failed_check_does_not_keep_the_due_stage_from_resolving(resolve_wf: dict[str, Any], repo: Path) -> None:
    failing_check(repo)
    done, failed = run_job(resolve_wf, repo, "auto", dry_run=False)
    assert [(name, rc) for name, rc, _ in done] == [("Check the orders", 1), ("Resolve the stage", 0)], done
    assert "network error" in done[0][2]
    assert due_now(repo) == "N1-hunter", "the stage whose deadline passed was resolved in the same run"
    assert failed, "the failed check is still reported: the run is marked failed"


def test_a_failure_before_the_check_stops_the_run(resolve_wf: dict[str, Any], repo: Path) -> None:
    done, failed = run_job(resolve_wf, repo, "auto", dry_run=False, failed_before=True)
    assert done == [] and failed
    assert due_now(repo) == "N1-survivor"


def test_a_failed_check_then_a_failed_resolve_fails_the_run(resolve_wf: dict[str, Any], repo: Path) -> None:
    failing_check(repo)
    done, failed = run_job(resolve_wf, repo, "hunter", dry_run=False)
    assert [(name, rc) for name, rc, _ in done] == [("Check the orders", 1), ("Resolve the stage", 1)], done
    assert failed and due_now(repo) == "N1-survivor"


def test_the_resolve_job_ends_before_its_lock_expires() -> None:
    """A job GitHub kills for its time must not outlive the game lock it holds (another run would take it)."""
    from sheetgm.service.ledger.lock import LOCK_TTL

    text = (Path(__file__).resolve().parent.parent / ".github" / "workflows" / "resolve.yml").read_text("utf-8")
    minutes = [int(m) for m in re.findall(r"timeout-minutes:\s*(\d+)", text)]
    assert minutes and all(m * 60 < LOCK_TTL.total_seconds() for m in minutes)


def test_the_google_only_step_refuses_a_local_game_and_passes_a_google_one(resolve_wf: dict[str, Any],
                                                                           repo: Path) -> None:
    step = next(s for s in job_steps(resolve_wf) if s.get("name") == "Only a Google game")
    env = {**os.environ, "PATH": f"{repo / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}", "GAME": "games/current"}

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], cwd=repo,
                              env=env, capture_output=True, text=True, timeout=120)

    local = run()
    assert local.returncode == 1 and "::error::games/current is a local (xlsx) game" in local.stdout
    from sheetgm.service.config.load import parse_config, save_config

    google = {**GAME_CONFIG, "backend": "google", "director_email": "gm@example.com",
              "service_account": "bot@game-1.iam.gserviceaccount.com",
              "roster": [{**s, "email": f"{s['alias']}@example.com"} for s in GAME_CONFIG["roster"]]}
    (repo / "games" / "g2").mkdir()
    save_config(parse_config(google), repo / "games" / "g2")
    env["GAME"] = "games/g2"
    assert run().returncode == 0
