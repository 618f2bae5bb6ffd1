"""What each player is told (R-SENSE-5, R-SENSE-6, R-SENSE-7).

"A test for every role of information": two games that differ only in
something a player must not know are resolved with the same orders and seed;
that player's text (``observe.report`` / ``observe.public_log``) must be
byte-identical in zh and en. The complementary tests check that what a player
MUST learn does appear.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

import pytest
from enginekit import SEED, board, game, of, order, t

from sheetgm.core.board import edge_key
from sheetgm.core.cards import give_card
from sheetgm.core.events import Event
from sheetgm.core.observe import event_line, public_log, report
from sheetgm.core.preview import preview
from sheetgm.core.resolve import resolve_hunter_stage, resolve_stage, resolve_survivor_stage
from sheetgm.core.state import Passage, State
from sheetgm.core.steps import (
    Attack,
    Block,
    Crack,
    Dismantle,
    Escape,
    Gaze,
    Listen,
    Move,
    Order,
    Search,
    Skill,
    UseItem,
)
from sheetgm.core.texts import render
from sheetgm.notation.orders import parse_order
from sheetgm.render.route import route_png

LANGS = ("zh", "en")

#    A    B    C    D    E    F    G    H    I    J
# 1  .    C    .    .    .    .    .    C    .    X
# 2  .    .    .    .    .    .    .    .    .    .
# 3  G    d    .    .    G    .    .    d    .    .
# 4  .    .    .    .    .    .    G  | .    .    .      obstacle G4|H4
# 5  C    .    .    .    .    .    .    .    .    G
# 6  .    .    .    .    C    .    .    .    .    .
INFO = board("""name: info
map:
   A    B    C    D    E    F    G    H    I    J
