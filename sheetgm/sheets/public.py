"""What the tool writes into the public and director workbooks after a stage."""

from __future__ import annotations

from collections.abc import Mapping

from sheetgm.backends.port import Op, SetValues
from sheetgm.core.events import Event
from sheetgm.core.observe import director_log, name, public_log, shown_progress
from sheetgm.core.state import Card, State
from sheetgm.core.texts import render
from sheetgm.sheets import layout, mapcells
from sheetgm.sheets.archive import ArchivedOrder
from sheetgm.sheets.limits import fit
from sheetgm.sheets.player import known_passages
from sheetgm.sheets.stages import archive_row, journal_row, log_row


def public_ops(state: State, events: list[Event], key: str, lang: str, formats: bool = True) -> list[Op]:
    r = log_row(key)
    text = fit(public_log(events, lang).strip(), lang, "svc.cut_log", stage=key)
    ops: list[Op] = [SetValues(layout.rng(layout.tab(lang, "log"), f"A{r}:B{r}"), ((key, text),))]
    ops.append(SetValues(layout.rng(layout.tab(lang, "progress"), "A2:B20"), progress_rows(state, lang)))
    ops.append(SetValues(layout.rng(layout.tab(lang, "cards"), "A2:D200"), card_rows(state, lang)))
    marks = {t: render(lang, "sheet.map.trap") for t in state.traps}
    tab = layout.tab(lang, "map")
    ops += mapcells.draw(tab, state.board, 1, lang, marks, state.boards, known_passages(state), formats)
    ops += mapcells.legend(tab, 1, mapcells.side_col(state.board), lang, mapcells.PUBLIC_LEGEND, formats)
    return ops


def progress_rows(state: State, lang: str) -> tuple[tuple[str, str], ...]:
    sep = render(lang, "word.sep")

    def aliases(seats: list[int]) -> str:
        return sep.join(state.players[s].alias for s in seats) or render(lang, "word.none")

    rows = [
        (render(lang, "sheet.prog.stage"), render(lang, "sheet.cur.stage_value", night=state.night,
                                                  stage=name(lang, "word", state.stage))),
        (render(lang, "sheet.prog.progress"), shown_progress(state)),
        (render(lang, "sheet.prog.gates"), render(lang, "word.yes" if state.gates_powered else "word.no")),
        (render(lang, "sheet.prog.escaped"), aliases(state.escaped)),
        (render(lang, "sheet.prog.eliminated"), aliases(state.eliminated)),
        (render(lang, "sheet.prog.winner"), name(lang, "word", state.winner) if state.winner else "-"),
    ]
    return tuple(rows)


def card_rows(state: State, lang: str) -> tuple[tuple[str, ...], ...]:
    def reason(c: Card) -> str:
        text = render(lang, "desk.pub.merge_reason") if c.source == "merge" else c.reason
        return f"{text} {render(lang, 'desk.pub.merged')}" if c.merged else text

    return tuple(
        (str(c.night), state.players[c.seat].alias, name(lang, "word", c.colour), reason(c))
        for c in state.cards
    )


def director_ops(state: State, events: list[Event], key: str, lang: str, seats: int,
                 orders: Mapping[int, ArchivedOrder]) -> list[Op]:
    """Director Log row and the order archive rows of this stage (the journal row is written apart)."""
    r = journal_row(key)
    text = fit(director_log(events, lang, state).strip(), lang, "svc.cut_log", stage=key)
    ops: list[Op] = [SetValues(layout.rng(layout.tab(lang, "log"), f"A{r}:B{r}"), ((key, text),))]
    archive = layout.tab(lang, "archive")
    for seat in range(1, seats + 1):
        o = orders.get(seat)
        if o is None:
            continue
        a = archive_row(key, seat, seats)
        problems = fit("\n".join(o.problems_director), lang, "svc.cut_log", stage=key)
        row = (key, str(seat), state.players[seat].alias, o.text, problems, o.stamp)
        ops.append(SetValues(layout.rng(archive, f"A{a}:F{a}"), (row,)))
    return ops
