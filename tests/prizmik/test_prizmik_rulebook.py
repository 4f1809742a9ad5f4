"""The PRIZMIK rulebook: what is particular to it.

Its sections, interpretations and variant keys are pinned, and the checks every game
shares made, by the contract suite (tests/contract/test_rulebooks.py).
"""

from __future__ import annotations

from referee import games
from referee.games.prizmik import PrizmikRules
from referee.rulebook import find_clause


def test_registry_finds_prizmik_and_its_clauses() -> None:
    rules = games.load("prizmik")
    assert isinstance(rules, PrizmikRules)
    assert find_clause("pz-8.1", "prizmik").title == "Win by taking every base"
    assert find_clause("REF-1.3").id == "REF-1.3"
