"""Every page at a phone's 375 x 800 in Chromium: nothing scrolls sideways
(``document.documentElement.scrollWidth <= 375``), tables become stacked cards; and the
pages that are printed (a game's record, the replay, the queue) carry a print stylesheet.
An event's pages are among them, with its round clock running and a table's extra time
(the pages players read on their phones in the hall)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.games import BUILT_IN
from service.app import open_service
from tests.contract.test_contract import play
from tests.web import test_pages
from tests.web.conftest import ThreadServer, Tokens, event_of_five
from tests.web.test_board_pages import STEPS, first_case
from tests.web.test_pages import CHROMIUM, signed_in
from tests.web.test_toolkit import tribute

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason=f"no browser: {CHROMIUM} is not installed"
)

browser = test_pages.browser
PHONE = {"width": 375, "height": 800}


@pytest.fixture
def games(store: str) -> dict[str, str]:
    """Every game part-played, with long player names, a dispute and a penalty, and a
    finished game on the scoreboard."""
    import dataclasses

    made: dict[str, str] = {}
    for game in BUILT_IN:
        case = first_case(game)
        done = play(dataclasses.replace(case, steps=case.steps[: STEPS[game]]), Path(store))
        made[game] = done.game_id
        done.svc.close()
    svc = open_service(Path(store))
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


@pytest.fixture
def hall_event(store: str) -> str:
    """An event of five in round 1 with its clock running and five extra minutes at table 1."""
    event = event_of_five(store, "Hall Open with a rather long name for a phone")
    with open_service(Path(store)) as svc:
        svc.event_clock(event, "start")
        svc.event_extend(event, 1, 5, reason="deck check")
    return event


def _wide(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def test_no_page_scrolls_sideways_on_a_phone(
    browser: Any,
    games: dict[str, str],
    hall_event: str,
    tokens: Tokens,
    request: pytest.FixtureRequest,
) -> None:
    server: ThreadServer = request.getfixturevalue("live_server")
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
            for page in ("", "/pairings", "/standings", "/clock", "/slips", "/players/Ann")
        ),
    ]
    head = signed_in(browser, base, tokens["head"], viewport=PHONE)
    for path in pages:
        answer = head.goto(base + path)
        assert answer is not None, path
        assert answer.ok, (path, answer.status)
        head.wait_for_load_state("networkidle")
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
    public = signed_in(browser, base, tokens["public"], viewport=PHONE)
    public.goto(base + "/login")
    assert _wide(public) <= 375
    for game in games.values():
        public.goto(f"{base}/games/{game}")
        assert _wide(public) <= 375, (game, _wide(public))
    for page in ("", "/pairings", "/standings", "/clock", "/players/Ann"):
        answer = public.goto(f"{base}/events/{hall_event}{page}")
        assert answer is not None, page
        assert answer.ok, (page, answer.status)
        public.wait_for_load_state("networkidle")
        assert _wide(public) <= 375, (page, _wide(public))
    public.context.close()


def test_printed_pages_have_a_print_stylesheet(
    browser: Any, games: dict[str, str], tokens: Tokens, request: pytest.FixtureRequest
) -> None:
    server: ThreadServer = request.getfixturevalue("live_server")
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
