"""The hall in a real headless Chromium, JavaScript on and off: a judge call from a player's
page reaches the queue (pushed to the open page, with JavaScript) and is claimed and resolved
there; two players report and confirm their result from their pages and the standings
change; a disagreement reaches the queue (EV-10, EV-11)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from service.app import open_service
from tests.web.conftest import LIVE_WAIT, ThreadServer, Tokens, house_ids, table_token
from tests.web.test_event_pages import browser
from tests.web.test_pages import CHROMIUM, signed_in

__all__ = ["browser"]  # the module's browser fixture, shared

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() or shutil.which("chromium") is None,
    reason=f"no browser: {CHROMIUM} is not installed",
)

JS = [pytest.param(True, id="js"), pytest.param(False, id="no-js")]


def make_event(store: str) -> str:
    """Ann v Ben at table 1 of round 1 (the fixture's player tokens are named Ann and Ben)."""
    with open_service(store) as svc:
        # seed 5 draws two or four players in registration order (EV-5.6)
        event = svc.event_new("Hall Open", "prizmik", rounds=3, seed=5).event_id
        svc.event_register(event, ["Ann", "Ben"], player_ids=house_ids(store, ["Ann", "Ben"]))
        svc.event_pair(event)
    return event


class _Hall:
    """Ann v Ben at table 1 of round 1 of a new event (``make_event``), served live: pages
    signed in with a token, JavaScript on or off, and the paths of the event's pages."""

    def __init__(self, browser: Any, server: ThreadServer, store: str) -> None:
        self.browser, self.base, self.store = browser, server.base, store
        self.event = make_event(store)
        self.mine = f"{self.base}/events/{self.event}/me"  # a player's own page

    def page(self, token: str, js: bool, url: str) -> Any:
        """A new page signed in with ``token``, opened at ``url``."""
        page = signed_in(self.browser, self.base, token, java_script_enabled=js)
        page.goto(url)
        return page

    def send(self, page: Any, field: str, text: str, button: str, player: str = "") -> None:
        """``text`` typed into ``field`` of a player's own page and ``button`` pressed; with
        ``player``, until the answer lands on that player's page."""
        page.fill(field, text)
        page.click(button)
        if player:
            page.wait_for_url(self.landed(player))

    def landed(self, player: str, event: str = "") -> re.Pattern[str]:
        """A player's page after their form was carried out, showing what it did (``?said=``)."""
        at = re.escape(f"{self.base}/events/{event or self.event}/players/{player}")
        return re.compile(rf"{at}\?said=[^#]+#said")


@pytest.fixture
def hall(browser: Any, pushed_server: ThreadServer, store: str) -> _Hall:
    """Served by ``pushed_server``: its hub reads the log only when a write tells it to, so
    a change reaches an open page only by that write's push."""
    return _Hall(browser, pushed_server, store)


def follow(page: Any) -> None:
    """The open page follows its stream (the dot lit), marked so that ``see`` can tell it
    was never loaded again."""
    page.wait_for_selector("#live.on")
    page.evaluate("window.stillHere = true")


def see(page: Any, url: str, selector: str, js: bool) -> Any:
    """The element ``selector`` on the open page: with JavaScript, pushed to the page that
    ``follow``s its stream, the same document, however long a loaded machine takes (only
    the push can bring it: ``pushed_server``; no time is asserted); without it, the page
    read again (what a reload shows)."""
    if js:
        page.wait_for_selector(selector, timeout=LIVE_WAIT * 1000)
        assert page.evaluate("window.stillHere === true")  # pushed, not loaded again
    else:
        page.goto(url)
    return page.locator(selector)


@pytest.mark.parametrize("js", JS)
def test_a_judge_call_from_a_players_page_reaches_the_queue_and_is_claimed_and_resolved(
    hall: _Hall, tokens: Tokens, js: bool
) -> None:
    base, event = hall.base, hall.event
    tom = table_token(hall.store, event, "1", name="Tom")  # Tom referees table 1 of this event
    judge = hall.page(tom, js, f"{base}/queue")
    assert judge.locator(".card-item.call").count() == 0
    if js:
        follow(judge)  # the queue follows its stream

    ann = hall.page(tokens["ann"], js, hall.mine)
    hall.send(ann, "#call-reason", "opponent drew two cards", "#call-judge", "Ann")
    assert "waiting for a judge" in ann.inner_text("#my-call")

    card = see(judge, f"{base}/queue", ".card-item.call", js)
    assert "opponent drew two cards" in card.inner_text()
    assert "unclaimed" in card.inner_text()
    assert "table 1" in card.inner_text()
    judge.click(".card-item.call button.claim")
    judge.wait_for_url(f"{base}/queue")
    assert "held by Tom" in judge.inner_text(".card-item.call")
    ann.goto(hall.mine)
    assert "Tom has it" in ann.inner_text("#my-call")

    judge.fill(".card-item.call input[name=note]", "explained PZ-3.1; play on")
    judge.click(".card-item.call button.resolve")
    judge.wait_for_url(f"{base}/queue")
    assert judge.locator(".card-item.call").count() == 0
    ann.goto(hall.mine)
    assert ann.locator("#my-call").count() == 0
    assert ann.locator("#call-judge").count() == 1
    with open_service(hall.store) as svc:
        (done,) = svc.event_calls(event, resolved=True)
    assert (done.status, done.holder, done.note) == ("resolved", "Tom", "explained PZ-3.1; play on")
    assert judge.errors == []
    assert ann.errors == []


@pytest.mark.parametrize("js", JS)
def test_two_players_report_and_confirm_from_their_pages_and_the_standings_change(
    hall: _Hall, tokens: Tokens, js: bool
) -> None:
    ben = hall.page(tokens["ben"], js, hall.mine)
    if js:
        follow(ben)
    ann = hall.page(tokens["ann"], js, hall.mine)
    hall.send(ann, "#report-result-text", "2-1", "#report-result", "Ann")
    assert "waiting for the opponent" in ann.inner_text("#hall")

    confirm = see(ben, hall.mine, "#confirm-1", js)
    assert "Ann reported 2-1-0" in ben.inner_text("#report-1")
    confirm.click()
    ben.wait_for_url(hall.landed("Ben"))
    assert "lost 1-2-0" in ben.inner_text("#my-round")
    ben.goto(f"{hall.base}/events/{hall.event}/standings")
    first = ben.locator("#standings tbody tr").first.inner_text()
    assert "Ann" in first
    assert "3" in first
    with open_service(hall.store) as svc:
        top = svc.event_standings(hall.event)[0]
    assert (top.player, top.points) == ("Ann", 3)
    assert ann.errors == []
    assert ben.errors == []


@pytest.mark.parametrize("js", JS)
def test_a_disagreement_reaches_the_queue(hall: _Hall, tokens: Tokens, js: bool) -> None:
    head = hall.page(tokens["head"], js, f"{hall.base}/queue")
    if js:
        follow(head)
    ann = hall.page(tokens["ann"], js, hall.mine)
    hall.send(ann, "#report-result-text", "2-0", "#report-result", "Ann")
    ben = hall.page(tokens["ben"], js, hall.mine)
    hall.send(ben, "#dispute-reason-1", "I won the second game", "#dispute-1", "Ben")
    assert "the scorekeeper settles it" in ben.inner_text("#report-1")

    card = see(head, f"{hall.base}/queue", ".card-item.disagreement", js)
    text = card.inner_text()
    assert "Ann reported 2-0-0, Ben disagrees: I won the second game" in text
    assert "table 1" in text
    assert head.errors == []
    assert ann.errors == []
    assert ben.errors == []


def test_a_refused_form_says_why_and_stores_nothing(hall: _Hall, tokens: Tokens) -> None:
    ann = hall.page(tokens["ann"], False, hall.mine)
    hall.send(ann, "#report-result-text", "3-0", "#report-result")  # refused: no redirect
    assert "EV-3.2" in ann.inner_text("#said")
    with open_service(hall.store) as svc:
        assert svc.event_reports(hall.event, every=True) == []
