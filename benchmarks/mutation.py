"""Mutation score of the modules people must trust, each against the tests that exercise it.

    nice python benchmarks/mutation.py [MODULE ...] [--jobs 2] [--survivors] [--keep] [--minutes M]

Needs the ``mutation`` extra (``pip install -e '.[mutation]'``: mutmut). Each module is mutated in a
throw-away copy of the working tree (a temporary folder, removed afterwards unless ``--keep``): mutmut
writes its mutants and its state beside the code it mutates, so it never runs in the tracked tree and
``git status`` stays clean. Only the module's own test files run (MODULES below); mutmut first records
which of those tests reach each function, then runs, for each mutant, only the tests that reach it.

Prints per module: mutants, killed, survived (no test failed, or no test reached it), timeouts,
equivalent and the score = killed / (mutants - equivalent). Equivalent mutants are listed, each with a
reason, in benchmarks/mutation_equivalent.toml; an entry names the function, the line as written and the
line as mutated, so it keeps matching when other code moves (an entry that no longer matches a surviving
mutant is reported as stale). ``--survivors`` prints the diff of every surviving mutant. ``--minutes`` stops a
module's run after that long (a list whose survivors each replay games can take an hour): the mutants left
untested count as survived, and the score of those tested is printed beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT = Path(__file__).resolve().parent / "mutation_equivalent.toml"

# A test named "!path::name" is left out (pytest --deselect): LibreOffice's round trip starts LibreOffice, 2 s of
# the xlsx lists' 3.4 s, paid again by every mutant that survives; what it reads is pinned by the other tests.
_NO_LIBREOFFICE = ("!tests/backends/test_xlsx_codec.py::"
                   "test_a_workbook_libreoffice_opened_and_saved_reads_back_as_written")

# module name -> (the file mutated, the test files that exercise it)
MODULES: dict[str, tuple[str, list[str]]] = {
    "rows": ("sheetgm/sheets/rows.py", [
        "tests/test_rows_parts.py", "tests/test_rows.py",  # test_player_rows plays games: 20 s a mutant
    ]),
    "stamps": ("sheetgm/service/ledger/stamps.py", [
        "tests/service/test_stamps.py", "tests/service/test_deadlines_hold.py",
    ]),
    "deadlines": ("sheetgm/service/timing/deadlines.py", [
        "tests/service/test_deadline_rules.py", "tests/service/test_deadlines.py",
        "tests/service/test_deadlines_hold.py",
    ]),
    "lock": ("sheetgm/service/ledger/lock.py", [
        "tests/service/test_lock_units.py", "tests/service/test_lock.py", "tests/service/test_lock_messages.py",
        "tests/service/test_safety.py", "tests/service/test_deadlines_hold.py",  # the lock under kills and races
    ]),
    "audit": ("sheetgm/service/audit.py", [
        "tests/service/test_audit_parts.py", "tests/service/test_audit.py", "tests/service/test_audit_in_force.py",
    ]),
    "protections": ("sheetgm/service/workbooks/protections.py", [  # audit's other half: the protections in each file
        "tests/service/test_protections_parts.py", "tests/service/test_audit_parts.py", "tests/service/test_audit.py",
        "tests/service/test_audit_in_force.py",
    ]),
    "verify": ("sheetgm/service/verify.py", [  # memory only: the xlsx and Google runs of verify replay games
        "tests/service/test_verify_parts.py",
        *(f"tests/service/test_verify.py::{t}" for t in (
            "test_a_played_game_replays_stage_by_stage[memory]",
            "test_an_archived_order_edited_by_hand_names_the_stage_that_no_longer_replays[memory]",
            "test_orders_edited_in_the_journal_are_named[memory]",
            "test_a_state_edited_in_the_journal_is_named_and_the_next_stages_still_replay[memory]",
            "test_desk_entries_are_replayed_too", "test_verify_messages_in_the_directors_language")),
    ]),
    "xlsx-read": ("sheetgm/backends/xlsx/read.py", [
        "tests/backends/test_xlsx_read_parts.py", "tests/backends/test_xlsx_read_cells.py",
        "tests/backends/test_xlsx_read_cost.py", "tests/backends/test_xlsx_ours.py",
        "tests/backends/test_xlsx_write_parts.py", "tests/backends/test_xlsx_codec.py",
        "tests/backends/test_xlsx_book.py", "tests/backends/test_xlsx_limits.py", "tests/backends/test_xlsx_scan.py",
        _NO_LIBREOFFICE,
    ]),
    "xlsx-scan": ("sheetgm/backends/xlsx/scan.py", [  # the patterns, against the parser's reading
        "tests/backends/test_xlsx_scan.py", "tests/backends/test_xlsx_read_cells.py",
        "tests/backends/test_xlsx_saves_whole.py",
    ]),
    "xlsx-write": ("sheetgm/backends/xlsx/write.py", [
        "tests/backends/test_xlsx_write_parts.py", "tests/backends/test_xlsx_codec.py",
        "tests/backends/test_xlsx_book.py", "tests/backends/test_xlsx_saving.py",
        "tests/backends/test_xlsx_structure_lock.py", _NO_LIBREOFFICE,
    ]),
    "retry": ("sheetgm/backends/google/retry.py", [
        "tests/backends/test_retry.py", "tests/backends/test_retry_and_pacing.py",
    ]),
    "unknowns": ("sheetgm/core/unknowns.py", [
        "tests/test_check_notes.py", "tests/test_casebook.py",
    ]),
    "check": ("sheetgm/core/check.py", [
        "tests/test_check_notes.py", "tests/test_check_agrees.py", "tests/test_casebook.py",
        "tests/test_check_in_place.py",
    ]),
    # issue 29: the code written since turn 3; each list is every test file that imports the module or reaches it
    # through one call (grep, then coverage of the service tests named)
    "checkmemo": ("sheetgm/service/ledger/checkmemo.py", [
        "tests/service/test_checkmemo_units.py", "tests/service/test_fewer_calls.py",
        "tests/service/test_memo_others.py", "tests/service/test_others_after_deadline.py",
        "tests/service/test_listing_lag.py", "tests/service/test_one_player.py",  # the Drive lag, the bounded memo
    ]),
    "preview": ("sheetgm/core/preview.py", [  # its secrecy first: a leak is the worst slip
        "tests/test_preview_secrecy.py", "tests/test_preview.py", "tests/test_preview_agrees.py",
        "tests/test_information.py",
    ]),
    "seals": ("sheetgm/sheets/seals.py", [
        "tests/test_seals_bite.py", "tests/service/test_seals_as_stored.py", "tests/service/test_protect_identity.py",
        "tests/service/test_broken_workbooks.py", "tests/service/test_tabs_rebuilt.py", "tests/service/test_inbox.py",
    ]),
    "others": ("sheetgm/core/others.py", [
        "tests/test_others_bite.py", "tests/test_check_in_place.py", "tests/test_check_notes.py",
        "tests/test_casebook.py", "tests/service/test_memo_others.py",
    ]),
    "xlsx-lock": ("sheetgm/backends/xlsx/lock.py", [
        "tests/backends/test_xlsx_lock_flags.py", "tests/backends/test_xlsx_structure_lock.py",
        "tests/backends/test_xlsx_protection.py", "tests/backends/test_xlsx_write_parts.py",
        "tests/backends/test_xlsx_pending.py", "tests/service/test_protections_parts.py",
        "tests/service/test_audit_in_force.py",  # and LibreOffice's (test_xlsx_protection): what the lock is for
    ]),
    "xlsx-package": ("sheetgm/backends/xlsx/package.py", [  # the size limits, the zip's parts
        "tests/backends/test_xlsx_zip_edges.py",  # zips that lie, built by hand: the fastest, first
        "tests/backends/test_xlsx_limits.py", "tests/backends/test_xlsx_read_parts.py",
        "tests/backends/test_xlsx_read_cost.py", "tests/backends/test_xlsx_ours.py",
        "tests/backends/test_xlsx_read_rows_seen.py", "tests/backends/test_xlsx_saves_whole.py",
        "tests/backends/test_xlsx_codec.py", "tests/backends/test_xlsx_formats.py",  # sniff: what a file is instead
        "tests/backends/test_xlsx_corpus.py::test_a_strict_file_is_read_and_saved_as_transitional", _NO_LIBREOFFICE,
    ]),
    "cachedir": ("sheetgm/core/cachedir.py", [  # the folder's one gateway (wp-caches) and those who use it
        "tests/test_cachedir.py", "tests/test_texts_cache.py", "tests/backends/test_xlsx_kept.py",
        "tests/backends/test_shared_pacing.py", "tests/service/test_doctor_advice.py",
    ]),
    "google-known": ("sheetgm/backends/google/known.py", [  # the changed-only writes
        "tests/backends/test_google_known.py", "tests/backends/test_google_calls.py",
        "tests/service/test_fewer_calls.py",
    ]),
}

KILLED = {1, 3}  # a test failed, or pytest itself broke on the mutant
TIMEOUT = {36, -24, 24, 152, 255}


@dataclass
class Score:
    module: str
    total: int = 0
    killed: int = 0
    survived: int = 0
    timeouts: int = 0
    untested: int = 0  # no result from mutmut and not equivalent (counted as survived): a run that did not finish
    equivalent: int = 0
    seconds: float = 0.0
    survivors: list[str] = field(default_factory=list)  # diffs of the survivors not listed as equivalent
    stale: list[str] = field(default_factory=list)  # equivalent entries that matched no survivor

    @property
    def score(self) -> float:
        counted = self.total - self.equivalent
        return self.killed / counted if counted else 1.0


def _equivalents(module: str) -> list[dict[str, str]]:
    if not EQUIVALENT.exists():
        return []
    listed = tomllib.loads(EQUIVALENT.read_text("utf-8")).get("mutant", [])
    return [e for e in listed if e["module"] == module]


def _changed(diff: str) -> tuple[str, str]:
    """The lines a mutant removes and adds, each stripped and joined: its identity apart from numbering."""
    lines = diff.splitlines()
    minus = [ln[1:].strip() for ln in lines if ln.startswith("-") and not ln.startswith("---")]
    plus = [ln[1:].strip() for ln in lines if ln.startswith("+") and not ln.startswith("+++")]
    return "\n".join(minus), "\n".join(plus)


def _function(mutant: str) -> str:
    """`sheetgm.x.y.x_name__mutmut_3` -> `name`; a method `xǁClassǁname__mutmut_3` -> `Class.name`."""
    tail = mutant.rsplit(".", 1)[-1].rsplit("__mutmut_", 1)[0]
    if tail.startswith("xǁ"):
        return ".".join(tail[2:].split("ǁ"))
    return tail[2:] if tail.startswith("x_") else tail


def _copy_tree(tree: Path, dest: Path) -> None:
    """The files git would see in ``tree`` (tracked, or new and not ignored), as they are on disk."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=tree, check=True,
                            capture_output=True).stdout.decode().split("\0")
    for rel in filter(None, listed):
        src = tree / rel
        if not src.is_file():
            continue
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dest / rel)


