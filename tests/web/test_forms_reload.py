"""Every page form is safe to reload (docs/forms.md): one case per HTML ``POST`` route of the
app, collected from its route table, so that a new form cannot escape the test.

For each route: a form carried out answers ``303 See Other`` with a ``Location``; a refused
one answers 303 too (unless ``NOT_REFUSED`` says why it cannot be refused), and the page it
leads to shows why (the clause and plain words) with what was typed; the same form sent
twice with its key stores once (``STORES_NOTHING``: the forms that store nothing, which
have no key to keep).

Not in the table, and answered without a redirect on purpose: a form of the table page
posted by a role that may never send it (``web.guards.may_game_by``, 403 before the form is
read: the page never shows that role the form, so there is no page to reload), and a post
without a token (the sign-in page's redirect, ``tests/web/test_fail_closed.py``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import quote

import pytest
from litestar import Litestar
from litestar.routes import HTTPRoute
from litestar.testing import TestClient

from service.app import open_service
from service.seal import create_key, seal
from tests.web.conftest import ROOT, Tokens, auth, deck_event, table_token
from tests.web.test_calls_api import make_event

SAME_SITE = {"Sec-Fetch-Site": "same-origin"}

LONG = "x" * 201
"""A reason past the API's bound of 200 characters (422)."""


class Case(NamedTuple):
    """One form: who sends it, where, a form carried out and one refused (``None``: see
    ``NOT_REFUSED``), and what the refusal's page must show."""

    token: str
    path: str
    done: dict[str, str]
    refused: dict[str, str] | None
    shown: tuple[str, ...]


Setup = Callable[[TestClient[Litestar], Tokens, str], Case]


def _game(store: str, event: str) -> str:
    with open_service(store) as svc:
        return str(svc.event_pairings(event)[0].games[0])


def _on_event(
    who: str,
    path: str,
    done: dict[str, str],
    refused: dict[str, str],
    shown: tuple[str, ...],
) -> Setup:
    """A form of a fresh event (round 1 paired: Ann v Ben at table 1), sent by ``who``'s
    token to ``path`` with the event's id for ``{event}`` and table 1's game for ``{game}``."""

    def setup(client: TestClient[Litestar], tokens: Tokens, store: str) -> Case:
        event = make_event(store)
        game = _game(store, event) if "{game}" in path else ""
        return Case(tokens[who], path.format(event=event, game=game), done, refused, shown)

    return setup


def _new_game(client: TestClient[Litestar], tokens: Tokens, store: str) -> Case:
    return Case(
        tokens["head"],
        "/games/new",
        {"game": "prizmik", "players": "red=Ann, blue=Ben", "table": "9", "options": "{}"},
        {"game": "prizmik", "players": "red=Ann", "table": "9", "options": "{}"},
        ('value="red=Ann"',),
    )


def _login(client: TestClient[Litestar], tokens: Tokens, store: str) -> Case:
    return Case(
        "",
        "/login",
        {"token": tokens["head"], "next": "/queue"},
        {"token": "rf_wrong_token", "next": "/queue"},
        ("The token is unknown or revoked.",),
    )


def _logout(client: TestClient[Litestar], tokens: Tokens, store: str) -> Case:
    return Case(tokens["head"], "/logout", {}, None, ())


def _verify(client: TestClient[Litestar], tokens: Tokens, store: str) -> Case:
    event = make_event(store)
    key = Path(store).parent / "seal.pem"
    create_key(key)
    with open_service(store) as svc:
        seal(svc.store, key)  # a posting is made from a sealed store
    posting = client.get(f"/events/{event}/postings/pairings", headers=auth(tokens["public"]))
    assert posting.status_code == 200, posting.text
    return Case(
        tokens["public"],
        f"/events/{event}/verify",
        {"posting": posting.text, "public_key": ""},
        {"posting": "not json at all", "public_key": "abc"},
        ("Cannot check", "not a posting", 'value="abc"'),
    )


