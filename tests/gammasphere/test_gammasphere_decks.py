"""Deck construction and the cards a seat shows against its deck (GS-3, GS-I.1, GS-I.19,
GS-I.27), with open, sealed and unregistered decks."""

from __future__ import annotations

from referee.kit.decks import seal
from tests.gammasphere.helpers import (
    DECK,
    RULES,
    adjust,
    assert_illegal,
    change_verdict,
    decklist,
    play,
    put,
    resources_of,
    setup,
    side,
    started,
)

SALT = "a-salt-of-thirty-two-or-more-characters"


def clauses(text: str, **variants: str) -> list[str]:
    return [
        v.clause
        for v in RULES.check_deck(
            setup(None, None, None, **variants), "p1", decklist(text)
        ).violations
    ]


def test_gs_3_1_at_most_four_copies_of_each_entity() -> None:
    assert clauses("4 Gamma Trooper\n4 Gas Refinery\n4 Plasma Blade\n28 Pylon") == []
    verdict = RULES.check_deck(setup(), "p1", decklist("5 Gamma Trooper\n35 Pylon"))
    assert [(v.clause, v.reason) for v in verdict.violations] == [
        ("GS-3.1", "5 Gamma Trooper: a deck holds at most 4 copies of an entity")
    ]
    assert clauses("5 Gas Refinery\n5 Plasma Blade\n30 Pylon") == ["GS-3.1", "GS-3.1"]


def test_gs_3_2_at_most_four_copies_of_each_event() -> None:
    assert clauses("4 Solar Flare\n36 Pylon") == []
    assert clauses("5 Solar Flare\n35 Pylon") == ["GS-3.2"]


def test_gs_3_3_any_number_of_pylons() -> None:
    assert clauses("60 Pylon") == []
    assert clauses("200 Pylon") == []


def test_gs_i_19_the_limit_of_four_is_per_card_not_for_all_entities() -> None:
    many = "4 Gamma Trooper\n4 Ion Lancer\n4 Shale Golem\n4 Rift Scout\n4 Plasma Blade\n20 Pylon"
    assert clauses(many) == []


def test_gs_3_4_every_listed_card_is_in_the_catalog_as_spelled() -> None:
    verdict = RULES.check_deck(setup(), "p1", decklist("4 gamma trooper\n2 Fire Imp\n34 Pylon"))
    reasons = [(v.clause, v.reason) for v in verdict.violations]
    spelled = (
        "gamma trooper is not a card of the catalog 'Example cards (invented)'; "
        "the catalog spells it 'Gamma Trooper'"
    )
    assert ("GS-3.4", spelled) in reasons
    assert any(c == "GS-3.4" and "Fire Imp" in r for c, r in reasons)


def test_gs_3_4_a_misspelt_card_is_answered_with_the_closest_names() -> None:
    verdict = RULES.check_deck(setup(), "p1", decklist("4 Ion Lancr\n36 Pylon"))
    assert [(v.clause, v.reason) for v in verdict.violations] == [
        (
            "GS-3.4",
            "Ion Lancr is not a card of the catalog 'Example cards (invented)'; "
            "did you mean Ion Lancer?",
        )
    ]


def test_gs_i_1_decks_need_an_opening_hand_by_default_and_40_to_60_by_variant() -> None:
    assert clauses("7 Pylon") == []
    assert clauses("6 Pylon") == ["GS-I.1"]
    assert clauses("39 Pylon", deck_limits="40-60") == ["GS-I.1"]
    assert clauses("61 Pylon", deck_limits="40-60") == ["GS-I.1"]
    assert clauses("60 Pylon", deck_limits="40-60") == []


def test_gs_3_5_a_card_not_in_the_registered_list_is_rejected() -> None:
    state = started({"p1": DECK})
    assert_illegal(
        state, "play Static Medic", "GS-3.5", "Static Medic is not in p1's registered list"
    )


def test_gs_3_5_a_card_already_seen_as_often_as_listed_is_rejected() -> None:
    state = started({"p1": DECK})
    state = resources_of(state, "p1", gas=9000)
    state = play(state, *["play Gamma Trooper"] * 4)
    assert_illegal(
        state, "play Gamma Trooper", "GS-3.5", "has 4 Gamma Trooper; all 4 copies already seen"
    )


