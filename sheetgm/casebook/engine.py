"""The engine seen from the case book: one port, so the runner can be tested
with a fake engine and runs unchanged against the real one."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from sheetgm.core.values import Value, record


@record(frozen=True)
class Engine(Value):
    load_map: Callable[[str], Any]
    ready_map: Callable[[str], Any]
    parse_order: Callable[[str], Any]
    resolve_survivor_stage: Callable[..., tuple[Any, list[Any]]]
    resolve_hunter_stage: Callable[..., tuple[Any, list[Any]]]
    report: Callable[[Any, list[Any], int, str], str]
    public_log: Callable[[list[Any], str], str]
    director_log: Callable[[list[Any], str], str]
    check_order: Callable[..., list[Any]]  # (state, seat, order, others: the stage's other orders) -> problems
    give_card: Callable[..., tuple[Any, list[Any]]]
    apply_override: Callable[..., tuple[Any, list[Any]]]
    new_game: Callable[..., Any] | None = None  # (board, roster, seed, options, role_pool) -> State
    seat_spec: Callable[..., Any] | None = None  # (alias, camp, role, lang) -> a roster entry
    lurking_proposals: Callable[..., list[tuple[int, str]]] | None = None  # (state, posts, voted, accelerated)
    review_order: Callable[..., Any] | None = None  # as check_order, with .problems and .notes (RUL-27, RUL-39)


def _lazy(module: str, name: str) -> Callable[..., Any]:
    """Import ``module.name`` on first call, so a part of the engine that does not
    exist yet fails only the cases that need it."""

    def call(*args: Any, **kwargs: Any) -> Any:
        fn = getattr(importlib.import_module(module), name)
        return fn(*args, **kwargs)

    call.__name__ = name
    return call


def default_engine() -> Engine:
    """The real engine."""
    return Engine(
        load_map=_lazy("sheetgm.notation.mapfile", "load_map"),
        ready_map=_lazy("sheetgm.notation.mapfile", "ready_map"),
        parse_order=_lazy("sheetgm.notation.orders", "parse_order"),
        resolve_survivor_stage=_lazy("sheetgm.core.resolve", "resolve_survivor_stage"),
        resolve_hunter_stage=_lazy("sheetgm.core.resolve", "resolve_hunter_stage"),
        report=_lazy("sheetgm.core.observe", "report"),
        public_log=_lazy("sheetgm.core.observe", "public_log"),
        director_log=_lazy("sheetgm.core.observe", "director_log"),
        check_order=_lazy("sheetgm.core.check", "check_as_written"),  # steps numbered as written (RUL-60)
        give_card=_lazy("sheetgm.core.cards", "give_card"),
        apply_override=_lazy("sheetgm.core.override", "apply_override"),
        new_game=_lazy("sheetgm.core.setup", "new_game"),
        seat_spec=_lazy("sheetgm.core.setup", "SeatSpec"),
        lurking_proposals=_lazy("sheetgm.core.cards", "lurking_proposals"),
        review_order=_lazy("sheetgm.core.check", "review_as_written"),
    )
