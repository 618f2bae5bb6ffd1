"""Focused unit tests of engine rules that are easy to get wrong.

Every test builds a tiny state with ``enginekit`` (map in enginekit.GRID:
flat region D2,E2,D3,E3; obstacle B2|C2; high wall A3/A4; map passage
A3<->F4; generators A1, C4; chests B1, D2, E5; gate F1; dark B4).
"""

from __future__ import annotations

import pytest
from enginekit import SEED, failed, game, hunt, of, one, order, survive, t

from sheetgm.core.board import edge_key
from sheetgm.core.cards import give_card
from sheetgm.core.errors import StateError
from sheetgm.core.override import apply_override
from sheetgm.core.resolve import priority_order, resolve_hunter_stage
from sheetgm.core.state import ELIMINATED, ESCAPED, Passage
from sheetgm.core.steps import (
    Attack,
    Block,
    Crack,
    Cross,
    Dismantle,
    Escape,
    Force,
    Give,
    Heal,
    Move,
    Search,
    Skill,
    UseItem,
    Vault,
)

FAR_HUNTER = ("Hal", "ripper", "F5")  # distance >= 3 from most survivor test tiles; may be far from action


def code_of(events, seat):
    ev = failed(events, seat)
    return None if ev is None else (ev.params["step"], ev.params["code"])


# -- flat regions (R-MAP-5) ------------------------------------------------------------------


def test_flat_region_moves_cost_nothing_inside():
    # covers: R-MAP-5
    st = game(survivors=[("Ann", "athlete", "C3")], hunters=[FAR_HUNTER])
    path = ["D3", "E3", "E2", "D2", "C2", "C1"]  # enter 1, inside 0,0,0, leave 1, then 1 = 3 MP
    st2, evs = survive(st, {1: order(*(Move(t(x)) for x in path), Move(t("D1")))})
    assert st2.players[1].pos == t("C1")
    assert code_of(evs, 1) == (7, "err.rule.no_mp")


def test_flat_region_is_one_tile_for_movement_only():
    # covers: R-MAP-5 (attacks and "same tile" do not treat the region as one tile)
    st = game(survivors=[("Ann", "athlete", "E3")], hunters=[("Hal", "clown", "D2")], stage="hunter")
    st2, evs = hunt(st, {2: order(Attack())})
    assert not st2.players[1].downed and st2.players[1].hp == 5
    assert not of(evs, "attacked")


def test_hunter_flat_moves_are_free_too():
    # covers: R-MAP-5
    st = game(survivors=[("Ann", "athlete", "A5")], hunters=[("Hal", "clown", "C2")], stage="hunter")
    path = ["D2", "E2", "E3", "D3", "D4", "C4", "B4"]  # 1 + 0+0+0 + 1+1+1 = 4 MP
    st2, evs = hunt(st, {2: order(*(Move(t(x)) for x in path), Move(t("A4")))})
    assert st2.players[2].pos == t("B4")
    assert code_of(evs, 2) == (8, "err.rule.no_mp")


# -- boards (R-MAP-6, R-ACT-BLOCK, R-ACT-DISMANTLE) --------------------------------------------


def test_board_blocks_survivors():
    # covers: R-MAP-2, R-ACT-BLOCK
    st = game(survivors=[("Ann", "athlete", "C1")], hunters=[FAR_HUNTER])
    st.boards.add(edge_key(t("C1"), t("D1")))
    st2, evs = survive(st, {1: order(Move(t("D1")))})
    assert st2.players[1].pos == t("C1")
    assert code_of(evs, 1) == (1, "err.rule.board")
    assert edge_key(t("C1"), t("D1")) in st2.boards


def test_hunter_breaks_board_publicly_at_normal_cost():
    # covers: R-ACT-BLOCK (hunters' movement rules)
    st = game(survivors=[("Ann", "athlete", "A5")], hunters=[("Hal", "clown", "C1")], stage="hunter")
    st.boards.add(edge_key(t("C1"), t("D1")))
    st2, evs = hunt(st, {2: order(Move(t("D1")), Move(t("E1")), Move(t("F1")), Move(t("F2")))})
    assert st2.players[2].pos == t("F2")  # 4 moves with 4 MP: the board cost nothing extra
    assert edge_key(t("C1"), t("D1")) not in st2.boards
    ev = one(evs, "board_broken")
    assert ev.public and ev.params["edge"] == "C1-D1"


def test_block_places_public_board_for_two_ap():
    # covers: R-ACT-BLOCK
    st = game(survivors=[("Ann", "athlete", "A5")], hunters=[("Hal", "clown", "C1")], stage="hunter")
    st2, evs = hunt(st, {2: order(Block(t("D1")), Attack())})
    assert edge_key(t("C1"), t("D1")) in st2.boards
    assert one(evs, "board_placed").public
    assert code_of(evs, 2) == (2, "err.rule.no_ap")