def _my_answer(client: TestClient[Litestar], tokens: Tokens, store: str) -> Case:
    event = make_event(store)
    sent = client.post(
        f"/events/{event}/me/report",
        data={"table": "1", "result": "2-1-0"},
        headers={**auth(tokens["ann"]), **SAME_SITE},
        follow_redirects=False,
    )
    assert sent.status_code == 303, sent.text
    return Case(
        tokens["ben"],
        f"/events/{event}/me/reports/1/dispute",
        {"reason": "I won"},
        {"reason": LONG},
        ("at most 200 are taken",),
    )


def _queue_step(client: TestClient[Litestar], tokens: Tokens, store: str) -> Case:
    event = make_event(store)
    with open_service(store) as svc:
        svc.event_call(event, 1, reason="a ruling", by="Ann")
    tom = table_token(store, event, "1", name="Tom")
    return Case(
        tom,
        f"/queue/calls/{event}/1/claim",
        {"back": "/queue"},
        {"back": "/queue", "reason": LONG},
        ("at most 200 are taken",),
    )


def _my_decklist(client: TestClient[Litestar], tokens: Tokens, store: str) -> Case:
    event = deck_event(client, tokens["head"], deck_deadline=1, store=store)
    deck = (ROOT / "fixtures/gammasphere/decks/ann.txt").read_text()
    return Case(
        tokens["ben"],  # Ben has no list yet (EV-2.8)
        f"/events/{event}/me/decklist",
        {"decklist": deck},
        {"decklist": "7 Pylon\n"},
        ("EV-2.8", ">7 Pylon\n</textarea>"),
    )


FORMS: dict[str, Setup] = {
    "/events/{event_id:str}/clock/do": _on_event(
        "head",
        "/events/{event}/clock/do",
        {"action": "start"},
        {"action": "resume"},  # not paused: EV-9.2
        ("EV-9.2",),
    ),
    "/events/{event_id:str}/slips/do": _on_event(
        "head",
        "/events/{event}/slips/do",
        {"table": "1", "result": "2-0-0"},
        {"table": "1", "result": "2-two"},
        ("EV-3.1", 'value="2-two"'),
    ),
    "/events/{event_id:str}/desk/do": _on_event(
        "head",
        "/events/{event}/desk/do",
        {"action": "drop", "player": "Ben", "reason": "left"},
        {"action": "drop", "player": "Nobody", "reason": "left"},
        ("EV-2.1", 'value="Nobody"'),
    ),
    "/games/new": _new_game,
    "/login": _login,
    "/logout": _logout,
    "/games/{game_id:str}/do/{action:str}": _on_event(
        "head",
        "/games/{game}/do/end",
        {"how": "agreement", "reason": "agreed a draw"},
        {"how": "a coin", "reason": "tossed"},
        ("resignation or agreement", "tossed"),
    ),
    "/events/{event_id:str}/verify": _verify,
    "/events/{event_id:str}/me/call": _on_event(
        "ann",
        "/events/{event}/me/call",
        {"table": "1", "reason": "a ruling"},
        {"table": "1", "reason": LONG},
        ("at most 200 are taken", f'value="{LONG}"'),
    ),
    "/events/{event_id:str}/me/report": _on_event(
        "ann",
        "/events/{event}/me/report",
        {"table": "1", "result": "2-1-0"},
        {"table": "1", "result": "two-one"},
        ("EV-3.1", 'value="two-one"'),
    ),
    "/events/{event_id:str}/me/reports/{report:int}/{answer:str}": _my_answer,
    "/events/{event_id:str}/me/decklist": _my_decklist,
    "/games/{game_id:str}/call": _on_event(
        "ann",
        "/games/{game}/call",
        {"reason": "a ruling"},
        {"reason": LONG},
        ("at most 200 are taken", f'value="{LONG}"'),
    ),
    "/queue/calls/{event_id:str}/{call:int}/{step:str}": _queue_step,
}
"""Each HTML form's route and how to send it, carried out and refused."""

