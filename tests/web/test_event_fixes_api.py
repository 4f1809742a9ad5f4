"""The event fixes over HTTP (issue 29, sections 2-4): each route answers 201 with the
service's answer, 400 with the ``EV-`` clause and nothing stored when refused, 403 for a
role that may not; every route is in the OpenAPI document."""

from __future__ import annotations

from typing import Any

from litestar import Litestar
from litestar.testing import TestClient

from tests.web.conftest import Tokens, api_event, auth

Client = TestClient[Litestar]


def _refused(client: Client, head: str, event: str, path: str, body: Any, clause: str) -> None:
    before = client.get(f"/api/events/{event}", headers=auth(head)).json()["version"]
    answer = client.post(f"/api/events/{event}/{path}", json=body, headers=auth(head))
    assert answer.status_code == 400, answer.text
    assert clause in answer.text
    assert client.get(f"/api/events/{event}", headers=auth(head)).json()["version"] == before


def test_fix_routes_answer_and_refuse_with_their_clauses(client: Client, tokens: Tokens) -> None:
    """EV-5.12 (engine repair, refused when it moves no one), EV-5.13 (undo), EV-2.7
    (undrop), EV-1.5 (change), EV-8.6 and EV-8.7 (penalty and withdrawal), EV-1.4 (end),
    EV-5.6 (draw) over HTTP."""
    head = tokens["head"]
    event = api_event(client, head, ["Ann", "Ben", "Cal", "Dee"], name="Fix", seed=11, rounds=2)
    draw = client.get(f"/api/events/{event}/draw", headers=auth(tokens["public"])).json()
    assert draw["seed"] == 11
    assert len(draw["order"]) == 4
    _refused(client, head, event, "undo", {"reason": "x"}, "EV-5.13")  # nothing paired
    assert (
        client.post(f"/api/events/{event}/rounds", json={}, headers=auth(head)).status_code == 201
    )
    # an engine repair that would move no one changes nothing: refused, nothing stored
    _refused(client, head, event, "repairs", {"reason": "check"}, "EV-5.12")
    _refused(client, head, event, "rounds", {"repair": True, "reason": "engine"}, "EV-5.12")
    undone = client.post(f"/api/events/{event}/undo", json={"reason": "wrong"}, headers=auth(head))
    assert undone.status_code == 201
    assert undone.json()["round"] == 1
    assert undone.json()["voided"]
    _refused(client, head, event, "undrops", {"player": "Ann", "reason": "x"}, "EV-2.7")
    _refused(client, head, event, "settings", {"reason": "x"}, "EV-1.5")
    changed = client.post(
        f"/api/events/{event}/settings", json={"rounds": 3, "reason": "time"}, headers=auth(head)
    )
    assert changed.status_code == 201
    assert changed.json()["rounds"] == 3
    given = client.post(
        f"/api/events/{event}/penalties",
        json={"player": "Ann", "infraction": "cheating"},
        headers=auth(head),
    )
    assert given.status_code == 201
    assert given.json()["penalty"] == "disqualification"
    _refused(client, head, event, "penalties/2/withdrawal", {"reason": "x"}, "EV-8.7")
    back = client.post(
        f"/api/events/{event}/penalties/1/withdrawal",
        json={"reason": "wrong Ann"},
        headers=auth(head),
    )
    assert back.status_code == 201
    assert any("undropped" in s for s in back.json()["stored"])
    bad = client.post(
        f"/api/events/{event}/penalties",
        json={"player": "Ann", "infraction": "slow-play", "penalty": "ban"},
        headers=auth(head),
    )
    assert bad.status_code == 400
    ended = client.post(f"/api/events/{event}/end", json={"void_open": True}, headers=auth(head))
    assert ended.status_code == 201
    assert ended.json()["voided"] == []
    _refused(client, head, event, "undrops", {"player": "Ann", "reason": "x"}, "EV-1.4")


def test_only_the_head_fixes_and_the_routes_are_documented(client: Client, tokens: Tokens) -> None:
    """The fixes are the head referee's: a scorekeeper is refused (403); the OpenAPI
    document lists every route with its statuses."""
    event = api_event(client, tokens["head"], ["Ann", "Ben"], name="Fix")
    answer = client.post(
        f"/api/events/{event}/undo", json={"reason": "x"}, headers=auth(tokens["scorekeeper"])
    )
    assert answer.status_code == 403
    paths = client.get("/schema/openapi.json").json()["paths"]
    for path in (
        "repairs",
        "undo",
        "undrops",
        "settings",
        "penalties",
        "penalties/{number}/withdrawal",
        "end",
        "players/{player}/decklist",
        "draw",
    ):
        assert f"/api/events/{{event_id}}/{path}" in paths, path
    responses = paths["/api/events/{event_id}/undo"]["post"]["responses"]
    assert {"201", "400", "403"} <= set(responses)


def test_a_decklist_is_attached_over_http_until_the_deadline(
    client: Client, tokens: Tokens
) -> None:
    """EV-2.8: the head attaches a list (201), the same list again and a list of the wrong
    size are refused (400, nothing stored), and once round 1 is paired the list is locked
    (400)."""
    from tests.gammasphere.helpers import DECK_TEXT

    head = tokens["head"]
    made = client.post(
        "/api/events", json={"name": "Decks", "game": "gammasphere"}, headers=auth(head)
    )
    event = made.json()["event_id"]
    client.post(
        f"/api/events/{event}/players", json={"players": ["Ann", "Ben"]}, headers=auth(head)
    )
    url = f"/api/events/{event}/players/Ann/decklist"
    answer = client.post(url, json={"decklist": DECK_TEXT}, headers=auth(head))
    assert answer.status_code == 201
    assert answer.json() == {"player": "Ann"}
    # the same list again changes nothing: refused, nothing stored
    _refused(client, head, event, "players/Ann/decklist", {"decklist": DECK_TEXT}, "EV-2.8")
    _refused(client, head, event, "players/Ben/decklist", {"decklist": "7 Pylon\n"}, "EV-2.8")
    assert (
        client.post(f"/api/events/{event}/rounds", json={}, headers=auth(head)).status_code == 201
    )
    _refused(client, head, event, "players/Ann/decklist", {"decklist": DECK_TEXT}, "EV-2.8")