def test_no_board_on_an_edge_touching_flat():
    # covers: R-MAP-6
    st = game(survivors=[("Ann", "athlete", "A5")], hunters=[("Hal", "clown", "C2")], stage="hunter")
    st2, evs = hunt(st, {2: order(Block(t("D2")))})
    assert not st2.boards
    assert code_of(evs, 2) == (1, "err.rule.block_flat")


def test_board_only_on_own_tile_except_ember():
    # covers: R-ACT-BLOCK, R-ROLE-EMBER
    st = game(survivors=[("Ann", "athlete", "A5")], hunters=[("Hal", "clown", "C1"), ("Emb", "ember", "F5")],
              stage="hunter")
    far = Block(t("B5"), a=t("A5"))
    st2, evs = hunt(st, {2: order(far), 3: order(far)})
    assert code_of(evs, 2) == (1, "err.rule.block_not_here")
    assert edge_key(t("A5"), t("B5")) in st2.boards


def test_survivor_dismantles_board_publicly_with_noise():
    # covers: R-ACT-DISMANTLE
    st = game(survivors=[("Ann", "athlete", "C1")], hunters=[FAR_HUNTER])
    st.boards.add(edge_key(t("C1"), t("D1")))
    st2, evs = survive(st, {1: order(Dismantle(t("D1")), Move(t("D1")))})
    assert not st2.boards and st2.players[1].pos == t("D1")
    assert one(evs, "board_removed").public
    assert t("C1") in st2.noise


# -- obstacles (R-ACT-VAULT, R-ORDER-2, R-ACT-HVAULT) --------------------------------------------


def test_obstacle_needs_vault_or_cross():
    # covers: R-MAP-2, R-ORDER-2
    st = game(survivors=[("Ann", "athlete", "B2")], hunters=[FAR_HUNTER])
    st2, evs = survive(st, {1: order(Move(t("C2")))})
    assert st2.players[1].pos == t("B2")
    assert code_of(evs, 1) == (1, "err.rule.obstacle")


def test_survivor_vault_costs_one_ap_and_noise_on_landing():
    # covers: R-ACT-VAULT, R-SENSE-4
    st = game(survivors=[("Ann", "athlete", "B2")], hunters=[FAR_HUNTER])
    st2, evs = survive(st, {1: order(Vault(t("C2")), Move(t("C1")), Move(t("D1")), Move(t("E1")), Crack())})
    assert st2.players[1].pos == t("E1")  # all 3 MP still there after the vault
    assert st2.noise == [t("C2")]
    assert code_of(evs, 1) == (5, "err.rule.no_generator")


def test_mercenary_vault_costs_one_mp_still_noisy():
    # covers: R-ROLE-MERCENARY
    st = game(survivors=[("Ann", "mercenary", "B2")], hunters=[FAR_HUNTER])
    st2, evs = survive(st, {1: order(Vault(t("C2")), Move(t("C1")), Move(t("D1")), Move(t("E1")))})
    assert st2.players[1].pos == t("D1")
    assert code_of(evs, 1) == (4, "err.rule.no_mp")
    assert t("C2") in st2.noise


def test_survivor_cross_costs_three_mp_and_noise():
    # covers: R-ORDER-2
    st = game(survivors=[("Ann", "athlete", "B2")], hunters=[FAR_HUNTER])
    st2, evs = survive(st, {1: order(Cross(t("C2")), Move(t("C1")))})
    assert st2.players[1].pos == t("C2")
    assert st2.noise == [t("C2")]
    assert code_of(evs, 1) == (2, "err.rule.no_mp")


def test_hunter_cross_two_mp_silent_and_vault_one_ap_silent():
    # covers: R-ACT-HVAULT, R-ORDER-2
    st = game(survivors=[("Ann", "athlete", "A5")], hunters=[("Hal", "clown", "B2"), ("Ivy", "bane", "C2")],
              stage="hunter")
    st2, evs = hunt(st, {2: order(Cross(t("C2")), Move(t("C1")), Move(t("D1")), Move(t("E1"))),
                         3: order(Vault(t("B2")), Vault(t("C2")), Vault(t("B2")))})
    assert st2.players[2].pos == t("D1")
    assert code_of(evs, 2) == (4, "err.rule.no_mp")
    assert st2.players[3].pos == t("C2")
    assert code_of(evs, 3) == (3, "err.rule.no_ap")
    assert not of(evs, "noise") and not st2.noise


# -- walls ----------------------------------------------------------------------------------------


def test_high_wall_never_passes():
    # covers: R-MAP-2
    st = game(survivors=[("Ann", "athlete", "A3")], hunters=[("Hal", "clown", "A4")])
    st2, evs = survive(st, {1: order(Move(t("A4")))})
    assert code_of(evs, 1) == (1, "err.rule.wall")
    st3, evs3 = survive(st, {1: order(Cross(t("A4")))})
    assert code_of(evs3, 1) == (1, "err.rule.no_obstacle")
    st4, evs4 = hunt(st, {2: order(Vault(t("A3")))})
    assert code_of(evs4, 2) == (1, "err.rule.no_obstacle")
    st5, evs5 = hunt(st, {2: order(Move(t("A3")))})
    assert code_of(evs5, 2) == (1, "err.rule.wall") and st5.players[2].pos == t("A4")


