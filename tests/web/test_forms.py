"""Page forms that are safe to reload (issue 30, section 5): every table-page form posts,
answers 303 to the page (post/redirect/get), which shows what happened, and carries an
idempotency key made when the page was rendered, so a reload, a double click or the back
button never records twice; the forms hold the API's field bounds; a form with nothing to
act on is not there; a penalty is withdrawn from the page (REF-7.3); a browser gets HTML
pages, a favicon, and a player's page that is not the referee's toolkit.

Played on the test game Tribute (three seats, decks, a card that needs a ruling)."""

from __future__ import annotations

import re
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


def _keys(client: TestClient[Litestar], token: str, game: str) -> list[str]:
    page = client.get(f"/games/{game}", headers=auth(token)).text
    return re.findall(r'name="idem" value="([^"]+)"', page)


def _send(
    client: TestClient[Litestar], token: str, game: str, action: str, key: str, **form: str
) -> Any:
    return client.post(
        f"/games/{game}/do/{action}",
        data={"idem": key, **form},
        headers={**auth(token), **SAME_SITE},
        follow_redirects=False,
    )


def _said(client: TestClient[Litestar], token: str, location: str) -> tuple[int, str]:
    page = client.get(location, headers=auth(token)).text
    found = re.search(r'data-status="(\d+)">([^<]*)<', page)
    assert found, page
    return int(found.group(1)), found.group(2)


# -- post/redirect/get, once per key --------------------------------------------------------


def test_every_form_redirects_and_its_post_sent_again_records_nothing(
    client: TestClient[Litestar],
    tokens: Tokens,
    awaiting: str,  # noqa: F811
) -> None:
    head = tokens["head"]
    steps: list[tuple[str, dict[str, str], str]] = [
        ("adjust", {"kind": "resource", "changes": "p1 score +4", "reason": "four"}, "adjustment"),
        ("entry", {"entry": "play King", "seat": "p2"}, "recorded play King by p2"),
        ("entry", {"entry": "play Ace"}, "REF-5.4"),  # a rejection, kept as evidence once
        ("penalty", {"seat": "p2", "infraction": "slow-play", "level": "warning"}, "warning"),
        ("withdraw", {"penalty": "", "reason": "the wrong player"}, "withdrawn"),
        ("dispute", {"event": "5", "by": "Ben", "claim": "I drew one"}, "dispute 1 on event 5"),
        ("rule", {"dispute": "1", "decision": "uphold", "clause": "REF-4.2", "reason": "seen"},
         "dispute 1: referee ruling"),
        ("appeal", {"dispute": "1", "by": "Ben", "grounds": "video"}, "appealed by Ben"),
        ("retract", {"reason": "misheard"}, "retracted action"),
        ("backup", {"to": "2", "reason": "wrong draws"}, "backed up to action 2"),
        ("end", {"how": "agreement", "who": "p1", "reason": "a draw"}, "agreement"),
    ]  # fmt: skip
    for action, form, expect in steps:
        if action == "withdraw":  # the penalty just issued: its event number
            page = client.get(f"/games/{awaiting}", headers=auth(head)).text
            form["penalty"] = re.findall(r'name="penalty" aria-label="[^"]*"><option value="(\d+)"',
                                         page)[0]  # fmt: skip
        key = _keys(client, head, awaiting)[0]
        before = _version(client, head, awaiting)
        sent = _send(client, head, awaiting, action, key, **form)
        assert sent.status_code == 303, (action, sent.text)
        location = sent.headers["location"]
        assert location.startswith(f"/games/{awaiting}?said=")
        assert key in location
        after = _version(client, head, awaiting)
        assert after > before, action
        status, message = _said(client, head, location)
        assert expect in message, (action, message)
        # the same post again (a reload of it, a second click, the back button's copy)
        again = _send(client, head, awaiting, action, key, **form)
        assert again.status_code == 303
        assert again.headers["location"] == location
        assert _version(client, head, awaiting) == after, f"{action} recorded twice"
        assert _said(client, head, location) == (status, message)
        # reading the page again (a reload after the redirect) records nothing either
        client.get(location, headers=auth(head))
        assert _version(client, head, awaiting) == after


