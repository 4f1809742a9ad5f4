"""Card effects: structured effects the engine applies, free text that needs a ruling, and
the referee's adjustments (GS-2.9, GS-9 and their interpretations)."""

from __future__ import annotations

from referee.games.gammasphere import Activate, Play
from referee.games.gammasphere.position import attack_of, defense_of
from referee.kit.adjustments import parse_change
from tests.gammasphere.helpers import (
    DECK,
    DRILLMASTER_CARD,
    OTHER,
    RULES,
    adjust,
    assert_illegal,
    assert_legal,
    change_verdict,
    decklist,
    entity,
    play,
    put,
    resources_of,
    side,
    started,
    verdict,
)

SIPHON = """
[[cards]]
name = "Pylon"
kind = "pylon"
[[cards]]
name = "Siphon"
kind = "event"
text = "The opponent loses 1000 gas."
effect = { opponent_gas = -1000 }
[[cards]]
name = "Cataclysm"
kind = "event"
text = "Both players lose 9000 power."
effect = { power = -9000, opponent_power = -9000 }
[[cards]]
name = "Last Gambit"
kind = "event"
text = "The opponent loses 9000 power; then its player draws three cards."
effect = { opponent_power = -9000, draw = 3 }
"""


NEST = """
[[cards]]
name = "Pylon"
kind = "pylon"
[[cards]]
name = "Sniper Nest"
kind = "building"
defense = 500
text = "Turn sideways and spend 1 jiggawatt: one opposing character is destroyed."
when = "activated"
tap = true
activate_jiggawatts = 1
effect = { target = "opposing character", destroy = true }
[[cards]]
name = "Recruit"
kind = "character"
level = 1
attack = 100
defense = 100
"""


DUELIST_CARD = """
[[cards]]
name = "Duelist"
kind = "character"
gas = 100
level = 2
attack = 700
defense = 600
text = "On arrival, one opposing character loses a level."
effect = { target = "opposing character", level = -1 }
"""
DUELIST = (
    """
[[cards]]
name = "Pylon"
kind = "pylon"
"""
    + DUELIST_CARD
    + """[[cards]]
name = "Veteran"
kind = "character"
level = 3
attack = 900
defense = 900
attack_mod = 100
"""
)


def refused(state: object, change: str, clause: str, *fragments: str) -> None:
    v = RULES.check_change(state, parse_change(change))  # type: ignore[arg-type]
    assert not v.legal, f"{change} should be refused"
    assert v.violations[0].clause == clause, v.violations
    for fragment in fragments:
        assert fragment in v.violations[0].reason, v.violations[0].reason


# -- structured effects (GS-9.1) ---------------------------------------------------------


def test_gs_9_1_power_gas_and_draw_effects_are_carried_out_by_the_engine() -> None:
    state = started({"p1": DECK})
    state = resources_of(state, "p1", gas=5000, jiggawatts=2)
    state = play(state, "play Vesper the Undying")
    assert side(state, "p1").power == 9500
    hand, deck = side(state, "p1").hand.count, side(state, "p1").deck.count
    state = play(state, "play Rift Scout")
    assert (side(state, "p1").hand.count, side(state, "p1").deck.count) == (hand - 1 + 1, deck - 1)
    assert not verdict(started({"p1": DECK}), "play Rift Scout").rulings


def test_gs_9_1_a_targeted_effect_needs_a_target_of_the_right_kind() -> None:
    state = started({"p1": DECK})
    state, _ = put(state, "p1", "Pylon")
    state, _ = put(state, "p1", "Pylon")
    state, mine = put(state, "p1", "Gamma Trooper")
    state, wall = put(state, "p2", "Bastion Wall")
    state, foe = put(state, "p2", "Shale Golem")
    assert_illegal(state, "play Solar Flare", "GS-9.1", "add 'on #N'")
    assert_illegal(state, f"play Solar Flare on #{mine}", "GS-9.1", "p1's own")
    assert_illegal(state, f"play Solar Flare on #{wall}", "GS-9.1", "not a character")
    assert_illegal(state, f"play Overclock on #{foe}", "GS-9.1", "own characters")
    assert_illegal(state, f"play Supply Drop on #{foe}", "GS-N.3", "takes no target")
    assert Play("Solar Flare", "", foe) in RULES.legal_actions(state)
    state = play(state, f"play Solar Flare on #{foe}")
    assert entity(state, foe) is None
    assert side(state, "p2").discard == ("Shale Golem",)
    assert side(state, "p1").discard == ("Solar Flare",)