# -- secret passages (R-MAP-7, R-ROLE-ASSASSIN) --------------------------------------------------------


def test_survivors_use_a_passage_only_after_discovery():
    # covers: R-MAP-7, R-ACT-SEARCH, RUL-36
    st = game(survivors=[("Ann", "athlete", "A3"), ("Bob", "lucky", "B3")], hunters=[FAR_HUNTER])
    st2, evs = survive(st, {1: order(Move(t("F4")))})
    assert code_of(evs, 1) == (1, "err.rule.not_adjacent")
    # Ann discovers and walks through; Bob, later in priority, did not search: he cannot.
    st3, evs3 = survive(st, {1: order(Search(), Move(t("F4"))), 2: order(Move(t("A3")), Move(t("F4")))})
    found = one(evs3, "passage_found")
    assert not found.public and found.to == (1,) and {found.params["a"], found.params["b"]} == {"A3", "F4"}
    assert st3.players[1].pos == t("F4") and st3.players[2].pos == t("A3")
    assert code_of(evs3, 2) == (2, "err.rule.not_adjacent")
    assert st3.passages[0].discovered and st3.passages[0].known_by == [1]


def test_search_on_passage_end_discovers_instead_of_picking_up():
    # covers: R-MAP-7
    st = game(survivors=[("Ann", "athlete", "A3")], hunters=[FAR_HUNTER])
    st.lying[t("A3")] = ["bottle"]
    st2, evs = survive(st, {1: order(Search())})
    assert st2.players[1].items == [] and st2.lying[t("A3")] == ["bottle"]
    assert of(evs, "passage_found")


def test_hunters_use_map_passages_and_only_the_assassin_his_own():
    # covers: R-MAP-7, R-ROLE-ASSASSIN
    st = game(survivors=[("Ann", "athlete", "C5")], hunters=[("Ivy", "assassin", "A1"), ("Hal", "clown", "A3")],
              stage="hunter")
    st.passages.append(Passage(ends=edge_key(t("A1"), t("C3")), owner=2))
    st2, evs = hunt(st, {2: order(Move(t("C3"))), 3: order(Move(t("F4")))})
    assert st2.players[2].pos == t("C3")  # his own passage
    assert st2.players[3].pos == t("F4")  # a map passage, undiscovered
    other = game(survivors=[("Ann", "athlete", "C5"), ("Bob", "lucky", "A1")],
                 hunters=[("Ivy", "assassin", "F5"), ("Hal", "clown", "A1")])
    other.passages.append(Passage(ends=edge_key(t("A1"), t("C3")), owner=3))
    st3, evs3 = survive(other, {2: order(Move(t("C3")))})
    assert code_of(evs3, 2) == (1, "err.rule.not_adjacent")
    other.stage = "hunter"
    st4, evs4 = hunt(other, {4: order(Move(t("C3")))})
    assert code_of(evs4, 4) == (1, "err.rule.not_adjacent")


# -- generators (R-ACT-CRACK) ------------------------------------------------------------------------


def test_generator_takes_at_most_four_points_a_night():
    # covers: R-ACT-CRACK, R-ORDER-6
    team = [(n, "lucky", "A1") for n in ("A", "B", "C", "D", "E")]
    st = game(survivors=team, hunters=[FAR_HUNTER])
    st2, evs = survive(st, {i: order(Crack(), Move(t("A2"))) for i in range(1, 6)})
    assert st2.progress == 4 and st2.cracked_tonight == {t("A1"): 4}
    capped = one(evs, "crack_capped")
    assert capped.actor == 5 and capped.to == (5,)
    assert st2.players[5].pos == t("A2")  # the order went on (R-ORDER-6)
    # a new night: the generator takes points again
    st3, _ = hunt(st2)
    st4, _ = survive(st3, {i: order(Move(t("A1")), Crack()) for i in range(1, 3)})
    assert st4.progress == 6


def test_mechanic_gain_is_capped_by_the_generator():
    # covers: R-ROLE-MECHANIC, R-ACT-CRACK
    team = [("A", "lucky", "A1"), ("B", "lucky", "A1"), ("C", "lucky", "A1"), ("M", "mechanic", "A1")]
    st = game(survivors=team, hunters=[FAR_HUNTER])
    cracks = {i: order(Crack()) for i in range(1, 5)}
    st2, evs = survive(st, cracks)
    assert st2.progress == 4
    assert [e.params["gain"] for e in of(evs, "cracked")] == [1, 1, 1, 1]
    st3, evs3 = survive(st, cracks, priority=[4])
    assert st3.progress == 4
    assert [e.params["gain"] for e in of(evs3, "cracked")] == [2, 1, 1]
    assert one(evs3, "crack_capped").actor == 3


