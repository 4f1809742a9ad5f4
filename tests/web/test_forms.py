"""Page forms that are safe to reload (issue 30, section 5): every table-page form posts,
answers 303 to the page (post/redirect/get), which shows what happened, and carries an
idempotency key made when the page was rendered, so a reload, a double click or the back
button never records twice; the forms hold the API's field bounds; a form with nothing to
act on is not there; a penalty is withdrawn from the page (REF-7.3); a browser gets HTML
pages, a favicon, and a player's page that is not the referee's toolkit.

Played on the test game Tribute (three seats, decks, a card that needs a ruling)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests.web import test_pages
from tests.web.conftest import ThreadServer, Tokens, auth
from tests.web.test_pages import CHROMIUM, signed_in
from tests.web.test_toolkit import awaiting, tribute  # noqa: F401 - the fixture
from web.schemas import PAGE

SAME_SITE = {"Sec-Fetch-Site": "same-origin"}


def _version(client: Any, token: str, game: str) -> int:
    answer = client.get(f"/api/games/{game}", headers=auth(token))
    assert answer.status_code == 200, answer.text
    version: int = answer.json()["version"]
    return version


class _Desk:
    """One token at the table page of the game awaiting a ruling, over the test client: the
    page, its form keys, the game's version, a form sent (its redirect not followed) and
    what the page it lands on says."""

    def __init__(self, client: TestClient[Litestar], token: str, game: str) -> None:
        self.client, self.token, self.game = client, token, game

    def page(self) -> str:
        return self.client.get(f"/games/{self.game}", headers=auth(self.token)).text

    def form_keys(self) -> list[str]:
        return re.findall(r'name="idem" value="([^"]+)"', self.page())

    def key(self) -> str:
        """The key of the page's first form (each form carries one, made with the page)."""
        return self.form_keys()[0]

    def version(self) -> int:
        return _version(self.client, self.token, self.game)

    def send(self, action: str, key: str, **form: str) -> Any:
        return self.client.post(
            f"/games/{self.game}/do/{action}",
            data={"idem": key, **form},
            headers={**auth(self.token), **SAME_SITE},
            follow_redirects=False,
        )

    def said(self, location: str) -> tuple[int, str]:
        page = self.client.get(location, headers=auth(self.token)).text
        found = re.search(r'data-status="(\d+)">([^<]*)<', page)
        assert found, page
        return int(found.group(1)), found.group(2)

    def api(self, path: str, body: dict[str, Any]) -> Any:
        """``POST /api/games/GAME/path`` with ``body`` as JSON."""
        return self.client.post(
            f"/api/games/{self.game}/{path}", json=body, headers=auth(self.token)
        )


Desks = Callable[[str], _Desk]


@pytest.fixture
def desk(
    client: TestClient[Litestar],
    tokens: Tokens,
    awaiting: str,  # noqa: F811
) -> Desks:
    """The table page of the game awaiting a ruling, as the token named (``head``, ...)."""
    return lambda who: _Desk(client, tokens[who], awaiting)


DISPUTED: list[tuple[str, dict[str, str], str]] = [
    ("dispute", {"event": "5", "by": "Ben", "claim": "I drew one"}, "dispute 1 on event 5"),
    ("rule", {"dispute": "1", "decision": "uphold", "clause": "REF-4.2", "reason": "seen"},
     "dispute 1: referee ruling"),
    ("appeal", {"dispute": "1", "by": "Ben", "grounds": "video"}, "appealed by Ben"),
    ("retract", {"reason": "misheard"}, "retracted action"),
]  # fmt: skip
"""A dispute on event 5, a ruling on it and an appeal, then a retraction: the same fields
whether posted or typed on the page, and the same outcome."""


# -- post/redirect/get, once per key --------------------------------------------------------


