"""What the checker tells a player leaks nothing of other players' hidden orders and positions (RUL-39, RUL-40).

As in test_information.py: two stages that differ only in something a player must not know (what another
survivor holds, where she stands, what else her order says, a board she may take down, whose robot it is)
are checked with the same order; the player's problems and notes, as written to her sheet in zh and en,
must be identical. The complementary tests show what she must learn: a gift or a heal addressed to her.
"""

# covers: R-ORDER-4, RUL-18, RUL-39, RUL-40

from __future__ import annotations

from collections.abc import Callable

import pytest
from enginekit import game, t

from sheetgm.core.check import Review, review_order
from sheetgm.core.state import Player, State
from sheetgm.core.steps import Order
from sheetgm.core.texts import render
from sheetgm.notation.orders import parse_order

LANGS = ("zh", "en")

# The kit map (enginekit.GRID), a board on C4|D4:
#    A    B    C    D    E    F
# 1  G    C    .    .    .    X
# 2  .    .  | .    Cf   f    .
# 3  P1   .    .    f    f    .
#    =
# 4  .    d    G  = .    .    P1
# 5  .    .    .    .    C    .
ANN, BO, CAT, DEE, HAL = 1, 2, 3, 4, 5
Orders = dict[int, Order]
Variation = Callable[[State, Orders], None]


def base() -> tuple[State, Orders]:
    """Ann gives Bo her map in the day; Bo uses it, walks through the board and cracks where there is no
    generator; Cat heals the Downed Dee, who walks two tiles."""
    st = game(
        survivors=[("Ann", "lucky", "C4", {"items": ["map"]}), ("Bo", "athlete", "C4"),
                   ("Cat", "gardener", "B5"), ("Dee", "priestess", "A5", {"downed": True, "hp": 3})],
        hunters=[("Hal", "ripper", "F5")],
        chests={"B1": "bottle", "E5": "jammer"},
    )
    st.boards.add((t("C4"), t("D4")))
    orders = {ANN: parse_order("给予 Bo 地图；搜索"), BO: parse_order("地图；移动 D4 E4；破解"),
              CAT: parse_order("移动 A5；救治 Dee"), DEE: parse_order("移动 A4；移动 B4")}
    return st, orders


def _set(seat: int, **values: object) -> Variation:
    def change(st: State, orders: Orders) -> None:
        for k, v in values.items():
            setattr(st.players[seat], k, t(str(v)) if k == "pos" else v)
    return change


def _order(seat: int, text: str) -> Variation:
    def change(st: State, orders: Orders) -> None:
        orders[seat] = parse_order(text)
    return change


def _chest(tile: str, item: str | None) -> Variation:
    def change(st: State, orders: Orders) -> None:
        st.chests[t(tile)] = item
    return change


def _robot_heals(owner: int) -> Variation:
    """The owner is the Mechanic; her robot, on Dee's tile, gets Dee up (Cat's own order does nothing)."""
    def change(st: State, orders: Orders) -> None:
        mec = st.players[owner]
        mec.role = "mechanic"
        robot = Player(seat=100 + owner, alias=f"{mec.alias}#robot", camp="survivor", pos=t("A5"), hp=1,
                       flags={"robot_of": owner})
        st.players[robot.seat] = robot
        orders[CAT] = parse_order("搜索")
        orders[owner] = parse_order(("给予 Bo 地图；" if owner == ANN else "") + "交付 1 行动力；机器人：救治 Dee")
    return change


