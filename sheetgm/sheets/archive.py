"""One player's order as a resolve used it: the record kept in the journal (its orders column, as JSON) and
written to the director's Orders archive tab, read back by publish, verify, rollback, the stamps and the
deadlines."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sheetgm.core.values import Value, record


@record(frozen=True)
class ArchivedOrder(Value):
    """A stage's order as the director's archive keeps it: as read, as used, and its stamps."""

    text: str = ""  # the order as read (cut to what a cell keeps, limits.kept_order)
    used: str = ""  # the order carried out, in its canonical text ("" for none)
    problems: tuple[str, ...] = ()  # in the player's language
    problems_director: tuple[str, ...] = ()  # the same, in the director's
    bad: bool = False  # unreadable: nothing was carried out
    ticked: bool = False  # the player's submit tick
    stamp: str = ""  # its priority stamp (R-PHASE-3, RUL-37); "" unstamped
    row: int | None = None  # the Orders row its stage label was found in (None: the night's usual row)
    verdict: str = "ok"  # how the deadline counted it (stamps.OK, FALLBACK, SEEN, LATE, UNJUDGED, STAND_IN; RUL-38)
    checked: str = ""  # changed after the last check before the deadline (stamps.AFTER): when that check ran
    nothing: bool = False  # late and nothing carried out: an empty order, not "no order" (RUL-50)
    read: str = ""  # the row's text as the resolve read it, when that is not ``text`` (changed after the deadline)

    def to_dict(self) -> dict[str, Any]:
        """As the journal keeps it (JSON)."""
        return {"text": self.text, "used": self.used, "problems": list(self.problems),
                "problems_director": list(self.problems_director), "bad": self.bad, "ticked": self.ticked,
                "stamp": self.stamp, "row": self.row, "verdict": self.verdict, "checked": self.checked,
                "nothing": self.nothing, **({"read": self.read} if self.read else {})}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ArchivedOrder:
        """From the journal; a key an older journal lacks takes its default. Raises TypeError or ValueError
        on a record that is not one (the journal names the broken cell)."""
        if not isinstance(data, Mapping):
            raise TypeError(f"an archived order is a JSON object, not {type(data).__name__}")
        row = data.get("row")
        return cls(
            text=str(data.get("text", "")), used=str(data.get("used", "")),
            problems=_texts(data.get("problems", [])), problems_director=_texts(data.get("problems_director", [])),
            bad=bool(data.get("bad", False)), ticked=bool(data.get("ticked", False)),
            stamp=str(data.get("stamp", "") or ""), row=int(row) if row not in (None, "") else None,
            verdict=str(data.get("verdict", "ok") or "ok"), checked=str(data.get("checked", "") or ""),
            nothing=bool(data.get("nothing", False)), read=str(data.get("read", "") or ""),
        )

    @property
    def submitted(self) -> bool:
        """Written, ticked, readable and without problems: the stage need not wait for it."""
        return bool(self.text) and self.ticked and not self.problems and not self.bad


def _texts(value: Any) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"a list of problems, not {type(value).__name__}")
    return tuple(str(x) for x in value)
