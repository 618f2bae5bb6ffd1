"""The game state: everything that changes during a game.

A ``State`` is a plain mutable dataclass so that a stage can be resolved on
a private copy (``state.copy()``); the resolvers never mutate their input.
The copy is written field by field (a deepcopy cost 97% of a bot game): every
list, dict and set is new, the frozen ``Board`` is shared, and a field this
module does not know (added later) falls back to ``copy.deepcopy``.
``State.at`` answers from an index of who stands where, kept up to date by
``Player.pos``'s setter, so that a night grows linearly with the
number of players.
It round-trips through JSON (``to_dict`` / ``from_dict``) for the journal,
and ``digest()`` gives the hash that ``verify`` compares stage by stage.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from sheetgm.core.board import Board, EdgeKey, Tile, edge_key, parse_tile, tile_name
from sheetgm.core.digests import sha256_hex
from sheetgm.core.errors import StateError
from sheetgm.core.seating import Seats, Where
from sheetgm.core.values import asdict, field, fields, is_record, record

SURVIVOR = "survivor"
HUNTER = "hunter"

IN_PLAY = "in"
ESCAPED = "escaped"
ELIMINATED = "eliminated"
RED_CARDED = "red_carded"

SURVIVOR_STAGE = "survivor"
HUNTER_STAGE = "hunter"
OVER = "over"

WON, LOST, DRAW = "won", "lost", "draw"  # a player's own result (RUL-35)

MAX_HP = 5
_new = object.__new__

DEFAULT_OPTIONS: dict[str, Any] = {
    "key_drop": "random",  # R-END-2: random | at_elimination
    "red_card_counts_as_elimination": True,  # R-END-8
    "survivors_to_win": 4,  # R-END-3
    "eliminations_to_win": 5,  # R-END-5
    "crack_target": 16,  # R-ACT-CRACK
    "generator_cap": 4,  # per generator per night
    "key_first_night": 3,  # R-END-2
    "keys_to_escape": 4,  # R-ACT-ESCAPE, R-END-4
    "odb_stages": 3,  # R-ODB-2
    "hunters": 2,  # R-SETUP-1: hunters dealt when the roster leaves camps open
    "scale_targets": False,  # RUL-26, a house rule: victory targets scaled to the number of survivors
}


@record
class Player:
    """One seat at the table: who plays it, their camp and role, and where they stand."""

    seat: int
    alias: str
    camp: str
    role: str | None = None
    pos: Tile = (0, 0)
    hp: int = MAX_HP
    downed: bool = False
    fear: int = 0
    stealth: bool = False
    items: list[str] = field(default_factory=list)
    keys: int = 0
    status: str = IN_PLAY
    uses: dict[str, int] = field(default_factory=dict)
    escaping: bool = False
    stunned: bool = False
    flags: dict[str, Any] = field(default_factory=dict)
    lang: str = "zh"
    result: str | None = None  # won | lost | draw: an escaped survivor has won; the rest at the game's end

    def __getstate__(self) -> dict[str, Any]:
        """Pickle and deepcopy leave out the state's index (a weak reference)."""
        return {k: v for k, v in self.__dict__.items() if k != "_where"}

    def copy(self) -> Player:
        """A true copy: new ``items``, ``uses`` and ``flags`` (see ``_PLAYER_DEEP`` for other fields)."""
        d = self.__dict__.copy()
        if "_where" in d:
            del d["_where"]
        d["items"] = d["items"][:]
        d["uses"] = d["uses"].copy()
        flags = d["flags"]
        d["flags"] = _copy_values(flags) if flags else {}
        if _PLAYER_DEEP:
            for name in _PLAYER_DEEP:
                d[name] = copy.deepcopy(d[name])
        dup = _new(Player)
        dup.__dict__ = d
        return dup

    @property
    def in_play(self) -> bool:
        return self.status == IN_PLAY

    @property
    def is_survivor(self) -> bool:
        return self.camp == SURVIVOR

    @property
    def is_hunter(self) -> bool:
        return self.camp == HUNTER

    @property
    def is_robot(self) -> bool:
        """The Mechanic's robot is modelled as a survivor piece that is not a player (R-ROLE-MECHANIC)."""
        return "robot_of" in self.flags

    @property
    def injured(self) -> bool:
        """R-STATUS-INJURED: any survivor with HP below 5."""
        return self.is_survivor and self.hp < MAX_HP


class _Pos:
    """``Player.pos`` set: the player is filed anew in the state's index (``seating.Where``), if one is kept.

    A data descriptor without ``__get__``: reading ``p.pos`` finds the instance's dict as for any field, and only a
    write of ``pos`` pays a call (a ``Player.__setattr__`` paid one on every field written)."""

    def __set__(self, p: Player, value: Tile) -> None:
        d = p.__dict__
        ref = d.get("_where")
        if ref is not None:
            where = ref()
            if where is not None:
                where.move(p, d.get("pos"), value)
        d["pos"] = value