def test_gs_9_1_and_gs_i_23_a_level_effect_stops_at_ten() -> None:
    state = started({"p1": DECK})
    state, _ = put(state, "p1", "Pylon")
    state, _ = put(state, "p1", "Pylon")
    state, lancer = put(state, "p1", "Ion Lancer", level=9)
    state = play(state, f"play Overclock on #{lancer}")
    assert entity(state, lancer).level == 10
    assert attack_of(state, entity(state, lancer)) == 1800 + 5 * 300
    state, low = put(state, "p1", "Ion Lancer", level=2)
    state = play(state, f"play Overclock on #{low}")
    assert entity(state, low).level == 4
    assert defense_of(state, entity(state, low)) == 1000 - 150


def test_gs_i_24_an_effect_takes_only_the_gas_there_is() -> None:
    state = started(options={"catalog": SIPHON})
    state = resources_of(state, "p2", gas=300)
    state = play(state, "play Siphon")
    assert side(state, "p2").gas == 0


def test_gs_i_15_an_effect_bringing_both_power_levels_to_zero_draws_the_game() -> None:
    state = started(options={"catalog": SIPHON})
    state = play(state, "play Cataclysm")
    out = RULES.outcome(state)
    assert (out.status, out.winner, out.clause) == ("draw", None, "GS-I.15")
    assert (side(state, "p1").power, side(state, "p2").power) == (0, 0)


def test_gs_9_1_and_gs_8_1_an_effect_ends_the_game_at_its_power_loss_before_its_draw() -> None:
    """The parts of a structured effect take place in GS-9.1's order: the opponent at zero
    has lost (GS-8.1) before the draw from an empty deck could cost the game (GS-I.5)."""
    state = started(options={"catalog": SIPHON, "deck_size": 8}, empty_deck="lose")
    assert side(state, "p1").deck.count == 0
    state = play(state, "play Last Gambit")
    out = RULES.outcome(state)
    assert (out.winner, out.clause) == ("p1", "GS-8.1")


def test_gs_9_1_a_game_ended_by_an_effects_power_loss_takes_none_of_the_rest() -> None:
    """GS-9.1, GS-8.1: the game ends at once when the power part brings a level to zero, so
    the draw (and any aimed part) that follows never happens: the final position shows the
    hand and deck as they were, not three cards drawn after the game was over."""
    state = started(options={"catalog": SIPHON})
    state = resources_of(state, "p1", hand=side(state, "p1").hand.put_known("Last Gambit"))
    hand, deck = side(state, "p1").hand.count, side(state, "p1").deck.count
    state = play(state, "play Last Gambit")
    assert (RULES.outcome(state).winner, RULES.outcome(state).clause) == ("p1", "GS-8.1")
    assert (side(state, "p1").hand.count, side(state, "p1").deck.count) == (hand - 1, deck)


def test_gs_8_1_a_structured_power_loss_can_end_the_game() -> None:
    state = started({"p1": DECK})
    state = resources_of(state, "p2", power=700)
    state, _ = put(state, "p1", "Pylon")
    state, _ = put(state, "p1", "Pylon")
    state = play(state, "play Psionic Lash")
    assert side(state, "p2").power == 0
    assert (RULES.outcome(state).winner, RULES.outcome(state).clause) == ("p1", "GS-8.1")


def test_gs_i_5_a_structured_draw_takes_what_the_deck_holds_or_loses_by_variant() -> None:
    for variant in ("skip", "lose"):
        state = started({"p1": decklist("8 Pylon\n1 Rift Scout")}, empty_deck=variant)
        assert side(state, "p1").deck.count == 1
        state = resources_of(state, "p1", hand=side(state, "p1").hand.put_known("Rift Scout"))
        state = adjust(state, "draw p1 1")
        state = play(state, "play Rift Scout")
        assert side(state, "p1").deck.count == 0
        out = RULES.outcome(state)
        if variant == "skip":
            assert not out.over
        else:
            assert (out.winner, out.clause) == ("p2", "GS-I.5")