# -- priority and contest (R-PHASE-3, R-ORDER-5, R-ORDER-6) -------------------------------------------------


def test_priority_order_stamped_first_then_seats():
    # covers: R-PHASE-3
    st = game(survivors=[("A", "lucky", "A1"), ("B", "athlete", "A2"), ("C", "doctor", "A5")],
              hunters=[FAR_HUNTER, ("Ivy", "clown", "F4")])
    assert priority_order(st, [3, 1], "survivor") == [3, 1, 2]
    assert priority_order(st, [5, 3], "hunter") == [5, 4]
    assert priority_order(st, None, "survivor") == [1, 2, 3]


def test_contested_chest_goes_to_the_earlier_player():
    # covers: R-PHASE-3, R-ORDER-6
    st = game(survivors=[("Ann", "athlete", "B1"), ("Bob", "mercenary", "B1")], hunters=[FAR_HUNTER],
              chests={"B1": "wings"})
    orders = {1: order(Search(), Move(t("C1"))), 2: order(Search(), Move(t("A1")))}
    st2, evs = survive(st, orders, priority=[2, 1])
    assert st2.players[2].items == ["wings"] and st2.players[1].items == []
    assert one(evs, "found_nothing").actor == 1
    assert st2.players[1].pos == t("C1")  # cost paid, the rest of the order continues
    st3, _ = survive(st, orders)
    assert st3.players[1].items == ["wings"] and st3.players[2].items == []


def test_first_illegal_step_ends_the_order():
    # covers: R-ORDER-5
    st = game(survivors=[("Ann", "athlete", "C1")], hunters=[FAR_HUNTER])
    st2, evs = survive(st, {1: order(Move(t("D1")), Move(t("F1")), Move(t("E1")), Move(t("F1")))})
    assert st2.players[1].pos == t("D1")
    fail = failed(evs, 1)
    assert fail is not None and fail.to == (1,) and not fail.public
    assert fail.params["step"] == 2 and fail.params["code"] == "err.rule.not_adjacent"
    assert len(of(evs, "moved")) == 1


def test_empty_chest_costs_ap_and_order_continues():
    # covers: R-ORDER-6, R-ACT-SEARCH
    st = game(survivors=[("Ann", "athlete", "B1")], hunters=[FAR_HUNTER])
    st2, evs = survive(st, {1: order(Search(), Move(t("C1")), Search())})
    assert of(evs, "found_nothing") and st2.players[1].pos == t("C1")
    assert code_of(evs, 1) == (3, "err.rule.no_ap")
    assert not st2.noise  # nothing found: no chest noise


def test_search_chest_is_noisy_except_magician_and_gardener():
    # covers: R-ACT-SEARCH, R-ROLE-MAGICIAN, R-ROLE-GARDENER
    for role, noisy in (("athlete", True), ("magician", False), ("gardener", False)):
        st = game(survivors=[("Ann", role, "B1")], hunters=[FAR_HUNTER], chests={"B1": "bottle"})
        st2, _ = survive(st, {1: order(Search())})
        assert st2.players[1].items == ["bottle"] and st2.chests[t("B1")] is None
        assert (t("B1") in st2.noise) is noisy, role


def test_no_order_means_stay():
    # covers: R-ORDER-5
    st = game(survivors=[("Ann", "athlete", "C1")], hunters=[FAR_HUNTER])
    st2, evs = survive(st, {})
    assert st2.players[1].pos == t("C1")
    assert one(evs, "no_order").to == (1,)


# -- Downed (R-STATUS-DOWNED) ---------------------------------------------------------------------


def test_downed_budget_one_mp_no_ap():
    # covers: R-STATUS-DOWNED
    st = game(survivors=[("Ann", "athlete", "C1", {"downed": True, "hp": 4})], hunters=[FAR_HUNTER])
    st2, evs = survive(st, {1: order(Move(t("D1")), Move(t("E1")))})
    assert st2.players[1].pos == t("D1") and code_of(evs, 1) == (2, "err.rule.no_mp")
    st3, evs3 = survive(st, {1: order(Search())})
    assert code_of(evs3, 1) == (1, "err.rule.downed_no_ap")


def test_downed_mercenary_has_two_mp():
    # covers: R-ROLE-MERCENARY, R-STATUS-DOWNED
    st = game(survivors=[("Ann", "mercenary", "C1", {"downed": True, "hp": 4})], hunters=[FAR_HUNTER])
    st2, evs = survive(st, {1: order(Move(t("D1")), Move(t("E1")), Move(t("F1")))})
    assert st2.players[1].pos == t("E1") and code_of(evs, 1) == (3, "err.rule.no_mp")