def test_every_form_redirects_and_its_post_sent_again_records_nothing(desk: Desks) -> None:
    head = desk("head")
    steps: list[tuple[str, dict[str, str], str]] = [
        ("adjust", {"kind": "resource", "changes": "p1 score +4", "reason": "four"}, "adjustment"),
        ("entry", {"entry": "play King", "seat": "p2"}, "recorded play King by p2"),
        ("entry", {"entry": "play Ace"}, "REF-5.4"),  # a rejection, kept as evidence once
        ("penalty", {"seat": "p2", "infraction": "slow-play", "level": "warning"}, "warning"),
        ("withdraw", {"penalty": "", "reason": "the wrong player"}, "withdrawn"),
        *DISPUTED,
        ("backup", {"to": "2", "reason": "wrong draws"}, "backed up to action 2"),
        ("end", {"how": "agreement", "who": "p1", "reason": "a draw"}, "agreement"),
    ]  # fmt: skip
    for action, form, expect in steps:
        if action == "withdraw":  # the penalty just issued: its event number
            form["penalty"] = re.findall(r'name="penalty" aria-label="[^"]*"><option value="(\d+)"',
                                         head.page())[0]  # fmt: skip
        key = head.key()
        before = head.version()
        sent = head.send(action, key, **form)
        assert sent.status_code == 303, (action, sent.text)
        location = sent.headers["location"]
        assert location.startswith(f"/games/{head.game}?said=")
        assert key in location
        after = head.version()
        assert after > before, action
        status, message = head.said(location)
        assert expect in message, (action, message)
        # the same post again (a reload of it, a second click, the back button's copy)
        again = head.send(action, key, **form)
        assert again.status_code == 303
        assert again.headers["location"] == location
        assert head.version() == after, f"{action} recorded twice"
        assert head.said(location) == (status, message)
        # reading the page again (a reload after the redirect) records nothing either
        head.client.get(location, headers=auth(head.token))
        assert head.version() == after


def test_a_key_sent_again_with_other_values_records_nothing(desk: Desks) -> None:
    head = desk("head")
    key = head.key()
    first = head.send("penalty", key, seat="p2", infraction="x", level="warning")
    assert first.status_code == 303
    version = head.version()
    other = head.send("penalty", key, seat="p3", infraction="x", level="warning")
    status, message = head.said(other.headers["location"])
    assert status == 422
    assert "sent before with other values" in message
    assert head.version() == version
    # the page the refusal lands on carries fresh keys, so sending it again records
    assert key not in head.form_keys()


def test_a_refused_form_shows_why_and_the_values_sent_after_its_redirect(desk: Desks) -> None:
    tom = desk("table1")
    sent = tom.send("entry", tom.key(), entry="play Ace", seat="p2")
    assert sent.status_code == 303
    page = tom.client.get(sent.headers["location"], headers=auth(tom.token)).text
    assert 'data-status="409"' in page
    assert "REF-6.2" in page
    assert 'value="play Ace"' in page  # the entry typed, to correct it
    assert 'id="said"' not in tom.page()  # without ?said= the page shows no outcome


def test_the_json_answer_of_table_js_is_once_per_key_too(desk: Desks) -> None:
    head = desk("head")
    form = {
        "idem": head.key(),
        "seat": "p2",
        "infraction": "slow-play",
        "level": "warning",
    }
    headers = {**auth(head.token), **SAME_SITE, "Accept": "application/json"}
    url = f"/games/{head.game}/do/penalty"
    first = head.client.post(url, data=form, headers=headers)
    assert first.status_code == 201
    assert first.json()["ok"]
    version = head.version()
    second = head.client.post(url, data=form, headers=headers)
    assert second.status_code == 201
    assert second.json() == first.json()
    assert head.version() == version


# -- bounds, and forms with nothing to act on ---------------------------------------------------


def test_a_20000_character_penalty_reason_is_refused_by_the_form_as_by_the_api(
    desk: Desks,
) -> None:
    head = desk("head")
    assert f'maxlength="{PAGE}"' in head.page()  # the browser holds the bound as you type
    version = head.version()
    long = "x" * 20_000
    sent = head.send("penalty", head.key(), seat="p2", infraction="slow-play",
                     level="warning", reason=long)  # fmt: skip
    status, message = head.said(sent.headers["location"])
    assert status == 422, message
    assert "at most 10,000" in message, message
    assert head.version() == version  # nothing stored
    api = head.api(
        "penalties", {"seat": "p2", "level": "warning", "infraction": "slow-play", "reason": long}
    )
    assert api.status_code == 422
    entry = head.send("entry", head.key(), entry="a" * 1_001)
    status, message = head.said(entry.headers["location"])
    assert status == 422
    assert "at most 1,000" in message
    assert head.version() == version  # not even a rejection stored


