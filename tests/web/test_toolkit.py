"""The referee's toolkit: while a ruling is awaited (REF-6.2) every face says so and lists
only the ruling; the table page's referee forms (adjust, answer a ruling, penalty, dispute,
ruling, appeal, backup, retract) go through the application layer, with and without
JavaScript, and show the CLI's message and clause when refused.

Played on the test game Tribute (three seats, decks, a card that needs a ruling)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from litestar import Litestar
from litestar.testing import TestClient
from typer.testing import CliRunner

from cli.main import app as cli_app
from referee.kit.decks import parse_decklist
from service.app import RefereeService, open_service
from service.toolkit import penalty_advice, toolkit
from tests.web import test_pages
from tests.web.conftest import ThreadServer, Tokens, auth
from tests.web.test_pages import CHROMIUM, signed_in

THREE = {"p1": "Ann", "p2": "Ben", "p3": "Cy"}


def tribute(svc: RefereeService, *, table: str = "1", ruling: bool = True) -> str:
    """A Tribute game at ``table``, one round drawn and (``ruling``) the Joker played, so
    that a ruling on it is awaited."""
    game = svc.create_game(
        "tribute",
        THREE,
        decks={
            "p1": parse_decklist("2 Ace\n1 Joker"),
            "p2": parse_decklist("2 King"),
            "p3": parse_decklist("2 Jack"),
        },
        meta={"table": table},
    ).game_id
    for seat in ("p1", "p2", "p3"):
        svc.record(game, "draw 2", actor=seat)
    if ruling:
        assert svc.record(game, "play Joker").rulings
    return game


@pytest.fixture
def awaiting(store: str) -> str:
    svc = open_service(Path(store))
    try:
        return tribute(svc)
    finally:
        svc.close()


# -- 1. while a ruling is awaited --------------------------------------------------------------


def test_ref_6_2_legal_lists_only_the_awaited_ruling_in_the_application_layer(
    store: str, awaiting: str
) -> None:
    svc = open_service(Path(store))
    try:
        legal = svc.legal(awaiting)
        assert legal.actions == []  # no entry of the game: each would be refused (REF-6.2)
        assert legal.awaited is not None
        assert legal.awaited.card == "Joker"
        assert legal.awaited.seat == "p1"
        assert "REF-6.2" in legal.awaited.message
        assert "the referee" in legal.awaited.message
        assert all(e.startswith("adjust ") for e in legal.awaited.entries)
        svc.adjust(awaiting, "resource p1 score +4", card="Joker", reason="four")
        after = svc.legal(awaiting)
        assert after.awaited is None
        assert after.actions
    finally:
        svc.close()


def test_ref_6_2_legal_over_http_says_a_ruling_is_awaited_and_by_whom(
    client: TestClient[Litestar], tokens: Tokens, awaiting: str
) -> None:
    answer = client.get(f"/api/games/{awaiting}/legal", headers=auth(tokens["table1"]))
    assert answer.status_code == 200
    body = answer.json()
    assert body["actions"] == []
    assert body["awaited"]["card"] == "Joker"
    assert body["awaited"]["answered_by"] == "the referee"
    assert "REF-6.2" in body["awaited"]["message"]


def test_ref_6_2_referee_legal_says_a_ruling_is_awaited(store: str, awaiting: str) -> None:
    runner = CliRunner()
    result = runner.invoke(cli_app, ["--db", store, "legal", awaiting])
    assert result.exit_code == 0, result.stderr
    assert "a ruling on Joker" in result.stdout
    assert "REF-6.2" in result.stdout
    assert f"referee adjust {awaiting} --none" in result.stdout
    as_json = runner.invoke(cli_app, ["--db", store, "legal", awaiting, "--json"])
    data = json.loads(as_json.stdout)
    assert data["actions"] == []
    assert data["awaited"]["event"] > 0


# -- 2. the forms, without JavaScript (plain form posts) -----------------------------------------


class Said:
    """What a page form did, as the page it redirects to shows it: the outcome's status
    (``data-status``) and the page's text."""

    def __init__(self, status_code: int, text: str) -> None:
        self.status_code = status_code
        self.text = text


