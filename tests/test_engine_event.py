"""An Event is a named tuple (issue 14: ``Ctx.emit`` makes hundreds a night) that keeps the frozen dataclass's
behaviour every reader relied on: its fields and defaults, equality, hash, immutability, pickling, its dict."""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from enginekit import GRID, game

from sheetgm.core.context import Ctx
from sheetgm.core.events import Event
from sheetgm.core.roles import ROBOT_SEAT_BASE
from sheetgm.core.state import Player

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


def test_tell_is_emit_to_the_piece() -> None:
    """``Ctx.tell`` (a move's event) is ``emit`` to the piece and by it: a robot's goes to its Mechanic; dry: none."""
    st = game(GRID, survivors=[("Ann", "mechanic", "A1")], hunters=[("Hal", "ripper", "E3")])
    st.players[ROBOT_SEAT_BASE + 1] = Player(ROBOT_SEAT_BASE + 1, "Ann#robot", "survivor", pos=(1, 1),
                                             flags={"robot_of": 1})
    for seat in sorted(st.players):
        p = st.players[seat]
        told, emitted = Ctx(st, random.Random(0), "survivor"), Ctx(st, random.Random(0), "survivor")
        told.tell("moved", p, {"frm": "A1", "tile": "B1", "how": "move"})
        emitted.emit("moved", to=(seat,), actor=seat, frm="A1", tile="B1", how="move")
        assert told.events == emitted.events and len(told.events) == 1, seat
    assert st.players[ROBOT_SEAT_BASE + 1] and told.events[0].to == (1,)  # the last piece told: the robot
    dry = Ctx(st, random.Random(0), "survivor", dry=True)
    dry.tell("moved", st.players[1], {})
    assert dry.events == []