def test_the_rule_form_is_shown_only_while_a_dispute_waits_for_a_ruling(desk: Desks) -> None:
    head = desk("head")
    assert 'data-tool="rule"' not in head.page()
    opened = head.send("dispute", head.key(), event="5", by="Ben", claim="one card")
    assert opened.status_code == 303
    page = head.page()
    assert 'data-tool="rule"' in page
    assert 'data-tool="appeal"' not in page
    final = head.send("rule", head.key(), dispute="1", decision="uphold", clause="REF-4.2",
                      reason="seen", final="1")  # fmt: skip
    assert head.said(final.headers["location"])[0] == 201
    page = head.page()
    assert "closed" in page  # the dispute is listed, and no form offers to rule on it
    assert 'data-tool="rule"' not in page
    assert 'data-tool="appeal"' not in page
    # a rule form posted anyway (an old page) with no dispute is refused, nothing stored
    version = head.version()
    blank = head.send("rule", "old-page-key", dispute="", decision="uphold", clause="REF-4.2",
                      reason="x")  # fmt: skip
    assert head.said(blank.headers["location"])[0] == 400
    assert head.version() == version


# -- withdrawing a penalty (REF-7.3) --------------------------------------------------------------


def test_ref_7_3_a_penalty_is_withdrawn_over_the_api_and_from_the_page(desk: Desks) -> None:
    head, tom = desk("head"), desk("table1")
    paths = head.client.get("/schema/openapi.json").json()["paths"]
    route = paths["/api/games/{game_id}/penalties/{number}/withdraw"]["post"]
    assert {"201", "403", "409"} <= set(route["responses"])
    assert 'data-tool="withdraw"' not in head.page()
    issued = head.api("penalties", {"seat": "p2", "level": "warning", "infraction": "slow-play"})
    number = issued.json()["events"][0]
    withdraw = f"penalties/{number}/withdraw"
    refused = tom.api(withdraw, {"reason": "x"})
    assert refused.status_code == 403  # the head referee's
    too_long = head.api(withdraw, {"reason": "x" * 20_000})
    assert too_long.status_code == 422
    done = head.api(withdraw, {"reason": "the wrong player"})
    assert done.status_code == 201, done.text
    assert done.json()["summaries"] == [f"penalty of event {number} withdrawn: the wrong player"]
    twice = head.api(withdraw, {"reason": "again"})
    assert twice.status_code == 409
    assert twice.json()["clause"] == "REF-7.3"
    # from the page: the form lists the penalties in force, and only for the head referee
    issued = head.api("penalties", {"seat": "p3", "level": "warning", "infraction": "slow-play"})
    second = issued.json()["events"][0]
    assert f'<option value="{second}">event {second}: warning for Cy (p3)' in head.page()
    assert 'data-tool="withdraw"' not in tom.page()
    sent = head.send("withdraw", head.key(), penalty=str(second), reason="")
    status, message = head.said(sent.headers["location"])
    assert status == 409
    assert "REF-7.3" in message
    sent = head.send("withdraw", head.key(), penalty=str(second), reason="misheard")
    status, message = head.said(sent.headers["location"])
    assert status == 201
    assert f"penalty of event {second} withdrawn" in message
    assert 'data-tool="withdraw"' not in head.page()


# -- what a browser is answered -----------------------------------------------------------------


