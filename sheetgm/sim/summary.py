"""The figures of a simulation: wins per camp and per map, per role, nights to the end."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence

from sheetgm.core.steps import HUNTER_ROLES, SURVIVOR_ROLES
from sheetgm.core.values import Value, asdict, record
from sheetgm.sim.run import GameResult

OUTCOMES = ("survivors", "hunters", "draw", "unfinished")


@record(frozen=True)
class Tally(Value):
    """How games ended: each count, and games = their sum."""

    games: int
    survivors: int
    hunters: int
    draw: int
    unfinished: int
    nights_mean: float

    def share(self, outcome: str) -> float:
        return getattr(self, outcome) / self.games if self.games else 0.0


@record(frozen=True)
class RoleLine(Value):
    role: str
    camp: str
    games: int  # seats dealt the role: one a game, except on maps with more seats than roles
    wins: int  # of them, games its camp won
    escaped: int  # survivors: games the role escaped in
    eliminated: int  # survivors: games the role was eliminated in

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@record(frozen=True)
class Summary(Value):
    total: Tally
    maps: tuple[tuple[str, Tally], ...]
    roles: tuple[RoleLine, ...]
    nights: tuple[tuple[int, int], ...]  # (nights, games that ended after that many), ended games only
    nights_median: float
    nights_max: int

    def to_dict(self) -> dict[str, object]:
        return {
            "total": asdict(self.total),
            "maps": {name: asdict(t) for name, t in self.maps},
            "roles": [{**asdict(r), "win_rate": round(r.win_rate, 4)} for r in self.roles],
            "nights": {str(n): k for n, k in self.nights},
            "nights_median": self.nights_median,
            "nights_max": self.nights_max,
        }


def tally(results: Sequence[GameResult]) -> Tally:
    ends = Counter(r.winner or "unfinished" for r in results)
    ended = [r.nights for r in results if r.winner is not None]
    return Tally(len(results), ends["survivors"], ends["hunters"], ends["draw"], ends["unfinished"],
                 round(statistics.fmean(ended), 2) if ended else 0.0)


def summarise(results: Sequence[GameResult]) -> Summary:
    maps = list(dict.fromkeys(r.map for r in results))
    roles: list[RoleLine] = []
    for role in SURVIVOR_ROLES + HUNTER_ROLES:
        camp = "survivor" if role in SURVIVOR_ROLES else "hunter"
        won = "survivors" if camp == "survivor" else "hunters"
        games = wins = escaped = eliminated = 0
        for r in results:
            for seat in r.seats:
                if seat.role != role:
                    continue
                games += 1
                wins += r.winner == won
                escaped += seat.outcome == "escaped"
                eliminated += seat.outcome == "eliminated"
        if games:
            roles.append(RoleLine(role, camp, games, wins, escaped, eliminated))
    ended = [r.nights for r in results if r.winner is not None]
    return Summary(
        total=tally(results),
        maps=tuple((m, tally([r for r in results if r.map == m])) for m in maps),
        roles=tuple(roles),
        nights=tuple(sorted(Counter(ended).items())),
        nights_median=float(statistics.median(ended)) if ended else 0.0,
        nights_max=max(ended, default=0),
    )
