"""Live pages keep what is being typed (the hall: forms safe to reload). A player's page and
the queue redraw their live region whenever the event or the queue moves, which at a round's
end is many times a second; a player half way through a call's reason, or a judge half way
through a resolution note, keeps the text, the focus and the caret through every redraw, and
what they then send is what they typed. In a real headless Chromium."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from service.app import open_service
from tests.web.conftest import ThreadServer, Tokens
from tests.web.test_calls_pages import _Hall, make_event
from tests.web.test_event_pages import browser
from tests.web.test_pages import CHROMIUM

__all__ = ["browser"]  # the module's browser fixture, shared

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() or shutil.which("chromium") is None,
    reason=f"no browser: {CHROMIUM} is not installed",
)

FOCUSED = "document.activeElement && document.activeElement.id"
CARET = "[document.activeElement.selectionStart, document.activeElement.selectionEnd]"


@pytest.fixture
def hall(browser: Any, live_server: ThreadServer, store: str) -> _Hall:
    return _Hall(browser, live_server, store)


def test_a_players_half_typed_call_survives_the_opponents_report(
    hall: _Hall, tokens: Tokens
) -> None:
    ben = hall.page(tokens["ben"], True, hall.mine)
    ben.wait_for_selector("#live.on")
    ben.click("#call-reason")
    ben.keyboard.type("clock stoped")
    ben.keyboard.press("ArrowLeft")  # the caret inside the text, as when correcting a typo
    ben.keyboard.press("ArrowLeft")
    ann = hall.page(tokens["ann"], True, hall.mine)
    hall.send(ann, "#report-result-text", "2-1", "#report-result", "Ann")
    ben.wait_for_selector("#confirm-1", timeout=15_000)  # the region was drawn again
    assert ben.input_value("#call-reason") == "clock stoped"
    assert ben.evaluate(FOCUSED) == "call-reason"
    assert ben.evaluate(CARET) == [10, 10]
    ben.keyboard.type("p")
    ben.click("#call-judge")
    ben.wait_for_url(hall.landed("Ben"))
    with open_service(hall.store) as svc:
        (call,) = svc.event_calls(hall.event)
    assert call.reason == "clock stopped"
    assert ben.errors == []


def test_a_judges_half_typed_note_survives_a_new_call_on_the_queue(
    hall: _Hall, tokens: Tokens
) -> None:
    base = hall.base
    ann = hall.page(tokens["ann"], True, hall.mine)
    hall.send(ann, "#call-reason", "deck check", "#call-judge", "Ann")
    head = hall.page(tokens["head"], True, f"{base}/queue")
    head.wait_for_selector("#live.on")
    note = head.locator(".card-item.call input[name=note]")
    assert note.count() == 1
    note.click()
    head.keyboard.type("deck legal, play on")

    other = make_event(hall.store)  # a second event: a call from its table 1 too
    with open_service(hall.store) as svc:
        svc.event_call(other, 1, player="Ben", reason="dice fell")
    head.wait_for_function(
        "document.querySelectorAll('.card-item.call').length === 2", timeout=15_000
    )
    first = head.locator(".card-item.call", has_text="deck check")
    assert first.locator("input[name=note]").input_value() == "deck legal, play on"
    assert (
        head.locator(".card-item.call", has_text="dice fell")
        .locator("input[name=note]")
        .input_value()
        == ""
    )
    assert head.evaluate("document.activeElement && document.activeElement.name") == "note"
    assert head.errors == []


def test_a_players_page_in_a_second_event_posts_to_that_event(hall: _Hall, tokens: Tokens) -> None:
    """Ann plays two events with the same line (round 1, table 1, Ben): her page in each
    sends its judge call and result report to that event (one event is not another)."""
    ann = hall.page(tokens["ann"], True, hall.mine)
    hall.send(ann, "#call-reason", "deck check", "#call-judge", "Ann")
    other = make_event(hall.store)
    ann.goto(f"{hall.base}/events/{other}/me")
    actions = ann.locator("#hall form").evaluate_all("forms => forms.map(f => f.action)")
    assert actions
    assert all(f"/events/{other}/me/" in action for action in actions), actions
    hall.send(ann, "#call-reason", "dice fell", "#call-judge")
    ann.wait_for_url(hall.landed("Ann", other))
    with open_service(hall.store) as svc:
        assert [c.reason for c in svc.event_calls(other)] == ["dice fell"]
        assert [c.reason for c in svc.event_calls(hall.event)] == ["deck check"]


def test_signing_in_forgets_the_last_players_kept_pages(hall: _Hall, tokens: Tokens) -> None:
    """A player's pages kept for an outage (player-sw.js's cache) belong to whoever held the
    phone: the sign-in page forgets them, so the next holder offline never sees the first
    one's page."""
    ann = hall.page(tokens["ann"], True, hall.mine)
    ann.wait_for_url(f"{hall.base}/events/{hall.event}/players/Ann")
    ann.evaluate(
        """async () => {
            const cache = await caches.open("referee-player-v1");
            await cache.put(location.href, new Response("Ann's page"));
        }"""
    )
    assert ann.evaluate("caches.has('referee-player-v1')")
    ann.click("text=sign out")
    ann.wait_for_url(f"{hall.base}/login")
    forgotten = "async () => !(await caches.has('referee-player-v1'))"
    for _ in range(300):  # the page forgets as it loads: asked until it has (at most 15 s)
        if ann.evaluate(forgotten):
            break
        ann.wait_for_timeout(50)
    assert ann.evaluate(forgotten) is True
    assert ann.errors == []


