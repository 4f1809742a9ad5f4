"""The Gammasphere rulebook: its sections, interpretations and variants.

The checks every game shares are the contract suite's (tests/contract/test_rulebooks.py).
"""

from __future__ import annotations

from referee import games
from referee.games.gammasphere import GammasphereRules
from referee.rulebook import find_clause, load_rulebook
from tests.gammasphere.helpers import RULES
from tests.rulebooks import check_book


def test_rulebook_has_its_sections_interpretations_and_variants() -> None:
    """GS-1 to GS-9, the notation (GS-N) and the interpretations (GS-I), which carry the
    table's variants."""
    check_book(
        "gammasphere",
        RULES,
        sections=[f"GS-{n}" for n in range(1, 10)] + ["GS-N", "GS-I"],
        titles=["General", "Cards and the catalog", "Decks"],
        interpretations="GS-I",
        variants={
            "deck_limits",
            "first_draw",
            "empty_deck",
            "attack_taps",
            "attack_tie",
            "defender_loses",
            "direct_attack",
            "building_weapons",
            "hand_limit",
            "switch_limit",
            "first_turn_attack",
            "no_target",
            "weapon_carriers",
            "self_target",
        },
    )
    assert load_rulebook("gammasphere").title == GammasphereRules.title


def test_registry_finds_gammasphere_and_its_clauses() -> None:
    rules = games.load("gammasphere")
    assert isinstance(rules, GammasphereRules)
    assert find_clause("gs-8.1", "gammasphere").title == "Power level at zero"
    assert find_clause("GS-I.7", "gammasphere").variant == "attack_taps"
