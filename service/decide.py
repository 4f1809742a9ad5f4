"""The referee's commands and decisions on a game, as the service's faces name them.

The decisions are the domain's (``referee.game``: the commands in
``referee.game.commands``, the decisions in ``referee.game.decisions`` and
``referee.game.entries``, their one door ``referee.game.write``); this module
re-exports what the faces and the tests named here before they moved, so neither
reaches past the service for them. The service carries them out through its one write
pipeline (``service.pipeline``), which checks the version the writer saw.
"""

from __future__ import annotations

from referee.game import commands
from referee.game.commands import *  # noqa: F403 - every command, as referee.game.commands lists them
from referee.game.decisions import check_deck, decide_new_game
from referee.game.write import decide

__all__ = ["check_deck", "decide", "decide_new_game"]
__all__ += commands.__all__
