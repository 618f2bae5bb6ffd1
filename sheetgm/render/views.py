"""What each map view shows, built from a State and the events a viewer may know.

A ``MapView`` holds only what its viewer is entitled to: the public view is
built without looking at any position, so moving a hidden piece cannot
change a pixel of it. The drawing (``draw.draw_map``) reads the view and the
static board, nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from sheetgm.core.board import EdgeKey, Tile, parse_tile
from sheetgm.core.events import Event
from sheetgm.core.passages import known_passages
from sheetgm.core.state import State
from sheetgm.core.values import Value, record, replace

PUBLIC, PLAYER, DIRECTOR = "public", "player", "director"
VIEWS = (PUBLIC, PLAYER, DIRECTOR)  # what `sheetgm map --view` draws
REPLAY = "replay"  # the director's view once the game is over and everything is public (`sheetgm recap`)
FULL = (DIRECTOR, REPLAY)  # the views that show everything


@record(frozen=True)
class Piece(Value):
    """A piece drawn on the map: a player, or the Mechanic's robot."""

    seat: int
    alias: str
    camp: str
    tile: Tile
    you: bool = False
    downed: bool = False
    robot: bool = False


@record(frozen=True)
class Trail(Value):
    """The tiles a piece went through during the night, in order (from the ``moved`` events)."""

    seat: int
    alias: str
    camp: str
    tiles: tuple[Tile, ...]


@record(frozen=True)
class Progress(Value):
    progress: int
    target: int
    gates_powered: bool
    escaped: int
    eliminated: int
    winner: str | None


@record(frozen=True)
class MapView(Value):
    kind: str  # public | player | director | replay
    night: int
    stage: str
    progress: Progress
    boards: frozenset[EdgeKey] = frozenset()
    traps: frozenset[Tile] = frozenset()
    passages: tuple[EdgeKey, ...] = ()  # known to the viewer
    hidden_passages: tuple[EdgeKey, ...] = ()  # director only: laid and not discovered
    pieces: tuple[Piece, ...] = ()
    noise: frozenset[Tile] = frozenset()
    noise_night: int | None = None  # the night of the briefing the markers come from
    chests: tuple[tuple[Tile, str | None], ...] = ()  # known chest contents (None: empty)
    lying: tuple[tuple[Tile, tuple[str, ...]], ...] = ()
    keys: tuple[tuple[Tile, int], ...] = ()
    trails: tuple[Trail, ...] = ()
    viewer: str = ""  # alias of the player whose view this is
    after: tuple[int, str] | None = None  # the stage just resolved (night, stage), when known
    plan: tuple[Tile, ...] = ()  # a player's view: where the order in her row takes her (the preview, RUL-61)
    plan_steps: tuple[tuple[Tile, str], ...] = ()  # the written step numbers on the plan's tiles ("2", "2·3")


def after(view: MapView, night: int, stage: str) -> MapView:
    """The same view, labelled as drawn after the stage ``night``/``stage`` was resolved."""
    return replace(view, after=(night, stage))


def _progress(state: State) -> Progress:
    target = int(state.opt("crack_target"))
    return Progress(min(state.progress, target), target, state.gates_powered, len(state.escaped),
                    len(state.eliminated), state.winner)


def _common(state: State, kind: str) -> MapView:
    """What everyone sees (R-SENSE-7): boards, traps, the map's passages, progress (a discovered passage
    is known only to those who found it, RUL-36)."""
    known = tuple(sorted(p.ends for p in known_passages(state)))
    return MapView(kind, state.night, state.stage, _progress(state), frozenset(state.boards),
                   frozenset(state.traps), known)


def public_view(state: State) -> MapView:
    return _common(state, PUBLIC)


def last_briefing(events: Iterable[Event], seat: int) -> tuple[frozenset[Tile], int | None]:
    """The noise markers of the seat's latest briefing, and its night."""
    tiles: frozenset[Tile] = frozenset()
    night: int | None = None
    for e in events:
        if e.kind == "brief_noise" and seat in e.to:
            tiles = frozenset(t for t in (parse_tile(x) for x in e.params.get("tiles", [])) if t is not None)
            night = e.night
    return tiles, night


