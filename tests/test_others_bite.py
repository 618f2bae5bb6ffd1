"""What other players' orders bring one player in the checker (core/others.py, RUL-39): each test names the slip
it catches. Only what is addressed to her by name counts; anything else must leave her review alone."""

# covers: RUL-39

from __future__ import annotations

from enginekit import game, order

from sheetgm.core.others import brought
from sheetgm.core.state import ELIMINATED, HUNTER
from sheetgm.core.steps import Give, Heal, Order, RobotStep, UseItem


def _state(ann_downed: bool = False, **bea: object):  # type: ignore[no-untyped-def]
    return game(survivors=[("Ann", "lucky", "A2", {"downed": ann_downed}), ("Bea", "doctor", "A2", bea),
                           ("Cid", "lucky", "A2"), ("Dan", "lucky", "C5")],
                hunters=[("Hal", "ripper", "E3")])


def test_a_gift_to_someone_else_is_not_hers() -> None:
    """Slip caught: the name on a gift not compared (or compared the wrong way): a map Bea gives Cid would let
    Ann's order use a map she will never hold."""
    st = _state()
    ann = st.players[1]
    assert brought(st, ann, {2: order(day=[Give("Cid", "map"), Give("Cid", "key")])}).gifts == []
    assert brought(st, ann, {2: order(day=[Give("Cid", "key")])}).keys == []
    got = brought(st, ann, {2: order(day=[Give("ann", "map"), Give("Ann", "key")])})  # names fold case
    assert got.gifts == [("Bea", "map")] and got.keys == ["Bea"]


def test_a_gift_from_off_her_tile_or_her_own_is_not_brought() -> None:
    """Slip caught: gifts read from every order, not only those of survivors on her tile as the day starts, or
    her own order read as another's."""
    st = _state()
    ann = st.players[1]
    assert brought(st, ann, {4: order(day=[Give("Ann", "map")])}).gifts == []  # Dan stands on C5
    assert brought(st, ann, {1: order(day=[Give("Ann", "map")])}).gifts == []
    assert brought(st, ann, {}).gifts == []


def test_only_a_heal_that_gets_her_up_excuses_her_being_downed() -> None:
    """Slip caught: a checker note excusing a failure it should not: a heal of fear, a heal or Adrenaline for
    someone else, Adrenaline the user takes herself, or a heal from a player out of play or a hunter counted as
    getting her up, so her Downed order passes the checker and fails in the night."""
    st = _state(ann_downed=True)
    ann = st.players[1]

    def healers(others: dict[int, Order]) -> list[str]:
        return brought(st, ann, others).healers

    assert healers({2: order(Heal("Ann"))}) == ["Bea"]
    assert healers({2: order(Heal("Ann", "downed"))}) == ["Bea"]
    assert healers({2: order(UseItem("adrenaline", whom="Ann"))}) == ["Bea"]
    assert healers({2: order(Heal("Ann", "fear"))}) == []
    assert healers({2: order(Heal("Cid"))}) == []
    assert healers({2: order(UseItem("adrenaline", whom="Cid"))}) == []
    assert healers({2: order(UseItem("adrenaline"))}) == []  # on Bea herself
    assert healers({2: order(UseItem("map", whom="Ann"))}) == []
    assert healers({1: order(Heal("Ann"))}) == []  # her own order
    st.players[2].status = ELIMINATED
    assert healers({2: order(Heal("Ann"))}) == []
    st.players[2].status, st.players[2].camp = "in", HUNTER
    assert healers({2: order(Heal("Ann"))}) == []
    st.players[2].camp = "survivor"
    assert healers({2: order(RobotStep(Heal("Ann")))}) == ["Bea#robot"]
    assert healers({2: order(Heal("Ann"), Heal("Ann"))}) == ["Bea"]  # one per healer
    assert brought(st, st.players[3], {2: order(Heal("Ann"))}).healers == []  # Cid is not Downed


def test_who_else_is_about_counts_only_other_players_in_play() -> None:
    """Slip caught: herself, a robot or a player out of play counted as someone who may take a board down."""
    st = game(survivors=[("Ann", "lucky", "A2"), ("Bea", "lucky", "C5")], hunters=[("Hal", "ripper", "E3")])
    assert brought(st, st.players[1], {}).survivors_about and brought(st, st.players[1], {}).hunters_about
    st.players[2].status = ELIMINATED
    got = brought(st, st.players[1], {})
    assert not got.survivors_about and got.hunters_about  # Hal may break a board
    assert brought(st, st.players[3], {}).hunters_about  # in the survivors' stage, Ann may take it down
    st.stage = "hunter"
    assert not brought(st, st.players[3], {}).hunters_about  # no other hunter, and the survivors wait
    st.players[2].status = "in"
    st.players[2].flags["robot_of"] = 1
    assert not brought(st, st.players[1], {}).survivors_about  # Bea is a robot now: its Mechanic's