Player.pos = _Pos()  # type: ignore[assignment]  # after @dataclass, which read the default (0, 0)


@record
class Passage:
    """A secret passage between two tiles: laid by a Master Assassin or drawn on the map."""

    ends: EdgeKey
    owner: int | None = None  # seat of the Master Assassin who laid it; None: map-defined
    discovered: bool = False  # found by a survivor (the director's view)
    known_by: list[int] = field(default_factory=list)  # survivors who found it, and only they, may use it (RUL-36)

    def known_to(self, p: Player) -> bool:
        """Hunters know the map's passages and the Assassin her own (RUL-1); a survivor the ones she
        found (the robot those its Mechanic found)."""
        if p.is_hunter:
            return self.owner is None or self.owner == p.seat
        return int(p.flags.get("robot_of", p.seat)) in self.known_by

    def learn(self, p: Player) -> None:
        """A survivor discovers it (her robot, for its Mechanic)."""
        self.discovered = True
        seat = int(p.flags.get("robot_of", p.seat))
        if seat not in self.known_by:
            self.known_by.append(seat)


def _known_by(raw: dict[str, Any], players: dict[int, Player]) -> list[int]:
    """A state written before RUL-36 has no ``known_by``: a passage discovered then was public,
    so every survivor knew it."""
    if "known_by" in raw:
        return [int(s) for s in raw["known_by"]]
    return [s for s, p in sorted(players.items()) if p.is_survivor and not p.is_robot] if raw.get("discovered") else []


@record
class Card:
    """A penalty card a director gave a seat (blue, yellow or red) and why."""

    seat: int
    colour: str  # blue | yellow | red
    reason: str
    night: int
    merged: bool = False  # merged into a higher card (R-CARD-2)
    source: str = "director"  # director | merge | lurking


