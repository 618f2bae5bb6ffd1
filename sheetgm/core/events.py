"""Events: what happened, and who may learn it.

Every effect of a stage is an ``Event``. Who learns it is decided here, by
the resolver, once: ``public`` events go to the public log, ``to`` names the
seats told privately, and the director sees everything. The observers build
every text from events alone (plus each player's own state), which is what
makes "changing hidden state leaves a player's text unchanged" testable.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class _Fields(NamedTuple):
    kind: str
    night: int
    stage: str
    params: dict[str, Any]
    public: bool
    to: tuple[int, ...]
    actor: int | None


class Event(_Fields):
    """Something that happened in a stage, with who may see it.

    A named tuple (hundreds are made a night, and ``Ctx.emit`` makes each with one ``tuple.__new__``) that behaves
    as the frozen dataclass it was: the same fields, keywords and defaults (a new ``params`` dict each), equal only
    to an Event, hashed without its ``params``, read-only."""

    __slots__ = ()

    def __new__(cls, kind: str, night: int, stage: str, params: dict[str, Any] | None = None, public: bool = False,
                to: tuple[int, ...] = (), actor: int | None = None) -> Event:
        return tuple.__new__(cls, (kind, night, stage, {} if params is None else params, public, to, actor))

    def __eq__(self, other: object) -> bool:
        return type(other) is Event and tuple.__eq__(self, other)  # (a plain tuple of the same values is not one)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self.kind, self.night, self.stage, self.public, self.to, self.actor))

    def visible_to(self, seat: int) -> bool:
        return self.public or seat in self.to

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "night": self.night,
            "stage": self.stage,
            "params": self.params,
            "public": self.public,
            "to": list(self.to),
            "actor": self.actor,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Event:
        return cls(
            kind=d["kind"], night=int(d["night"]), stage=d["stage"], params=dict(d.get("params", {})),
            public=bool(d.get("public")), to=tuple(d.get("to", ())), actor=d.get("actor"),
        )
