"""observe: how a report, the public log and the director's log are put together (R-SENSE-5..7)."""

from __future__ import annotations

import pytest
from enginekit import SEED, game, order, survive, t

from sheetgm.core.events import Event
from sheetgm.core.observe import director_log, event_line, public_log, report
from sheetgm.core.resolve import resolve_hunter_stage
from sheetgm.core.state import State
from sheetgm.core.steps import Attack, Crack, Move, Search
from sheetgm.core.texts import render

LANGS = ("zh", "en")


def _game() -> State:
    st = game(survivors=[("Ann", "athlete", "B1", {"items": ["map"], "keys": 1, "hp": 4, "fear": 1}),
                         ("Bob", "lucky", "C1"), ("Cat", "doctor", "A1", {"lang": "en"})],
              hunters=[("Hal", "clown", "F5", {"stealth": True})], chests={"B1": "bottle"})
    st.lying[t("C1")] = ["dagger"]
    st.keys_on[t("C1")] = 2
    st.traps[t("C1")] = 4
    return st


def lines(text: str) -> list[str]:
    assert text.endswith("\n") and not text.endswith("\n\n")
    return text[:-1].split("\n")


@pytest.mark.parametrize("lang", LANGS)
def test_survivor_report_frame(lang: str) -> None:
    # covers: R-SENSE-6
    st = _game()
    mid, evs = survive(st, {2: order(Move(t("B1")))})  # Bob joins Ann
    out = lines(report(mid, evs, 1, lang))
    assert out[0] == render(lang, "rep.header", night=1, stage=render(lang, "word.survivor"), alias="Ann",
                            role=render(lang, "role.athlete"))
    sep = render(lang, "word.sep")
    assert out[1] == render(lang, "rep.survivor", tile="B1", hp=4, max=5, status=render(lang, "word.in"),
                            statuses=sep.join([render(lang, "word.fear_n", n=1), render(lang, "word.injured")]),
                            items=render(lang, "item.map"), keys=1)
    assert out[2] == render(lang, "rep.tile", tile="B1", things=render(lang, "word.chest_full"))
    assert out[3] == render(lang, "rep.with", aliases="Bob")
    assert out[4] == render(lang, "rep.events")
    shown = [e for e in evs if e.visible_to(1) and e.kind != "stage_start"]
    assert out[5:] == [f"- {event_line(e, lang)}" for e in shown]
    assert [e.kind for e in shown] == ["no_order", "progress"]


@pytest.mark.parametrize("lang", LANGS)
def test_tile_line_lists_what_lies_there(lang: str) -> None:
    # covers: R-SENSE-6
    st = _game()
    st.players[2].flags["held"] = False
    out = report(st, [], 2, lang)
    sep = render(lang, "word.sep")
    things = sep.join([render(lang, "word.lying", item=render(lang, "item.dagger")),
                       render(lang, "word.keys_here", n=2), render(lang, "word.trap")])
    assert render(lang, "rep.tile", tile="C1", things=things) in out
    assert render(lang, "rep.events") not in out  # no events: no events heading


def test_report_uses_the_players_language_by_default() -> None:
    st = _game()
    mid, evs = survive(st)
    assert report(mid, evs, 3) == report(mid, evs, 3, "en")
    assert report(mid, evs, 1) == report(mid, evs, 1, "zh")
    assert report(mid, evs, 1, "en") != report(mid, evs, 1, "zh")


@pytest.mark.parametrize("lang", LANGS)
def test_hunter_report_has_no_tile_contents(lang: str) -> None:
    # covers: R-SENSE-5 (RUL-23)
    st = _game()
    st.players[4].pos = t("B1")
    mid, evs = survive(st)
    out = lines(report(mid, evs, 4, lang))
    assert out[1] == render(lang, "rep.hunter", tile="B1", statuses=render(lang, "word.stealth"))
    text = "\n".join(out)
    assert render(lang, "word.chest_full") not in text
    assert render(lang, "rep.tile", tile="B1", things=render(lang, "word.chest_full")) not in text
    assert render(lang, "rep.with", aliases="Ann") not in text


@pytest.mark.parametrize("lang", LANGS)
def test_out_of_play_survivor_report_has_no_tile(lang: str) -> None:
    # covers: R-SENSE-6
    st = _game()
    st.players[1].status = "escaped"
    out = report(st, [], 1, lang)
    assert render(lang, "word.escaped") in out
    assert render(lang, "rep.tile", tile="B1", things=render(lang, "word.chest_full")) not in out


@pytest.mark.parametrize("lang", LANGS)
def test_public_log_has_public_events_only_in_order(lang: str) -> None:
    # covers: R-SENSE-7
    st = _game()
    st.players[4].stealth = False
    st.players[4].pos = t("B1")
    mid, ev1 = survive(st, {1: order(Search()), 3: order(Crack())})
    end, ev2 = resolve_hunter_stage(mid, {4: order(Attack())}, SEED)
    evs = ev1 + ev2
    log = public_log(evs, lang)
    assert lines(log) == [render(lang, "rep.public_line", night=1, text=event_line(e, lang)) for e in evs if e.public]
    assert public_log([], lang) == ""
    assert "B1" not in log and "Ann" not in log


@pytest.mark.parametrize("lang", LANGS)
def test_director_log_has_every_event_with_its_scope(lang: str) -> None:
    # covers: R-DIR-1
    st = _game()
    st.players[1].items = []
    mid, evs = survive(st, {1: order(Search())})
    out = lines(director_log(evs, lang, mid))
    assert len(out) == len(evs)
    scopes = {e.kind: ("public" if e.public else "private" if e.to else "director") for e in evs}
    assert scopes["noise"] == "director" and scopes["found_item"] == "private" and scopes["progress"] == "public"
    for e, text in zip(evs, out, strict=True):
        assert render(lang, f"word.{scopes[e.kind]}") in text
        assert text.endswith(event_line(e, lang))


@pytest.mark.parametrize("lang", LANGS)
def test_event_line_variants(lang: str) -> None:
    def ev(kind: str, **params: object) -> str:
        return event_line(Event(kind, 1, "hunter", dict(params)), lang)

    assert ev("deduction", tiles=["A1"], yes=True) == render(lang, "ev.deduction_yes", tiles="A1")
    assert ev("deduction", tiles=["A1"], yes=False) == render(lang, "ev.deduction_no", tiles="A1")
    assert ev("trace", distance=-1, directions=[]) == render(lang, "ev.trace_none")
    assert ev("escaped", alias="Ann", keys=True) == render(lang, "ev.escaped_keys", alias="Ann")
    assert ev("escaped", alias="Ann", keys=False) == render(lang, "ev.escaped", alias="Ann")
    assert ev("brief_wolfsense", noisy=False, found=[]) == render(lang, "ev.brief_wolfsense_quiet",
                                                                  found=render(lang, "word.none"))
    failed = ev("step_failed", step=2, code="err.rule.no_mp", params={"need": 1, "have": 0})
    assert render(lang, "err.rule.no_mp", need=1, have=0) in failed
