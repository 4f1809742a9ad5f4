"""Playing cards from hand: costs, pylons, unique entities, weapons, events, activated
effects and modes (GS-2, GS-6 and their interpretations)."""

from __future__ import annotations

from referee.games.gammasphere import Activate, Construct, Play, Switch
from referee.games.gammasphere.position import attack_of, defense_of
from tests.gammasphere.helpers import (
    DECK,
    OTHER,
    RULES,
    adjust,
    assert_illegal,
    assert_legal,
    entity,
    play,
    put,
    resources_of,
    side,
    started,
    verdict,
)


def test_gs_2_2_and_gs_6_2_gas_is_paid_and_a_card_that_cannot_be_paid_is_rejected() -> None:
    state = started({"p1": DECK})
    state = play(state, "play Shale Golem")
    assert side(state, "p1").gas == 3300 - 600
    state = resources_of(state, "p1", gas=250)
    assert_illegal(state, "play Gamma Trooper", "GS-6.2", "Gamma Trooper costs 300 gas; p1 has 250")
    assert Play("Gamma Trooper") not in RULES.legal_actions(state)


def test_gs_2_7_and_gs_6_3_jiggawatts_are_paid_by_tapping_untapped_pylons() -> None:
    state = started({"p1": DECK})
    assert_illegal(state, "play Ion Lancer", "GS-6.3", "1 jiggawatt; p1 has 0 untapped pylons")
    state, first = put(state, "p1", "Pylon")
    state, second = put(state, "p1", "Pylon")
    state = play(state, "play Ion Lancer")
    assert entity(state, first).tapped
    assert not entity(state, second).tapped
    assert side(state, "p1").gas == 3300 - 500
    state = play(state, "play Supply Drop")
    assert entity(state, second).tapped
    state, foe = put(state, "p2", "Gamma Trooper")
    assert_illegal(
        state, f"play Solar Flare on #{foe}", "GS-6.3", "2 jiggawatts; p1 has 0 untapped pylons"
    )


def test_gs_6_8_pylons_are_constructed_for_100_gas_and_other_cards_are_played() -> None:
    state = started({"p1": DECK})
    assert Construct("Pylon") in RULES.legal_actions(state)
    assert_illegal(state, "play Pylon", "GS-6.8", "construct Pylon")
    assert_illegal(state, "construct Gamma Trooper", "GS-6.8", "play Gamma Trooper")
    state = play(state, "construct pylon")
    assert side(state, "p1").gas == 3200
    built = state.field[-1]
    assert (built.card, built.kind, built.tapped) == ("Pylon", "pylon", False)
    state = resources_of(state, "p1", gas=99)
    assert_illegal(state, "construct Pylon", "GS-6.2", "Pylon costs 100 gas; p1 has 99")


def test_gs_i_16_even_the_first_pylon_costs_100_gas() -> None:
    state = started({"p1": DECK})
    assert not [e for e in state.field if e.owner == 0]
    assert side(state, "p1").gas - side(play(state, "construct Pylon"), "p1").gas == 100


def test_gs_2_7_and_gs_i_17_a_new_pylon_pays_at_once() -> None:
    state = started({"p1": DECK})
    state = play(state, "construct Pylon", "play Supply Drop")
    assert state.field[0].tapped
    assert side(state, "p1").gas == 3300 - 100 + 500


def test_gs_3_3_pylons_may_be_constructed_without_limit() -> None:
    state = started({"p1": DECK})
    state = resources_of(state, "p1", gas=5000)
    state = play(state, *["construct Pylon"] * 8)
    assert sum(1 for e in state.field if e.kind == "pylon") == 8