def _post(client: TestClient[Litestar], token: str, game: str, action: str, **form: str) -> Any:
    """Post a page form as a browser without JavaScript does: a 303 to the table page,
    which is then read (post/redirect/get)."""
    page = client.get(f"/games/{game}", headers=auth(token)).text
    keys = re.findall(r'name="idem" value="([^"]+)"', page)
    sent = client.post(
        f"/games/{game}/do/{action}",
        data={"idem": keys[0] if keys else "k" + str(len(form)), **form},
        headers={**auth(token), "Sec-Fetch-Site": "same-origin"},
        follow_redirects=False,
    )
    if sent.status_code != 303:
        return sent  # refused before the form ran (a write from another site: 403)
    shown = client.get(sent.headers["location"], headers=auth(token))
    found = re.search(r'id="said" role="status" data-status="(\d+)"', shown.text)
    assert found, shown.text
    return Said(int(found.group(1)), shown.text)


def test_each_form_answers_with_the_table_page_and_what_happened(
    client: TestClient[Litestar], tokens: Tokens, awaiting: str
) -> None:
    head, tom = tokens["head"], tokens["table1"]
    page = client.get(f"/games/{awaiting}", headers=auth(tom)).text
    assert 'id="tool-adjust"' in page
    assert "Answer the awaited ruling on Joker" in page
    # an entry while the ruling is awaited: refused with the CLI's message and clause
    refused = _post(client, tom, awaiting, "entry", entry="play Ace", seat="p2")
    assert refused.status_code == 409
    assert "REF-6.2" in refused.text
    answered = _post(
        client, tom, awaiting, "adjust", kind="resource", changes="p1 score +4",
        card="Joker", reason="the table ruled four", answers="",
    )  # fmt: skip
    assert answered.status_code == 201
    assert "adjustment for Joker" in answered.text
    assert "Legal entries" in answered.text
    recorded = _post(client, tom, awaiting, "entry", entry="play King", seat="p2")
    assert recorded.status_code == 201
    assert "recorded play King by p2" in recorded.text
    retracted = _post(client, tom, awaiting, "retract", reason="misheard")
    assert retracted.status_code == 201
    assert "retracted action" in retracted.text
    # a table referee may not back up (the head referee does); the refusal says why
    assert _post(client, tom, awaiting, "backup", to="1", reason="x").status_code == 403
    backed = _post(client, head, awaiting, "backup", to="2", reason="wrong draws")
    assert backed.status_code == 201
    assert "backed up to action 2" in backed.text
    too_far = _post(client, head, awaiting, "backup", to="9", reason="x")
    assert too_far.status_code == 409
    assert "REF-2.3" in too_far.text
    opened = _post(client, tom, awaiting, "dispute", event="5", by="Ben", claim="I drew one")
    assert opened.status_code == 201
    assert "dispute 1 on event 5 by Ben" in opened.text
    early = _post(client, tom, awaiting, "appeal", dispute="1", by="Ben", grounds="unfair")
    assert early.status_code == 409
    assert "dispute 1" in early.text
    assert "REF-4.3" in early.text
    ruled = _post(
        client, tom, awaiting, "rule", dispute="1", decision="uphold", clause="REF-4.2",
        reason="two were seen",
    )  # fmt: skip
    assert ruled.status_code == 201
    assert "dispute 1: referee ruling by" in ruled.text
    appealed = _post(client, tom, awaiting, "appeal", dispute="1", by="Ben", grounds="video")
    assert appealed.status_code == 201
    assert "dispute 1: appealed by Ben" in appealed.text
    again = _post(client, tom, awaiting, "rule", dispute="1", decision="uphold", clause="REF-4.2",
                  reason="x")  # fmt: skip
    assert again.status_code == 403  # an appeal is the head referee's
    assert "only the head referee" in again.text


