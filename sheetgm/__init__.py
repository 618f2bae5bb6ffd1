"""sheetgm: a game master for the forum game 第五人格逃生 on spreadsheets."""

import gc as _gc
import os as _os
import sys as _sys

# The garbage collector's thresholds in the `sheetgm` script's own process (cli/main.py): cycles looked for every
# 20,000 new objects, not every 700. Set here, before the imports, when the process is the script (its path is
# the program's): the imports alone made ~40 collections, ~3 ms of every command (issue 14).
COLLECT_EVERY = (20_000, 20, 20)
if _os.path.basename(getattr(_sys, "argv", [""])[0] or "") in ("sheetgm", "sheetgm.exe", "sheetgm-script.py"):
    _gc.set_threshold(*COLLECT_EVERY)

from sheetgm.core import codecache, recache  # noqa: E402 (after the collector's thresholds)

__version__ = "0.1.0"

codecache.install()
recache.install()
