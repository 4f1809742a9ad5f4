"""The PRIZMIK rulebook: its sections, interpretations and variants.

The checks every game shares are the contract suite's (tests/contract/test_rulebooks.py).
"""

from __future__ import annotations

from referee import games
from referee.games.prizmik import PrizmikRules
from referee.rulebook import find_clause, load_rulebook
from tests.prizmik.helpers import RULES
from tests.rulebooks import (
    check_interpretations_are_section,
)


def test_rulebook_loads_with_ten_sections_in_order() -> None:
    book = load_rulebook("prizmik")
    assert book.game == "prizmik"
    assert [s.id for s in book.sections] == [f"PZ-{n}" for n in range(1, 11)]
    assert [s.title for s in book.sections][:3] == [
        "Overview and turns",
        "Pieces and nests",
        "Board and setup",
    ]
    assert RULES.rulebook() is book


def test_interpretations_are_exactly_section_pz_10() -> None:
    check_interpretations_are_section("prizmik", "PZ-10")


def test_every_variant_option_names_an_interpretation_clause_with_that_variant() -> None:
    book = load_rulebook("prizmik")
    keys = {v.key for v in PrizmikRules.variant_options}
    assert keys == {"setup_files", "fleet_capturable", "no_legal_action", "quiet_limit"}
    for option in PrizmikRules.variant_options:
        clause = book.get(option.clause)
        assert clause.kind == "interpretation"
        assert clause.variant == option.key
    marked = {c.variant for c in book.clauses if c.variant}
    assert marked == keys


def test_registry_finds_prizmik_and_its_clauses() -> None:
    rules = games.load("prizmik")
    assert isinstance(rules, PrizmikRules)
    assert find_clause("pz-8.1", "prizmik").title == "Win by taking every base"
    assert find_clause("REF-1.3").id == "REF-1.3"
