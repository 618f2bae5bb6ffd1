"""An Event is a named tuple (issue 14: ``Ctx.emit`` makes hundreds a night) that keeps the frozen dataclass's
behaviour every reader relied on: its fields and defaults, equality, hash, immutability, pickling, its dict."""

from __future__ import annotations

import copy
import pickle

import pytest

from sheetgm.core.events import Event

E = Event("moved", 2, "survivor", {"tile": "C4"}, to=(3,), actor=3)


def test_fields_keywords_and_defaults() -> None:
    e = Event(kind="noise", night=1, stage="hunter")
    assert (e.kind, e.night, e.stage, e.params, e.public, e.to, e.actor) == ("noise", 1, "hunter", {}, False, (), None)
    assert Event("a", 1, "s").params is not Event("a", 1, "s").params  # a new dict each, as default_factory=dict
    assert repr(E) == "Event(kind='moved', night=2, stage='survivor', params={'tile': 'C4'}, public=False, to=(3,), " \
        "actor=3)"


def test_equal_only_to_an_event_and_hashed_without_params() -> None:
    assert E == Event(*E) and not E != Event(*E)
    assert E != Event("moved", 2, "survivor", {"tile": "C5"}, to=(3,), actor=3)
    assert E != tuple(E) and tuple(E) != E and not E == tuple(E)
    assert hash(E) == hash(Event("moved", 2, "survivor", {"other": 1}, to=(3,), actor=3))
    assert E in {E} and [E].count(Event(*E)) == 1


def test_read_only_and_pickled_whole() -> None:
    with pytest.raises(AttributeError):
        E.kind = "other"  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(E)) == E and copy.deepcopy(E) == E
    assert Event.from_dict(E.to_dict()) == E
    assert E.visible_to(3) and not E.visible_to(4)
