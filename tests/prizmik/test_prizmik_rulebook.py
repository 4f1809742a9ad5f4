"""The PRIZMIK rulebook: its sections, interpretations and variants.

The checks every game shares are the contract suite's (tests/contract/test_rulebooks.py).
"""

from __future__ import annotations

from referee import games
from referee.games.prizmik import PrizmikRules
from referee.rulebook import find_clause
from tests.prizmik.helpers import RULES
from tests.rulebooks import check_book


def test_rulebook_has_its_sections_interpretations_and_variants() -> None:
    """PZ-1 to PZ-10, the last of them the interpretations, which carry the variants."""
    check_book(
        "prizmik",
        RULES,
        sections=[f"PZ-{n}" for n in range(1, 11)],
        titles=["Overview and turns", "Pieces and nests", "Board and setup"],
        interpretations="PZ-10",
        variants={
            "setup_files",
            "fleet_capturable",
            "no_legal_action",
            "quiet_limit",
            "far_rank_step",
            "impossible_test",
            "waiting_promotion",
        },
    )


def test_registry_finds_prizmik_and_its_clauses() -> None:
    rules = games.load("prizmik")
    assert isinstance(rules, PrizmikRules)
    assert find_clause("pz-8.1", "prizmik").title == "Win by taking every base"
    assert find_clause("REF-1.3").id == "REF-1.3"
