"""A game's line in any games list: the fields and the shown result every list of games
shares (the live list, ``projections.listing.ListedGame``, and the catalog's page,
``service.results.GameRow``), written once; and the filters of a page of the list
(``GameQuery``), which the service checks and the catalog or a scan of the log answers.

Light on purpose (msgspec and typing only): ``service.results`` names it, and the answers
of an entry or a position (what ``service.remote`` decodes) need no store.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

import msgspec

__all__ = ["FIRST_PAGE", "GameLine", "GameQuery", "Status", "shown_result"]

Status = Literal["open", "finished"]


def shown_result(result: str, how: str | None) -> str:
    """A game's result as a list shows it: ``p1 by penalty``; ``void`` (a game closed by
    its event, whose ``how`` is its result too: never ``void by void``)."""
    return f"{result} by {how}" if how and how != result else result


class GameLine(msgspec.Struct, kw_only=True):
    """What every games list shows of a game: players, when, and where it stands."""

    game_id: str
    game: str
    ruleset: str
    players: dict[str, str]
    created: datetime
    result: str
    how: str | None
    status: Status

    @property
    def result_text(self) -> str:
        """The result as the list shows it (``shown_result``)."""
        return shown_result(self.result, self.how)


class GameQuery(msgspec.Struct, frozen=True, kw_only=True):
    """A page of the games list, newest first: ``limit`` rows after ``offset`` (or those
    created before the ``before`` cursor), of ``player``, of a ``game`` type, of a
    ``status``, created at or after ``since`` (an ISO moment)."""

    limit: int = 50
    offset: int = 0
    before: int | None = None
    player: str | None = None
    game: str | None = None
    status: str | None = None
    since: str | None = None


FIRST_PAGE = GameQuery()
"""The newest 50 games, unfiltered."""