def test_gs_6_1_a_card_comes_from_a_hand_that_can_hold_it() -> None:
    state = started({"p1": DECK})
    assert_illegal(state, "play Static Medic", "GS-3.5", "not in p1's registered list")
    hand = side(state, "p1").hand
    emptied = resources_of(state, "p1", hand=hand.take_unseen(hand.count))
    assert_illegal(emptied, "play Gamma Trooper", "GS-6.1", "p1's hand is empty")
    known = resources_of(state, "p1", hand=type(hand)("p1").put_known("Rift Scout"))
    assert_illegal(
        known, "play Gamma Trooper", "GS-6.1", "every card p1 holds is known (1 Rift Scout)"
    )
    assert_legal(known, "play Rift Scout")


def test_gs_2_1_and_gs_n_2_card_names_match_in_any_letter_case() -> None:
    state = started({"p1": DECK})
    after = play(state, "play  gamma   TROOPER")
    assert after.field[-1].card == "Gamma Trooper"
    assert side(after, "p1").knowledge.seen.count("Gamma Trooper") == 1


def test_gs_6_4_a_unique_entity_cannot_join_its_own_copy() -> None:
    state = started({"p1": DECK, "p2": OTHER})
    state = resources_of(state, "p1", gas=5000)
    state = resources_of(state, "p1", jiggawatts=4)
    state = play(state, "play Vesper the Undying")
    state = resources_of(state, "p1", hand=side(state, "p1").hand.put_known("Vesper the Undying"))
    assert_illegal(state, "play Vesper the Undying", "GS-6.4", "already has it in play as #1")


def test_gs_6_5_a_unique_entity_cannot_be_played_while_the_opponent_has_it() -> None:
    state = started()
    state, tower = put(state, "p2", "Signal Tower")
    state, _ = put(state, "p1", "Pylon")
    assert_illegal(state, "play Signal Tower", "GS-6.5", "opponent p2 has it in play as #1")
    assert tower == 1


def test_gs_3_1_a_unique_entity_may_have_four_copies_in_the_deck() -> None:
    from tests.gammasphere.helpers import decklist, setup

    assert RULES.check_deck(setup(), "p1", decklist("4 Vesper the Undying\n36 Pylon")).legal


def test_gs_6_6_a_character_enters_in_the_chosen_mode_attack_by_default() -> None:
    state = started({"p1": DECK})
    assert Play("Gamma Trooper", "defense") in RULES.legal_actions(state)
    state = play(
        state, "play Gamma Trooper", "play Gamma Trooper (defense)", "play Gamma Trooper (attack)"
    )
    assert [e.mode for e in state.field] == ["attack", "defense", "attack"]
    assert [e.level for e in state.field] == [3, 3, 3]
    assert_illegal(state, "play Gas Refinery (defense)", "GS-N.3", "only characters take a mode")


def test_gs_6_7_a_weapon_is_played_onto_a_character_named_with_on() -> None:
    state = started({"p1": DECK})
    state, trooper = put(state, "p1", "Gamma Trooper")
    state, refinery = put(state, "p1", "Gas Refinery")
    state, pylon = put(state, "p1", "Pylon")
    assert_illegal(state, "play Plasma Blade", "GS-6.7", "play Plasma Blade on #N")
    assert_illegal(state, "play Plasma Blade on #9", "GS-1.3", "#9")
    assert_illegal(state, f"play Plasma Blade on #{pylon}", "GS-6.7", "pylon")
    assert Play("Plasma Blade", "", trooper) in RULES.legal_actions(state)
    state = play(state, f"play Plasma Blade on #{trooper}")
    blade = state.field[-1]
    assert (blade.kind, blade.carrier) == ("weapon", trooper)
    assert attack_of(state, entity(state, trooper)) == 1200 + 500
    assert refinery == 2


def test_gs_i_28_only_a_weapon_that_allows_it_goes_on_a_building_with_its_defense_boost() -> None:
    """The page leaves open which weapons go on buildings: an interpretation, cited as such."""
    state = started({"p2": OTHER})
    state = play(state, "end", "draw", seat=None)
    state, wall = put(state, "p2", "Bastion Wall")
    assert_illegal(
        state, f"play Gauss Repeater on #{wall}", "GS-I.28", "cannot be carried by a building"
    )
    state = play(state, f"play Aegis Plating on #{wall}")
    assert defense_of(state, entity(state, wall)) == 2000 + 600
    assert attack_of(state, entity(state, wall)) == 0


