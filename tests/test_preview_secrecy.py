"""The preview leaks nothing (issue 28, RUL-18, RUL-36, RUL-61): two states that differ only in what the player
cannot know (where a secret passage she has not found leads, or whether there is one; what a chest she has not
seen holds; where the other players stand, what they hold, whether they are Downed) give her the same preview of
the same order, field by field and word for word in zh and en.
"""

# covers: RUL-18, RUL-36, RUL-61, RUL-62

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import pytest
from enginekit import game, t
from preview_agree import vary
from test_check_agrees import any_order, positions

from sheetgm.bots import bot_order
from sheetgm.core.board import distance, edge_key
from sheetgm.core.observe import report
from sheetgm.core.passages import known_passages
from sheetgm.core.preview import Preview, preview
from sheetgm.core.state import HUNTER_STAGE, Passage, State
from sheetgm.core.steps import ITEMS
from sheetgm.notation.orders import format_order, parse_order

# The kit map (enginekit.GRID):
#    A    B    C    D    E    F
# 1  G    C    .    .    .    X
# 2  .    .  | .    Cf   f    .
# 3  P1   .    .    f    f    .
#    =
# 4  .    d    G    .    .    P1
# 5  .    .    .    .    C    .
ANN, BO, CAT, HAL, IVY = 1, 2, 3, 4, 5
ORDERS = (
    "move C3; search; move E5; move E4",  # a search on the end of a passage she has not found, then through it
    "move D4, D3, D2; search; use map",  # a chest she has not seen, then the item it may hold
    "search; crack; move C5",  # on a generator tile, a search of no chest
    "heal Bo; move C5, D5",  # a heal of another: where he stands she cannot know
    "move C5, D5, E5; search; wings E3",  # another chest, and wings it may hold
)


def base() -> State:
    """Ann (Lucky Guy, a full bag's worth of room) on C4; Bo and Cat elsewhere; two hunters, the Assassin's
    passage laid from C3 to E5, which no survivor has found."""
    st = game(
        survivors=[("Ann", "lucky", "C4", {"items": ["bottle"]}), ("Bo", "athlete", "A5"),
                   ("Cat", "doctor", "F5", {"items": ["stimulant"]})],
        hunters=[("Hal", "assassin", "F1"), ("Ivy", "clown", "A1")],
        chests={"B1": "map", "D2": None, "E5": "wings"},
    )
    st.passages.append(Passage(ends=edge_key(t("C3"), t("E5")), owner=HAL))
    return st


def _far_end(tile: str | None) -> Callable[[State], None]:
    def change(st: State) -> None:
        st.passages = [pa for pa in st.passages if pa.owner != HAL]
        if tile is not None:
            st.passages.append(Passage(ends=edge_key(t("C3"), t(tile)), owner=HAL))
    return change


def _set(seat: int, **values: object) -> Callable[[State], None]:
    def change(st: State) -> None:
        for k, v in values.items():
            setattr(st.players[seat], k, t(str(v)) if k == "pos" else v)
    return change


def _chests(**contents: str | None) -> Callable[[State], None]:
    def change(st: State) -> None:
        for name, item in contents.items():
            st.chests[t(name)] = item
    return change


HIDDEN: dict[str, Callable[[State], None]] = {
    "the passage leads elsewhere": _far_end("A5"),
    "the passage leads to a chest": _far_end("B1"),
    "no passage from C3": _far_end(None),
    "the chests hold other things": _chests(B1="wings", E5="map", D2="map"),
    "the chests are empty": _chests(B1=None, E5=None),
    "Bo stands with her": _set(BO, pos="C4"),
    "Bo is Downed with her": _set(BO, pos="C4", downed=True, hp=3),
    "Cat holds more": _set(CAT, items=["stimulant", "map"]),
    "the hunters stand elsewhere": lambda st: [_set(HAL, pos="C3")(st), _set(IVY, pos="D4", stealth=True)(st)],
}


def shown(pv: Preview) -> tuple[object, ...]:
    """Every field of the preview and its words in both languages."""
    return (pv, *(line for lang in ("zh", "en") for line in pv.lines(lang)),
            *(line for lang in ("zh", "en") for line in pv.lines(lang, full=False)))


@pytest.mark.parametrize("text", ORDERS)
@pytest.mark.parametrize("hidden", sorted(HIDDEN))
def test_a_hidden_change_leaves_the_preview_unchanged(hidden: str, text: str) -> None:
    order = parse_order(text)
    a, b = base(), base()
    HIDDEN[hidden](b)
    assert a.to_json() != b.to_json()  # the change is real
    assert shown(preview(a, ANN, order)) == shown(preview(b, ANN, order))


def test_the_previews_compared_are_busy() -> None:
    """The orders above meet the hidden things: a note on the move through the passage, a note on the map
    found, a warning of no chest, a heal that is a "may"."""
    st = base()
    through, chest, plain, heal, wings = (preview(st, ANN, parse_order(x)) for x in ORDERS)
    assert [x.code for x in through.steps[2].notes] == ["check.note.search"] and not through.steps[2].sure
    assert through.steps[1].sure and through.steps[0].here == ()
    assert [x.code for x in chest.steps[2].notes] == ["check.note.search"] and chest.steps[1].here == ("chest",)
    assert chest.steps[1].sure and (chest.steps[1].mp, chest.steps[1].ap) == (1, 0)  # D3, D2: one flat region
    assert any(x.code == "preview.warn.no_chest" for x in plain.steps[0].warnings)
    assert not heal.steps[0].sure and not heal.steps[1].sure
    assert wings.steps[0].path == (t("C5"), t("D5"), t("E5")) and not wings.steps[2].sure


