"""What the tool writes into one player's workbook after a stage (one write)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sheetgm.backends.port import AddTab, Op, Protect, ResizeColumns, ResizeRows, SetBold, SetValidation, SetValues
from sheetgm.core import passages
from sheetgm.core.board import Board, Tile, parse_tile, tile_name
from sheetgm.core.check import legal_steps
from sheetgm.core.errors import SheetgmError
from sheetgm.core.events import Event
from sheetgm.core.observe import name, status_words
from sheetgm.core.preview import Preview
from sheetgm.core.roles import skills_of
from sheetgm.core.state import MAX_HP, Player, State
from sheetgm.core.texts import render
from sheetgm.notation.order_format import format_step
from sheetgm.sheets import layout, mapcells
from sheetgm.sheets.limits import fit
from sheetgm.sheets.rows import free_row
from sheetgm.sheets.seals import results_seal, results_sealed
from sheetgm.sheets.stages import log_row, parse_key, stage_index, stage_key

MAX_CHOICES = 60
PREVIEW_ROWS = 40  # rows of the order preview in the Current tab, its title included


def results_op(lang: str, key: str, text: str, secret: str, workbook: str) -> Op:
    """A stage's row of the Results tab: the stage, the report, and its seal (``seals.py``)."""
    r = log_row(key)
    text = fit(text, lang, "svc.cut_report", stage=key)
    return SetValues(layout.rng(layout.tab(lang, "results"), f"A{r}:C{r}"),
                     ((key, text, results_seal(secret, workbook, key, text)),))


def edited_rows(rows: list[list[str]], secret: str, workbook: str) -> list[int]:
    """Results rows (1-based) whose seal does not fit their stage and text in this workbook, or whose stage
    belongs in another row (a row copied whole, label and seal, over another one)."""
    bad = []
    for i, raw in enumerate(rows, 2):
        cells = list(raw) + ["", "", ""]
        if (cells[0] or cells[1] or cells[2]) and not (
                _row_of(cells[0]) == i and results_sealed(secret, workbook, cells[0], cells[1], cells[2])):
            bad.append(i)
    return bad


def _row_of(label: str) -> int | None:
    """The Results row of the stage ``label`` names (None: not a stage)."""
    try:
        return log_row(label.strip())
    except SheetgmError:
        return None


def identity_op(lang: str, token: str, seat: int, alias: str) -> Op:
    """The cell that says whose workbook this is (``seals.identity_token``), in the Orders tab's header row."""
    return SetValues(layout.rng(layout.tab(lang, "orders"), layout.IDENTITY_CELL),
                     ((render(lang, "sheet.identity", seat=seat, alias=alias, token=token),),))


def status_op(lang: str, row: int, status: str, problems: Iterable[str], stamp: str | None = None,
              stage: str = "") -> Op:
    """The tool's cells D (status) and E (problems; each cut with a note if too long for a cell, naming ``stage``)
    and, given a stamp, F of the Orders row ``row``."""
    r = row
    cells: tuple[str, ...] = (fit(status, lang, "svc.cut_report", stage=stage),
                              fit("\n".join(problems), lang, "svc.cut_report", stage=stage))
    end = "E"
    if stamp is not None:
        cells += (stamp,)
        end = "F"
    return SetValues(layout.rng(layout.tab(lang, "orders"), f"D{r}:{end}{r}"), (cells,))


def fit_row_op(lang: str, row: int, status: str, problems: str) -> Op:
    """The Orders row ``row`` as tall as its status (D) and problems (E) cells need (``layout.row_height``)."""
    widths = layout.ORDERS_WIDTHS
    height = layout.row_height(((status, widths[layout.O_STATUS]), (problems, widths[layout.O_PROBLEMS])))
    return ResizeRows(layout.rng(layout.tab(lang, "orders"), f"{row}:{row}"), height)


def status_ops(lang: str, row: int, status: str, problems: Iterable[str], stamp: str | None = None,
               stage: str = "") -> list[Op]:
    """``status_op`` and the row's height to show it whole (``fit_row_op``)."""
    op = status_op(lang, row, status, problems, stamp, stage)
    cells = op.rows[0] if isinstance(op, SetValues) and op.rows else ("", "")
    return [op, fit_row_op(lang, row, cells[0], cells[1])]


