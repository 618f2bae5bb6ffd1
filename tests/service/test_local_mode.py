"""Local mode said honestly: audit tells that an .xlsx protection has no password, and the scheduled workflow
refuses a local game, as the docs say (issue 10, item 6)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml
from typer.testing import CliRunner

from sheetgm.cli.app import app
from sheetgm.core.texts import render

ROOT = Path(__file__).resolve().parents[2]
DRAFT = """name = "lm"
seed = 2
{extra}
[[roster]]
alias = "Ann"
camp = "survivor"
email = "ann@example.com"
[[roster]]
alias = "Hu"
camp = "hunter"
email = "hu@example.com"
"""


def test_audit_of_a_local_game_says_its_tabs_are_locked_with_the_games_password(tmp_path: Path) -> None:
    (tmp_path / "game.toml").write_text(DRAFT.format(extra=""), "utf-8")
    runner = CliRunner()
    assert runner.invoke(app, ["new", "--game", str(tmp_path)]).exit_code == 0
    result = runner.invoke(app, ["audit", "--game", str(tmp_path)])
    assert result.exit_code == 0
    assert render("zh", "svc.audit.local_password") in result.stdout
    assert "本局密码" in result.stdout and "编号-马甲.xlsx" in result.stdout


def _guard() -> str:
    wf = yaml.safe_load((ROOT / ".github" / "workflows" / "resolve.yml").read_text("utf-8"))
    return next(s["run"] for s in wf["jobs"]["resolve"]["steps"] if s.get("name") == "Only a Google or WebDAV game")


def _run_guard(folder: Path) -> subprocess.CompletedProcess[str]:
    bin_dir = folder.parent / "bin"
    bin_dir.mkdir(exist_ok=True)
    if not (bin_dir / "python").exists():
        (bin_dir / "python").symlink_to(sys.executable)
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "GAME": str(folder)}
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", _guard()], env=env,
                          capture_output=True, text=True, timeout=60)


def test_the_workflow_refuses_a_local_game_and_runs_a_google_one(tmp_path: Path) -> None:
    local, google = tmp_path / "local", tmp_path / "google"
    local.mkdir()
    google.mkdir()
    (local / "game.toml").write_text(DRAFT.format(extra=""), "utf-8")
    (google / "game.toml").write_text(DRAFT.format(extra='backend = "google"\ndirector_email = "gm@example.com"\n'
                                                  'service_account = "bot@lm.iam.gserviceaccount.com"'),
                                      "utf-8")
    refused = _run_guard(local)
    assert refused.returncode == 1 and "is a local (xlsx) game: this workflow is for Google games" in refused.stdout
    assert _run_guard(google).returncode == 0
    for doc in ("schedule.md", "director-guide.md"):
        text = (ROOT / "docs" / doc).read_text("utf-8")
        assert "只用于 Google" in text and "for Google games only" in text, doc
