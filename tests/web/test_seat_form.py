"""The table's 'SEAT: ENTRY' form over HTTP too, consistent with the body's ``seat``
(REF-1.2; issue 24)."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient

from tests.web.conftest import Tokens, auth


def test_ref_1_2_entries_take_the_seat_form_and_refuse_two_different_seats(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    head = auth(tokens["head"])
    made = client.post(
        "/api/games",
        json={"game": "prismatic", "players": {"p1": "Ann", "p2": "Ben"}, "options": {"goal": 5}},
        headers=head,
    )
    assert made.status_code == 201, made.text
    url = f"/api/games/{made.json()['game_id']}/entries"
    first = client.post(url, json={"text": "p1: reveal Ember Spark"}, headers=head)
    assert first.status_code == 201, first.text
    assert first.json()["seat"] == "p1", first.text
    same = client.post(url, json={"text": "Ann: reveal Cobalt Tear", "seat": "p1"}, headers=head)
    assert same.status_code == 201
    assert same.json()["notation"] == "reveal Cobalt Tear"
    clash = client.post(url, json={"text": "p2: reveal Dawn Chorus", "seat": "p1"}, headers=head)
    assert clash.status_code == 409
    assert clash.json()["clause"] == "REF-1.2"
    assert "p2" in clash.json()["detail"]
    assert "p1" in clash.json()["detail"]