def deadline_ops(board: Board, lang: str, line: str) -> list[Op]:
    """The deadline line (``deadlines.deadline_line``) in the Orders tab's header row and in the Current tab,
    below the player's numbers beside the map: every player sees the stage due, its deadline and the time left."""
    orders, cur = layout.tab(lang, "orders"), layout.tab(lang, "current")
    side = mapcells.side_col(board)
    label, value = layout.col(side + 1), layout.col(side + 2)
    head = layout.rng(orders, f"{layout.DEADLINE_COL}1")
    return [SetValues(head, ((line,),)), SetBold(head),
            ResizeColumns(layout.rng(orders, f"{layout.DEADLINE_COL}:{layout.DEADLINE_COL}"), layout.DEADLINE_PX),
            SetValues(layout.rng(cur, f"{label}{DEADLINE_ROW}:{value}{DEADLINE_ROW}"),
                      ((render(lang, "sheet.deadline.label"), line),)),
            SetBold(layout.rng(cur, f"{label}{DEADLINE_ROW}:{value}{DEADLINE_ROW}"))]


LEGACY_FREEZE = "sheetgm:frozen:N{night}"  # how sheetgm before issue 15 froze a resolved row (a range protection)


def orders_protect(lang: str, editors: tuple[str, ...], row: int | None) -> Protect:
    """The Orders tab protected whole: only the order, the tick and the dropdown help of ``row`` (the stage now
    due for the player; None: no row) stay open. So a player cannot touch labels, the tool's columns, resolved
    rows, nor insert, delete or sort rows; when a stage freezes its row closes with it (RUL-46)."""
    orders = layout.tab(lang, "orders")
    opened = [layout.rng(orders, f"{a}{row}:{b}{row}" if a != b else f"{a}{row}") for a, b in layout.OPEN_COLS]
    return Protect(orders, editors, layout.ORDERS_PROTECTION, opened if row is not None else ())


def next_row(state: State, seat: int, tab: list[list[str]] | None) -> int | None:
    """The row of the stage now due for this player in their Orders tab ``tab`` as just read (``rows.free_row``;
    the usual row without a tab); None if no stage is due for them."""
    p = state.players[seat]
    if state.over() or not p.in_play or state.stage != p.camp:
        return None
    return free_row(tab or [], stage_key(state.night, state.stage), state.night)


def open_row_ops(state: State, seat: int, lang: str, editors: tuple[str, ...], tab: list[list[str]] | None = None,
                 row: int | None = None, label: bool = True) -> list[Op]:
    """The row of the stage now due for this player (its label and a dropdown of legal first steps) and the
    Orders tab's protection, open at that row only; a seat not due gets the protection with no row open.

    The row is ``row`` if given, else where ``rows.free_row`` says in the Orders tab ``tab`` as just read (its
    usual row without one); the label is written only where the tab lacks it (``label=False``: never).
    """
    r = row if row is not None else next_row(state, seat, tab)
    if r is None:
        return [orders_protect(lang, editors, None)]
    key = stage_key(state.night, state.stage)
    orders = layout.tab(lang, "orders")
    choices = tuple(dict.fromkeys(format_step(s, lang) for s in legal_steps(state, seat)))[:MAX_CHOICES]
    have = tab[r - 2][0].strip() if tab is not None and 0 <= r - 2 < len(tab) and tab[r - 2] else ""
    ops: list[Op] = [SetValues(layout.rng(orders, f"A{r}"), ((key,),))] if label and have != key else []
    if choices:
        ops.append(SetValidation(layout.rng(orders, f"G{r}"), choices, strict=False,
                                 help=render(lang, "sheet.note.next_step")))
    return [*ops, orders_protect(lang, editors, r)]


def noise_tiles(events: Iterable[Event], seat: int) -> list[Tile]:
    tiles: list[Tile] = []
    for e in events:
        if e.kind == "brief_noise" and seat in e.to:
            tiles = [t for t in (parse_tile(x) for x in e.params.get("tiles", [])) if t is not None]
    return tiles


INFO_ROWS = 11  # the player's numbers beside the map: 10 rows, then the skills
DEADLINE_ROW = INFO_ROWS + 1  # the deadline line, between the player's numbers and the legend
LEGEND_ROW = INFO_ROWS + 2
INFO_PX = (110, 380)