def test_a_key_sent_again_with_other_values_records_nothing(
    client: TestClient[Litestar],
    tokens: Tokens,
    awaiting: str,  # noqa: F811
) -> None:
    head = tokens["head"]
    key = _keys(client, head, awaiting)[0]
    first = _send(client, head, awaiting, "penalty", key, seat="p2", infraction="x",
                  level="warning")  # fmt: skip
    assert first.status_code == 303
    version = _version(client, head, awaiting)
    other = _send(client, head, awaiting, "penalty", key, seat="p3", infraction="x",
                  level="warning")  # fmt: skip
    status, message = _said(client, head, other.headers["location"])
    assert status == 422
    assert "sent before with other values" in message
    assert _version(client, head, awaiting) == version
    # the page the refusal lands on carries fresh keys, so sending it again records
    assert key not in _keys(client, head, awaiting)


def test_a_refused_form_shows_why_and_the_values_sent_after_its_redirect(
    client: TestClient[Litestar],
    tokens: Tokens,
    awaiting: str,  # noqa: F811
) -> None:
    tom = tokens["table1"]
    key = _keys(client, tom, awaiting)[0]
    sent = _send(client, tom, awaiting, "entry", key, entry="play Ace", seat="p2")
    assert sent.status_code == 303
    page = client.get(sent.headers["location"], headers=auth(tom)).text
    assert 'data-status="409"' in page
    assert "REF-6.2" in page
    assert 'value="play Ace"' in page  # the entry typed, to correct it
    plain = client.get(f"/games/{awaiting}", headers=auth(tom)).text
    assert 'id="said"' not in plain  # without ?said= the page shows no outcome


def test_the_json_answer_of_table_js_is_once_per_key_too(
    client: TestClient[Litestar],
    tokens: Tokens,
    awaiting: str,  # noqa: F811
) -> None:
    head = tokens["head"]
    key = _keys(client, head, awaiting)[0]
    form = {"idem": key, "seat": "p2", "infraction": "slow-play", "level": "warning"}
    headers = {**auth(head), **SAME_SITE, "Accept": "application/json"}
    first = client.post(f"/games/{awaiting}/do/penalty", data=form, headers=headers)
    assert first.status_code == 201
    assert first.json()["ok"]
    version = _version(client, head, awaiting)
    second = client.post(f"/games/{awaiting}/do/penalty", data=form, headers=headers)
    assert second.status_code == 201
    assert second.json() == first.json()
    assert _version(client, head, awaiting) == version


# -- bounds, and forms with nothing to act on ---------------------------------------------------


def test_a_20000_character_penalty_reason_is_refused_by_the_form_as_by_the_api(
    client: TestClient[Litestar],
    tokens: Tokens,
    awaiting: str,  # noqa: F811
) -> None:
    head = tokens["head"]
    page = client.get(f"/games/{awaiting}", headers=auth(head)).text
    assert f'maxlength="{PAGE}"' in page  # the browser holds the bound as you type
    version = _version(client, head, awaiting)
    long = "x" * 20_000
    sent = _send(client, head, awaiting, "penalty", _keys(client, head, awaiting)[0], seat="p2",
                 infraction="slow-play", level="warning", reason=long)  # fmt: skip
    status, message = _said(client, head, sent.headers["location"])
    assert status == 422, message
    assert "at most 10,000" in message, message
    assert _version(client, head, awaiting) == version  # nothing stored
    api = client.post(
        f"/api/games/{awaiting}/penalties",
        json={"seat": "p2", "level": "warning", "infraction": "slow-play", "reason": long},
        headers=auth(head),
    )
    assert api.status_code == 422
    entry = _send(client, head, awaiting, "entry", _keys(client, head, awaiting)[0],
                  entry="a" * 1_001)  # fmt: skip
    status, message = _said(client, head, entry.headers["location"])
    assert status == 422
    assert "at most 1,000" in message
    assert _version(client, head, awaiting) == version  # not even a rejection stored