NOT_REFUSED = {"/logout": "signing out is never refused: it forgets the cookie and leads on"}
"""The forms without a refusal, and why."""

STORES_NOTHING = {
    "/login": "a sign-in sets a cookie and stores no event (its token is never in an address)",
    "/logout": "a sign-out forgets the cookie",
    "/events/{event_id:str}/verify": "a posting's check reads the event and stores nothing",
}
"""The forms that store no event, and why: nothing to carry out once per key."""


def html_form_routes(app: Litestar) -> set[str]:
    """The app's ``POST`` routes a browser's form posts to: those left out of the OpenAPI
    document (the API's routes are in it), the test's own routes aside."""
    return {
        route.path
        for route in app.routes
        if isinstance(route, HTTPRoute) and not route.path.startswith("/test/")
        for handler in route.route_handlers
        if "POST" in handler.http_methods and not handler.include_in_schema
    }


def test_every_html_form_route_is_in_the_table(client: TestClient[Litestar]) -> None:
    """A new page form must be added to ``FORMS`` (and so be safe to reload)."""
    assert html_form_routes(client.app) == set(FORMS)
    assert set(NOT_REFUSED) <= set(FORMS)
    assert set(STORES_NOTHING) <= set(FORMS)


def _stored(store: str) -> int:
    """Events in the store, every stream counted."""
    with open_service(store) as svc:
        return sum(len(list(svc.store.rows(stream))) for stream in svc.store.game_ids())


def _post(client: TestClient[Litestar], case: Case, form: dict[str, str], key: str) -> Any:
    headers = {**(auth(case.token) if case.token else {}), **SAME_SITE}
    body = {**form, "idem": key} if key else form
    return client.post(case.path, data=body, headers=headers, follow_redirects=False)


def _read(client: TestClient[Litestar], case: Case, location: str) -> str:
    headers = auth(case.token) if case.token and case.path != "/logout" else {}
    page = client.get(location.partition("#")[0], headers=headers, follow_redirects=True)
    assert page.status_code == 200, (location, page.text)
    return page.text


@pytest.mark.parametrize("route", sorted(FORMS))
def test_a_form_carried_out_or_refused_answers_303_and_stores_once_per_key(
    client: TestClient[Litestar], tokens: Tokens, store: str, route: str
) -> None:
    """Post/redirect/get for every form: 303 with a Location when carried out, and when
    refused, to a page showing the refusal and what was typed; the same key twice stores
    one event."""
    case = FORMS[route](client, tokens, store)
    if case.refused is not None:
        before = _stored(store)
        refused = _post(client, case, case.refused, "refusal-key-1")
        assert refused.status_code == 303, (route, refused.status_code, refused.text)
        location = refused.headers["location"]
        shown = _read(client, case, location)
        for text in case.shown:
            assert text in shown, (route, text, shown)
        reloaded = _read(client, case, location)  # a reload of it is a read: shown again
        assert all(text in reloaded for text in case.shown), route
        assert _stored(store) == before, route  # nothing stored
    else:
        assert route in NOT_REFUSED
    before = _stored(store)
    first = _post(client, case, case.done, "done-key-1")
    assert first.status_code == 303, (route, first.status_code, first.text)
    assert first.headers["location"], route
    after = _stored(store)
    again = _post(client, case, case.done, "done-key-1")  # a reload of the post, a double click
    assert again.status_code == 303, (route, again.text)
    if route in STORES_NOTHING:
        assert _stored(store) == after == before, route
        return
    assert after > before, route
    assert _stored(store) == after, route  # once per key
    assert again.headers["location"] == first.headers["location"], route
    _read(client, case, first.headers["location"])


