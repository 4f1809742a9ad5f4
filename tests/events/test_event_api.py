"""The event routes (``/api/events``) through the test client: roles, the same
shapes as the command line, refusals as problem documents with nothing stored."""

from __future__ import annotations

from typing import Any

from litestar import Litestar
from litestar.testing import TestClient

from tests.web.conftest import Tokens, auth, table_token


def _enter(
    client: TestClient[Litestar],
    event: str,
    headers: dict[str, str],
    players: list[str],
    **more: Any,
) -> None:
    """``players`` registered in ``event`` (201), with ``more`` of the form (``byes``)."""
    answer = client.post(
        f"/api/events/{event}/players", json={"players": players, **more}, headers=headers
    )
    assert answer.status_code == 201, answer.text


def test_an_event_run_over_http_by_its_roles(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    head = auth(tokens["head"])
    made = client.post(
        "/api/events", json={"name": "Cup", "game": "gammasphere", "rounds": 2}, headers=head
    )
    assert made.status_code == 201, made.text
    event = made.json()["event_id"]
    assert event.startswith("ev-")
    assert made.headers["location"] == f"/api/events/{event}"
    denied = client.post(
        "/api/events", json={"name": "X", "game": "gammasphere"}, headers=auth(tokens["public"])
    )
    assert denied.status_code == 403

    players = ["Ann", "Ben", "Cal", "Dee", "Eve"]
    keeper = auth(tokens["scorekeeper"])
    _enter(client, event, keeper, players)
    assert (
        client.post(f"/api/events/{event}/rounds", json={}, headers=keeper).status_code == 403
    )  # only the head pairs
    rows: list[dict[str, Any]] = client.post(
        f"/api/events/{event}/rounds", json={}, headers=head
    ).json()
    assert [len(r["games"]) for r in rows] == [1, 1, 0]
    assert rows[-1]["bye"] is True
    # the posted pairings, each row naming its round and stage as `event pairings --json` does
    posted = client.get(f"/api/events/{event}/pairings", headers=auth(tokens["public"])).json()
    # (with each table's result or games so far, the API's own: none yet)
    assert posted == [
        {"round": 1, "stage": "round 1", **row, "result": None, "so_far": None} for row in rows
    ]

    # a table referee reports only their own table of their own event
    tokens["table1"] = table_token(store, event, "1")

    def report(headers: dict[str, str], slip: str) -> Any:
        return client.post(f"/api/events/{event}/results", json={"slips": [slip]}, headers=headers)

    assert report(auth(tokens["table1"]), "2=2-0-0").status_code == 403
    assert report(auth(tokens["table1"]), "1=2-1-0").status_code == 201
    before = client.get(f"/api/events/{event}", headers=head).json()["version"]
    again = report(head, "1=2-0-0")
    assert again.status_code == 400
    assert "EV-3.6" in again.text
    assert client.get(f"/api/events/{event}", headers=head).json()["version"] == before
    assert report(keeper, "2=0-2-0").status_code == 201
    fixed = client.post(
        f"/api/events/{event}/corrections",
        json={"round": 1, "slip": "1=1-2-0", "reason": "swapped"},
        headers=keeper,
    )
    assert fixed.status_code == 201
    standings = client.get(f"/api/events/{event}/standings", headers=auth(tokens["ann"])).json()
    assert [s["rank"] for s in standings] == sorted(s["rank"] for s in standings)
    assert {s["player"] for s in standings} == set(players)
    assert set(standings[0]) >= {"rank", "player", "points", "record", "mw", "omw", "gw", "ogw"}
    audit = client.get(f"/api/events/{event}/audit", headers=keeper).json()
    # slips close their tables' open games as void (EV-3.9), which the audit also lists
    assert [e["what"] for e in audit["entries"] if e["what"] != "games voided"] == [
        "result corrected"
    ]
    assert (
        client.get(f"/api/events/{event}/audit", headers=auth(tokens["public"])).status_code == 403
    )
    assert client.get("/api/events/ev-nothere", headers=head).status_code == 404


def test_the_openapi_document_shows_the_event_routes(client: TestClient[Litestar]) -> None:
    paths = client.get("/schema/openapi.json").json()["paths"]
    assert "/api/events/{event_id}/standings" in paths
    assert "/api/events/{event_id}/results" in paths


def test_a_13_player_pod_event_end_to_end_over_http(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    """The Prismatic pod event of the CLI test, through the API: an awarded bye, a late
    entry, a head's re-pairing, a drop and a correction; the standings list everyone."""
    head = auth(tokens["head"])
    keeper = auth(tokens["scorekeeper"])
    event = client.post(
        "/api/events",
        json={"name": "Pods", "game": "prismatic", "pods": True, "rounds": 3, "match": "bo1"},
        headers=head,
    ).json()["event_id"]
    names = ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lea"]
    _enter(client, event, keeper, names)
    _enter(client, event, keeper, ["Max"], byes=1)
    for number in range(1, 4):
        rows = client.post(f"/api/events/{event}/rounds", json={}, headers=head).json()
        pods = [r for r in rows if not r["bye"]]
        if number == 1:
            assert [r["players"] for r in rows if r["bye"]] == [["Max"]]
            _enter(client, event, keeper, ["Ned"])  # late entry
        if number == 2:
            spec = {"pods": [p["players"] for p in reversed(pods)]}
            changed = client.post(
                f"/api/events/{event}/rounds",
                json={"manual": spec, "repair": True, "reason": "a table broke"},
                headers=head,
            )
            assert changed.status_code == 201, changed.text
            pods = [r for r in changed.json() if not r["bye"]]
            assert [p["players"] for p in pods] == spec["pods"]
        slips = [f"{p['table']}={'>'.join(p['players'])}" for p in pods]
        done = client.post(f"/api/events/{event}/results", json={"slips": slips}, headers=keeper)
        assert done.status_code == 201, done.text
        if number == 2:
            assert (
                client.post(
                    f"/api/events/{event}/drops", json={"player": "Gus"}, headers=keeper
                ).json()["after_round"]
                == 2
            )
            first = pods[0]["players"]
            fixed = client.post(
                f"/api/events/{event}/corrections",
                json={
                    "round": 2,
                    "slip": f"{pods[0]['table']}={'>'.join(reversed(first))}",
                    "reason": "misheard",
                },
                headers=keeper,
            )
            assert fixed.status_code == 201
    standings = client.get(f"/api/events/{event}/standings", headers=head).json()
    assert len(standings) == 14
    assert {s["player"]: s.get("dropped_after") for s in standings}["Gus"] == 2
    after_one = client.get(f"/api/events/{event}/standings?round=1", headers=head).json()
    assert len(after_one) == 13  # Ned entered after round 1
    whats = [
        e["what"] for e in client.get(f"/api/events/{event}/audit", headers=head).json()["entries"]
    ]
    assert [w for w in whats if w != "games voided"] == [
        "late entry",  # the audit lists the late entry too, where it was stored (issue 29)
        "pairing changed",
        "drop",
        "result corrected",
    ]  # EV-3.9: the slips' closed games are listed too
