"""The engine's texts: every event and rule code has a template in zh and en,
the two languages define the same keys, no key is defined twice, and every
template formats with the parameters the engine really passes."""

from __future__ import annotations

import ast
import random
import re
import string
import tomllib
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from enginekit import SEED, game, hunt, order, survive, t

import sheetgm.core.observe as observe
from sheetgm.core.board import edge_key
from sheetgm.core.cards import give_card
from sheetgm.core.check import legal_steps
from sheetgm.core.events import Event
from sheetgm.core.override import apply_override
from sheetgm.core.resolve import resolve_hunter_stage, resolve_stage
from sheetgm.core.setup import SeatSpec, new_game
from sheetgm.core.state import State
from sheetgm.core.steps import (
    Attack,
    Crack,
    Dismantle,
    Escape,
    Give,
    Heal,
    Move,
    Order,
    Pray,
    Search,
    Skill,
    UseItem,
)
from sheetgm.core.texts import LANGS, has, table
from sheetgm.notation.mapfile import ready_map

CORE = Path(observe.__file__).parent
CODE_CALLS = ("Illegal", "StateError", "Problem")
# event kinds whose text is chosen among several keys (observe.event_line)
VARIANT_KEYS = {
    "deduction": ("ev.deduction_yes", "ev.deduction_no"),
    "trace": ("ev.trace", "ev.trace_none"),
    "escaped": ("ev.escaped", "ev.escaped_keys"),
    "brief_wolfsense": ("ev.brief_wolfsense", "ev.brief_wolfsense_quiet"),
}
# params observe turns into other params before formatting
DERIVED = {"code": {"reason"}}
FREE_TEXT = {("card", "reason"), ("override", "reason"), ("override", "field")}


# -- what the engine sources use ------------------------------------------------------------------------------


