"""A player's page shows no rank before they have played a round (EV-I.3): the organizer's
walk found "rank 2" on a player's phone at round 1's start, an order of nothing (the
floors alone, i.e. the draw) read as a place in the event."""

from __future__ import annotations

import re

from litestar import Litestar
from litestar.testing import TestClient

from service.app import open_service
from tests.web.conftest import Tokens, auth, report
from tests.web.test_calls_api import make_event


def _rank(client: TestClient[Litestar], token: str, path: str) -> str:
    page = client.get(path, headers=auth(token))
    assert page.status_code == 200, page.text
    record = re.search(r'<p id="my-record">(.*?)</p>', page.text, re.S)
    assert record, page.text
    found = re.search(r"rank (\S+)$", re.sub(r"<[^>]+>", "", record.group(1)).strip())
    assert found, record.group(1)
    return found.group(1)


def _line_rank(client: TestClient[Litestar], token: str, event: str, name: str) -> object:
    """The rank the JSON read of a player's page carries (``PlayerLine.rank``)."""
    answer = client.get(f"/api/events/{event}/players/{name}", headers=auth(token))
    assert answer.status_code == 200, answer.text
    line = answer.json()
    if line["rank"] is not None:
        assert line["rank"] == line["standing"]["rank"]
    return line["rank"]


def test_no_rank_before_a_round_is_played_then_the_rank(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-I.3: round 1 paired, no result in: Ann's and Ben's pages (and the page as of
    round 1) read "rank –", as the standings leave their figures blank; once Ann's match
    is reported, hers reads rank 1 and her opponent's a rank too, while a player of the
    table still playing reads "–". The JSON read of the page carries the same fact, decided
    once by the service (``PlayerLine.rank``: ``null`` for no rank), which the page prints."""
    event = make_event(store, ("Ann", "Ben", "Cal", "Dee"))
    ann, ben = tokens["ann"], tokens["ben"]
    assert _rank(client, ann, f"/events/{event}/players/Ann") == "–"
    assert _rank(client, ben, f"/events/{event}/players/Ben") == "–"
    assert _rank(client, ann, f"/events/{event}/players/Ann?round=1") == "–"
    assert _line_rank(client, ann, event, "Ann") is None
    with open_service(store) as svc:
        row = next(r for r in svc.event_pairings(event) if "Ann" in r.players)
        slip = "2-0-0" if row.players[0] == "Ann" else "0-2-0"  # Ann wins
    report(client, event, tokens["head"], f"{row.table}={slip}")  # through the app
    assert _rank(client, ann, f"/events/{event}/players/Ann") == "1"
    assert _rank(client, ann, f"/events/{event}/players/Ann?round=1") == "1"
    assert _line_rank(client, ann, event, "Ann") == 1
    [other] = [p for p in row.players if p != "Ann"]
    loser = _rank(client, tokens["head"], f"/events/{event}/players/{other}")
    assert loser.isdigit(), loser  # played (and lost): ranked
    untouched = ({"Ann", "Ben", "Cal", "Dee"} - set(row.players)).pop()  # not yet reported
    assert _rank(client, tokens["head"], f"/events/{event}/players/{untouched}") == "–"
    assert _line_rank(client, tokens["head"], event, untouched) is None
    assert _line_rank(client, tokens["head"], event, other) == int(loser)
