"""The organizer's walk through the pages (branch webwalk): what a player's own page and the
staff's pages must say that the walk found missing."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Tokens, auth
from tests.web.test_calls_api import make_event


def test_ev_8_6_a_game_loss_shows_on_both_players_own_pages_as_the_match_so_far(
    client: Any, tokens: Tokens, store: str
) -> None:
    """A game loss given to Ann (tardiness, EV-8.6) ends her game 1 as a loss: the
    pairings say "0-1-0 so far" at table 1, and so must Ann's and Ben's own pages (the
    HTML and ``GET /api/events/E/players/NAME``), each with their own games first, or the
    player learns of the penalty only from the posting by table."""
    event = make_event(store)
    given = client.post(
        f"/api/events/{event}/penalties",
        json={"player": "Ann", "infraction": "tardiness", "reason": "ten minutes late"},
        headers=auth(tokens["head"]),
    )
    assert given.status_code == 201, given.text
    assert given.json()["penalty"] == "game-loss"
    for name, token, mine in (("Ann", "ann", "0-1-0"), ("Ben", "ben", "1-0-0")):
        line = client.get(f"/api/events/{event}/players/{name}", headers=auth(tokens[token]))
        assert line.json()["so_far"] == mine, line.text
        assert line.json()["result"] == ""  # the match is still being played
        assert line.json()["history"][0]["so_far"] == mine
        page = client.get(f"/events/{event}/me", headers=auth(tokens[token]))
        assert f"games {mine} so far" in page.text
