"""An event write over HTTP carries its terms to the service (``web.guards.Writer``): a
stale ``If-Match`` answers 412, a retry with the ``Idempotency-Key`` of a write already
stored answers 409 ``already-stored``, and neither stores anything."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient

from tests.web.conftest import Tokens, auth

Client = TestClient[Litestar]


def test_event_routes_pass_if_match_and_the_idempotency_key_through(
    client: Client, tokens: Tokens
) -> None:
    """EV-2.6 (a drop) with the terms every write route takes: the version seen, the key."""
    head = auth(tokens["head"])
    made = client.post(
        "/api/events",
        json={"name": "Terms", "game": "prizmik"},
        headers={**head, "Idempotency-Key": "make-terms"},
    )
    assert made.status_code == 201, made.text
    event = made.json()["event_id"]
    again = client.post(
        "/api/events",
        json={"name": "Terms", "game": "prizmik"},
        headers={**head, "Idempotency-Key": "make-terms"},
    )
    assert again.status_code == 409
    assert again.json()["type"] == "/problems/already-stored"
    done = client.post(
        f"/api/events/{event}/players", json={"players": ["Ann", "Ben", "Cal"]}, headers=head
    )
    assert done.status_code == 201, done.text

    def version() -> int:
        seen: int = client.get(f"/api/events/{event}", headers=head).json()["version"]
        return seen

    seen = version()
    stale = client.post(
        f"/api/events/{event}/drops",
        json={"player": "Cal", "reason": "ill"},
        headers={**head, "If-Match": f'"{seen - 1}"'},
    )
    assert stale.status_code == 412, stale.text
    assert version() == seen
    terms = {**head, "If-Match": f'"{seen}"', "Idempotency-Key": "drop-cal"}
    dropped = client.post(
        f"/api/events/{event}/drops", json={"player": "Cal", "reason": "ill"}, headers=terms
    )
    assert dropped.status_code == 201, dropped.text
    retried = client.post(
        f"/api/events/{event}/drops", json={"player": "Cal", "reason": "ill"}, headers=terms
    )
    assert retried.status_code == 409, retried.text
    assert retried.json()["type"] == "/problems/already-stored"
    assert retried.json()["event"] == seen + 1
    assert version() == seen + 1
