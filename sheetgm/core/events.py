"""Events: what happened, and who may learn it.

Every effect of a stage is an ``Event``. Who learns it is decided here, by
the resolver, once: ``public`` events go to the public log, ``to`` names the
seats told privately, and the director sees everything. The observers build
every text from events alone (plus each player's own state), which is what
makes "changing hidden state leaves a player's text unchanged" testable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """Something that happened in a stage, with who may see it."""

    kind: str
    night: int
    stage: str
    params: dict[str, Any] = field(default_factory=dict, hash=False, compare=True)
    public: bool = False
    to: tuple[int, ...] = ()
    actor: int | None = None

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