def _calls() -> Iterator[tuple[str, str, str, set[str]]]:
    """(file, call name, first string argument, keyword names) of every emit/tell/Illegal/StateError/Problem call."""
    for path in sorted(CORE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            first = node.args[0]
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                continue
            fn = node.func
            name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
            kw = {k.arg for k in node.keywords if k.arg}
            if len(node.args) > 1 and isinstance(node.args[1], ast.Dict):  # Problem(code, {...})
                kw |= {k.value for k in node.args[1].keys if isinstance(k, ast.Constant)}
            if name == "tell" and len(node.args) > 2 and isinstance(node.args[2], ast.Dict):  # ctx.tell(kind, p, {...})
                kw |= {k.value for k in node.args[2].keys if isinstance(k, ast.Constant)}
            yield path.name, name, first.value, kw


def emitted() -> dict[str, list[set[str]]]:
    out: dict[str, list[set[str]]] = {}
    for _, name, kind, kw in _calls():
        if name in ("emit", "tell"):
            out.setdefault(kind, []).append(kw - {"public", "to", "actor"})
    return out


def codes() -> dict[str, list[set[str]]]:
    out: dict[str, list[set[str]]] = {}
    for _, name, code, kw in _calls():
        if name in CODE_CALLS and code.startswith("err."):
            out.setdefault(code, []).append(kw)
    return out


def placeholders(template: str) -> set[str]:
    return {f.split(".")[0].split("[")[0] for _, f, _, _ in string.Formatter().parse(template) if f}


def keys_of_kind(kind: str) -> tuple[str, ...]:
    return VARIANT_KEYS.get(kind, (f"ev.{kind}",))


def test_the_sources_are_scanned() -> None:
    ev, cd = emitted(), codes()
    assert {"moved", "attacked", "brief_noise", "game_over", "override"} <= set(ev)
    assert {"err.rule.no_mp", "err.rule.wall", "err.state.no_reason"} <= set(cd)


# -- templates exist in both languages ------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_every_event_kind_has_a_template(lang: str) -> None:
    missing = sorted(k for kind in emitted() for k in keys_of_kind(kind) if not has(lang, k))
    assert missing == []


@pytest.mark.parametrize("lang", LANGS)
def test_every_rule_and_state_code_has_a_template(lang: str) -> None:
    missing = sorted(c for c in codes() if not has(lang, c))
    assert missing == []


@pytest.mark.parametrize("lang", LANGS)
def test_report_frame_and_words_exist(lang: str) -> None:
    for key in ("rep.header", "rep.survivor", "rep.hunter", "rep.tile", "rep.with", "rep.events", "rep.public_line",
                "rep.director_line", "check.step", "check.day_step", "word.none", "word.sep", "word.at"):
        assert has(lang, key), key


def _files(lang: str) -> dict[str, set[str]]:
    folder = resources.files("sheet_templates").joinpath("texts", lang)
    out = {}
    for entry in folder.iterdir():
        if entry.name.endswith(".toml"):
            flat: dict[str, str] = {}
            _flatten(tomllib.loads(entry.read_text("utf-8")), "", flat)
            out[entry.name] = set(flat)
    return out


def _flatten(node: dict[str, Any], prefix: str, out: dict[str, str]) -> None:
    for key, value in node.items():
        if isinstance(value, dict):
            _flatten(value, f"{prefix}{key}.", out)
        else:
            out[f"{prefix}{key}"] = str(value)


@pytest.mark.parametrize("lang", LANGS)
def test_no_key_is_defined_in_two_files(lang: str) -> None:
    files = _files(lang)
    twice = sorted(
        (key, a, b) for a in files for b in files if a < b for key in files[a] & files[b]
    )
    assert twice == []


def test_zh_and_en_define_the_same_keys() -> None:
    zh, en = set(table("zh")), set(table("en"))
    assert sorted(zh - en) == [], "keys only in zh"
    assert sorted(en - zh) == [], "keys only in en"


ENGINE_PREFIXES = ("ev.", "rep.", "word.", "err.rule.", "err.state.", "check.")


def test_zh_and_en_templates_take_the_same_parameters() -> None:
    """Engine texts get one parameter set for both languages (the order language's hints differ on purpose)."""
    zh, en = table("zh"), table("en")
    shared = [k for k in set(zh) & set(en) if k.startswith(ENGINE_PREFIXES)]
    differ = sorted(k for k in shared if placeholders(zh[k]) != placeholders(en[k]))
    assert differ == []


@pytest.mark.parametrize("lang", LANGS)
def test_event_templates_use_only_parameters_the_engine_passes(lang: str) -> None:
    bad = []
    for kind, calls in emitted().items():
        for key in keys_of_kind(kind):
            if not has(lang, key):
                continue
            need = placeholders(table(lang)[key])
            for kw in calls:
                given = kw | {d for k, ds in DERIVED.items() if k in kw for d in ds}
                if not need <= given:
                    bad.append((key, sorted(need - given)))
    assert bad == []


@pytest.mark.parametrize("lang", LANGS)
def test_code_templates_use_only_parameters_the_engine_passes(lang: str) -> None:
    bad = []
    for code, calls in codes().items():
        if not has(lang, code):
            continue
        need = placeholders(table(lang)[code])
        for kw in calls:
            if not need <= kw:
                bad.append((code, sorted(need - kw)))
    assert bad == []


# -- real games render cleanly ---------------------------------------------------------------------------------


def bot_game(seed: int, nights: int = 8) -> list[Event]:
    """Random legal orders (check.legal_steps) on the standard map."""
    roster = [SeatSpec(f"S{i}", "survivor") for i in range(8)] + [SeatSpec(f"H{i}", "hunter") for i in range(2)]
    st = new_game(ready_map("standard"), roster, seed)
    rng = random.Random(seed)
    evs: list[Event] = []
    while not st.over() and st.night <= nights:
        players = st.survivors() if st.stage == "survivor" else st.hunters()
        orders = {}
        for p in players:
            steps: list[Any] = []
            for _ in range(rng.randint(1, 6)):
                options = legal_steps(st, p.seat, steps)
                if not options:
                    break
                steps.append(rng.choice(options))
            orders[p.seat] = Order(tuple(steps))
        st, ev = resolve_stage(st, orders, seed)
        evs += ev
    return evs


Scenario = Callable[[], list[Event]]
SCENARIOS: list[Scenario] = []


def scenario(fn: Scenario) -> Scenario:
    SCENARIOS.append(fn)
    return fn


@scenario
def _day_and_search() -> list[Event]:
    st = game(survivors=[("Ann", "lucky", "B1", {"items": ["map", "bottle"]}), ("Bob", "athlete", "B1",
                                                                           {"items": ["jammer"], "keys": 1}),
                         ("Cat", "lawyer", "A1", {"fear": 2})],
              hunters=[("Hal", "werewolf", "C1")], chests={"D2": "wings"}, night=3)
    st.keys_on[t("A1")] = 1
    st.players[1].items.append("dagger")
    orders = {1: order(UseItem("map"), Search(), day=[Give("Bob", "map"), Pray("wings"), Give("Zed", "map")]),
              2: order(Move(t("A1")), Search("key"), Crack(), day=[Give("Ann", "key")]),
              3: order(Crack(), Crack())}
    st2, ev = survive(st, orders)
    st3, ev2 = resolve_hunter_stage(st2, {4: order(Move(t("B1")), Attack())}, SEED)
    return ev + ev2


@scenario
def _quiet_wolf_and_odb() -> list[Event]:
    st = game(survivors=[("Ann", "athlete", "A1"), ("Gus", "lucky", "C3", {"items": ["bottle"], "keys": 1}),
                         ("Dee", "doctor", "F1")],
              hunters=[("Wolf", "werewolf", "C4"), ("Cla", "clown", "F5")])
    st.progress = 15
    st.players[2].fear = 1
    st2, ev = survive(st, {1: order(Crack()), 3: order(Skill("brew"))})
    st3, ev2 = resolve_hunter_stage(st2, {4: order(Move(t("C3")), Attack()), 5: order(Skill("dash", direction="N"))},
                                    SEED)
    st4, ev3 = survive(st3, {3: order(Escape())})
    return ev + ev2 + ev3


@scenario
def _wolf_hears_noise() -> list[Event]:
    st = game(survivors=[("Ann", "athlete", "A1"), ("Dee", "doctor", "F1", {"items": ["stimulant", "adrenaline"]}),
                         ("Gus", "gardener", "B2"), ("Bob", "athlete", "B1", {"items": ["map"]})],
              hunters=[("Wolf", "werewolf", "B2")], chests={"B1": "bottle"})
    st2, ev = survive(st, {1: order(Crack()), 2: order(Skill("brew")), 4: order(Search())})
    st3, ev2 = resolve_hunter_stage(st2, {5: order(Attack())}, SEED)
    return ev + ev2


@scenario
def _revolver_and_robot() -> list[Event]:
    st = game(survivors=[("Ann", "athlete", "C1", {"items": ["revolver"]}), ("Mec", "mechanic", "E4")],
              hunters=[("Hal", "ember", "D1"), ("Bee", "bane", "F4")])
    st2, ev = survive(st, {1: order(UseItem("revolver", t("D1"))), 2: order(Skill("deploy"), Move(t("F5")))})
    st3, ev2 = resolve_hunter_stage(st2, {3: order(Attack()), 4: order(Move(t("E4")), Attack())}, SEED)
    return ev + ev2


@scenario
def _assassin() -> list[Event]:
    st = game(survivors=[("Ann", "athlete", "A1"), ("Law", "lawyer", "B1")],
              hunters=[("Ivy", "assassin", "D4")], stage="hunter")
    ev = []
    for step in (Skill("deduce", (t("A1"), t("B1"), t("A2"), t("B2"))), Skill("deduce", (t("E5"), t("F5"), t("E4"),
                                                                                         t("F4")))):
        ev += hunt(st, {3: order(step, Skill("trace"))})[1]
    st.players[1].status = st.players[2].status = "escaped"
    st.players[3].role = "assassin"
    ev += hunt(st, {3: order(Skill("trace"))})[1]
    return ev


@scenario
def _bane_traps_and_escapes() -> list[Event]:
    st = game(survivors=[("Ann", "athlete", "F1", {"keys": 4}), ("Bob", "athlete", "C3"),
                         ("Cat", "priestess", "B3"), ("Dan", "magician", "C5")],
              hunters=[("Bee", "bane", "C1"), ("Rip", "ripper", "F4", {"stealth": True})])
    st.traps[t("D3")] = 5
    st.traps[t("C5")] = 5
    st.gates_powered = False
    so = {1: order(Escape()), 2: order(Move(t("D3")), Move(t("E3"))), 3: order(Skill("gate", (t("B4"),)),
                                                                         Heal("Cat")),
          4: order(Skill("magic", (t("E5"),)), Dismantle())}
    st2, ev = survive(st, so)
    ho = {5: order(Attack(direction="S"), Skill("trap", (t("A5"),))),
          6: order(Skill("appear", (t("E5"),)))}
    st3, ev2 = resolve_hunter_stage(st2, ho, SEED)
    return ev + ev2


@scenario
def _downed_escape_and_board() -> list[Event]:
    st = game(survivors=[("Ann", "athlete", "F1"), ("Bob", "athlete", "E1",
                                                     {"downed": True, "hp": 4, "items": ["adrenaline"]})],
              hunters=[("Hal", "clown", "F2")])
    st.gates_powered = True
    st.boards.add(edge_key(t("E2"), t("E3")))
    st2, ev = survive(st, {1: order(Escape()), 2: order(UseItem("adrenaline"))})
    st3, ev2 = resolve_hunter_stage(st2, {3: order(Move(t("F1")), Attack())}, SEED)
    st4, ev3 = survive(st3, {1: order(Heal("Ann"))})
    _, ev4 = resolve_hunter_stage(st2, {}, SEED)  # not attacked: the escape completes
    return ev + ev2 + ev3 + ev4


@scenario
def _cards_and_overrides() -> list[Event]:
    st = game(survivors=[("Ann", "athlete", "C1", {"items": ["map"]}), ("Bob", "lucky", "A1"),
                         ("Cat", "lucky", "A2")], hunters=[("Hal", "clown", "F5")])
    evs: list[Event] = []
    for colour in ("blue", "blue", "blue", "yellow", "yellow"):
        st, e = give_card(st, 1, colour, "潜水")
        evs += e
    st, e = give_card(st, 2, "red", "作弊", declare_loss=True)
    evs += e
    st2 = game(survivors=[("Ann", "athlete", "C1")], hunters=[("Hal", "clown", "F5")])
    for field, value in (("hp", "3"), ("pos", "B2"), ("items", "map,bottle"), ("downed", "true")):
        st2, e = apply_override(st2, 1, field, value, "裁定")
        evs += e
    st2, e = apply_override(st2, None, "winner", "hunters", "裁定")
    return evs + e


@scenario
def _scream_in_the_hunter_stage() -> list[Event]:
    st = game(survivors=[("Ann", "athlete", "C5", {"fear": 2})],
              hunters=[("Cla", "clown", "A5"), ("Wolf", "werewolf", "F1")], stage="hunter")
    return hunt(st, {2: order(Skill("dash", direction="E"))})[1]


@scenario
def _chain_pull_and_a_scattered_key() -> list[Event]:
    """Bane's chain pulls a survivor; a survivor eliminated from night 3 on scatters a key (R-END-2)."""
    st = game(survivors=[("Ann", "athlete", "C3"), ("Bob", "athlete", "E4", {"downed": True, "hp": 2})],
              hunters=[("Bee", "bane", "C1"), ("Hal", "clown", "E4")], night=3, stage="hunter")
    _, ev = resolve_hunter_stage(st, {3: order(Attack(direction="S")), 4: order(Attack())}, SEED)
    return ev


@scenario
def _crowded_generator() -> list[Event]:
    team = [(n, "lucky", "A1") for n in "ABCDE"]
    st = game(survivors=team, hunters=[("Hal", "clown", "F5")])
    st2, ev = survive(st, {i: order(Crack()) for i in range(1, 6)})
    return ev


def all_events() -> list[Event]:
    evs: list[Event] = []
    for fn in SCENARIOS:
        evs += fn()
    for seed in (1, 2, 3):
        evs += bot_game(seed)
    return evs


EVENTS: list[Event] = []


def events() -> list[Event]:
    if not EVENTS:
        EVENTS.extend(all_events())
    return EVENTS


def test_the_games_emit_every_event_kind_and_variant() -> None:
    seen = {e.kind for e in events()}
    assert sorted(set(emitted()) - seen) == []
    used = {_key_used(e, "en") for e in events() if e.kind in VARIANT_KEYS}
    wanted = {k for keys in VARIANT_KEYS.values() for k in keys}
    assert sorted(wanted - used) == []


def _key_used(ev: Event, lang: str) -> str:
    used: list[str] = []
    real = observe.render

    def spy(lang_: str, key: str, /, **params: Any) -> str:
        if key.startswith("ev."):
            used.append(key)
        return real(lang_, key, **params)

    observe.render = spy  # type: ignore[assignment]
    try:
        observe.event_line(ev, lang)
    finally:
        observe.render = real  # type: ignore[assignment]
    return used[-1]


@pytest.mark.parametrize("lang", LANGS)
def test_every_event_renders_with_its_template(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    problems: set[tuple[str, str]] = set()
    real = observe.render

    def strict(lang_: str, key: str, /, **params: Any) -> str:
        text = table(lang_).get(key)
        if text is None:
            problems.add((key, "missing"))
        else:
            try:
                text.format(**params)
            except (KeyError, IndexError, ValueError) as exc:
                problems.add((key, f"{type(exc).__name__}: {exc}"))
        return real(lang_, key, **params)

    monkeypatch.setattr(observe, "render", strict)
    for e in events():
        line = observe.event_line(e, lang)
        assert "{" not in line and "}" not in line, line
        assert not re.search(r"\bev\.[a-z_]+", line), line
    assert sorted(problems) == []


@pytest.mark.parametrize("lang", LANGS)
def test_word_parameters_have_words(lang: str) -> None:
    missing = set()
    for e in events():
        for k, v in e.params.items():
            told_as_word = k in observe._WORD_PARAMS and (e.kind, k) not in FREE_TEXT
            if told_as_word and not (k == "reason" and "code" in e.params) and not has(lang, f"word.{v}"):
                missing.add((e.kind, k, str(v)))
    assert sorted(missing) == []


def test_chinese_texts_carry_no_untranslated_identifiers() -> None:
    """Rendered zh lines may hold aliases and tile names, not English words the engine passed raw."""
    leaks = set()
    for e in events():
        if e.kind == "override":
            continue  # see test_override_is_told_in_words
        for word in re.findall(r"[a-z][a-z_]{2,}", observe.event_line(e, "zh")):
            leaks.add((e.kind, word))
    assert sorted(leaks) == []


def test_override_is_told_in_words() -> None:
    # covers: R-DIR-1, R-SENSE-7
    leaks = set()
    for e in events():
        if e.kind == "override":
            line = observe.event_line(e, "zh").replace("裁定", "")
            leaks |= set(re.findall(r"[A-Za-z][a-z_]{2,}", line)) - {"Ann"}
    assert sorted(leaks) == []


def test_reports_and_logs_of_a_bot_game_are_clean() -> None:
    roster = [SeatSpec(f"S{i}", "survivor") for i in range(8)] + [SeatSpec(f"H{i}", "hunter") for i in range(2)]
    st: State = new_game(ready_map("standard"), roster, 5)
    rng = random.Random(5)
    for _ in range(6):
        orders = {}
        for p in (st.survivors() if st.stage == "survivor" else st.hunters()):
            opts = legal_steps(st, p.seat)
            orders[p.seat] = Order((rng.choice(opts),) if opts else ())
        st, evs = resolve_stage(st, orders, 5)
        for lang in LANGS:
            texts = [observe.report(st, evs, seat, lang) for seat in st.seats()]
            texts += [observe.public_log(evs, lang), observe.director_log(evs, lang, st)]
            for text in texts:
                assert "{" not in text and not re.search(r"\b(ev|rep|word)\.[a-z_]+", text), text
