"""An organizer's walk over HTTP: refusals name their EV clause (docs/tournaments.md)."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient

from tests.web.conftest import Tokens, auth


def test_ev_2_1_a_player_page_of_nobody_names_the_clause(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    """EV-2.1: `GET /api/events/{id}/players/{name}` for a name nobody registered is refused
    as a problem document naming EV-2.1, as every refusal names its clause."""
    head = auth(tokens["head"])
    made = client.post("/api/events", json={"name": "Cup", "game": "gammasphere"}, headers=head)
    event = made.json()["event_id"]
    client.post(f"/api/events/{event}/players", json={"players": ["Ann", "Ben"]}, headers=head)
    answer = client.get(f"/api/events/{event}/players/Nobody", headers=head)
    assert answer.status_code == 400, answer.text
    assert answer.json()["detail"].startswith("EV-2.1: "), answer.text
    assert client.get(f"/api/events/{event}/players/Ann", headers=head).status_code == 200
