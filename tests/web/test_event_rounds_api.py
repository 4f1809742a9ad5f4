"""What the command line and the desk do that the JSON API did too little of (every face
calls one application layer, and none lacks what another has): marking a round started
and ended (``event start-round`` / ``end-round``: ``POST /api/events/E/round-marks``,
EV-5.10) and a late entry taking a match loss for each round missed (``event register
--late-as-losses``: ``late_as_losses``, EV-2.9). Each answers 201 with what it did, 400
with its clause as a problem document and nothing stored when refused, 403 for a role
that may not; the OpenAPI document says so."""

from __future__ import annotations

from typing import Any

from litestar import Litestar
from litestar.testing import TestClient

from tests.web.conftest import Tokens, api_event, auth, event_kinds, table_token

Client = TestClient[Litestar]
PROBLEM = "application/problem+json"


def _version(client: Client, event: str, head: str) -> int:
    seen: int = client.get(f"/api/events/{event}", headers=auth(head)).json()["version"]
    return seen


def _log(client: Client, event: str, head: str) -> list[str]:
    """The event log's lines (``GET /api/events/E/log``), as ``referee event log`` says them."""
    answer = client.get(f"/api/events/{event}/log", headers=auth(head))
    assert answer.status_code == 200, answer.text
    return [line["text"] for line in answer.json()]


def _refused(answer: Any, clause: str, words: str) -> None:
    """A refusal: 400, a problem document naming ``clause`` with ``words`` in its detail."""
    assert answer.status_code == 400, answer.text
    assert answer.headers["content-type"].startswith(PROBLEM)
    problem = answer.json()
    assert problem["clause"] == clause, problem
    assert words in problem["detail"], problem


def _paired(client: Client, head: str) -> str:
    event = api_event(client, head, ["Ann", "Ben", "Cal", "Dee"], name="Marks", seed=5)
    paired = client.post(f"/api/events/{event}/rounds", json={}, headers=auth(head))
    assert paired.status_code == 201, paired.text
    return event


def test_a_round_is_marked_started_then_ended_once_every_table_has_its_result(
    client: Client, tokens: Tokens, store: str
) -> None:
    """EV-5.10: round 1 marked started (its mark in the stream, naming who marked it: the
    token's holder), not twice; its end refused
    while a table lacks its result, then marked once the slips are in. Each refusal is a
    problem document with the clause, and the event's version does not move."""
    head = tokens["head"]
    event = _paired(client, head)
    url = f"/api/events/{event}/round-marks"
    before = _version(client, event, head)
    started = client.post(url, json={"mark": "start"}, headers=auth(head))
    assert started.status_code == 201, started.text
    assert started.headers["location"] == f"/api/events/{event}"
    assert started.json() == {
        "event_id": event,
        "round": 1,
        "mark": "start",
        "by": "Hera",  # who marked it, as the log names them
        "version": before + 1,
    }
    assert event_kinds(store, event).count("round-started") == 1
    assert "round 1 started by Hera" in _log(client, event, head)  # the token's name

    seen = _version(client, event, head)
    _refused(
        client.post(url, json={"mark": "start", "round": 1}, headers=auth(head)),
        "EV-5.10",
        "round 1 has already started",
    )
    _refused(
        client.post(url, json={"mark": "end"}, headers=auth(head)),
        "EV-5.10",
        "round 1 still has tables without a result",
    )
    _refused(
        client.post(url, json={"mark": "end", "round": 2}, headers=auth(head)),
        "EV-5.10",
        "round 2 has not been paired",
    )
    assert _version(client, event, head) == seen
    assert "round-ended" not in event_kinds(store, event)

    slips = {"slips": ["1=2-0-0", "2=2-0-0"]}
    reported = client.post(f"/api/events/{event}/results", json=slips, headers=auth(head))
    assert reported.status_code == 201, reported.text
    ended = client.post(url, json={"mark": "end", "round": 1}, headers=auth(head))
    assert ended.status_code == 201, ended.text
    assert ended.json()["round"] == 1
    assert ended.json()["mark"] == "end"
    assert ended.json()["by"] == "Hera"
    assert event_kinds(store, event).count("round-ended") == 1
    assert "round 1 ended by Hera" in _log(client, event, head)
    _refused(  # no start mark after the end (the desk no longer offers one either)
        client.post(url, json={"mark": "start", "round": 1}, headers=auth(head)),
        "EV-5.10",
        "round 1 has already ended",
    )
    assert _version(client, event, head) == ended.json()["version"]
    assert event_kinds(store, event).count("round-started") == 1
    # a mark that is not start or end is the body's fault: nothing stored
    wrong = client.post(url, json={"mark": "pause"}, headers=auth(head))
    assert wrong.status_code == 400, wrong.text
    assert wrong.headers["content-type"].startswith(PROBLEM)
    assert _version(client, event, head) == ended.json()["version"]


