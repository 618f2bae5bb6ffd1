"""The director's desk: overrides (R-DIR-1) and penalty cards (R-CARD) between stages,
and the stage announcement for the forum thread.

A desk action is journaled like a stage (see ``journal.desk_key``): its row keeps the
director's actions (in the orders column), the state after them and its hash, so that
replaying the journal (``replay``) re-applies them. Its inputs are the command line,
not the sheets, so the journal row is written *last*, with the lock release: a run that
dies half-way has changed nothing in the journal and is simply run again.
"""

from __future__ import annotations

from typing import Any

from sheetgm.backends.errors import UnusableWorkbookError
from sheetgm.backends.port import Op, SetValues
from sheetgm.core.cards import give_card, lurking_proposals
from sheetgm.core.errors import SheetgmError
from sheetgm.core.events import Event
from sheetgm.core.observe import director_log, event_line, name, public_log
from sheetgm.core.override import GAME_FIELDS, PLAYER_FIELDS, apply_override
from sheetgm.core.state import State
from sheetgm.core.texts import render
from sheetgm.core.values import field, record
from sheetgm.render import bbcode
from sheetgm.service.errors import ServiceError
from sheetgm.service.game import DIRECTOR, PUBLIC, Game, player_key
from sheetgm.service.ledger.journal import (
    DESK_FIRST_ROW,
    PUBLISHED,
    RESOLVED,
    SUPERSEDED,
    Entry,
    desk_key,
    digest,
    entry_hash,
    entry_row,
    latest,
    pack,
    read_director,
    release_op,
    split_desk_key,
)
from sheetgm.service.ledger.lock import holding
from sheetgm.service.timing.deadlines import deadline_of, local_time
from sheetgm.service.workbooks import news, stagemap
from sheetgm.service.workbooks.sheetorders import read_sheet
from sheetgm.sheets import layout, player
from sheetgm.sheets.limits import fit
from sheetgm.sheets.public import card_rows, progress_rows
from sheetgm.sheets.stages import SETUP_KEY, log_row

LAST_GRID_ROW = 1000  # Google's default grid; desk rows must stay inside it
GAME_TARGETS = ("game", "全局", "游戏")
COLOUR_WORDS = {"蓝": "blue", "蓝牌": "blue", "黄": "yellow", "黄牌": "yellow", "红": "red", "红牌": "red"}
LURK_COLS = "F{r}:J{r}"  # the lurking record sits right of the card list in the director's Cards tab


@record
class DeskReport:
    key: str
    kind: str
    public_log: str
    warnings: list[str] = field(default_factory=list)
    winner: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "kind": self.kind, "public_log": self.public_log, "warnings": self.warnings,
                "winner": self.winner}


@record
class LurkingReport:
    day: int
    proposals: list[tuple[str, str]]  # (alias, reason)
    applied: DeskReport | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"day": self.day, "proposals": [{"alias": a, "reason": r} for a, r in self.proposals],
                "applied": self.applied.to_dict() if self.applied else None}


# -- replay (also what verify uses) -----------------------------------------------------------

def actions_of(entry: Entry) -> list[dict[str, Any]]:
    """The director's actions a desk entry archived (its orders column)."""
    return entry.actions()


def apply_actions(state: State, actions: list[dict[str, Any]]) -> tuple[State, list[Event]]:
    """Apply desk actions in order; pure, so a replay of the journal gets the same state."""
    events: list[Event] = []
    for a in actions:
        if a["do"] == "override":
            state, evs = apply_override(state, a["target"], a["field"], a["value"], a["reason"])
        else:
            state, evs = give_card(state, a["seat"], a["colour"], a["reason"], a.get("source", "director"),
                                   bool(a.get("declare_loss")))
        events += evs
    return state, events


def replay(state: State, entry: Entry) -> tuple[State, list[Event]]:
    """Re-apply a desk entry to the state before it (``entry_hash`` of the result is ``entry.state_hash``)."""
    return apply_actions(state, actions_of(entry))


# -- lookups -----------------------------------------------------------------------------------

def seat_of(state: State, alias: str) -> int:
    """The seat of the player the director names (``State.by_alias``: case folded, as orders name players)."""
    p = state.by_alias(alias)
    if p is not None:
        return p.seat
    known = ", ".join(p.alias for _s, p in sorted(state.players.items()) if not p.is_robot)
    raise ServiceError("err.desk.unknown_alias", alias=alias, known=known)


