"""What the director workbook remembers: the journal of stages (``journal``), the first-complete stamps and what
counts at the deadline (``stamps``), what the last check read of each workbook (``checkmemo``), the verdicts on
late changes (``verdicts``), the director's Table tab (``table``) and the game lock held there (``lock``).

A use case reads and writes it through ``Record`` (``record.py``): one read, questions about a stage, the run's
notes sent as one write. The rules of the stamps it applies (``Truth``, ``counted``, ``observe``, ``missed``) and
the memo a check keeps (``Memo``) are named here too, so a use case imports this package alone.
"""

from sheetgm.service.ledger.checkmemo import Memo
from sheetgm.service.ledger.record import Record
from sheetgm.service.ledger.stamps import (
    AFTER,
    FALLBACK,
    LATE,
    OK,
    STAND_IN,
    UNJUDGED,
    Truth,
    counted,
    missed,
    observe,
)

__all__ = [
    "AFTER", "FALLBACK", "LATE", "OK", "STAND_IN", "UNJUDGED", "Memo", "Record", "Truth", "counted", "missed",
    "observe",
]
