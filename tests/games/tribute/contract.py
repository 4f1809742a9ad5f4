"""Contract cases of the test game Tribute: three seats, an open, a sealed and an
unregistered-until-later deck, simultaneous draws, a Joker ruled by adjustment, a
sealed list opened mid-game, and the impossible reports rejected."""

from __future__ import annotations

from referee.kit.decks import parse_decklist
from tests.contract.cases import Act, Adjust, ContractCase, OpenDeck, Reject

SEALED_SALT = "tribute-salt-0123456789-0123456789"

CASES = [
    ContractCase(
        game="tribute",
        name="three seats to the end",
        players={"p1": "Ann", "p2": "Ben", "p3": "Cy"},
        decks={"p1": parse_decklist("2 Ace\n2 Joker"), "p3": parse_decklist("2 Jack")},
        sealed={"p2": (parse_decklist("2 King\n1 Jack"), SEALED_SALT)},
        steps=(
            Reject("draw 3", "TR-2.1", seat="p1"),  # an impossible draw: p1 draws 2 of 4
            Act("draw 2", seat="p2"),
            Act("draw 2", seat="p1"),
            Reject("play Ace", "TR-2.2", seat="p3"),  # p3 has not drawn: cards come after the draw
            Act("draw 2", seat="p3"),
            Reject("play King", "REF-5.4"),  # p1's list has no King
            Act("play Joker"),  # needs a ruling...
            Adjust("resource p1 score +2", "Joker"),  # ...carried out as an adjustment
            Act("play King"),  # p2's list is sealed: not checked yet
            Act("play Jack"),
            Act("draw 2", seat="p1"),
            Act("draw 1", seat="p2"),
            Act("draw 0", seat="p3"),
            OpenDeck("p2"),  # a deck check mid-game
            Act("play Ace"),
            Reject("play Ace", "REF-5.4"),  # p2's opened list has no Ace
            Act("play King"),
            Act("play Jack"),
            Act("draw 0", seat="p1"),
            Act("draw 0", seat="p2"),
            Act("draw 0", seat="p3"),
            Act("play Joker"),
            Adjust("resource p1 score +1", "Joker"),
            Act("play Jack"),
            Act("pass"),
            Act("draw 0", seat="p3"),
            Act("draw 0", seat="p1"),
            Act("draw 0", seat="p2"),
            Act("play Ace"),  # the last card: p1 9, p2 5, p3 2
        ),
    ),
    ContractCase(
        game="tribute",
        name="a sealed list that does not hold a card shown",
        players={"p1": "Ann", "p2": "Ben"},
        decks={"p1": parse_decklist("2 King")},
        sealed={"p2": (parse_decklist("2 Jack"), SEALED_SALT)},
        steps=(
            Act("draw 2", seat="p1"),
            Act("draw 2", seat="p2"),
            Act("play King"),
            Act("play Ace"),  # Ace is not in p2's sealed list...
            OpenDeck("p2", clause="REF-5.3"),  # ...which the opening shows
        ),
    ),
]
