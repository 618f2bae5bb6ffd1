"""Build a case's starting State directly from its ``[case.setup]`` table."""

from __future__ import annotations

from typing import Any

from sheetgm.casebook.model import Case
from sheetgm.core.board import Board, EdgeKey, Tile, adjacent, edge_key, parse_tile
from sheetgm.core.errors import CaseError
from sheetgm.core.roles import ROBOT_SEAT_BASE
from sheetgm.core.state import (
    DEFAULT_OPTIONS,
    ELIMINATED,
    ESCAPED,
    HUNTER,
    HUNTER_STAGE,
    IN_PLAY,
    RED_CARDED,
    SURVIVOR,
    SURVIVOR_STAGE,
    Card,
    Passage,
    Player,
    State,
)

CAMPS = (SURVIVOR, HUNTER)
STATUSES = (IN_PLAY, ESCAPED, ELIMINATED, RED_CARDED)
STAGES = (SURVIVOR_STAGE, HUNTER_STAGE)
COLOURS = ("blue", "yellow", "red")
# Options the engine reads that have no default (setup choices rather than rules).
EXTRA_OPTIONS = ("assassin_passage",)
ROBOT_SUFFIX = "#robot"  # the Mechanic's robot is named "<her alias>#robot" in a case


class Names:
    """Tile, edge and alias names of one case, turned into engine values with errors that say where."""

    def __init__(self, case: Case, board: Board) -> None:
        self.case = case
        self.board = board
        self.seats: dict[str, int] = {}

    def fail(self, key: str, value: Any, detail: str) -> CaseError:
        return CaseError("err.case.bad_value", file=self.case.file.name, case=self.case.id, key=key,
                         value=value, detail=detail)

    def tile(self, text: str, key: str) -> Tile:
        t = parse_tile(text)
        if t is None or not self.board.in_bounds(t):
            raise self.fail(key, text, f"not a tile of the {self.board.width}x{self.board.height} map")
        return t

    def edge(self, text: str, key: str, need_adjacent: bool = True) -> EdgeKey:
        parts = text.replace("–", "-").split("-")
        if len(parts) != 2:
            raise self.fail(key, text, "an edge is written TILE-TILE, e.g. B2-B3")
        a, b = self.tile(parts[0], key), self.tile(parts[1], key)
        if need_adjacent and not adjacent(a, b):
            raise self.fail(key, text, "the two tiles are not adjacent")
        return edge_key(a, b)

    def seat(self, alias: str, key: str) -> int:
        text = alias.strip()
        if text.casefold().endswith(ROBOT_SUFFIX):
            return ROBOT_SEAT_BASE + self.seat(text[: -len(ROBOT_SUFFIX)], key)
        for name, seat in self.seats.items():
            if name.casefold() == text.casefold():
                return seat
        raise self.fail(key, alias, "no player of the setup has this alias")

    def alias(self, seat: int | None) -> str:
        """The case's name of a seat; the Mechanic's robot (seat 100 + hers) is "<her alias>#robot"."""
        for name, s in self.seats.items():
            if s == seat:
                return name
        if seat is not None and seat > ROBOT_SEAT_BASE and seat - ROBOT_SEAT_BASE in self.seats.values():
            return self.alias(seat - ROBOT_SEAT_BASE) + ROBOT_SUFFIX
        return "" if seat is None else f"#{seat}"