# -- free text and rulings (GS-9.2, GS-2.9, GS-I.22) --------------------------------------


def test_gs_9_2_a_free_text_effect_is_recorded_with_a_ruling_naming_the_card() -> None:
    state = started({"p2": OTHER})
    state = play(state, "end", "draw")
    v = assert_legal(state, "play Mirror Adept")
    assert v.status == "ruling"
    (ruling,) = v.rulings
    assert (ruling.card, ruling.clause) == ("Mirror Adept", "GS-9.2")
    assert ruling.text == state.cards["Mirror Adept"].text
    state, _ = put(state, "p2", "Pylon")
    assert verdict(state, "play Sabotage").rulings[0].card == "Sabotage"


def test_gs_9_2_a_free_text_activation_checks_costs_and_its_optional_target() -> None:
    state = started()
    state, warden = put(state, "p1", "Chrono Warden")
    state, _ = put(state, "p1", "Pylon")
    state, foe = put(state, "p2", "Gamma Trooper", tapped=True)
    assert_illegal(state, f"activate #{warden} on #42", "GS-1.3", "#42")
    v = assert_legal(state, f"activate #{warden} on #{foe}")
    assert v.rulings[0].card == "Chrono Warden"
    assert v.rulings[0].clause == "GS-9.2"
    state = play(state, f"activate #{warden} on #{foe}")
    assert entity(state, warden).tapped
    assert all(e.tapped for e in state.field if e.kind == "pylon")


def test_gs_2_9_and_gs_i_22_conditional_and_lasting_effects_ask_no_ruling_when_played() -> None:
    state = started({"p2": OTHER})
    state = play(state, "end", "draw")
    state = resources_of(state, "p2", jiggawatts=1)
    for text in ("play Ember Hound", "play Bastion Wall"):
        v = assert_legal(state, text)
        assert v.status == "legal"
        state = play(state, text)
    v = assert_legal(state, f"play Gauss Repeater on #{state.field[0].id}")
    assert v.status == "legal"
    hound = state.field[0].id
    state = adjust(state, f"stat #{hound} level +1")  # the referee carries out the condition later
    assert entity(state, hound).level == 3


# -- adjustments (GS-9.3 to GS-9.8) ----------------------------------------------------------


def test_gs_9_3_an_adjustment_is_checked_change_by_change_against_the_position() -> None:
    state = started({"p1": DECK})
    assert change_verdict(state, "resource p1 gas -300").legal
    state = adjust(state, "resource p1 gas -300; resource p1 gas +100")
    assert side(state, "p1").gas == 3300 - 200
    refused(state, "resource p1 gas -5000", "REF-6.3", "p1 has 3100 gas; 5000 cannot be taken")


def test_gs_9_4_moving_cards_between_zones() -> None:
    state = started({"p1": DECK})
    state, trooper = put(state, "p1", "Gamma Trooper")
    state, blade = put(state, "p1", "Plasma Blade", carrier=trooper)
    refused(state, "move p3 hand>discard Pylon", "GS-9.4", "no seat 'p3'")
    refused(state, "move p1 hand>graveyard Pylon", "GS-9.4", "no zone 'graveyard'")
    refused(state, "move p1 hand>hand Pylon", "GS-9.4", "does not move")
    refused(state, "move p1 hand>discard", "GS-9.4", "name it")
    refused(state, "move p1 discard>hand Pylon", "GS-9.4", "no Pylon is in p1's discard pile")
    refused(state, "move p1 hand>discard #1", "GS-9.4", "numbers name cards on the field")
    refused(state, "move p1 hand>discard Fire Imp", "GS-2.1", "Fire Imp")
    refused(state, "move p2 field>hand #1", "GS-9.4", "is p1's, not p2's")
    refused(state, "move p1 hand>field Solar Flare", "GS-9.4", "events do not stay")
    refused(state, "move p1 hand>field Plasma Blade", "GS-9.4", "played onto its carrier")
    state = adjust(state, f"move p1 field>hand #{trooper}")
    assert entity(state, trooper) is None
    assert entity(state, blade) is None
    assert side(state, "p1").hand.known.count("Gamma Trooper") == 1
    assert side(state, "p1").discard == ("Plasma Blade",)
    state = adjust(state, "move p1 discard>hand Plasma Blade; move p1 hand>field Gamma Trooper")
    assert state.field[-1].card == "Gamma Trooper"
    assert state.field[-1].mode == "attack"
    hand = side(state, "p1").hand
    state = adjust(state, "move p1 hand>deck")
    assert side(state, "p1").hand.count == hand.count - 1
    assert side(state, "p1").hand.known.total == 0
    assert side(state, "p1").knowledge.seen.count("Plasma Blade") == 0