# --- every field held to what observe gives the player, over generated states --------------------------------------


def _hide(st: State, seat: int, rng: random.Random) -> State:
    """A copy that differs from ``st`` in what may be hidden from ``seat``: where passages she does not know lead
    (or whether they exist), what every chest holds, where the other players stand, what they carry, their
    Stealth. Whether she learns any of it is left to ``observe`` (the caller compares reports)."""
    twin = st.copy()
    me = twin.players[seat]
    tiles = sorted(twin.board.tiles())
    kept = []
    for pa in twin.passages:
        if pa.owner is None or pa.known_to(me):
            kept.append(pa)
        elif rng.random() < 0.7:
            a, b = rng.sample(tiles, 2)
            kept.append(replace(pa, ends=edge_key(a, b)))
    twin.passages = kept
    for c in twin.chests:
        twin.chests[c] = rng.choice((None, None, *ITEMS))
    for q in twin.players.values():
        if q.seat == seat or q.flags.get("robot_of") == seat or not q.in_play:
            continue
        if rng.random() < 0.6:
            q.pos = rng.choice(tiles)
        if q.is_survivor and not q.is_robot and rng.random() < 0.5:
            q.items = [rng.choice(ITEMS)] if rng.random() < 0.7 else []
        if not q.is_survivor:
            q.stealth = rng.random() < 0.5
    return twin


def _meet(st: State, seat: int, rng: random.Random) -> State:
    """A copy where the player meets hidden things: a secret passage she does not know with an end near her, and
    (now and then) her start on a chest tile, whose contents a hunter is never told."""
    st = st.copy()
    me = st.players[seat]
    near = sorted(t for t in st.board.tiles() if distance(t, me.pos) <= 2 and t != me.pos)
    owner = next((h.seat for h in st.hunters() if h.seat != seat), None)
    if owner is not None and near:
        a = rng.choice(near)
        b = rng.choice(sorted(t for t in st.board.tiles() if t not in (a, me.pos)))
        st.passages.append(Passage(ends=edge_key(a, b), owner=owner))
    if st.board.chests and rng.random() < 0.3:
        me.pos = rng.choice(sorted(st.board.chests))
    return st


def _told(st: State, seat: int) -> tuple[object, ...]:
    """What the player has been told of the state (her report, in both languages) and the passages she knows."""
    return (report(st, [], seat, "zh"), report(st, [], seat, "en"),
            sorted(pa.ends for pa in known_passages(st, seat)))


@pytest.mark.parametrize("map_name", ["standard", "teach"])
def test_every_field_is_what_observe_gives_the_player_over_generated_states(map_name: str) -> None:
    """Over states of bot games, for each player of the stage and orders of every kind: a twin state that differs
    only in what may be hidden, and gives her the same report (``observe``) and the same known passages, gives
    her the same preview, every field in both languages. Slips caught: a secret passage's end shown to a player
    who has not found it (``known_passages`` of everyone), a hunter told whether the chest on his tile is full
    (the chest's state read for a hunter), a field read from another player's position or bag."""
    rng = random.Random(f"secrecy/{map_name}")
    compared = hunters = differed = 0
    for st in positions(map_name, 3, nights=4):
        seats = [q.seat for q in (st.hunters() if st.stage == HUNTER_STAGE else st.survivors())
                 if q.in_play and not q.is_robot]
        for seat in seats:
            a = _meet(vary(st, seat, rng), seat, rng)
            for _ in range(3):
                order = any_order(a, seat, rng) if rng.random() < 0.7 else bot_order(a, seat, rng)
                for _ in range(3):
                    b = _hide(a, seat, rng)
                    if _told(a, seat) != _told(b, seat):
                        continue
                    differed += a.to_json() != b.to_json()
                    compared += 1
                    hunters += not a.players[seat].is_survivor
                    assert shown(preview(a, seat, order)) == shown(preview(b, seat, order)), \
                        (map_name, st.night, st.stage, seat, format_order(order))
    assert compared >= 100 and hunters >= 30 and differed >= compared * 0.9, (compared, hunters, differed)


def test_a_hunter_is_not_told_whether_the_chest_on_his_tile_is_full() -> None:
    """Slip caught: the chest on the start tile read for a hunter as for a survivor (a survivor's report tells
    her, a hunter's does not): his preview would say chest_full or chest_empty."""
    a, b = base(), base()
    for st, item in ((a, "map"), (b, None)):
        st.players[HAL].pos = t("B1")
        st.chests[t("B1")] = item
    pa, pb = (preview(st, HAL, parse_order("move C1")) for st in (a, b))
    assert shown(pa) == shown(pb)
    assert pa.steps[0].here == () and preview(a, HAL, parse_order("move A1")).steps[0].here == ("generator",)
    assert preview(a, HAL, parse_order("move C1; move B1")).steps[1].here == ("chest",)