@record
class State:
    """The whole game at one moment: the board, every seat, the night and stage."""

    board: Board
    players: dict[int, Player]  # always a Seats: its setter (_Players) makes it one
    night: int = 1
    stage: str = SURVIVOR_STAGE
    boards: set[EdgeKey] = field(default_factory=set)
    traps: dict[Tile, int] = field(default_factory=dict)
    chests: dict[Tile, str | None] = field(default_factory=dict)
    lying: dict[Tile, list[str]] = field(default_factory=dict)
    keys_on: dict[Tile, int] = field(default_factory=dict)
    passages: list[Passage] = field(default_factory=list)
    progress: int = 0
    cracked_tonight: dict[Tile, int] = field(default_factory=dict)
    gates_powered: bool = False
    odb_left: int = 0
    odb_reveal: bool = False
    noise: list[Tile] = field(default_factory=list)
    jammed: bool = False
    cards: list[Card] = field(default_factory=list)
    winner: str | None = None
    end_reason: str | None = None
    eliminated: list[int] = field(default_factory=list)
    escaped: list[int] = field(default_factory=list)
    spent: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=lambda: dict(DEFAULT_OPTIONS))

    # -- queries -----------------------------------------------------------
    def copy(self) -> State:
        """A true copy for everything a resolution mutates; the frozen board is shared."""
        d = self.__dict__.copy()
        if "_where" in d:
            del d["_where"]
        d["players"] = Seats({seat: p.copy() for seat, p in self.players.items()})
        d["boards"] = set(self.boards)
        d["traps"] = dict(self.traps)
        d["chests"] = dict(self.chests)
        d["lying"] = {t: list(items) for t, items in self.lying.items()}
        d["keys_on"] = dict(self.keys_on)
        d["passages"] = [_copy_passage(p) for p in self.passages] if _FAST_PASSAGE else \
            [_copy_record(p) for p in self.passages]
        d["cracked_tonight"] = dict(self.cracked_tonight)
        d["noise"] = list(self.noise)
        d["cards"] = [_copy_record(c) for c in self.cards]
        d["eliminated"] = list(self.eliminated)
        d["escaped"] = list(self.escaped)
        d["spent"] = list(self.spent)
        d["options"] = _copy_values(self.options)
        for name in _STATE_DEEP:
            d[name] = copy.deepcopy(d[name])
        dup = object.__new__(State)
        dup.__dict__.update(d)
        return dup

    def _located(self) -> Where:
        where = self.__dict__.get("_where")
        players: Seats = self.players  # type: ignore[assignment]  # always a Seats (_Players); no cast() call
        if where is None or where.players is not players or where.changes != players.changes:
            where = Where(players)
            self.__dict__["_where"] = where
        return where

    def seats(self) -> list[int]:
        return sorted(self.players)

    def survivors(self, in_play: bool = True, robots: bool = False) -> list[Player]:
        # The properties is_survivor, in_play and is_robot, spelt out: this runs thousands of times a night.
        return [
            p
            for p in self._located().camps.get(SURVIVOR, ())
            if (p.status == IN_PLAY or not in_play) and (robots or "robot_of" not in p.flags)
        ]

    def hunters(self, in_play: bool = True) -> list[Player]:
        return [p for p in self._located().camps.get(HUNTER, ()) if p.status == IN_PLAY or not in_play]

    def at(self, tile: Tile, camp: str | None = None) -> list[Player]:
        where = self.__dict__.get("_where")  # _located() inlined: this runs thousands of times a night
        players = self.players
        if where is None or where.players is not players or where.changes != players.changes:
            where = self._located()
        return [p for p in where.tiles.get(tile, ()) if p.status == IN_PLAY and (camp is None or p.camp == camp)]

    def by_alias(self, alias: str) -> Player | None:
        """The player an order, a gift or the director names: the one alias lookup (``alias_key``)."""
        folded = alias_key(alias)
        for p in self.players.values():
            if p.alias.casefold() == folded:
                return p
        return None

    def opt(self, name: str) -> Any:
        return self.options.get(name, DEFAULT_OPTIONS.get(name))

    def passage_between(self, a: Tile, b: Tile) -> Passage | None:
        k = edge_key(a, b)
        for p in self.passages:
            if p.ends == k:
                return p
        return None

    def passage_at(self, t: Tile) -> Passage | None:
        for p in self.passages:
            if t in p.ends:
                return p
        return None

    def over(self) -> bool:
        return self.winner is not None

    # -- serialisation -----------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        def tl(t: Tile) -> str:
            return tile_name(t)

        return {
            "map": self.board.name,
            "night": self.night,
            "stage": self.stage,
            "players": [
                {**{name: _plain(getattr(p, name)) for name in _PLAYER_FIELDS}, "pos": tl(p.pos)}
                for _, p in sorted(self.players.items())
            ],
            "boards": sorted(f"{tl(a)}-{tl(b)}" for a, b in sorted(self.boards)),
            "traps": {tl(t): s for t, s in sorted(self.traps.items())},
            "chests": {tl(t): i for t, i in sorted(self.chests.items())},
            "lying": {tl(t): list(i) for t, i in sorted(self.lying.items()) if i},
            "keys_on": {tl(t): n for t, n in sorted(self.keys_on.items()) if n},
            "passages": [
                {"ends": f"{tl(p.ends[0])}-{tl(p.ends[1])}", "owner": p.owner, "discovered": p.discovered,
                 **({"known_by": list(p.known_by)} if p.known_by else {})}
                for p in self.passages
            ],
            "progress": self.progress,
            "cracked_tonight": {tl(t): n for t, n in sorted(self.cracked_tonight.items())},
            "gates_powered": self.gates_powered,
            "odb_left": self.odb_left,
            "odb_reveal": self.odb_reveal,
            "noise": [tl(t) for t in self.noise],
            "jammed": self.jammed,
            "cards": [asdict(c) for c in self.cards],
            "winner": self.winner,
            "end_reason": self.end_reason,
            "eliminated": list(self.eliminated),
            "escaped": list(self.escaped),
            "spent": list(self.spent),
            "options": dict(sorted(self.options.items())),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], board: Board) -> State:
        try:
            def tile(s: str) -> Tile:
                t = parse_tile(s)
                if t is None or not board.in_bounds(t):
                    raise StateError("err.state.bad_tile", tile=s)
                return t

            def edge(s: str) -> EdgeKey:
                a, b = s.split("-")
                return edge_key(tile(a), tile(b))

            players = {}
            for raw in data["players"]:
                p = Player(**{**raw, "pos": tile(raw["pos"])})
                players[p.seat] = p
            return cls(
                board=board,
                players=players,
                night=int(data["night"]),
                stage=str(data["stage"]),
                boards={edge(e) for e in data.get("boards", [])},
                traps={tile(t): int(s) for t, s in data.get("traps", {}).items()},
                chests={tile(t): i for t, i in data.get("chests", {}).items()},
                lying={tile(t): list(i) for t, i in data.get("lying", {}).items()},
                keys_on={tile(t): int(n) for t, n in data.get("keys_on", {}).items()},
                passages=[
                    Passage(ends=edge(p["ends"]), owner=p.get("owner"), discovered=bool(p.get("discovered")),
                            known_by=_known_by(p, players))
                    for p in data.get("passages", [])
                ],
                progress=int(data.get("progress", 0)),
                cracked_tonight={tile(t): int(n) for t, n in data.get("cracked_tonight", {}).items()},
                gates_powered=bool(data.get("gates_powered")),
                odb_left=int(data.get("odb_left", 0)),
                odb_reveal=bool(data.get("odb_reveal")),
                noise=[tile(t) for t in data.get("noise", [])],
                jammed=bool(data.get("jammed")),
                cards=[Card(**c) for c in data.get("cards", [])],
                winner=data.get("winner"),
                end_reason=data.get("end_reason"),
                eliminated=list(data.get("eliminated", [])),
                escaped=list(data.get("escaped", [])),
                spent=list(data.get("spent", [])),
                options={**DEFAULT_OPTIONS, **data.get("options", {})},
            )
        except StateError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise StateError("err.state.malformed", detail=str(exc)) from exc

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))

    def digest(self) -> str:
        return sha256_hex(self.to_json().encode("utf-8"))[:16]