def test_gs_9_4_a_unique_entity_moved_onto_the_field_keeps_gs_6_5() -> None:
    state = started({"p1": DECK})
    state, _ = put(state, "p2", "Vesper the Undying")
    refused(state, "move p1 deck>field Vesper the Undying", "GS-6.5", "unique")


def test_gs_9_4_a_field_card_named_by_a_shared_name_must_be_numbered() -> None:
    state = started()
    state, _ = put(state, "p1", "Gamma Trooper")
    state, _ = put(state, "p1", "Gamma Trooper")
    refused(state, "destroy Gamma Trooper", "GS-9.4", "name one by number")
    refused(state, "destroy Shale Golem", "GS-1.3", "no Shale Golem")
    refused(state, "tap #12", "GS-1.3", "#12")


def test_gs_9_5_changing_attack_defense_and_level() -> None:
    state = started()
    state, trooper = put(state, "p1", "Gamma Trooper")
    state, wall = put(state, "p1", "Bastion Wall")
    state, pylon = put(state, "p1", "Pylon")
    state, blade = put(state, "p1", "Plasma Blade", carrier=trooper)
    state = adjust(
        state, f"stat #{trooper} attack +300; stat #{wall} defense -500; stat #{blade} attack +100"
    )
    assert attack_of(state, entity(state, trooper)) == 1200 + 300 + 500 + 100
    assert defense_of(state, entity(state, wall)) == 1500
    state = adjust(state, f"stat #{trooper} attack =1000")
    assert attack_of(state, entity(state, trooper)) == 1000
    state = adjust(state, f"stat #{trooper} level =5")
    assert attack_of(state, entity(state, trooper)) == 1000 + 2 * 200
    refused(state, f"stat #{trooper} level +6", "GS-I.23", "levels run from 1 to 10", "level 11")
    refused(state, f"stat #{trooper} level =0", "GS-I.23")
    refused(state, f"stat #{wall} level +1", "GS-9.5", "building and has no level")
    refused(state, f"stat #{pylon} defense +1", "GS-9.5", "pylon")
    refused(state, f"stat #{trooper} speed +1", "GS-9.5", "no stat 'speed'")


def test_gs_9_6_changing_gas_power_and_jiggawatts() -> None:
    state = started({"p1": DECK})
    state = adjust(state, "resource p2 gas +200; resource p1 jiggawatts +1; resource p2 pl -100")
    assert (side(state, "p2").gas, side(state, "p1").jiggawatts, side(state, "p2").power) == (
        3200,
        1,
        8900,
    )
    state = play(state, "play Supply Drop")
    assert side(state, "p1").jiggawatts == 0
    refused(state, "resource p1 mana +1", "GS-9.6", "no resource 'mana'")
    refused(state, "resource p1 jiggawatts -1", "REF-6.3")


def test_gs_8_1_and_gs_i_15_adjustments_that_reach_zero_end_the_game() -> None:
    state = started()
    one = adjust(state, "resource p2 power -9000")
    assert (RULES.outcome(one).winner, RULES.outcome(one).clause) == ("p1", "GS-8.1")
    both = adjust(state, "resource p1 power -9000; resource p2 power -9000")
    assert (RULES.outcome(both).status, RULES.outcome(both).clause) == ("draw", "GS-I.15")


def test_gs_9_7_tapping_untapping_and_destroying() -> None:
    state = started()
    state, trooper = put(state, "p2", "Gamma Trooper")
    state, blade = put(state, "p2", "Plasma Blade", carrier=trooper)
    state = adjust(state, f"tap #{trooper}")
    assert entity(state, trooper).tapped
    refused(state, f"tap #{trooper}", "GS-9.7", "already tapped")
    state = adjust(state, f"untap #{trooper}")
    refused(state, f"untap #{trooper}", "GS-9.7", "already untapped")
    state = adjust(state, f"destroy #{trooper}")
    assert entity(state, trooper) is None
    assert entity(state, blade) is None
    assert side(state, "p2").discard == ("Plasma Blade", "Gamma Trooper")