def test_ipg_penalty_form_shows_the_upgrade_a_repeat_calls_for(
    client: TestClient[Litestar], tokens: Tokens, awaiting: str, store: str
) -> None:
    head = tokens["head"]
    for _ in range(2):
        first = _post(
            client, head, awaiting, "penalty", seat="p2", infraction="slow-play", level="warning"
        )
        assert first.status_code == 201
    # EV-8.4: a second Tournament Error warning of the same kind suggests a game loss
    assert "upgrade: a repeat of slow-play calls for game-loss" in first.text
    page = client.get(f"/games/{awaiting}", headers=auth(head)).text
    assert "the IPG suggests game-loss, not warning (EV-8.4)" in page
    svc = open_service(Path(store))
    try:
        view = svc.load(awaiting)
        advice = penalty_advice(view, "p2", "Slow play")
        assert advice is not None
        assert advice.earlier == 2
        assert advice.upgrade
        assert [u.infraction for u in toolkit(view).upgrades] == ["slow-play"]
    finally:
        svc.close()
    refused = _post(client, head, awaiting, "penalty", seat="p9", infraction="x", level="warning")
    assert refused.status_code == 400
    assert "p9" in refused.text
    tom = _post(
        client, tokens["table1"], awaiting, "penalty", seat="p2", infraction="x", level="warning"
    )
    assert tom.status_code == 403
    assert "only the head referee may do this" in tom.text


def test_a_form_from_another_site_is_refused(
    client: TestClient[Litestar], tokens: Tokens, awaiting: str
) -> None:
    client.cookies.set("referee_token", tokens["head"])
    answer = client.post(
        f"/games/{awaiting}/do/retract",
        data={"reason": "x"},
        headers={"Sec-Fetch-Site": "cross-site"},
    )
    assert answer.status_code == 403


# -- 2. the forms in Chromium, enhanced by the page's script -------------------------------------

browser = test_pages.browser


@pytest.fixture
def served(awaiting: str, request: pytest.FixtureRequest) -> ThreadServer:
    found: ThreadServer = request.getfixturevalue("live_server")
    return found


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no browser: {CHROMIUM}")
def test_each_form_submits_and_shows_its_result_or_refusal_in_chromium(
    browser: Any, served: ThreadServer, tokens: Tokens, awaiting: str
) -> None:
    page = signed_in(browser, served.base, tokens["head"])
    page.goto(f"{served.base}/games/{awaiting}")
    assert "a ruling on Joker" in page.inner_text("#awaited")
    assert not page.is_visible("#legal")  # only the ruling may be entered

    def submit(tool: str, fill: dict[str, str], expect: str, good: bool = True) -> None:
        form = page.locator(f'form[data-tool="{tool}"]')
        details = form.locator("xpath=ancestor::details[1]")
        if details.get_attribute("open") is None:
            details.locator("summary").click()
        for name, value in fill.items():
            field = form.locator(f'[name="{name}"]')
            if field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(value)
            elif field.get_attribute("type") == "checkbox":
                field.check()
            else:
                field.fill(value)
        page.evaluate("document.getElementById('result').textContent = ''")
        form.locator("button[type=submit]").click()
        page.wait_for_function(
            "document.getElementById('result').textContent.length > 0", timeout=15_000
        )
        text = page.inner_text("#result")
        assert expect in text, text
        assert ("good" if good else "bad") in (page.get_attribute("#result", "class") or "")

    submit(
        "adjust",
        {"kind": "resource", "changes": "p1 score -50", "reason": "too much"},
        "REF-6.3",
        good=False,
    )
    # a refusal keeps what was typed, to be corrected rather than typed again
    adjust = page.locator('form[data-tool="adjust"]')
    assert adjust.locator('[name="changes"]').input_value() == "p1 score -50"
    assert adjust.locator('[name="kind"]').input_value() == "resource"
    submit(
        "adjust",
        {"kind": "resource", "changes": "p1 score +4", "reason": "ruled four"},
        "adjustment for Joker",
    )
    page.wait_for_selector("#awaited", state="hidden")
    assert page.is_visible("#legal")
    submit("penalty", {"seat": "p2", "infraction": "slow-play"}, "penalty: warning for p2")
    submit("dispute", {"event": "5", "by": "Ben", "claim": "I drew one"}, "dispute 1 on event 5")
    # nothing to appeal before a ruling: the appeal form is not there (REF-4.3)
    assert page.locator('form[data-tool="appeal"]').count() == 0
    submit(
        "rule",
        {"dispute": "1", "decision": "uphold", "clause": "REF-4.2", "reason": "seen"},
        "dispute 1: referee ruling",
    )
    submit("appeal", {"dispute": "1", "by": "Ben", "grounds": "video"}, "dispute 1: appealed")
    submit("backup", {"to": "9", "reason": "x"}, "REF-2.3", good=False)
    submit("backup", {"to": "2", "reason": "wrong draws"}, "backed up to action 2")
    submit("retract", {"reason": "misheard"}, "retracted action 2")
    assert not page.errors
    page.context.close()


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no browser: {CHROMIUM}")
def test_the_forms_work_without_javascript(
    browser: Any, served: ThreadServer, tokens: Tokens, awaiting: str
) -> None:
    page = signed_in(browser, served.base, tokens["table1"], java_script_enabled=False)
    page.goto(f"{served.base}/games/{awaiting}")
    page.select_option('form[data-tool="adjust"] [name="kind"]', "resource")
    page.fill('form[data-tool="adjust"] [name="changes"]', "p1 score +4")
    page.fill('form[data-tool="adjust"] [name="reason"]', "ruled four")
    page.click('form[data-tool="adjust"] button[type=submit]')
    assert "adjustment for Joker" in page.inner_text("#said")
    page.fill("#entry", "play King")
    page.click("#record")
    assert "recorded play King by p2" in page.inner_text("#said")
    page.fill("#entry", "play Ace")
    page.click("#record")
    assert "REF-5.4" in page.inner_text("#said")  # rejected, kept as evidence, and why
    page.context.close()


