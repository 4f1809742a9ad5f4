"""What each viewer sees (GS-1.2, REF-5.4): the field and resources for all, a registered
list only for its seat and the referee."""

from __future__ import annotations

import json

from referee.games.gammasphere import GammasphereState
from referee.kit.decks import seal
from tests.gammasphere.helpers import (
    DECK,
    OTHER,
    RULES,
    adjust,
    new_game,
    opened,
    play,
    put,
    resources_of,
    started,
)

VIEWERS = ("referee", "public", "p1", "p2")


def board() -> GammasphereState:
    state = started({"p1": DECK, "p2": OTHER})
    state = play(
        state, "construct Pylon", "play Gamma Trooper (defense)", "play Plasma Blade on #2", "end"
    )
    state = play(state, "draw")
    state, _ = put(state, "p2", "Shale Golem", level=8)
    return state


def views(state: GammasphereState, viewer: str) -> str:
    return RULES.render(state, viewer) + json.dumps(RULES.observe(state, viewer))


def test_gs_1_2_everyone_sees_the_field_resources_counts_and_discard_piles() -> None:
    state = board()
    text = RULES.render(state, "public")
    assert "Turn 2: p2 to play" in text
    assert "#2 Gamma Trooper [defense] Lv 3 ATK 1700 DEF 900 carrying #3 Plasma Blade" in text
    assert "#4 Shale Golem [attack] Lv 8 (printed 6) ATK 1000 DEF 2700" in text
    assert "p1: power level 9000, gas 2700, jiggawatt pool 0" in text
    assert "hand 5, deck 32" in text
    assert "hand 8, deck 32" in text
    assert "pylons 1 (1 untapped): #1" in text
    data = RULES.observe(state, "public")
    assert data["phase"] == "main"
    assert data["active"] == "p2"
    assert data["turn"] == 2
    trooper = next(e for e in data["field"] if e["id"] == 2)
    assert (trooper["attack"], trooper["defense"], trooper["mode"]) == (1700, 900, "defense")
    assert data["sides"][0]["hand"] == 5
    assert data["sides"][0]["deck"] == 32
    assert json.loads(json.dumps(data)) == data


def test_gs_1_2_a_registered_list_is_shown_only_to_its_seat_and_the_referee() -> None:
    state = board()
    assert "not yet seen: 3 Gamma Trooper" in RULES.render(state, "p1")
    assert "not yet seen: 3 Gamma Trooper" in RULES.render(state, "referee")
    for viewer in ("public", "p2"):
        assert "Ion Lancer" not in views(state, viewer)
        assert "registered list (40 cards)" not in RULES.render(state, viewer).split("\np1:")[-1]
    assert "list" in RULES.observe(state, "p1")["sides"][0]["list"]
    assert "list" not in RULES.observe(state, "p2")["sides"][0]["list"]


def test_no_view_shows_a_secret_of_another_seat() -> None:
    state = board()
    for seat in ("p1", "p2"):
        hidden = RULES.secrets(state, seat)
        assert hidden, f"{seat} should have cards nobody else may see"
        for viewer in VIEWERS:
            if viewer in ("referee", seat):
                continue
            seen = views(state, viewer)
            assert not [name for name in hidden if name in seen], (seat, viewer)
    assert "Ion Lancer" in RULES.secrets(state, "p1")
    assert "Gamma Trooper" not in RULES.secrets(state, "p1")  # in play, and on p2's own list


def test_secrets_leave_out_cards_shown_since() -> None:
    state = started({"p1": DECK})
    assert "Vesper the Undying" in RULES.secrets(state, "p1")
    state = adjust(state, "move p1 deck>hand Vesper the Undying")
    assert "Vesper the Undying" not in RULES.secrets(state, "p1")
    assert "known: 1 Vesper the Undying" in RULES.render(state, "public")


def test_sealed_and_unregistered_decks_keep_nothing_secret_from_the_view() -> None:
    state = started({"p1": seal(DECK, "a-salt-of-thirty-two-or-more-characters")})
    assert RULES.secrets(state, "p1") == frozenset()
    assert RULES.secrets(state, "p2") == frozenset()
    assert "sealed list of 40 cards (not opened)" in RULES.render(state, "p1")
    assert "no registered list; deck of 40 cards" in RULES.render(state, "p2")
    assert RULES.observe(state, "public")["sides"][0]["list"]["sealed"] is True


def test_the_opening_and_the_end_are_described() -> None:
    state = started()
    opening = new_game()
    assert "Opening hands: p1 and p2 to draw 7; p1 plays first" in RULES.render(opening)
    over = adjust(state, "resource p1 power -9000")
    assert "Game over: p2 wins (GS-8.1: p1's power level reached 0)" in RULES.render(over)
    assert RULES.observe(over)["over"] == {
        "winner": "p2",
        "clause": "GS-8.1",
        "reason": "p1's power level reached 0",
    }


