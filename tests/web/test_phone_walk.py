"""What a Swiss event walked on phones, as its players and its head referee, met
(docs/hall.md): the head's clock page offered every mark in every state, so "end the
round", which is for good (EV-9.2), sat beside the "resume" meant, and the extension
form stayed once the round's clock had ended (EV-9.4 refuses it); two players' reports
of their own games first read alike in the queue ("Ben reported 2-1-0, Dee disagrees:
reports 2-1-0") while they disagree (EV-11.5)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from service.app import open_service
from tests.web import test_pages
from tests.web.conftest import ROOT, ThreadServer, Tokens, auth, deck_event, table_token
from tests.web.test_calls_api import created, make_event
from tests.web.test_pages import CHROMIUM, signed_in

MARKS = ("start", "pause", "resume", "end")


def _marks(page: str) -> list[str]:
    """The clock marks the page offers, in its order."""
    return re.findall(r'<button type="submit" data-action="(\w+)" id="clock-\1"', page)


def test_the_heads_clock_page_offers_only_the_marks_the_clock_takes(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-9.2: waiting, the head's phone shows *start* alone; running, *pause* and *end
    the round*; paused, *resume* and *end the round*; ended, no mark and no extension form
    (EV-9.4: an ended clock takes no more time), while the table still has no result. The
    API's clock says the same marks; an earlier round's clock takes none."""
    event = make_event(store)
    head, page = auth(tokens["head"]), f"/events/{event}/clock"
    tom = table_token(store, event, "1", name="Tom")
    seen: dict[str, list[str]] = {}
    for mark in ("", "start", "pause", "end"):
        if mark:
            with open_service(store) as svc:
                svc.event_clock(event, mark)
        html = client.get(page, headers=head).text
        state = re.search(r'data-state="(\w+)"', html)
        assert state, html
        seen[state.group(1)] = _marks(html)
        api = client.get(f"/api/events/{event}/clock", headers=head).json()
        assert api["marks"] == seen[state.group(1)]
        extendable = 'id="extend-form"' in client.get(page, headers=auth(tom)).text
        assert extendable == (state.group(1) != "ended"), state.group(1)
    assert seen == {
        "waiting": ["start"],
        "running": ["pause", "end"],
        "paused": ["resume", "end"],
        "ended": [],
    }
    html = client.get(page, headers=head).text
    assert 'id="extend-form"' not in html  # the head's too
    assert 'id="clock-controls"' in html  # what a form did is still said there
    with open_service(store) as svc:
        assert svc.event_clock_view(event, 1).marks == []  # ended
        svc.event_result(event, ["1=2-0-0"])
        svc.event_pair(event)
        assert svc.event_clock_view(event).marks == ["start"]  # round 2's
        assert svc.event_clock_view(event, 1).marks == []  # an earlier round's


