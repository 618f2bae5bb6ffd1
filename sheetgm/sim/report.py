"""The simulation's report as text, from the templates in the director's language."""

from __future__ import annotations

from sheetgm.core.texts import render
from sheetgm.sim.summary import OUTCOMES, Summary, Tally


def _ends(lang: str, t: Tally) -> str:
    return render(lang, "sim.sep").join(
        render(lang, "sim.end", outcome=render(lang, f"sim.outcome.{o}"), n=getattr(t, o), share=t.share(o))
        for o in OUTCOMES
    )


def report_text(summary: Summary, lang: str, maps: str, workers: int, seconds: float, png: str | None) -> str:
    t = summary.total
    lines = [
        render(lang, "sim.head", games=t.games, maps=maps, workers=workers, seconds=seconds,
               rate=t.games / seconds if seconds > 0 else 0.0),
        render(lang, "sim.ends", ends=_ends(lang, t)),
        render(lang, "sim.nights", mean=t.nights_mean, median=summary.nights_median, most=summary.nights_max),
        render(lang, "sim.per_map"),
    ]
    for name, m in summary.maps:
        lines.append(render(lang, "sim.map_line", map=name, games=m.games, ends=_ends(lang, m), nights=m.nights_mean))
    lines.append(render(lang, "sim.per_role"))
    for r in summary.roles:
        key = "sim.role_survivor" if r.camp == "survivor" else "sim.role_hunter"
        lines.append(render(lang, key, role=render(lang, f"role.{r.role}"), games=r.games, win=r.win_rate,
                            escaped=r.escaped / r.games, eliminated=r.eliminated / r.games))
    if png is not None:
        lines.append(render(lang, "sim.plot_written", file=png))
    return "\n".join(lines)