def info_range(board: Board) -> str:
    """Where a player's numbers sit in the Current tab: right of the map and its legend's swatch column."""
    side = mapcells.side_col(board)
    return f"{layout.col(side + 1)}1:{layout.col(side + 2)}{INFO_ROWS}"


def current_ops(state: State, seat: int, lang: str, events: Iterable[Event] = (), formats: bool = True) -> list[Op]:
    """The Current tab: the player's map view (tile B3 in cell B3), their numbers beside it, then the legend
    (``formats``: redraw colours and borders)."""
    p = state.players[seat]
    tab = layout.tab(lang, "current")
    evs = list(events)
    noise = noise_tiles(evs, seat) if p.is_hunter else []
    statuses = status_words(lang, p)
    sep, none = render(lang, "word.sep"), render(lang, "word.none")
    rows = [
        (render(lang, "sheet.cur.alias"), p.alias),
        (render(lang, "sheet.cur.role"), name(lang, "role", p.role)),
        (render(lang, "sheet.cur.stage"), render(lang, "sheet.cur.stage_value", night=state.night,
                                                 stage=name(lang, "word", state.stage))),
        (render(lang, "sheet.cur.status"), name(lang, "word", p.status)),
        (render(lang, "sheet.cur.position"), tile_name(p.pos)),
        (render(lang, "sheet.cur.hp"), f"{p.hp}/{MAX_HP}" if p.is_survivor else "-"),
        (render(lang, "sheet.cur.statuses"), sep.join(statuses) or render(lang, "word.none")),
        (render(lang, "sheet.cur.items"), sep.join(name(lang, "item", i) for i in p.items) or none),
        (render(lang, "sheet.cur.keys"), str(p.keys)),
        (render(lang, "sheet.cur.noise"), (sep.join(tile_name(t) for t in noise) or none) if p.is_hunter else "-"),
        (render(lang, "sheet.cur.skills"), _skills(p, lang)),
    ]
    ops: list[Op] = [SetValues(layout.rng(tab, info_range(state.board)), tuple(rows))]
    ops += view_ops(state, seat, lang, tab, 1, noise, formats)
    side = mapcells.side_col(state.board)
    ops += mapcells.legend(tab, LEGEND_ROW, side, lang, _legend_keys(p), formats)
    ops += preview_block(state.board, lang, [])  # the last check's preview is of an order now resolved
    if formats:
        ops += [ResizeColumns(layout.rng(tab, f"{layout.col(side + 1 + i)}:{layout.col(side + 1 + i)}"), px)
                for i, px in enumerate(INFO_PX)]
        ops.append(SetBold(layout.rng(tab, f"{layout.col(side + 1)}1:{layout.col(side + 1)}{INFO_ROWS}")))
    return ops


def _legend_keys(p: Player) -> tuple[str, ...]:
    return (*(mapcells.HUNTER_LEGEND if p.is_hunter else mapcells.PLAYER_LEGEND), "path")


def preview_row(board: Board) -> int:
    """The first row of the order preview in the Current tab: below the map and below the longest legend."""
    return max(board.height + 3, LEGEND_ROW + len(mapcells.HUNTER_LEGEND) + 4)


def preview_block(board: Board, lang: str, lines: Sequence[str]) -> list[Op]:
    """The Current tab's preview block: a title and one line a row, always PREVIEW_ROWS rows (the rest blank, so
    that a shorter preview leaves nothing stale); a longer one is cut, saying so."""
    tab, r = layout.tab(lang, "current"), preview_row(board)
    body = list(lines)
    if len(body) > PREVIEW_ROWS - 1:
        body = body[: PREVIEW_ROWS - 2] + [render(lang, "preview.cut", n=len(body) - (PREVIEW_ROWS - 2))]
    rows = [(render(lang, "preview.title") if body else "",)] + [(x,) for x in body]
    rows += [("",)] * (PREVIEW_ROWS - len(rows))
    return [SetValues(layout.rng(tab, f"A{r}:A{r + PREVIEW_ROWS - 1}"), tuple(rows))]


def preview_ops(state: State, seat: int, lang: str, seen: Preview | None, noise: Iterable[Tile] = ()) -> list[Op]:
    """What a check writes in the Current tab: the map's cells with the order's path on it (no formats: the
    map's colours and borders are the publish's) and the preview block (``seen`` None: the order cannot be
    read, and the block says so)."""
    tab = layout.tab(lang, "current")
    lines = [render(lang, "preview.none")] if seen is None else preview_lines(state, seen, lang)
    return view_ops(state, seat, lang, tab, 1, noise, False, seen) + preview_block(state.board, lang, lines)