def field_of(lang: str, text: str) -> str:
    """An override field by its engine name or its name in the texts ("hp", "HP", "体力")."""
    want = text.strip().lower()
    for f in PLAYER_FIELDS + GAME_FIELDS:
        if want in (f, render(lang, f"field.{f}").lower(), render("en", f"field.{f}").lower()):
            return f
    return text.strip()


def colour_of(text: str) -> str:
    want = text.strip().lower()
    return COLOUR_WORDS.get(want, want)


def current(game: Game) -> tuple[list[Entry], list[str], Entry]:
    entries, lock = read_director(game)
    cur = latest(entries)
    if cur.status == RESOLVED:
        raise ServiceError("err.desk.unpublished", stage=cur.key)
    return entries, lock, cur


def base_of(key: str) -> str:
    desk = split_desk_key(key)
    return desk[0] if desk else key


# -- the use cases -------------------------------------------------------------------------------

def override(game: Game, target: str, field_name: str, value: str, reason: str, holder: str = "sheetgm"
             ) -> DeskReport:
    """R-DIR-1: set one value of a player (by alias) or of the game ("game")."""
    entries, lock, cur = current(game)
    state = cur.state(game.board)
    seat = None if target.strip().lower() in GAME_TARGETS else seat_of(state, target)
    action = {"do": "override", "target": seat, "field": field_of(game.lang, field_name), "value": value,
              "reason": reason}
    return _commit(game, entries, lock, cur, "override", [action], holder)


def give(game: Game, alias: str, colour: str, reason: str, declare_loss: bool = False, holder: str = "sheetgm"
         ) -> DeskReport:
    """R-CARD: give a card (merges, red-card exit and camp loss are the engine's)."""
    entries, lock, cur = current(game)
    seat = seat_of(cur.state(game.board), alias)
    action = {"do": "card", "seat": seat, "colour": colour_of(colour), "reason": reason, "source": "director",
              "declare_loss": declare_loss}
    return _commit(game, entries, lock, cur, "card", [action], holder)


def lurking(game: Game, day: int, posts: dict[str, int], no_vote: list[str], accelerated: bool = False,
            apply: bool = False, holder: str = "sheetgm") -> LurkingReport:
    """R-CARD-4: record the day's post counts and votes; propose (and with ``apply`` give) the yellow cards."""
    if day < 1:
        raise ServiceError("err.desk.bad_day", day=day)
    entries, lock, cur = current(game)
    state = cur.state(game.board)
    counts = {seat_of(state, a): n for a, n in posts.items()}
    missed = {seat_of(state, a) for a in no_vote}
    voted = {s: s not in missed for s in state.players}
    found = lurking_proposals(state, counts, voted, accelerated)
    proposals: list[tuple[int, str]] = []
    for seat, engine_reason in found:
        key = "desk.lurk.no_vote" if engine_reason.endswith("no vote") else "desk.lurk.posts"
        proposals.append((seat, render(game.lang, key, day=day, n=counts.get(seat, 0))))  # the card's reason
    game.gateway.write(DIRECTOR, _lurk_ops(game, state, day, counts, voted, dict(proposals), accelerated))
    rep = LurkingReport(day, [(state.players[s].alias, r) for s, r in proposals])
    if apply and proposals:
        actions = [{"do": "card", "seat": s, "colour": "yellow", "reason": r, "source": "lurking",
                    "declare_loss": False} for s, r in proposals]
        rep.applied = _commit(game, entries, lock, cur, "card", actions, holder)
    return rep


def cards(game: Game) -> list[dict[str, Any]]:
    """Every card of the game so far, in the order given (merged ones flagged)."""
    _entries, _lock, cur = current(game)
    state = cur.state(game.board)
    return [{"night": c.night, "seat": c.seat, "alias": state.players[c.seat].alias, "colour": c.colour,
             "reason": c.reason, "source": c.source, "merged": c.merged} for c in state.cards]


def announcement(game: Game, stage: str | None = None, fmt: str = "bbcode", lang: str | None = None,
                 with_map: bool = False, map_url: str | None = None) -> str:
    """A stage's public announcement in one language (the director's by default), ready to paste."""
    if fmt not in bbcode.FORMATS:
        raise ServiceError("err.desk.bad_format", format=fmt, formats=", ".join(bbcode.FORMATS))
    return bbcode.render_doc(announcement_doc(game, stage, lang or game.lang, with_map, map_url), fmt)


