"""The Prismatic rulebook: what is particular to it.

Its sections, interpretations and variant keys are pinned, and the checks every game
shares made, by the contract suite (tests/contract/test_rulebooks.py).
"""

from __future__ import annotations

from referee import games
from referee.games.prismatic import PrismaticRules
from referee.rulebook import find_clause


def test_every_variant_defaults_to_its_first_choice() -> None:
    for option in PrismaticRules.variant_options:
        assert option.default == option.choices[0]


def test_registry_finds_prismatic_and_its_clauses() -> None:
    rules = games.load("prismatic")
    assert isinstance(rules, PrismaticRules)
    assert find_clause("px-12.7", "prismatic").title == "Most prismatic motes"
    assert find_clause("PX-I.9", "prismatic").variant == "starter_token"


def test_px_i_23_names_the_board_text_it_reads() -> None:
    """PX-I.23: progress cards leave by the Discard action or the board's 'Discard One Card'
    creation, whose text allows an own progress card or a common card (PX-10.4)."""
    text = find_clause("PX-I.23", "prismatic").text
    assert "Discard One Card" in text
    assert "PX-8.7" in text
    assert "PX-12.8" in text