def test_downed_may_still_use_extra_actions():
    # covers: R-STATUS-DOWNED, R-ITEM-ADRENALINE
    st = game(survivors=[("Ann", "doctor", "C1", {"downed": True, "hp": 4, "items": ["adrenaline"]})],
              hunters=[FAR_HUNTER])
    st2, evs = survive(st, {1: order(UseItem("adrenaline"))})
    assert not st2.players[1].downed and st2.players[1].items == []
    assert one(evs, "revived").to == (1,)


def test_heal_removes_downed_with_noise_and_fear_silently():
    # covers: R-ACT-HEAL
    st = game(survivors=[("Ann", "athlete", "C1"), ("Bob", "lucky", "C1", {"downed": True, "hp": 3}),
                         ("Cat", "lucky", "C3", {"fear": 2}), ("Dan", "athlete", "C3")], hunters=[FAR_HUNTER])
    st2, evs = survive(st, {1: order(Heal("Bob")), 4: order(Heal("Cat"))})
    assert not st2.players[2].downed and st2.players[3].fear == 0
    assert st2.noise == [t("C1")]


def test_bleeding_at_end_of_night_and_elimination_at_zero():
    # covers: R-STATUS-DOWNED, R-HP
    st = game(survivors=[("Ann", "athlete", "C1", {"downed": True, "hp": 2}),
                         ("Bob", "lucky", "C3", {"downed": True, "hp": 1})], hunters=[FAR_HUNTER], stage="hunter")
    st2, evs = hunt(st)
    assert st2.players[1].hp == 1 and st2.players[1].downed
    assert st2.players[2].status == ELIMINATED
    assert one(evs, "eliminated").params["cause"] == "bleed"


# -- Fear (R-STATUS-FEAR) --------------------------------------------------------------------------------


def test_fear_when_hunter_within_two_at_end_of_own_action():
    # covers: R-STATUS-FEAR-SRC
    st = game(survivors=[("Near", "athlete", "C3"), ("Edge", "athlete", "B4"), ("Far", "athlete", "A4"),
                         ("Walk", "athlete", "C4")], hunters=[("Hal", "clown", "C5")])
    st2, _ = survive(st, {4: order(Move(t("D4")), Move(t("D3")), Move(t("D2")))})  # ends at distance 4
    assert [st2.players[i].fear for i in (1, 2, 3, 4)] == [1, 1, 0, 0]
    st4, _ = survive(st, {3: order(Move(t("B4")))})  # ends at distance 2
    assert st4.players[3].fear == 1


def test_stealthed_hunter_causes_no_fear_and_lawyer_is_immune():
    # covers: R-STATUS-STEALTH, R-ROLE-LAWYER
    st = game(survivors=[("Ann", "athlete", "C4"), ("Law", "lawyer", "C4")],
              hunters=[("Rip", "ripper", "C5", {"stealth": True})])
    st2, evs = survive(st)
    assert st2.players[1].fear == 0
    st.players[3].stealth = False
    st3, evs3 = survive(st)
    assert st3.players[1].fear == 1 and st3.players[2].fear == 0
    assert one(evs3, "fear_immune").to == ()  # RUL-24: director only


def test_third_fear_screams_and_resets():
    # covers: R-STATUS-FEAR, R-SENSE-4
    st = game(survivors=[("Ann", "athlete", "C4", {"fear": 2})], hunters=[("Hal", "clown", "C5")])
    st2, evs = survive(st, {1: order(Move(t("D4")))})
    assert st2.players[1].fear == 0
    scream = one(evs, "scream")
    assert scream.to == (1,) and scream.params["tile"] == "D4"
    assert st2.noise == [t("D4")]


# -- attacks (R-ACT-ATTACK, R-ODB) -------------------------------------------------------------------------


def test_attack_downs_and_costs_one_hp_once_per_night():
    # covers: R-ACT-ATTACK, R-HP, R-STATUS-DOWNED
    st = game(survivors=[("Ann", "athlete", "B4"), ("Bob", "lucky", "B4")], hunters=[("Hal", "clown", "B5")],
              stage="hunter")
    st2, evs = hunt(st, {3: order(Move(t("B4")), Attack(), Attack())})
    for seat in (1, 2):
        assert st2.players[seat].downed
        assert st2.players[seat].hp == 3  # 1 for the attack, 1 for bleeding at the end of the night
    assert code_of(evs, 3) == (3, "err.rule.attack_once")
    assert {e.to for e in of(evs, "attacked")} == {(1,), (2,)}


def test_attack_on_downed_survivor_eliminates_and_items_drop():
    # covers: R-STATUS-DOWNED, R-END-9
    st = game(survivors=[("Ann", "athlete", "B4", {"downed": True, "hp": 4, "items": ["map"], "keys": 2})],
              hunters=[("Hal", "clown", "B4")], stage="hunter")
    st2, evs = hunt(st, {2: order(Attack())})
    assert st2.players[1].status == ELIMINATED and st2.players[1].items == []
    assert st2.lying[t("B4")] == ["map"] and st2.keys_on[t("B4")] == 2
    assert one(evs, "eliminated").public


