"""The CR rulebook: its sections, interpretations and variants.

The checks every game shares are the contract suite's (tests/contract/test_rulebooks.py).
"""

from __future__ import annotations

from referee import games
from referee.games.crystale import CrystaleRules
from referee.rulebook import find_clause, load_rulebook
from tests.crystale.helpers import RULES
from tests.rulebooks import (
    check_interpretations_are_section,
    check_sections,
    check_variants_name_interpretations,
)

SECTIONS = [f"CR-{n}" for n in range(1, 14)] + ["CR-N", "CR-I"]


def test_rulebook_loads_with_its_sections_in_order() -> None:
    check_sections("crystale", RULES, SECTIONS, [])
    assert len(load_rulebook("crystale").clauses) >= 100


def test_interpretations_are_exactly_section_cr_i() -> None:
    check_interpretations_are_section("crystale", "CR-I")


def test_every_variant_option_names_an_interpretation_clause_with_that_variant() -> None:
    check_variants_name_interpretations(
        "crystale",
        CrystaleRules,
        {
            "counterattack",
            "bonus_mp",
            "start_mp",
            "promotion_hp",
            "attack_after_move",
            "trigger_order",
        },
    )


def test_registry_finds_crystale_and_its_clauses() -> None:
    rules = games.load("crystale")
    assert isinstance(rules, CrystaleRules)
    assert rules.title == "Crystale summoner battle"
    assert rules.seats == ("p1", "p2")
    assert find_clause("cr-13.1", "crystale").title == "Three hits"