def test_gs_i_28_variant_any_weapon_goes_on_a_building() -> None:
    state = started({"p2": OTHER}, building_weapons="any")
    state = play(state, "end", "draw", seat=None)
    state, wall = put(state, "p2", "Bastion Wall")
    state, _pylon = put(state, "p2", "Pylon")
    assert Play("Gauss Repeater", "", wall) in RULES.legal_actions(state)
    state = play(state, f"play Gauss Repeater on #{wall}")
    assert attack_of(state, entity(state, wall)) == 0  # a building has no attack to raise
    assert defense_of(state, entity(state, wall)) == 2000 + 100


def test_gs_i_18_weapons_go_on_own_entities_and_several_boosts_add_up() -> None:
    state = started({"p1": DECK})
    state, foe = put(state, "p2", "Gamma Trooper")
    state, mine = put(state, "p1", "Ion Lancer")
    assert_illegal(state, f"play Plasma Blade on #{foe}", "GS-I.18", "not p1's")
    state = play(state, f"play Plasma Blade on #{mine}", f"play Plasma Blade on #{mine}")
    assert attack_of(state, entity(state, mine)) == 1800 + 500 + 500


def test_gs_2_8_and_gs_i_20_an_event_works_at_once_then_goes_to_the_discard_pile() -> None:
    state = started({"p1": DECK})
    state, _ = put(state, "p1", "Pylon")
    state = play(state, "play Supply Drop")
    assert side(state, "p1").gas == 3300 + 500
    assert side(state, "p1").discard == ("Supply Drop",)
    assert not [e for e in state.field if e.card == "Supply Drop"]


def test_gs_2_9_and_gs_6_9_an_activated_effect_pays_its_costs_and_taps_when_asked() -> None:
    state = started()
    state, tower = put(state, "p1", "Signal Tower")
    before = side(state, "p1")
    assert Activate(tower) in RULES.legal_actions(state)
    state = play(state, f"activate #{tower}")
    after = side(state, "p1")
    assert entity(state, tower).tapped
    assert after.gas == before.gas - 100
    assert (after.hand.count, after.deck.count) == (before.hand.count + 1, before.deck.count - 1)
    assert_illegal(state, f"activate #{tower}", "GS-I.13", "tapped")


def test_gs_6_9_only_own_cards_with_an_activated_effect_activate() -> None:
    state = started()
    state, trooper = put(state, "p1", "Gamma Trooper")
    state, foe = put(state, "p2", "Static Medic")
    assert_illegal(state, f"activate #{trooper}", "GS-6.9", "Gamma Trooper has no activated effect")
    assert_illegal(state, f"activate #{foe}", "GS-6.9", "not")
    assert_illegal(state, "activate #7", "GS-1.3", "#7")
    state, warden = put(state, "p1", "Chrono Warden")
    assert_illegal(state, f"activate #{warden}", "GS-6.3", "1 jiggawatt;")
    state = resources_of(state, "p1", gas=50)
    state, tower = put(state, "p1", "Signal Tower")
    assert_illegal(
        state, f"activate #{tower}", "GS-6.2", "Signal Tower's effect costs 100 gas; p1 has 50"
    )


def test_gs_i_13_tapping_for_an_effect_keeps_the_mode_and_blocks_attacks_and_switches() -> None:
    state = started()
    state, medic = put(state, "p1", "Static Medic")
    state, foe = put(state, "p2", "Gamma Trooper")
    state = play(state, f"activate #{medic}")
    assert entity(state, medic).tapped
    assert entity(state, medic).mode == "attack"
    assert side(state, "p1").power == 9200
    assert_illegal(state, f"attack #{medic} #{foe}", "GS-7.1", "tapped")
    assert_illegal(state, f"switch #{medic} defense", "GS-6.10", "tapped")


