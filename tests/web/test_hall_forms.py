"""The hall's page forms are safe to reload (docs/forms.md, docs/hall.md): a judge call,
a player's result report and its answer, a referee's step on a call in the queue, and the
round clock's controls on ``/events/E/clock`` are plain HTML forms (they work without
JavaScript: post, then 303 to the page) carrying an idempotency key made when the page was
rendered, so the same post sent twice (a reload of the post, a double click, the back
button's copy) records once. The HTTP pairings carry their round, as ``referee event
pairings --json`` does. EV-9.2, EV-9.4, EV-10.3, EV-11.2."""

from __future__ import annotations

import re
from typing import Any

import msgspec
from litestar import Litestar
from litestar.testing import TestClient

from service.app import open_service
from tests.web.conftest import Tokens, auth, event_kinds, table_token
from tests.web.test_calls_api import make_event

SAME_SITE = {"Sec-Fetch-Site": "same-origin"}


def _keys(client: TestClient[Litestar], token: str, path: str, form_id: str = "") -> list[str]:
    """The keys of the page's forms (those of the form ``form_id`` when named)."""
    page = client.get(path, headers=auth(token))
    assert page.status_code == 200, page.text
    text = page.text
    if form_id:
        found = re.search(rf'<form [^>]*id="{form_id}".*?</form>', text, re.S)
        assert found, (form_id, text)
        text = found.group(0)
    return re.findall(r'name="idem" value="([^"]+)"', text)


def _send(client: TestClient[Litestar], token: str, path: str, **form: str) -> Any:
    return client.post(
        path, data=form, headers={**auth(token), **SAME_SITE}, follow_redirects=False
    )


def _keyless(page: str) -> str:
    return re.sub(r'name="idem" value="[^"]+"', "", page)


def refusal(client: TestClient[Litestar], token: str, sent: Any, path: str) -> tuple[int, str]:
    """A refused hall form's answer: 303 to the form's own address with ``?said=KEY`` (a
    reload is a read, never the post again), whose page says why: its status and text."""
    assert sent.status_code == 303, sent.text
    location = sent.headers["location"]
    assert location.startswith(f"{path}?said="), location
    page = client.get(location, headers=auth(token))
    assert page.status_code == 200, page.text
    reloaded = client.get(location, headers=auth(token)).text  # a read: the same, a new key
    assert _keyless(reloaded) == _keyless(page.text)
    shown = re.search(r'id="said" data-status="(\d+)"', page.text)
    assert shown, page.text
    return int(shown.group(1)), page.text


