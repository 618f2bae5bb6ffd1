"""Who sits and stands where: the players by seat (``Seats``) and the index behind ``State.at``.

``State.at``, ``survivors()`` and ``hunters()`` run thousands of times a
night; scanning and sorting every player each time made a night quadratic in
the number of players. The index is built when first asked and kept up to
date by ``Player.pos``'s setter (a ``pos`` change files the player anew) and
by ``Seats`` (a seat added, removed or given another Player has it built
again).
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from sheetgm.core.board import Tile

if TYPE_CHECKING:
    from sheetgm.core.state import Player


class Seats(dict[int, "Player"]):
    """The players by seat. It counts its changes, so that ``State.at``'s index sees a seat added,
    removed or given another Player object; it compares and serialises as the plain dict it is."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.changes = 0

    def _changed(self) -> None:
        self.changes = getattr(self, "changes", 0) + 1

    def __setitem__(self, seat: int, player: Player) -> None:
        super().__setitem__(seat, player)
        self._changed()

    def __delitem__(self, seat: int) -> None:
        super().__delitem__(seat)
        self._changed()

    def pop(self, *args: Any) -> Any:
        self._changed()
        return super().pop(*args)

    def popitem(self) -> tuple[int, Player]:
        self._changed()
        return super().popitem()

    def clear(self) -> None:
        self._changed()
        super().clear()

    def update(self, *args: Any, **kwargs: Any) -> None:
        self._changed()
        super().update(*args, **kwargs)

    def setdefault(self, seat: int, player: Player) -> Player:
        self._changed()
        return super().setdefault(seat, player)

    def __ior__(self, other: Any) -> Seats:  # type: ignore[override,misc]
        self._changed()
        super().update(other)
        return self


class Where:
    """Who stands where (tile -> players by seat) and the players by seat, for one ``players`` dict.

    Built when first asked; ``Player.pos``'s setter files a player anew when
    its ``pos`` changes, and a change of the seats (``Seats.changes``) or a
    new dict has it built again. Never copied: a deepcopy or an unpickled
    state builds its own."""

    __slots__ = ("__weakref__", "camps", "changes", "players", "tiles")

    def __init__(self, players: Seats | None = None) -> None:
        self.players = players
        self.changes = -1
        self.camps: dict[str, list[Player]] = {}  # camp -> its players by seat (a camp never changes)
        self.tiles: dict[Tile, list[Player]] = {}
        if players is None:
            return
        self.changes = players.changes
        me = weakref.ref(self)  # a weak back-reference: no reference cycle, a copied state is freed at once
        for seat in sorted(players):
            p = players[seat]
            p.__dict__["_where"] = me
            self.camps.setdefault(p.camp, []).append(p)
            self.tiles.setdefault(p.pos, []).append(p)

    def __deepcopy__(self, memo: dict[int, Any]) -> Where:
        return Where()

    def __reduce__(self) -> tuple[type[Where], tuple[()]]:
        return (Where, ())

    def move(self, p: Player, old: Tile | None, new: Tile) -> None:
        here = self.tiles.get(old, []) if old is not None else []
        for i, q in enumerate(here):
            if q is p:
                del here[i]
                break
        else:
            self.players = None  # out of step: index again when next asked
            return
        there = self.tiles.setdefault(new, [])
        i = len(there)
        while i > 0 and there[i - 1].seat > p.seat:
            i -= 1
        there.insert(i, p)