def announcement_doc(game: Game, stage: str | None, lang: str, with_map: bool = False,
                     map_url: str | None = None) -> list[bbcode.Block]:
    """The blocks of a stage's announcement (public events, rulings after it, progress, cards, end) in ``lang``.

    ``stage`` as rollback takes it ("N2" is N2-survivor); ``with_map`` adds the stage's public map picture in
    that language at its address on the web (``stagemap.map_link``: ``map_url`` or game.toml's)."""
    entries, _lock = read_director(game)
    live = [e for e in entries if e.status != SUPERSEDED]
    stages = [e.key for e in live if e.kind == "stage" and e.key != SETUP_KEY]
    key = _stage(stage) if stage else (stages[-1] if stages else "")
    if key not in stages:
        raise ServiceError("err.desk.no_stage", stage=stage or "-", known=", ".join(stages) or "-")
    at = next(e for e in live if e.key == key)
    after = [e for e in live if e.kind != "stage" and base_of(e.key) == key]
    last = after[-1] if after else at
    state = last.state(game.board)
    nxt = None
    if not state.over():
        due = f"N{state.night}-{state.stage}"
        when = deadline_of(game, due)
        nxt = (state.night, state.stage, local_time(game, when, lang) if when else None)
    picture = stagemap.map_link(game, at, map_url, lang) if with_map else None
    return bbcode.announcement(lang, game.cfg.name, at.events(), [ev for e in after for ev in e.events()], state,
                               nxt, picture)


def _stage(text: str) -> str:
    """A stage key as rollback reads it ("N2" alone is N2-survivor); text that is no key is kept, so that the
    error lists the stages there are."""
    from sheetgm.service.rollback import stage_arg

    try:
        return stage_arg(text)
    except SheetgmError:
        return text.strip()


# -- writing a desk entry ------------------------------------------------------------------------

def _commit(game: Game, entries: list[Entry], lock: list[str], cur: Entry, kind: str,
            actions: list[dict[str, Any]], holder: str) -> DeskReport:
    base = base_of(cur.key)
    if base == SETUP_KEY:
        raise ServiceError("err.desk.before_first_stage")
    before = cur.state(game.board)
    new, events = apply_actions(before, actions)
    n = 1 + max((d[2] for d in (split_desk_key(e.key) for e in entries) if d), default=0)
    key = desk_key(base, kind, n)
    if entry_row(key) > LAST_GRID_ROW:
        raise ServiceError("err.desk.full", first=DESK_FIRST_ROW, last=LAST_GRID_ROW)
    entry = Entry(key, PUBLISHED, digest(actions), entry_hash(new, events), game.cfg.seed,
                  game.now().isoformat(timespec="seconds"), pack(new.to_dict()),
                  pack([e.to_dict() for e in events]), pack(actions))
    with holding(game, lock, holder) as held:
        if held.entries != entries:  # another run changed the game between our read and the lock
            raise ServiceError("err.svc.changed_meanwhile")
        warnings = _publish(game, [*entries, entry], entry, before, new, events, actions)
    return DeskReport(key, kind, public_log(events, game.voice), warnings, new.winner)


def _touched(game: Game, before: State, new: State, actions: list[dict[str, Any]]) -> list[int]:
    if new.winner != before.winner or new.stage != before.stage:
        return game.seats
    seats = {a.get("target") if a["do"] == "override" else a.get("seat") for a in actions}
    return [s for s in game.seats if s in seats]


def _publish(game: Game, entries: list[Entry], entry: Entry, before: State, new: State, events: list[Event],
             actions: list[dict[str, Any]]) -> list[str]:
    warnings: list[str] = []
    for seat in _touched(game, before, new, actions):
        lang = game.seat_lang(seat)
        sheet = read_sheet(game, seat)  # whose it is, and where the stage due is now
        if sheet.trouble:
            warnings.append(sheet.trouble)
            continue
        ops = player.current_ops(new, seat, lang, (), formats=False)
        ops += player.open_row_ops(new, seat, lang, game.editors(), sheet.tab)
        try:
            game.gateway.write(player_key(seat), ops)
        except UnusableWorkbookError as exc:
            warnings.append(render(game.voice, "svc.player_unwritable", alias=game.alias(seat), seat=seat,
                                   reason=exc.message(game.voice)))
    lang = game.lang
    base = base_of(entry.key)
    r = log_row(base)
    added = news.missing_langs(game)
    public: list[Op] = news.added_tabs_ops(game, added)
    for pub in game.langs:  # the ruling in every reader's language, on the row of the stage it follows
        if pub in added:
            public += news.backfill_ops(pub, entries, base)
        public += [
            SetValues(layout.rng(layout.tab(pub, "log"), f"A{r}:B{r}"),
                      ((base, fit(news.log_text(entries, base, pub), pub, "svc.cut_log", stage=base)),)),
            SetValues(layout.rng(layout.tab(pub, "progress"), "A2:B20"), progress_rows(new, pub)),
            SetValues(layout.rng(layout.tab(pub, "cards"), "A2:D200"), card_rows(new, pub)),
        ]
    game.gateway.write(PUBLIC, public)
    d = entry_row(entry.key)
    emails = [s.email for s in game.cfg.roster]
    game.gateway.write(DIRECTOR, [
        SetValues(layout.rng(layout.tab(lang, "log"), f"A{d}:B{d}"),
                  ((entry.key, director_log(events, lang, new).strip()),)),
        SetValues(layout.rng(layout.tab(lang, "overrides"), "A2:E500"), _override_rows(game, entries)),
        SetValues(layout.rng(layout.tab(lang, "cards"), "A2:D200"), card_rows(new, lang)),
        SetValues(layout.rng(layout.tab(lang, "roster"), "A2"), layout.roster_rows(new, emails, lang)),
        entry.op(lang),
        release_op(lang),
    ])
    return warnings


