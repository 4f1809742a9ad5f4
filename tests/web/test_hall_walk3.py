"""The hall walked again in a real headless Chromium, in the shoes of the scorekeeper, the head
referee, a table judge and the players, JavaScript on and off: each test is a defect found that
way (a page that left the hall to paper or the command line, a button that could only be
refused), written to fail before its fix."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from service.app import open_service
from tests.web.conftest import ThreadServer, Tokens
from tests.web.test_calls_pages import JS, _Hall
from tests.web.test_event_pages import browser
from tests.web.test_pages import CHROMIUM

__all__ = ["browser"]  # the module's browser fixture, shared

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() or shutil.which("chromium") is None,
    reason=f"no browser: {CHROMIUM} is not installed",
)


@pytest.fixture
def hall(browser: Any, live_server: ThreadServer, store: str) -> _Hall:
    return _Hall(browser, live_server, store)


@pytest.mark.parametrize("js", JS)
def test_the_scorekeeper_settles_a_disagreement_from_the_slips_page(
    hall: _Hall, tokens: Tokens, js: bool
) -> None:
    """The queue says of a disputed report 'EV-11.5: enter the slip'; the scorekeeper enters it
    on the slips page (no command line), once, and sees it recorded: the disagreement leaves
    the queue and the players' table has its result. A player's slips page has no such form."""
    base, event = hall.base, hall.event
    ann = hall.page(tokens["ann"], js, hall.mine)
    hall.send(ann, "#report-result-text", "2-0", "#report-result", "Ann")
    ben = hall.page(tokens["ben"], js, hall.mine)
    hall.send(ben, "#dispute-reason-1", "I won the second game", "#dispute-1", "Ben")

    sam = hall.page(tokens["scorekeeper"], js, f"{base}/queue")
    item = sam.locator(".card-item", has_text="enter the slip")
    assert item.count() == 1
    item.locator("a").first.click()  # the queue's item leads to where the slip is entered
    sam.wait_for_url(f"{base}/events/{event}/slips#slip-1")
    form = sam.locator("section.slip[data-table='1'] form.slip-enter")
    assert form.count() == 1
    form.locator("input[name=result]").fill("1-1-0")
    form.locator("button[type=submit]").dblclick()  # a double click records it once
    sam.wait_for_selector("#slips-said.good")
    assert "table 1: 1-1-0" in sam.inner_text("#slips-said")
    # the table has its result now: its slip shows it and offers no form
    assert sam.locator("section.slip[data-table='1'] form.slip-enter").count() == 0
    assert "1-1-0" in sam.inner_text("section.slip[data-table='1']")
    with open_service(hall.store) as svc:
        facts = [e for e in svc.event_log(event) if "reported 1-1-0" in e.text]
    assert len(facts) == 1
    sam.goto(f"{base}/queue")
    assert "enter the slip" not in sam.inner_text("main")

    ann.goto(f"{base}/events/{event}/slips")  # a player prints slips but enters none
    assert ann.locator("form.slip-enter").count() == 0
    assert sam.errors == []
    assert ann.errors == []


def test_a_refused_slip_says_why_and_keeps_what_was_typed(hall: _Hall, tokens: Tokens) -> None:
    """A slip the rules refuse (EV-3.2: more games than a best of 3 holds) is shown on the
    slips page with its clause, nothing stored, and the form sent again corrected is taken."""
    base, event = hall.base, hall.event
    head = hall.page(tokens["head"], False, f"{base}/events/{event}/slips")
    form = head.locator("section.slip[data-table='1'] form.slip-enter")
    form.locator("input[name=result]").fill("3-0-0")
    form.locator("button[type=submit]").click()
    head.wait_for_selector("#slips-said.bad")
    assert "EV-3" in head.inner_text("#slips-said")
    with open_service(hall.store) as svc:
        assert not [e for e in svc.event_log(event) if "reported" in e.text]
    retry = head.locator("section.slip[data-table='1'] form.slip-enter")
    assert retry.locator("input[name=result]").input_value() == "3-0-0"
    retry.locator("input[name=result]").fill("2-0-0")
    retry.locator("button[type=submit]").click()
    head.wait_for_selector("#slips-said.good")
    with open_service(hall.store) as svc:
        assert [e for e in svc.event_log(event) if "reported 2-0-0" in e.text]


@pytest.mark.parametrize("js", JS)
def test_a_tables_page_shows_its_open_call_instead_of_a_button_that_is_refused(
    hall: _Hall, tokens: Tokens, js: bool
) -> None:
    """A player who called a judge from the game's page saw the button again, and pressing
    it led to an error page (EV-10.3: a judge is already called); the page now says where the
    call stands, as the player's own page does, and offers the button again once resolved."""
    base, event = hall.base, hall.event
    with open_service(hall.store) as svc:
        (row, *_) = svc.event_pairings(event)
    url = f"{base}/games/{row.games[0]}"
    ann = hall.page(tokens["ann"], js, url)
    ann.fill("#table-call input[name=reason]", "a piece fell off the board")
    ann.click("#call-judge")
    ann.wait_for_selector("#table-call-status")
    assert ann.locator("#table-call").count() == 0
    assert "waiting for a judge" in ann.inner_text("#table-call-status")
    with open_service(hall.store) as svc:
        (call,) = svc.event_calls(event)
        svc.event_call_claim(event, call.call, by="Tom", head=False)
    ann.goto(url)
    assert "Tom has it" in ann.inner_text("#table-call-status")
    with open_service(hall.store) as svc:
        svc.event_call_resolve(event, call.call, by="Tom", note="put back", head=False)
    ann.goto(url)
    assert ann.locator("#table-call-status").count() == 0
    assert ann.locator("#table-call").count() == 1
    assert ann.errors == []


