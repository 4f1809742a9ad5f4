"""A round's games draw their seeds as a single game's setup does (``drawn_seeds``): the
same options drawn, in the same order, so a pairing's games are set up as each game made
alone would be."""

from __future__ import annotations

import itertools

import pytest

from referee import games
from referee.game.setup import drawn_seeds, resolve_options


@pytest.mark.parametrize("name", games.names())
def test_drawn_seeds_are_the_options_a_game_with_none_given_draws(name: str) -> None:
    rules = games.load(name)
    alone, batched = itertools.count(1), itertools.count(1)
    resolved = resolve_options(rules, {}, lambda: next(alone))
    made = {key: next(batched) for key in drawn_seeds(rules)}
    assert made == resolved
    assert list(made) == list(resolved)  # drawn in the same order
    assert next(alone) == next(batched)  # as many draws


def test_a_game_whose_rules_draw_a_seed_is_told_so() -> None:
    """Prismata's random set is drawn from a seed when no unit is named (its rulebook's
    setup): the batch draws it too."""
    assert drawn_seeds(games.load("prismata")) == ["seed"]
    assert drawn_seeds(games.load("gammasphere")) == []
