"""Every page at a phone's 375 x 800 in Chromium: nothing scrolls sideways
(``document.documentElement.scrollWidth <= 375``), tables become stacked cards; and the
pages that are printed (a game's record, the replay, the queue) carry a print stylesheet.
An event's pages are among them, with its round clock running and a table's extra time
(the pages players read on their phones in the hall)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.app import open_service
from tests.web import test_pages
from tests.web.conftest import ThreadServer, Tokens, event_of_five, house_ids, served
from tests.web.test_board_pages import part_played
from tests.web.test_pages import CHROMIUM, signed_in
from tests.web.test_toolkit import tribute

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason=f"no browser: {CHROMIUM} is not installed"
)

browser = test_pages.browser
PHONE = {"width": 375, "height": 800}


# Both tests only read the pages (a form opened is not sent): one store, its games, its
# event and one server serve them (building them took each test a second of CPU).
@pytest.fixture(scope="module")
def games(module_store: str) -> dict[str, str]:
    """Every game part-played, with long player names, a dispute and a penalty, and a
    finished game on the scoreboard."""
    made = part_played(module_store)
    svc = open_service(Path(module_store))
    try:
        made["tribute"] = tribute(svc, table="1")
        svc.dispute(made["tribute"], 5, by="Ben", claim="a long claim " * 6)
        svc.penalty(made["tribute"], "p2", "warning", "slow play")
        finished = svc.create_game(
            "prizmik", {"red": "Alexandrina Featherstonehaugh", "blue": "Bartholomew Quintus"}
        ).game_id
        svc.end(finished, "resignation", who="blue")
        made["finished"] = finished
    finally:
        svc.close()
    return made


@pytest.fixture(scope="module")
def hall_event(module_store: str) -> str:
    """An event of five in round 1 with its clock running, five extra minutes at table 1 and
    a call at table 2 escalated to the head referee (the queue's escalated calls)."""
    event = event_of_five(module_store, "Hall Open with a rather long name for a phone")
    with open_service(Path(module_store)) as svc:
        svc.event_clock(event, "start")
        svc.event_extend(event, 1, 5, reason="deck check")
        call = svc.event_call(event, 2, by="Tia", reason="a long question about a rule " * 3)
        svc.event_call_escalate(event, call.call, by="Tia", reason="for the head referee " * 3)
    return event


@pytest.fixture(scope="module")
def early_events(module_store: str, tokens: Tokens) -> dict[str, str]:
    """The pages before round 1 and after the last: ``rated``, a PRIZMIK event not yet
    paired with ratings (the desk's ratings box and its Ratings section); ``deck``, an event
    whose decklists are due before round 1, Ben entered without one (his page's decklist
    form); ``played``, an event of one round played (the desk's "last round is played")."""
    with open_service(Path(module_store)) as svc:
        rated = svc.event_new("Rated Open with a rather long name for a phone", "prizmik", rounds=3)
        names = ["Alexandrina Featherstonehaugh", "Bartholomew Quintus", "Cal", "Dee"]
        svc.event_register(rated.event_id, names, ratings=[1800, 1650, None, 1200])
        svc.event_correct_rating(rated.event_id, "Cal", 1500, reason="a typo on the entry slip")
        deck = svc.event_new("Deck Cup", "gammasphere", rounds=2, deck_deadline=1).event_id
        svc.event_register(deck, ["Ben"], player_ids=house_ids(module_store, ["Ben"]))
        played = svc.event_new("Played Open", "prizmik", rounds=1).event_id
        svc.event_register(played, ["Ann", "Ben"])
        svc.event_pair(played)
        svc.event_result(played, ["1=2-0-0"])
    return {"rated": rated.event_id, "deck": deck, "played": played}


@pytest.fixture(scope="module")
def ended_event(module_store: str) -> str:
    """An event of five ended after round 1 (its open games closed as void), with a penalty:
    the desk as the event's summary, its penalties and its audit."""
    event = event_of_five(module_store, "Ended Open with a rather long name for a phone")
    with open_service(Path(module_store)) as svc:
        svc.event_penalize(event, "Ann", "game-rule-violation", reason="a missed step")
        svc.event_result(event, ["1=2-0-0", "2=0-2-0"])
        svc.event_end(event, reason="the hall closed early", void_open=True)
    return event


@pytest.fixture(scope="module")
def tokens(module_tokens: Tokens) -> Tokens:
    return module_tokens


@pytest.fixture(scope="module")
def server(
    games: dict[str, str],
    hall_event: str,
    ended_event: str,
    early_events: dict[str, str],
    module_store: str,
) -> Iterator[ThreadServer]:
    yield from served(module_store)


def watch_requests(page: Any) -> Any:
    """Keep ``page.pending``: the requests it has in flight, its live streams aside (an
    EventSource stays open as long as the page)."""
    pending: set[Any] = set()

    def started(request: Any) -> None:
        if request.resource_type != "eventsource":
            pending.add(request)

    def ended(request: Any) -> None:  # a bound method is refused: Playwright wraps functions
        pending.discard(request)

    page.on("request", started)
    page.on("requestfinished", ended)
    page.on("requestfailed", ended)
    page.pending = pending
    return page


def settle(page: Any) -> None:
    """Wait until the page's scripts have had their answers (the clock's reading, a
    panel): what ``networkidle`` waits for, without its half second of quiet after each page
    (some 16 s over this module's pages)."""
    deadline = time.monotonic() + 15
    while page.pending:
        assert time.monotonic() < deadline, [r.url for r in page.pending]
        page.wait_for_timeout(20)


def _wide(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def test_no_page_scrolls_sideways_on_a_phone(
    browser: Any,
    games: dict[str, str],
    hall_event: str,
    early_events: dict[str, str],
    tokens: Tokens,
    server: ThreadServer,
) -> None:
    base = server.base
    pages = [
        "/",
        "/scoreboard",
        "/games/new",
        "/queue",
        "/events",
        "/problems/rejected",
        *(f"/games/{g}" for g in games.values()),
        *(f"/games/{g}/replay" for g in games.values()),
        f"/games/{games['tribute']}/dossier",
        *(
            f"/events/{hall_event}{page}"
            for page in ("", "/pairings", "/standings", "/clock", "/slips", "/players/Ann", "/desk")
        ),
        f"/events/{early_events['rated']}/desk",
        f"/events/{early_events['played']}/desk",
    ]
    shows = {  # the parts added late, in the states that show them
        "/queue": "text=for the head referee",
        f"/events/{early_events['rated']}/desk": "#desk-ratings",
        f"/events/{early_events['played']}/desk": "#desk-last-played",
    }
    head = watch_requests(signed_in(browser, base, tokens["head"], viewport=PHONE))
    for path in pages:
        answer = head.goto(base + path)
        assert answer is not None, path
        assert answer.ok, (path, answer.status)
        settle(head)
        assert path not in shows or head.locator(shows[path]).count() >= 1, path
        for details in head.locator("details").all():  # the referee's forms opened too
            if details.get_attribute("open") is None:
                details.locator("summary").click()
        assert _wide(head) <= 375, (path, _wide(head))
    # the games list and the scoreboard are stacked cards here, not a wide table
    head.goto(base + "/")
    row = head.locator("#games tbody tr").first.bounding_box()
    assert row is not None
    assert row["height"] > 60
    assert row["width"] <= 375
    assert not head.errors
    head.context.close()
    public = watch_requests(signed_in(browser, base, tokens["public"], viewport=PHONE))
    public.goto(base + "/login")
    assert _wide(public) <= 375
    for game in games.values():
        public.goto(f"{base}/games/{game}")
        assert _wide(public) <= 375, (game, _wide(public))
    for page in ("", "/pairings", "/standings", "/clock", "/players/Ann"):
        answer = public.goto(f"{base}/events/{hall_event}{page}")
        assert answer is not None, page
        assert answer.ok, (page, answer.status)
        settle(public)
        assert _wide(public) <= 375, (page, _wide(public))
    public.context.close()


def _post_form(page: Any, action: str, fields: dict[str, str]) -> None:
    """Send a form to ``action`` from the page as its own form would (same origin), and wait
    for the page the answer's redirect leads to."""
    with page.expect_navigation():
        page.evaluate(
            """([action, fields]) => {
                const form = document.createElement("form");
                form.method = "post";
                form.action = action;
                for (const [name, value] of Object.entries(fields)) {
                    const input = document.createElement("input");
                    input.type = "hidden";
                    input.name = name;
                    input.value = value;
                    form.appendChild(input);
                }
                document.body.appendChild(form);
                form.submit();
            }""",
            [action, fields],
        )
    settle(page)


def test_the_walks_pages_fit_a_phone(
    browser: Any,
    hall_event: str,
    ended_event: str,
    early_events: dict[str, str],
    tokens: Tokens,
    server: ThreadServer,
) -> None:
    """The pages the organizer's desk walk changed, at 375 px: the ended desk (its summary,
    penalties and audit shown), the sign-in page after a wrong token, the verify page
    after a refused check, and a player's refused report ("Not done", the form again)."""
    base = server.base
    head = watch_requests(signed_in(browser, base, tokens["head"], viewport=PHONE))
    for path in (f"/events/{ended_event}/desk", f"/events/{ended_event}/desk?audit=1"):
        answer = head.goto(base + path)
        assert answer is not None, path
        assert answer.ok, (path, answer.status)
        settle(head)
        assert head.locator("#desk-ended").count() == 1, path
        for details in head.locator("details").all():
            if details.get_attribute("open") is None:
                details.locator("summary").click()
        assert _wide(head) <= 375, (path, _wide(head))
    assert head.locator("#desk-audit-list, #desk-audit-none").count() == 1
    head.context.close()
    public = watch_requests(signed_in(browser, base, tokens["public"], viewport=PHONE))
    public.goto(base + "/login?refused=token")
    assert _wide(public) <= 375
    public.goto(f"{base}/events/{hall_event}/verify")
    _post_form(
        public,
        f"/events/{hall_event}/verify",
        {"posting": "not json at all", "public_key": "abc"},
    )
    assert "said=" in public.url, public.url
    assert "not a posting" in public.content()
    assert _wide(public) <= 375, ("verify refused", _wide(public))
    public.context.close()
    ann = watch_requests(signed_in(browser, base, tokens["ann"], viewport=PHONE))
    ann.goto(f"{base}/events/{hall_event}/players/Ann")
    _post_form(ann, f"/events/{hall_event}/me/report", {"table": "1", "result": "two-one"})
    assert ann.locator("h1").inner_text() == "Not done", ann.url
    assert _wide(ann) <= 375, ("not done", _wide(ann))
    ann.context.close()
    ben = watch_requests(signed_in(browser, base, tokens["ben"], viewport=PHONE))
    ben.goto(f"{base}/events/{early_events['deck']}/players/Ben")  # before the deadline
    settle(ben)
    assert ben.locator("form[action$='/me/decklist'] textarea").count() == 1
    assert _wide(ben) <= 375, ("decklist form", _wide(ben))
    ben.context.close()


def test_printed_pages_have_a_print_stylesheet(
    browser: Any, games: dict[str, str], tokens: Tokens, server: ThreadServer
) -> None:
    page = signed_in(browser, server.base, tokens["head"])
    tribute_game = games["tribute"]
    printed = (
        f"/games/{tribute_game}",
        f"/games/{tribute_game}/replay",
        f"/games/{tribute_game}/dossier?dispute=1",
        "/queue",
    )
    for path in printed:
        page.goto(server.base + path)
        page.emulate_media(media="print")
        assert page.locator("header.top").is_hidden()  # no navigation on paper
        for form in page.locator("form").all():
            assert form.is_hidden()
        page.emulate_media(media="screen")
        assert page.locator("header.top").is_visible()
    page.context.close()
