"""The Prismatic rulebook: its variants' defaults and the wording of two interpretations.

The checks every game shares, and each book's sections and variant keys, are the contract
suite's (tests/contract/test_rulebooks.py).
"""

from __future__ import annotations

import pytest

from referee.contract import Player, Setup
from referee.errors import SetupError
from referee.games.prismatic import PrismaticRules
from referee.rulebook import find_clause


def test_px_i_every_variant_defaults_to_its_first_choice() -> None:
    """The interpretations' variants (PX-I) each default to the first of their choices."""
    for option in PrismaticRules.variant_options:
        assert option.default == option.choices[0]


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
