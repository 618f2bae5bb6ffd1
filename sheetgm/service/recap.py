"""`sheetgm recap`: the whole game to go over once it has ended: a self-contained HTML page that steps through
every stage on the true map (every piece, path, noise, hidden passage; every event, public or private; the cast
list, 演员表, with each player's role and result) and an animated image of the game for a forum post.

At the game's end nothing is secret any more: the seed's directors publish the 演员表 and the players go over
the game together, so the recap shows everything. Before the end it would give every secret away: it is
refused, unless the director asks for their own copy (``director=True``, ``--director``), which says so on the
page, in its file name and with a red frame on the animation's pictures. The journal is read once (one read of
the director workbook); nothing is written to any workbook.

Each stage is one step: the map after it, with the paths of its night so far (as `sheetgm map --view
director` draws them). The director's rulings and cards made between two stages are told with the stage they
follow, and its map is drawn after them, so the last step shows the game as it ended.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PIL import Image

from sheetgm.core.events import Event
from sheetgm.core.observe import shown_progress
from sheetgm.core.state import State
from sheetgm.core.values import Value, record
from sheetgm.render import animation
from sheetgm.render.draw import DEFAULT_SCALE, draw_image, geometry, player_colour
from sheetgm.render.files import write_bytes
from sheetgm.render.fonts import find_font
from sheetgm.render.recap_html import CastRow, Recap, Step, page
from sheetgm.render.views import Piece, after, director_view, replay_view
from sheetgm.service.errors import ServiceError
from sheetgm.service.game import Game
from sheetgm.service.ledger.journal import PUBLISHED, SUPERSEDED, Entry, read_director
from sheetgm.service.timing.deadlines import local_time
from sheetgm.sheets.stages import parse_key, stage_key

RECAP_DIR = "recap"


@record(frozen=True)
class RecapReport(Value):
    html: Path
    animation: Path
    stages: int  # steps in the page, frames in the animation
    director_copy: bool
    winner: str | None
    lang: str
    html_bytes: int
    animation_bytes: int
    width: int  # of the animation
    height: int
    cjk_font: bool

    def to_dict(self) -> dict[str, Any]:
        return {"html": str(self.html), "animation": str(self.animation), "stages": self.stages,
                "director_copy": self.director_copy, "winner": self.winner, "lang": self.lang,
                "html_bytes": self.html_bytes, "animation_bytes": self.animation_bytes,
                "animation_size": [self.width, self.height], "cjk_font": self.cjk_font}


@record(frozen=True)
class _Stage(Value):
    """A stage entry of the journal and the desk entries that followed it."""

    entry: Entry
    desk: tuple[Entry, ...]

    @property
    def last(self) -> Entry:
        return self.desk[-1] if self.desk else self.entry


def stages(entries: list[Entry]) -> list[_Stage]:
    """The live journal in play order, one item per stage (desk entries before the first stage are dropped:
    there are none, a desk entry always follows a stage)."""
    out: list[_Stage] = []
    for e in entries:
        if e.status == SUPERSEDED:
            continue
        if e.kind == "stage":
            out.append(_Stage(e, ()))
        elif out:
            out[-1] = _Stage(out[-1].entry, (*out[-1].desk, e))
    if not out:
        raise ServiceError("err.svc.no_journal")
    return out


def _refuse(final: State, last: Entry) -> None:
    """The public recap exists only once the game is over and its last stage is published to everyone."""
    if not final.over():
        raise ServiceError("err.recap.not_over", stage=stage_key(final.night, final.stage))
    if last.status != PUBLISHED:
        raise ServiceError("err.recap.unpublished", stage=last.key)


def _step(game: Game, item: _Stage, state: State, night_events: list[Event], full: bool, scale: int, lang: str,
          ) -> tuple[Step, Image.Image]:
    """The step of one stage (``state``: after it and its desk entries), and its map at ``scale`` for the
    animation (with its size)."""
    night, kind = parse_key(item.entry.key)
    view = (replay_view if full else director_view)(state, night_events)
    view = after(view, night, kind) if night else view
    geo = geometry(game.board, view, DEFAULT_SCALE)
    rulings = tuple(ev for d in item.desk for ev in d.events())
    png = animation.compact(draw_image(game.board, view, DEFAULT_SCALE, lang))
    step = Step(item.entry.key, night, kind, png, geo.width, geo.height, tuple(item.entry.events()), rulings,
                shown_progress(state), state.gates_powered, len(state.escaped), len(state.eliminated))
    return step, draw_image(game.board, view, scale, lang)


def _cast(game: Game, state: State) -> tuple[CastRow, ...]:
    rows = []
    for seat, p in sorted(state.players.items()):
        if p.is_robot or seat not in game.seats:
            continue
        colour = player_colour(Piece(seat, p.alias, p.camp, p.pos))
        rows.append(CastRow(seat, p.alias, p.camp, p.role, p.status, p.result, colour))
    return tuple(rows)


def default_paths(folder: Path, lang: str, director_copy: bool, fmt: str) -> tuple[Path, Path]:
    """``recap/recap-zh.html`` and ``recap/recap-zh.gif``; the director's copy is ``recap-director-zh.*``."""
    stem = f"recap-director-{lang}" if director_copy else f"recap-{lang}"
    return folder / f"{stem}.html", folder / f"{stem}{animation.SUFFIX[fmt]}"


def recap(game: Game, director: bool = False, out: Path | None = None, lang: str | None = None,
          fmt: str = animation.GIF) -> RecapReport:
    """Write the recap page and the animation of the game (one read of the director workbook)."""
    lang = lang or game.lang
    if lang not in ("zh", "en"):
        raise ServiceError("err.render.bad_lang", lang=lang)
    if fmt not in animation.FORMATS:
        raise ServiceError("err.recap.bad_format", fmt=fmt)
    items = stages(read_director(game)[0])
    final = items[-1].last.state(game.board)
    director_copy = not final.over() or items[-1].last.status != PUBLISHED
    if director_copy and not director:
        _refuse(final, items[-1].last)
    scale = animation.frame_scale(game.board.width)
    steps, frames = [], []
    names: dict[int, str] = {}  # every piece ever on the map: a robot destroyed is still named in its events
    night_events: list[Event] = []
    night = -1
    for item in items:
        if parse_key(item.entry.key)[0] != night:
            night, night_events = parse_key(item.entry.key)[0], []
        night_events += item.entry.events()
        state = item.last.state(game.board)
        names |= {seat: p.alias for seat, p in state.players.items()}
        step, frame = _step(game, item, state, list(night_events), not director_copy, scale, lang)
        steps.append(step)
        frames.append(frame)
    model = Recap(game.cfg.name, _map_title(game, lang), tuple(steps), _cast(game, final), names, final.winner,
                  final.end_reason, director_copy, None if final.over() else stage_key(final.night, final.stage),
                  local_time(game, items[-1].last.time, lang))
    html = page(model, lang).encode("utf-8")
    gif = animation.animate(frames, fmt, mark=director_copy)
    html_path, anim_path = default_paths(out if out is not None else game.folder / RECAP_DIR, lang,
                                         director_copy, fmt)
    write_bytes(html, html_path)
    write_bytes(gif, anim_path)
    width, height = max(f.width for f in frames), max(f.height for f in frames)
    return RecapReport(html_path, anim_path, len(steps), director_copy, final.winner, lang, len(html), len(gif),
                       width, height, find_font().cjk)


def _map_title(game: Game, lang: str) -> str:
    board = game.board
    return board.title if lang == "zh" and board.title else board.name
