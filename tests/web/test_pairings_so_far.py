"""The pairings page shows a best-of-three still being played with its games won so far (a
slip's W-L-D, for the first-listed player), and a finished one with its result."""

from __future__ import annotations

import re

from litestar import Litestar
from litestar.testing import TestClient

from service.app import open_service
from tests.web.conftest import Tokens, auth

Client = TestClient[Litestar]


def result_cells(page: str) -> dict[str, str]:
    """Each table's result cell, by table, as text."""
    rows = re.findall(r'<tr data-table="(\d+)"[^>]*>.*?<td class="result">(.*?)</td>', page)
    return {table: re.sub(r"<[^>]+>", "", cell) for table, cell in rows}


def test_a_match_in_progress_shows_its_games_won_so_far(
    client: Client, tokens: Tokens, store: str
) -> None:
    with open_service(store) as svc:
        event = svc.event_new("Spring Open", "prizmik", rounds=3, match="bo3").event_id
        svc.event_register(event, ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay"])
        svc.event_pair(event)
        tables = [r for r in svc.event_pairings(event) if r.table is not None]
        first, second, third = tables
        # table 1: its first game won by the second-listed player (the first seat resigns)
        (game,) = first.games
        seats = svc.load(game).seats
        svc.end(game, "resignation", who=seats[0])
        # table 2: a result reported; table 3: nothing played yet
        svc.event_result(event, [f"{second.table}=2-1-0"])
    page = client.get(f"/events/{event}/pairings", headers=auth(tokens["public"]))
    assert page.status_code == 200, page.text
    cells = result_cells(page.text)
    assert cells == {
        str(first.table): "0-1-0 so far",
        str(second.table): "2-1-0",
        str(third.table): "",
    }, cells