def test_the_rule_form_is_shown_only_while_a_dispute_waits_for_a_ruling(
    client: TestClient[Litestar],
    tokens: Tokens,
    awaiting: str,  # noqa: F811
) -> None:
    head = tokens["head"]
    assert 'data-tool="rule"' not in client.get(f"/games/{awaiting}", headers=auth(head)).text
    opened = _send(client, head, awaiting, "dispute", _keys(client, head, awaiting)[0],
                   event="5", by="Ben", claim="one card")  # fmt: skip
    assert opened.status_code == 303
    page = client.get(f"/games/{awaiting}", headers=auth(head)).text
    assert 'data-tool="rule"' in page
    assert 'data-tool="appeal"' not in page
    final = _send(client, head, awaiting, "rule", _keys(client, head, awaiting)[0], dispute="1",
                  decision="uphold", clause="REF-4.2", reason="seen", final="1")  # fmt: skip
    assert _said(client, head, final.headers["location"])[0] == 201
    page = client.get(f"/games/{awaiting}", headers=auth(head)).text
    assert "closed" in page  # the dispute is listed, and no form offers to rule on it
    assert 'data-tool="rule"' not in page
    assert 'data-tool="appeal"' not in page
    # a rule form posted anyway (an old page) with no dispute is refused, nothing stored
    version = _version(client, head, awaiting)
    blank = _send(client, head, awaiting, "rule", "old-page-key", dispute="", decision="uphold",
                  clause="REF-4.2", reason="x")  # fmt: skip
    assert _said(client, head, blank.headers["location"])[0] == 400
    assert _version(client, head, awaiting) == version


# -- withdrawing a penalty (REF-7.3) --------------------------------------------------------------


def test_ref_7_3_a_penalty_is_withdrawn_over_the_api_and_from_the_page(
    client: TestClient[Litestar],
    tokens: Tokens,
    awaiting: str,  # noqa: F811
) -> None:
    head, tom = tokens["head"], tokens["table1"]
    paths = client.get("/schema/openapi.json").json()["paths"]
    route = paths["/api/games/{game_id}/penalties/{number}/withdraw"]["post"]
    assert {"201", "403", "409"} <= set(route["responses"])
    assert 'data-tool="withdraw"' not in client.get(f"/games/{awaiting}", headers=auth(head)).text
    issued = client.post(
        f"/api/games/{awaiting}/penalties",
        json={"seat": "p2", "level": "warning", "infraction": "slow-play"},
        headers=auth(head),
    ).json()
    number = issued["events"][0]
    url = f"/api/games/{awaiting}/penalties/{number}/withdraw"
    refused = client.post(url, json={"reason": "x"}, headers=auth(tom))
    assert refused.status_code == 403  # the head referee's
    too_long = client.post(url, json={"reason": "x" * 20_000}, headers=auth(head))
    assert too_long.status_code == 422
    done = client.post(url, json={"reason": "the wrong player"}, headers=auth(head))
    assert done.status_code == 201, done.text
    assert done.json()["summaries"] == [f"penalty of event {number} withdrawn: the wrong player"]
    twice = client.post(url, json={"reason": "again"}, headers=auth(head))
    assert twice.status_code == 409
    assert twice.json()["clause"] == "REF-7.3"
    # from the page: the form lists the penalties in force, and only for the head referee
    second = client.post(
        f"/api/games/{awaiting}/penalties",
        json={"seat": "p3", "level": "warning", "infraction": "slow-play"},
        headers=auth(head),
    ).json()["events"][0]
    page = client.get(f"/games/{awaiting}", headers=auth(head)).text
    assert f'<option value="{second}">event {second}: warning for Cy (p3)' in page
    assert 'data-tool="withdraw"' not in client.get(f"/games/{awaiting}", headers=auth(tom)).text
    sent = _send(client, head, awaiting, "withdraw", _keys(client, head, awaiting)[0],
                 penalty=str(second), reason="")  # fmt: skip
    status, message = _said(client, head, sent.headers["location"])
    assert status == 409
    assert "REF-7.3" in message
    sent = _send(client, head, awaiting, "withdraw", _keys(client, head, awaiting)[0],
                 penalty=str(second), reason="misheard")  # fmt: skip
    status, message = _said(client, head, sent.headers["location"])
    assert status == 201
    assert f"penalty of event {second} withdrawn" in message
    assert 'data-tool="withdraw"' not in client.get(f"/games/{awaiting}", headers=auth(head)).text


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


