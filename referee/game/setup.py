"""Completing a table's setup options, for a new game's decision.

A game declares its setup fields (``GameRules.setup_fields``); every face renders them
as its own options and hands the raw values to the decision, where they are converted
here and any missing seed is drawn by the caller's ``draw_seed``, so the rules core
never draws a random number.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.contract import GameRules
from referee.errors import SetupError

__all__ = ["drawn_seeds", "resolve_options"]


def resolve_options(
    rules: GameRules[Any, Any], raw: Mapping[str, Any], draw_seed: Callable[[], int]
) -> dict[str, Any]:
    """Convert a face's raw setup values by the game's fields; draw missing seeds.

    A seed is drawn only when no given option excludes it (Prismata's named units
    need none)."""
    fields = {f.key: f for f in rules.setup_fields}
    options: dict[str, Any] = {}
    for key, value in raw.items():
        name = key.replace("-", "_").lower()
        if name == "position":  # a position string: the game reads it (GameRules.read_position)
            options[name] = str(value)
            continue
        field = fields.get(name)
        if field is None:
            offered = ", ".join(f.flag for f in rules.setup_fields) or "none"
            raise SetupError(f"{rules.name} has no setup option {key!r}; its options: {offered}")
        if value is not None:
            options[name] = field.convert(value)
    for key, field in fields.items():
        for other in field.excludes:
            if key in options and other in options:
                raise SetupError(f"{field.flag} and {fields[other].flag} cannot be given together")
    for key, field in fields.items():
        if field.kind == "seed" and key not in options and "position" not in options:
            excluded = any(key in fields[given].excludes for given in options if given in fields)
            if not excluded:
                options[key] = draw_seed()
    return options


def drawn_seeds(rules: GameRules[Any, Any]) -> list[str]:
    """The options ``resolve_options(rules, {}, draw_seed)`` draws a seed for, in the order
    it draws them: which are drawn depends on the options' names alone, never on the
    seeds' values, so a caller making many games with no options given (a round's 5,000)
    draws ``{key: draw_seed() for key in drawn_seeds(rules)}``: the same options, the
    same draws in the same order, without the fields worked through for each game."""
    return list(resolve_options(rules, {}, lambda: 0))
