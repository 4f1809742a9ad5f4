"""The PRIZMIK rulebook: its sections, interpretations and variants.

The checks every game shares are the contract suite's (tests/contract/test_rulebooks.py).
"""

from __future__ import annotations

from referee import games
from referee.games.prizmik import PrizmikRules
from referee.rulebook import find_clause
from tests.prizmik.helpers import RULES
from tests.rulebooks import (
    check_interpretations_are_section,
    check_sections,
    check_variants_name_interpretations,
)


def test_rulebook_loads_with_ten_sections_in_order() -> None:
    titles = ["Overview and turns", "Pieces and nests", "Board and setup"]
    check_sections("prizmik", RULES, [f"PZ-{n}" for n in range(1, 11)], titles)


def test_interpretations_are_exactly_section_pz_10() -> None:
    check_interpretations_are_section("prizmik", "PZ-10")


def test_every_variant_option_names_an_interpretation_clause_with_that_variant() -> None:
    check_variants_name_interpretations(
        "prizmik",
        PrizmikRules,
        {"setup_files", "fleet_capturable", "no_legal_action", "quiet_limit"},
    )


def test_registry_finds_prizmik_and_its_clauses() -> None:
    rules = games.load("prizmik")
    assert isinstance(rules, PrizmikRules)
    assert find_clause("pz-8.1", "prizmik").title == "Win by taking every base"
    assert find_clause("REF-1.3").id == "REF-1.3"