def test_a_players_page_is_not_the_referees_toolkit(
    client: TestClient[Litestar],
    tokens: Tokens,
    awaiting: str,  # noqa: F811
) -> None:
    ann = client.get(f"/games/{awaiting}", headers=auth(tokens["ann"])).text
    assert "Referee's toolkit" not in ann
    assert "Disputes and appeals" in ann
    tom = client.get(f"/games/{awaiting}", headers=auth(tokens["table1"])).text
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
    ("dispute", {"event": "5", "by": "Ben", "claim": "I drew one"}, "dispute 1 on event 5"),
    ("rule", {"dispute": "1", "decision": "uphold", "clause": "REF-4.2", "reason": "seen"},
     "dispute 1: referee ruling"),
    ("appeal", {"dispute": "1", "by": "Ben", "grounds": "video"}, "appealed by Ben"),
    ("retract", {"reason": "misheard"}, "retracted action"),
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


@chromium
def test_without_javascript_a_reload_back_or_resend_after_every_form_records_nothing_twice(
    browser: Any,
    live_server: ThreadServer,
    tokens: Tokens,
    awaiting: str,  # noqa: F811
) -> None:
    base, head = live_server.base, tokens["head"]
    page = signed_in(browser, base, head, java_script_enabled=False)
    posts: list[Any] = []
    page.on("request", lambda r: posts.append(r) if r.method == "POST" and "/do/" in r.url else 0)
    page.goto(f"{base}/games/{awaiting}")
    for tool, fill, expect in STEPS:
        button = _fill(page, tool, fill)
        before = _api_version(base, head, awaiting)
        landed = page.url  # the last form's page: its own ?said= matches the pattern too
        if tool == "penalty":
            button.dblclick()  # a double click sends the form twice: recorded once
        else:
            button.click()
        _wait_for_said(page, landed)
        assert expect in page.inner_text("#said"), (tool, page.inner_text("#said"))
        after = _api_version(base, head, awaiting)
        assert after > before, tool
        page.reload()  # the reload of the page the form landed on
        assert expect in page.inner_text("#said")
        page.go_back()  # the page the form was on, as the back button gives it
        page.go_forward()
        sent = posts[-1]  # the very post again, as a browser resends it
        again = page.context.request.post(
            sent.url,
            data=sent.post_data,
            headers={"content-type": sent.headers["content-type"], "origin": base},
        )
        assert again.ok
        assert expect in again.text()
        assert _api_version(base, head, awaiting) == after, f"{tool} recorded twice"
    assert not page.errors
    page.context.close()


def _api_version(base: str, token: str, game: str) -> int:
    return _version(_Http(base), token, game)


class _Http:
    """``client.get(path, headers=...)`` over a live server (``_version`` reads through it)."""

    def __init__(self, base: str) -> None:
        self.base = base

    def get(self, path: str, headers: dict[str, str]) -> httpx.Response:
        return httpx.get(self.base + path, headers=headers)


@chromium
def test_with_javascript_a_reload_after_every_form_records_nothing_twice(
    browser: Any,
    live_server: ThreadServer,
    tokens: Tokens,
    awaiting: str,  # noqa: F811
) -> None:
    base, head = live_server.base, tokens["head"]
    page = signed_in(browser, base, head)
    page.goto(f"{base}/games/{awaiting}")
    for tool, fill, expect in STEPS:
        before = _api_version(base, head, awaiting)
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
        after = _api_version(base, head, awaiting)
        assert after > before, tool
        page.reload()
        page.wait_for_selector("#live.on")
        assert _api_version(base, head, awaiting) == after, f"{tool} recorded twice"
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
