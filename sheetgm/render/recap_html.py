"""The recap page (`sheetgm recap`): one self-contained HTML file that steps through a whole game.

Pure: the page is made from a ``Recap`` (the journal's stages, each with its map already drawn as a PNG, the
events and the cast) and the templates, with the standard library only. Nothing in it is fetched: the maps are
``data:`` URIs, the styles and the few lines of script are inline, fonts are the reader's own, and a
Content-Security-Policy forbids every other source. With scripts on, the page shows one stage at a time
(buttons, the arrow keys, Home/End, ``#N2-hunter``, ``#first`` or ``#last`` in the address; the last stage
when none is named); with scripts off, every stage is shown in order, the last one last.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Sequence
from html import escape

from sheetgm.core.events import Event
from sheetgm.core.observe import event_line, name
from sheetgm.core.texts import render
from sheetgm.core.values import Value, record

END_MARK = "#ffd600"  # the game-over banner of the last stage: nowhere else on the page, nor on the maps
SECRET_MARK = "#c62828"  # the director's copy (the seed's directors own red: #FF0000 and the like)
NAV_COLOUR = "#eceff1"  # the bar of buttons, shown only when the script runs
HIDDEN_KINDS = ("stage_start", "points_left")  # bookkeeping the reader does not need: the heading says the stage
CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'"


@record(frozen=True)
class Step(Value):
    """One stage of the replay: the map after it (and after the director's rulings that followed it)."""

    key: str  # the stage key, N2-hunter: the section's id
    night: int
    stage: str  # setup | survivor | hunter
    png: bytes
    width: int
    height: int
    events: tuple[Event, ...]
    rulings: tuple[Event, ...]  # the events of the desk entries (overrides, cards) made after the stage
    progress: str  # as players see it: 12/16
    gates_powered: bool
    escaped: int
    eliminated: int


@record(frozen=True)
class CastRow(Value):
    seat: int
    alias: str
    camp: str
    role: str | None
    status: str
    result: str | None  # won | lost | draw; None while the game goes on
    colour: str  # the player's colour on the maps


@record(frozen=True)
class Recap(Value):
    game: str
    map_title: str
    steps: tuple[Step, ...]
    cast: tuple[CastRow, ...]
    names: dict[int, str]  # seat -> alias, the Mechanic's robot (seat 100 + hers) included
    winner: str | None
    end_reason: str | None
    director_copy: bool  # the game is not over: the director's own copy, marked as such
    next_stage: str | None  # the stage due, for the director's copy
    last_time: str  # when the last journal entry was made, as a person reads it (zone and offset named)


def _t(lang: str, key: str, **params: object) -> str:
    """A template, escaped for HTML."""
    return escape(render(lang, key, **params))


def step_title(lang: str, step: Step) -> str:
    if step.stage == "setup":
        return render(lang, "recap.setup")
    return render(lang, "recap.step", night=step.night, stage=name(lang, "word", step.stage))


def _short(lang: str, step: Step) -> str:
    return render(lang, f"recap.short.{step.stage}", night=step.night)


def _who(lang: str, names: dict[int, str], seat: int) -> str:
    alias = names.get(seat, f"#{seat}")
    if alias.endswith("#robot"):
        return render(lang, "recap.robot_of", owner=alias.removesuffix("#robot"))
    return alias


def groups(events: Iterable[Event]) -> tuple[list[Event], dict[int, list[Event]], list[Event]]:
    """The public events; everything else by the seat it is about (its actor, else the first seat told); and
    what only the director knew (no actor, nobody told)."""
    public: list[Event] = []
    by_seat: dict[int, list[Event]] = {}
    director: list[Event] = []
    for e in events:
        if e.kind in HIDDEN_KINDS:
            continue
        if e.public:
            public.append(e)
            continue
        seat = e.actor if e.actor is not None else (e.to[0] if e.to else None)
        if seat is None:
            director.append(e)
        else:
            by_seat.setdefault(seat, []).append(e)
    return public, by_seat, director


def _lines(lang: str, events: Sequence[Event]) -> str:
    return "<ul>" + "".join(f"<li>{escape(event_line(e, lang))}</li>" for e in events) + "</ul>"


def _swatch(colour: str) -> str:
    return f'<span class="sw" style="background:{escape(colour)}"></span>'


def _log(lang: str, recap: Recap, step: Step, colours: dict[int, str]) -> str:
    public, by_seat, director = groups(step.events)
    out = [f"<h3>{_t(lang, 'recap.public')}</h3>"]
    out.append(_lines(lang, public) if public else f"<p class=\"quiet\">{_t(lang, 'recap.quiet')}</p>")
    if step.rulings:
        out += [f"<h3>{_t(lang, 'recap.rulings')}</h3>", _lines(lang, step.rulings)]
    if by_seat:
        out.append(f"<h3>{_t(lang, 'recap.private')}</h3>")
        roles = {r.seat: r.role for r in recap.cast}
        for seat in sorted(by_seat):
            owner = seat - 100 if seat > 100 else seat  # the robot in its Mechanic's colour
            who = _who(lang, recap.names, seat)
            if seat in roles:
                who = render(lang, "recap.who", alias=who, role=name(lang, "role", roles[seat]))
            out.append(f"<h4>{_swatch(colours.get(owner, '#757575'))}{escape(who)}</h4>")
            out.append(_lines(lang, by_seat[seat]))
    if director:
        out += [f"<h3>{_t(lang, 'recap.director_notes')}</h3>", _lines(lang, director)]
    return "".join(out)


def _over(lang: str, recap: Recap) -> str:
    reason = name(lang, "word", recap.end_reason) if recap.end_reason else ""
    return render(lang, f"recap.over.{recap.winner}", reason=reason)


def _step(lang: str, recap: Recap, step: Step, last: bool, colours: dict[int, str]) -> str:
    title = step_title(lang, step)
    summary = render(lang, "recap.summary", progress=step.progress, escaped=step.escaped,
                     eliminated=step.eliminated,
                     gates=render(lang, "render.gates_on" if step.gates_powered else "render.gates_off"))
    img = base64.b64encode(step.png).decode("ascii")
    alt = render(lang, "recap.map_alt", stage=title)
    parts = [f'<section class="step" id="{escape(step.key)}"><h2>{escape(title)}</h2>']
    if last and recap.winner:
        parts.append(f'<p class="over">{escape(_over(lang, recap))}</p>')
    parts.append(f'<p class="summary">{escape(summary)}</p><div class="body">'
                 f'<figure><img src="data:image/png;base64,{img}" width="{step.width}" height="{step.height}" '
                 f'alt="{escape(alt)}"></figure><div class="log">{_log(lang, recap, step, colours)}</div></div>')
    return "".join(parts) + "</section>"


def _cast(lang: str, recap: Recap) -> str:
    heads = "".join(f"<th>{_t(lang, f'recap.cast.{c}')}</th>"
                    for c in ("seat", "alias", "camp", "role", "status", "result"))
    rows = []
    for r in recap.cast:
        result = render(lang, f"word.result_{r.result}") if r.result else render(lang, "recap.cast.playing")
        won = ' class="won"' if r.result == "won" else ""
        rows.append(f"<tr{won}><td>{r.seat}</td><td>{_swatch(r.colour)}{escape(r.alias)}</td>"
                    f"<td>{_t(lang, f'recap.camp.{r.camp}')}</td><td>{escape(name(lang, 'role', r.role))}</td>"
                    f"<td>{escape(name(lang, 'word', r.status))}</td><td>{escape(result)}</td></tr>")
    return (f'<section id="cast"><h2>{_t(lang, "recap.cast.title")}</h2>'
            f"<table><thead><tr>{heads}</tr></thead><tbody>{''.join(rows)}</tbody></table></section>")


def _nav(lang: str, recap: Recap) -> str:
    buttons = "".join(f'<button type="button" id="go-{b}" title="{_t(lang, f"recap.nav.{b}_key")}">'
                      f"{_t(lang, f'recap.nav.{b}')}</button>" for b in ("first", "prev", "next", "last"))
    return (f'<nav id="nav" hidden>{buttons}<span id="pos"></span>'
            f'<span class="hint">{_t(lang, "recap.nav.hint")}</span></nav>')


def _toc(lang: str, recap: Recap) -> str:
    links = "".join(f'<li><a href="#{escape(s.key)}">{escape(_short(lang, s))}</a></li>' for s in recap.steps)
    return f'<ol class="toc" aria-label="{_t(lang, "recap.toc")}">{links}</ol>'


STYLE = """
[hidden]{display:none!important}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI","PingFang SC","Hiragino Sans GB","Microsoft YaHei",
"Noto Sans CJK SC","Source Han Sans SC","WenQuanYi Micro Hei",sans-serif;color:#212121;background:#fafafa}
header{padding:10px 20px;background:#263238;color:#fff}
h1{margin:0;font-size:22px}
header p{margin:4px 0 0}
.secret{background:@SECRET@;color:#fff;padding:8px 20px;font-weight:bold}
.toc{list-style:none;margin:6px 0 0;padding:0;display:flex;flex-wrap:wrap;gap:4px}
.toc a{color:#fff;background:#37474f;border-radius:3px;padding:0 6px;text-decoration:none;font-size:13px}
nav{position:sticky;top:0;z-index:1;background:@NAV@;padding:6px 20px;border-bottom:1px solid #cfd8dc;
display:flex;gap:6px;align-items:center;flex-wrap:wrap}
nav button{font:inherit;padding:2px 12px;cursor:pointer}
#pos{font-weight:bold;margin:0 8px}
.hint{color:#616161;font-size:13px}
.step{padding:10px 20px;border-top:2px solid #cfd8dc}
.step h2{font-size:19px;margin:0 0 4px}
.over{background:@END@;color:#212121;padding:8px 14px;font-weight:bold;font-size:18px;margin:0 0 6px}
.summary{margin:0 0 8px;color:#455a64}
.body{display:flex;gap:16px;align-items:flex-start;flex-wrap:wrap}
figure{margin:0;flex:0 1 62%;min-width:300px}
figure img{display:block;max-width:100%;height:auto;border:1px solid #b0bec5}
.js figure img{max-height:calc(100vh - 190px);width:auto}
.log{flex:1 1 300px;min-width:260px;font-size:14px}
.js .log{max-height:calc(100vh - 190px);overflow:auto}
.log h3{font-size:15px;margin:6px 0 2px}
.log h4{font-size:14px;margin:6px 0 0}
.log ul{margin:0;padding-left:20px}
.quiet{color:#757575;margin:0}
.sw{display:inline-block;width:11px;height:11px;border-radius:50%;margin-right:5px;vertical-align:baseline}
#cast{padding:10px 20px 20px;border-top:2px solid #cfd8dc}
#cast table{border-collapse:collapse}
#cast th,#cast td{border:1px solid #cfd8dc;padding:3px 10px;text-align:left}
#cast th{background:#eceff1}
#cast tr.won td{font-weight:bold}
footer{padding:8px 20px;color:#757575;font-size:13px}
""".replace("@SECRET@", SECRET_MARK).replace("@END@", END_MARK).replace("@NAV@", NAV_COLOUR)

SCRIPT = """(function(){
var s=[].slice.call(document.querySelectorAll('section.step')),pos=document.getElementById('pos'),i=s.length-1;
if(!s.length)return;document.body.classList.add('js');document.getElementById('nav').hidden=false;
function show(n,mark){i=Math.max(0,Math.min(s.length-1,n));s.forEach(function(e,k){e.hidden=k!==i;});
pos.textContent=(i+1)+' / '+s.length;if(mark){try{history.replaceState(null,'','#'+s[i].id);}catch(e){}}}
function named(){var h=decodeURIComponent(location.hash.slice(1));if(h==='first')return 0;
for(var k=0;k<s.length;k++){if(s[k].id===h)return k;}return s.length-1;}
var go={first:function(){return 0;},prev:function(){return i-1;},next:function(){return i+1;},
last:function(){return s.length-1;}};
Object.keys(go).forEach(function(b){document.getElementById('go-'+b).onclick=function(){show(go[b](),1);};});
document.addEventListener('keydown',function(e){if(e.altKey||e.ctrlKey||e.metaKey)return;
var k={ArrowLeft:'prev',PageUp:'prev',ArrowRight:'next',PageDown:'next',Home:'first',End:'last'}[e.key];
if(k){show(go[k](),1);e.preventDefault();}});
window.addEventListener('hashchange',function(){show(named());});show(named());})();"""


def page(recap: Recap, lang: str) -> str:
    """The whole page, in ``lang``."""
    colours = {r.seat: r.colour for r in recap.cast}
    title = render(lang, "recap.title", game=recap.game)
    head = (f'<!DOCTYPE html>\n<html lang="{"zh-Hans" if lang == "zh" else "en"}"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}{_t(lang, 'recap.secret_title') if recap.director_copy else ''}</title>"
            f"<style>{STYLE}</style></head>")
    top = [f"<header><h1>{escape(title)}</h1>", f"<p>{_t(lang, 'recap.map', map=recap.map_title)}</p>"]
    if recap.winner:
        top.append(f'<p class="result"><b>{escape(_over(lang, recap))}</b></p>')
    else:
        top.append(f"<p>{_t(lang, 'recap.going_on', stage=recap.next_stage or '-')}</p>")
    top.append(_toc(lang, recap) + "</header>")
    if recap.director_copy:
        top.append(f'<p class="secret">{_t(lang, "recap.secret")}</p>')
    last = len(recap.steps) - 1
    steps = "".join(_step(lang, recap, s, i == last, colours) for i, s in enumerate(recap.steps))
    foot = f"<footer>{_t(lang, 'recap.footer', n=len(recap.steps), time=recap.last_time)}</footer>"
    body = f"<body>{''.join(top)}{_nav(lang, recap)}<main>{steps}</main>{_cast(lang, recap)}{foot}"
    return f"{head}{body}<script>{SCRIPT}</script></body></html>\n"
