"""The Gammasphere rulebook: its sections, interpretations and variants.

The checks every game shares are the contract suite's (tests/contract/test_rulebooks.py).
"""

from __future__ import annotations

from referee import games
from referee.games.gammasphere import GammasphereRules
from referee.rulebook import find_clause, load_rulebook
from tests.gammasphere.helpers import RULES
from tests.rulebooks import (
    check_interpretations_are_section,
    check_sections,
    check_variants_name_interpretations,
)

SECTIONS = [f"GS-{n}" for n in range(1, 10)] + ["GS-N", "GS-I"]


def test_rulebook_loads_with_its_sections_in_order() -> None:
    titles = ["General", "Cards and the catalog", "Decks"]
    check_sections("gammasphere", RULES, SECTIONS, titles)
    assert load_rulebook("gammasphere").title == GammasphereRules.title


def test_interpretations_are_exactly_section_gs_i() -> None:
    check_interpretations_are_section("gammasphere", "GS-I")


def test_every_variant_option_names_an_interpretation_clause_with_that_variant() -> None:
    check_variants_name_interpretations(
        "gammasphere",
        GammasphereRules,
        {
            "deck_limits",
            "first_draw",
            "empty_deck",
            "attack_taps",
            "attack_tie",
            "defender_loses",
            "direct_attack",
        },
    )


def test_registry_finds_gammasphere_and_its_clauses() -> None:
    rules = games.load("gammasphere")
    assert isinstance(rules, GammasphereRules)
    assert find_clause("gs-8.1", "gammasphere").title == "Power level at zero"
    assert find_clause("GS-I.7", "gammasphere").variant == "attack_taps"