def test_a_rejected_entrys_reason_hides_its_card_in_a_mirror_match() -> None:
    """GS-3.5: a card the actor names in a rejected entry while it is hidden in its deck is
    kept from the other seat and the public, even when the other seat registered the same
    card: that seat knows the card exists, not that the actor reached for it."""
    for decks in ({"p1": DECK, "p2": OTHER}, {"p1": DECK, "p2": DECK}):
        state = started(decks)
        rejected = RULES.check(state, RULES.parse("play Ion Lancer"), "p1")
        assert rejected.violations
        for viewer in ("p2", "public"):
            seen = " ".join(v.reason for v in rejected.for_viewer(viewer).violations)
            assert "Ion Lancer" not in seen, (decks["p2"] is DECK, viewer, seen)
        assert "Ion Lancer" in " ".join(v.reason for v in rejected.for_viewer("p1").violations)


def test_a_rejected_entrys_reason_hides_its_card_without_a_registered_list() -> None:
    """GS-1.2, GS-3.5: with no list registered (or a sealed one not yet opened) a hand is
    just as hidden, so a rejected entry's reason keeps the card the actor reached for from
    the other seat and the public, as the masked entry text does."""
    sealed = {"p1": seal(DECK, "a-salt-of-thirty-two-or-more-characters")}
    for decks in ({}, {"p2": OTHER}, sealed):
        state = started(decks)
        for text, name in (
            ("play Ion Lancer", "Ion Lancer"),
            ("play plasma blade", "Plasma Blade"),
            ("construct Ion Lancer", "Ion Lancer"),
            ("play  aegis PLATING", "Aegis Plating"),  # on p2's own list in the second game
        ):
            rejected = RULES.check(state, RULES.parse(text), "p1")
            assert rejected.violations
            for viewer in ("p2", "public"):
                seen = " ".join(v.reason for v in rejected.for_viewer(viewer).violations)
                assert name not in seen, (decks, viewer, seen)
            own = " ".join(v.reason for v in rejected.for_viewer("p1").violations)
            assert name in own, (decks, own)


def test_a_rejected_entrys_reason_hides_its_card_however_it_was_spelt() -> None:
    """GS-N.2, GS-3.5: a name typed in another letter case or spacing is still the card it
    names; a reason refusing the entry before its card is even looked at (the turn's draw
    comes first, GS-5.1) must not hand the other seat the actor's spelling of it."""
    for decks in ({"p1": DECK, "p2": OTHER}, {}):
        state = opened(decks)
        for text, name in (("play ion  LANCER", "lancer"), ("construct  pylon", "pylon")):
            rejected = RULES.check(state, RULES.parse(text), "p1")
            assert [v.clause for v in rejected.violations] == ["GS-5.1"]
            for viewer in ("p2", "public"):
                seen = " ".join(v.reason for v in rejected.for_viewer(viewer).violations)
                assert name not in seen.lower(), (decks, viewer, seen)
            own = " ".join(v.reason for v in rejected.for_viewer("p1").violations)
            assert name in own.lower(), (decks, own)


def test_a_rejected_entrys_reason_hides_its_card_even_when_the_name_is_in_sight() -> None:
    """GS-1.2, GS-3.5: a card of the same name in play or in a discard pile tells the other
    seat the card exists, not that the actor holds one: the reason refusing 'play NAME'
    keeps the name from the others unless the card is known to be in the actor's hand."""
    for decks in ({"p1": DECK, "p2": OTHER}, {"p1": DECK, "p2": DECK}, {}):
        state = started(decks)
        state, _ = put(state, "p2", "Gamma Trooper")
        state = resources_of(state, "p1", gas=100)
        rejected = RULES.check(state, RULES.parse("play gamma trooper"), "p1")
        assert [v.clause for v in rejected.violations] == ["GS-6.2"]
        for viewer in ("p2", "public"):
            seen = " ".join(v.reason for v in rejected.for_viewer(viewer).violations)
            assert "Gamma Trooper" not in seen, (decks, viewer, seen)
        assert "Gamma Trooper" in rejected.for_viewer("p1").violations[0].reason
    known = adjust(started({"p1": DECK}), "move p1 deck>hand Gamma Trooper")
    known = resources_of(known, "p1", gas=100)
    rejected = RULES.check(known, RULES.parse("play Gamma Trooper"), "p1")
    assert "Gamma Trooper" in rejected.for_viewer("p2").violations[0].reason  # known held