def test_gs_6_10_untapped_own_characters_switch_to_the_other_mode() -> None:
    state = started()
    state, trooper = put(state, "p1", "Gamma Trooper")
    state, wall = put(state, "p1", "Bastion Wall")
    state, foe = put(state, "p2", "Gamma Trooper")
    assert Switch(trooper, "defense") in RULES.legal_actions(state)
    assert_illegal(state, f"switch #{trooper} attack", "GS-6.10", "already in attack mode")
    assert_illegal(state, f"switch #{wall} defense", "GS-6.10", "only characters have modes")
    assert_illegal(state, f"switch #{foe} defense", "GS-6.10", "own characters")
    state = play(state, f"switch #{trooper} defense")
    assert entity(state, trooper).mode == "defense"


def test_gs_i_26_a_character_may_switch_several_times_in_the_turn_it_arrives() -> None:
    state = started({"p1": DECK})
    state = play(
        state, "play Gamma Trooper", "switch #1 defense", "switch #1 attack", "switch #1 defense"
    )
    assert entity(state, 1).mode == "defense"


def test_gs_i_26_a_table_may_allow_each_character_one_switch_a_turn() -> None:
    state = started({"p1": DECK}, switch_limit="once")
    state = play(state, "play Gamma Trooper", "play Gamma Trooper", "switch #1 defense")
    assert_illegal(state, "switch #1 attack", "GS-I.26", "already switched", "switch_limit=once")
    assert "#1 Gamma Trooper [defense, switched]" in RULES.render(state, "public")
    assert Switch(2, "defense") in RULES.legal_actions(state)  # the other one still may
    state = play(state, "end", "draw", "end", "draw")  # p1's next turn: it may switch again
    state = play(state, "switch #1 attack")
    assert entity(state, 1).mode == "attack"


def test_gs_i_17_a_character_may_attack_in_the_turn_it_arrives() -> None:
    state = started({"p1": DECK})
    state, foe = put(state, "p2", "Rift Scout")
    state = play(state, "play Gamma Trooper", f"attack #{state.next_id} #{foe}")
    assert entity(state, foe) is None


def test_gs_n_3_a_target_for_a_card_with_nothing_to_aim_is_illegal() -> None:
    state = started({"p1": DECK})
    state, foe = put(state, "p2", "Gamma Trooper")
    assert_illegal(
        state, f"play Gamma Trooper on #{foe}", "GS-N.3", "no effect that takes a target"
    )


def test_the_catalog_cost_text_of_a_card_is_in_the_rejection() -> None:
    state = started({"p1": DECK})
    state = resources_of(state, "p1", gas=0)
    v = verdict(state, "play Shale Golem")
    assert v.violations[0].reason == "Shale Golem costs 600 gas; p1 has 0"


def test_gs_i_18_a_table_may_let_weapons_go_on_the_opponents_characters() -> None:
    """GS-I.18 (weapon_carriers=any): the page does not say whose character a weapon goes
    on; such a table lets it go on an opposing one, where it stays its player's card."""
    state = started({"p1": DECK}, weapon_carriers="any")
    state, foe = put(state, "p2", "Gamma Trooper")
    assert Play("Plasma Blade", "", foe) in RULES.legal_actions(state)
    state = play(state, f"play Plasma Blade on #{foe}")
    blade = state.field[-1]
    assert (blade.owner, blade.carrier) == (0, foe)
    assert attack_of(state, entity(state, foe)) == 1200 + 500
    assert f"carrying #{blade.id} Plasma Blade (p1's)" in RULES.render(state, "public")
    state = adjust(state, f"destroy #{foe}")
    assert side(state, "p1").discard == ("Plasma Blade",)  # GS-I.12: to its owner's pile
    assert side(state, "p2").discard == ("Gamma Trooper",)