def test_a_refused_players_report_reloaded_is_a_read_and_the_corrected_form_is_carried_out(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-3.1, the walk's case: Ann's refused report answered the post with a page, so a
    reload sent it again. Now the post is answered 303 to the report's address, whose page
    says why with what she typed; reloading it records nothing and resends nothing, and the
    page's own key is still free for the corrected report."""
    event = make_event(store)
    ann = tokens["ann"]
    page = client.get(f"/events/{event}/players/Ann", headers=auth(ann)).text
    form = re.search(r'<form [^>]*id="report-form".*?</form>', page, re.S)
    assert form, page
    [key] = re.findall(r'name="idem" value="([^"]+)"', form.group(0))
    path = f"/events/{event}/me/report"
    case = Case(ann, path, {}, None, ())
    wrong = _post(client, case, {"table": "1", "result": "two-one"}, key)
    assert wrong.status_code == 303
    assert wrong.headers["location"].startswith(f"{path}?said=")
    before = _stored(store)
    for _ in range(2):
        shown = _read(client, case, wrong.headers["location"])
        assert "EV-3.1" in shown
        assert 'value="two-one"' in shown
    assert _stored(store) == before
    # the form's address read without a refusal to show (a bookmark, an old one): its page
    plain = client.get(path, headers=auth(ann), follow_redirects=False)
    assert (plain.status_code, plain.headers["location"]) == (303, f"/events/{event}/me")
    done = _post(client, case, {"table": "1", "result": "2-1-0"}, key)
    assert done.headers["location"].startswith(f"/events/{quote(event)}/me?said=")
    assert _stored(store) == before + 1


def test_a_players_forms_for_table_1_touch_only_their_own_event(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """Two events in one store, each with Ann and Ben at table 1 of round 1: Ann's call and
    report for table 1 sent from event A's page are stored in A (EV-10.2, EV-11.1) and
    event B has no call, no report and the same state as before."""
    first, second = make_event(store), make_event(store)
    with open_service(store) as svc:
        untouched = svc.event_state(second)
    ann = {**auth(tokens["ann"]), **SAME_SITE}
    for path, data in (
        ("me/call", {"table": "1", "reason": "a ruling"}),
        ("me/report", {"table": "1", "result": "2-1-0"}),
    ):
        sent = client.post(
            f"/events/{first}/{path}", data=data, headers=ann, follow_redirects=False
        )
        assert sent.status_code == 303, sent.text
        carried_out = f"/events/{first}/me?said="  # her page, showing what it did
        assert sent.headers["location"].startswith(carried_out), sent.headers["location"]
    with open_service(store) as svc:
        assert len(svc.event_calls(first)) == 1
        assert len(svc.event_reports(first)) == 1
        assert svc.event_calls(second) == []
        assert svc.event_reports(second) == []
        assert svc.event_state(second) == untouched


def test_a_players_form_carried_out_shows_what_it_did_on_their_page(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """As the table page, the desk, the slips and the clock show what their forms did: Ann's
    judge call (EV-10.2) from her page lands on her page (through ``/me``) with what it did,
    beside her header; her page read plainly (a reload after the flash, the fast path's
    shared copy) shows nothing of it, nor does Ben reading her page with her key."""
    event = make_event(store)
    ann = tokens["ann"]
    case = Case(ann, f"/events/{event}/me/call", {}, None, ())
    sent = _post(client, case, {"table": "1", "reason": "a ruling"}, "call-key-1")
    assert sent.status_code == 303, sent.text
    location = sent.headers["location"]
    assert location.startswith(f"/events/{quote(event)}/me?said="), location
    page = client.get(location.partition("#")[0], headers=auth(ann), follow_redirects=True)
    assert page.status_code == 200, page.text
    assert page.url.path == f"/events/{event}/players/Ann", page.url
    shown = re.search(r'id="said"[^>]*data-status="200">([^<]*)<', page.text)
    assert shown, page.text
    assert shown.group(1) == "a judge is called"
    plain = client.get(f"/events/{event}/players/Ann", headers=auth(ann))
    assert 'id="said"' not in plain.text
    assert plain.headers["etag"] != page.headers["etag"]
    key = location.partition("said=")[2].partition("#")[0]
    other = client.get(f"/events/{event}/players/Ann?said={key}", headers=auth(tokens["ben"]))
    assert 'id="said"' not in other.text  # a form's outcome is its sender's alone
