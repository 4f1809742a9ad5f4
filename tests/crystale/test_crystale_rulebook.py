"""The CR rulebook: its sections, interpretations and variants.

The checks every game shares are the contract suite's (tests/contract/test_rulebooks.py).
"""

from __future__ import annotations

from referee import games
from referee.games.crystale import CrystaleRules
from referee.rulebook import find_clause, load_rulebook
from tests.crystale.helpers import RULES
from tests.rulebooks import check_book


def test_rulebook_has_its_sections_interpretations_and_variants() -> None:
    """CR-1 to CR-13, the notation (CR-N) and the interpretations (CR-I), which carry the
    table's variants."""
    check_book(
        "crystale",
        RULES,
        sections=[f"CR-{n}" for n in range(1, 14)] + ["CR-N", "CR-I"],
        titles=[],
        interpretations="CR-I",
        variants={
            "counterattack",
            "bonus_mp",
            "start_mp",
            "promotion_hp",
            "attack_after_move",
            "trigger_order",
            "summon_sacrifice",
            "counter_range",
            "counter_fatigue",
            "slot_phase",
            "slot_earning",
            "zero_strike",
            "slot_servant",
        },
    )
    assert len(load_rulebook("crystale").clauses) >= 100


def test_registry_finds_crystale_and_its_clauses() -> None:
    rules = games.load("crystale")
    assert isinstance(rules, CrystaleRules)
    assert rules.title == "Crystale summoner battle"
    assert rules.seats == ("p1", "p2")
    assert find_clause("cr-13.1", "crystale").title == "Three hits"
