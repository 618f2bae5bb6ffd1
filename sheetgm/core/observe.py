"""What each player is told (R-SENSE-5/6/7), built only from events and the
player's own state, in zh or en from the templates.

``report`` is the one function that makes a player's private text; the
tests change hidden state and check that this text stays byte-identical.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sheetgm.core.board import tile_name
from sheetgm.core.events import Event
from sheetgm.core.state import MAX_HP, Player, State
from sheetgm.core.texts import has, render

_WORD_PARAMS = ("cause", "how", "source", "mode", "result", "winner", "reason", "stage_name", "colour", "low")
# Fear from a hunter's skill is told without the skill: its name would give away the hunter's role.
_HIDDEN_SOURCES = {"dash": "hunter_skill", "deduction": "hunter_skill"}


def _who(lang: str, alias: str) -> str:
    """The robot is told as "the robot", never by its owner's alias (that would unmask the Mechanic)."""
    return render(lang, "word.robot") if alias.endswith("#robot") else alias


def name(lang: str, kind: str, ident: str | None) -> str:
    if not ident:
        return render(lang, "word.none")
    key = f"{kind}.{ident}"
    return render(lang, key) if has(lang, key) or has("en", key) else ident


def _result(lang: str, result: str | None) -> str:
    """A player's own result (RUL-35): won, lost or draw."""
    return render(lang, f"word.result_{result}")


def _result_entry(lang: str, e: dict[str, Any]) -> str:
    return render(lang, "word.result_entry", alias=e["alias"], camp=name(lang, "camp", e["camp"]),
                  role=name(lang, "role", e["role"]), result=_result(lang, e["result"]))


def _join(lang: str, parts: Sequence[str]) -> str:
    return render(lang, "word.sep").join(parts) if parts else render(lang, "word.none")


def shown_progress(state: State) -> str:
    """The crack progress as players see it, "16/16": never past the target (the state keeps the true total)."""
    target = int(state.opt("crack_target"))
    return f"{min(state.progress, target)}/{target}"