def test_gs_9_8_drawing_by_adjustment_is_limited_by_the_deck() -> None:
    state = started({"p1": decklist("8 Pylon\n1 Rift Scout")})
    refused(state, "draw p1 2", "GS-5.7", "p1's deck holds 1 card; 2 cannot be drawn")
    refused(state, "draw p9 1", "GS-9.4", "no seat")
    state = adjust(state, "draw p1 1")
    assert (side(state, "p1").hand.count, side(state, "p1").deck.count) == (9, 0)
    refused(state, "move p1 deck>hand", "GS-5.7", "empty")


def test_gs_i_5_an_effect_ruled_by_adjustment_that_overdraws_loses_under_lose() -> None:
    """A free-text effect's draw recorded as an adjustment meets GS-I.5 as a structured
    effect's draw does: under empty_deck=lose the seat draws what there is and loses."""
    state = started({"p1": decklist("8 Pylon\n1 Rift Scout")}, empty_deck="lose")
    state = adjust(state, "draw p1 2")
    assert (side(state, "p1").hand.count, side(state, "p1").deck.count) == (9, 0)
    out = RULES.outcome(state)
    assert (out.winner, out.clause) == ("p2", "GS-I.5")
    assert "p1 was made to draw 2 from a deck of 1" in (out.reason or "")


def test_gs_6_6_and_gs_9_1_a_character_whose_arrival_aims_may_enter_in_either_mode() -> None:
    from referee.games.gammasphere import Play

    state = started(options={"catalog": DUELIST})
    state, foe = put(state, "p2", "Veteran")
    listed = RULES.legal_actions(state)
    assert Play("Duelist", "", foe) in listed
    assert Play("Duelist", "defense", foe) in listed
    state = play(state, f"play Duelist (defense) on #{foe}")
    duelist = state.field[-1]
    assert (duelist.card, duelist.mode) == ("Duelist", "defense")
    assert entity(state, foe).level == 2


def test_gs_9_3_nothing_is_adjusted_before_the_opening_hands() -> None:
    from tests.gammasphere.helpers import new_game

    refused(new_game(), "resource p1 gas +100", "GS-9.3", "opening hands")


def test_gs_i_5_a_draw_awaited_from_a_deck_an_adjustment_emptied_is_skipped_or_lost() -> None:
    for variant in ("skip", "lose"):
        state = started({"p2": decklist("8 Pylon")}, empty_deck=variant)
        state = play(state, "end")
        assert state.phase == "draw"
        assert side(state, "p2").deck.count == 1
        state = adjust(state, "draw p2 1")
        if variant == "skip":
            assert state.phase == "main"
            assert side(state, "p2").gas == 3300
        else:
            assert (RULES.outcome(state).winner, RULES.outcome(state).clause) == ("p1", "GS-I.5")


def test_gs_9_1_and_gs_6_9_a_structured_activated_effect_with_a_target() -> None:
    state = started(options={"catalog": NEST})
    state, nest = put(state, "p1", "Sniper Nest")
    state, _ = put(state, "p1", "Pylon")
    state, mine = put(state, "p1", "Recruit")
    state, foe = put(state, "p2", "Recruit")
    assert_illegal(state, f"activate #{nest}", "GS-9.1", "add 'on #N'")
    assert_illegal(state, f"activate #{nest} on #{mine}", "GS-9.1", "p1's own")
    assert RULES.legal_actions(state).count(Activate(nest, foe)) == 1
    v = assert_legal(state, f"activate #{nest} on #{foe}")
    assert v.status == "legal"
    state = play(state, f"activate #{nest} on #{foe}")
    assert entity(state, foe) is None
    assert entity(state, nest).tapped
    assert side(state, "p2").discard == ("Recruit",)