def test_an_entry_without_its_seat_shows_the_real_refusal(
    browser: Any, served: ThreadServer, tokens: Tokens, store: str
) -> None:
    """Typing an entry a seat must be named for, without the seat, shows REF-1.2's words,
    not 'position reloaded'."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no browser: {CHROMIUM}")
    made = httpx.post(
        f"{served.base}/api/games",
        json={
            "game": "tribute",
            "players": THREE,
            "decks": {
                "p1": {"decklist": "2 Ace"},
                "p2": {"decklist": "2 King"},
                "p3": {"decklist": "2 Jack"},
            },
        },
        headers=auth(tokens["head"]),
    )
    assert made.status_code == 201, made.text
    game = made.json()["game_id"]
    page = signed_in(browser, served.base, tokens["head"])
    page.goto(f"{served.base}/games/{game}")
    page.fill("#entry", "draw 2")
    page.click("#record")
    page.wait_for_selector("#result.bad")
    text = page.inner_text("#result")
    assert "REF-1.2" in text, text
    assert "reloaded" not in text, text
    page.context.close()


def test_a_player_gets_only_the_dispute_forms_and_the_public_none(
    client: TestClient[Litestar], tokens: Tokens, awaiting: str
) -> None:
    ann = client.get(f"/games/{awaiting}", headers=auth(tokens["ann"])).text
    assert 'data-tool="dispute"' in ann
    assert 'name="by"' not in ann
    for tool in ("adjust", "penalty", "backup", "retract", "rule"):
        assert f'data-tool="{tool}"' not in ann, tool
    opened = _post(client, tokens["ann"], awaiting, "dispute", event="5", claim="miscounted")
    assert opened.status_code == 201
    assert "by Ann" in opened.text
    public = client.get(f"/games/{awaiting}", headers=auth(tokens["public"])).text
    assert "data-tool=" not in public
    assert _post(client, tokens["public"], awaiting, "retract", reason="x").status_code == 403


def test_the_dossier_page_shows_what_referee_audit_prints(
    client: TestClient[Litestar], tokens: Tokens, awaiting: str, store: str
) -> None:
    _post(client, tokens["table1"], awaiting, "dispute", event="5", by="Ben", claim="one card")
    page = client.get(f"/games/{awaiting}/dossier?dispute=1", headers=auth(tokens["head"]))
    assert page.status_code == 200
    assert f"Dispute 1 in {awaiting} (open)" in page.text
    assert "Ben disputes event 5" in page.text
    runner = CliRunner()
    printed = runner.invoke(cli_app, ["--db", store, "audit", awaiting, "--dispute", "1"]).stdout
    assert printed.splitlines()[0] in page.text
    table = client.get(f"/games/{awaiting}", headers=auth(tokens["head"])).text
    assert f'href="/games/{awaiting}/dossier?dispute=1"' in table
    assert client.get(f"/games/{awaiting}/dossier", headers=auth(tokens["ann"])).status_code == 403
