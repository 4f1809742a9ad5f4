"""The HTTP API in-process: status codes and problem documents, roles, If-Match,
Idempotency-Key, every entry's author, the OpenAPI document."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from service.app import open_service
from tests.web.conftest import Tokens, auth

Client = TestClient[Litestar]


def new_game(client: Client, token: str, table: str = "1", **extra: Any) -> dict[str, Any]:
    body = {
        "game": "prizmik",
        "players": {"red": "Ann", "blue": "Ben"},
        "meta": {"table": table},
        **extra,
    }
    response = client.post("/api/games", json=body, headers=auth(token))
    assert response.status_code == 201, response.text
    assert response.headers["etag"] == '"1"'
    data: dict[str, Any] = response.json()
    return data


@pytest.fixture
def game(client: Client, tokens: Tokens) -> str:
    """``new_game``'s id: a PRIZMIK game at table 1 made by the head referee."""
    return str(new_game(client, tokens["head"])["game_id"])


def events_of(store: str, game_id: str) -> list[Any]:
    svc = open_service(store)
    try:
        return list(svc.load(game_id).events)
    finally:
        svc.close()


def is_problem(response: Any, status: int, kind: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = response.json()
    assert body["type"] == f"/problems/{kind}"
    assert body["status"] == status
    assert body["title"]
    assert "Traceback" not in response.text
    return body


def test_health_needs_nothing_and_openapi_comes_from_the_service_types(client: Client) -> None:
    assert client.get("/api/health").json() == {"ok": True}
    schema = client.get("/schema/openapi.json").json()
    for name in (
        "EntryResult",
        "PositionView",
        "ReplayFrame",
        "Problem",
        "NewGame",
        "LegalActions",
    ):
        assert name in schema["components"]["schemas"], name
    entry = schema["paths"]["/api/games/{game_id}/entries"]["post"]
    assert {"201", "412", "422"} <= set(entry["responses"])
    assert "Idempotent-Replayed" in entry["responses"]["201"]["headers"]  # a retry's answer
    assert set(schema["components"]["schemas"]["EntryResult"]["properties"]) >= {
        "violations",
        "version",
        "event",
    }


def test_missing_or_wrong_token_is_refused_and_logged(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="referee.web"):
        for headers in ({}, auth("rf_nothere_secret"), {"Authorization": "Basic abc"}):
            body = is_problem(client.get("/api/games", headers=headers), 401, "unauthorized")
            assert body["detail"]
        response = client.post(
            "/api/games", json={"game": "prizmik", "players": {}}, headers=auth("rf_x_y")
        )
        is_problem(response, 401, "unauthorized")
        assert response.headers["www-authenticate"].startswith("Bearer")
    assert sum("unauthorized" in r.getMessage() for r in caplog.records) == 4


def test_entries_answer_with_the_right_status_and_store_only_what_they_should(
    client: Client, store: str, tokens: Tokens, game: str
) -> None:
    head = tokens["head"]
    url = f"/api/games/{game}/entries"

    ok = client.post(url, json={"text": "e1>e2"}, headers=auth(head, **{"If-Match": '"1"'}))
    assert ok.status_code == 201
    assert ok.headers["etag"] == '"2"'
    assert ok.json()["status"] == "recorded"
    assert ok.json()["event"] == 2

    stale = is_problem(
        client.post(url, json={"text": "e8>e7"}, headers=auth(head, **{"If-Match": '"1"'})),
        412,
        "stale-version",
    )
    assert stale["version"] == 2
    assert stale["expected_version"] == 1
    assert len(events_of(store, game)) == 2  # nothing stored

    rejected = is_problem(
        client.post(url, json={"text": "e2-e5"}, headers=auth(head, **{"If-Match": '"2"'})),
        422,
        "rejected",
    )
    assert rejected["stored"] is True
    assert rejected["event"] == 3
    assert rejected["violations"][0]["clause"].startswith("PZ-")
    assert rejected["violations"][0]["reason"]
    assert type(events_of(store, game)[-1]).__name__ == "ActionRejected"  # kept as evidence

    unreadable = is_problem(
        client.post(url, json={"text": "hello"}, headers=auth(head)), 400, "unreadable-entry"
    )
    assert unreadable["clause"] == "PZ-9.1"
    malformed = is_problem(
        client.post(url, json={"txt": "e8>e7"}, headers=auth(head)), 400, "bad-request"
    )
    assert malformed["detail"]
    assert len(events_of(store, game)) == 3

    missing = is_problem(
        client.get("/api/games/prizmik-nothere", headers=auth(head)), 404, "not-found"
    )
    assert "prizmik-nothere" in missing["detail"]
    ended = client.post(
        f"/api/games/{game}/end", json={"how": "resignation", "who": "blue"}, headers=auth(head)
    )
    assert ended.status_code == 201
    assert ended.json()["ended"]["winner"] == "red"
    stored = len(events_of(store, game))
    late = is_problem(
        client.post(url, json={"text": "e8>e7"}, headers=auth(head)), 409, "not-allowed-now"
    )
    assert late["clause"] == "REF-1.3"  # an entry after the end is refused, not kept
    assert len(events_of(store, game)) == stored
    other = new_game(client, head)["game_id"]
    nothing = is_problem(
        client.post(f"/api/games/{other}/retractions", json={"reason": "x"}, headers=auth(head)),
        409,
        "not-allowed-now",
    )
    assert nothing["clause"] == "REF-2.1"
    assert len(events_of(store, other)) == 1


def test_position_log_and_replay_carry_the_version(
    client: Client, tokens: Tokens, game: str
) -> None:
    head = tokens["head"]
    client.post(f"/api/games/{game}/entries", json={"text": "e1>e2"}, headers=auth(head))
    position = client.get(f"/api/games/{game}", headers=auth(head))
    assert position.headers["etag"] == '"2"'
    assert position.json()["position"]["board"]["e2"] == "red ship stack"
    assert (
        client.get(f"/api/games/{game}", headers=auth(head, **{"If-None-Match": '"2"'})).status_code
        == 304
    )
    assert client.get(f"/api/games/{game}?at=0", headers=auth(head)).json()["at"] == 0
    log = client.get(f"/api/games/{game}/log", headers=auth(head)).json()
    assert [e["kind"] for e in log] == ["created", "action"]
    frames = client.get(f"/api/games/{game}/replay", headers=auth(head)).json()
    assert [f["ply"] for f in frames] == [0, 1]
    legal = client.get(f"/api/games/{game}/legal", headers=auth(head)).json()
    assert legal["to_move"] == "blue"
    assert "e8>e7" in legal["actions"]


def test_every_entry_records_who_made_it(client: Client, tokens: Tokens) -> None:
    game = new_game(client, tokens["head"])["game_id"]
    client.post(
        f"/api/games/{game}/entries", json={"text": "e1>e2"}, headers=auth(tokens["table1"])
    )
    client.post(
        f"/api/games/{game}/entries", json={"text": "e8>e8"}, headers=auth(tokens["table1"])
    )
    client.post(
        f"/api/games/{game}/retractions", json={"reason": "misheard"}, headers=auth(tokens["head"])
    )
    log = client.get(f"/api/games/{game}/log", headers=auth(tokens["head"])).json()
    assert log[0]["created_by"] == "Hera"
    assert [(e["kind"], e.get("recorded_by") or e.get("by")) for e in log[1:]] == [
        ("action", "Tom"),
        ("rejected", "Tom"),
        ("retracted", "Hera"),
    ]


def test_roles(client: Client, tokens: Tokens) -> None:
    head, tom, tia = tokens["head"], tokens["table1"], tokens["table2"]
    at1 = new_game(client, tom, table="1")["game_id"]  # a table referee starts games at their table
    is_problem(
        client.post(
            "/api/games",
            json={"game": "prizmik", "players": {"red": "A", "blue": "B"}, "meta": {"table": "2"}},
            headers=auth(tom),
        ),
        403,
        "forbidden",
    )
    at2 = new_game(client, head, table="2")["game_id"]

    def send(token: str, path: str, body: dict[str, Any]) -> Any:
        return client.post(f"/api/games/{path}", json=body, headers=auth(token))

    def done(token: str, path: str, body: dict[str, Any]) -> None:
        assert send(token, path, body).status_code == 201

    def forbidden(token: str, path: str, body: dict[str, Any]) -> None:
        is_problem(send(token, path, body), 403, "forbidden")

    done(tom, f"{at1}/entries", {"text": "e1>e2"})
    forbidden(tom, f"{at2}/entries", {"text": "e1>e2"})
    done(tia, f"{at2}/entries", {"text": "e1>e2"})
    for who in ("scorekeeper", "ann", "public"):
        forbidden(tokens[who], f"{at1}/entries", {"text": "e8>e7"})
        forbidden(tokens[who], f"{at1}/check", {"text": "e8>e7"})
    # corrections: a table referee undoes at their table;
    # backups and penalties are the head referee's
    done(tom, f"{at1}/retractions", {"reason": "slip"})
    send(tom, f"{at1}/entries", {"text": "e1>e2"})
    forbidden(tom, f"{at1}/backups", {"to": 0, "reason": "x"})
    penalty = {"seat": "blue", "level": "warning", "infraction": "slow play"}
    forbidden(tom, f"{at1}/penalties", penalty)
    done(head, f"{at1}/penalties", penalty)
    forbidden(tom, f"{at1}/end", {"how": "adjudication", "who": "red", "reason": "time"})
    # a player disputes in their own game only;
    # a table referee rules first, the head referee finally
    done(tokens["ann"], f"{at1}/disputes", {"event": 4, "claim": "I meant e1>d1"})
    log = client.get(f"/api/games/{at1}/log", headers=auth(head)).json()
    assert log[-1]["kind"] == "dispute"
    assert log[-1]["by"] == "Ann"
    other = new_game(client, head, table="2", players={"red": "Cy", "blue": "Di"})["game_id"]
    forbidden(tokens["ann"], f"{other}/disputes", {"event": 1, "claim": "x"})
    ruling = {"decision": "uphold", "clause": "PZ-1.4", "reason": "the video shows e1>e2"}
    forbidden(tom, f"{at1}/disputes/1/rulings", {**ruling, "final": True})
    done(tom, f"{at1}/disputes/1/rulings", ruling)
    done(tokens["ann"], f"{at1}/disputes/1/appeals", {"grounds": "unclear"})
    forbidden(tom, f"{at1}/disputes/1/rulings", ruling)
    done(head, f"{at1}/disputes/1/rulings", {**ruling, "final": True})
    # reading: audit and verify for staff; everyone reads positions and the scoreboard
    for who in ("head", "table1", "scorekeeper"):
        assert client.get(f"/api/games/{at1}/audit", headers=auth(tokens[who])).status_code == 200
        assert (
            client.get(f"/api/games/{at1}/verify", headers=auth(tokens[who])).json()["findings"]
            == []
        )
    for who in ("ann", "public"):
        is_problem(
            client.get(f"/api/games/{at1}/audit", headers=auth(tokens[who])), 403, "forbidden"
        )
        assert client.get(f"/api/games/{at1}", headers=auth(tokens[who])).status_code == 200
        assert client.get("/api/scoreboard", headers=auth(tokens[who])).status_code == 200
    is_problem(
        client.get(f"/api/games/{at1}/legal", headers=auth(tokens["public"])), 403, "forbidden"
    )
    assert (
        client.get(f"/api/games/{at1}/legal", headers=auth(tokens["ann"])).json()["seat"] == "red"
    )
    assert client.get("/api/whoami", headers=auth(tom)).json() == {
        "role": "table",
        "name": "Tom",
        "tables": ["1"],
        "token_id": tom.split("_")[1],
    }


def test_idempotency_key_makes_a_retry_store_once(
    client: Client, store: str, tokens: Tokens, game: str
) -> None:
    head = tokens["head"]
    url = f"/api/games/{game}/entries"
    headers = auth(head, **{"Idempotency-Key": "k-1", "If-Match": '"1"'})
    first = client.post(url, json={"text": "e1>e2"}, headers=headers)
    again = client.post(url, json={"text": "e1>e2"}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again.headers["idempotent-replayed"] == "true"
    assert again.headers["etag"] == first.headers["etag"] == '"2"'
    assert len(events_of(store, game)) == 2
    reused = client.post(url, json={"text": "e8>e7"}, headers=headers)
    is_problem(reused, 422, "idempotency-key-reused")
    for odd in (" ", "k" * 201):  # read once, by the route's writer: 400, nothing stored
        refused = client.post(
            url, json={"text": "e8>e7"}, headers=auth(head, **{"Idempotency-Key": odd})
        )
        assert refused.status_code == 400
        assert "1 to 200 characters" in refused.json()["detail"]
    assert len(events_of(store, game)) == 2
    # a rejection is an answer too: retried, it is stored once
    bad = auth(head, **{"Idempotency-Key": "k-2"})
    one = client.post(url, json={"text": "e2-e5"}, headers=bad)
    two = client.post(url, json={"text": "e2-e5"}, headers=bad)
    assert one.status_code == two.status_code == 422
    assert one.json() == two.json()
    assert [type(e).__name__ for e in events_of(store, game)].count("ActionRejected") == 1
    # keys are per token: another referee's same key is another request
    assert (
        client.post(
            url,
            json={"text": "e8>e7"},
            headers=auth(tokens["table1"], **{"Idempotency-Key": "k-1"}),
        ).status_code
        == 201
    )


def test_every_game_write_route_takes_its_key_from_the_game_s_log(
    client: Client, store: str, tokens: Tokens
) -> None:
    """The key of a new game, a referee's command (a retraction, REF-2.1) and an offline
    batch's entry first sent live (REF-9.5) is the write pipeline's, stored with the
    write's first event: sent again, the first answer (``Idempotent-Replayed``), nothing
    stored twice; a game's key with another request, 422."""
    head = tokens["head"]
    body = {"game": "prizmik", "players": {"red": "Ann", "blue": "Ben"}, "meta": {"table": "1"}}
    keyed = auth(head, **{"Idempotency-Key": "new-1"})
    first = client.post("/api/games", json=body, headers=keyed)
    again = client.post("/api/games", json=body, headers=keyed)
    assert first.status_code == again.status_code == 201, again.text
    assert again.json() == first.json()
    assert again.headers["idempotent-replayed"] == "true"
    assert "idempotent-replayed" not in first.headers
    assert again.headers["location"] == first.headers["location"]
    game = first.json()["game_id"]
    other = {**body, "players": {"red": "Cal", "blue": "Dee"}}
    is_problem(client.post("/api/games", json=other, headers=keyed), 422, "idempotency-key-reused")
    assert [g["game_id"] for g in client.get("/api/games", headers=auth(head)).json()] == [game]
    live = auth(head, **{"Idempotency-Key": "live-1"})
    sent = client.post(f"/api/games/{game}/entries", json={"text": "e1>e2"}, headers=live)
    assert sent.status_code == 201, sent.text
    batch = {
        "device": "table-1",
        "base_version": 1,  # the table never had the live entry's answer
        "entries": [
            {"key": "live-1", "recorded_at": "2026-11-28T12:00:00Z", "text": "e1>e2"},
            {"key": "off-2", "recorded_at": "2026-11-28T12:01:00Z", "text": "e8>e7"},
        ],
    }
    synced = client.post(f"/api/games/{game}/offline", json=batch, headers=auth(head))
    assert synced.status_code == 200, synced.text
    assert synced.json()["outcome"] == "merged"
    assert [r["text"] for r in synced.json()["results"]] == ["e1>e2", "e8>e7"]
    assert synced.json()["results"][0] == sent.json()
    kinds = [type(e).__name__ for e in events_of(store, game)]
    assert kinds.count("ActionRecorded") == 2  # the two entries, once each (and the merge's note)
    undo = auth(head, **{"Idempotency-Key": "undo-1"})
    url = f"/api/games/{game}/retractions"
    undone = client.post(url, json={"reason": "misread"}, headers=undo)
    assert undone.status_code == 201, undone.text
    redone = client.post(url, json={"reason": "misread"}, headers=undo)
    assert (redone.status_code, redone.json()) == (201, undone.json())
    assert redone.headers["idempotent-replayed"] == "true"
    is_problem(
        client.post(url, json={"reason": "another"}, headers=undo), 422, "idempotency-key-reused"
    )
    assert len(events_of(store, game)) == len(kinds) + 1
    log = f"/api/games/{game}/log"
    assert client.get(log, headers=auth(head)).json()[-1]["write_key"] == "undo-1"
    assert all("write_key" not in e for e in client.get(log, headers=auth(tokens["public"])).json())


def test_a_server_fault_is_a_problem_without_a_traceback(
    client: Client, tokens: Tokens, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game(client, tokens["head"])["game_id"]
    web = client.app.state["web"]

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("disk on fire at /secret/path")

    monkeypatch.setattr(web.svc.parts.games, "position", broken)  # the game service's read
    body = is_problem(
        client.get(f"/api/games/{game}", headers=auth(tokens["head"])), 500, "server-error"
    )
    assert body["id"]
    assert "secret" not in json.dumps(body)


def test_cookie_writes_only_from_the_pages(client: Client, tokens: Tokens) -> None:
    game = new_game(client, tokens["head"])["game_id"]
    signed = client.post(
        "/login", data={"token": tokens["head"], "next": "/"}, follow_redirects=False
    )
    assert signed.status_code == 303
    assert "httponly" in signed.headers["set-cookie"].lower()
    client.cookies.set("referee_token", tokens["head"])
    url = f"/api/games/{game}/entries"
    assert client.get(f"/api/games/{game}").status_code == 200
    is_problem(
        client.post(url, json={"text": "e1>e2"}, headers={"Sec-Fetch-Site": "cross-site"}),
        403,
        "forbidden",
    )
    assert (
        client.post(
            url, json={"text": "e1>e2"}, headers={"Sec-Fetch-Site": "same-origin"}
        ).status_code
        == 201
    )
    client.cookies.clear()
    wrong = client.post(
        "/login", data={"token": "rf_bad_token", "next": "/"}, follow_redirects=False
    )
    assert wrong.status_code == 303  # to the sign-in page, which says why
    assert wrong.headers["location"] == "/login?next=/&refused=token"


def test_export_import_and_games_list_filters(
    client: Client, tokens: Tokens, tmp_path: Any
) -> None:
    head = tokens["head"]
    one = new_game(client, head, table="1")["game_id"]
    new_game(client, head, table="2", players={"red": "Cy", "blue": "Di"})
    client.post(f"/api/games/{one}/entries", json={"text": "e1>e2"}, headers=auth(head))
    client.post(f"/api/games/{one}/end", json={"how": "agreement"}, headers=auth(head))
    listed = client.get("/api/games?table=1", headers=auth(head)).json()
    assert [g["game_id"] for g in listed] == [one]
    assert listed[0]["status"] == "finished"
    assert [
        g["players"]["red"] for g in client.get("/api/games?player=cy", headers=auth(head)).json()
    ] == ["Cy"]
    assert client.get("/api/games?status=open", headers=auth(head)).json()[0]["meta"] == {
        "table": "2"
    }
    record = client.get(f"/api/games/{one}/export?format=jsonl", headers=auth(head))
    assert record.status_code == 200
    assert record.text.startswith('{"format"')
    is_problem(
        client.get(f"/api/games/{one}/export?format=jsonl", headers=auth(tokens["public"])),
        403,
        "forbidden",
    )
    text = client.get(f"/api/games/{one}/export?format=text", headers=auth(tokens["public"])).text
    assert "1. red e1>e2" in text
    again = client.post("/api/imports", content=record.text, headers=auth(head))
    assert again.status_code == 200, again.text
    assert again.json()[0]["status"] == "skipped"
    # every game refused: 422, as a rejected entry, the outcomes listed as a 200 lists them
    for body in ("", "no record\n", record.text.replace('"hash"', '"hush"')):
        refused = is_problem(
            client.post("/api/imports", content=body, headers=auth(head)), 422, "import-refused"
        )
        (outcome,) = refused["extra"]["outcomes"]
        assert outcome["status"] == "refused"
        assert outcome["detail"] in refused["detail"]
    edited = record.text.replace(one, one + "x").replace('"hash"', '"hush"')
    some = client.post("/api/imports", content=record.text + edited, headers=auth(head))
    assert some.status_code == 200, some.text  # one game there already: not all refused
    assert [o["status"] for o in some.json()] == ["skipped", "refused"]
    documented = client.get("/schema/openapi.json").json()["paths"]["/api/imports"]["post"]
    assert "Every game of the record was refused" in documented["responses"]["422"]["description"]
    is_problem(
        client.post("/api/imports", content=record.text, headers=auth(tokens["table1"])),
        403,
        "forbidden",
    )
    board = client.get("/api/scoreboard", headers=auth(head)).json()
    assert {r["player"] for r in board} == {"Ann", "Ben"}
    assert all(r["drawn"] == 1 for r in board)


def test_public_read_lets_anonymous_readers_in_as_the_public(store: str, tokens: Tokens) -> None:
    from web.app import ServeConfig, create_app

    with TestClient(create_app(ServeConfig(store=store, public_read=True))) as anonymous:
        game = new_game(anonymous, tokens["head"])["game_id"]
        assert anonymous.get(f"/api/games/{game}").json()["viewer"] == "public"
        is_problem(
            anonymous.post(f"/api/games/{game}/entries", json={"text": "e1>e2"}),
            401,
            "unauthorized",
        )
        is_problem(anonymous.get(f"/api/games/{game}/audit"), 403, "forbidden")


def test_a_stale_if_match_is_refused_by_the_service_for_every_simple_write(
    client: Client, store: str, tokens: Tokens, game: str
) -> None:
    """The handlers leave If-Match to the service (issue 19): an end, a penalty or a
    dispute sent with a version the game has moved past is 412 and stores nothing."""
    head = tokens["head"]
    assert client.post(f"/api/games/{game}/entries", json={"text": "e1>e2"}, headers=auth(head))
    stale = auth(head, **{"If-Match": '"1"'})
    writes = [
        ("end", {"how": "agreement", "reason": "a draw offered and taken"}),
        ("penalties", {"seat": "p1", "level": "warning", "infraction": "slow play"}),
        ("disputes", {"event": 2, "claim": "the move was illegal", "by": "Ann"}),
    ]
    for path, body in writes:
        refused = is_problem(
            client.post(f"/api/games/{game}/{path}", json=body, headers=stale),
            412,
            "stale-version",
        )
        assert refused["version"] == 2
        assert refused["expected_version"] == 1
    assert len(events_of(store, game)) == 2


def test_a_rejection_is_worded_alike_on_the_command_line_and_over_http(
    client: Client, tokens: Tokens, game: str
) -> None:
    """One formatter (service.wording) words a refused entry for both faces."""
    import msgspec

    from cli.play import entry_lines
    from referee.verdicts import Violation
    from service.results import EntryResult
    from service.wording import rejection_text

    head = tokens["head"]
    answer = client.post(f"/api/games/{game}/entries", json={"text": "e2-e5"}, headers=auth(head))
    problem = is_problem(answer, 422, "rejected")
    result = EntryResult(  # the service's answer, as the problem document carries it
        game_id=game,
        status="rejected",
        accepted=False,
        text="e2-e5",
        seat=None,
        notation=None,
        violations=[msgspec.convert(v, Violation) for v in problem["violations"]],
        event=problem["event"],
        version=problem["version"],
    )
    clause = result.violations[0].clause
    assert problem["detail"] == rejection_text(result)
    assert problem["detail"].startswith(
        f"rejected 'e2-e5' (kept as evidence, event {result.event})"
    )
    _, err = entry_lines(result)
    assert problem["detail"].startswith(err[0])
    assert err[1] == f"  {clause}: " + (result.violations[0].reason)


def test_a_players_name_with_a_tab_or_an_escape_is_refused_as_on_the_command_line(
    client: Client, tokens: Tokens, store: str
) -> None:
    # `referee new` refused such names (EV-2.2) while POST /api/games stored them
    for name, char in (("A\tB", "U+0009"), ("A\x1b[31mB", "U+001B")):
        body = {"game": "prizmik", "players": {"red": name, "blue": "Ben"}}
        response = client.post("/api/games", json=body, headers=auth(tokens["head"]))
        problem = is_problem(response, 400, "refused")
        assert f"red's name is one line of printable text: {char}" in problem["detail"]
    svc = open_service(store)
    try:
        assert list(svc.store.game_ids()) == []
    finally:
        svc.close()
    assert new_game(client, tokens["head"], players={"red": "Zoë", "blue": "李雷"})["game_id"]


def test_a_json_route_refuses_a_body_of_another_type_and_a_form_route_a_non_form(
    client: Client, tokens: Tokens, store: str, game: str
) -> None:
    """A JSON body sent as text/plain, as a form or without a type is refused with 415 and
    a one-line problem, nothing stored (the entry too, past the fast path); JSON (and a
    +json type) is taken; a body-less write is its handler's. The pages' forms take forms
    only; the OpenAPI document says 415 where a route takes a JSON body."""
    head = auth(tokens["head"])
    body = json.dumps({"name": "Open", "game": "prizmik", "rounds": 3}).encode()
    for sent in ("text/plain", "application/x-www-form-urlencoded", None, "text/json"):
        headers = {**head, **({"Content-Type": sent} if sent else {})}
        refused = client.post("/api/events", content=body, headers=headers)
        assert refused.status_code == 415, (sent, refused.text)
        assert refused.headers["content-type"] == "application/problem+json"
        problem = refused.json()
        assert problem["type"] == "/problems/unsupported-media-type"
        assert "application/json" in problem["detail"]
        assert "\n" not in problem["detail"]
    entry = client.post(
        f"/api/games/{game}/entries",
        content=b'{"text": "e1>e2"}',
        headers={**auth(tokens["table1"]), "Content-Type": "text/plain"},
    )
    assert entry.status_code == 415, entry.text
    assert len(events_of(store, game)) == 1  # the game's creation only
    with open_service(store) as svc:
        assert svc.event_list() == []
    for sent in ("application/json", "application/json; charset=utf-8", "application/vnd+json"):
        made = client.post("/api/events", content=body, headers={**head, "Content-Type": sent})
        assert made.status_code == 201, (sent, made.text)
    event = made.json()["event_id"]
    ended = client.post(f"/api/events/{event}/end", headers=head)  # no body: the handler's
    assert ended.status_code != 415, ended.text
    same_site = {**head, "Sec-Fetch-Site": "same-origin"}
    page = client.post(
        "/games/new",
        content=b'{"game": "prizmik"}',
        headers={**same_site, "Content-Type": "application/json", "Accept": "text/html"},
        follow_redirects=False,
    )
    assert page.status_code == 415, page.text
    assert "text/html" in page.headers["content-type"]
    form = {"game": "prizmik", "players": "red=Ann, blue=Ben", "table": "2"}
    started = client.post("/games/new", data=form, headers=same_site, follow_redirects=False)
    assert started.status_code == 303, started.text
    assert started.headers["location"].startswith("/games/prizmik-"), started.headers
    paths = client.get("/schema/openapi.json").json()["paths"]
    assert "415" in paths["/api/events"]["post"]["responses"]
    assert "415" in paths["/api/games/{game_id}/entries"]["post"]["responses"]
    assert "415" not in paths["/api/imports"]["post"]["responses"]
    assert "415" not in paths["/api/events/{event_id}/calls/{call}/claim"]["post"]["responses"]