def test_time_called_lists_a_disputed_table_once_and_without_time_left(
    hall: _Hall, tokens: Tokens
) -> None:
    """The head referee ends the round's clock early: the queue listed a disputed table twice
    (its disagreement and 'no result and time is called'; Q-7, one table is one item) and the
    called table with 'time left 40:00' beside 'time is called' (an ended clock stands still,
    EV-9.3, but no table has time left once time is called)."""
    event = hall.event
    with open_service(hall.store) as svc:
        state = svc.event_state(event)
        first, second = state.rounds[1].pairings[0].players
        report = svc.event_report(event, first, "2-0-0")
        svc.event_report_dispute(event, report.report, second, reason="I won game 2")
        svc.event_clock(event, "start", by="Hera")
        svc.event_clock(event, "end", by="Hera")
    head = hall.page(tokens["head"], False, f"{hall.base}/queue")
    needs = head.locator("#q-needs .card-item")
    assert needs.count() == 1, needs.all_inner_texts()
    line = needs.first.inner_text()
    assert "enter the slip" in line
    assert "time is called" in line
    assert "time left" not in head.inner_text("main")


@pytest.mark.parametrize("js", JS)
def test_a_dropped_players_page_says_so(hall: _Hall, tokens: Tokens, js: bool) -> None:
    """A drop entered for the wrong player is found by the player looking at their page: it
    said nothing of it (only the standings' row did), so a player dropped by mistake learned
    it when the next round's pairings left them out."""
    with open_service(hall.store) as svc:
        svc.event_drop(hall.event, "Ann", reason="went home")
    ann = hall.page(tokens["ann"], js, hall.mine)
    assert "dropped after round 1" in ann.inner_text("#my-drop")
    assert ann.errors == []


def test_a_game_of_an_earlier_round_offers_no_call(hall: _Hall, tokens: Tokens) -> None:
    """A player opening last round's game (a link in their history) was offered 'Call a
    judge', which could only be refused (EV-10.1: the game was played in round 1, not the
    current round); the current round's game still offers it."""
    event = hall.event
    with open_service(hall.store) as svc:
        (old, *_) = svc.event_pairings(event)
        svc.event_result(event, ["1=2-0-0"])
        svc.event_pair(event)
        (new, *_) = svc.event_pairings(event)
    ann = hall.page(tokens["ann"], False, f"{hall.base}/games/{old.games[0]}")
    assert "round 1" in ann.inner_text("main")
    assert ann.locator("#table-call").count() == 0
    ann.goto(f"{hall.base}/games/{new.games[0]}")
    assert ann.locator("#table-call").count() == 1


def test_a_table_without_a_result_at_time_leads_to_its_slip(hall: _Hall, tokens: Tokens) -> None:
    """Time is called and table 1 has no result: the scorekeeper's queue item led to the
    pairings (a list to read, nothing to enter); it now leads to the table's slip, whose
    form takes the result."""
    base, event = hall.base, hall.event
    with open_service(hall.store) as svc:
        svc.event_clock(event, "start", by="Hera")
        svc.event_clock(event, "end", by="Hera")
    sam = hall.page(tokens["scorekeeper"], False, f"{base}/queue")
    item = sam.locator("#q-needs .card-item", has_text="time is called")
    assert item.count() == 1
    item.locator("a").first.click()
    sam.wait_for_url(f"{base}/events/{event}/slips#slip-1")
    sam.fill("#slip-result-1", "2-1-0")
    sam.click("#slip-enter-1")
    sam.wait_for_selector("#slips-said.good")
    sam.goto(f"{base}/queue")
    assert sam.locator("#q-needs .card-item").count() == 0
