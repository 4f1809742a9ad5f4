"""The Prismatic rulebook: its sections, interpretations and variants.

The checks every game shares are the contract suite's (tests/contract/test_rulebooks.py).
"""

from __future__ import annotations

import pytest

from referee import games
from referee.contract import Player, Setup
from referee.errors import SetupError
from referee.games.prismatic import PrismaticRules
from referee.rulebook import find_clause
from tests.prismatic.helpers import RULES
from tests.rulebooks import check_book


def test_rulebook_has_its_sections_interpretations_and_variants() -> None:
    """PX-1 to PX-15 and the interpretations (PX-I), which carry the table's variants,
    each defaulting to its first choice."""
    check_book(
        "prismatic",
        RULES,
        sections=[f"PX-{n}" for n in range(1, 16)] + ["PX-I"],
        titles=["The game and its components", "Setup", "The round and the draw"],
        interpretations="PX-I",
        variants={
            "spent_motes",
            "gained_motes",
            "ability_uses",
            "empty_target",
            "empty_deck",
            "starter_token",
            "draw_action",
            "progress_removal",
            "components",
            "goal_reach",
            "opening_forgo",
        },
    )
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


def test_px_i_30_goal_reach_play_on_keeps_the_rules_before_it() -> None:
    """PX-I.30, variant goal_reach=play_on (what a game recorded before the switch plays):
    a goal above the catalog's play cards may be agreed, as it could before PX-I.30."""
    players = (Player("p1", "Ann"), Player("p2", "Ben"))
    rules = PrismaticRules()
    with pytest.raises(SetupError, match=r"PX-I\.30"):
        rules.resolve_setup(Setup(players=players, options={"goal": 100}))
    setup = rules.resolve_setup(
        Setup(players=players, options={"goal": 100}, variants={"goal_reach": "play_on"})
    )
    assert rules.initial_state(setup).table.goal_reach == "play_on"
    assert [o.absent for o in rules.variant_options if o.key == "goal_reach"] == ["play_on"]