def preview_lines(state: State, seen: Preview, lang: str, full: bool = True) -> list[str]:
    """The preview in words: the path, then each step (``Preview.lines``)."""
    if not seen.steps and not seen.general:
        return [render(lang, "preview.empty")]
    lines = seen.lines(lang, full)
    if len(seen.path()) > 1:
        lines.insert(1, render(lang, "preview.path", tiles=" → ".join(tile_name(t) for t in seen.path())))
    lines += [render(lang, "preview.mark.problem", text=x.message(lang)) for x in seen.general if full]
    return lines


def path_marks(seen: Preview, lang: str) -> dict[Tile, str]:
    """The written step numbers on the tiles her own piece enters (``→2`` on the tile step 2 ends a move on)."""
    marks: dict[Tile, str] = {}
    for s in seen.steps:
        if s.robot:
            continue
        for t in s.path:
            mark = render(lang, "sheet.map.step", n=s.number)
            if not marks.get(t, "").endswith(mark):
                marks[t] = marks.get(t, "") + mark
    return marks


def view_ops(state: State, seat: int, lang: str, tab: str, top: int, noise: Iterable[Tile] = (),
             formats: bool = True, seen: Preview | None = None) -> list[Op]:
    """One player's map view drawn from sheet row ``top``: the board, boards, traps, the passages they know,
    their noise markers (a hunter), where they are and (``seen``) where their order takes them."""
    p = state.players[seat]
    marks: dict[Tile, str] = {t: render(lang, "sheet.map.trap") for t in state.traps}
    for t in noise:
        marks[t] = marks.get(t, "") + render(lang, "sheet.map.noise")
    if p.in_play:
        marks[p.pos] = marks.get(p.pos, "") + render(lang, "sheet.map.you")
    for t, mark in (path_marks(seen, lang) if seen is not None else {}).items():
        marks[t] = marks.get(t, "") + mark
    return mapcells.draw(tab, state.board, top, lang, marks, state.boards, known_passages(state, seat), formats)


def history_ops(state: State, seat: int, lang: str, key: str, events: Iterable[Event], editors: tuple[str, ...]
                ) -> list[Op]:
    """The stage's map view kept in the player's Map history tab, one block a stage at rows fixed by the stage
    (a title row, the map, its letters row, a blank row), so a repeated publish writes the same cells. Maps in
    cells rather than pictures: the same on Google and in an .xlsx, and the port writes cells only. The tab is
    added if the workbook predates it."""
    tab = layout.tab(lang, "maps")
    h = state.board.height
    top = (stage_index(key) - 1) * (h + 3) + 1
    night, stage = parse_key(key)
    words = render(lang, "sheet.cur.stage_value", night=night, stage=name(lang, "word", stage))
    p = state.players[seat]
    noise = noise_tiles(events, seat) if p.is_hunter else []
    title = render(lang, "sheet.maps.title", stage_words=words, key=key)
    ops: list[Op] = [AddTab(tab), Protect(tab, editors, "sheetgm:maps"),
                     SetValues(layout.rng(tab, f"A{top}"), ((title,),)),
                     SetBold(layout.rng(tab, f"A{top}"))]
    return ops + view_ops(state, seat, lang, tab, top + 1, noise)


def _skills(p: Player, lang: str) -> str:
    """What the role can use tonight, with its tag, cost and uses left (R-ROLE-*)."""
    parts = []
    for skill, tag, cost, left in skills_of(p):
        details = [render(lang, f"sheet.tag.{tag}")]
        if cost:
            details.append(render(lang, "sheet.cur.cost", n=cost))
        if left is not None:
            details.append(render(lang, "sheet.cur.uses_left", n=left))
        parts.append(render(lang, "sheet.cur.skill", skill=name(lang, "skill", skill),
                            details=render(lang, "sheet.cur.detail_sep").join(details)))
    return render(lang, "word.sep").join(parts) or render(lang, "word.none")


def known_passages(state: State, seat: int | None = None) -> list[Tile]:
    """Passage ends the seat knows (None: everyone: the map's own), R-MAP-7, RUL-36."""
    return [t for pa in passages.known_passages(state, seat) for t in pa.ends]