def test_gs_i_32_a_card_with_nothing_to_aim_at_is_still_played_and_that_part_does_nothing() -> None:
    """GS-I.32 (no_target=play, the default): the page lets a player play what they can
    afford; with no character of the kind an effect aims at, the card is played without
    'on #N', paid for, and the aimed part does nothing. Before this ruling the play was
    refused under GS-9.1."""
    state = started(options={"catalog": DUELIST})
    state = resources_of(state, "p1", gas=1000)
    hand = side(state, "p1").hand.count
    assert Play("Duelist", "", 0) in RULES.legal_actions(state)
    state = play(state, "play Duelist (defense)")
    duelist = state.field[-1]
    assert (duelist.card, duelist.mode, duelist.level) == ("Duelist", "defense", 2)
    assert side(state, "p1").gas == 900
    assert side(state, "p1").hand.count == hand - 1
    # once an opposing character is there, the effect must name it again (GS-9.1)
    state, foe = put(state, "p2", "Veteran")
    assert_illegal(state, "play Duelist", "GS-9.1", "add 'on #N'")
    state = play(state, f"play Duelist on #{foe}")
    assert entity(state, foe).level == 2


def test_gs_i_32_an_activated_effect_with_nothing_to_aim_at_pays_and_taps() -> None:
    state = started(options={"catalog": NEST})
    state, nest = put(state, "p1", "Sniper Nest")
    state, _ = put(state, "p1", "Pylon")
    state, mine = put(state, "p1", "Recruit")
    assert Activate(nest, 0) in RULES.legal_actions(state)
    state = play(state, f"activate #{nest}")
    assert entity(state, nest).tapped
    assert entity(state, mine) is not None  # only opposing characters are aimed at
    assert all(e.tapped for e in state.field if e.kind == "pylon")


def test_gs_i_32_a_table_may_refuse_a_card_with_nothing_to_aim_at() -> None:
    state = started(options={"catalog": DUELIST}, no_target="refuse")
    state = resources_of(state, "p1", gas=1000)
    # the clause is GS-9.1, as games recorded before GS-I.32 were refused under (verify)
    assert_illegal(state, "play Duelist", "GS-9.1", "none is on the field", "no_target=refuse")
    assert not [a for a in RULES.legal_actions(state) if getattr(a, "card", "") == "Duelist"]
    nest = started(options={"catalog": NEST}, no_target="refuse")
    nest, number = put(nest, "p1", "Sniper Nest")
    nest, _ = put(nest, "p1", "Pylon")
    assert_illegal(nest, f"activate #{number}", "GS-9.1", "opposing character", "GS-I.32")


DRILL = (
    """
[[cards]]
name = "Pylon"
kind = "pylon"
"""
    + DRILLMASTER_CARD
    + DUELIST_CARD
)


def test_gs_i_33_an_arriving_character_does_not_aim_at_itself_by_default() -> None:
    """GS-I.33 (self_target=no): the target is among the cards on the field when the entry
    is made; naming the number the arriving character takes is refused in plain words, under
    GS-1.3 (that number is not on the field), as games recorded before GS-I.33 were."""
    state = started(options={"catalog": DRILL})
    number = state.next_id
    reason = assert_illegal(state, f"play Drillmaster on #{number}", "GS-1.3", "never at itself")
    assert f"#{number} is the number Drillmaster would take" in reason
    assert "GS-I.33" in reason
    assert_illegal(state, f"play Duelist on #{number}", "GS-1.3", "not a card on the field")
    state = play(state, "play Drillmaster")  # nothing else to aim at (GS-I.32)
    assert entity(state, number).level == 3


def test_gs_i_33_a_table_may_let_an_arriving_character_aim_at_itself() -> None:
    state = started(options={"catalog": DRILL}, self_target="yes")
    number = state.next_id
    assert RULES.legal_actions(state).count(Play("Drillmaster", "", number)) == 1
    assert_illegal(state, "play Drillmaster", "GS-9.1", "add 'on #N'")  # itself is there
    state = play(state, f"play Drillmaster (defense) on #{number}")
    arrived = entity(state, number)
    assert (arrived.level, arrived.mode) == (5, "defense")
    assert attack_of(state, arrived) == 800 + 2 * 200
    # an effect aiming at an opposing character never names the card itself
    after = state.next_id
    assert_illegal(state, f"play Duelist on #{after}", "GS-9.1", "opposing character")