def test_a_page_showing_what_a_form_did_is_not_kept_for_an_outage(
    hall: _Hall, tokens: Tokens
) -> None:
    """player-sw.js keeps the last copy of a player's page; the page a form lands on
    (``?said=KEY``, what that form did) is of its moment, so it is not kept: one copy per
    form sent would fill the phone's cache, and offline would replay an old confirmation."""
    ann = hall.page(tokens["ann"], True, hall.mine)
    ann.wait_for_url(f"{hall.base}/events/{hall.event}/players/Ann")
    ann.wait_for_function("navigator.serviceWorker.ready.then(() => true)", timeout=15_000)
    ann.reload()  # now under the worker: the plain page is kept
    ann.wait_for_function("!!navigator.serviceWorker.controller", timeout=15_000)
    hall.send(ann, "#call-reason", "deck check", "#call-judge", "Ann")
    kept = ann.evaluate(
        """async () => {
            const cache = await caches.open("referee-player-v1");
            return (await cache.keys()).map((request) => request.url);
        }"""
    )
    assert f"{hall.base}/events/{hall.event}/players/Ann" in kept
    assert not [url for url in kept if "said=" in url], kept
    assert ann.errors == []


def test_the_halls_clock_shows_time_given_elsewhere_and_the_next_round(
    hall: _Hall, tokens: Tokens
) -> None:
    """EV-9.4: the hall's clock on the big screen draws its tables with extra time once; a
    table given time by another referee, and the next round paired from the command line,
    are shown without anyone reloading the screen."""
    screen = hall.page(tokens["head"], True, f"{hall.base}/events/{hall.event}/clock")
    assert screen.locator("#hall-tables li").count() == 0
    with open_service(hall.store) as svc:
        svc.event_clock(hall.event, "start")
        svc.event_extend(hall.event, 1, 3, reason="deck check")
    screen.wait_for_selector('#hall-tables li[data-table="1"]', timeout=30_000)
    assert "+3 min" in screen.inner_text("#hall-tables")
    with open_service(hall.store) as svc:
        svc.event_result(hall.event, ["1=2-0-0"])
        svc.event_pair(hall.event)
    screen.wait_for_selector('#hall-clock[data-round="2"]', timeout=30_000)
    assert "round 2" in screen.inner_text(".hall-name")
    assert screen.errors == []
