"""Issue 33, section 1 on the table page: while the server cannot be reached the page
queues entries ("pending, not yet judged") and sends them, with their keys, when it
answers again; the server judges them then (REF-9.4). Headless Chromium, as
``test_pages``; the browser is cut off the network (Playwright's offline mode)."""

from __future__ import annotations

from typing import Any

import httpx

from events.schema import EntriesMerged
from service.app import open_service
from tests.web.conftest import ThreadServer, Tokens, auth
from tests.web.test_pages import browser, new_game, pytestmark, signed_in  # noqa: F401

__all__ = ["pytestmark"]


def test_the_table_page_queues_entries_offline_and_sends_them_when_the_server_answers(
    browser: Any,  # noqa: F811 - the module's browser fixture
    live_server: ThreadServer,
    tokens: Tokens,
    store: str,
) -> None:
    base = live_server.base
    game = new_game(base, tokens["head"], {"game": "prizmik", "players": {"red": "A", "blue": "B"}})
    page = signed_in(browser, base, tokens["head"])
    page.goto(f"{base}/games/{game}")
    page.fill("#entry", "e1>e2")
    page.press("#entry", "Enter")
    page.wait_for_function("Number(document.getElementById('table').dataset.version) === 2")

    page.context.set_offline(True)
    for queued, text in enumerate(("e8>e7", "e2>e3"), start=1):
        page.fill("#entry", text)
        page.press("#entry", "Enter")
        page.wait_for_function(f"document.querySelectorAll('#outbox .pending').length === {queued}")
    pending = page.locator("#outbox .pending").all_inner_texts()
    assert pending == ["e8>e7 — pending, not yet judged", "e2>e3 — pending, not yet judged"]
    version = httpx.get(f"{base}/api/games/{game}", headers=auth(tokens["head"])).json()["version"]
    assert version == 2  # nothing reached the server

    page.context.set_offline(False)
    page.wait_for_function(
        "document.querySelectorAll('#outbox .pending').length === 0", timeout=30_000
    )
    page.wait_for_function("Number(document.getElementById('table').dataset.version) >= 5")
    assert "judged and stored" in page.inner_text("#result")
    assert page.errors == []
    with open_service(store) as svc:
        view = svc.load(game)
        assert [e.notation for e in view.standing] == ["e1>e2", "e8>e7", "e2>e3"]
        merged = [e for e in view.events if isinstance(e, EntriesMerged)]
        assert [[x.text for x in m.entries] for m in merged] == [["e8>e7", "e2>e3"]]
    page.context.close()


def test_a_players_page_shows_its_last_pairing_while_the_network_is_down(
    browser: Any,  # noqa: F811 - the module's browser fixture
    live_server: ThreadServer,
    tokens: Tokens,
    store: str,
) -> None:
    """A service worker keeps the player's page: offline, a reload shows the last copy."""
    from tests.web.test_event_pages import PLAYERS, make_event

    event = make_event(store, PLAYERS)
    base = live_server.base
    page = signed_in(browser, base, tokens["ann"])  # a player's token, named Ann
    page.goto(f"{base}/events/{event}/players/Ann")
    page.wait_for_function(
        "navigator.serviceWorker && navigator.serviceWorker.ready.then(() => true)"
    )
    page.reload()  # now through the worker, which keeps the copy
    page.wait_for_function("!!navigator.serviceWorker.controller")
    page.reload()
    online = page.inner_text("#my-round")
    assert "Round 1" in online

    page.context.set_offline(True)
    answered = page.reload()
    assert answered is not None
    assert answered.from_service_worker
    assert page.inner_text("#my-round") == online  # the last pairing and table, offline
    page.context.set_offline(False)
    assert page.errors == []
    page.context.close()


def test_a_table_page_already_opened_reloads_offline_with_its_outbox(
    browser: Any,  # noqa: F811 - the module's browser fixture
    live_server: ThreadServer,
    tokens: Tokens,
    store: str,
) -> None:
    """A service worker keeps the table page: offline, a reload shows the last copy, with
    the position last seen (the page was first drawn before the entry that moved it) and
    the outbox's pending entries; entries taken after the reload are sent, when the server
    answers, on that position, so they are merged (no false 'Branches disagree'). Signing
    in forgets the kept pages (a referee's view is the last holder's)."""
    base = live_server.base
    game = new_game(base, tokens["head"], {"game": "prizmik", "players": {"red": "A", "blue": "B"}})
    page = signed_in(browser, base, tokens["head"])
    page.goto(f"{base}/games/{game}")  # drawn at version 1, before any worker was there
    page.wait_for_function("!!navigator.serviceWorker.controller")
    kept = f"async () => !!(await caches.match('/games/{game}'))"
    page.wait_for_function(kept)  # the page opened before the worker, put in its cache
    page.fill("#entry", "e1>e2")
    page.press("#entry", "Enter")
    page.wait_for_function("Number(document.getElementById('table').dataset.version) === 2")

    page.context.set_offline(True)
    page.fill("#entry", "e8>e7")
    page.press("#entry", "Enter")
    page.wait_for_function("document.querySelectorAll('#outbox .pending').length === 1")
    answered = page.reload()
    assert answered is not None
    assert answered.from_service_worker
    page.wait_for_function("Number(document.getElementById('table').dataset.version) === 2")
    assert "e1>e2" in page.inner_text("#log")  # the kept panel's position, not the page's
    assert page.locator("#outbox .pending").all_inner_texts() == ["e8>e7 — pending, not yet judged"]
    page.fill("#entry", "e2>e3")
    page.press("#entry", "Enter")
    page.wait_for_function("document.querySelectorAll('#outbox .pending').length === 2")

    page.context.set_offline(False)
    page.wait_for_function(
        "document.querySelectorAll('#outbox .pending').length === 0", timeout=30_000
    )
    assert "judged and stored" in page.inner_text("#result")
    assert page.errors == []
    with open_service(store) as svc:
        view = svc.load(game)
        assert [e.notation for e in view.standing] == ["e1>e2", "e8>e7", "e2>e3"]
    page.goto(f"{base}/login")
    page.wait_for_function("async () => !(await caches.has('referee-table-v1'))")
    page.context.close()