1  .    C    .    .    .    .    .    C    .    X
2  .    .    .    .    .    .    .    .    .    .
3  G    d    .    .    G    .    .    d    .    .
4  .    .    .    .    .    .    G  | .    .    .
5  C    .    .    .    .    .    .    .    .    G
6  .    .    .    .    C    .    .    .    .    .
""")

ANN, BOB, CAT, DAN, HAL, IVY = 1, 2, 3, 4, 5, 6

Orders = dict[int, Order]
Variation = Callable[[State, Orders, Orders], None]


def base() -> tuple[State, Orders, Orders]:
    """Ann searches her chest, Bob cracks (Cat stands by him), Dan searches an empty tile far away.
    Hal (Ripper, no Stealth) walks west and listens; Ivy (Assassin) gazes along row 1."""
    st = game(
        INFO,
        survivors=[("Ann", "athlete", "B1"), ("Bob", "lucky", "E3"), ("Cat", "doctor", "E3"),
                   ("Dan", "magician", "A6")],
        hunters=[("Hal", "ripper", "H2"), ("Ivy", "assassin", "J1")],
        chests={"B1": "bottle", "H1": "wings", "A5": "map", "E6": "jammer"},
    )
    st.passages.append(Passage(ends=edge_key(t("I5"), t("J6")), owner=IVY))  # hers from setup (RUL-30)
    s_orders = {ANN: order(Search()), BOB: order(Crack()), DAN: order(Search())}
    h_orders = {HAL: order(Move(t("G2")), Move(t("F2")), Listen()), IVY: order(Gaze())}
    return st, s_orders, h_orders


def _set(seat: int, **values: object) -> Variation:
    def change(st: State, so: Orders, ho: Orders) -> None:
        for k, v in values.items():
            setattr(st.players[seat], k, t(v) if k == "pos" else v)
    return change


def _chest(tile: str, item: str | None) -> Variation:
    def change(st: State, so: Orders, ho: Orders) -> None:
        st.chests[t(tile)] = item
    return change


def _passage(st: State, so: Orders, ho: Orders) -> None:
    st.passages.append(Passage(ends=edge_key(t("D5"), t("G6")), owner=IVY))


def _passage_found(st: State, so: Orders, ho: Orders) -> None:
    """Dan searches on I5 instead of A6 and finds Ivy's passage (I5-J6, hers from setup) instead of nothing: only
    Dan learns it (RUL-36). The passage is there in both worlds, as it is in the game: she knows her own passage
    whoever finds it, and her map shows it either way; that it was found is what she is not told."""
    st.players[DAN].pos = t("I5")


def _cat_cracks(st: State, so: Orders, ho: Orders) -> None:
    del so[BOB]
    so[CAT] = order(Crack())


def _ivy_werewolf(st: State, so: Orders, ho: Orders) -> None:
    st.players[IVY].role = "werewolf"


VARIATIONS: dict[str, Variation] = {
    "other_items": _set(BOB, items=["map"]),
    "other_fear": _set(BOB, fear=2),
    "other_hp": _set(BOB, hp=2),
    "other_role": _set(BOB, role="priestess"),
    "other_keys": _set(DAN, keys=3),
    "far_position": _set(DAN, pos="D6"),
    "dark_near_hunter": _set(DAN, pos="H3"),  # next to Hal, and within his Listen, but dark
    "far_chest": _chest("H1", None),
    "far_chest_other": _chest("A5", "dagger"),
    "own_chest_of_other": _chest("B1", "map"),  # Ann's find: nobody but Ann may learn it
    "assassin_passage": _passage,
    "passage_found_by_other": _passage_found,
    "noise_maker": _cat_cracks,
    "other_hunter_pos": _set(IVY, pos="J2"),
    "other_hunter_role": _ivy_werewolf,
    "hunter_far_stealth": _set(IVY, stealth=True),
}

# What each observer may learn, hence which variations must leave their text unchanged.
BLIND: dict[str, tuple[int | None, frozenset[str]]] = {
    "survivor_report": (ANN, frozenset(VARIATIONS) - {"own_chest_of_other"}),
    "hunter_report": (HAL, frozenset(VARIATIONS)),
    "public_log": (None, frozenset(VARIATIONS)),
    # The Assassin is not told that her passage was found (RUL-36).
    "assassin_report": (IVY, frozenset({"passage_found_by_other", "far_chest", "other_items", "other_keys"})),
}


def play(st: State, so: Orders, ho: Orders, seed: int = SEED) -> tuple[State, list[Event], State, list[Event]]:
    mid, ev_s = resolve_survivor_stage(st, so, seed)
    end, ev_h = resolve_hunter_stage(mid, ho, seed)
    return mid, ev_s, end, ev_h


# The observer's next order, previewed when their next stage is checked (RUL-61): every field, both languages.
NEXT = {ANN: "search; move C1, D1; search; move C1 B1; crack",
        HAL: "G2, F2, E2; listen; E3; attack", IVY: "J2; gaze; I2 H2; attack"}


def preview_text(state: State, seat: int, lang: str, events: Sequence[Event] = ()) -> str:
    pv = preview(state, seat, parse_order(NEXT.get(seat, "search; crack; move A1")))
    fields = [f"{pv.start} {pv.mp} {pv.ap} {pv.path()}", *pv.lines(lang)]
    # the route picture placed over her Current tab: her view with the route, every pixel
    fields.append(hashlib.sha256(route_png(state, seat, pv, lang, events)[0]).hexdigest())
    for s in pv.steps:
        fields.append(repr((s.number, s.text, s.path, s.tile, s.robot, s.mp, s.ap, s.here, s.cancelled_by,
                            [x.message(lang) for x in (*s.problems, *s.notes, *s.warnings)])))
    fields += [x.message(lang) for x in pv.general]
    return "\n".join(fields)


def texts(seat: int | None, mid: State, ev_s: list[Event], end: State, ev_h: list[Event]) -> dict[str, str]:
    """Everything the observer is shown after each stage, in both languages, and the preview of their next order
    (a hunter's when the hunter stage is checked, a survivor's when the next night's is)."""
    out = {}
    for lang in LANGS:
        if seat is None:
            out[lang] = public_log(ev_s, lang) + "\n" + public_log(ev_h, lang)
        else:
            out[lang] = report(mid, ev_s, seat, lang) + "\n" + report(end, ev_h, seat, lang)
            survivor = end.players[seat].is_survivor
            out[lang] += "\n" + preview_text(end if survivor else mid, seat, lang, ev_h if survivor else ev_s)
    return out


def varied(name: str) -> tuple[State, Orders, Orders]:
    st, so, ho = base()
    VARIATIONS[name](st, so, ho)
    return st, so, ho


CASES = [(who, var) for who, (_, blind) in BLIND.items() for var in sorted(blind)]


@pytest.mark.parametrize(("who", "variation"), CASES)
def test_hidden_change_leaves_text_identical(who: str, variation: str) -> None:
    # covers: R-SENSE-5, R-SENSE-6, R-SENSE-7
    seat = BLIND[who][0]
    a = play(*base())
    b = play(*varied(variation))
    # the change is real: the director sees a different game
    assert (a[0].to_json(), a[1], a[2].to_json(), a[3]) != (b[0].to_json(), b[1], b[2].to_json(), b[3])
    assert texts(seat, *a) == texts(seat, *b)


def test_the_previews_are_busy() -> None:
    """The previews the blind tests compare really show tiles, points, warnings and problems."""
    mid, ev_s, end, ev_h = play(*base())
    ann = preview_text(end, ANN, "en")
    assert "no chest on D1" in ann and "empty in your last report" in ann and "step 3 fails first" in ann
    assert "((1, 0), (2, 0), (3, 0))" in ann  # B1 C1 D1: the search on D1 fails, and the rest never runs
    assert "✗ Step 3 \"search\" → D1 · MP 1 · AP 0" in ann and "– Step 4 \"move C1 B1\" → D1 · MP 1" in ann
    assert "Step 5: There is no generator on B1" in ann
    assert "Step 1 \"G2, F2, E2\"" in preview_text(mid, HAL, "en")


def test_base_scenario_is_busy() -> None:
    """The scenario the blind tests vary really exercises searching, cracking, briefing and sensing."""
    mid, ev_s, end, ev_h = play(*base())
    assert mid.players[ANN].items == ["bottle"] and mid.progress == 1
    assert sorted(mid.noise) == sorted([t("B1"), t("E3")])
    assert not of(ev_s + ev_h, "step_failed")
    listen = [e for e in ev_h if e.kind == "sensed" and e.actor == HAL]
    assert {f["alias"] for f in listen[0].params["found"]} == {"Bob", "Cat"}


@pytest.mark.parametrize("variation", ["own_chest_of_other", "far_position", "other_items", "passage_found_by_other"])
def test_the_changed_player_does_notice(variation: str) -> None:
    """The variations are not invisible to everyone: the player concerned sees them."""
    seat = {"own_chest_of_other": ANN, "far_position": DAN, "other_items": BOB,
            "passage_found_by_other": DAN}[variation]
    assert texts(seat, *play(*base())) != texts(seat, *play(*varied(variation)))


# -- the hunter's briefing: what he must learn (R-SENSE-5) --------------------------------------------------


def line(kind: str, lang: str, **params: object) -> str:
    return "- " + event_line(Event(kind, 1, "survivor", dict(params)), lang)


def at(alias: str, tile: str) -> dict[str, object]:
    return {"alias": alias, "tile": tile, "robot": False}


def briefing(st: State, so: Orders, lang: str, seat: int = HAL) -> str:
    mid, ev = resolve_survivor_stage(st, so, SEED)
    return report(mid, ev, seat, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_briefing_lists_every_noise_marker_not_who(lang: str) -> None:
    # covers: R-SENSE-4, R-SENSE-5
    st, so, _ = base()
    text = briefing(st, so, lang)
    assert line("brief_noise", lang, tiles=["B1", "E3"], jammed=False) in text
    for alias in ("Ann", "Bob", "Cat", "Dan"):
        assert alias not in text


@pytest.mark.parametrize("lang", LANGS)
def test_jammer_hides_far_noise_only(lang: str) -> None:
    # covers: R-ITEM-JAMMER, R-SENSE-5
    st, so, _ = base()
    st.players[ANN].items = ["jammer"]
    so[ANN] = order(UseItem("jammer"))
    st.players[DAN].items = ["bottle"]
    quiet = briefing(st, so, lang)
    assert line("brief_noise", lang, tiles=[], jammed=True) in quiet  # E3 is 4 from Hal: hidden
    far = dict(so)
    far[DAN] = order(UseItem("bottle"))  # noise on A6, far from Hal
    assert briefing(st, far, lang) == quiet
    near = dict(so)
    st_near = st.copy()
    st_near.players[DAN].pos = t("I1")
    near[DAN] = order(UseItem("bottle", t("I2")))  # noise on I2, 1 from Hal
    assert line("brief_noise", lang, tiles=["I2"], jammed=True) in briefing(st_near, near, lang)
    # Ivy (J1) hears within 3 of her: I2 too, and E3 (5 away) not
    assert line("brief_noise", lang, tiles=["I2"], jammed=True) in briefing(st_near, near, lang, IVY)


@pytest.mark.parametrize("lang", LANGS)
def test_briefing_shows_downed_within_three_only(lang: str) -> None:
    # covers: R-SENSE-5
    st, so, _ = base()
    st.players[BOB].downed = True
    so.pop(BOB)
    st.players[BOB].pos = t("E2")  # 3 from Hal (H2)
    assert line("brief_downed", lang, found=[at("Bob", "E2")]) in briefing(st, so, lang)
    st.players[BOB].pos = t("D2")  # 4 from Hal: not told
    text = briefing(st, so, lang)
    assert line("brief_downed", lang, found=[]) in text and "Bob" not in text
    st.players[BOB].pos = t("H3")  # dark does not hide a Downed survivor within 3 (not a sensing effect)
    assert line("brief_downed", lang, found=[at("Bob", "H3")]) in briefing(st, so, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_briefing_senses_one_tile_around_by_line_of_sight(lang: str) -> None:
    # covers: R-SENSE-2, R-SENSE-3, R-SENSE-5
    st, so, _ = base()
    st.players[DAN].pos = t("H1")  # north of Hal, open edge
    so.pop(DAN)
    assert line("brief_sensed", lang, found=[at("Dan", "H1")]) in briefing(st, so, lang)
    st.players[DAN].pos = t("H3")  # south, dark
    assert line("brief_sensed", lang, found=[]) in briefing(st, so, lang)
    st.players[HAL].pos = t("G4")
    st.players[DAN].pos = t("H4")  # east of Hal behind an obstacle: no line of sight
    assert line("brief_sensed", lang, found=[]) in briefing(st, so, lang)
    st.players[DAN].pos = t("G5")
    assert line("brief_sensed", lang, found=[at("Dan", "G5")]) in briefing(st, so, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_open_door_reveal_shows_every_survivor_even_in_the_dark(lang: str) -> None:
    # covers: R-ODB-1, R-ODB-3, R-SENSE-3
    st, so, _ = base()
    st.progress = 15
    st.players[DAN].pos = t("B3")  # dark
    text = briefing(st, so, lang)
    found = [at("Ann", "B1"), at("Bob", "E3"), at("Cat", "E3"), at("Dan", "B3")]
    assert line("brief_reveal", lang, found=found) in text
    assert line("gates_powered", lang, progress=16) in text


@pytest.mark.parametrize("lang", LANGS)
def test_clown_resonance_sees_fear_but_not_in_the_dark(lang: str) -> None:
    # covers: R-ROLE-CLOWN, R-SENSE-3
    st, so, _ = base()
    st.players[HAL].role = "clown"
    st.players[BOB].fear = 1
    st.players[DAN].fear = 1
    st.players[DAN].pos = t("B3")
    assert line("brief_resonance", lang, found=[at("Bob", "E3")]) in briefing(st, so, lang)


# -- the survivor's report: what she must learn (R-SENSE-6) -------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_survivor_report_has_own_state_tile_and_fear(lang: str) -> None:
    # covers: R-SENSE-6
    st, so, _ = base()
    st.players[ANN].keys = 2
    st.players[ANN].hp = 4
    st.players[HAL].pos = t("C2")  # 2 from Ann: she gains a Fear
    st.lying[t("B1")] = ["map"]
    mid, ev = resolve_survivor_stage(st, so, SEED)
    text = report(mid, ev, ANN, lang)
    assert line("found_item", lang, item="bottle", source="chest") in text
    assert line("fear", lang, source="hunter_near", fear=1) in text
    assert "4/5" in text and render(lang, "word.injured") in text
    assert render(lang, "word.chest_empty") in text
    assert render(lang, "word.lying", item=render(lang, "item.map")) in text
    assert render(lang, "word.keys_here", n=2) not in text  # her own keys are in her line, not on the tile
    assert render(lang, "item.bottle") in text
    # and nothing of the hunter's whereabouts
    assert "C2" not in text and "Hal" not in text


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("role", ["ripper", "clown"])
def test_attacked_survivor_learns_the_attackers_role(lang: str, role: str) -> None:
    # covers: R-SENSE-6
    st, so, ho = base()
    st.players[HAL].role = role
    ho[HAL] = order(Move(t("G2")), Move(t("F2")), Move(t("E2")), Move(t("E3")), Attack())
    _, _, end, ev_h = play(st, so, ho)
    for seat in (BOB, CAT):
        text = report(end, ev_h, seat, lang)
        assert line("attacked", lang, role=role) in text
        assert render(lang, f"role.{role}") in text
    other = report(end, ev_h, ANN, lang)
    assert render(lang, f"role.{role}") not in other


# -- the public log (R-SENSE-7) -------------------------------------------------------------------------------------


def _public_game(seed: int = SEED) -> tuple[list[Event], State]:
    """Night 3: a passage found, a board dismantled, gates powered, a board placed, an escape, an elimination."""
    st = game(
        INFO,
        survivors=[("Ann", "athlete", "J1"), ("Bob", "lucky", "E3"), ("Cat", "doctor", "C2", {"downed": True, "hp": 3}),
                   ("Dan", "magician", "A6"), ("Eve", "lucky", "I1")],
        hunters=[("Hal", "ripper", "C2"), ("Ivy", "assassin", "H5")],
        night=3,
    )
    st.progress = 15
    st.passages.append(Passage(ends=edge_key(t("A6"), t("D6")), owner=7))
    st.boards.add(edge_key(t("I1"), t("I2")))
    evs: list[Event] = []
    stages = [
        {BOB: order(Crack()), DAN: order(Search()), 5: order(Dismantle(t("I2")))},  # night 3
        {7: order(Block(t("H6")))},
        {ANN: order(Escape())},  # night 4
        {6: order(Attack())},  # still the Open-Door Battle: lethal
    ]
    for orders in stages:
        st, ev = resolve_stage(st, orders, seed)
        evs += ev
    st, ev = give_card(st, BOB, "blue", "late order")
    return evs + ev, st


@pytest.mark.parametrize("lang", LANGS)
def test_public_log_carries_every_public_item(lang: str) -> None:
    # covers: R-SENSE-7
    evs, end = _public_game()
    log = public_log(evs, lang)
    expected = [
        ("board_removed", {"edge": "I1-I2"}),
        ("gates_powered", {"progress": 16}),
        ("progress", {"progress": 16, "target": 16}),
        ("board_placed", {"edge": "H5-H6"}),
        ("escaped", {"alias": "Ann", "keys": False}),
        ("eliminated", {"alias": "Cat", "cause": "lethal"}),
        ("key_scattered", {"count": 1}),
        ("card", {"alias": "Bob", "colour": "blue", "reason": "late order"}),
    ]
    for kind, params in expected:
        assert event_line(Event(kind, 3, "x", params), lang) in log, kind
    private = [e for e in evs if not e.public]
    for e in private:
        assert event_line(e, lang) not in log, e.kind


def test_public_log_tells_a_key_scattered_but_not_where() -> None:
    # covers: R-END-2, R-SENSE-7
    tiles = {}
    logs = {}
    for seed in range(1, 12):
        evs, end = _public_game(seed)
        tiles[seed] = tuple(sorted(end.keys_on))
        logs[seed] = {lang: public_log(evs, lang) for lang in LANGS}
    assert len(set(tiles.values())) > 1  # the seed moves the key...
    assert len({logs[s]["zh"] for s in logs}) == 1  # ...and the log never says where
    assert len({logs[s]["en"] for s in logs}) == 1


def test_game_end_is_public() -> None:
    # covers: R-SENSE-7, R-END-5
    st = game(INFO, survivors=[("Ann", "athlete", "B1", {"downed": True, "hp": 1})],
              hunters=[("Hal", "ripper", "H2")], stage="hunter")
    end, evs = resolve_hunter_stage(st, {}, SEED)
    for lang in LANGS:
        assert event_line(Event("game_over", 1, "hunter", {"winner": "draw", "reason": "nobody_left"}), lang) \
            in public_log(evs, lang)


# -- items and skills that tell something: only what they say ------------------------------------------------------


def _shooter(rip_at: str) -> tuple[State, Orders]:
    st = game(INFO, survivors=[("Ann", "athlete", "C1", {"items": ["revolver"]}), ("Bob", "lucky", "A6")],
              hunters=[("Rip", "ripper", rip_at, {"stealth": True}), ("Hal", "clown", "J6")])
    return st, {ANN: order(UseItem("revolver", t("D1")))}


def test_revolver_shooter_does_not_learn_whether_a_hunter_was_hit() -> None:
    # covers: R-ITEM-REVOLVER (RUL-20)
    hit = play(*_shooter("D1"), {3: order(Move(t("C1")), Attack())})
    miss = play(*_shooter("I6"), {3: order(Move(t("I5")), Attack())})
    assert hit[2].players[ANN].hp == 5 and hit[2].players[3].stunned
    assert not miss[2].players[3].stunned
    for seat in (ANN, BOB, 4):
        assert texts(seat, *hit) == texts(seat, *miss)
    assert texts(None, *hit) == texts(None, *miss)
    assert "D1" in texts(3, *hit)["en"]  # the stunned hunter is told


@pytest.mark.parametrize("lang", LANGS)
def test_map_item_shows_hunters_except_stealthed(lang: str) -> None:
    # covers: R-ITEM-MAP, R-STATUS-STEALTH
    def use(rip_at: str) -> str:
        st = game(INFO, survivors=[("Ann", "athlete", "C1", {"items": ["map"]}), ("Bob", "lucky", "A6")],
                  hunters=[("Rip", "ripper", rip_at, {"stealth": True}), ("Hal", "clown", "J6")])
        mid, ev = resolve_survivor_stage(st, {ANN: order(UseItem("map"))}, SEED)
        return report(mid, ev, ANN, lang)
    text = use("D1")
    assert text == use("H4")
    assert line("map_view", lang, hunters=[at("Hal", "J6")], survivors=[at("Bob", "A6")]) in text


def _robot(owner: int) -> tuple[State, Orders]:
    roles = {ANN: "athlete", BOB: "athlete"}
    roles[owner] = "mechanic"
    st = game(INFO, survivors=[("Ann", roles[ANN], "G2"), ("Bob", roles[BOB], "G2")],
              hunters=[("Hal", "ripper", "H2"), ("Ivy", "clown", "A6")])
    walk = (Move(t("F2")), Move(t("E2")))
    so = {ANN: order(*walk), BOB: order(*walk)}
    so[owner] = order(Skill("deploy"), *walk)
    return st, so


@pytest.mark.parametrize("lang", LANGS)
def test_sensing_the_robot_does_not_name_the_mechanic(lang: str) -> None:
    # covers: R-ROLE-MECHANIC, R-SETUP-2, R-SENSE-5
    a = briefing(*_robot(ANN), lang, seat=3)  # Hal is seat 3 here
    b = briefing(*_robot(BOB), lang, seat=3)
    assert "G2" in a  # the robot is sensed
    assert a == b


def _frightened(role: str) -> tuple[State, Orders, Orders]:
    st = game(INFO, survivors=[("Ann", "athlete", "E2"), ("Bob", "lucky", "A6")],
              hunters=[("Hal", role, "H2"), ("Ivy", "ripper", "J6")])
    step = Skill("dash", direction="W") if role == "clown" else Skill("deduce", (t("E2"), t("F2"), t("E1"), t("F1")))
    return st, {}, {3: order(step)}  # Hal is seat 3 here


@pytest.mark.parametrize("lang", LANGS)
def test_fear_from_a_hunter_skill_does_not_name_the_hunters_role(lang: str) -> None:
    # covers: R-SENSE-6, R-STATUS-FEAR-SRC
    a = play(*_frightened("clown"))
    b = play(*_frightened("assassin"))
    assert a[2].players[ANN].fear == b[2].players[ANN].fear == 1
    assert texts(ANN, *a)[lang] == texts(ANN, *b)[lang]
