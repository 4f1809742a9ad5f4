"""Defects found walking the hall's pages and API as an organizer and a head referee for the
first time (docs/server.md, docs/hall.md, docs/forms.md): each test failed before its fix."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient

from tests.web.conftest import Tokens, auth, house_ids

Client = TestClient[Litestar]


def _paired(client: Client, tokens: Tokens, store: str) -> str:
    """A PRIZMIK event of Ann, Ben (the fixture's player tokens), Cal and Dee, round 1 paired
    by hand: Cal-Ben at table 1, Ann-Dee at table 2."""
    head = tokens["head"]
    names = ["Ann", "Ben", "Cal", "Dee"]
    made = client.post(
        "/api/events", json={"name": "Cup", "game": "prizmik", "rounds": 3}, headers=auth(head)
    )
    event = made.json()["event_id"]
    ids = house_ids(store, ["Ann", "Ben"])
    body = {"players": names, "player_ids": [*ids, "pl-cal0000000", "pl-dee0000000"]}
    assert client.post(f"/api/events/{event}/players", json=body, headers=auth(head)).is_success
    manual = {"pairs": [["Cal", "Ben"], ["Ann", "Dee"]], "byes": []}
    paired = client.post(
        f"/api/events/{event}/rounds", json={"manual": manual, "reason": "t"}, headers=auth(head)
    )
    assert paired.status_code == 201, paired.text
    return str(event)


def test_the_sign_in_form_counts_wrong_tokens_like_the_api(client: Client, tokens: Tokens) -> None:
    """docs/server.md, Bounds: past 20 wrong tokens within 10 s from one address a wrong token
    is answered 429 with Retry-After (the form: a redirect to the sign-in page saying so,
    with Retry-After). The sign-in form took wrong tokens without end, a way around the
    limit; a valid token is still let in."""
    codes = [
        client.post("/login", data={"token": f"rf_guessguess_{n}"}, follow_redirects=False)
        for n in range(25)
    ]
    # each refusal is a redirect to the sign-in page saying why (a reload sends no token)
    assert codes[0].status_code == 303
    assert codes[0].headers["location"] == "/login?next=/&refused=token"
    assert "is unknown or revoked" in client.get(codes[0].headers["location"]).text
    refused = codes[-1]
    assert refused.status_code == 303, [c.status_code for c in codes]
    assert "retry-after" in refused.headers
    wait = refused.headers["retry-after"]
    assert refused.headers["location"] == f"/login?next=/&refused=limit&retry={wait}"
    page = client.get(refused.headers["location"])
    assert (
        f"Too many failed authentications from this address or with this token; retry in {wait} s."
        in page.text
    )
    assert "Traceback" not in page.text
    assert "rf_guessguess" not in page.text + refused.headers["location"]
    assert page.headers["content-type"].startswith("text/html")
    # the API from the same address is over the limit too: one count, not one per door
    api = client.get("/api/whoami", headers=auth("rf_guessguess_api"))
    assert api.status_code == 429
    signed = client.post("/login", data={"token": tokens["head"]}, follow_redirects=False)
    assert signed.status_code == 303


def test_answering_a_report_of_another_table_names_the_player(
    client: Client, tokens: Tokens, store: str
) -> None:
    """docs/hall.md, "Players' own results" (EV-11.2): a report is answered only by the other
    player at its table. Ann answering table 2's report was told "p1 does not play at round 1
    table 2": the event's internal registration id instead of her name."""
    head = tokens["head"]
    event = _paired(client, tokens, store)
    filed = client.post(
        f"/api/events/{event}/reports", json={"result": "2-0-0"}, headers=auth(tokens["ben"])
    )
    assert filed.status_code == 201, filed.text
    number = filed.json()["report"]
    before = client.get(f"/api/events/{event}", headers=auth(head)).json()["version"]
    answer = client.post(
        f"/api/events/{event}/reports/{number}/confirm", headers=auth(tokens["ann"])
    )
    assert answer.status_code == 400
    detail = answer.json()["detail"]
    assert detail.startswith("EV-11.2: Ann does not play at round 1 table"), detail
    after = client.get(f"/api/events/{event}", headers=auth(head)).json()["version"]
    assert after == before  # nothing stored


def test_a_hall_form_refuses_a_field_past_the_apis_bound_with_422(
    client: Client, tokens: Tokens, store: str
) -> None:
    """docs/forms.md, Bounds: a form's fields are held to the API's bounds for the same field
    and the server refuses a longer value with 422, as the API does, before anything is
    stored. The hall's forms (a player's call, report and answer, the queue's steps) cut a
    field to 1,000 characters and left the rest to the service: a 201-character reason was
    answered 400, and a result padded past the API's 20 characters was stored."""
    event = _paired(client, tokens, store)
    head, ben = tokens["head"], tokens["ben"]
    client.cookies.set("referee_token", ben)
    same = {"Sec-Fetch-Site": "same-origin"}

    def version() -> int:
        answer = client.get(f"/api/events/{event}", headers=auth(head))
        return int(answer.json()["version"])

    before = version()
    call = client.post(
        f"/events/{event}/me/call",
        data={"reason": "x" * 201},
        headers=same,
        follow_redirects=False,
    )
    assert call.status_code == 303, call.text  # the refusal's page: a reload is a read
    shown = client.get(call.headers["location"])
    assert 'data-status="422"' in shown.text, shown.text
    assert "Nothing was stored" in shown.text
    padded = client.post(
        f"/events/{event}/me/report",
        data={"result": "2-0-0" + " " * 30},
        headers=same,
        follow_redirects=False,
    )
    assert padded.status_code == 303, padded.text
    assert 'data-status="422"' in client.get(padded.headers["location"]).text
    assert version() == before  # nothing stored
    done = client.post(
        f"/events/{event}/me/report",
        data={"result": "2-0-0"},
        headers=same,
        follow_redirects=False,
    )
    assert done.status_code == 303, done.text
    assert version() == before + 1


def test_a_clock_control_refused_says_why_on_the_page(
    client: Client, tokens: Tokens, store: str
) -> None:
    """docs/hall.md, "Where the time shows": a clock control redirects to the page, which shows
    what was done or the refusal. A player's post (403: only the head marks the clock) was
    redirected to a page without its controls, which showed nothing at all."""
    event = _paired(client, tokens, store)
    head = tokens["head"]
    client.cookies.set("referee_token", tokens["ann"])
    posted = client.post(
        f"/events/{event}/clock/do",
        data={"action": "start"},
        headers={"Sec-Fetch-Site": "same-origin"},
        follow_redirects=False,
    )
    assert posted.status_code == 303
    page = client.get(posted.headers["location"].partition("#")[0])
    assert page.status_code == 200
    assert 'id="clock-said"' in page.text
    assert 'data-status="403"' in page.text
    clock = client.get(f"/api/events/{event}/clock", headers=auth(head)).json()
    assert clock["started"] is None  # nothing stored
