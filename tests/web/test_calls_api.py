"""The hall over HTTP: judge calls (EV-10) and players' own results (EV-11) with the tokens
of every role (``conftest.make_tokens``: Ann and Ben are players, Tom referees table 1, Tia
table 2), the queue's items, the stored events' token ids, and the OpenAPI document."""

from __future__ import annotations

from typing import Any

import pytest

from service.app import open_service
from tests.web.conftest import Tokens, auth, house_ids, table_token


def make_event(store: str, players: tuple[str, ...] = ("Ann", "Ben")) -> str:
    """A PRIZMIK Swiss event of ``players`` with round 1 paired (Ann v Ben at table 1)."""
    with open_service(store) as svc:
        # seed 5 draws two or four players in registration order (EV-5.6)
        event = svc.event_new("Hall Open", "prizmik", rounds=3, seed=5).event_id
        svc.event_register(event, list(players), player_ids=house_ids(store, list(players)))
        svc.event_pair(event)
    return event


@pytest.fixture
def event(store: str, tokens: Tokens) -> str:
    """``make_event`` once the players' tokens are made (their ids are registered): Ann and
    Ben at table 1 of round 1 (this module's own event)."""
    return make_event(store)


def post(client: Any, token: str, path: str, body: dict[str, Any] | None = None) -> Any:
    return client.post(path, json=body or {}, headers=auth(token))