def test_a_player_opening_the_queue_gets_a_page_not_json(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    browser_headers = {**auth(tokens["ann"]), "Accept": "text/html,application/xhtml+xml,*/*"}
    page = client.get("/queue", headers=browser_headers)
    assert page.status_code == 403
    assert page.headers["content-type"].startswith("text/html")
    assert "<h1>" in page.text
    assert "a player may not read it" in page.text
    assert "Sign in with another token" in page.text
    missing = client.get("/games/no-such-game", headers=browser_headers)
    assert missing.status_code == 404
    assert missing.headers["content-type"].startswith("text/html")
    api = client.get("/api/queue", headers=browser_headers)  # the API answers JSON always
    assert api.status_code == 403
    assert api.headers["content-type"] == "application/problem+json"
    script = client.get("/queue", headers=auth(tokens["ann"]))  # no HTML asked: a problem
    assert script.headers["content-type"] == "application/problem+json"


def test_a_players_page_is_not_the_referees_toolkit(desk: Desks) -> None:
    ann = desk("ann").page()
    assert "Referee's toolkit" not in ann
    assert "Disputes and appeals" in ann
    tom = desk("table1").page()
    assert "Referee's toolkit" in tom


def test_a_favicon(client: TestClient[Litestar], tokens: Tokens) -> None:
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200
    assert icon.headers["content-type"] == "image/x-icon"
    assert icon.content[:4] == b"\x00\x00\x01\x00"
    assert b"\x89PNG" in icon.content
    svg = client.get("/static/favicon.svg")
    assert svg.status_code == 200
    assert svg.text.startswith("<svg")
    page = client.get("/", headers=auth(tokens["head"])).text
    assert 'rel="icon" href="/static/favicon.svg"' in page


# -- in Chromium: JavaScript off and on -------------------------------------------------------

browser = test_pages.browser
chromium = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no browser: {CHROMIUM}")

STEPS: list[tuple[str, dict[str, str], str]] = [
    ("adjust", {"kind": "resource", "changes": "p1 score +4", "reason": "ruled four"},
     "adjustment for Joker"),
    ("entry", {"entry": "play King", "seat": "p2"}, "recorded play King by p2"),
    ("entry", {"entry": "play Ace", "seat": ""}, "REF-5.4"),
    ("penalty", {"seat": "p2", "infraction": "slow-play"}, "penalty: warning for p2"),
    ("withdraw", {"reason": "the wrong player"}, "withdrawn"),
    *DISPUTED,
    ("end", {"reason": "a draw", "how": "Draw agreed"}, "agreement"),
]  # fmt: skip
"""Each form of the table page in turn: its tool, what is typed or chosen, what it says."""


def _fill(page: Any, tool: str, fill: dict[str, str]) -> Any:
    """Fill one form (its ``details`` opened) and give the button to press."""
    if tool == "entry":
        page.fill("#entry", fill["entry"])
        if "seat" in fill:
            page.select_option("#seat", fill["seat"])
        return page.locator("#record")
    form = page.locator(f'form[data-tool="{tool}"]')
    details = form.locator("xpath=ancestor::details[1]")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    for name, value in fill.items():
        if name == "how":
            continue
        field = form.locator(f'[name="{name}"]')
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    if "how" in fill:
        return form.locator("button", has_text=fill["how"])
    return form.locator("button[type=submit]")


def _wait_for_said(page: Any, landed: str) -> None:
    """Wait for the form's own ``?said=`` page (not ``landed``, the last form's). A double
    click's first submission is aborted by its second as the browser navigates (Chromium
    reports ``net::ERR_ABORTED`` to the waiter under load): wait on for the second."""
    for _ in range(3):
        try:
            page.wait_for_url(lambda url: url != landed and "?said=" in url)
        except Exception as error:  # playwright's Error, imported only where Chromium is
            if "ERR_ABORTED" not in str(error):
                raise
        else:
            return
    page.wait_for_url(lambda url: url != landed and "?said=" in url)


class _Served:
    """The head referee at the table page of the game awaiting a ruling, over a live
    server: a browser page signed in (not yet at the table page, ``url``) and the game's
    version as the API tells it (through one client: one made for each reading cost 15-30 ms
    of CPU, three readings a form)."""

    def __init__(self, browser: Any, base: str, token: str, game: str) -> None:
        self.browser, self.base, self.token = browser, base, token
        self.url = f"{base}/games/{game}"
        self.game = game
        self.http = httpx.Client(base_url=base)

    def signed_in(self, **context: Any) -> Any:
        return signed_in(self.browser, self.base, self.token, **context)

    def version(self) -> int:
        return _version(self.http, self.token, self.game)


@pytest.fixture
def served(
    browser: Any,
    live_server: ThreadServer,
    tokens: Tokens,
    awaiting: str,  # noqa: F811
) -> Iterator[_Served]:
    made = _Served(browser, live_server.base, tokens["head"], awaiting)
    with made.http:
        yield made


@chromium
def test_without_javascript_a_reload_back_or_resend_after_every_form_records_nothing_twice(
    served: _Served,
) -> None:
    page = served.signed_in(java_script_enabled=False)
    posts: list[Any] = []
    page.on("request", lambda r: posts.append(r) if r.method == "POST" and "/do/" in r.url else 0)
    page.goto(served.url)
    for tool, fill, expect in STEPS:
        button = _fill(page, tool, fill)
        before = served.version()
        landed = page.url  # the last form's page: its own ?said= matches the pattern too
        if tool == "penalty":
            button.dblclick()  # a double click sends the form twice: recorded once
        else:
            button.click()
        _wait_for_said(page, landed)
        assert expect in page.inner_text("#said"), (tool, page.inner_text("#said"))
        after = served.version()
        assert after > before, tool
        page.reload()  # the reload of the page the form landed on
        assert expect in page.inner_text("#said")
        page.go_back()  # the page the form was on, as the back button gives it
        page.go_forward()
        sent = posts[-1]  # the very post again, as a browser resends it
        again = page.context.request.post(
            sent.url,
            data=sent.post_data,
            headers={"content-type": sent.headers["content-type"], "origin": served.base},
        )
        assert again.ok
        assert expect in again.text()
        assert served.version() == after, f"{tool} recorded twice"
    assert not page.errors
    page.context.close()


@chromium
def test_with_javascript_a_reload_after_every_form_records_nothing_twice(
    served: _Served,
) -> None:
    page = served.signed_in()
    page.goto(served.url)
    for tool, fill, expect in STEPS:
        before = served.version()
        page.evaluate("document.getElementById('result').textContent = ''")
        button = _fill(page, tool, fill)
        if tool == "penalty":
            button.dblclick()
        else:
            button.click()
        page.wait_for_function(
            "document.getElementById('result').textContent.length > 0", timeout=15_000
        )
        assert expect in page.inner_text("#result"), (tool, page.inner_text("#result"))
        after = served.version()
        assert after > before, tool
        page.reload()
        page.wait_for_selector("#live.on")
        assert served.version() == after, f"{tool} recorded twice"
    assert not page.errors
    page.context.close()


# -- starting a game from the pages ----------------------------------------------------------


def _games(client: Any, token: str) -> int:
    return len(client.get("/api/games", headers=auth(token)).json())


def test_the_new_game_form_starts_one_game_per_key_and_redirects_to_it(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    tom = tokens["table1"]
    page = client.get("/games/new", headers=auth(tom)).text
    key = re.findall(r'name="idem" value="([^"]+)"', page)[0]
    form = {"idem": key, "game": "prizmik", "players": "red=Ann, blue=Ben", "table": "1",
            "options": "{}"}  # fmt: skip
    headers = {**auth(tom), **SAME_SITE}
    sent = client.post("/games/new", data=form, headers=headers, follow_redirects=False)
    assert sent.status_code == 303
    assert sent.headers["location"].startswith("/games/prizmik-")
    again = client.post("/games/new", data=form, headers=headers, follow_redirects=False)
    assert again.headers["location"] == sent.headers["location"]
    assert _games(client, tom) == 1
    game = sent.headers["location"].split("?")[0].rsplit("/", 1)[-1]
    assert client.get(f"/api/games/{game}", headers=auth(tom)).json()["players"] == {
        "red": "Ann",
        "blue": "Ben",
    }
    # a refusal goes back to the form, saying why, with what was typed
    form = {"idem": "another", "game": "prizmik", "player_red": "Ann", "player_green": "Cy",
            "table": "1"}  # fmt: skip
    bad = client.post("/games/new", data=form, headers=headers, follow_redirects=False)
    assert bad.headers["location"].startswith("/games/new?said=")
    shown = client.get(bad.headers["location"], headers=auth(tom)).text
    assert "green" in shown
    assert 'data-status="400"' in shown
    assert _games(client, tom) == 1
    elsewhere = {**form, "idem": "third", "table": "2", "player_green": ""}
    refused = client.post("/games/new", data=elsewhere, headers=headers, follow_redirects=False)
    assert 'data-status="403"' in client.get(refused.headers["location"], headers=auth(tom)).text


@chromium
@pytest.mark.parametrize("script", [False, True], ids=["javascript-off", "javascript-on"])
def test_a_game_is_started_from_the_page_once_however_often_it_is_reloaded(
    browser: Any, live_server: ThreadServer, tokens: Tokens, script: bool
) -> None:
    base, tom = live_server.base, tokens["table1"]
    page = signed_in(browser, base, tom, java_script_enabled=script)
    page.goto(f"{base}/games/new")
    page.select_option("#game", "prizmik")
    if script:
        page.fill('input[name="player_red"]', "Ann")
        page.fill('input[name="player_blue"]', "Ben")
    else:
        page.fill("#players", "red=Ann, blue=Ben")
    page.click("#create")
    page.wait_for_url(re.compile(r".*/games/prizmik-[^/]+\?said=.*"))
    assert "started prizmik-" in page.inner_text("#said")
    page.reload()
    page.go_back()
    page.go_forward()
    assert len(httpx.get(f"{base}/api/games", headers=auth(tom)).json()) == 1
    assert not page.errors
    page.context.close()