def _piece(state: State, seat: int, you: bool = False) -> Piece:
    p = state.players[seat]
    return Piece(seat, p.alias, p.camp, p.pos, you, p.downed, p.is_robot)


def player_view(state: State, seat: int, events: Iterable[Event] = ()) -> MapView:
    """What one player knows: their own piece (and robot), their own passages, for a survivor the contents
    of their own tile (R-SENSE-6), for a hunter the noise markers of their last briefing (R-SENSE-5).

    ``events``: the journal's events up to the stage drawn, in order; only those told to ``seat`` are read."""
    base = _common(state, PLAYER)
    p = state.players[seat]
    own = tuple(sorted(pa.ends for pa in known_passages(state, seat)))
    pieces = [_piece(state, seat, you=True)] if p.in_play else []
    pieces += [_piece(state, r.seat) for r in state.players.values()
               if r.in_play and r.flags.get("robot_of") == seat]
    view = replace(base, passages=own, pieces=tuple(pieces), viewer=p.alias)
    if p.is_hunter:
        noise, night = last_briefing((e for e in events if e.visible_to(seat)), seat)
        return replace(view, noise=noise, noise_night=night)
    if not p.in_play:
        return view
    t = p.pos
    return replace(
        view,
        chests=((t, state.chests.get(t)),) if t in state.board.chests else (),
        lying=((t, tuple(state.lying[t])),) if state.lying.get(t) else (),
        keys=((t, state.keys_on[t]),) if state.keys_on.get(t) else (),
    )


def with_plan(view: MapView, path: Sequence[Tile], steps: Mapping[Tile, Sequence[int]]) -> MapView:
    """A player's view with the path of her order (``Preview.path``) and the step numbers on its tiles."""
    order = sorted(steps.items(), key=lambda x: (x[0][1], x[0][0]))
    marks = tuple((t, "·".join(str(n) for n in ns)) for t, ns in order)
    return replace(view, plan=tuple(path) if len(path) > 1 else (), plan_steps=marks)


def trails(events: Iterable[Event], state: State) -> tuple[Trail, ...]:
    """Each piece's path from ``moved`` events, in event order; a jump (passage, teleport) is one segment."""
    paths: dict[int, list[Tile]] = {}
    for e in events:
        if e.kind != "moved" or e.actor is None:
            continue
        frm, to = parse_tile(str(e.params.get("frm", ""))), parse_tile(str(e.params.get("tile", "")))
        if frm is None or to is None or frm == to:
            continue
        path = paths.setdefault(e.actor, [frm])
        if path[-1] != frm:
            path.append(frm)
        path.append(to)
    out = []
    for seat, tiles in sorted(paths.items()):
        p = state.players.get(seat)
        if p is not None and len(tiles) > 1:
            out.append(Trail(seat, p.alias, p.camp, tuple(tiles)))
    return tuple(out)


def director_view(state: State, night_events: Iterable[Event] = ()) -> MapView:
    """Everything: every piece in play, hidden passages, chest contents, lying items and keys, the noise
    markers now on the map, and the paths of ``night_events`` (the night's stages drawn so far)."""
    base = _common(state, DIRECTOR)
    found = tuple(sorted(p.ends for p in state.passages if p.owner is not None and p.discovered))
    hidden = tuple(sorted(p.ends for p in state.passages if p.owner is not None and not p.discovered))
    pieces = tuple(_piece(state, s) for s, p in sorted(state.players.items()) if p.in_play)
    return replace(
        base,
        passages=tuple(sorted((*base.passages, *found))),
        hidden_passages=hidden,
        pieces=pieces,
        noise=frozenset(state.noise),
        noise_night=state.night if state.noise else None,
        chests=tuple(sorted(state.chests.items())),
        lying=tuple(sorted((t, tuple(i)) for t, i in state.lying.items() if i)),
        keys=tuple(sorted((t, n) for t, n in state.keys_on.items() if n)),
        trails=trails(night_events, state),
    )


def replay_view(state: State, night_events: Iterable[Event] = ()) -> MapView:
    """The director's view, labelled as the game's replay: drawn only once the game is over (`sheetgm recap`)."""
    return replace(director_view(state, night_events), kind=REPLAY)