def test_silver_dagger_parries_one_attack():
    # covers: R-ITEM-DAGGER
    st = game(survivors=[("Ann", "athlete", "B4", {"items": ["dagger"]})], hunters=[("Wolf", "werewolf", "B4")],
              stage="hunter")
    st2, evs = hunt(st, {2: order(Attack())})
    assert not st2.players[1].downed and st2.players[1].hp == 5 and st2.players[1].items == []
    assert st2.players[2].flags.get("no_mp_night") == 2


def test_gardener_holding_nothing_keeps_hp():
    # covers: R-ROLE-GARDENER
    st = game(survivors=[("Gus", "gardener", "B4")], hunters=[("Hal", "clown", "B4")], stage="hunter")
    st2, _ = hunt(st, {2: order(Attack())})
    assert st2.players[1].downed and st2.players[1].hp == 4  # only the bleed


def test_open_door_battle_lasts_three_hunter_stages():
    # covers: R-ODB-1, R-ODB-2
    st = game(survivors=[(f"S{i}", "athlete", "A1") for i in range(5)], hunters=[("Hal", "clown", "F5")])
    st.progress = 15
    st2, evs = survive(st, {1: order(Crack())})
    assert st2.gates_powered and st2.odb_left == 3 and one(evs, "gates_powered").public
    results = []
    cur = st2
    for victim in (2, 3, 4, 5):  # a fresh, healthy victim each night
        cur.players[victim].pos = cur.players[6].pos = t("C5")
        cur, _ = resolve_hunter_stage(cur, {6: order(Attack())}, SEED)
        results.append(cur.players[victim].status)
        cur, _ = survive(cur)
    assert results == [ELIMINATED, ELIMINATED, ELIMINATED, "in"]
    assert cur.players[5].downed


def test_odb_counter_runs_down_one_per_hunter_stage():
    # covers: R-ODB-2
    st = game(survivors=[("Ann", "athlete", "A1")], hunters=[FAR_HUNTER], stage="hunter")
    st.gates_powered, st.odb_left = True, 3
    seen = []
    cur = st
    for _ in range(3):
        cur2, evs = resolve_hunter_stage(cur, {}, SEED)
        seen.append(cur2.odb_left)
        cur, _ = survive(cur2)
    assert seen == [2, 1, 0]


def test_odb_reveal_once_in_that_nights_briefing_dark_included():
    # covers: R-ODB-3, R-SENSE-3
    st = game(survivors=[("Ann", "athlete", "A1"), ("Dee", "lucky", "B4")], hunters=[("Hal", "clown", "F5")])
    st.progress = 15
    st2, evs = survive(st, {1: order(Crack())})
    reveal = one(evs, "brief_reveal")
    assert reveal.to == (3,)
    assert {e["alias"] for e in reveal.params["found"]} == {"Ann", "Dee"}
    st3, _ = hunt(st2)
    _, evs4 = survive(st3)
    assert not of(evs4, "brief_reveal")


# -- escape and keys (R-END-1, R-END-2, R-END-4) --------------------------------------------------------------


def test_escape_completes_only_if_not_downed():
    # covers: R-END-1, R-ACT-ESCAPE
    st = game(survivors=[("Ann", "athlete", "F1"), ("Bob", "lucky", "F1")], hunters=[("Hal", "clown", "F3")])
    st.gates_powered = True
    st2, evs = survive(st, {1: order(Escape(), Move(t("E1"))), 2: order(Escape())})
    assert code_of(evs, 1) == (2, "err.rule.escaping")
    st3, evs3 = resolve_hunter_stage(st2, {3: order(Move(t("F2")), Move(t("F1")))}, SEED)
    assert st3.players[1].status == ESCAPED and st3.players[2].status == ESCAPED
    st4, evs4 = resolve_hunter_stage(st2, {3: order(Move(t("F2")), Move(t("F1")), Attack())}, SEED)
    assert all(st4.players[s].status == "in" and st4.players[s].downed for s in (1, 2))
    assert sorted(e.to for e in of(evs4, "escape_failed")) == [(1,), (2,)]
    assert all(e.public for e in of(evs3, "escaped"))


def test_escape_needs_powered_gates_or_four_keys():
    # covers: R-ACT-ESCAPE, R-END-4
    st = game(survivors=[("Ann", "athlete", "F1", {"keys": 3}), ("Kay", "lucky", "F1", {"keys": 4})],
              hunters=[FAR_HUNTER])
    st2, evs = survive(st, {1: order(Escape()), 2: order(Escape())})
    assert code_of(evs, 1) == (1, "err.rule.gates_closed")
    st3, evs3 = hunt(st2)
    assert st3.winner == "survivors" and st3.end_reason == "keys"
    assert one(evs3, "game_over").public