def test_a_judge_call_and_a_report_from_a_players_page_record_once_per_key(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-10: Ann's call sent twice with its key is one call; EV-11: her report likewise,
    and a refused report (EV-3.1) leaves the page's key free to send the corrected form;
    Ben's confirmation is once too; the queue's claim and resolve likewise."""
    event = make_event(store)
    ann, ben = tokens["ann"], tokens["ben"]
    page = f"/events/{event}/players/Ann"
    [key] = _keys(client, ann, page, "call-form")
    first = _send(client, ann, f"/events/{event}/me/call", idem=key, table="1", reason="help")
    assert first.status_code == 303
    assert first.headers["location"].startswith(f"/events/{event}/me?said=")  # what it did
    again = _send(client, ann, f"/events/{event}/me/call", idem=key, table="1", reason="help")
    assert again.status_code == 303
    assert again.headers["location"] == first.headers["location"]
    assert event_kinds(store, event).count("judge-called") == 1
    assert "waiting for a judge" in client.get(page, headers=auth(ann)).text

    # the call resolved, the page shows the button again with a new key (not the first's)
    tom = table_token(store, event, "1", name="Tom")
    for step, field in (("claim", ""), ("resolve", "note")):
        [step_key, *_] = _keys(client, tom, "/queue")
        body = {"idem": step_key, "back": "/queue", **({field: "seen to"} if field else {})}
        for _ in range(2):  # the same post twice: carried out once
            sent = _send(client, tom, f"/queue/calls/{event}/1/{step}", **body)
            assert sent.status_code == 303, sent.text
    kinds = event_kinds(store, event)
    assert (kinds.count("call-claimed"), kinds.count("call-resolved")) == (1, 1)
    [second] = _keys(client, ann, page, "call-form")
    assert second != key
    assert _send(client, ann, f"/events/{event}/me/call", idem=second, table="1").status_code == 303
    assert event_kinds(store, event).count("judge-called") == 2

    [report_key] = _keys(client, ann, page, "report-form")
    report = f"/events/{event}/me/report"
    # a result that is no result: refused (EV-3.1), nothing stored, and the key left free
    wrong = _send(client, ann, report, idem=report_key, result="two-one")
    status, text = refusal(client, ann, wrong, report)
    assert status == 400, text
    assert "EV-3.1" in text, text
    for _ in range(2):  # the same form corrected, from the same page: carried out once
        sent = _send(client, ann, report, idem=report_key, result="2-1-0")
        assert sent.status_code == 303, sent.text
    assert event_kinds(store, event).count("report-filed") == 1
    # the report's key sent with another form: refused, nothing more recorded
    confirm = f"/events/{event}/me/reports/1/confirm"
    status, text = refusal(client, ann, _send(client, ann, confirm, idem=report_key), confirm)
    assert status == 422
    assert "sent before with other values" in text
    ben_page = client.get(f"/events/{event}/players/Ben", headers=auth(ben)).text
    answer = re.search(r'id="report-1".*?</div>', ben_page, re.S)
    assert answer, ben_page
    confirm_key = re.findall(r'name="idem" value="([^"]+)"', answer.group(0))[0]
    for _ in range(2):
        done = _send(client, ben, f"/events/{event}/me/reports/1/confirm", idem=confirm_key)
        assert done.status_code == 303, done.text
    kinds = event_kinds(store, event)
    assert (kinds.count("report-confirmed"), kinds.count("match-reported")) == (1, 1)


def test_a_call_from_a_games_table_page_records_once_per_key(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-10.3: the table page's call, sent twice with its key, is one call (a second call
    would have been refused: the table already has one) and the page says so."""
    event = make_event(store)
    with open_service(store) as svc:
        game = svc.event_pairings(event)[0].games[0]
    ann = tokens["ann"]
    [key] = _keys(client, ann, f"/games/{game}", "table-call")
    first = _send(client, ann, f"/games/{game}/call", idem=key, reason="a ruling")
    again = _send(client, ann, f"/games/{game}/call", idem=key, reason="a ruling")
    assert first.status_code == again.status_code == 303
    assert again.headers["location"] == first.headers["location"]
    assert event_kinds(store, event).count("judge-called") == 1
    shown = client.get(first.headers["location"], headers=auth(ann)).text
    assert "a judge is called" in shown


def test_the_clock_controls_are_forms_that_work_without_javascript_once_per_key(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-9.2: the head starts and pauses the clock from its page, each mark sent twice is
    recorded once; a mark out of order shows its clause; EV-9.4: a table referee extends
    their own table (once per key), not another, and has no marks."""
    event = make_event(store)
    head = tokens["head"]
    page = f"/events/{event}/clock"
    html = client.get(page, headers=auth(head)).text
    assert '<div id="clock-controls"' in html
    assert "hidden" not in html.split("clock-controls")[1][:80]
    do = f"/events/{event}/clock/do"
    for mark in ("start", "pause"):
        key = _keys(client, head, page)[0]
        for _ in range(2):
            sent = _send(client, head, do, idem=key, action=mark)
            assert sent.status_code == 303, sent.text
        assert sent.headers["location"] == f"{page}?said={key}#clock-said"
    marks = [k for k in event_kinds(store, event) if k == "clock-marked"]
    assert len(marks) == 2
    shown = client.get(f"{page}?said={key}", headers=auth(head)).text
    assert "clock: paused" in shown
    late = _send(client, head, do, idem=_keys(client, head, page)[0], action="start")
    said = client.get(late.headers["location"].split("#")[0], headers=auth(head)).text
    assert re.search(r'id="clock-said"[^>]*data-status="400">[^<]*EV-9.2', said), said

    tom = table_token(store, event, "1", name="Tom")
    tom_page = client.get(page, headers=auth(tom)).text
    assert 'id="clock-pause"' not in tom_page  # the marks are the head's
    key = _keys(client, tom, page, "extend-form")[0]
    for _ in range(2):
        sent = _send(client, tom, do, idem=key, action="extend", table="1", minutes="4",
                     reason="deck check")  # fmt: skip
        assert sent.status_code == 303
    other = _send(client, tom, do, idem=_keys(client, tom, page)[0], action="extend", table="2",
                  minutes="4", reason="ruling")  # fmt: skip
    denied = client.get(other.headers["location"].split("#")[0], headers=auth(tom)).text
    assert 'data-status="403"' in denied
    mark = _send(client, tom, do, idem=_keys(client, tom, page)[0], action="resume")
    assert 'data-status="403"' in client.get(mark.headers["location"], headers=auth(tom)).text
    with open_service(store) as svc:
        clock = svc.event_clock_view(event)
    assert clock.state == "paused"
    assert [t.extension_minutes for t in clock.tables] == [4]
    assert event_kinds(store, event).count("time-extended") == 1


def test_the_http_pairings_name_their_round(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """The pairings as ``referee event pairings --json`` gives them: each row with its round
    and its name (the latest without ``?round=``), in the OpenAPI answer type too."""
    event = make_event(store)
    url = f"/api/events/{event}/pairings"
    rows = client.get(url, headers=auth(tokens["ann"])).json()
    assert rows
    assert all((row["round"], row["stage"]) == (1, "round 1") for row in rows)
    assert rows[0]["table"] == 1
    assert rows[0]["players"] == ["Ann", "Ben"]
    again = client.get(f"{url}?round=1", headers=auth(tokens["ann"])).json()
    assert again == rows
    schema = client.get("/schema/openapi.json").json()
    answer = schema["paths"]["/api/events/{event_id}/pairings"]["get"]["responses"]["200"]
    ref = answer["content"]["application/json"]["schema"]["items"]["$ref"].split("/")[-1]
    assert {"round", "stage"} <= set(schema["components"]["schemas"][ref]["required"])
    with open_service(store) as svc:  # the command line's rows, the same (the API adds
        sheet = svc.event_pairing_sheet(event)  # each table's result or games so far)
        assert [{"round": sheet.round, "stage": sheet.stage, **msgspec.to_builtins(row),
                 "result": None, "so_far": None}
                for row in svc.event_pairings(event)] == rows  # fmt: skip


def test_a_refused_hall_form_comes_back_with_what_was_typed(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-3.1, forms safe to reload: Ann's report that is no result is refused on a page of
    its own (after a redirect: a reload is a read), which draws the form again with what
    she typed (the table hidden, a fresh key), so she corrects it there instead of typing
    it again from an empty form."""
    event = make_event(store)
    ann = tokens["ann"]
    [key] = _keys(client, ann, f"/events/{event}/players/Ann", "report-form")
    report = f"/events/{event}/me/report"
    wrong = _send(client, ann, report, idem=key, table="1", result="two-one")
    status, text = refusal(client, ann, wrong, report)
    assert status == 400, text
    again = re.search(r'<form [^>]*id="again".*?</form>', text, re.S)
    assert again, text
    form = again.group(0)
    assert f'action="{report}"' in form
    assert 'name="result" value="two-one"' in form
    assert 'type="hidden" name="table" value="1"' in form
    [fresh] = re.findall(r'name="idem" value="([^"]+)"', form)
    assert fresh != key
    sent = _send(client, ann, report, idem=fresh, table="1", result="2-1-0")
    assert sent.status_code == 303, sent.text
    assert event_kinds(store, event).count("report-filed") == 1
    # a form with nothing typed (a confirmation) is not drawn again: its Back link serves
    confirm = f"/events/{event}/me/reports/1/confirm"
    status, text = refusal(client, ann, _send(client, ann, confirm, idem=fresh), confirm)
    assert status == 422
    assert 'id="again"' not in text


def test_a_player_signing_in_lands_on_the_events_with_a_link_to_their_page(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """A player's token signs in to the events, each with a link to the player's own page
    there (``/events/E/me``), not to the list of every game; staff land where they asked."""
    event = make_event(store)
    signed = client.post(
        "/login", data={"token": tokens["ann"], "next": "/"}, follow_redirects=False
    )
    assert signed.status_code == 303
    assert signed.headers["location"] == "/events"
    page = client.get("/events", headers=auth(tokens["ann"])).text
    assert f'href="/events/{event}/me" class="my-page"' in page
    mine = client.get(f"/events/{event}/me", headers=auth(tokens["ann"]), follow_redirects=False)
    assert mine.headers["location"] == f"/events/{event}/players/Ann"
    asked = client.post(
        "/login", data={"token": tokens["ann"], "next": "/games"}, follow_redirects=False
    )
    assert asked.headers["location"] == "/games"
    client.cookies.clear()
    head = client.post(
        "/login", data={"token": tokens["head"], "next": "/"}, follow_redirects=False
    )
    assert head.headers["location"] == "/"
    staff = client.get("/events", headers=auth(tokens["head"])).text
    assert "my-page" not in staff