def test_gs_3_5_without_a_list_a_fifth_copy_of_an_entity_or_event_is_rejected() -> None:
    state = started()
    state = resources_of(state, "p1", gas=9000, jiggawatts=9)
    state = play(state, *["play Rift Scout"] * 4)
    assert_illegal(
        state, "play Rift Scout", "GS-3.5", "already shows 4 Rift Scout; a fifth copy", "GS-3.1"
    )
    state = play(state, *["play Supply Drop"] * 4)
    assert_illegal(state, "play Supply Drop", "GS-3.5", "GS-3.2")
    state = resources_of(state, "p1", hand=side(state, "p1").hand.put_unseen(5))
    state = play(state, *["construct Pylon"] * 9)
    assert sum(1 for e in state.field if e.kind == "pylon") == 9


def test_gs_3_5_a_sealed_list_limits_copies_like_no_list_until_opened() -> None:
    sealed = seal(DECK, SALT)
    state = started({"p1": sealed})
    knowledge = RULES.deck_knowledge(state, "p1")
    assert knowledge is not None
    assert knowledge.sealed == sealed.commitment
    assert knowledge.listed is None
    assert side(state, "p1").deck.count == 40 - 8
    state = resources_of(state, "p1", gas=9000)
    state = play(state, "play Static Medic")  # not on the hidden list, but nobody can tell yet
    knowledge = RULES.deck_knowledge(state, "p1")
    assert knowledge is not None
    assert knowledge.check_open(DECK, SALT, "REF-5.3").violations[0].reason == (
        "cards p1 showed in play are not in the sealed list: 1 Static Medic"
    )


def test_gs_3_5_an_opened_sealed_list_is_checked_from_then_on() -> None:
    sealed = seal(DECK, SALT)
    state = started({"p1": sealed})
    state = play(state, "play Gamma Trooper")
    knowledge = RULES.deck_knowledge(state, "p1")
    assert knowledge is not None
    assert knowledge.check_open(DECK, SALT, "REF-5.3").legal
    state = RULES.with_deck_knowledge(state, "p1", knowledge.opened(DECK))
    assert_illegal(state, "play Static Medic", "GS-3.5", "not in p1's registered list")
    unaccounted = side(state, "p1").knowledge.unaccounted()
    assert unaccounted is not None
    assert unaccounted.count("Gamma Trooper") == 3


def test_gs_3_5_a_card_revealed_from_the_deck_by_adjustment_is_checked_too() -> None:
    state = started({"p1": DECK})
    assert change_verdict(state, "move p1 deck>hand Static Medic").violations[0].clause == "GS-3.5"
    state = adjust(state, "move p1 deck>hand Vesper the Undying")
    verdict = change_verdict(state, "move p1 deck>discard Vesper the Undying")
    assert verdict.violations[0].clause == "GS-3.5"
    assert "the only copy" in verdict.violations[0].reason


def test_gs_i_27_a_card_put_back_into_the_deck_may_be_shown_again() -> None:
    state = started({"p1": DECK})
    state, _ = put(state, "p1", "Pylon")
    state = adjust(state, "move p1 deck>hand Vesper the Undying")
    assert side(state, "p1").knowledge.seen.count("Vesper the Undying") == 1
    state = adjust(state, "move p1 hand>deck Vesper the Undying")
    assert side(state, "p1").knowledge.seen.count("Vesper the Undying") == 0
    assert side(state, "p1").deck.known.total == 0
    state = adjust(state, "move p1 deck>hand Vesper the Undying")
    assert side(state, "p1").hand.known.count("Vesper the Undying") == 1


def test_a_known_card_in_hand_is_played_without_counting_a_new_copy() -> None:
    state = started({"p1": DECK})
    state = adjust(state, "move p1 deck>hand Vesper the Undying")
    state = resources_of(state, "p1", gas=5000, jiggawatts=2)
    state = play(state, "play Vesper the Undying")
    knowledge = side(state, "p1").knowledge
    assert knowledge.seen.count("Vesper the Undying") == 1
    assert side(state, "p1").hand.known.total == 0