VARIATIONS: dict[str, Variation] = {
    "giver_holds_other": _set(ANN, items=["bottle"]),  # whether Ann still holds the map: hers to know
    "giver_holds_nothing": _set(ANN, items=[]),
    "giver_night_steps": _order(ANN, "给予 Bo 地图；移动 C5；搜索"),
    "giver_gives_others_too": _order(ANN, "给予 Bo 地图；给予 Cat 地图"),
    "other_dismantles_board": _order(CAT, "移动 C5 C4；拆除 D4；救治 Dee"),
    "other_no_heal_of_others": _order(CAT, "移动 A5；救治 Cat 恐惧"),
    "healer_far": _set(CAT, pos="E1"),  # Cat's heal cannot reach Dee tonight: where Cat is, Dee cannot know
    "healer_on_her_tile": _set(CAT, pos="A5"),
    "healer_downed": _set(CAT, downed=True),
    "hunter_position": _set(HAL, pos="D1"),
    "hunter_role": _set(HAL, role="werewolf"),
    "chest_contents": _chest("B1", "map"),
    "robot_of_cat": _robot_heals(CAT),
}
# Which variations each player must not notice. A heal of Dee is addressed to her, so varying who heals her is
# visible to her (the robot is "the robot" whoever owns it: see test_whose_robot_is_never_told).
BLIND: dict[int, frozenset[str]] = {
    BO: frozenset(VARIATIONS),
    DEE: frozenset(VARIATIONS) - {"other_no_heal_of_others", "robot_of_cat"},
}


def told(st: State, orders: Orders, seat: int) -> dict[str, list[str]]:
    """What the player's sheet says of her order: the problems, then the notes, in each language."""
    others = {s: o for s, o in orders.items() if s != seat}
    review: Review = review_order(st, seat, orders[seat], others)
    return {lang: [x.message(lang) for x in review.problems] + ["· " + n.message(lang) for n in review.notes]
            for lang in LANGS}


def varied(name: str) -> tuple[State, Orders]:
    st, orders = base()
    VARIATIONS[name](st, orders)
    return st, orders


CASES = [(seat, var) for seat, blind in BLIND.items() for var in sorted(blind)]


@pytest.mark.parametrize(("seat", "variation"), CASES)
def test_hidden_change_leaves_what_the_checker_tells_identical(seat: int, variation: str) -> None:
    a, b = base(), varied(variation)
    assert (a[0].to_json(), a[1]) != (b[0].to_json(), b[1]), "the variation changes nothing"
    assert told(*a, seat) == told(*b, seat)


def test_the_base_orders_use_every_kind_of_note() -> None:
    """The scenario the blind tests vary exercises a gift, a board and a heal, beside a plain problem."""
    st, orders = base()
    others = {s: o for s, o in orders.items() if s != BO}
    bo = review_order(st, BO, orders[BO], others)
    assert [n.code for n in bo.notes] == ["check.note.gift_in", "check.note.board"]
    assert [p.code for p in bo.problems] == ["err.rule.no_generator"]
    dee = review_order(st, DEE, orders[DEE], {s: o for s, o in orders.items() if s != DEE})
    assert [n.code for n in dee.notes] == ["check.note.heal"] and dee.problems == []


@pytest.mark.parametrize(("seat", "change"), [
    (BO, _order(ANN, "搜索")),  # no gift to Bo: his map is a problem
    (BO, _set(ANN, pos="B5")),  # Ann is not on his tile as the day starts (his report says who is, RUL-3)
    (DEE, _order(CAT, "移动 A5")),  # nobody heals Dee: her second move is a problem
])
def test_what_is_addressed_to_her_does_change_it(seat: int, change: Variation) -> None:
    st, orders = base()
    before = told(st, orders, seat)
    change(st, orders)
    assert told(st, orders, seat) != before


def test_the_board_note_does_not_depend_on_anyone_taking_it_down() -> None:
    """Whether another survivor dismantles the board is hers to know: Bo is told the same (RUL-40)."""
    st, orders = base()
    with_dismantle = {**orders, CAT: parse_order("移动 C5 C4；拆除 D4")}
    assert told(st, orders, BO) == told(st, with_dismantle, BO)


def test_whose_robot_is_never_told() -> None:
    """A heal by a robot is told as the robot's, never by its Mechanic's alias (RUL-25): whose robot it is,
    and so who the Mechanic is, stays hidden."""
    by_cat, by_ann = varied("robot_of_cat"), base()
    _robot_heals(ANN)(*by_ann)
    assert told(*by_cat, DEE) == told(*by_ann, DEE)
    for lang in LANGS:
        text = "\n".join(told(*by_cat, DEE)[lang])
        assert render(lang, "word.robot") in text and "Cat" not in text
