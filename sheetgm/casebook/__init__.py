"""The case book: numbered rule cases (like the Diplomacy DATC), their loader,
runner and matcher, and the rule index of docs/rules.md.

The file format is described in docs/casebook.md.
"""

from sheetgm.casebook.engine import Engine, default_engine
from sheetgm.casebook.loader import case_files, load_file, load_paths
from sheetgm.casebook.model import Case, DirectorAct, Night
from sheetgm.casebook.runner import CaseResult, run_case, run_cases, run_paths

__all__ = [
    "Case", "CaseResult", "DirectorAct", "Engine", "Night", "case_files", "default_engine", "load_file",
    "load_paths", "run_case", "run_cases", "run_paths",
]