def created(client: Any, token: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """``post`` answered 201 Created: what was created (its JSON)."""
    answer = post(client, token, path, body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def refused(
    client: Any, token: str, path: str, body: dict[str, Any] | None = None, *, clause: str
) -> None:
    """``post`` answered 400 Bad Request, naming ``clause``."""
    answer = post(client, token, path, body)
    assert answer.status_code == 400, answer.text
    assert clause in answer.json()["detail"]


def test_ev_10_a_players_call_is_claimed_escalated_and_resolved(
    client: Any, tokens: Tokens, store: str, event: str
) -> None:
    base = f"/api/events/{event}/calls"
    call = created(client, tokens["ann"], base, {"reason": "my opponent drew 2"})
    assert (call["call"], call["table"], call["by"], call["status"]) == (1, 1, "Ann", "open")
    queue = client.get("/api/queue", headers=auth(tokens["head"])).json()
    assert [i["call"] for i in queue["calls"]] == [1]
    assert queue["calls"][0]["holder"] == ""
    refused(client, tokens["ben"], base, {}, clause="EV-10.3")

    tom = table_token(store, event, "1", name="Tom")  # table 1 of this event (issue 31)
    tia = table_token(store, event, "2", name="Tia")
    elsewhere = table_token(store, "ev-otherday", "1", name="Uma")  # table 1 of another event
    assert post(client, tia, f"{base}/1/claim").status_code == 403  # Tia: table 2
    assert post(client, elsewhere, f"{base}/1/claim").status_code == 403  # not her event
    assert post(client, tokens["table1"], f"{base}/1/claim").status_code == 403  # no event
    assert client.get("/api/queue", headers=auth(elsewhere)).json()["calls"] == []
    claimed = created(client, tom, f"{base}/1/claim")
    assert claimed["holder"] == "Tom"
    queue = client.get("/api/queue", headers=auth(tom)).json()
    assert queue["calls"][0]["holder"] == "Tom"
    assert "claimed by Tom" in queue["calls"][0]["line"]
    up = created(client, tom, f"{base}/1/escalate", {"reason": "an appeal"})
    assert up["status"] == "escalated"
    refused(client, tom, f"{base}/1/resolve", {"note": "done"}, clause="EV-10.4")
    assert post(client, tokens["ann"], f"{base}/1/resolve", {"note": "x"}).status_code == 403
    done = created(client, tokens["head"], f"{base}/1/resolve", {"note": "game rewound"})
    assert done["status"] == "resolved"
    assert client.get("/api/queue", headers=auth(tokens["head"])).json()["calls"] == []
    every = client.get(f"{base}?all=true", headers=auth(tokens["scorekeeper"])).json()
    assert [(c["call"], c["note"]) for c in every] == [(1, "game rewound")]
    assert client.get(base, headers=auth(tokens["public"])).status_code == 403

    with open_service(store) as svc:  # who, when, which token: every step is an event
        log = [(line.kind, line.text) for line in svc.event_log(event)][-4:]
        kinds = [k for k, _ in log]
        assert kinds == ["judge-called", "call-claimed", "call-escalated", "call-resolved"]
        rows = svc.store.rows(event)
    from events.codec import decode

    tokens_seen = [decode(topic, data).token for _, topic, data in rows][-4:]
    assert all(tokens_seen)
    assert tokens_seen[0] == tokens["ann"].split("_")[1]


def test_ev_10_1_the_reason_is_bounded_and_the_table_must_exist(
    client: Any, tokens: Tokens, event: str
) -> None:
    base = f"/api/events/{event}/calls"
    long = post(client, tokens["ann"], base, {"reason": "x" * 201})
    assert long.status_code == 422
    assert post(client, tokens["head"], base, {"table": 7}).status_code == 400
    assert post(client, tokens["table2"], base, {"table": 1}).status_code == 403
    assert post(client, tokens["public"], base, {"table": 1}).status_code == 403
    nowhere = post(client, tokens["ann"], "/api/events/ev-zzzzzzzz/calls", {})
    assert nowhere.status_code == 404


def test_a_call_from_the_event_game_goes_to_its_table(
    client: Any, tokens: Tokens, store: str, event: str
) -> None:
    with open_service(store) as svc:
        (table,) = svc.event_pairings(event)
    game = f"/api/games/{table.games[0]}/calls"
    assert post(client, tokens["table2"], game, {}).status_code == 403  # Tia: table 2
    assert post(client, tokens["public"], game, {}).status_code == 403
    body = {"game": "prizmik", "players": {"red": "Cal", "blue": "Dee"}, "meta": {"table": "4"}}
    alone = client.post("/api/games", json=body, headers=auth(tokens["head"])).json()["game_id"]
    # to the game's own table (REF-11.1)
    outside = created(client, tokens["head"], f"/api/games/{alone}/calls")
    assert (outside["event_id"], outside["table"]) == ("", 4)
    made = created(client, tokens["ben"], game, {"reason": "ruling"})
    assert (made["table"], made["by"], made["game"]) == (
        1,
        "Ben",
        table.games[0],
    )


def test_ref_11_an_idempotency_key_on_a_game_s_call_is_kept_with_the_call(
    client: Any, tokens: Tokens, store: str
) -> None:
    """A call from a game outside an event sent again with its ``Idempotency-Key`` is
    refused (409) and stores nothing twice, as an event's write is; a step on it too. The
    key is stored with the call's fact, in the game's own stream."""
    body = {"game": "prizmik", "players": {"red": "Cal", "blue": "Dee"}, "meta": {"table": "4"}}
    game = client.post("/api/games", json=body, headers=auth(tokens["head"])).json()["game_id"]
    keyed = {**auth(tokens["head"]), "Idempotency-Key": "call-1"}
    first = client.post(f"/api/games/{game}/calls", json={"reason": "ruling"}, headers=keyed)
    assert first.status_code == 201, first.text
    again = client.post(f"/api/games/{game}/calls", json={"reason": "ruling"}, headers=keyed)
    assert again.status_code == 409, again.text
    call = first.json()["call"]
    step = {**auth(tokens["head"]), "Idempotency-Key": "claim-1"}
    path = f"/api/events/{game}/calls/{call}/claim"
    assert client.post(path, headers=step).status_code == 201
    assert client.post(path, headers=step).status_code == 409
    with open_service(store) as svc:
        view = svc.load(game)
        assert view.version == 3  # created, called, claimed: nothing twice
        assert getattr(view.event(call), "idempotency_key", None) == "call-1"


def test_ev_11_two_players_report_and_confirm_and_the_standings_change(
    client: Any, tokens: Tokens, store: str, event: str
) -> None:
    base = f"/api/events/{event}/reports"
    filed = created(client, tokens["ann"], base, {"result": "2-1-0"})
    assert (filed["result"], filed["status"]) == ("2-1-0", "pending")
    waiting = client.get(base, headers=auth(tokens["scorekeeper"])).json()
    assert [r["report"] for r in waiting] == [1]
    refused(client, tokens["ann"], f"{base}/1/confirm", clause="EV-11.2")
    staff = post(client, tokens["head"], f"{base}/1/confirm")
    assert staff.status_code == 403
    done = created(client, tokens["ben"], f"{base}/1/confirm")
    assert done["status"] == "confirmed"
    standings = client.get(f"/api/events/{event}/standings", headers=auth(tokens["ann"])).json()
    assert (standings[0]["player"], standings[0]["points"]) == ("Ann", 3)
    pairings = client.get(f"/api/events/{event}/pairings", headers=auth(tokens["ann"])).json()
    assert pairings[0]["table"] == 1
    with open_service(store) as svc:
        kinds = [line.kind for line in svc.event_log(event)][-4:]
    # the confirmed slip also closes the table's open game as void (EV-3.9)
    assert kinds == ["report-filed", "report-confirmed", "match-reported", "games-voided"]


def test_ev_11_5_a_disagreement_reaches_the_queue_and_a_staff_slip_settles_it(
    client: Any, tokens: Tokens, event: str
) -> None:
    base = f"/api/events/{event}/reports"
    created(client, tokens["ann"], base, {"result": "2-0"})
    created(client, tokens["ben"], base, {"result": "2-1"})  # says he won: a disagreement
    queue = client.get("/api/queue", headers=auth(tokens["head"])).json()
    (item,) = queue["disagreements"]
    assert item["table"] == "1"
    assert item["report"] == 1
    assert "Ben disagrees" in item["line"]
    created(client, tokens["scorekeeper"], f"/api/events/{event}/results", {"slips": ["1=2-1"]})
    assert client.get("/api/queue", headers=auth(tokens["head"])).json()["disagreements"] == []
    every = client.get(f"{base}?all=true", headers=auth(tokens["head"])).json()
    assert {r["status"] for r in every} == {"superseded"}
    refused(client, tokens["ann"], f"{base}/2/confirm", clause="EV-11.6")


@pytest.mark.parametrize(
    ("who", "body", "status", "clause"),
    [
        ("ann", {"result": "2-0", "table": 2}, 400, "EV-11.2"),
        ("ann", {"result": "3-0"}, 400, "EV-3.2"),
        ("ann", {"result": "x" * 21}, 422, ""),
        ("head", {"result": "2-0"}, 403, ""),
        ("public", {"result": "2-0"}, 403, ""),
    ],
)
def test_ev_11_reports_refused(
    client: Any,
    tokens: Tokens,
    who: str,
    body: dict[str, Any],
    status: int,
    clause: str,
    event: str,
) -> None:
    answer = post(client, tokens[who], f"/api/events/{event}/reports", body)
    assert answer.status_code == status, answer.text
    assert clause in answer.json()["detail"]


def test_ev_11_2_a_player_not_at_the_table_is_refused(
    client: Any, tokens: Tokens, store: str
) -> None:
    event = make_event(store, ("Ann", "Ben", "Cal", "Dee"))  # 1 v 3: Ann v Cal, Ben v Dee
    with open_service(store) as svc:
        tables = [t.players for t in svc.event_pairings(event)]
    assert ["Ann", "Cal"] in tables
    base = f"/api/events/{event}/reports"
    created(client, tokens["ann"], base, {"result": "2-0"})
    refused(client, tokens["ben"], f"{base}/1/confirm", clause="EV-11.2")
    refused(client, tokens["ben"], f"{base}/1/dispute", {"reason": "no"}, clause="EV-11.2")
    refused(client, tokens["ben"], f"/api/events/{event}/calls", {"table": 1}, clause="EV-10.2")


def _token_of(store: str, event: str, name: str) -> str:
    """A player token for ``name`` of ``event``, bound to the id they were registered with."""
    from service.access import TokenStore
    from service.sidedb import open_side_db
    from service.stores import parse_store

    with open_service(store) as svc:
        state = svc.event_state(event)
        player_id = state.players[state.find(name) or ""].player_id
    assert isinstance(player_id, str)  # every registration carries one (EV-2.2)
    tokens = TokenStore(open_side_db(parse_store(store)))
    try:
        return tokens.create("player", name, player_id=player_id)[1]
    finally:
        tokens.db.close()


def test_ev_10_7_a_tables_call_and_dispute_are_for_its_own_players_eyes(
    client: Any, tokens: Tokens, store: str
) -> None:
    """EV-10.7: Ann's call, her report and Cal's dispute with its reason are shown on Ann's
    page to Ann (and on Cal's to Cal; the call's reason to the staff only); Cal, Ben (a
    player of the other table), the public and the staff reading Ann's page (its HTML, as
    of a round, its JSON, each read twice so that the second comes from the shared cache)
    are shown her table and result, never the call or the dispute."""
    event = make_event(store, ("Ann", "Ben", "Cal", "Dee"))  # Ann v Cal at table 1
    cal = _token_of(store, event, "Cal")
    calls, reports = f"/api/events/{event}/calls", f"/api/events/{event}/reports"
    created(client, tokens["ann"], calls, {"reason": "CALLREASON"})
    created(client, tokens["ann"], reports, {"result": "2-0-0"})
    created(client, cal, f"{reports}/1/dispute", {"reason": "DISPUTEREASON"})
    secrets = ("DISPUTEREASON", "judge is called", "report 1")  # the call's reason: staff's
    pages = [f"/events/{event}/players/Ann", f"/events/{event}/players/Ann?round=1"]
    api = f"/api/events/{event}/players/Ann"
    for reader in (cal, tokens["ann"], tokens["ben"], tokens["public"], tokens["head"]):
        for _ in range(2):
            for page in pages:
                text = client.get(page, headers=auth(reader)).text
                assert 'id="my-table">1<' in text, text
                shown = [s for s in secrets if s in text]
                assert "CALLREASON" not in text
                assert shown == (list(secrets) if reader == tokens["ann"] else []), (page, shown)
            line = client.get(api, headers=auth(reader)).json()
            assert line["table"] == 1
            hall = line["hall"]
            if reader == tokens["ann"]:
                assert hall["call"] == 1
                assert hall["reports"][0]["reason"] == "DISPUTEREASON"
            else:
                assert hall is None, hall
    own = client.get(f"/api/events/{event}/players/Cal", headers=auth(cal)).json()["hall"]
    assert own["reports"][0]["reason"] == "DISPUTEREASON"


def test_the_hall_routes_are_in_the_openapi_document(client: Any) -> None:
    paths = client.get("/schema/openapi.json").json()["paths"]
    for path, method, statuses in [
        ("/api/events/{event_id}/calls", "post", {"201", "400", "403", "404", "422"}),
        ("/api/events/{event_id}/calls", "get", {"200", "403"}),
        ("/api/events/{event_id}/calls/{call}/claim", "post", {"201", "400", "403"}),
        ("/api/events/{event_id}/calls/{call}/escalate", "post", {"201", "400"}),
        ("/api/events/{event_id}/calls/{call}/resolve", "post", {"201", "400"}),
        ("/api/games/{game_id}/calls", "post", {"201", "400"}),
        ("/api/events/{event_id}/reports", "post", {"201", "400", "403"}),
        ("/api/events/{event_id}/reports", "get", {"200", "403"}),
        ("/api/events/{event_id}/reports/{report}/confirm", "post", {"201", "400"}),
        ("/api/events/{event_id}/reports/{report}/dispute", "post", {"201", "400"}),
    ]:
        assert statuses <= set(paths[path][method]["responses"]), (path, method)