def test_a_round_mark_takes_the_write_terms(client: Client, tokens: Tokens) -> None:
    """The terms every event write takes: a stale If-Match answers 412 and a retry with the
    Idempotency-Key of a mark already stored 409 ``already-stored``, neither storing."""
    head = tokens["head"]
    event = _paired(client, head)
    url = f"/api/events/{event}/round-marks"
    seen = _version(client, event, head)
    stale = client.post(
        url, json={"mark": "start"}, headers=auth(head, **{"If-Match": f'"{seen - 1}"'})
    )
    assert stale.status_code == 412, stale.text
    assert stale.headers["content-type"].startswith(PROBLEM)
    assert _version(client, event, head) == seen
    terms = auth(head, **{"If-Match": f'"{seen}"', "Idempotency-Key": "start-1"})
    assert client.post(url, json={"mark": "start"}, headers=terms).status_code == 201
    retried = client.post(url, json={"mark": "start"}, headers=terms)
    assert retried.status_code == 409, retried.text
    assert retried.json()["type"] == "/problems/already-stored"
    assert _version(client, event, head) == seen + 1


def test_only_the_head_marks_a_round(client: Client, tokens: Tokens, store: str) -> None:
    """Marking a round is running the event (``event_round`` is a ``run`` write, as on the
    command line and the desk): the scorekeeper, the event's table referee, a player and
    the public are refused (403, a problem document) and nothing is stored."""
    head = tokens["head"]
    event = _paired(client, head)
    seen = _version(client, event, head)
    for token in (
        tokens["scorekeeper"],
        table_token(store, event, "1"),
        tokens["ann"],
        tokens["public"],
    ):
        answer = client.post(
            f"/api/events/{event}/round-marks", json={"mark": "start"}, headers=auth(token)
        )
        assert answer.status_code == 403, answer.text
        assert answer.headers["content-type"].startswith(PROBLEM)
    assert _version(client, event, head) == seen
    assert "round-started" not in event_kinds(store, event)


def test_a_late_entry_takes_a_match_loss_for_each_round_missed(
    client: Client, tokens: Tokens, store: str
) -> None:
    """EV-2.9: asked before round 1 is paired, the losses are refused (400, the clause,
    nothing stored); after round 1, Eve (late_as_losses) has a 0-2 loss for it and Fay
    (left out) has played no round (EV-I.6); the scorekeeper registers too, a table
    referee and the public may not (403)."""
    head, keeper = tokens["head"], tokens["scorekeeper"]
    event = api_event(client, head, ["Ann", "Ben", "Cal", "Dee"], name="Late", seed=3)
    players = f"/api/events/{event}/players"
    seen = _version(client, event, head)
    _refused(
        client.post(players, json={"players": ["Eve"], "late_as_losses": True}, headers=auth(head)),
        "EV-2.9",
        "round 1 is not paired",
    )
    assert _version(client, event, head) == seen
    assert (
        client.post(f"/api/events/{event}/rounds", json={}, headers=auth(head)).status_code == 201
    )
    slips = {"slips": ["1=2-0-0", "2=2-0-0"]}
    assert (
        client.post(f"/api/events/{event}/results", json=slips, headers=auth(head)).status_code
        == 201
    )

    seen = _version(client, event, head)
    for token in (table_token(store, event, "1"), tokens["public"], tokens["ann"]):
        denied = client.post(
            players, json={"players": ["Gus"], "late_as_losses": True}, headers=auth(token)
        )
        assert denied.status_code == 403, denied.text
        assert denied.headers["content-type"].startswith(PROBLEM)
    assert _version(client, event, head) == seen

    late = client.post(
        players, json={"players": ["Eve"], "late_as_losses": True}, headers=auth(keeper)
    )
    assert late.status_code == 201, late.text
    assert late.json()["ids"] == ["p5"]
    plain = client.post(players, json={"players": ["Fay"]}, headers=auth(head))
    assert plain.status_code == 201, plain.text
    rows = client.get(f"/api/events/{event}/standings", headers=auth(tokens["public"])).json()
    by_name = {row["player"]: row for row in rows}
    assert by_name["Eve"]["record"] == {"wins": 0, "losses": 1, "draws": 0, "byes": 0}
    assert by_name["Eve"]["points"] == 0
    assert by_name["Eve"]["mw"] is not None  # a round counted as played
    assert by_name["Fay"]["record"] == {"wins": 0, "losses": 0, "draws": 0, "byes": 0}
    assert by_name["Fay"]["mw"] is None  # no round played (EV-I.6)


def test_the_document_describes_both(client: Client) -> None:
    """The OpenAPI document lists the round marks with each status it answers (each error
    a problem document) and the registration's ``late_as_losses``."""
    doc = client.get("/schema/openapi.json").json()
    operation = doc["paths"]["/api/events/{event_id}/round-marks"]["post"]
    responses = operation["responses"]
    assert {"201", "400", "401", "403", "404", "409", "412", "413", "415", "422", "429"} <= set(
        responses
    )
    for code, answer in responses.items():
        if code[0] in "45":
            assert list(answer["content"]) == [PROBLEM], code
    assert list(responses["201"]["content"]) == ["application/json"]
    headers = {p["name"] for p in operation["parameters"] if p["in"] == "header"}
    assert {"If-Match", "Idempotency-Key"} <= headers
    schemas = doc["components"]["schemas"]
    assert "late_as_losses" in schemas["RegisterIn"]["properties"]
    mark = schemas["RoundMarkIn"]["properties"]["mark"]
    assert sorted(mark["enum"]) == ["end", "start"]
    marked = schemas["RoundMarked"]
    assert "by" in marked["required"]
    assert "token's holder" in marked["properties"]["by"]["description"]