def test_keys_scatter_only_from_night_three_not_on_gates():
    # covers: R-END-2
    for night, scattered in ((2, 0), (3, 1)):
        st = game(survivors=[("Ann", "athlete", "B4", {"downed": True, "hp": 4}), ("Bob", "lucky", "A1")],
                  hunters=[("Hal", "clown", "B4")], night=night, stage="hunter")
        st2, evs = hunt(st, {3: order(Attack())})
        assert st2.players[1].status == ELIMINATED
        pub = of(evs, "key_scattered")
        assert len(pub) == scattered and all(e.public and "tile" not in e.params for e in pub)
        assert sum(st2.keys_on.values()) == scattered
        assert all(tile not in st.board.gates for tile in st2.keys_on)
        for e in of(evs, "key_scattered_at"):
            assert not e.public and not e.to  # the director only


def test_key_drop_at_elimination_option():
    # covers: R-END-2 (option key_drop)
    st = game(survivors=[("Ann", "athlete", "B4", {"downed": True, "hp": 4}), ("Bob", "lucky", "A1")],
              hunters=[("Hal", "clown", "B4")], night=3, stage="hunter", key_drop="at_elimination")
    st2, _ = hunt(st, {3: order(Attack())})
    assert st2.keys_on == {t("B4"): 1}


def test_search_picks_up_a_key():
    # covers: R-END-2, R-ACT-SEARCH
    st = game(survivors=[("Ann", "athlete", "C1")], hunters=[FAR_HUNTER])
    st.keys_on[t("C1")] = 2
    st2, evs = survive(st, {1: order(Search("key"))})
    assert st2.players[1].keys == 1 and st2.keys_on[t("C1")] == 1
    assert not st2.noise


def test_gift_fails_without_room_and_item_stays():
    # covers: R-PHASE-1
    st = game(survivors=[("Ann", "athlete", "C1", {"items": ["map"]}), ("Bob", "athlete", "C1", {"items": ["bottle"]}),
                         ("Cat", "athlete", "C1")], hunters=[FAR_HUNTER])
    st2, evs = survive(st, {1: order(day=[Give("Bob", "map")])})
    assert st2.players[1].items == ["map"] and one(evs, "gift_failed").to == (1, 2)
    st3, _ = survive(st, {1: order(day=[Give("Cat", "map")])})
    assert st3.players[3].items == ["map"] and st3.players[1].items == []


# -- victory (R-END) ---------------------------------------------------------------------------------------------


def _out(st, seats, status=ELIMINATED):
    for s in seats:
        st.players[s].status = status
        (st.eliminated if status == ELIMINATED else st.escaped).append(s)


def test_hunters_win_on_fifth_elimination():
    # covers: R-END-5
    team = [(f"S{i}", "athlete", "A1") for i in range(7)]
    st = game(survivors=team, hunters=[("Hal", "clown", "B4")], stage="hunter")
    _out(st, [1, 2, 3, 4])
    st.players[5].pos, st.players[5].downed, st.players[5].hp = t("B4"), True, 3
    st2, evs = hunt(st, {8: order(Attack())})
    assert st2.winner == "hunters" and st2.end_reason == "eliminations" and st2.stage == "over"


def test_survivors_win_with_four_escapes_and_powered_gates():
    # covers: R-END-3
    team = [(f"S{i}", "athlete", "F1") for i in range(6)]
    st = game(survivors=team, hunters=[FAR_HUNTER])
    st.gates_powered = True
    _out(st, [1, 2, 3], ESCAPED)
    st2, _ = survive(st, {4: order(Escape())})
    st3, evs = hunt(st2)
    assert st3.winner == "survivors" and st3.end_reason == "escapes"
    st2b, _ = survive(st)
    st3b, _ = hunt(st2b)
    assert st3b.winner is None


def test_draw_when_nobody_left_in_play():
    # covers: R-END-7
    st = game(survivors=[("Ann", "athlete", "B4", {"downed": True, "hp": 1}), ("Bob", "lucky", "F1")],
              hunters=[FAR_HUNTER], stage="hunter")
    _out(st, [2], ESCAPED)
    st2, evs = hunt(st)
    assert st2.winner == "draw" and st2.end_reason == "nobody_left"


# -- cards and overrides (R-CARD, R-END-6, R-DIR-1) -----------------------------------------------------------------


def test_cards_merge_three_blue_into_yellow_and_three_yellow_into_red():
    # covers: R-CARD-2, R-CARD-3
    st = game(survivors=[("Ann", "athlete", "C1", {"items": ["map"]}), ("Bob", "lucky", "A1")], hunters=[FAR_HUNTER])
    evs = []
    for _ in range(3):
        st, e = give_card(st, 1, "blue", "late order")
        evs += e
    assert [c.colour for c in st.cards if not c.merged] == ["yellow"]
    assert one(evs, "card_merged").public
    for _ in range(2):
        st, e = give_card(st, 1, "yellow", "lurking")
        evs += e
    assert st.players[1].status == "red_carded"
    assert st.lying[t("C1")] == ["map"]
    assert of(evs, "red_card_out")[0].public
    assert st.winner is None