def _params(lang: str, params: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "progress" in params and "target" in params:  # shown capped at the target, like shown_progress
        params = {**params, "progress": min(int(params["progress"]), int(params["target"]))}
    for k, v in params.items():
        if k == "item":
            out[k] = name(lang, "item", v)
        elif k == "items":
            out[k] = _join(lang, [name(lang, "item", i) for i in v])
        elif k == "camp":
            out[k] = name(lang, "camp", v)
        elif k == "role":
            out[k] = name(lang, "role", v)
        elif k == "skill":
            out[k] = name(lang, "skill", v)
        elif k == "results":
            out[k] = _join(lang, [_result_entry(lang, e) for e in v])
        elif k == "found" or k in ("hunters", "survivors"):
            out[k] = _join(lang, [render(lang, "word.at", alias=_who(lang, e["alias"]), tile=e["tile"]) for e in v])
        elif k == "alias":
            out[k] = _who(lang, str(v))
        elif k == "source" and v in _HIDDEN_SOURCES:
            out[k] = name(lang, "word", _HIDDEN_SOURCES[v])
        elif k == "tiles":
            out[k] = _join(lang, list(v))
        elif k in ("direction",):
            out[k] = name(lang, "dir", v)
        elif k == "directions":
            out[k] = _join(lang, [name(lang, "dir", d) if d != "here" else render(lang, "word.here") for d in v])
        elif k in _WORD_PARAMS:
            out[k] = name(lang, "word", str(v))
        elif isinstance(v, bool):
            out[k] = render(lang, "word.yes" if v else "word.no")
        else:
            out[k] = v
    if "code" in params:
        out["reason"] = render(lang, params["code"], **_params(lang, dict(params.get("params", {}))))
    return out


def display_params(lang: str, params: dict[str, Any]) -> dict[str, Any]:
    """Event or problem parameters in words: item, skill and role names, directions, a nested reason."""
    return _params(lang, params)


def _value(lang: str, field: str, v: Any) -> str:
    """An overridden value in words (R-DIR-1 events are public)."""
    if isinstance(v, bool):
        return render(lang, "word.yes" if v else "word.no")
    if v is None:
        return render(lang, "word.none")
    if field == "items":
        return _join(lang, [name(lang, "item", i) for i in v])
    if field in ("status", "winner"):
        return name(lang, "word", str(v))
    return str(v)


def _override_line(ev: Event, lang: str) -> str:
    p = ev.params
    field = str(p.get("field", ""))
    target = p.get("target") or render(lang, "word.game")
    return render(lang, "ev.override", target=_who(lang, str(target)), field=name(lang, "field", field),
                  old=_value(lang, field, p.get("old")), new=_value(lang, field, p.get("new")),
                  reason=p.get("reason", ""))


def event_line(ev: Event, lang: str) -> str:
    if ev.kind == "override":
        return _override_line(ev, lang)
    key = f"ev.{ev.kind}"
    if ev.kind in ("brief_wolfsense",) and not ev.params.get("noisy"):
        key = "ev.brief_wolfsense_quiet"
    if ev.kind == "escaped" and ev.params.get("keys"):
        key = "ev.escaped_keys"
    if ev.kind == "deduction":
        key = "ev.deduction_yes" if ev.params.get("yes") else "ev.deduction_no"
    if ev.kind == "trace" and ev.params.get("distance", 0) < 0:
        key = "ev.trace_none"
    if ev.kind in ("step_failed", "day_failed"):  # quoted as written (RUL-63); an older journal's event has no text
        key += "_quoted" if ev.params.get("text") else ""
        key += "_held" if ev.params.get("held") else ""
    return render(lang, key, **_params(lang, ev.params))


def status_words(lang: str, p: Player) -> list[str]:
    """A player's statuses in words: the one vocabulary of her report and her sheet's Current tab."""
    tags = []
    if p.downed:
        tags.append(render(lang, "word.downed"))
    if p.fear:
        tags.append(render(lang, "word.fear_n", n=p.fear))
    if p.injured:
        tags.append(render(lang, "word.injured"))
    if p.stealth:
        tags.append(render(lang, "word.stealth"))
    if p.escaping:
        tags.append(render(lang, "word.escaping"))
    if p.stunned:  # the hunter learns it in his briefing (RUL-20), which comes with this report
        tags.append(render(lang, "word.stunned"))
    return tags


def _statuses(lang: str, p: Player) -> str:
    return _join(lang, status_words(lang, p))


def _tile_lines(state: State, p: Player, lang: str) -> list[str]:
    st = state
    here = p.pos
    things = []
    if here in st.board.generators:
        things.append(render(lang, "word.generator"))
    if here in st.board.chests:
        things.append(render(lang, "word.chest_full" if st.chests.get(here) else "word.chest_empty"))
    if here in st.board.gates:
        things.append(render(lang, "word.gate"))
    for item in st.lying.get(here, []):
        things.append(render(lang, "word.lying", item=name(lang, "item", item)))
    if st.keys_on.get(here):
        things.append(render(lang, "word.keys_here", n=st.keys_on[here]))
    if here in st.traps:
        things.append(render(lang, "word.trap"))
    lines = [render(lang, "rep.tile", tile=tile_name(here), things=_join(lang, things))]
    others = [o.alias for o in st.at(here, "survivor") if o.seat != p.seat and not o.is_robot]
    if others:
        lines.append(render(lang, "rep.with", aliases=_join(lang, others)))
    return lines


def report(state: State, events: Iterable[Event], seat: int, lang: str | None = None) -> str:
    """A player's private text for the stage just resolved."""
    evs = list(events)
    p = state.players[seat]
    lang = lang or p.lang
    night = evs[0].night if evs else state.night
    stage = evs[0].stage if evs else state.stage
    lines = [render(lang, "rep.header", night=night, stage=name(lang, "word", stage), alias=p.alias,
                    role=name(lang, "role", p.role))]
    if p.is_survivor:
        lines.append(render(lang, "rep.survivor", tile=tile_name(p.pos), hp=p.hp, max=MAX_HP,
                            status=name(lang, "word", p.status), statuses=_statuses(lang, p),
                            items=_join(lang, [name(lang, "item", i) for i in p.items]), keys=p.keys))
    else:
        lines.append(render(lang, "rep.hunter", tile=tile_name(p.pos), statuses=_statuses(lang, p)))
    if p.result:
        lines.append(render(lang, "rep.result", result=_result(lang, p.result)))
    if p.in_play and p.is_survivor:
        lines += _tile_lines(state, p, lang)
    mine = [e for e in evs if e.visible_to(seat) and e.kind not in ("stage_start",)]
    if mine:
        lines.append(render(lang, "rep.events"))
        for e in mine:
            actor = state.players.get(e.actor) if e.actor is not None else None
            robot = render(lang, "word.robot_prefix") if actor is not None and actor.is_robot else ""
            lines.append(f"- {robot}{event_line(e, lang)}")
    return "\n".join(lines) + "\n"


def public_log(events: Iterable[Event], lang: str = "zh") -> str:
    lines = []
    for e in events:
        if e.public:
            lines.append(render(lang, "rep.public_line", night=e.night, text=event_line(e, lang)))
    return "\n".join(lines) + ("\n" if lines else "")


def director_log(events: Iterable[Event], lang: str = "zh", state: State | None = None) -> str:
    lines = []
    for e in events:
        who = ""
        if state is not None and e.actor is not None and e.actor in state.players:
            who = state.players[e.actor].alias
        scope = "public" if e.public else ("private" if e.to else "director")
        lines.append(render(lang, "rep.director_line", night=e.night, stage=name(lang, "word", e.stage),
                            scope=render(lang, f"word.{scope}"), who=who or "-", text=event_line(e, lang)))
    return "\n".join(lines) + ("\n" if lines else "")