def build_state(case: Case, board: Board, engine: Any = None) -> tuple[State, Names]:
    names = Names(case, board)
    for k in case.options:
        if k not in DEFAULT_OPTIONS and k not in EXTRA_OPTIONS:
            known = ", ".join(sorted([*DEFAULT_OPTIONS, *EXTRA_OPTIONS]))
            raise names.fail(f"options.{k}", k, "known options: " + known)
    if case.deal is not None:
        return _deal(case, board, engine, names)
    setup = case.setup
    players: dict[int, Player] = {}
    for i, raw in enumerate(setup.get("players", [])):
        key = f"setup.players[{i}]"
        seat = raw.get("seat", i + 1)
        if seat in players:
            raise names.fail(f"{key}.seat", seat, "two players share this seat")
        if raw["camp"] not in CAMPS:
            raise names.fail(f"{key}.camp", raw["camp"], "camp is survivor or hunter")
        status = raw.get("status", IN_PLAY)
        if status not in STATUSES:
            raise names.fail(f"{key}.status", status, "status is one of " + ", ".join(STATUSES))
        if any(a.casefold() == raw["alias"].casefold() for a in names.seats):
            raise names.fail(f"{key}.alias", raw["alias"], "two players share this alias")
        fields = {k: v for k, v in raw.items() if k not in ("alias", "camp", "at", "seat")}
        players[seat] = Player(seat=seat, alias=raw["alias"], camp=raw["camp"], pos=names.tile(raw["at"], f"{key}.at"),
                               **fields)
        names.seats[raw["alias"]] = seat
    stage = setup.get("stage", SURVIVOR_STAGE)
    if stage not in STAGES:
        raise names.fail("setup.stage", stage, "stage is survivor or hunter")

    chests: dict[Tile, str | None] = {t: None for t in board.chests}
    chests.update(board.chest_item_map())
    for name, item in setup.get("chests", {}).items():
        t = names.tile(name, f"setup.chests.{name}")
        if t not in board.chests:
            raise names.fail(f"setup.chests.{name}", name, "the map has no chest there")
        chests[t] = item or None

    passages = [Passage(ends=edge_key(*p)) for p in board.passages]
    for i, raw in enumerate(setup.get("passages", [])):
        key = f"setup.passages[{i}]"
        ends = names.edge(raw["ends"], f"{key}.ends", need_adjacent=False)
        owner = names.seat(raw["owner"], f"{key}.owner") if "owner" in raw else None
        found = next((p for p in passages if p.ends == ends), None)
        if found is None:
            found = Passage(ends=ends)
            passages.append(found)
        found.owner = owner
        found.known_by = [names.seat(a, f"{key}.known_by") for a in raw.get("known_by", [])]
        found.discovered = bool(raw.get("discovered", False)) or bool(found.known_by)

    cards = [
        Card(seat=names.seat(c["alias"], f"setup.cards[{i}].alias"), colour=_colour(names, c["colour"], i),
             reason=c.get("reason", "case"), night=c.get("night", setup.get("night", 1)), merged=c.get("merged", False))
        for i, c in enumerate(setup.get("cards", []))
    ]
    state = State(
        board=board,
        players=players,
        night=setup.get("night", 1),
        stage=stage,
        boards={names.edge(e, f"setup.boards[{i}]") for i, e in enumerate(setup.get("boards", []))},
        traps={names.tile(t, f"setup.traps.{t}"): names.seat(o, f"setup.traps.{t}")
               for t, o in setup.get("traps", {}).items()},
        chests=chests,
        lying={names.tile(t, f"setup.lying.{t}"): list(items) for t, items in setup.get("lying", {}).items()},
        keys_on={names.tile(t, f"setup.keys_on.{t}"): n for t, n in setup.get("keys_on", {}).items()},
        passages=passages,
        progress=setup.get("progress", 0),
        cracked_tonight={names.tile(t, f"setup.cracked_tonight.{t}"): n
                         for t, n in setup.get("cracked_tonight", {}).items()},
        gates_powered=setup.get("gates_powered", False),
        odb_left=setup.get("odb_left", 0),
        odb_reveal=setup.get("odb_reveal", False),
        noise=[names.tile(t, f"setup.noise[{i}]") for i, t in enumerate(setup.get("noise", []))],
        jammed=setup.get("jammed", False),
        cards=cards,
        eliminated=[s for s, p in sorted(players.items()) if p.status == ELIMINATED],
        escaped=[s for s, p in sorted(players.items()) if p.status == ESCAPED],
        options={**DEFAULT_OPTIONS, **case.options},
    )
    return state, names


def _colour(names: Names, colour: str, i: int) -> str:
    if colour not in COLOURS:
        raise names.fail(f"setup.cards[{i}].colour", colour, "colour is blue, yellow or red")
    return colour


def _deal(case: Case, board: Board, engine: Any, names: Names) -> tuple[State, Names]:
    """A new game dealt by the engine (R-SETUP); dealt twice to show it is reproducible."""
    deal = case.deal or {}
    for k in case.setup:
        raise names.fail(f"setup.{k}", k, "a dealt case takes no setup")
    roster = [engine.seat_spec(p["alias"], p.get("camp"), p.get("role"), p.get("lang", "zh"), p.get("passage"))
              for p in deal["players"]]
    pool = deal.get("pool")

    def new() -> State:
        return engine.new_game(board, roster, case.seed, dict(case.options), pool)  # type: ignore[no-any-return]

    state = new()
    if new().digest() != state.digest():
        raise names.fail("deal", case.seed, "dealing twice with the same seed gave different games")
    for seat, p in sorted(state.players.items()):
        names.seats[p.alias] = seat
    return state, names