def _configure(work: Path, target: str, tests: list[str]) -> None:
    tops = sorted({p.name for p in work.iterdir()} - {"sheetgm", "tests", "pyproject.toml"})
    conf = {
        "source_paths": ["sheetgm"],
        "only_mutate": [target],
        "also_copy": tops,
        "pytest_add_cli_args": ["-p", "no:cacheprovider", "-q", "-x",
                                *(a for t in tests if t.startswith("!") for a in ("--deselect", t[1:]))],
        "pytest_add_cli_args_test_selection": [t for t in tests if not t.startswith("!")],
        "use_git_change_detection": False,
        # mutmut stops a mutant after (its tests' time + 1 s) x multiplier x 2 of CPU; its default 15 gave a mutant
        # that loops for ever 72 CPU seconds on the xlsx writer's list (its tests take 1.4 s): 3 still gives 14 s
        "timeout_multiplier": 3.0,
        "use_setproctitle": False,
    }
    lines = ["", "[tool.mutmut]"] + [f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in conf.items()]
    with (work / "pyproject.toml").open("a", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def _run_group(cmd: list[str], cwd: Path, env: dict[str, str],
               seconds: float | None = None) -> subprocess.CompletedProcess[str]:
    """Run mutmut in a process group of its own, so that a stopped run also stops mutmut's forked workers;
    stopped after ``seconds`` (returncode None: the mutants it had not tested have no result)."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return subprocess.CompletedProcess(cmd, None, out, err)  # type: ignore[arg-type]
    except BaseException:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def _diff(work: Path, target: str, name: str) -> str:
    """The mutant's diff, read from mutmut's files in ``work`` (mutmut reads them relative to the folder)."""
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    here = Path.cwd()
    os.chdir(work)
    try:
        return str(get_diff_for_mutant(name, path=Path(target)))
    finally:
        os.chdir(here)


def run_module(module: str, jobs: int, keep: bool, tree: Path, minutes: float | None = None) -> Score:
    target, tests = MODULES[module]
    tests = [t for t in tests if (tree / t.lstrip("!").split("::")[0]).exists()]  # a file, or a test (path::name)
    work = Path(tempfile.mkdtemp(prefix=f"sheetgm-mutation-{module}-"))
    score = Score(module)
    started = time.monotonic()
    try:
        _copy_tree(tree, work)
        _configure(work, target, tests)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "COVERAGE"))}
        cmd = [sys.executable, "-m", "mutmut", "run", "--max-children", str(jobs)]
        meta = work / "mutants" / (target + ".meta")
        codes: dict[str, int | None] = {}
        for _ in range(3):  # mutmut's first pass can stop after its stats run with no mutant tested: it resumes
            left_s = None if minutes is None else minutes * 60 - (time.monotonic() - started)
            if left_s is not None and left_s <= 0:
                break
            done = _run_group(cmd, work, env, left_s)
            if not meta.exists():
                sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
                raise SystemExit(f"{module}: mutmut produced no results (exit {done.returncode})")
            untested = sum(c is None for c in codes.values()) if codes else None
            codes = json.loads(meta.read_text("utf-8"))["exit_code_by_key"]
            left = sum(c is None for c in codes.values())
            if not left or left == untested or done.returncode is None:
                break
        equivalents = _equivalents(module)
        matched: set[int] = set()
        for name, code in sorted(codes.items()):
            score.total += 1
            if code in KILLED:
                score.killed += 1
                continue
            if code in TIMEOUT:
                score.timeouts += 1
                continue
            score.survived += 1
            diff = _diff(work, target, name)
            before, after = _changed(diff)
            hit = next((i for i, e in enumerate(equivalents) if i not in matched and e["function"] == _function(name)
                        and e["before"].strip() == before and e["after"].strip() == after), None)  # each once
            if hit is None and code is None:
                score.untested += 1  # not listed: a stopped run (--minutes) leaves many
            elif hit is None:
                score.survivors.append(f"# {name}\n{diff}")
            else:
                score.equivalent += 1
                matched.add(hit)
        score.stale = [f"{e['function']}: {e['after']}" for i, e in enumerate(equivalents) if i not in matched]
    finally:
        score.seconds = time.monotonic() - started
        if keep:
            print(f"kept {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
    return score


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("modules", nargs="*", metavar="MODULE", help=f"one or more of: {', '.join(MODULES)} (default: all)")
    ap.add_argument("--jobs", type=int, default=2, help="mutants tested at once (default 2)")
    ap.add_argument("--survivors", action="store_true", help="print the diff of every surviving mutant")
    ap.add_argument("--keep", action="store_true", help="keep the working copy (its path is printed)")
    ap.add_argument("--minutes", type=float, default=None,
                    help="stop each module's run after this long and score what was tested (a partial figure)")
    ap.add_argument("--tree", type=Path, default=ROOT,
                    help="the git work tree to measure (default: this one; another checkout gives a before figure)")
    args = ap.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a stopped run still removes its copy (finally)
    names = args.modules or list(MODULES)
    unknown = [n for n in names if n not in MODULES]
    if unknown:
        ap.error(f"no module {', '.join(unknown)}; the modules are: {', '.join(MODULES)}")
    print(f"{'module':<12} {'mutants':>7} {'killed':>6} {'survived':>8} {'timeouts':>8} {'equiv':>5} "
          f"{'score':>6} {'minutes':>7}")
    below = False
    for name in names:
        s = run_module(name, args.jobs, args.keep, args.tree.resolve(), args.minutes)
        print(f"{name:<12} {s.total:>7} {s.killed:>6} {s.survived:>8} {s.timeouts:>8} {s.equivalent:>5} "
              f"{s.score:>6.1%} {s.seconds / 60:>7.1f}", flush=True)
        below |= s.score < 0.9
        if s.untested:
            tested = s.total - s.untested - s.equivalent  # not equivalent
            print(f"  {s.untested} mutants have no result (counted as survived): mutmut did not finish; "
                  f"of the {tested} tested and not equivalent, {s.killed} killed "
                  f"({s.killed / tested if tested else 1:.1%})")
        for entry in s.stale:
            print(f"  stale equivalent entry (matches no survivor): {entry}")
        if args.survivors:
            for diff in s.survivors:
                print("\n".join("    " + ln for ln in diff.splitlines()))
                print()
    return 1 if below else 0


if __name__ == "__main__":
    raise SystemExit(main())
