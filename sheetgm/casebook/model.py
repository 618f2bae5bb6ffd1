"""Loaded cases: plain frozen values; the raw TOML tables stay as dicts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sheetgm.core.values import Value, field, record


@record(frozen=True)
class DirectorAct(Value):
    """A director's action inside a night: a penalty card or an override."""

    when: str  # before | after_survivor | after
    card: str | None = None  # alias
    colour: str | None = None
    override: str | None = None  # alias, or "game" for the game-wide fields
    field: str | None = None
    value: Any = None
    reason: str = "case"
    declare_loss: bool = False  # with a red card: the director declares the camp's loss (R-END-6)
    lurking: dict[str, Any] | None = None  # {posts = {alias = n}, voted = {alias = bool}, accelerated = bool}


@record(frozen=True)
class Night(Value):
    survivor: dict[str, str] | None = None  # alias -> order text; None: stage not asked for
    hunter: dict[str, str] | None = None
    priority: tuple[str, ...] | None = None
    seed: int | None = None
    director: tuple[DirectorAct, ...] = ()
    after_survivor: dict[str, Any] | None = None
    expect: dict[str, Any] | None = None
    replay: bool = False
    resolve: bool = True
    rollback: bool = False  # first restore the state before the last resolved stage (R-DIR-2)
    stop_after_survivor: bool = False  # survivor orders without hunter orders: stop before the hunter stage

    @property
    def runs_hunter_stage(self) -> bool:
        """A night that resolves its survivor stage also runs the hunter stage (with no orders when
        none are given: the end of the night) unless it says it stops after the survivor stage."""
        return self.hunter is not None or (self.survivor is not None and not self.stop_after_survivor)


@record(frozen=True)
class Case(Value):
    file: Path
    section: str
    id: str
    title: str
    covers: tuple[str, ...]
    rule: str
    map_name: str | None
    map_text: str | None
    seed: int = 1
    options: dict[str, Any] = field(default_factory=dict)
    setup: dict[str, Any] = field(default_factory=dict)
    deal: dict[str, Any] | None = None  # a new game dealt by the engine instead of a written setup
    nights: tuple[Night, ...] = ()
    expect: dict[str, Any] | None = None
    error: str | None = None
    error_params: dict[str, Any] = field(default_factory=dict)
    note: str = ""

    @property
    def test_id(self) -> str:
        """``06_sense.toml::SENSE-03``: the pytest id and the CLI's name for a case."""
        return f"{self.file.name}::{self.id}"
