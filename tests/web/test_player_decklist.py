"""A player hands in their own decklist (EV-2.8), as players do at real events: found by a
walk of the hall on phones, where only the head referee could attach one and a player's
page said to hand it to them. From their own page (a form) or the API
(``POST /api/events/ID/decklist``), with their own token, for their own list only, checked
as the head's list is (``event_attach_deck``), until the deadline round is paired; the
audit says the player did it, and the desk's missing lists lose them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from service.app import open_service
from tests.web import test_pages
from tests.web.conftest import ROOT, ThreadServer, Tokens, auth, deck_event
from tests.web.test_pages import CHROMIUM, signed_in

Client = TestClient[Litestar]
SAME_SITE = {"Sec-Fetch-Site": "same-origin"}
LIST = (ROOT / "fixtures/gammasphere/decks/ann.txt").read_text()
"""A legal Gammasphere list (Ann registers with it; Ben has none)."""


def _version(store: str, event: str) -> int:
    with open_service(store) as svc:
        return int(svc.event_info(event).version)


def _hand_in(client: Client, token: str, event: str, decklist: str) -> Any:
    return client.post(
        f"/api/events/{event}/decklist", json={"decklist": decklist}, headers=auth(token)
    )


def test_a_player_hands_in_their_own_list_over_the_api_until_the_deadline(
    client: Client, tokens: Tokens, store: str
) -> None:
    """Ben, without a list, hands his in (201: his name, its size, the round that locks it);
    the desk's read of missing lists no longer names him, and the audit records the list
    as attached by Ben himself. The same list again, a list of the wrong size and one that
    cannot be read are refused with their clause (400, nothing stored); staff tokens use
    the head's route (403 here); once round 1 is paired the list is locked: one line,
    EV-2.8."""
    event = deck_event(client, tokens["head"], deck_deadline=1, store=store)
    desk = f"/events/{event}/desk"
    missing = re.compile(r'id="desk-missing-decks">([^<]*)<')
    found = missing.search(client.get(desk, headers=auth(tokens["head"])).text)
    assert found
    assert found.group(1) == "No event decklist (EV-2.8): Ben"
    answer = _hand_in(client, tokens["ben"], event, LIST)
    assert answer.status_code == 201, answer.text
    assert answer.json() == {"player": "Ben", "cards": 40, "lock_round": 1}
    assert not missing.search(client.get(desk, headers=auth(tokens["head"])).text)
    with open_service(store) as svc:
        ben = svc.event_state(event).find("Ben")
        (entry,) = [e for e in svc.event_audit(event)["entries"] if e.get("player") == ben]
        assert (entry["what"], entry["by"]) == ("decklist attached", ben)
        (named,) = [
            e for e in svc.event_audit_named(event)["entries"] if e["what"] == "decklist attached"
        ]
        assert (named["player"], named["by"]) == ("Ben", "Ben")
    before = _version(store, event)
    for body, clause in (
        (LIST, "EV-2.8: Ben already has this decklist"),
        ("7 Pylon\n", "EV-2.8"),
        ("{not json", "EV-2.8: the decklist: not a JSON object"),
        ("  \n", "EV-2.8: the decklist: the list names no cards"),
    ):
        refused = _hand_in(client, tokens["ben"], event, body)
        assert refused.status_code == 400, refused.text
        assert clause in refused.json()["detail"], (body, refused.text)
    for staff in ("head", "scorekeeper", "public"):
        assert _hand_in(client, tokens[staff], event, LIST).status_code == 403, staff
    assert _version(store, event) == before
    assert client.post(f"/api/events/{event}/rounds", json={}, headers=auth(tokens["head"]))
    late = _hand_in(client, tokens["ann"], event, LIST.replace("\n", "\n\n"))
    assert late.status_code == 400
    detail = late.json()["detail"]
    assert detail.startswith("EV-2.8: round 1 has been paired: Ann's decklist is locked"), detail
    assert "\n" not in detail
    paths = client.get("/schema/openapi.json").json()["paths"]
    assert "post" in paths["/api/events/{event_id}/decklist"]


def test_a_players_list_is_their_own(client: Client, tokens: Tokens, store: str) -> None:
    """The route names no player: Ann's token replaces Ann's list, never Ben's, who still
    has none; the answer and the players' pages tell nobody else's list (EV-10.7)."""
    event = deck_event(client, tokens["head"], deck_deadline=1, store=store)
    other = "\n".join(LIST.splitlines()[::-1])  # the same cards in another order: the same list
    mine = _hand_in(client, tokens["ann"], event, other)
    assert mine.status_code == 400
    assert "EV-2.8: Ann already has this decklist" in mine.json()["detail"]
    with open_service(store) as svc:
        assert svc.event_missing_decks(event, unlocked=True) == ["Ben"]
    ben = client.get(f"/api/events/{event}/players/Ben", headers=auth(tokens["ann"])).json()
    assert ben.get("decklist") is None


def _form_key(page: str) -> str:
    form = re.search(r'<form [^>]*id="decklist-form".*?</form>', page, re.S)
    assert form, page
    [key] = re.findall(r'name="idem" value="([^"]+)"', form.group(0))
    return str(key)


def test_the_players_page_form_hands_in_the_list_once_and_goes_with_the_deadline(
    client: Client, tokens: Tokens, store: str
) -> None:
    """Ben's own page has the form (nobody else's view of it does); sent, it lands on his
    page saying what it did, and sent again from the same page (a reload, a double click)
    records nothing more. A refusal's page says why and draws the list again as typed,
    lines kept. Once round 1 is paired his page has no form."""
    event = deck_event(client, tokens["head"], deck_deadline=1, store=store)
    page = f"/events/{event}/players/Ben"
    mine = client.get(page, headers=auth(tokens["ben"])).text
    assert "paste it below, or hand it to the head referee" in mine
    key = _form_key(mine)
    for reader in ("ann", "head", "public"):
        assert 'id="decklist-form"' not in client.get(page, headers=auth(tokens[reader])).text
    headers = {**auth(tokens["ben"]), **SAME_SITE}
    path = f"/events/{event}/me/decklist"
    wrong = client.post(path, data={"decklist": "7 Pylon\n3 Drone\n", "idem": key}, headers=headers)
    assert wrong.status_code == 200
    assert wrong.url.path == path, wrong.url
    assert "EV-2.8: the event decklist is refused: GS-3" in wrong.text
    assert ">7 Pylon\n3 Drone\n</textarea>" in wrong.text
    before = _version(store, event)
    for _ in range(2):
        sent = client.post(
            path, data={"decklist": LIST, "idem": key}, headers=headers, follow_redirects=False
        )
        assert sent.status_code == 303, sent.text
        assert sent.headers["location"].startswith(f"/events/{quote(event)}/me?said=")
    assert _version(store, event) == before + 1
    shown = client.get(sent.headers["location"].partition("#")[0], headers=headers).text
    assert "your decklist is received (40 cards); it can be replaced until round 1" in shown
    assert "Decklist received (it can still be replaced until round 1 is paired)" in shown
    assert "Replace my decklist" in shown
    assert client.post(f"/api/events/{event}/rounds", json={}, headers=auth(tokens["head"]))
    locked = client.get(page, headers=auth(tokens["ben"])).text
    assert 'id="my-decklist"' in locked
    assert 'id="decklist-form"' not in locked


browser = test_pages.browser


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no browser: {CHROMIUM}")
def test_a_player_pastes_their_list_on_a_phone(
    browser: Any, store: str, tokens: Tokens, request: pytest.FixtureRequest
) -> None:
    """Ben on his phone (375 x 740): the list's box spans the screen, he pastes his list,
    sends it, and his page says it is received (a plain form: no script needed)."""
    server: ThreadServer = request.getfixturevalue("live_server")
    with httpx.Client(base_url=server.base) as http:
        event = deck_event(http, tokens["head"], deck_deadline=1, store=store)
    phone = signed_in(browser, server.base, tokens["ben"], viewport={"width": 375, "height": 740})
    phone.goto(f"{server.base}/events/{event}/me")
    box = phone.locator("#decklist-text").bounding_box()
    assert box is not None
    assert box["width"] >= 250, box
    assert box["x"] + box["width"] <= 375, box
    phone.fill("#decklist-text", LIST)
    phone.click("#send-decklist")
    said = phone.locator("#said")
    said.wait_for(timeout=5000)
    assert said.inner_text().startswith("your decklist is received (40 cards)")
    assert "Decklist received" in phone.locator("#my-decklist").inner_text()
    assert not phone.errors
    phone.context.close()
