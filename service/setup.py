"""Game types as the faces present them. Completing a table's setup options is the
new game's decision's (``referee.game.setup.resolve_options``).
"""

from __future__ import annotations

from referee import games
from service.results import GameInfo

__all__ = ["game_info"]


def game_info(name: str) -> GameInfo:
    rules = games.load(name)
    lowest, highest = rules.player_range()
    return GameInfo(
        name=rules.name,
        title=rules.title,
        seats=list(rules.seats),
        min_players=lowest,
        max_players=highest,
        rulesets=list(rules.rulesets),
        variants=list(rules.variant_options),
        setup_fields=list(rules.setup_fields),
        takes_decks=rules.takes_decks,
    )
