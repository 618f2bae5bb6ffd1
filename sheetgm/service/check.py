"""`sheetgm check`: read every due order, tell each player what is wrong, stamp complete orders."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from sheetgm.backends.errors import BackendError
from sheetgm.backends.port import Op
from sheetgm.core.texts import render
from sheetgm.service import deadlines as D
from sheetgm.service import playersheet as P
from sheetgm.service.game import PUBLIC, Game, player_key
from sheetgm.service.journal import latest, read_director
from sheetgm.service.sheetorders import read_player, review
from sheetgm.service.stages import stage_key


@dataclass
class PlayerCheck:
    seat: int
    alias: str
    state: str  # ok | problems | empty | unticked | unreadable
    problems: list[str] = field(default_factory=list)  # in the director's language
    stamp: str = ""
    notes: list[str] = field(default_factory=list)  # steps that depend on the night: not problems (RUL-27)


@dataclass
class CheckReport:
    stage: str
    players: list[PlayerCheck]
    warnings: list[str]
    deadline: str | None = None  # the stage's deadline while it is ahead (then reminders were written)
    reminded: list[str] = field(default_factory=list)  # aliases told they have not submitted

    @property
    def missing(self) -> list[str]:
        return [p.alias for p in self.players if p.state in ("empty", "unreadable")]

    def to_dict(self) -> dict[str, object]:
        return {"stage": self.stage, "players": [asdict(p) for p in self.players], "missing": self.missing,
                "warnings": self.warnings, "deadline": self.deadline, "reminded": self.reminded}


def check(game: Game, progress: Callable[[str], None] | None = None) -> CheckReport:
    entries, _lock = read_director(game)
    state = latest(entries).state(game.board)
    if state.over():
        return CheckReport("over", [], [])
    key = stage_key(state.night, state.stage)
    deadline = D.ahead(game, key)
    out: list[PlayerCheck] = []
    warnings: list[str] = []
    reminded: list[str] = []
    for seat in game.seats:
        p = state.players[seat]
        if p.camp != state.stage or not p.in_play:
            continue
        lang = game.seat_lang(seat)
        sheet = read_player(game, seat, state.night, state.stage)
        if sheet.trouble:
            warnings.append(sheet.trouble)
            out.append(PlayerCheck(seat, p.alias, "unreadable", [sheet.trouble]))
            if deadline is not None and D.must_submit(state, seat):
                reminded.append(p.alias)  # named in the public line; their sheet cannot be read
            continue
        result = PlayerCheck(seat, p.alias, "empty", stamp=sheet.stamp)
        problems: list[str] = []
        if sheet.text:
            mine = review(state, seat, sheet.text, lang)
            director = review(state, seat, sheet.text, game.lang) if lang != game.lang else mine
            problems = mine.problems + mine.notes  # column E: the problems, then the notes
            result.problems, result.notes = director.problems, director.notes
            result.state = "problems" if mine.problems else ("ok" if sheet.ticked else "unticked")
        stamp = None
        if result.state == "ok" and not sheet.stamp:
            stamp = result.stamp = game.now().isoformat(timespec="seconds")
        status = render(lang, f"sheet.status.{result.state}", n=len(result.problems),
                        time=game.now().strftime("%m-%d %H:%M"))
        if deadline is not None and result.state != "ok" and D.must_submit(state, seat):
            status += "\n" + D.player_reminder(game, seat, deadline, result.state)
            reminded.append(p.alias)
        ops: list[Op] = [P.status_op(lang, state.night, status, problems, stamp)]
        try:
            game.gateway.write(player_key(seat), ops)
        except BackendError as exc:
            warnings.append(render(game.lang, "svc.player_unwritable", alias=p.alias, seat=seat,
                                   reason=exc.message(game.lang)))
        out.append(result)
        if progress:
            progress(player_key(seat))
    if deadline is not None:
        try:
            game.gateway.write(PUBLIC, D.public_reminder_ops(game, key, deadline, reminded))
        except BackendError as exc:
            warnings.append(render(game.lang, "svc.reminder_unwritable", reason=exc.message(game.lang)))
    return CheckReport(key, out, warnings, deadline.isoformat() if deadline else None, reminded)
