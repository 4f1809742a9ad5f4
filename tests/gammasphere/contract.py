"""Contract cases for Gammasphere: scripted games the shared contract suite plays through
the application layer and the store (see ``tests/contract/cases.py``).

Together they use every kind of entry (draw, play, construct, attack, switch,
activate, discard, end), the opening hands as a step where both seats act
(REF-1.5), an open and a sealed registered list (opened once successfully and
once failing, REF-5.3), rulings on free-text cards carried out by adjustments,
a table's own catalog passed as file text, and rejections citing their clauses.
"""

from __future__ import annotations

from functools import partial

from tests.contract.cases import Act, Adjust, ContractCase, OpenDeck, Reject
from tests.gammasphere.helpers import DECK, OTHER

SALT = "gammasphere-contract-salt-0001-0123456789"
PLAYERS = {"p1": "Ann", "p2": "Ben"}

_case = partial(ContractCase, game="gammasphere", players=PLAYERS)
"""A Gammasphere case between Ann (p1) and Ben (p2)."""

OWN_CATALOG = """
# A table's own catalog (invented cards) for the contract case.
title = "Contract table cards"

[[cards]]
name = "Pylon"
kind = "pylon"

[[cards]]
name = "Brainstorm"
kind = "event"
text = "Its player draws four cards."
effect = { draw = 4 }

[[cards]]
name = "Clay Soldier"
kind = "character"
type = "Golem"
gas = 200
attack = 900
defense = 900
level = 2
attack_mod = 100
defense_mod = 100
"""

OPEN_AND_SEALED = _case(
    name="open and sealed lists, rulings, combat and a deck check",
    decks={"p1": DECK},
    sealed={"p2": (OTHER, SALT)},
    steps=(
        Act("draw 7", "p2"),
        Act("draw 7", "p1"),
        Reject("play Gamma Trooper", "GS-5.1"),
        Act("draw"),
        Act("construct Pylon"),  # #1
        Act("play Gamma Trooper"),  # #2
        Act("play Plasma Blade on #2"),  # #3: #2 attacks with 1700
        Act("play Supply Drop"),  # taps #1, +500 gas
        Reject("play Static Medic", "GS-3.5"),  # not on p1's registered list
        Act("end"),
        Act("draw"),
        Act("construct Pylon"),  # #4
        Act("play Shale Golem (defense)"),  # #5: defense 2200
        Act("play Mirror Adept"),  # #6: free text, a ruling
        Adjust("stat #6 level =3", "Mirror Adept", "takes the level of #2 Gamma Trooper"),
        Act("switch #6 defense"),
        Act("end"),
        Act("draw"),
        Act("attack #2 #5"),  # 1700 against 2200: p1 loses 500
        Reject("attack #2 #6", "GS-7.1"),  # #2 is tapped by its attack
        Act("play Ion Lancer"),  # #7, taps #1
        Act("attack #7 #6"),  # 1800 against defense 1200: #6 destroyed
        Act("end"),
        Act("draw"),
        Act("play Static Medic"),  # #8
        Act("activate #8"),  # taps #8: p2's power level 9200
        Act("end"),
        Act("draw"),
        Act("play Overclock on #7"),  # #7 to level 7, attack 2400
        Act("attack #7 #8"),  # 2400 against 500: #8 destroyed
        Act("switch #2 defense"),
        Act("end"),
        Act("draw"),
        Act("play Sabotage"),  # free text, a ruling
        Adjust(
            "move p1 hand>discard Gamma Trooper",
            "Sabotage",
            "p1 chose a Gamma Trooper to throw away",
        ),
        Act("end"),
        Act("draw"),
        Act("end"),
        OpenDeck("p2"),
        Act("draw"),
        Reject("play Rift Scout", "GS-3.5"),  # the opened list holds no Rift Scout
        Act("end"),
    ),
)

SEALED_LIST_FAILS = _case(
    name="a sealed list that misses a card shown in play",
    variants={"first_draw": "no"},
    options={"first": "p2"},
    sealed={"p2": (OTHER, SALT)},
    steps=(
        Act("draw 7", "p1"),
        Act("draw 7", "p2"),
        Reject("draw", "GS-5.1"),  # the first player skips the first draw (GS-I.4)
        Act("play Rift Scout (defense)"),  # not on the sealed list, which nobody can tell yet
        Act("end"),
        Act("draw"),
        Act("play Gamma Trooper"),
        Act("attack #2 #1"),  # 1200 against defense 400: #1 destroyed
        Act("end"),
        OpenDeck("p2", clause="REF-5.3"),
        Act("draw"),
    ),
)

OWN_CATALOG_DECK_OUT = _case(
    name="a table's catalog file, no lists, an end-of-turn discard and a deck-out",
    variants={"empty_deck": "lose"},
    options={"catalog": OWN_CATALOG, "deck_size": "12"},
    steps=(
        Act("draw 7", "p1"),
        Reject("draw 8", "GS-4.3", "p2"),  # an opening hand is seven cards
        Act("draw 7", "p2"),
        Act("draw"),
        Act("play Brainstorm"),  # p1 holds 11, its deck is empty
        Reject("draw", "GS-5.1"),
        Act("end"),
        Reject("end", "GS-5.6"),
        Act("discard Clay Soldier"),  # down to ten: the turn passes
        Act("draw"),
        Act("play Clay Soldier"),
        Act("end"),  # p1 must draw from an empty deck and loses
    ),
)

CASES: list[ContractCase] = [OPEN_AND_SEALED, SEALED_LIST_FAILS, OWN_CATALOG_DECK_OUT]