def test_two_red_cards_lose_the_camp_and_declared_loss():
    # covers: R-END-6
    st = game(survivors=[("Ann", "athlete", "C1"), ("Bob", "lucky", "A1"), ("Cat", "lucky", "A2")],
              hunters=[FAR_HUNTER])
    st1, _ = give_card(st, 1, "red", "cheating")
    assert st1.winner is None
    st2, evs = give_card(st1, 2, "red", "cheating")
    assert st2.winner == "hunters" and st2.end_reason == "red_cards"
    st3, evs3 = give_card(st, 4, "red", "cheating", declare_loss=True)
    assert st3.winner == "survivors" and one(evs3, "camp_loss").public


def test_card_needs_a_reason_and_a_known_colour():
    # covers: R-CARD-5
    st = game(survivors=[("Ann", "athlete", "C1")], hunters=[FAR_HUNTER])
    with pytest.raises(StateError):
        give_card(st, 1, "blue", "  ")
    with pytest.raises(StateError):
        give_card(st, 1, "green", "x")


def test_override_is_a_public_event_with_reason():
    # covers: R-DIR-1
    st = game(survivors=[("Ann", "athlete", "C1")], hunters=[FAR_HUNTER])
    st2, evs = apply_override(st, 1, "hp", "2", "double attack ruled invalid")
    assert st2.players[1].hp == 2 and st.players[1].hp == 5
    ev = one(evs, "override")
    assert ev.public and ev.params["old"] == 5 and ev.params["new"] == 2
    assert ev.params["reason"] == "double attack ruled invalid"
    with pytest.raises(StateError):
        apply_override(st, 1, "hp", "2", "")
    with pytest.raises(StateError):
        apply_override(st, 1, "hp", "9", "too much")


def test_override_position_and_status_keep_lists_in_step():
    # covers: R-DIR-1
    st = game(survivors=[("Ann", "athlete", "C1"), ("Bob", "lucky", "A1")], hunters=[FAR_HUNTER])
    st2, _ = apply_override(st, 1, "status", "eliminated", "ruling")
    assert st2.eliminated == [1]
    st3, _ = apply_override(st2, 1, "status", "in", "ruling reversed")
    assert st3.eliminated == []
    st4, _ = apply_override(st3, 2, "pos", "E5", "misplaced")
    assert st4.players[2].pos == t("E5")


# -- purity ---------------------------------------------------------------------------------------------------------


def test_resolve_never_mutates_its_input():
    # covers: R-PHASE-2
    st = game(survivors=[("Ann", "athlete", "B1", {"fear": 2}), ("Bob", "lucky", "A3", {"items": ["bottle"]}),
                         ("Cat", "doctor", "B4", {"downed": True, "hp": 2, "items": ["adrenaline"]})],
              hunters=[("Hal", "clown", "B3"), ("Ivy", "assassin", "E5")], chests={"B1": "map"}, night=3)
    st.boards.add(edge_key(t("C1"), t("D1")))
    before = st.to_json()
    st2, _ = survive(st, {1: order(Search(), Move(t("C1"))), 2: order(Search(), Move(t("F4")), UseItem("bottle")),
                          3: order(UseItem("adrenaline"))})
    assert st.to_json() == before
    mid = st2.to_json()
    st3, _ = resolve_hunter_stage(st2, {4: order(Move(t("B4")), Attack()), 5: order(Force(t("E4")))}, SEED)
    assert st2.to_json() == mid
    assert st3.to_json() != mid


def test_resolve_is_deterministic_for_a_seed():
    # covers: R-SETUP-2 (seeded, reproducible)
    st = game(survivors=[("Ann", "athlete", "B4", {"downed": True, "hp": 4}), ("Bob", "lucky", "A1")],
              hunters=[("Hal", "clown", "B4")], night=3, stage="hunter")
    a = hunt(st, {3: order(Attack())}, seed=11)
    b = hunt(st, {3: order(Attack())}, seed=11)
    assert a[0].to_json() == b[0].to_json() and a[1] == b[1]


def test_the_engine_refuses_a_sprint_of_five_tiles_the_notation_cannot_write():
    # covers: R-ROLE-ATHLETE (a typed order that bypasses the order language still meets the 4-tile limit)
    st = game(survivors=[("Ann", "athlete", "A5")], hunters=[("Hal", "ripper", "F1")])
    four = Skill("sprint", (t("B5"), t("C5"), t("D5"), t("E5")))
    five = Skill("sprint", (t("B5"), t("C5"), t("D5"), t("E5"), t("F5")))
    assert survive(st, {1: order(four)})[0].players[1].pos == t("E5")
    st2, evs = survive(st, {1: order(five)})
    assert st2.players[1].pos == t("A5") and failed(evs, 1).params["code"] == "err.rule.skill_args"
