"""A stage's public announcement as forum BBCode (Discuz style) or plain text.

The announcement is built from public events and public state only (progress,
gates, escaped and eliminated players, cards, the winner): the same things the
public workbook shows. It is first a small document (blocks of spans), then
rendered; so BBCode and plain text always say the same.

Discuz has no [hr]: a rule is a line of ``─``. The director's reserved red
(#FF0000) and enlarged size are used only for the director's own headings (the
title and the game-over banner) and for red cards; text that comes from
players (aliases, reasons) is escaped so it can never open a tag (in the plain
text too: a forum reads BBCode in whatever is pasted).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sheetgm.core.events import Event
from sheetgm.core.observe import event_line, name, shown_progress
from sheetgm.core.state import State
from sheetgm.core.texts import render
from sheetgm.core.values import Value, record

FORMATS = ("bbcode", "plain")
DIRECTOR_RED = "#FF0000"
TITLE_SIZE = 5
HEADING_COLOUR = "#1F4E79"
CARD_COLOURS = {"blue": "#1E6FD9", "yellow": "#D4A017", "red": DIRECTOR_RED}
ESCAPED_COLOUR = "#2E8B57"
ELIMINATED_COLOUR = "#808080"
RULE = "─" * 30


@record(frozen=True)
class Span(Value):
    text: str
    colour: str | None = None
    bold: bool = False


Line = tuple[Span, ...]


@record(frozen=True)
class Block(Value):
    kind: str  # title | heading | items | quote | para | rule | image (lines: one span, the picture's URL or path)
    lines: tuple[Line, ...] = ()


def line(*parts: str | Span) -> Line:
    return tuple(p if isinstance(p, Span) else Span(p) for p in parts)


# -- rendering ----------------------------------------------------------------------------------

def escape(text: str) -> str:
    """Player text cannot open or close a tag: brackets become their full-width forms."""
    return text.replace("[", "［").replace("]", "］")


def _bb_span(s: Span) -> str:
    out = escape(s.text)
    if s.bold:
        out = f"[b]{out}[/b]"
    if s.colour:
        out = f"[color={s.colour}]{out}[/color]"
    return out


def _bb_line(ln: Line) -> str:
    return "".join(_bb_span(s) for s in ln)


def to_bbcode(doc: Sequence[Block]) -> str:
    out: list[str] = []
    for b in doc:
        if b.kind == "title":
            out += [f"[size={TITLE_SIZE}][color={DIRECTOR_RED}][b]{escape(''.join(s.text for s in ln))}[/b][/color]"
                    f"[/size]" for ln in b.lines]
        elif b.kind == "heading":
            out += [f"[b][color={HEADING_COLOUR}]{escape(''.join(s.text for s in ln))}[/color][/b]" for ln in b.lines]
        elif b.kind == "items":
            out.append("[list]")
            out += [f"[*]{_bb_line(ln)}" for ln in b.lines]
            out.append("[/list]")
        elif b.kind == "quote":
            out.append("[quote]" + "\n".join(_bb_line(ln) for ln in b.lines) + "[/quote]")
        elif b.kind == "rule":
            out.append(RULE)
        elif b.kind == "image":
            out += [f"[img]{''.join(s.text for s in ln)}[/img]" for ln in b.lines]
        else:
            out += [_bb_line(ln) for ln in b.lines]
    return "\n".join(out) + "\n"


def to_plain(doc: Sequence[Block]) -> str:
    out: list[str] = []
    for b in doc:
        texts = [escape("".join(s.text for s in ln)) for ln in b.lines]
        if b.kind == "title":
            out += [f"【{t}】" for t in texts]
        elif b.kind == "heading":
            out += [f"■ {t}" for t in texts]
        elif b.kind == "items":
            out += [f"  • {t}" for t in texts]
        elif b.kind == "quote":
            out += [f"  > {t}" for t in texts]
        elif b.kind == "rule":
            out.append(RULE)
        elif b.kind == "image":
            out += ["".join(s.text for s in ln) for ln in b.lines]
        else:
            out += texts
    return "\n".join(out) + "\n"


def render_doc(doc: Sequence[Block], fmt: str) -> str:
    return to_bbcode(doc) if fmt == "bbcode" else to_plain(doc)


# -- the announcement -----------------------------------------------------------------------------

def _aliases(state: State, seats: Iterable[int], colour: str, lang: str) -> list[Span]:
    spans: list[Span] = []
    for i, s in enumerate(seats):
        if i:
            spans.append(Span(render(lang, "word.sep")))
        spans.append(Span(state.players[s].alias, colour))
    return spans or [Span(render(lang, "word.none"))]


def _progress(state: State, lang: str) -> Block:
    gates = render(lang, "word.yes" if state.gates_powered else "word.no")
    reds = [s for s, p in sorted(state.players.items()) if p.status == "red_carded"]
    lines = [
        line(f"{render(lang, 'sheet.prog.progress')}: ", Span(shown_progress(state), bold=True)),
        line(f"{render(lang, 'sheet.prog.gates')}: ", Span(gates, bold=True)),
        line(f"{render(lang, 'sheet.prog.escaped')}: ", *_aliases(state, state.escaped, ESCAPED_COLOUR, lang)),
        line(f"{render(lang, 'sheet.prog.eliminated')}: ",
             *_aliases(state, state.eliminated, ELIMINATED_COLOUR, lang)),
    ]
    if reds:
        lines.append(line(f"{render(lang, 'word.red_carded')}: ", *_aliases(state, reds, ELIMINATED_COLOUR, lang)))
    return Block("items", tuple(lines))


def _cards(state: State, lang: str) -> Block:
    lines = []
    for c in state.cards:
        word = name(lang, "word", c.colour)
        tail = f" ({render(lang, 'desk.merged')})" if c.merged else ""
        reason = render(lang, "desk.pub.merge_reason") if c.source == "merge" else c.reason
        lines.append(line(f"N{c.night} ", Span(state.players[c.seat].alias, bold=True), " ",
                          Span(word, CARD_COLOURS.get(c.colour), bold=True), f"{tail}: {reason}"))
    return Block("items", tuple(lines))


def announcement(lang: str, game_name: str, stage_events: Sequence[Event], desk_events: Sequence[Event],
                 state: State, next_stage: tuple[int, str, str | None] | None, picture: str | None = None
                 ) -> list[Block]:
    """The blocks of one stage's announcement. Only ``public`` events are ever read; ``picture`` is the URL
    (or path) of the stage's public map, shown under the progress."""
    public = [e for e in stage_events if e.public]
    first = stage_events[0] if stage_events else None
    night = first.night if first else state.night
    stage = first.stage if first else state.stage
    doc = [Block("title", (line(render(lang, "desk.pub.title", game=game_name, night=night,
                                       stage=name(lang, "word", stage))),)), Block("rule")]
    doc.append(Block("heading", (line(render(lang, "desk.pub.log")),)))
    if public:
        doc.append(Block("items", tuple(line(event_line(e, lang)) for e in public)))
    else:
        doc.append(Block("para", (line(render(lang, "desk.pub.quiet")),)))
    rulings = [e for e in desk_events if e.public]
    if rulings:
        doc.append(Block("heading", (line(render(lang, "desk.pub.rulings")),)))
        doc.append(Block("quote", tuple(line(event_line(e, lang)) for e in rulings)))
    doc += [Block("rule"), Block("heading", (line(render(lang, "desk.pub.progress")),)), _progress(state, lang)]
    if picture:
        doc += [Block("heading", (line(render(lang, "desk.pub.map")),)), Block("image", (line(picture),))]
    if state.cards:
        doc += [Block("heading", (line(render(lang, "desk.pub.cards")),)), _cards(state, lang)]
    doc.append(Block("rule"))
    if state.winner:
        reason = name(lang, "word", state.end_reason) if state.end_reason else ""
        doc.append(Block("title", (line(render(lang, "desk.pub.over", winner=name(lang, "word", state.winner),
                                               reason=reason)),)))
    elif next_stage is not None:
        n, st, when = next_stage
        key = "desk.pub.next_at" if when else "desk.pub.next"
        doc.append(Block("para", (line(render(lang, key, night=n, stage=name(lang, "word", st), when=when or "")),)))
    return doc