def _override_rows(game: Game, entries: list[Entry]) -> tuple[tuple[str, ...], ...]:
    """The Overrides tab: every override ever made, superseded ones (after a rollback) marked."""
    lang = game.lang
    rows = []
    for e in entries:
        if e.kind != "override":
            continue
        stage = base_of(e.key) + (f" ({render(lang, 'desk.superseded')})" if e.status == SUPERSEDED else "")
        for a, ev in zip(actions_of(e), [v for v in e.events() if v.kind == "override"], strict=False):
            seat = a.get("target")
            who = f"{seat} {ev.params.get('target', '')}" if seat is not None else render(lang, "word.game")
            rows.append((local_time(game, e.time, lang), stage, who, event_line(ev, lang), str(a.get("reason", ""))))
    return tuple(rows)


def _lurk_ops(game: Game, state: State, day: int, counts: dict[int, int], voted: dict[int, bool],
              proposals: dict[int, str], accelerated: bool) -> list[Op]:
    lang = game.lang
    tab = layout.tab(lang, "cards")
    heads = tuple(render(lang, "desk.lurk.head").split("|"))
    ops: list[Op] = [SetValues(layout.rng(tab, "F1:J1"), (heads,))]
    seats = len(game.seats)
    for seat in game.seats:
        r = (day - 1) * seats + seat + 1
        if accelerated:
            verdict = render(lang, "desk.lurk.accelerated")
        else:
            verdict = proposals.get(seat, "") or render(lang, "word.none")
        yes = render(lang, "word.yes" if voted.get(seat, True) else "word.no")
        row = (str(day), state.players[seat].alias, str(counts.get(seat, 0)), yes, verdict)
        ops.append(SetValues(layout.rng(tab, LURK_COLS.format(r=r)), (row,)))
    return ops



# -- plain-text summaries for the command line ------------------------------------------------

def describe(lang: str, rep: DeskReport) -> str:
    lines = [render(lang, "desk.done", key=rep.key)]
    if rep.public_log:
        lines.append(rep.public_log.rstrip())
    lines += [f"! {w}" for w in rep.warnings]
    if rep.winner:
        lines.append(render(lang, "cli.winner", winner=render(lang, f"word.{rep.winner}")))
    return "\n".join(lines)


def describe_cards(lang: str, rows: list[dict[str, Any]]) -> str:
    if not rows:
        return render(lang, "desk.no_cards")
    out = []
    for c in rows:
        merged = f" ({render(lang, 'desk.merged')})" if c["merged"] else ""
        reason = render(lang, "desk.pub.merge_reason") if c["source"] == "merge" else c["reason"]
        out.append(f"N{c['night']}  {c['alias']}  {name(lang, 'word', c['colour'])}{merged}  {reason}")
    return "\n".join(out)


def describe_lurking(lang: str, rep: LurkingReport) -> str:
    lines = [render(lang, "desk.lurk.recorded", day=rep.day)]
    if not rep.proposals:
        lines.append(render(lang, "desk.lurk.none"))
    lines += [f"  {alias}: {reason}" for alias, reason in rep.proposals]
    if rep.applied:
        lines.append(describe(lang, rep.applied))
    elif rep.proposals:
        lines.append(render(lang, "desk.lurk.hint"))
    return "\n".join(lines)