def test_an_extension_of_one_minute_says_one_minute(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """The clock page's outcome after one extra minute read "1 more minutes"."""
    event = make_event(store)
    head = tokens["head"]
    page = client.get(f"/events/{event}/clock", headers=auth(head)).text
    found = re.search(r'id="extend-form".*?name="idem" value="([^"]+)"', page, re.S)
    assert found, page
    sent = client.post(
        f"/events/{event}/clock/do",
        data={
            "idem": found.group(1),
            "action": "extend",
            "table": "1",
            "minutes": "1",
            "reason": "ruling",
        },
        headers={**auth(head), "Sec-Fetch-Site": "same-origin"},
        follow_redirects=False,
    )
    said = client.get(sent.headers["location"].split("#")[0], headers=auth(head)).text
    assert "table 1: 1 more minute (ruling)" in said, said


def test_a_disagreement_of_two_reports_gives_both_as_the_slip_in_the_queue(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-11.5: Ann reports 2-1-0 and Ben, who says he won, reports 2-1-0 too, each their
    own games first. The queue said "Ann reported 2-1-0, Ben disagrees: reports 2-1-0
    (report 2)": two equal figures for a disagreement. It now gives both as the slip the
    staff enter on the slips page (Ann's table order); a dispute in words reads as before."""
    event = make_event(store)
    base = f"/api/events/{event}/reports"
    created(client, tokens["ann"], base, {"result": "2-1"})
    created(client, tokens["ben"], base, {"result": "2-1"})
    (item,) = client.get("/api/queue", headers=auth(tokens["head"])).json()["disagreements"]
    assert item["line"] == (
        "Hall Open round 1: Ann reported 2-1-0, Ben disagrees: reported 2-1-0 (each their "
        "own games first: the slip reads 2-1-0 by Ann, 1-2-0 by Ben) (EV-11.5: enter the slip)"
    )
    page = client.get("/queue", headers=auth(tokens["head"])).text
    assert "the slip reads 2-1-0 by Ann, 1-2-0 by Ben" in page
    # Ben reports again (a slip he got wrong): his latest report is the one named
    created(client, tokens["ben"], base, {"result": "2-0"})
    (item,) = client.get("/api/queue", headers=auth(tokens["head"])).json()["disagreements"]
    assert "Ben disagrees: reported 2-0-0 (each" in item["line"], item["line"]
    assert "0-2-0 by Ben" in item["line"]


def test_a_dispute_in_words_then_a_report_keeps_the_words(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """Ben disputes Ann's report saying why, then files his own: the queue keeps his
    words and gives both slips."""
    event = make_event(store)
    base = f"/api/events/{event}/reports"
    created(client, tokens["ann"], base, {"result": "2-0"})
    created(client, tokens["ben"], f"{base}/1/dispute", {"reason": "game 3 was a draw"})
    (item,) = client.get("/api/queue", headers=auth(tokens["head"])).json()["disagreements"]
    assert "Ben disagrees: game 3 was a draw (EV-11.5" in item["line"], item["line"]
    created(client, tokens["ben"], base, {"result": "0-1-1"})
    (item,) = client.get("/api/queue", headers=auth(tokens["head"])).json()["disagreements"]
    assert item["line"].endswith(
        "Ben disagrees: game 3 was a draw; reported 0-1-1 (each their own games first: the "
        "slip reads 2-0-0 by Ann, 1-0-1 by Ben) (EV-11.5: enter the slip)"
    ), item["line"]


def test_a_player_without_a_decklist_is_told_where_it_goes(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-2.8: Ben's page said "No decklist yet" and its deadline, and nothing of where a
    list goes. He hands it in himself, on the form below the note, or to the head referee
    (tests/web/test_player_decklist.py)."""
    event = deck_event(client, tokens["head"], deck_deadline=1, store=store)
    ben = client.get(f"/events/{event}/players/Ben", headers=auth(tokens["ben"])).text
    note = re.search(r'id="my-decklist">([^<]*)<', ben)
    assert note, ben
    assert note.group(1) == (
        "No decklist yet (deadline: before round 1 is paired, EV-2.8): paste it below, or "
        "hand it to the head referee."
    )
    assert 'id="decklist-form"' in ben


def test_the_queue_names_an_event_games_players_without_the_games_seats(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """In a Gammasphere event the queue read "game-loss for Ann (p2)" and "last: Ben (p1)
    registered an open list": the game's seats, while the event's own ids are p1 (Ann) and
    p2 (Ben), which the desk's forms take for a player. A game of an event names its
    players alone, as the event's pages do; a game outside events keeps "Ann (p2)"."""
    from referee.kit.decks import parse_decklist

    deck = parse_decklist((ROOT / "fixtures/gammasphere/decks/ann.txt").read_text(), "list")
    with open_service(store) as svc:
        event = svc.event_new("Cup", "gammasphere", rounds=1, seed=5).event_id
        svc.event_register(event, ["Ann"], deck=deck)
        svc.event_register(event, ["Ben"], deck=deck)
        svc.event_pair(event)
        (table,) = svc.event_pairings(event)
        svc.event_penalize(event, "Ann", "tardiness", reason="late")
    queue = client.get("/api/queue", headers=auth(tokens["head"])).json()
    (penalty,) = queue["penalties"]
    assert penalty["line"].startswith("game-loss for Ann: tardiness"), penalty["line"]
    lasts = [i["last"] for i in queue["needs"] + queue["info"] if i.get("last")]
    assert lasts, queue
    for line in [penalty["last"], *lasts]:
        assert not re.search(r"\((p1|p2)\)", line), line
    assert table.players == ["Ann", "Ben"]


def test_an_idle_event_table_without_a_result_is_one_item(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """Q-7, Q-1: ten minutes into a round of a slip-only event nothing is recorded in its
    games, and the head's phone listed each table twice under "For information": "no result
    yet" and "idle". It is one item, which says both (a game outside events is still listed
    idle: test_queue.py)."""
    from datetime import UTC, datetime, timedelta

    event = make_event(store)
    with open_service(store) as svc:
        later = datetime.now(UTC) + timedelta(minutes=15)
        view = svc.queue(now=later)
        game = svc.event_pairings(event)[0].games[0]
    assert [i.game_id for i in view.idle] == [game]  # the fold's own list keeps it
    (item,) = [i for i in view.info if i.table == "1"]
    assert item.kind == "unreported"
    assert item.line.endswith("has no result yet (Q-4) · nothing recorded for 10+ minutes (Q-1)"), (
        item.line
    )
    assert view.info == [item]


def test_the_queue_offers_no_claim_of_a_call_its_reader_holds(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-10.4: Tom claimed Dee's call on his phone and the card still had *claim*, which
    answered "Not done: Tom already holds call 1". The holder's card has escalate and
    resolve; the head may still take the call over."""
    event = make_event(store)
    tom = table_token(store, event, "1", name="Tom")
    with open_service(store) as svc:
        svc.event_call(event, 1, reason="a ruling", by="Ann")
    assert 'class="claim"' in client.get("/queue", headers=auth(tom)).text
    with open_service(store) as svc:
        svc.event_call_claim(event, 1, by="Tom", head=False)
    page = client.get("/queue", headers=auth(tom)).text
    assert "held by <b>Tom</b>" in page
    assert 'class="claim"' not in page
    assert 'class="resolve"' in page
    assert 'class="claim"' in client.get("/queue", headers=auth(tokens["head"])).text


def test_an_escalated_call_says_why_and_is_the_heads_alone_on_the_queue(
    client: TestClient[Litestar], tokens: Tokens, store: str
) -> None:
    """EV-10.4, EV-10.5: Tom escalates Ann's call "card text ruling needed". The head's
    queue said "escalated to the head referee" and not why (the fold dropped the reason
    the fact keeps); Tom's card still had *claim* and *resolve*, which only the head may
    now. The head reads who escalated it and why; Tom's card says it is with the head."""
    event = make_event(store)
    tom = table_token(store, event, "1", name="Tom")
    with open_service(store) as svc:
        svc.event_call(event, 1, reason="a ruling", by="Ann")
        svc.event_call_escalate(event, 1, by="Tom", reason="card text ruling needed")
    (item,) = client.get("/api/queue", headers=auth(tokens["head"])).json()["calls"]
    assert item["line"] == (
        "Hall Open round 1: judge call 1 by Ann: a ruling (escalated to the head referee by "
        "Tom (card text ruling needed))"
    )
    mine = client.get("/queue", headers=auth(tom)).text
    assert "with the head referee" in mine
    assert 'class="claim"' not in mine
    assert 'class="resolve"' not in mine
    head = client.get("/queue", headers=auth(tokens["head"])).text
    assert 'class="claim"' in head
    assert 'class="resolve"' in head
    assert "card text ruling needed" in head


def test_a_game_calls_escalation_keeps_its_reason(store: str) -> None:
    """REF-11.2: a call at a game outside events, escalated with a reason, says it too."""
    from service.access import Principal

    rita = Principal(token_id="r", role="table", name="Rita", tables=("5",))
    with open_service(store) as svc:
        game = svc.create_game("prizmik", {"red": "Ann", "blue": "Ben"}, meta={"table": "5"})
        row = svc.game_call(game.game_id, by="Ann", reason="a ruling")
        svc.call_step_as(rita, game.game_id, row.call, "escalate", "rules text")
        (item,) = svc.queue().calls
    assert item.line.endswith(
        "by Ann: a ruling (escalated to the head referee by Rita (rules text))"
    ), item.line


browser = test_pages.browser


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no browser: {CHROMIUM}")
def test_a_toolkit_forms_answer_shows_where_it_was_sent_on_a_phone(
    browser: Any, store: str, tokens: Tokens, request: pytest.FixtureRequest
) -> None:
    """The head at a table on a phone (375 x 740) gives extra time from the game page's
    toolkit, below the board: the answer went only to the entry box's line at the top, out
    of sight, and the form came back empty as if nothing had happened. It is also said
    under the form sent, where the head is looking."""
    server: ThreadServer = request.getfixturevalue("live_server")
    event = make_event(store)
    with open_service(store) as svc:
        svc.event_clock(event, "start")
        game = svc.event_pairings(event)[0].games[0]
    phone = signed_in(browser, server.base, tokens["head"], viewport={"width": 375, "height": 740})
    phone.goto(f"{server.base}/games/{game}")
    phone.click("#tool-extend summary")
    phone.fill("#extend-minutes", "5")
    phone.fill("#extend-reason", "judge call")
    phone.click("#extend-submit")
    said = phone.locator("#tool-extend .tool-said")
    said.wait_for(timeout=3000)
    assert said.inner_text() == "table 1: 5 more minutes (judge call); 5 in all this round"
    box = said.bounding_box()
    assert box is not None
    assert box["y"] >= 0, box  # in sight, without scrolling to it
    assert box["y"] + box["height"] <= 740, box
    assert not phone.errors
    phone.context.close()