_ATOMIC = (int, str, bool, float, type(None))


def alias_key(alias: str) -> str:
    """How a written alias is compared with a player's: spaces around it ignored, case folded."""
    return alias.strip().casefold()


def _frozen(v: Any) -> bool:
    if type(v) in _ATOMIC:
        return True
    if type(v) is not tuple:
        return False
    for x in v:  # a tile, a passage's ends: tuples of scalars, tested without a call for each
        if type(x) not in _ATOMIC and not _frozen(x):
            return False
    return True


def _dup(v: Any) -> Any:
    """A value as a true copy: scalars and tuples of them as they are, a list of scalars (a passage's
    ``known_by``) copied flat, anything else deep-copied."""
    if _frozen(v):
        return v
    if type(v) is list and all(type(x) in _ATOMIC for x in v):
        return list(v)
    return copy.deepcopy(v)


def _copy_values(d: dict[Any, Any]) -> dict[Any, Any]:
    """A new dict whose mutable values are true copies (options and flags hold scalars in practice)."""
    out = d.copy()
    for k, v in d.items():
        if type(v) not in _ATOMIC:
            out[k] = _dup(v)
    return out


class _Players:
    """``State.players`` set: any dict is made a ``Seats`` (which ``State.at``'s index follows). Set-only, as
    ``_Pos``: reads find the instance's dict, and the state's other fields are written without a call."""

    def __set__(self, st: State, value: dict[int, Player]) -> None:
        st.__dict__["players"] = value if type(value) is Seats else Seats(value)


State.players = _Players()  # type: ignore[assignment]  # after @dataclass (the field has no default)


def _copy_record(obj: Any) -> Any:
    """A new Passage or Card: scalar fields shared, anything else a true copy (``_dup``)."""
    dup = object.__new__(type(obj))
    dup.__dict__.update(_copy_values(obj.__dict__))
    return dup


def _copy_passage(pa: Passage) -> Passage:
    """``_copy_record`` spelt out for a Passage while its fields are the known ones (a copy a stage)."""
    d = pa.__dict__.copy()
    d["known_by"] = d["known_by"][:]
    dup = _new(Passage)
    dup.__dict__ = d
    return dup


_FAST_PASSAGE = tuple(f.name for f in fields(Passage)) == ("ends", "owner", "discovered", "known_by")

# Fields that copy() above does not copy by hand: mutable ones are deep-copied, so a field added
# later is a true copy without anyone remembering to come here.
_PLAYER_SCALARS = {"seat", "alias", "camp", "role", "pos", "hp", "downed", "fear", "stealth", "keys", "status",
                   "escaping", "stunned", "lang", "result", "items", "uses", "flags"}
_PLAYER_DEEP = tuple(f.name for f in fields(Player) if f.name not in _PLAYER_SCALARS)
_PLAYER_FIELDS = tuple(f.name for f in fields(Player))
_SCALARS = (str, int, float, bool, type(None))


def _plain(value: Any) -> Any:
    """What ``dataclasses.asdict`` makes of a field's value, made directly for what a player holds (texts,
    numbers, lists, dicts, tuples): ``asdict``'s generic recursion made ``to_dict`` four times slower (each
    stage's journal entry holds a state)."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is list:
        return [_plain(v) for v in value]
    if kind is dict:
        return {_plain(k): _plain(v) for k, v in value.items()}
    if kind is tuple:
        return tuple(_plain(v) for v in value)
    return asdict(value) if is_record(value) and not isinstance(value, type) else copy.deepcopy(value)
_STATE_KNOWN = {"board", "players", "night", "stage", "boards", "traps", "chests", "lying", "keys_on", "passages",
                "progress", "cracked_tonight", "gates_powered", "odb_left", "odb_reveal", "noise", "jammed", "cards",
                "winner", "end_reason", "eliminated", "escaped", "spent", "options"}
_STATE_DEEP = tuple(f.name for f in fields(State) if f.name not in _STATE_KNOWN)
